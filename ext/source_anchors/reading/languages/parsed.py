"""A file parsed once: its tree, its lines, its definitions (``tree_sitter`` objects, kept per file).

:class:`LanguageFiles` keeps each file's :class:`Parsed` per (path, blob), so that a build parses a
file once however many anchors name it.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable
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
    #: The definitions, in the order of their first lines (filled by the language).
    definitions: list[Definition] = field(default_factory=list)
    #: Whether :attr:`definitions` and :attr:`by_node` are filled (the query was run over the whole
    #: tree).
    read: bool = False
    #: Before that, the definitions read by one name (:mod:`.lookup`), by that name.
    named: dict[str, list[Definition]] = field(default_factory=dict)
    #: Each definition's node id (and its wrapper's) to its record and the line its body starts on
    #: (0: none).
    by_node: dict[int, tuple[Definition, int]] = field(default_factory=dict)
    _newlines: list[int] | None = field(default=None, init=False, repr=False)

    @property
    def newlines(self) -> list[int]:
        """The byte offset of every newline, for lines by bisection (found when first asked)."""
        if self._newlines is None:
            self._newlines = [found.start() for found in _NEWLINE.finditer(self.source)]
        return self._newlines

    def line_of(self, offset: int) -> int:
        """The 1-based line holding byte *offset*."""
        return bisect.bisect_left(self.newlines, offset) + 1

    def last_line(self, node: tree_sitter.Node) -> int:
        """The last line of *node* holding something other than white space (a node may end after a newline)."""
        end = node.end_byte
        if end > node.start_byte and self.source[end - 1] not in _BLANK:
            return node.end_point.row + 1  # the usual case, without counting lines
        return self.line_of(self.last_byte(node))

    def last_byte(self, node: tree_sitter.Node) -> int:
        """The offset of the last byte of *node* that is not white space (its first byte when all are)."""
        end, start = node.end_byte, node.start_byte
        source = self.source
        while end > start and source[end - 1] in _BLANK:
            end -= 1
        return max(end - 1, start)

    def spliced_end(self, node: tree_sitter.Node) -> int:
        """The last line holding code of the lines *node* starts, spliced as the C preprocessor does.

        A line ending in a backslash goes on on the next line, whatever the grammar made of what
        follows (tree-sitter-c ends a ``#define``'s body at a comment inside it).
        """
        source = self.source
        at = node.start_byte
        line = last = node.start_point.row + 1
        while True:
            newline = source.find(b"\n", at)
            text = source[at : len(source) if newline < 0 else newline].rstrip(b" \t\r")
            spliced = text.endswith(b"\\")
            if text.rstrip(b"\\").strip():
                last = line
            if not spliced or newline < 0:
                return last
            at, line = newline + 1, line + 1

    def line_text(self, line: int) -> str:
        """The text of 1-based *line*, decoded (bad bytes replaced)."""
        start = self.newlines[line - 2] + 1 if line > 1 else 0
        end = self.newlines[line - 1] if line - 1 < len(self.newlines) else len(self.source)
        return self.source[start:end].decode("utf-8", "replace")


class Kept:
    """One file's bytes, as first read, and what :class:`LanguageFiles` read of its definitions."""

    __slots__ = ("by_name", "named", "source", "whole")

    def __init__(self, source: bytes) -> None:
        self.source = source
        #: Every definition of the file, with the language that read them (None: not read yet).
        self.whole: tuple[Language, list[Definition]] | None = None
        #: The definitions of each path asked for, with the language that read them.
        self.named: dict[str, tuple[Language, list[Definition]]] = {}
        #: Whether the language read definitions by name here (its parse counted once).
        self.by_name = False


class LanguageFiles:
    """Each file of a tree read at most once, by (path, blob id), with the definitions anchors named in it.

    A definition is looked up where the language can by its name alone
    (:meth:`~source_anchors.reading.language.Language.named`), else in all the file's definitions,
    read once and kept here (a language keeps only its last files' parses); what a name gave is
    kept too, so that a build reads a file's definitions once however many anchors name them.
    """

    def __init__(
        self, indexed: Callable[[Language, str], list[Definition] | None] | None = None
    ) -> None:
        #: The definitions of a file from a parse made elsewhere (a Python module's index), or None.
        self.indexed = indexed
        #: Each file read here, by (path, blob id).
        self._kept: dict[tuple[str, str], Kept] = {}
        #: The files whose definitions were read here (a parse of the language's, unless
        #: :attr:`indexed` gave them), by path.
        self.parses: Counter[str] = Counter()
        #: The language of each file whose definitions were asked for, by path (the resolver's
        #: lookup of the registry, kept).
        self.languages: dict[str, Language] = {}

    def kept(self, path: str, blob: str, source: bytes) -> Kept:
        """What is kept of *path* at blob *blob*, its bytes *source* (kept from the first call)."""
        key = (path, blob)
        kept = self._kept.get(key)
        if kept is None:
            kept = self._kept[key] = Kept(source)
        return kept

    def definitions(
        self, language: Language, path: str, blob: str, source: bytes
    ) -> list[Definition]:
        """Every definition of *source*, the file *path* at blob *blob*; read on the first call only."""
        kept = self.kept(path, blob, source)
        whole = kept.whole
        if whole is None or whole[0] is not language:
            found = self.indexed(language, path) if self.indexed else None
            if found is None:
                self.parses[path] += 1
                found = language.definitions(source)
            whole = kept.whole = (language, found)
        return whole[1]

    def source(self, path: str, blob: str) -> bytes | None:
        """The bytes of *path* at blob *blob* when they were read before, else None (read them, then ask again)."""
        kept = self._kept.get((path, blob))
        return None if kept is None else kept.source

    def candidates(
        self, language: Language, path: str, blob: str, source: bytes, dotted: str
    ) -> list[Definition]:
        """The definitions of *path* (at blob *blob*) whose path or qualified path is *dotted*; empty when none."""
        kept = self.kept(path, blob, source)
        named = kept.named.get(dotted)
        if named is not None and named[0] is language:
            return named[1]
        return self.named(kept, language, path, blob, source, dotted)

    def named(
        self, kept: Kept, language: Language, path: str, blob: str, source: bytes, dotted: str
    ) -> list[Definition]:
        """:meth:`candidates` of *dotted* not kept yet in *kept* (what is kept of *path* at *blob*): read, then kept."""
        whole = kept.whole
        found = (
            language.named(source, dotted) if whole is None or whole[0] is not language else None
        )
        if found is not None:
            if not kept.by_name:
                kept.by_name = True
                self.parses[path] += 1  # the language parsed the file (once: it keeps the parse)
        else:
            wanted = tuple(dotted.split("."))
            found = [
                d
                for d in self.definitions(language, path, blob, source)
                if d.path == wanted or d.qualified == wanted
            ]
        kept.named[dotted] = (language, found)
        return found
