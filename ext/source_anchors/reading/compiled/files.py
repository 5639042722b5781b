"""The compiled files of a tree as the binding readers ask for them: each read, decoded and parsed once (pure).

A file's bytes are read once; its text is decoded once, with its comments blanked (a Cython or
configuration file's as it is); the words it spells are collected once; its definitions are read
by the language core (:func:`~source_anchors.reading.registry.language_for`) at most once. Whether
a file may define a symbol is asked of its bytes first, so that a file that cannot is neither
decoded nor parsed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ...model.errors import MissingExtraError
from ..language import Definition
from ..registry import language_for
from .ctext import blank_comments

#: Files whose text is read as it is (no C comments to blank).
_PLAIN = (".pyx", ".pxi", ".py", ".toml", ".build", ".txt")
_WORD = re.compile(r"\w+")


class CompiledFiles:
    """The bytes, texts, words and definitions of a tree's compiled files, each made once."""

    def __init__(self, read: Callable[[str], bytes]) -> None:
        self._read = read
        self._bytes: dict[str, bytes] = {}
        self._texts: dict[str, str] = {}
        self._spelled: dict[str, frozenset[str]] = {}
        self._definitions: dict[str, list[Definition] | str] = {}
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
        it and is not parsed. The bytes are searched first, then the words of the blanked text.
        """
        # An operator (``operator()``) is looked for by its word.
        last = symbol[-1] if symbol[-1].isidentifier() else symbol[-1].rstrip("()[]=!<>+-*/%&|^~ ")
        names = [last, *(n for n in symbol[:-1] if n.isidentifier())]
        raw = self.raw(path)
        if not all(name.encode() in raw for name in names):
            return False
        words = self.words(path)
        return all(name in words for name in names)

    def words(self, path: str) -> frozenset[str]:
        """The identifiers *path* spells, collected once (a claim asks which files spell its symbol)."""
        if path not in self._spelled:
            self._spelled[path] = frozenset(_WORD.findall(self.text(path)))
        return self._spelled[path]

    def definitions(self, path: str) -> list[Definition]:
        """The definitions the language core reads in *path*, parsed at most once (none without it)."""
        if path not in self._definitions:
            try:
                data = self.raw(path)
                language = language_for(path, data)  # a .h header: C or C++ by its text
                self._definitions[path] = language.definitions(data) if language is not None else []
                self.parses += 1
            except MissingExtraError as error:
                self._definitions[path] = str(error)
        known = self._definitions[path]
        return known if isinstance(known, list) else []
