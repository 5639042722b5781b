"""Definition targets: ``/path/to/file.ext#Symbol.path``, a definition of a file by its path of names (pure).

The file's language is the registry's (:func:`~source_anchors.reading.registry.language_for`): a
tree-sitter language (TypeScript, Go, Rust, C, …) or Python. The definition is the language's
:meth:`~source_anchors.reading.language.Language.find`: one of that path, or the one a rule of the
language chose among several (its words are the location's ``rule``; the others' lines its
``others``), or an error naming the candidates. Each file is parsed once per resolver
(:class:`~source_anchors.reading.languages.parsed.LanguageFiles`), however many anchors name it,
and only the places where a definition's name is written are read (its language's ``named``).
"""

from __future__ import annotations

from pathlib import PurePosixPath

from ..model.errors import AmbiguousDefinitionError, ResolveError
from ..reading.language import Definition, Language
from ..reading.languages.parsed import LanguageFiles
from ..reading.registry import LANGUAGES, language_for

Span = tuple[int, int]


def language_of(file: str, symbol: str) -> Language:
    """The language that reads *file*, for the definition *symbol*; an error naming the languages when none does.

    Raises :class:`~source_anchors.model.errors.MissingExtraError`, naming the extra, when the
    language's grammar is not installed.
    """
    language = language_for(file)
    if language is None:
        suffixes = ", ".join(suffix for known in LANGUAGES for suffix in known.suffixes)
        suffix = PurePosixPath(file).suffix or "(no suffix)"
        raise ResolveError(
            f"/{file}#{symbol}: no language reads {suffix} files, so '#' names no definition in "
            f"it; '#' follows a file of {suffixes}; anchor a line with '/{file}::text of the line'"
        )
    return language


def language_in(parsed: LanguageFiles, file: str, symbol: str) -> Language:
    """:func:`language_of` *file*, kept in *parsed* by path."""
    language = parsed.languages.get(file)
    if language is None:
        language = parsed.languages[file] = language_of(file, symbol)
    return language


def chosen(
    parsed: LanguageFiles,
    language: Language,
    file: str,
    blob: str,
    source: bytes,
    symbol: str,
    candidates: list[Definition],
) -> tuple[Definition, tuple[Span, ...]]:
    """The one of *candidates* (the definitions of *symbol* in *file*) *language* picks, and the others' lines.

    With none, the error names the closest of the file's definitions.
    """
    try:
        found = language.pick(
            symbol,
            candidates,
            () if candidates else parsed.definitions(language, file, blob, source),
        )
    except AmbiguousDefinitionError:
        raise  # its message names the candidates and how to write each
    except ResolveError as error:
        closest = tuple(f"/{file}#{name}" for name in error.closest)
        raise ResolveError(str(error), closest=closest) from None
    others: tuple[Span, ...] = ()
    if found.rule:
        others = tuple(
            (d.start, d.end) for d in candidates if (d.start, d.end) != (found.start, found.end)
        )
    return found, others
