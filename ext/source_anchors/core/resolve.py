"""Resolve a dotted path (and optional match text) to lines of a pinned tree (no Sphinx).

Two paths: a name bound once, plainly, in its module is read from the module's own
``ast`` (:mod:`.bindings`); every other name is looked up in griffe's static model
(:mod:`.griffe_walk`). A match text then narrows the span to one statement
(:mod:`.statements`). Files are read, vouched for and decoded by :mod:`.files`.
"""

from __future__ import annotations

import ast
import hashlib

from . import bindings, statements
from .config import RepoPin
from .errors import ResolveError
from .files import SourceFiles
from .griffe_walk import GriffeWalker
from .records import Location, line_range
from .sources import Tree

__all__ = ["RESOLVER_VERSION", "Location", "Resolver", "lines_hash"]

#: Bump when the resolution rules change, so cached results are recomputed.
RESOLVER_VERSION = 3


def lines_hash(lines: list[str], start: int, end: int) -> str:
    """sha256 of lines *start*..*end* joined with newlines, no trailing newline."""
    return hashlib.sha256("\n".join(lines[start - 1:end]).encode("utf-8")).hexdigest()


class Resolver:
    """Resolves targets in one pinned tree, visiting each needed module once."""

    def __init__(self, tree: Tree, pin: RepoPin, *, max_file_bytes: int) -> None:
        self.tree = tree
        self.pin = pin
        self.files = SourceFiles(tree, pin, max_file_bytes=max_file_bytes)
        self.griffe = GriffeWalker(self.files, pin)
        #: Whether to try the ast fast path before griffe (off only to compare the two in tests).
        self.fast = True
        self._packages = self.files.packages
        self._indexes: dict[str, dict[str, list[bindings.Binding]]] = {}

    def resolve(self, path: str, match: str | None = None) -> Location:
        """Resolve dotted *path*, narrowed to the statement holding *match* if given."""
        self.files.touched = set()
        fast = self._fast(path) if self.fast else None
        if fast is not None:
            file, start, end, kind = fast
        else:
            obj = self.griffe.object(path)
            file = self.griffe.file_of(obj)
            if obj.is_module:
                start, end, kind = 1, max(len(self.files.lines(file)), 1), "module"
            else:
                start, end = self.griffe.span(obj, file)
                kind = obj.kind.value
        lines = self.files.lines(file)
        if match is not None:
            start, end = self._narrow(file, start, end, match, path)
            kind = "statement"
        uses = tuple(sorted((used, self.tree.blobs[used]) for used in self.files.touched - {file}))
        return Location(path=file, start=start, end=end, kind=kind,
                        sha256=lines_hash(lines, start, end), blob=self.tree.blobs[file], uses=uses)

    @property
    def modules_parsed(self) -> int:
        """Upstream modules parsed so far, by griffe or by the fast path (a measure for benchmarks)."""
        return len(self.files.parsed)

    def _fast(self, path: str) -> tuple[str, int, int, str] | None:
        """(file, start, end, kind) when *path* is bound once, plainly, in its module; else None."""
        parts = path.split(".")
        if parts[0] not in self._packages:
            return None
        file, rest = None, parts
        for cut in range(1, len(parts) + 1):
            candidate = self.files.module_file(".".join(parts[:cut]))
            if candidate is None:
                break
            file, rest = candidate, parts[cut:]
        if file is None:
            return None
        try:
            index = self._bindings(file)  # a module anchor, too, must be a module that parses
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None  # griffe's path reports the file's problem in its own words
        if not rest:
            self.files.touched.add(file)
            return file, 1, max(len(self.file_lines(file)), 1), "module"
        found = bindings.unique(index, ".".join(rest))
        if found is None:
            return None
        self.files.touched.add(file)
        return file, found[1], found[2], found[0]

    def _bindings(self, file: str) -> dict[str, list[bindings.Binding]]:
        if file not in self._indexes:
            tree = ast.parse(self.files.text(file))  # not kept: the index is all the fast path needs
            self.files.parsed.add(file)
            self._indexes[file] = bindings.index(tree)
        return self._indexes[file]

    def file_lines(self, path: str) -> list[str]:
        """The text lines of an exported file (read and checked once)."""
        return self.files.lines(path)

    def _narrow(self, file: str, start: int, end: int, match: str, path: str) -> tuple[int, int]:
        lines = self.files.lines(file)
        hits = [n for n in range(start, min(end, len(lines)) + 1) if match in lines[n - 1]]
        where = f"{file}:{line_range(start, end)}"
        if not hits:
            raise ResolveError(f"{path}: match text {match!r} occurs on no line of {where}")
        if len(hits) > 1:
            shown = ", ".join(str(n) for n in hits[:10]) + (", …" if len(hits) > 10 else "")
            raise ResolveError(f"{path}: match text {match!r} occurs on {len(hits)} lines of {where} "
                               f"(lines {shown}); give text found on exactly one line")
        column = lines[hits[0] - 1].find(match)
        span = statements.statement_span(self.files.region(file, start, end), hits[0], lines, column)
        if span is None:
            return hits[0], hits[0]
        return span

