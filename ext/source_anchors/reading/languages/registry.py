"""The one registry of languages: a file's language by its path's suffix.

Adding a language: its folder, and its object in :data:`LANGUAGES`.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from ...model.errors import MissingExtraError
from .base import EXTRA, Language
from .c import C_LANGUAGE
from .cpp import CPP
from .go import GO
from .java import JAVA
from .javascript import JAVASCRIPT
from .rust import RUST
from .typescript import TSX, TYPESCRIPT

#: Every language, in the order the manual lists them.
LANGUAGES: tuple[Language, ...] = (TYPESCRIPT, TSX, JAVASCRIPT, GO, RUST, C_LANGUAGE, CPP, JAVA)

_BY_SUFFIX = {suffix: language for language in LANGUAGES for suffix in language.suffixes}


def language_for(path: str) -> Language | None:
    """The language of the file *path* by its suffix, or None when no language of this folder reads it.

    Raises :class:`~source_anchors.model.errors.MissingExtraError`, naming the extra to install, when the
    language is known but its grammar is not installed.
    """
    language = _BY_SUFFIX.get(PurePosixPath(path).suffix.lower())
    if language is not None and not language.installed():
        raise MissingExtraError(f"{path}: reading {language.name} files needs tree-sitter and its grammar, "
                                f"which are not installed: {EXTRA}")
    return language
