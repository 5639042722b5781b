"""A file parsed once: its tree, its lines, its definitions (``tree_sitter`` objects, kept per file).

:class:`LanguageFiles` keeps each file's :class:`Parsed` per (path, blob), so that a build parses a
file once however many anchors name it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..language import Definition

if TYPE_CHECKING:
    import tree_sitter

    from ..language import Language

_NEWLINE = re.compile(b"\n")
_BLANK = b" \t\r\n\f\v"


@dataclass
class Parsed:
    """One file's bytes and syntax tree, with the definitions read from it once."""

    source: bytes
    tree: tree_sitter.Tree
    #: The byte offset of every newline, for lines by bisection.
    newlines: list[int] = field(init=False)
    #: The definitions, in the order of their first lines (filled by the language).
    definitions: list[Definition] = field(default_factory=list)
    #: Each definition's node id (and its wrapper's) to its record and the line its body starts on
    #: (0: none).
    by_node: dict[int, tuple[Definition, int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.newlines = [found.start() for found in _NEWLINE.finditer(self.source)]

    def line_of(self, offset: int) -> int:
        """The 1-based line holding byte *offset*."""
        return bisect.bisect_left(self.newlines, offset) + 1

    def last_line(self, node: tree_sitter.Node) -> int:
        """The last line of *node* holding something other than white space (a node may end after a newline)."""
        end = node.end_byte
        source = self.source
        while end > node.start_byte and source[end - 1] in _BLANK:
            end -= 1
        return self.line_of(max(end - 1, node.start_byte))

    def line_text(self, line: int) -> str:
        """The text of 1-based *line*, decoded (bad bytes replaced)."""
        start = self.newlines[line - 2] + 1 if line > 1 else 0
        end = self.newlines[line - 1] if line - 1 < len(self.newlines) else len(self.source)
        return self.source[start:end].decode("utf-8", "replace")


class LanguageFiles:
    """Each file of a tree read at most once, by (path, blob id), with its language's definitions.

    The definitions are kept here (a language keeps only its last files' parses), so that a build
    reads each file's definitions once however many anchors name it, in whatever order.
    """

    def __init__(self) -> None:
        self._parsed: dict[tuple[str, str], tuple[Language, bytes, list[Definition]]] = {}

    def definitions(
        self, language: Language, path: str, blob: str, source: bytes
    ) -> list[Definition]:
        """The definitions of *source*, the file *path* at blob *blob*; parsed on the first call only."""
        key = (path, blob)
        kept = self._parsed.get(key)
        if kept is None or kept[0] is not language:
            kept = self._parsed[key] = (language, source, language.definitions(source))
        return kept[2]

    def source(self, path: str, blob: str) -> bytes | None:
        """The bytes of *path* at blob *blob* when they were read before, else None (read them, then ask again)."""
        kept = self._parsed.get((path, blob))
        return kept[1] if kept is not None else None

    def find(
        self, language: Language, path: str, blob: str, source: bytes, dotted: str
    ) -> Definition:
        """:meth:`~source_anchors.reading.language.Language.find` on the file *path* at blob *blob*, parsed once."""
        found = self.definitions(language, path, blob, source)
        return language.find(self._parsed[(path, blob)][1], dotted, found)
