"""The compiled files of a tree as the binding readers ask for them: each read, decoded and parsed once (pure).

A file's bytes are read once; its text is decoded once, with its comments blanked (a Cython or
configuration file's as it is); whether it writes a name as a word is found once; it is parsed by the
language core (:func:`~source_anchors.reading.registry.language_for`) at most once, and its
definitions of a name are read where the name is written
(:meth:`~source_anchors.reading.languages.grammar.TreeSitterLanguage.named_in`), not every
definition of the file: a lookup asks for one name. Whether a file may define a symbol is asked of
its bytes first, so that a file that cannot is neither decoded nor parsed; a class is looked for
only in a file where its name may name a type (:meth:`CompiledFiles.may_name_type`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ...model.errors import MissingExtraError
from ..language import Definition
from ..registry import language_for
from .ctext import blanked

if TYPE_CHECKING:
    from ..languages.grammar import TreeSitterLanguage
    from ..languages.parsed import Parsed

#: Files whose text is read as it is (no C comments to blank).
_PLAIN = (".pyx", ".pxi", ".py", ".toml", ".build", ".txt")
#: The characters of an identifier (a place of a name has none on either side; any other
#: character, ``$`` or a letter outside ASCII too, counts as a boundary: more places, never fewer).
_IDENTIFIER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
#: What may stand between a name and the next token: spaces, line breaks, a line splice.
_BLANK = " \t\n\r\f\v\\"


class CompiledFiles:
    """The bytes, texts, words and definitions of a tree's compiled files, each made once."""

    def __init__(self, read: Callable[[str], bytes]) -> None:
        self._read = read
        self._bytes: dict[str, bytes] = {}
        self._texts: dict[str, str] = {}
        #: Each C or C++ file's code alone (:meth:`code`).
        self._code: dict[str, str] = {}
        #: Whether a file's blanked text writes a name as a whole word, by (path, name).
        self._written_at: dict[tuple[str, str], bool] = {}
        #: Whether a file's bytes hold a name as a whole word, by (path, name). A word of the
        #: blanked text is one of the bytes (a comment starts and ends at a character no word has),
        #: so a name the bytes hold only inside longer words (``ContourGenerator`` in
        #: ``BaseContourGenerator``) is not written.
        self._held: dict[tuple[str, str], bool] = {}
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
            if path.endswith(_PLAIN):
                self._texts[path] = raw
            else:  # its code alone too, from the same scan (:meth:`code`)
                self._texts[path], self._code[path] = blanked(raw)
        return self._texts[path]

    def code(self, path: str) -> str:
        """The file's text with its comments and its string and char literals blanked, made once."""
        if path not in self._code:
            text = self.text(path)  # blanks the code too, from the same scan
            self._code.setdefault(
                path, text
            )  # a file read as it is (Cython, configuration): as it is
        return self._code[path]

    def spells(self, path: str, symbol: tuple[str, ...]) -> bool:
        """Whether *path* may define *symbol*: it spells its last name and every name of its path.

        A definition's path is made of names its file writes, so a file lacking one cannot hold
        it and is not parsed. Each name is looked for as a whole word of the blanked text, once a
        file and name; the bytes are searched first (a file lacking a name's bytes is not decoded).
        """
        # An operator (``operator()``) is looked for by its word.
        last = symbol[-1] if symbol[-1].isidentifier() else symbol[-1].rstrip("()[]=!<>+-*/%&|^~ ")
        names = [last, *(n for n in symbol[:-1] if n.isidentifier())]
        # The bytes first, for every name: a file whose bytes lack one as a whole word is neither
        # decoded nor blanked (each file and name searched once, however many symbols share it).
        held = self._held
        for name in names:
            known = held.get((path, name))
            if known is None:
                known = held[(path, name)] = _word_in(self.raw(path), name.encode())
            if not known:
                return False
        return all(self._written(path, name) for name in names)

    def _written(self, path: str, name: str) -> bool:
        """Whether *name* stands as a whole word in *path*'s blanked text (found by ``str.find``, kept).

        A word's ends are ASCII identifier characters' ends; a ``$`` or a letter outside ASCII
        beside it counts as a boundary, so a name is found wherever a word of it is, never missed.
        """
        key = (path, name)
        known = self._written_at.get(key)
        if known is None:
            known = bool(name) and next(_wholes(self.text(path), name, _IDENTIFIER), -1) >= 0
            self._written_at[key] = known
        return known

    def may_name_type(self, path: str, name: str) -> bool:
        """Whether *path*, C or C++, may hold a definition of *name* that is not callable (a class, a type).

        Such a definition's name is followed by ``{``, ``:``, ``<``, ``;``, ``=``, ``,``, ``)`` or
        a word (``final``), never by ``(`` (a call, a function's or a constructor's parameters),
        ``>`` (a template's argument: ``py::class_<Name>``) or ``::`` (a scope: ``Name::method``),
        except in a namespace's head (``namespace Name::inner``); written after a scope
        (``ns::Name``), by ``{``, ``:``, ``<`` or a word only (``class ns::Name final {``), never
        by the ``,`` of a template's arguments (``py::class_<ns::Name, ns::Base>``). So a file
        writing *name* only
        so in its code (:meth:`code`: no comment, no string, such as the name a binding gives),
        cannot hold one and is not parsed for it: a class's constructors and methods defined in a
        ``.cpp``, and the binding file that names the class, are the usual cases.
        """
        if not name.isidentifier():
            return True
        text = self.code(path)
        for at, following in _followed(text, name):
            if following.startswith(("(", ">")) or (
                following == "::" and not _in_namespace_head(text, at)
            ):
                continue
            if _qualified(text, at) and not (
                following[:1] in ("{", "<") or following[:1] in _IDENTIFIER or following[:1] == ":"
            ):
                continue  # ``ns::Name,`` in a template's arguments: a head is ``class ns::Name {``
            return True
        return False

    def may_name_callable(self, path: str, name: str) -> bool:
        """Whether *path*, C or C++, may hold a function, method or macro named *name*.

        Its name is followed by its parameters' ``(``, or by the ``<`` of a template's arguments
        (an explicit specialization), wherever it is defined (``void f(``, ``T Class::f (``,
        ``#define f(``). So a file writing *name* only otherwise in its code (:meth:`code`: no
        comment, no string), cannot hold one and is not parsed for it: the binding file, which
        takes its address (``&Class::f,``) and gives its name in a string, is the usual case.
        """
        if not name.isidentifier():
            return True
        return any(
            following.startswith(("(", "<")) for _, following in _followed(self.code(path), name)
        )

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


#: The bytes of a word (as :data:`_IDENTIFIER`).
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


def _wholes(data: Any, word: Any, chars: frozenset[Any]) -> Iterator[int]:
    """Each offset where *word* stands as a whole word of *data* (text, or bytes): none of *chars* on either side."""
    size, total = len(word), len(data)
    at = data.find(word)
    while at >= 0:
        end = at + size
        if (at == 0 or data[at - 1] not in chars) and (end == total or data[end] not in chars):
            yield at
        at = data.find(word, end)


def _word_in(data: bytes, word: bytes) -> bool:
    """Whether *word* stands as a whole word in *data* (no identifier byte on either side)."""
    return next(_wholes(data, word, _WORD_BYTES), -1) >= 0


def _followed(text: str, name: str) -> Iterator[tuple[int, str]]:
    """Each place where *name* stands as a whole word of *text*, with the two characters after it (blanks skipped)."""
    total = len(text)
    for at in _wholes(text, name, _IDENTIFIER):
        after = at + len(name)
        while after < total and text[after] in _BLANK:
            after += 1
        yield at, text[after : after + 2]


def _qualified(text: str, at: int) -> bool:
    """Whether the word at offset *at* of *text* is written after a scope's ``::`` (blanks between)."""
    before = at - 1
    while before >= 0 and text[before] in _BLANK:
        before -= 1
    return before >= 1 and text[before - 1 : before + 1] == "::"


def _in_namespace_head(text: str, at: int) -> bool:
    """Whether offset *at* of *text* is in a ``namespace`` head: the word since the last ``;``, ``{`` or ``}``."""
    start = max(text.rfind(";", 0, at), text.rfind("{", 0, at), text.rfind("}", 0, at)) + 1
    return "namespace" in text[start:at]
