"""The one registry of languages: a file's language by its path's suffix, a header's by its text (pure).

Every language the extension reads is here: Python (:mod:`.python`, its own ``ast`` reader) and the
tree-sitter languages (:mod:`.languages`). Nothing above the reading stage asks which language a
file is in, nor tests a suffix: the resolver and the drift stage ask :func:`wired_language`, tools
and tests :func:`language_for`. Adding a language: its folder and its object in :data:`LANGUAGES`; a
language made outside this package (a plug-in, a test) is added with :func:`register` and taken out
with :func:`unregister`.
"""

from __future__ import annotations

from ..model.errors import MissingExtraError
from .language import Language
from .languages.c import C_LANGUAGE
from .languages.cpp import CPP
from .languages.go import GO
from .languages.grammar import EXTRA
from .languages.header import HEADER
from .languages.java import JAVA
from .languages.javascript import JAVASCRIPT
from .languages.rust import RUST
from .languages.typescript import TSX, TYPESCRIPT
from .python import PYTHON

#: Every language of this package, in the order the manual lists them.
LANGUAGES: tuple[Language, ...] = (
    PYTHON,
    TYPESCRIPT,
    TSX,
    JAVASCRIPT,
    GO,
    RUST,
    C_LANGUAGE,
    CPP,
    HEADER,
    JAVA,
)

_BY_SUFFIX: dict[str, Language] = {
    suffix: language for language in LANGUAGES for suffix in language.suffixes
}


def _of(path: str) -> Language | None:
    # PurePosixPath(path).suffix, without making a path object: this runs once per anchor.
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return _BY_SUFFIX.get(name[dot:].lower()) if 0 < dot < len(name) - 1 else None


def language_for(path: str, data: bytes | None = None) -> Language | None:
    """The language of the file *path* by its suffix, or None when no language reads it.

    A ``.h`` header is C or C++ by its text (:mod:`.languages.header`): given the file's bytes
    *data*, the language that reads them (C or C++); without, the header language, which decides
    on each text it reads.

    Raises :class:`~source_anchors.model.errors.MissingExtraError`, naming the extra to install,
    when the language is known but what reads it (its tree-sitter grammar) is not installed.
    """
    language = _of(path)
    if language is not None and not language.installed():
        raise MissingExtraError(
            f"{path}: reading {language.name} files needs tree-sitter and its grammar, "
            f"which are not installed: {EXTRA}"
        )
    return language.reading(data) if language is not None and data is not None else language


def wired_language(path: str) -> Language | None:
    """The language whose rules anchors into *path* are resolved and classed by; None for a file read as text.

    A language not wired into anchors (:attr:`~.language.Language.wired`) is text here, whether or
    not its grammar is installed. A wired language whose grammar is not installed raises
    :class:`~source_anchors.model.errors.MissingExtraError`, naming the extra, as
    :func:`language_for` does: its anchors are never read as text instead, which would give them
    other lines.
    """
    language = _of(path)
    return language_for(path) if language is not None and language.wired else None


def register(language: Language) -> None:
    """Add *language*, made outside this package, for its suffixes; a suffix another language reads is an error."""
    taken = [suffix for suffix in language.suffixes if suffix.lower() in _BY_SUFFIX]
    if taken:
        raise ValueError(
            f"{language.name}: {', '.join(taken)} already read as "
            f"{', '.join(sorted({_BY_SUFFIX[suffix.lower()].name for suffix in taken}))}"
        )
    for suffix in language.suffixes:
        _BY_SUFFIX[suffix.lower()] = language


def unregister(language: Language) -> None:
    """Take out *language*, added by :func:`register`: its suffixes are read as text again."""
    for suffix in language.suffixes:
        if _BY_SUFFIX.get(suffix.lower()) is language:
            del _BY_SUFFIX[suffix.lower()]
