"""Links of documented objects with no Python source: their compiled definitions (no Sphinx, nothing imported).

An object that :func:`.apilinks.locate` finds no Python statement for is looked up in the tree's
compiled bindings (:class:`~source_anchors.reading.compiled.CompiledIndex`, built once per tree): by
its own dotted name, or, where the documented module's Python file re-exports a compiled module's
names (``from ._core import *``, ``from ._core import Name``), by its name in that module. A name a
compiled module makes in a form not read statically keeps no link, with the reason.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from ..model.errors import SourceAnchorsError
from ..model.records import Location
from ..reading.compiled import Binding, CompiledIndex, CompiledStore, Undecided
from .apiobjects import NoLink, Reason, dotted

if TYPE_CHECKING:
    from .resolver import Resolver

__all__ = ["Imports", "Rebinding", "compiled_index", "imported_names", "locate_compiled", "rebound"]

#: The rule a compiled link names: ``compiled:`` and the binding form followed.
RULE = "compiled"


def compiled_index(resolver: Resolver, store: CompiledStore | None = None) -> CompiledIndex:
    """The compiled bindings of *resolver*'s tree (its exported files, and the commit's listing).

    With a *store*, they are kept there by the blob ids of the compiled files, and taken from it
    when a build has the same ones; not for a distribution's tree, whose files are vouched for as
    they are read.
    """
    paths = set(resolver.tree.blobs) | set(resolver.listing)
    if store is None or resolver.tree.method == "dist":
        return CompiledIndex(paths, resolver.files.data)
    blobs = {**resolver.listing, **resolver.tree.blobs}
    return CompiledIndex(paths, resolver.files.data, blobs=blobs, store=store)


def locate_compiled(
    index: CompiledIndex, resolver: Resolver, module: str | None, fullname: str, python: NoLink
) -> Location | NoLink:
    """The compiled definition of *module*.*fullname*, else why not (*python*: why Python had no link)."""
    path = dotted(module, fullname)
    try:
        found = index.lookup(path) or _reexported(index, resolver, path)
    except SourceAnchorsError as error:
        return NoLink(Reason.unreadable, str(error))
    if found is None:
        return python
    if isinstance(found, Undecided):
        return NoLink(Reason.compiled, found.why)
    return _location(resolver, found)


def _reexported(index: CompiledIndex, resolver: Resolver, path: str) -> Binding | Undecided | None:
    """*path*'s binding through a ``from <compiled module> import …`` of the Python module that names it."""
    parts = path.split(".")
    for n in range(len(parts) - 1, 0, -1):
        module, rest = ".".join(parts[:n]), parts[n:]
        file = resolver.files.module_file(module) if parts[0] in resolver.files.packages else None
        if file is None:
            continue
        text = "\n".join(resolver.file_lines(file))
        for compiled in sorted(index.modules()):
            head, _, leaf = compiled.rpartition(".")
            base = (
                module
                if file.endswith(("/__init__.py", "/__init__.pyi"))
                else module.rpartition(".")[0]
            )
            spelled = {compiled, f".{leaf}"} if head == base else {compiled}
            if any(_imports(text, name, rest[0]) for name in sorted(spelled)):
                return index.lookup(".".join([compiled, *rest]))
        return None
    return None


@lru_cache(maxsize=256)
def _imports(text: str, module: str, name: str) -> bool:
    """Whether Python *text* imports *name* (or ``*``) from *module* (asked once per name of a file).

    ``*``, a parenthesised list over several lines, or a list on the one line.
    """
    if module not in text:
        return False  # the pattern spells it
    word = rf"\b{re.escape(name)}\b"
    pattern = rf"^\s*from\s+{re.escape(module)}\s+import\s+(\*|\([^)]*{word}|[^\n(]*{word})"
    return re.search(pattern, text, re.M) is not None


def _location(resolver: Resolver, found: Binding) -> Location:
    from .resolver import lines_hash

    lines = resolver.file_lines(found.path)
    blob = resolver.tree.blobs.get(found.path) or resolver.listing.get(found.path, "")
    kind = found.kind
    end = min(found.end, len(lines))
    return Location(
        path=found.path,
        start=found.start,
        end=end,
        kind=kind,
        sha256=lines_hash(lines, found.start, end),
        blob=blob,
        rule=f"{RULE}: {found.form}",
    )


#: ``from MODULE import NAMES`` (a parenthesised list may run over lines).
_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)


class Rebinding(NamedTuple):
    """A documented name that its module rebinds, below its Python definition, to a compiled module's."""

    #: The compiled module, and the documented object's dotted name in it.
    module: str
    name: str
    #: The Python file and the line of the rebinding (the import, or ``Name = Alias`` after it).
    file: str
    line: int


#: A file's names bound by ``from MODULE import``: name -> [(MODULE as spelled, line)], each file
#: scanned once (:func:`imported_names`).
Imports = dict[str, list[tuple[str, int]]]


def rebound(
    resolver: Resolver, path: str, found: Location, tables: dict[str, Imports]
) -> Rebinding | None:
    """Whether the module that binds *path*'s first name rebinds it, after *found*, to a compiled module's.

    ``class FrozenList: …`` then ``from ._frozenlist import FrozenList`` (or ``… import
    FrozenList as CFrozenList`` and ``FrozenList = CFrozenList``), in a branch or not: the branch
    runs wherever the package was built with its extension, as the package autodoc imports was.
    The module imported must have no Python file in the tree (it is confirmed as a module the
    compiled sources build by the caller). The rebinding must come below the binding that gave
    *found*: its definition, in the same file (so that a Python class that wraps the compiled one,
    ``class X(X):``, keeps its link), or the module's import of it from a Python module
    (``if not USE_EXTENSIONS: from ._multidict_py import MultiDict`` / ``else: from ._multidict
    import MultiDict``). *tables* keeps each file's imported names (by path, for the one tree of
    *resolver*).
    """
    parts = path.split(".")
    if parts[0] not in resolver.files.packages:
        return None
    for n in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:n])
        file = resolver.files.module_file(module)
        if file is None or file.endswith("/"):
            continue
        if file not in tables:
            tables[file] = imported_names("\n".join(resolver.file_lines(file)))
        package = module if file.endswith("/__init__.py") else module.rpartition(".")[0]
        compiled: list[tuple[str, int]] = []
        python: list[int] = [found.end] if file == found.path else []
        for spelled, line in tables[file].get(parts[n], []):
            source = _absolute(spelled, package)
            if source is None or source.split(".")[0] not in resolver.files.packages:
                continue
            if resolver.files.module_file(source) is None:
                compiled.append((source, line))
            elif file != found.path:
                python.append(line)  # imported from a Python module: where found came from
        after = max(python, default=None)
        for source, line in compiled:
            if after is not None and line > after:
                return Rebinding(source, ".".join([source, *parts[n:]]), file, line)
        return None
    return None


def imported_names(text: str) -> Imports:
    """The names Python *text* binds by ``from MODULE import``, with the line that binds each.

    The import's own line, or, for ``import name as alias``, that of a ``name = alias`` below it.
    """
    found: Imports = {}
    if "import" not in text:
        return found
    for match in _FROM.finditer(text):
        for item in match.group(2).strip("()").split(","):
            words = item.split("#")[0].split()
            if not words:
                continue
            name = words[0]
            alias = words[2] if len(words) == 3 and words[1] == "as" else name
            if alias == name:
                line = text.count("\n", 0, match.start()) + 1
            else:
                again = re.compile(
                    rf"^[ \t]*{re.escape(name)}[ \t]*=[ \t]*{re.escape(alias)}[ \t]*(#.*)?$", re.M
                ).search(text, match.end())
                if again is None:
                    continue
                line = text.count("\n", 0, again.start()) + 1
            found.setdefault(name, []).append((match.group(1), line))
    return found


def _absolute(spelled: str, package: str) -> str | None:
    """The dotted module ``from SPELLED import`` names in *package* (relative imports resolved)."""
    level = len(spelled) - len(spelled.lstrip("."))
    if not level:
        return spelled
    base = package.split(".") if package else []
    if level - 1 > len(base):
        return None
    base = base[: len(base) - (level - 1)]
    rest = spelled[level:]
    return ".".join([*base, rest] if rest else base) or None
