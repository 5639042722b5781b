"""The compiled files of a tree as the binding readers ask for them: each read, decoded and parsed once (pure).

A file's bytes are read once; its text is decoded once, with its comments blanked (a Cython or
configuration file's as it is); the words it spells are collected once; it is parsed by the
language core (:func:`~source_anchors.reading.registry.language_for`) at most once, and its
definitions of a name are read where the name is written
(:meth:`~source_anchors.reading.languages.grammar.TreeSitterLanguage.named_in`), not every
definition of the file: a lookup asks for one name. Whether a file may define a symbol is asked of
its bytes first, so that a file that cannot is neither decoded nor parsed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...model.errors import MissingExtraError
from ..language import Definition
from ..registry import language_for
from .ctext import blank_comments

if TYPE_CHECKING:
    from ..languages.grammar import TreeSitterLanguage
    from ..languages.parsed import Parsed

#: Files whose text is read as it is (no C comments to blank).
_PLAIN = (".pyx", ".pxi", ".py", ".toml", ".build", ".txt")
_WORD = re.compile(r"\w+")
#: The same words in an ASCII text, without asking Unicode's tables of each character.
_ASCII_WORD = re.compile(r"\w+", re.ASCII)


class CompiledFiles:
    """The bytes, texts, words and definitions of a tree's compiled files, each made once."""

    def __init__(self, read: Callable[[str], bytes]) -> None:
        self._read = read
        self._bytes: dict[str, bytes] = {}
        self._texts: dict[str, str] = {}
        self._spelled: dict[str, frozenset[str]] = {}
        #: Each file's parse and the language that made it; or why it has none (a message).
        self._parsed: dict[str, tuple[TreeSitterLanguage, Parsed] | str] = {}
        self._named: dict[tuple[str, str], list[Definition]] = {}
        #: Files parsed by a language core (each at most once).
        self.parses = 0

    def raw(self, path: str) -> bytes:
        """The file's bytes, read once."""
        if path not in self._bytes:
            self._bytes[path] = self._read(path)
        return self._bytes[path]

    def text(self, path: str) -> str:
        """The file's text with its comments blanked (Cython's as it is), decoded once."""
        if path not in self._texts:
            raw = self.raw(path).decode("utf-8", "replace")
            self._texts[path] = raw if path.endswith(_PLAIN) else blank_comments(raw)
        return self._texts[path]

    def spells(self, path: str, symbol: tuple[str, ...]) -> bool:
        """Whether *path* may define *symbol*: it spells its last name and every name of its path.

        A definition's path is made of names its file writes, so a file lacking one cannot hold
        it and is not parsed. The words of the blanked text say it; until they are collected, the
        bytes are searched first (a file lacking a name's bytes is not decoded).
        """
        # An operator (``operator()``) is looked for by its word.
        last = symbol[-1] if symbol[-1].isidentifier() else symbol[-1].rstrip("()[]=!<>+-*/%&|^~ ")
        names = [last, *(n for n in symbol[:-1] if n.isidentifier())]
        words = self._spelled.get(path)
        if words is None:
            raw = self.raw(path)
            if not all(name.encode() in raw for name in names):
                return False
            words = self.words(path)
        return all(name in words for name in names)

    def words(self, path: str) -> frozenset[str]:
        """The identifiers *path* spells, collected once (a claim asks which files spell its symbol)."""
        if path not in self._spelled:
            text = self.text(path)
            words = _ASCII_WORD if text.isascii() else _WORD
            self._spelled[path] = frozenset(words.findall(text))
        return self._spelled[path]

    def named(self, path: str, name: str) -> list[Definition]:
        """The definitions of *path* whose own name (their path's last) is *name*; none without a language.

        The file is parsed at most once, and the definitions read where *name* is written (every
        one of the file only where that does not apply): what reading them all and keeping those
        of *name* would give.
        """
        key = (path, name)
        found = self._named.get(key)
        if found is None:
            parsed = self._parse(path)
            found = self._named[key] = (
                parsed[0].named_in(parsed[1], name) if not isinstance(parsed, str) else []
            )
        return found

    def _parse(self, path: str) -> tuple[TreeSitterLanguage, Parsed] | str:
        """*path* parsed by its language (a ``.h`` header by C's or C++'s), once; else why not."""
        known = self._parsed.get(path)
        if known is None:
            from ..languages.grammar import TreeSitterLanguage
            from ..languages.header import CHeader

            data = self.raw(path)
            language = language_for(path, data)
            if isinstance(language, CHeader):
                language = language.reading(data)  # C or C++, as the header's text shows
            if not isinstance(language, TreeSitterLanguage):
                known = f"{path}: no compiled language reads it"
            else:
                try:
                    known = (language, language.tree(data))
                    self.parses += 1
                except MissingExtraError as error:
                    known = str(error)
            self._parsed[path] = known
        return known
