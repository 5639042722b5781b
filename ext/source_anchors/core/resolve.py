"""Resolve a dotted path (and optional match text) to lines of a pinned tree (no Sphinx).

Each module is parsed once into a compact index (:mod:`.modindex`); dotted paths are
walked through those indexes (:mod:`.walk`): imports and star imports followed,
inherited members looked up in C3 order (:mod:`.mro`), and a name bound more than once
resolved to its definition by one rule per case (:mod:`.rules`). A match text then
narrows the span to one statement (:mod:`.statements`). Files are read, vouched for and
decoded by :mod:`.files`. Nothing upstream is imported or executed.
"""

from __future__ import annotations

import hashlib

from . import statements
from .config import RepoPin
from .errors import ResolveError
from .files import SourceFiles
from .records import RESOLVER_VERSION, Location, line_range
from .sources import Tree
from .walk import Walker

__all__ = ["RESOLVER_VERSION", "Location", "Resolver", "lines_hash"]


def lines_hash(lines: list[str], start: int, end: int) -> str:
    """sha256 of lines *start*..*end* joined with newlines, no trailing newline."""
    return hashlib.sha256("\n".join(lines[start - 1:end]).encode("utf-8")).hexdigest()


class Resolver:
    """Resolves targets in one pinned tree, parsing each needed module once."""

    def __init__(self, tree: Tree, pin: RepoPin, *, max_file_bytes: int) -> None:
        self.tree = tree
        self.pin = pin
        self.files = SourceFiles(tree, pin, max_file_bytes=max_file_bytes)
        self.walker = Walker(self.files, pin)

    def resolve(self, path: str, match: str | None = None) -> Location:
        """Resolve dotted *path*, narrowed to the statement holding *match* if given."""
        self.files.touched = set()
        ref = self.walker.object(path)
        self.walker.index(ref)  # a module anchor, too, must be a module that parses
        file, lines = ref.file, self.files.lines(ref.file)
        rule, others, caveat = ref.rule, ref.others, ref.caveat
        if ref.bind is None:
            start, end, kind = 1, max(len(lines), 1), "module"
        else:
            start, end, kind = ref.bind.start, ref.bind.end, ref.bind.kind
        if match is not None:
            start, end = self._narrow(file, ref.module, (start, end), others, match, path)
            kind, rule, others = "statement", "", ()
        uses = tuple(sorted((used, self.tree.blobs[used]) for used in self.files.touched - {file}))
        return Location(path=file, start=start, end=end, kind=kind, sha256=lines_hash(lines, start, end),
                        blob=self.tree.blobs[file], uses=uses, rule=rule, others=others, caveat=caveat)

    @property
    def modules_parsed(self) -> int:
        """Upstream modules parsed so far (a measure for benchmarks)."""
        return len(self.files.parsed)

    @property
    def ast_parses(self) -> int:
        """``ast.parse`` calls so far, failed ones included (at most one per file)."""
        return self.files.ast_parses

    def file_lines(self, path: str) -> list[str]:
        """The text lines of an exported file (read and checked once)."""
        return self.files.lines(path)

    def _narrow(self, file: str, module: str, span: tuple[int, int], others: tuple[tuple[int, int], ...],
                match: str, path: str) -> tuple[int, int]:
        """The statement holding the one line with *match*: in the definition, else in the other bindings."""
        lines = self.files.lines(file)

        def hits_in(spans: tuple[tuple[int, int], ...]) -> list[int]:
            return sorted({n for start, end in spans for n in range(start, min(end, len(lines)) + 1)
                           if match in lines[n - 1]})

        hits = hits_in((span,))
        where = f"{file}:{line_range(*span)}"
        if not hits and others:
            hits = hits_in(others)
            where += " or of the other bindings (" + ", ".join(line_range(*o) for o in others) + ")"
        if not hits:
            raise ResolveError(f"{path}: match text {match!r} occurs on no line of {where}")
        if len(hits) > 1:
            shown = ", ".join(str(n) for n in hits[:10]) + (", …" if len(hits) > 10 else "")
            raise ResolveError(f"{path}: match text {match!r} occurs on {len(hits)} lines of {where} "
                               f"(lines {shown}); give text found on exactly one line")
        column = lines[hits[0] - 1].find(match)
        found = statements.compact_span(self.files.index(file, module).statements, hits[0], lines, column)
        return found if found is not None else (hits[0], hits[0])
