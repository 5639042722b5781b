"""The files of one pinned tree as Python reads them: bytes, decoded text, lines, module indexes (pure).

Each file is read (and, for a distribution, vouched for by the tree itself) and decoded
once, and parsed whole at most once (a star-imported module may first have only its head
parsed, to read its ``__all__``: :meth:`SourceFiles.exports`): the parse is turned into a compact
:class:`~.modindex.ModuleIndex` and the syntax tree dropped, so keeping every index
costs the garbage collector nothing, whatever order the pages cite modules in; the collector
is paused while a file is parsed (see :func:`collector_paused`).
With an :class:`IndexStore` (the engine's cache of earlier runs), a whole file's index stored
under its :func:`~.indexcodec.index_key` is used instead of a parse, and each parse is stored.
:attr:`SourceFiles.parsed` holds the files parsed, :attr:`SourceFiles.loaded` those whose index
came from the store, :attr:`SourceFiles.ast_parses` counts every ``ast.parse`` call.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from ...model.config import RepoPin
from ...model.errors import UpstreamFileError
from ...model.textlines import decode_source, split_lines
from ...sources.trees import Tree
from ..collector import collector_paused
from .conditions import Python
from .indexcodec import index_key
from .modindex import Exports, ModuleIndex, build

_STAR = re.compile(r"\bimport\s+\*")


class IndexStore(Protocol):
    """Module indexes kept between runs, by :func:`~.indexcodec.index_key` (the engine's on-disk cache)."""

    def get(self, key: str) -> ModuleIndex | None:
        """The index stored under *key*, if any."""

    def put(self, key: str, index: ModuleIndex) -> None:
        """Keep *index*, built by a parse, under *key*."""

    def statements(self, key: str) -> Sequence[Any] | None:
        """The statements of the index stored under *key*, if any (:func:`~.indexcodec.statements_of`)."""


class SourceFiles:
    """Reads, decodes and parses the files of *tree*; maps dotted module names to files."""

    def __init__(
        self,
        tree: Tree,
        pin: RepoPin,
        *,
        max_file_bytes: int,
        fetch: Callable[[str], bytes] | None = None,
        python: Python | None = None,
        store: IndexStore | None = None,
    ) -> None:
        self.tree = tree
        #: Indexes of earlier runs (of any commit), used instead of a parse when the key matches.
        self.store = store
        #: The Python that tests of the version and platform are decided for (:mod:`.conditions`).
        self.python = python
        #: Reads a file of the commit that the tree did not export (a file target outside the
        #: packages).
        self.fetch = fetch
        self.max_file_bytes = max_file_bytes
        self.packages = pin.package_dirs()
        #: Files parsed (successfully) so far.
        self.parsed: set[str] = set()
        #: Files whose index came from :attr:`store` (not parsed).
        self.loaded: set[str] = set()
        #: ``ast.parse`` calls so far, failed ones included: at most one per file.
        self.ast_parses = 0
        #: Reads of each file's bytes, and its ``ast.parse`` calls (a head's included), by path.
        self.reads: Counter[str] = Counter()
        self.parses: Counter[str] = Counter()
        #: Files read for the resolution in progress (reset by the resolver for each target).
        self.touched: set[str] = set()
        self._texts: dict[str, str] = {}
        self._lines: dict[str, list[str]] = {}
        self._indexes: dict[str, ModuleIndex] = {}
        self._failures: dict[str, UpstreamFileError] = {}
        self._exports: dict[str, Exports | None] = {}
        self._modules: dict[str, str | None] = {}
        self._folders: set[str] | None = None
        #: Whether a file's text names a word, by (file, word); whether it has a star import, by
        #: file.
        self._words: dict[tuple[str, str], bool] = {}
        self._stars: dict[str, bool] = {}
        #: Each file's key in :attr:`store`.
        self._keys: dict[str, str] = {}

    def data(self, path: str) -> bytes:
        """The bytes of *path*: from the tree, else (a file it did not export) from :attr:`fetch`."""
        self.reads[path] += 1
        if self.tree.has(path) or self.fetch is None:
            return self.tree.read_bytes(path, max_bytes=self.max_file_bytes)
        data = self.fetch(path)
        if len(data) > self.max_file_bytes:
            raise UpstreamFileError(
                f"{path} is {len(data):,} bytes, above the {self.max_file_bytes:,}-byte "
                "limit; not parsed"
            )
        return data

    def text(self, path: str, data: bytes | None = None) -> str:
        """The decoded text of *path* (read once; *data*: its bytes, when the caller has read them)."""
        if path not in self._texts:
            data = self.data(path) if data is None else data
            try:
                self._texts[path] = decode_source(data)
            except UnicodeDecodeError as error:
                name = (
                    "UTF-8"
                    if error.encoding.replace("_", "-").lower().startswith("utf-8")
                    else error.encoding
                )
                raise UpstreamFileError(
                    f"{path}: not valid {name} (byte {error.start}); not parsed"
                ) from error
        return self._texts[path]

    def lines(self, path: str, data: bytes | None = None) -> list[str]:
        """The text lines of *path*, counted as Python and code hosts count them (*data*: as for :meth:`text`)."""
        if path not in self._lines:
            self._lines[path] = split_lines(self.text(path, data))
        return self._lines[path]

    def index(self, path: str, module: str) -> ModuleIndex:
        """The index of *path*, the file of module *module*, from its one parse (a failure is kept too).

        With a :attr:`store`, an index stored under the file's key is used instead of a parse, and
        a parse is stored. Raises :class:`UpstreamFileError` when the file cannot be read, decoded
        or parsed.
        """
        self.touched.add(path)
        found = self._indexes.get(path)
        if found is not None:
            return found
        if path in self._failures:
            raise self._failures[path]
        try:
            text = self.text(path)
            found = self._stored(path, text, module) if path not in self._keys else None
            if found is not None:
                return found
            found = self._parse(text, self.lines(path), path, module)
        except UpstreamFileError as error:
            self._failures[path] = error
            raise
        except SyntaxError as error:
            where = f" at line {error.lineno}" if error.lineno else ""  # a NUL byte has no line
            self._failures[path] = UpstreamFileError(f"{path}: syntax error{where}: {error.msg}")
            raise self._failures[path] from error
        except (RecursionError, MemoryError, ValueError) as error:
            self._failures[path] = UpstreamFileError(
                f"{path}: cannot be parsed ({type(error).__name__})"
            )
            raise self._failures[path] from error
        self.parsed.add(path)
        self._indexes[path] = found
        if self.store is not None:
            # a parse of the whole file: never a head's (see exports)
            self.store.put(self._keys[path], found)
        return found

    def exports(self, path: str, module: str, name: str) -> Exports | None:
        """The ``__all__`` of *path* (module *module*) as read statically, or None when it has none.

        Asked for a star import of the module that may bind *name*. When ``__all__`` does not hold
        the name, that is all the answer needs, so a file not yet indexed is parsed only as far as
        it must be. An ASCII text that never spells ``__all__`` has none (no parse). Else its head,
        the text up to the end of the line of its last ``__all__``, is parsed if that is at most
        half of it (:func:`_head`) and does not quote *name* (which it then most likely does not
        list). The head parses only if no bracket, string or block is left open there, and every
        statement that can set a static ``__all__`` names it, so the head's ``__all__`` is the
        file's. Otherwise the file is indexed whole (:meth:`index`). The whole file is still parsed
        at most once; a head may be parsed before it, when another anchor or a base class later
        needs the module's bindings. Python reads identifiers NFKC-normalised, so in a text that is
        not ASCII another spelling may bind ``__all__``: only the whole file says.
        """
        self.touched.add(path)
        found = self._indexes.get(path)
        if found is not None:
            return found.exports
        if path in self._exports:
            return self._exports[path]
        text = None if path in self._failures else self.text(path)
        stored = (
            self._stored(path, text, module)
            if text is not None and path not in self._keys
            else None
        )
        if stored is not None:  # a stored whole index costs less than a head's parse
            return stored.exports
        if text is not None and text.isascii():
            if "__all__" not in text:
                self._exports[path] = None
                return None
            head = _head(text)
            if head is not None and f'"{name}"' not in head and f"'{name}'" not in head:
                try:
                    names = self._parse(head, split_lines(head), path, module).exports
                except (SyntaxError, RecursionError, MemoryError, ValueError):
                    pass  # not a complete module there: the whole file says
                else:
                    self._exports[path] = names
                    return names
        return self.index(path, module).exports

    def _stored(self, path: str, text: str, module: str) -> ModuleIndex | None:
        """The index of *path* kept in :attr:`store` (looked up once: its key is kept), or None."""
        if self.store is None:
            return None
        key = self._keys[path] = index_key(
            text, module, package=path.endswith("/__init__.py"), python=self.python
        )
        found = self.store.get(key)
        if found is not None:
            self.loaded.add(path)
            self._indexes[path] = found
        return found

    def _parse(self, text: str, lines: list[str], path: str, module: str) -> ModuleIndex:
        """One ``ast.parse`` of *text* (all of *path*, or its head), indexed with the collector paused."""
        self.ast_parses += 1
        self.parses[path] += 1
        with collector_paused():
            tree = ast.parse(text)
            found = build(
                tree,
                lines,
                module,
                package=path.endswith("/__init__.py"),
                walrus=":=" in text,
                all_mentions=text.count("__all__") if text.isascii() else None,
                python=self.python,
            )
            # freed before collection resumes, or the first collection would walk all of it
            del tree
        return found

    def module_file(self, dotted: str) -> str | None:
        """The file of module *dotted* (``pkg/__init__.py`` or ``pkg/mod.py``), if the tree has it.

        A folder of Python files without ``__init__.py`` inside a package is a namespace package
        (PEP 420), which Python imports only when it finds neither of those: its "file" is the
        folder, ending in ``/`` (:func:`is_namespace`).
        """
        if dotted in self._modules:
            return self._modules[dotted]
        parts = dotted.split(".")
        if len(parts) > 1:  # inside a package only: 'a.b' is no module when a is a plain module
            parent = self.module_file(".".join(parts[:-1]))
            if parent is None or not (parent.endswith("/__init__.py") or is_namespace(parent)):
                self._modules[dotted] = None
                return None
        base = "/".join([self.packages[parts[0]], *parts[1:]])
        found = None
        for candidate in (f"{base}/__init__.py", f"{base}.py"):
            if self.tree.has(candidate):
                found = candidate
                break
        if found is None:  # a namespace package, inside a package or at the top (PEP 420)
            if self._folders is None:
                self._folders = python_folders(self.tree.blobs)
            found = f"{base}/" if f"{base}/" in self._folders else None
        self._modules[dotted] = found
        return found


def known_statements(files: SourceFiles, path: str, module: str) -> Sequence[Any] | None:
    """The statements of *path* (module *module*) of *files* when its index is at hand, made or stored before.

    Never a parse, and not a resolution's input: nothing is added to :attr:`SourceFiles.touched`.
    Statements that only the store has are read alone, as nested lists
    (:func:`~.indexcodec.statements_of`), and not kept.
    """
    found = files._indexes.get(path)
    if found is not None:
        return found.statements
    if path in files._failures or path in files._keys or files.store is None:
        return None
    try:
        text = files.text(path)
    except UpstreamFileError:
        return None
    return files.store.statements(
        index_key(text, module, package=path.endswith("/__init__.py"), python=files.python)
    )


def may_bind(files: SourceFiles, path: str, name: str) -> bool:
    """Whether the module in *path* of *files* may bind *name* (to walk into a submodule, checked without a parse).

    A text that never names it and has no star import cannot bind it. Python reads identifiers
    normalised (NFKC: ``ﬁeld`` is ``field``), so a text that is not ASCII may bind any name.
    """
    files.touched.add(path)  # every answer that depends on a file names it, cached or not
    key = (path, name)
    found = files._words.get(key)
    if found is None:
        text = files.text(path)
        stars = files._stars.get(path)
        if stars is None:
            stars = files._stars[path] = _STAR.search(text) is not None
        # A substring search first (most names are absent); the word pattern only to confirm.
        found = files._words[key] = (
            stars
            or not text.isascii()
            or (name in text and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None)
        )
    return found


def submodule_names(files: SourceFiles, package_file: str) -> set[str]:
    """Names of the modules and subpackages of a package (*package_file*: its ``__init__.py`` or its folder)."""
    if package_file.endswith("/__init__.py"):
        folder = package_file[: -len("__init__.py")]
    elif is_namespace(package_file):
        folder = package_file
    else:
        return set()
    names = set()
    for path in files.tree.blobs:
        if path.startswith(folder) and path.endswith(".py"):
            rest = path[len(folder) :]
            if "/" not in rest and rest != "__init__.py":
                names.add(rest.removesuffix(".py"))
            elif "/" in rest:
                names.add(rest.split("/", 1)[0])  # a subpackage, or a namespace package (PEP 420)
    return names


def python_folders(paths: Iterable[str]) -> set[str]:
    """Every folder (ending in ``/``) that holds a Python file among *paths*, at any depth."""
    folders: set[str] = set()
    for path in paths:
        if path.endswith(".py"):
            folder = path.rpartition("/")[0]
            while folder and f"{folder}/" not in folders:
                folders.add(f"{folder}/")
                folder = folder.rpartition("/")[0]
    return folders


def is_namespace(file: str) -> bool:
    """Whether a module's *file* (from :meth:`SourceFiles.module_file`) is a namespace package's folder."""
    return file.endswith("/")


def _head(text: str) -> str | None:
    """*text* up to the end of the line where the statement holding its last ``__all__`` ends, if in its first half.

    The line's end is found by counting brackets from that ``__all__`` on (a backslash at a line's
    end goes on to the next); a bracket inside a string may end the count early or late, and then
    the head does not parse, or is too long to be worth it: either way the whole file is parsed.
    """
    depth, at, size = 0, text.rfind("__all__"), len(text)
    while 0 <= at < size // 2:
        char = text[at]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "\n" and depth <= 0 and text[at - 1] != "\\":
            return text[: at + 1]
        at += 1
    return None
