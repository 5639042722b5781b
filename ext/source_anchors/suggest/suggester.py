"""Where a missing anchor went: suggestions from the locked lines and the new tree (pure).

For a symbol that no longer resolves, the locked lines (read from the tree of the lock's
commit) are looked for in the new tree, among the definitions of the same kind (class,
function, attribute):

1. the same lines (equal sha256) anywhere in the packages: similarity 1;
2. a member of a class that is gone, in the class the class itself went to
   (``BaseCommand.main`` → ``Command.main``), found as Python would (its MRO); when that class
   defines the member itself but rewritten (below the threshold), it is suggested all the same
   (``member of …, rewritten``: the same class's member of the same name); when it only inherits
   one, nothing is, since a similar definition of another name is not where it went. A class that
   is gone went where most of its members went with the same lines (the share is its similarity);
3. else the most similar definition, in the same module first, then in every pinned package; of
   each, the :data:`~.catalog.CANDIDATES` definitions sharing the most identifiers with the locked
   lines (each weighted by its rarity, ``log(N/df)``, among the definitions of the files new or
   changed since the lock's commit: those of a file with the same blob there are no candidates) are
   scored;
4. else, for a name or a level that changed, the rules of :mod:`.elsewhere` (a method become a
   function, the same lines renamed, a member renamed in its class, a module name become a local).

A definition of another language's file (``/src/cmd.go#Command.AddCommand``) is looked for among the
definitions of its file and of the files of its language changed since the lock
(:mod:`.definitions`).

For a match text that occurs on no line of its (still resolving) symbol, the most similar
line of the symbol's new range is taken, with a match text that occurs on that line only.

**Similarity** is :class:`difflib.SequenceMatcher`'s ratio, ``2·M/T``, of the two excerpts' tokens
(words and single punctuation characters), case-folded, with each line stripped of its indentation
(so a method moved into another class compares equal); two lines compare by their characters,
case-folded (:func:`~.linesuggest.line_similarity`). A suggestion below :data:`THRESHOLD` is not
made (0.6 is difflib's own cut-off for a close match, :func:`difflib.get_close_matches`), except
where a name tells where the code went (2, and :mod:`.elsewhere`'s renamed member and distinctive
name). Ties are broken by the similarity of the names, then by the same module. Every suggestion is
resolved in the new tree before it is made.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from ..model.errors import ResolveError, SourceAnchorsError
from ..model.records import LockRecord, Suggestion, line_range
from ..model.target import Target
from ..reading.python import KINDS, Ref
from ..resolve.resolver import Resolver
from .catalog import Catalog, Definition, fresh, lines_of, normal
from .definitions import suggest_definition
from .elsewhere import elsewhere
from .lines import (
    NAME_FLOOR,
    THRESHOLD,
    LineSuggester,
    bound,
    name_similarity,
    similarity,
    versions,
)

__all__ = ["NAME_FLOOR", "THRESHOLD", "Suggester", "fresh", "similarity"]

#: What git's history tells about a missing definition: (suggester, target, its ref, its locked
#: text) -> suggestion.
Told = Callable[["Suggester", Target, Ref, str], Suggestion | None]

#: A member renamed within its own class must be at least this similar: members of one class share
#: their words (``self``, its attributes), so unrelated siblings score high (in the drift evaluation
#: the wrong in-class suggestions scored 0.667 and 0.882).
SIBLING_FLOOR = 0.9


class Suggester(LineSuggester):
    """Suggests where missing targets went, from the lock's commit (*old*) to the pinned one (*new*).

    *old* and *new* are resolvers (:class:`~source_anchors.resolve.resolver.Resolver`) of the two
    trees; the new tree's definitions are indexed on first use (every module of the pinned packages
    parsed once).
    """

    def __init__(
        self,
        old: Resolver,
        new: Resolver,
        *,
        stored: Callable[[str], bytes | None] | None = None,
        told: Told | None = None,
    ) -> None:
        super().__init__(old, new, stored=stored)
        self._defs: Catalog | None = None
        #: What git says the range did (:func:`.history.suggest_from` on the range's history), when
        #: both trees came from git; given by the factory (:mod:`.suggesters`).
        self.told = told

    # -- entry point ---------------------------------------------------------------

    def suggest(self, target: Target, record: LockRecord) -> Suggestion | None:
        """A suggestion for *target*, missing now and locked as *record*; None when there is none."""
        try:
            return self._suggest(target, record)
        except SourceAnchorsError:
            return (
                None  # an old tree that cannot be read, a file that no longer parses: no suggestion
            )

    def _suggest(self, target: Target, record: LockRecord) -> Suggestion | None:
        if target.symbol is not None:
            return suggest_definition(self, target, record)
        if target.is_file:
            return self._file(target, record)
        if target.match is not None:
            try:
                self.new.resolve(target.path)
            except ResolveError:
                pass
            else:
                return self._line(target, target.path, record, base=1.0, reason="similar line")
            symbol = self._symbol(Target(target.repo, target.path), None)
            if symbol is None or "::" in symbol.key:
                return None  # gone, or now a statement itself: no line of it to match
            return self._line(
                target, symbol.key, record, base=symbol.similarity, reason=symbol.reason
            )
        return self._symbol(target, record)

    # -- symbols ---------------------------------------------------------------------

    def _symbol(self, target: Target, record: LockRecord | None) -> Suggestion | None:
        """Where the symbol *target* went (its lines: *record*'s, else the old tree's definition)."""
        try:
            ref = self.old.walker.object(target.path)
        except ResolveError:
            return None
        if ref.bind is None or ref.bind.kind not in KINDS:
            return None  # a module, or a name the old tree did not define either
        old_lines = self.old.file_lines(ref.file)
        start, end = (
            (record.start, record.end)
            if record is not None and record.path == ref.file
            else (ref.bind.start, ref.bind.end)
        )
        text, exact = normal(old_lines[start - 1 : end]), lines_of(old_lines, start, end)
        if "." in ref.qual:
            return self._member(target, ref, text)
        found = self._same_lines(ref, exact)
        if found is not None:
            return self.made(target, ref.qual, found, 1.0, "same lines")
        told = _told_by(self, target, ref, text)
        if told is not None:
            return told
        best = _by_members(self, target, ref) if ref.bind.kind == "class" else None
        scored = self._most_similar(ref, text, self.catalog().top_level)
        if scored is not None and (best is None or scored[1] > best.similarity):
            return self.made(target, ref.qual, scored[0], scored[1], "similar definition")
        return best or elsewhere(self, target, ref, text)

    def _member(self, target: Target, ref: Ref, text: str) -> Suggestion | None:
        """A member ``C.m``: looked for in ``C`` (a renamed member) or, when ``C`` is gone, where ``C`` went."""
        owner_path, _, member = target.path.rpartition(".")
        try:
            owner = self.new.resolve(owner_path)
            moved: Suggestion | None = None
        except ResolveError:
            moved = self._symbol(Target(target.repo, owner_path), None)
            if moved is None:
                return None  # its class went nowhere that can be told
            owner = self.new.resolve(moved.key)
            try:
                location = self.new.resolve(f"{moved.key}.{member}")  # as Python finds it: the MRO
            except ResolveError:
                pass
            else:
                score = self.likeness.similarity(
                    text,
                    normal(self.new.file_lines(location.path)[location.start - 1 : location.end]),
                )
                reason = f"member of {moved.key}"
                if score < THRESHOLD:
                    if not self._own(location.path, location.start, owner.path, owner.start):
                        return None  # inherited and rewritten: a similar definition of another name is not it
                    reason += ", rewritten"  # the class's own member of that name: the same member, rewritten
                return Suggestion(
                    f"{moved.key}.{member}", round(score, 3), reason, location.describe()
                )
        sibling = self._sibling(target, ref, text, owner.path, owner.start, moved)
        if sibling is not None or moved is not None:
            return sibling
        return elsewhere(self, target, ref, text)

    def _sibling(
        self, target: Target, ref: Ref, text: str, file: str, start: int, moved: Suggestion | None
    ) -> Suggestion | None:
        """A member of the class at *file*:*start* with another name and nearly the same lines."""
        owner_path = target.path.rpartition(".")[0]
        catalog = self.catalog()
        cls = catalog.at(file, start)
        if cls is None:
            return None
        scored = self._most_similar(ref, text, catalog.members(cls), module=cls.module)
        if scored is None:
            return None
        found, score = scored
        if score < SIBLING_FLOOR:
            return None
        key = f"{moved.key if moved else owner_path}.{found.qual.rpartition('.')[2]}"
        if not self.lands(key, found):
            return None
        return Suggestion(
            key,
            round(score, 3),
            "similar member",
            f"{found.file}:{line_range(found.start, found.end)}",
        )

    def _own(self, file: str, start: int, cls_file: str, cls_start: int) -> bool:
        """Whether the definition at *file*:*start* is a member of the class at *cls_file*:*cls_start* itself."""
        catalog = self.catalog()
        found, cls = catalog.at(file, start), catalog.at(cls_file, cls_start)
        return found is not None and cls is not None and catalog.owner(found) == cls

    def _fresh(self, found: Definition, missing: Ref) -> bool:
        return fresh(self.old, found, missing)

    def _same_lines(self, ref: Ref, exact: str) -> Definition | None:
        assert ref.bind is not None
        hits = [
            d
            for d in self.catalog().same_lines(ref.bind.kind, exact)
            if "." not in d.qual and self._fresh(d, ref)
        ]
        if not hits:
            return None
        return max(hits, key=lambda d: (d.module == ref.module, name_similarity(ref.qual, d.qual)))

    def _most_similar(
        self, ref: Ref, text: str, among: Collection[int], *, module: str | None = None
    ) -> tuple[Definition, float] | None:
        """The definition of *ref*'s kind among *among* most similar to *text*, in *module* first.

        *module* defaults to *ref*'s. A definition of another name counts only when the names are
        :data:`NAME_FLOOR` similar and do not differ in their numbers only
        (:func:`~.linesuggest.versions`), and only one new since the lock's commit (:meth:`_fresh`).
        """
        assert ref.bind is not None
        module, qual, kind = module or ref.module, ref.qual, ref.bind.kind
        name = qual.rpartition(".")[2]
        catalog = self.catalog()
        best: dict[bool, tuple[tuple[float, float], Definition]] = {}
        for here in (True, False):
            for number in catalog.nearest(text, kind, module if here else None, among):
                candidate, other = catalog.defs[number], catalog.texts[number]
                other_name = candidate.qual.rpartition(".")[2]
                if bound(text, other) < THRESHOLD:  # the lengths alone: the cheapest test first
                    continue
                named = name_similarity(name, other_name)
                if named < NAME_FLOOR or versions(name, other_name):
                    continue
                # Never below the score: a candidate it puts under the threshold or the best so far
                # is not scored.
                if any(
                    upper < THRESHOLD or (here in best and upper < best[here][0][0])
                    for upper in self.likeness.bounds(text, other)
                ):
                    continue
                score = self.likeness.similarity(text, other)
                if score < THRESHOLD or not self._fresh(candidate, ref):
                    continue
                key = (score, named)
                if here not in best or key > best[here][0]:
                    best[here] = (key, candidate)
            if here in best:
                break
        chosen = best.get(True) or best.get(False)
        return None if chosen is None else (chosen[1], chosen[0][0])

    def made(
        self, target: Target, old_qual: str, found: Definition, score: float, reason: str
    ) -> Suggestion | None:
        """The suggestion for *found*, written as the target was (a re-exported path kept when it still works)."""
        path = found.path
        if target.path.endswith("." + old_qual):
            written = target.path[: -len(old_qual)] + found.qual
            if written != path and self.lands(written, found):
                path = written
        if not self.lands(path, found):
            return None
        return Suggestion(
            path, round(score, 3), reason, f"{found.file}:{line_range(found.start, found.end)}"
        )

    def lands(self, path: str, found: Definition) -> bool:
        """Whether *path* resolves in the new tree to the lines of *found*."""
        try:
            location = self.new.resolve(path)
        except ResolveError:
            return False
        return (location.path, location.start) == (found.file, found.start)

    def catalog(self) -> Catalog:
        """The new tree's definitions, indexed on first use."""
        if self._defs is None:
            self._defs = Catalog(self.new, self.old.tree.listing or self.old.tree.blobs)
        return self._defs


def _told_by(suggester: Suggester, target: Target, ref: Ref, text: str) -> Suggestion | None:
    """What git's history says (:mod:`.history`), when the suggester has it."""
    if suggester.told is None:
        return None
    return suggester.told(suggester, target, ref, text)


def _by_members(suggester: Suggester, target: Target, ref: Ref) -> Suggestion | None:
    """The class that most members of the old class *ref* went to, with the same lines.

    Its similarity is the share of the members found with the same lines somewhere that are in
    that class (one found in several classes counts for each in part); at least two must be found.
    """
    assert ref.bind is not None
    index = suggester.old.files.index(ref.file, ref.module)
    lines = suggester.old.file_lines(ref.file)
    catalog = suggester.catalog()
    prefix = ref.qual + "."
    members = [
        bind
        for qual, binds in index.bindings.items()
        if qual.startswith(prefix) and "." not in qual[len(prefix) :]
        for bind in binds[:1]
        if bind.owner == ref.bind.start and bind.kind in KINDS
    ]
    votes: dict[Definition, float] = {}
    for bind in members:
        hits = catalog.same_lines(bind.kind, lines_of(lines, bind.start, bind.end))
        owners = {owner for hit in hits if (owner := catalog.owner(hit)) is not None}
        for (
            owner
        ) in owners:  # a class that was there before takes its votes too, then cannot be chosen
            votes[owner] = votes.get(owner, 0.0) + 1 / len(owners)
    found = sum(votes.values())
    if found < 2:
        return None
    fresh_votes = {owner: count for owner, count in votes.items() if suggester._fresh(owner, ref)}
    if not fresh_votes:
        return None
    owner, count = max(
        fresh_votes.items(), key=lambda item: (item[1], name_similarity(ref.qual, item[0].qual))
    )
    share = count / found
    return (
        suggester.made(target, ref.qual, owner, share, "members moved")
        if share >= THRESHOLD
        else None
    )
