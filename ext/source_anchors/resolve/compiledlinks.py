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
from typing import TYPE_CHECKING

from ..model.errors import SourceAnchorsError
from ..model.records import Location
from ..reading.compiled import Binding, CompiledIndex, CompiledStore, Undecided
from .apiobjects import NoLink, Reason, dotted

if TYPE_CHECKING:
    from .resolver import Resolver

__all__ = ["compiled_index", "locate_compiled"]

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
