"""Where a missing definition went when its name or its level changed (rules of :mod:`.suggest`; pure).

Tried, in this order, after the rules of :mod:`.suggest` found nothing. A candidate must be new
since the lock's commit (:func:`.catalog.fresh`) unless said otherwise, and each rule names itself
in the suggestion's reason:

* **same name** (leading underscores aside), same kind:

  - another level of its module (``same name``): a method that became a module-level function, or
    the reverse, its lines at least :data:`~.linesuggest.THRESHOLD` similar;
  - another class or module (``same name``): its lines :data:`RENAMED_FLOOR` similar and long enough
    to be told apart (:data:`RENAMED_TOKENS` tokens), not a dunder (``__repr__`` is in every class);
    the same module first. One there before with the very same lines is the copy that was kept when
    a duplicate was removed (``same name, a copy kept``);
  - beside it (its module and class), the one new definition whose name only gained or lost leading
    underscores, however rewritten (``same name, made private`` / ``made public``);
  - anywhere, the one definition of a name of :data:`DISTINCT_WORDS` words or more, however
    rewritten (``same distinctive name``);
  - in another module, one there before that changed in the range only by taking up identifiers of
    the missing lines (``same name, took over its lines``: :func:`took_over`);

* **the same lines under another name** (``same lines, renamed``): a definition of the same kind
  anywhere whose lines, the old name read as the new one, are :data:`RENAMED_FLOOR` similar, when
  the locked lines have :data:`RENAMED_TOKENS` tokens;
* **a member renamed in its class** (``renamed member``): the one method of the class new since the
  lock's commit, with a similar name (:data:`~.linesuggest.NAME_FLOOR`) and the same decorators and
  parameters, however its body was rewritten; its similarity is the names';
* **a module-level name become a local** (``now a local of``): an attribute ``name = …`` that a
  function of the new tree now assigns itself, where that function used the module's ``name`` at the
  lock's commit and did not assign it; the statement is suggested, its line at least
  :data:`~.linesuggest.THRESHOLD` similar (its characters).

Two numbered names that differ only in their numbers (``is_postgresql_14``, ``is_postgresql_17``)
are two versions of a thing, never one renamed (:func:`~.linesuggest.versions`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..model.errors import ResolveError, SourceAnchorsError
from ..model.records import Suggestion, line_range
from .catalog import Catalog, Definition, fresh
from .lines import (
    NAME_FLOOR,
    THRESHOLD,
    Likeness,
    line_similarity,
    name_similarity,
    similarity,
    versions,
)

if TYPE_CHECKING:
    from ..model.target import Target
    from ..reading.python import Ref
    from ..resolve.resolver import Resolver


class Suggester(Protocol):
    """What these rules use of :class:`.suggest.Suggester` (a protocol: :mod:`.suggest` imports this module)."""

    old: Resolver
    new: Resolver
    likeness: Likeness

    def catalog(self) -> Catalog:
        """The new tree's definitions."""

    def made(
        self, target: Target, old_qual: str, found: Definition, score: float, reason: str
    ) -> Suggestion | None:
        """The suggestion for *found*, written as the target was."""

    def lands(self, path: str, found: Definition) -> bool:
        """Whether *path* resolves to *found*'s lines."""

    def lands_on(self, key: str, number: int) -> bool:
        """Whether *key* resolves to a range holding line *number*."""

    def where(self, key: str) -> str:
        """``path:Lstart–Lend`` of *key*."""


#: A definition of another name is where a missing one went when its lines are this similar.
RENAMED_FLOOR = 0.9
#: ... and only when the locked lines have this many tokens: a short definition (``x = None``,
#: ``return self.name``) has too many look-alikes to be recognised by its lines alone.
RENAMED_TOKENS = 20
_TOKENS = re.compile(r"\w+|[^\w\s]")
_WORDS = re.compile(r"[^\W\d]\w*")
#: A name of this many words (``check_string_if_invalid_is_string``) defined once in the new tree is
#: where the missing definition of that name went, however rewritten.
DISTINCT_WORDS = 4


def elsewhere(suggester: Suggester, target: Target, ref: Ref, text: str) -> Suggestion | None:
    """The first of this module's rules that finds where *ref* (locked lines *text*) went."""
    return (
        same_name(suggester, target, ref, text)
        or renamed_lines(suggester, target, ref, text)
        or renamed_member(suggester, target, ref, text)
        or now_local(suggester, target, ref, text)
    )


def same_name(suggester: Suggester, target: Target, ref: Ref, text: str) -> Suggestion | None:
    """A definition of the same name (leading underscores aside) and kind at another level or place."""
    assert ref.bind is not None
    catalog = suggester.catalog()
    name = ref.qual.rpartition(".")[2]
    bare = name.lstrip("_")
    long_enough = len(_TOKENS.findall(text)) >= RENAMED_TOKENS
    named = [
        n
        for key in {bare, "_" + bare, "__" + bare}
        for n in catalog.named(key)
        if catalog.defs[n].kind == ref.bind.kind
        and (catalog.defs[n].module, catalog.defs[n].qual) != (ref.module, ref.qual)
    ]
    best: tuple[tuple[float, bool], Definition, str] | None = None
    for number in named:
        found = catalog.defs[number]
        up_or_down = found.module == ref.module and ("." in found.qual) != ("." in ref.qual)
        if not (up_or_down or (long_enough and not _dunder(name))):
            continue  # ``self.obj = obj``, ``__repr__`` of another class: names and lines that many share
        floor = THRESHOLD if up_or_down else RENAMED_FLOOR
        here, theirs = found.module == ref.module, catalog.texts[number]
        if any(
            upper < floor or (best is not None and (upper, here) <= best[0])
            for upper in suggester.likeness.bounds(text, theirs)
        ):
            continue  # never below the score: neither would the score pass
        score = suggester.likeness.similarity(text, theirs)
        key = (score, here)
        if score < floor or (best is not None and key <= best[0]):
            continue
        if fresh(suggester.old, found, ref):
            best = (key, found, "same name")
        # there before, with the very lines: the copy that was kept
        elif catalog.texts[number] == text:
            best = (key, found, "same name, a copy kept")
    if best is not None:
        return _made(suggester, target, ref, best[1], best[0][0], best[2])
    return (
        _privacy(suggester, target, ref, text, named)
        or _distinctive(suggester, target, ref, text, named)
        or took_over(suggester, target, ref, text, named)
    )


def _privacy(
    suggester: Suggester, target: Target, ref: Ref, text: str, named: list[int]
) -> Suggestion | None:
    """The one new definition beside it whose name only gained or lost leading underscores, however rewritten.

    Beside it: in the same module and the same class, or both in the module body (``Argument`` →
    ``_Argument``).
    """
    catalog = suggester.catalog()
    owner = ref.qual.rpartition(".")[0]
    hits = [
        n
        for n in named
        if catalog.defs[n].module == ref.module
        and catalog.defs[n].qual.rpartition(".")[0] == owner
        and fresh(suggester.old, catalog.defs[n], ref)
    ]
    if len(hits) != 1:
        return None
    found = catalog.defs[hits[0]]
    made = "made private" if found.qual.rpartition(".")[2].startswith("_") else "made public"
    return _made(
        suggester,
        target,
        ref,
        found,
        similarity(text, catalog.texts[hits[0]]),
        f"same name, {made}",
    )


def _distinctive(
    suggester: Suggester, target: Target, ref: Ref, text: str, named: list[int]
) -> Suggestion | None:
    """The one definition, new, of a name of :data:`DISTINCT_WORDS` words or more: that name says where it went."""
    catalog = suggester.catalog()
    if (
        len(ref.qual.rpartition(".")[2].strip("_").split("_")) < DISTINCT_WORDS
        or len(named) != 1
        or not fresh(suggester.old, catalog.defs[named[0]], ref)
    ):
        return None
    found = catalog.defs[named[0]]
    return _made(
        suggester,
        target,
        ref,
        found,
        similarity(text, catalog.texts[named[0]]),
        "same distinctive name",
    )


def took_over(
    suggester: Suggester, target: Target, ref: Ref, text: str, named: list[int]
) -> Suggestion | None:
    """A definition of the same name in another module, there before, changed in the range to the missing one's.

    Two copies of a thing, one removed and the other updated to what the removed one said
    (``raster.get_driver`` removed, ``ds.get_driver`` changed from ``OGRGetDriver`` to
    ``GDALGetDriver``): every identifier the survivor gained is one of the missing lines', and its
    lines are at least :data:`~.linesuggest.THRESHOLD` similar to them.
    """
    catalog = suggester.catalog()
    words = set(_WORDS.findall(text))
    best: tuple[float, Definition] | None = None
    for number in named:
        found = catalog.defs[number]
        if found.module == ref.module:
            continue
        try:
            was = suggester.old.walker.object(found.path)
        except SourceAnchorsError:
            continue
        if was.bind is None or was.bind.kind != found.kind:
            continue
        before = set(
            _WORDS.findall(
                " ".join(suggester.old.file_lines(was.file)[was.bind.start - 1 : was.bind.end])
            )
        )
        gained = set(_WORDS.findall(catalog.texts[number])) - before
        if not gained or not gained <= words:
            continue
        score = similarity(text, catalog.texts[number])
        if score >= THRESHOLD and (best is None or score > best[0]):
            best = (score, found)
    if best is None:
        return None
    return _made(suggester, target, ref, best[1], best[0], "same name, took over its lines")


def _dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def renamed_lines(suggester: Suggester, target: Target, ref: Ref, text: str) -> Suggestion | None:
    """A definition of another name and the same kind anywhere, whose lines are the locked ones renamed."""
    assert ref.bind is not None
    tokens = _TOKENS.findall(text)
    if len(tokens) < RENAMED_TOKENS:
        return None
    catalog = suggester.catalog()
    name = ref.qual.rpartition(".")[2]
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    best: tuple[float, Definition] | None = None
    likeness = suggester.likeness
    tell = renamed_tokens(text, tokens, name)
    for number in catalog.nearest(text, ref.bind.kind, None, catalog.everything):
        found = catalog.defs[number]
        other = found.qual.rpartition(".")[2]
        if other == name or versions(name, other):
            continue  # the same name: :func:`same_name`'s; a version of it: another thing
        renamed, theirs = pattern.sub(other, text), catalog.texts[number]
        if tell is not None:
            likeness.known(renamed, tell(other))
        # Bounds never below the score, cheapest first: a candidate they rule out is not scored.
        if any(
            upper < RENAMED_FLOOR or (best is not None and upper <= best[0])
            for upper in likeness.bounds(renamed, theirs)
        ):
            continue
        score = likeness.similarity(renamed, theirs)
        if (
            score < RENAMED_FLOOR
            or (best is not None and score <= best[0])
            or not fresh(suggester.old, found, ref)
        ):
            continue
        best = (score, found)
    if best is None:
        return None
    return _made(suggester, target, ref, best[1], best[0], "same lines, renamed")


def renamed_tokens(text: str, tokens: list[str], name: str) -> Callable[[str], list[str]] | None:
    r"""The case-folded tokens of *text* with the word *name* renamed, as a function of the new name; or None.

    That is ``_TOKENS.findall(re.sub(rf"\b{name}\b", other, text).casefold())`` for each *other*,
    made from *text*'s *tokens* when *text* and *name* are ASCII: there a word matched whole (``\b``
    on both sides) is a token, the identifier put in its place is one too, and folding case changes
    each character alone.
    """
    if not (text.isascii() and name.isascii()):
        return None
    folded = [token.lower() for token in tokens]
    places = [place for place, token in enumerate(tokens) if token == name]

    def tell(other: str) -> list[str]:
        if not other.isascii():
            return _TOKENS.findall(re.sub(rf"\b{re.escape(name)}\b", other, text).casefold())
        made = folded.copy()
        for place in places:
            made[place] = other.lower()
        return made

    return tell


def renamed_member(suggester: Suggester, target: Target, ref: Ref, text: str) -> Suggestion | None:
    """The one new method of the (still resolving) class with a similar name and the same signature.

    A method is a ``def`` of the kind the missing one was (a function, or an attribute: a
    ``cached_property``).
    """
    assert ref.bind is not None
    owner_path, _, name = target.path.rpartition(".")
    if "." not in ref.qual:
        return None
    catalog = suggester.catalog()
    try:
        owner = suggester.new.resolve(owner_path)
    except ResolveError:
        return None
    cls = catalog.at(owner.path, owner.start)
    if cls is None:
        return None
    signature = _signature(text, name)
    if signature is None:
        return None
    hits = []
    for number in catalog.members(cls):
        found = catalog.defs[number]
        other = found.qual.rpartition(".")[2]
        if (
            found.kind != ref.bind.kind
            or name_similarity(name, other) < NAME_FLOOR
            or versions(name, other)
        ):
            continue
        if _signature(catalog.texts[number], other) == signature and fresh(
            suggester.old, found, ref
        ):
            hits.append(found)
    if len(hits) != 1:
        return None  # none, or several that fit as well: not told by the signature
    found = hits[0]
    key = f"{owner_path}.{found.qual.rpartition('.')[2]}"
    if not suggester.lands(key, found):
        return None
    return Suggestion(
        key,
        round(name_similarity(name, found.qual.rpartition(".")[2]), 3),
        "renamed member",
        f"{found.file}:{_span(found)}",
    )


def now_local(suggester: Suggester, target: Target, ref: Ref, text: str) -> Suggestion | None:
    """A module-level ``name = …`` that a function which used it now assigns itself: that statement."""
    assert ref.bind is not None
    if ref.bind.kind != "attribute" or "." in ref.qual or "\n" in text:
        return None
    name = ref.qual
    assign = re.compile(rf"\s*{re.escape(name)}\s*(?::[^=]*)?=(?!=)")
    catalog = suggester.catalog()
    best: tuple[float, Definition, int] | None = None
    for number in catalog.words.get(name.casefold(), ()):
        found = catalog.defs[number]
        if found.kind != "function":
            continue
        lines = suggester.new.file_lines(found.file)
        for at in range(found.start, found.end + 1):
            line = lines[at - 1]
            if not assign.match(line):
                continue
            score = line_similarity(text.strip(), line.strip())
            if score < THRESHOLD or (best is not None and score <= best[0]):
                continue
            if _used_not_assigned(suggester, found, name, assign):
                best = (score, found, at)
    if best is None:
        return None
    score, found, at = best
    line = suggester.new.file_lines(found.file)[at - 1].strip()
    key = f"{found.path}::{line}"
    if "::" in line or not suggester.lands_on(key, at):
        return None
    return Suggestion(key, round(score, 3), f"now a local of {found.path}", suggester.where(key))


def _used_not_assigned(
    suggester: Suggester, found: Definition, name: str, assign: re.Pattern[str]
) -> bool:
    """Whether *found*'s definition at the lock's commit used *name* without assigning it."""
    try:
        was = suggester.old.walker.object(found.path)
    except SourceAnchorsError:
        return False
    if was.bind is None:
        return False
    lines = suggester.old.file_lines(was.file)[was.bind.start - 1 : was.bind.end]
    used = re.compile(rf"\b{re.escape(name)}\b")
    return any(used.search(line) for line in lines) and not any(
        assign.match(line) for line in lines
    )


def _signature(text: str, name: str) -> str | None:
    """The decorators and ``def`` header of a function's normalised *text*, its name blanked; None if not found."""
    lines = text.split("\n")
    for at, line in enumerate(lines):
        if re.match(rf"(async\s+)?def\s+{re.escape(name)}\b", line):
            end = next((n for n in range(at, len(lines)) if lines[n].rstrip().endswith(":")), at)
            return re.sub(
                rf"\bdef\s+{re.escape(name)}\b", "def _", "\n".join(lines[: end + 1]), count=1
            )
    return None


def _made(
    suggester: Suggester, target: Target, ref: Ref, found: Definition, score: float, reason: str
) -> Suggestion | None:
    """The suggestion for *found*: at its definition when the target named the old one's, else as written."""
    if target.path != f"{ref.module}.{ref.qual}":
        # a re-export: kept when it still works
        return suggester.made(target, ref.qual, found, score, reason)
    if not suggester.lands(found.path, found):
        return None
    return Suggestion(found.path, round(score, 3), reason, f"{found.file}:{_span(found)}")


def _span(found: Definition) -> str:
    return line_range(found.start, found.end)
