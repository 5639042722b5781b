"""Where a missing definition target went: ``/file.ext#Symbol.path`` renamed in its file, or moved (pure).

A definition target (:mod:`source_anchors.resolve.definitions`) that no longer resolves is looked
for, with the lines it had at the lock's commit, among the definitions of the pinned tree that are
new since then, in files of the same language (or its family: C, C++ and ``.h`` headers are one):

1. its own file (or the file its blob went to), whose definitions of a path it did not have before;
2. every other file of that language that is new or changed since the lock's commit (the listings'
   blob ids say which), at most :data:`FILES` of them, its own folder's first.

The same lines (equal text) score 1.0 (``same lines``); else :func:`~.linesuggest.similarity` of the
excerpts without indentation, at least :data:`~.linesuggest.THRESHOLD` (``similar definition``);
ties go to its own file, then to the closer name. As for Python, every suggestion is resolved in the
new tree and must land on the definition found; a target with match levels gets the most similar
line of the definition it went to (:meth:`~.linesuggest.LineSuggester._line`).
"""

from __future__ import annotations

from posixpath import dirname

from ..model.errors import ResolveError, SourceAnchorsError
from ..model.records import LockRecord, Suggestion
from ..model.target import Target
from ..reading.language import Definition, Language
from ..reading.registry import language_for
from .catalog import normal
from .lines import THRESHOLD, LineSuggester, name_similarity

#: At most this many changed files of the language are read for a missing definition.
FILES = 200


def suggest_definition(
    suggester: LineSuggester, target: Target, record: LockRecord
) -> Suggestion | None:
    """A suggestion for the definition target *target*, missing now and locked as *record*; None if none."""
    symbol = target.symbol
    assert symbol is not None
    try:
        suggester.new.resolve(target.path)
    except ResolveError:
        pass
    else:  # the definition is there: a match level is what went missing
        return (
            suggester._line(target, target.path, record, base=1.0, reason="similar line")
            if target.match
            else None
        )
    language = language_for(target.file)
    if language is None:
        return None
    old_lines = suggester._old_lines(record)
    old_source = ("\n".join(old_lines) + "\n").encode("utf-8")
    before = language.definitions(old_source)
    wanted = tuple(symbol.split("."))
    old = next((d for d in before if wanted in (d.path, d.qualified)), None)
    start, end = (old.start, old.end) if old is not None else (record.start, record.end)
    text = normal(old_lines[start - 1 : end])
    if not text.strip():
        return None
    best = _best(suggester, language, target, record, text, {d.path for d in before})
    if best is None:
        return None
    key, score = best
    reason = "same lines" if score == 1.0 else "similar definition"
    if target.match is not None:
        return suggester._line(target, key, record, base=score, reason=reason)
    return Suggestion(key, round(score, 3), reason, suggester.where(key))


def _best(
    suggester: LineSuggester,
    language: Language,
    target: Target,
    record: LockRecord,
    text: str,
    known: set[tuple[str, ...]],
) -> tuple[str, float] | None:
    """The key and similarity of the definition most like *text*, new since the lock's commit, of *language*."""
    new_files = suggester.new.listing or suggester.new.tree.blobs
    old_files = suggester.old.listing or suggester.old.tree.blobs
    own = (
        [target.file]
        if target.file in new_files
        else sorted(p for p, b in new_files.items() if b == record.blob)
    )
    folder = dirname(target.file)
    changed = sorted(
        (
            path
            for path, blob in new_files.items()
            if path not in own and old_files.get(path) != blob and _same_language(path, language)
        ),
        key=lambda p: (dirname(p) != folder, p),
    )[:FILES]
    scored: list[tuple[float, bool, float, str, Definition]] = []
    for path in [*own, *changed]:
        mine = path in own
        for found in _definitions(suggester, _language(path, language), path):
            if mine and found.path in known:
                continue  # there before: not where the missing one went
            lines = suggester.new.file_lines(path)
            score = suggester.likeness.similarity(text, normal(lines[found.start - 1 : found.end]))
            if score >= THRESHOLD:
                scored.append(
                    (score, mine, name_similarity(found.dotted, target.symbol or ""), path, found)
                )
    for score, _, _, path, found in sorted(scored, key=lambda s: s[:3], reverse=True):
        for written in (found.dotted, ".".join(found.qualified)):
            key = f"/{path}#{written}"
            if written and _lands(suggester, key, found):
                return key, score
    return None


def _same_language(path: str, language: Language) -> bool:
    """Whether *path* is in *language* or one of its family (C, C++ and ``.h`` headers are one)."""
    try:
        other = language_for(path)
    except SourceAnchorsError:  # a grammar not installed
        return False
    return other is language or (
        other is not None and bool(language.family) and other.family == language.family
    )


def _language(path: str, language: Language) -> Language:
    """The language that reads *path*: its own, of *language*'s family."""
    try:
        return language_for(path) or language
    except SourceAnchorsError:
        return language


def _definitions(suggester: LineSuggester, language: Language, path: str) -> list[Definition]:
    """The definitions of *path* in the new tree (each file read once, by the resolver's languages)."""
    resolver = suggester.new
    blob = (resolver.listing or resolver.tree.blobs).get(path, "")
    try:
        return resolver.languages.definitions(language, path, blob, resolver.files.data(path))
    except (SourceAnchorsError, UnicodeDecodeError):
        return []


def _lands(suggester: LineSuggester, key: str, found: Definition) -> bool:
    """Whether *key* resolves in the new tree to *found*'s lines."""
    try:
        location = suggester.new.resolve(key)
    except ResolveError:
        return False
    return (location.start, location.end) == (found.start, found.end)
