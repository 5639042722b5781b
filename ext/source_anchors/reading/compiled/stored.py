"""A tree's compiled bindings kept between builds: their key and their JSON form (pure).

What :class:`.index.CompiledIndex` answers depends only on the tree's paths, the bytes of its
compiled files and the code that reads them (this folder, the tree-sitter languages, the grammar
wheels). :func:`index_key` hashes exactly those, the bytes by their git blob ids, so a build whose
tree has the same compiled files (at any commit) takes what is kept instead of reading and parsing
every file again; any change of a compiled file, of the paths or of the reading code gives another
key. What is kept (:class:`Known`) is every claim the binding readers made, which needs no parse,
and the names decided so far, each of which may have needed some: a name is decided when it is
first asked for, so a build decides the names its pages document, and a later build asks the store
for those and decides only the new ones. The store itself (files in the cache folder) is the
engine's.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Protocol

from ...model.version import __version__
from .records import Binding, Claim, Undecided

__all__ = ["CompiledStore", "Known", "decode", "encode", "index_key"]

#: Bump when the JSON form changes shape.
FORMAT = 2


class Known:
    """What an index knows of a tree: its claims, the names no claim can decide, the names decided so far.

    A plain class, not a dataclass: it is made in every build that links compiled objects, and
    a dataclass's methods are compiled when its module is imported.
    """

    def __init__(
        self,
        claims: dict[str, list[Claim]],
        undecided: dict[str, Undecided],
        decided: dict[str, Binding | Undecided] | None = None,
    ) -> None:
        #: Every claim of the binding readers, by the Python name, in the order they were made.
        self.claims = claims
        #: The names (or ``module.*``) the readers found made in a form not read statically.
        self.undecided = undecided
        #: The answer of each name decided so far (a name is decided when first asked for).
        self.decided: dict[str, Binding | Undecided] = decided if decided is not None else {}
        self._modules: set[str] | None = None

    def modules(self) -> set[str]:
        """The dotted modules the compiled files build."""
        if self._modules is None:  # asked for each object a Python module may re-export
            self._modules = {
                n for n, claims in self.claims.items() if any(c.kind == "module" for c in claims)
            }
        return self._modules


#: The packages whose files decide definitions (the parser and the grammars it reads).
_WHEELS = ("tree_sitter", "tree_sitter_c", "tree_sitter_cpp", "tree_sitter_rust")


class CompiledStore(Protocol):
    """Where built bindings are kept, by key (the engine's cache folder)."""

    def compiled(self, key: str) -> str | None:
        """The JSON text stored under *key*, or None."""

    def put_compiled(self, key: str, text: Callable[[], str]) -> None:
        """Keep what *text* gives under *key* (a store that cannot write keeps nothing).

        *text* encodes what the index knows when it is called: a store may call it when it writes
        (the engine's, once, when it flushes its indexes), so that an index which decides many names
        is encoded and written once, with all of them.
        """


@cache
def reader_digest() -> str:
    """sha256 of the files of the code that reads compiled bindings and of the wheels it parses with (once a process).

    Each file is known by its path, size and modification time, as a wheel's are (found, not
    imported or read: a stored index needs no grammar loaded, and a first build no reading of the
    reader's own sources, which cost as much as the rest of deciding a few names): an edit, another
    version or a reinstall gives another digest.
    """
    reading = Path(__file__).resolve().parents[1]  # source_anchors/reading/
    digest = hashlib.sha256(f"compiled {FORMAT} {__version__}\0".encode())
    for top, suffixes in (("compiled", (".py",)), ("languages", (".py", ".scm"))):
        for folder, folders, names in os.walk(reading / top):
            folders.sort()
            for name in sorted(names):
                if name.endswith(suffixes):
                    digest.update(_stamp(reading, os.path.join(folder, name)))
    for name in ("language.py", "registry.py"):
        digest.update(_stamp(reading, os.path.join(reading, name)))
    for wheel in _WHEELS:
        digest.update(f"{wheel} {_installed(wheel)}\0".encode())
    return digest.hexdigest()


def _stamp(reading: Path, file: str) -> bytes:
    """*file*'s path under *reading*, size and modification time (``absent`` when it cannot be read)."""
    relative = os.path.relpath(file, reading).replace(os.sep, "/")
    try:
        found = os.stat(file)
    except OSError:
        return f"{relative} absent\0".encode()
    return f"{relative} {found.st_size} {found.st_mtime_ns}\0".encode()


def _installed(package: str) -> str:
    """The files of *package*'s folder with their sizes and times, or ``absent``."""
    try:
        spec = find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None:
        return "absent"
    try:
        with os.scandir(Path(spec.origin).parent) as entries:
            found = sorted(
                f"{e.name}:{e.stat().st_size}:{e.stat().st_mtime_ns}"
                for e in entries
                if e.is_file()
            )
    except OSError:
        return "unreadable"
    return " ".join(found)


def index_key(
    every: Iterable[str], compiled: Iterable[str], blobs: Mapping[str, str]
) -> str | None:
    """The key of the bindings of a tree with paths *every*, its *compiled* files' blob ids in *blobs*.

    None when a compiled file's blob id is not known (then nothing is stored).
    """
    digest = hashlib.sha256(f"{reader_digest()}\0".encode())
    digest.update("\n".join(every).encode("utf-8", "surrogatepass") + b"\0")
    for path in compiled:
        blob = blobs.get(path)
        if not blob:
            return None
        digest.update(f"{path} {blob}\n".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def encode(known: Known) -> str:
    """*known* as JSON text."""
    return json.dumps(
        {
            "format": FORMAT,
            "claims": [
                [c.name, c.path, c.form, c.kind, c.symbol, c.lines, c.first]
                for claims in known.claims.values()
                for c in claims
            ],
            "undecided": [[u.name, u.why] for u in known.undecided.values()],
            "decided": [
                [a.name, a.path, a.start, a.end, a.kind, a.form]
                if isinstance(a, Binding)
                else [a.name, a.why]
                for a in known.decided.values()
            ],
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )


def decode(text: str) -> Known | None:
    """What :func:`encode` wrote, or None when *text* is not that (damaged, or another format)."""
    try:
        data = json.loads(text)
        if data["format"] != FORMAT:
            return None
        claims: dict[str, list[Claim]] = {}
        for name, path, form, kind, symbol, lines, first in data["claims"]:
            start, end = lines
            claims.setdefault(name, []).append(
                Claim(name, path, form, kind, tuple(symbol), (int(start), int(end)), tuple(first))
            )
        undecided = {name: Undecided(name, why) for name, why in data["undecided"]}
        decided: dict[str, Binding | Undecided] = {}
        for answer in data["decided"]:
            if len(answer) == 2:
                decided[answer[0]] = Undecided(*answer)
            else:
                name, path, start, end, kind, form = answer
                decided[name] = Binding(name, path, int(start), int(end), kind, form)
        return Known(claims, undecided, decided)
    except (ValueError, KeyError, TypeError):
        return None
