"""Where a missing anchor went: suggestions from the locked lines and the new tree (pure).

For a symbol that no longer resolves, the locked lines (read from the tree of the lock's
commit) are looked for in the new tree, among the definitions of the same kind (class,
function, attribute):

1. the same lines (equal sha256) anywhere in the packages: similarity 1;
2. a member of a class that is gone, in the class the class itself went to
   (``BaseCommand.main`` → ``Command.main``), found as Python would (its MRO); when that class
   has the member but rewritten (below the threshold), nothing is suggested, since a similar
   definition of another name is not where it went. A class that is gone went where most of
   its members went with the same lines (the share is its similarity);
3. else the most similar definition, in the same module first, then in every pinned package;
   of each, the :data:`~.catalog.CANDIDATES` definitions sharing the most identifiers with the locked
   lines (each weighted by its rarity, ``log(N/df)``) are scored.

For a match text that occurs on no line of its (still resolving) symbol, the most similar
line of the symbol's new range is taken, with a match text that occurs on that line only.

**Similarity** is :class:`difflib.SequenceMatcher`'s ratio, ``2·M/T``, of the two excerpts'
tokens (words and single punctuation characters), case-folded, with each line stripped of its
indentation (so a method moved into another class compares equal), or of the two lines' tokens
(``if value is _flag_needs_value:`` and ``if value is FLAG_NEEDS_VALUE:`` share 4 of 5: 0.8).
A suggestion below :data:`THRESHOLD` is not made: 0.6 is difflib's own cut-off for a close
match (:func:`difflib.get_close_matches`). Ties are broken by the similarity of the names,
then by the same module. Every suggestion is resolved in the new tree before it is made.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING

from .catalog import KINDS, Catalog, Definition, normal, sha_of
from .errors import ResolveError, SourceAnchorsError
from .records import LockRecord, Suggestion, line_range
from .target import Target
from .textlines import decode_source, split_lines

if TYPE_CHECKING:
    from .resolve import Resolver
    from .walk import Ref

#: Suggestions below this similarity are not made (difflib's cut-off for a close match).
THRESHOLD = 0.6


#: A definition of another name is suggested only when the names are at least this similar (characters).
NAME_FLOOR = 0.6
#: A member renamed within its own class must be at least this similar: members of one class share
#: their words (``self``, its attributes), so unrelated siblings score high (in the drift evaluation
#: the wrong in-class suggestions scored 0.667 and 0.882).
SIBLING_FLOOR = 0.9


def similarity(a: str, b: str) -> float:
    """SequenceMatcher's ratio of the tokens of *a* and *b*, case-folded (1.0 for two empty texts).

    A token is a word (a run of word characters) or one other non-blank character. Tokens, not characters, keep
    long excerpts fast (the matcher's time grows with the product of the lengths).
    """
    a, b = a.casefold(), b.casefold()
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, _TOKENS.findall(a), _TOKENS.findall(b)).ratio()


def name_similarity(a: str, b: str) -> float:
    """SequenceMatcher's ratio of two names' characters, case-folded (for ties and file names)."""
    return difflib.SequenceMatcher(None, a.casefold(), b.casefold()).ratio()


_TOKENS = re.compile(r"\w+|[^\w\s]")


def _bound(a: str, b: str) -> float:
    """An upper bound of :func:`similarity` from the lengths alone (``2·min/sum``)."""
    total = len(a) + len(b)
    return 1.0 if not total else 2 * min(len(a), len(b)) / total


class LineSuggester:
    """Suggestions among the lines of the new tree: a match text's new line, a file's new path.

    *old* and *new* are resolvers (:class:`~.resolve.Resolver`) of the lock's commit and of the
    pinned one; *stored* gives the bytes of a blob kept in the cache (files outside the packages).
    """

    def __init__(self, old: Resolver, new: Resolver, *, stored: Callable[[str], bytes | None] | None = None) -> None:
        self.old = old
        self.new = new
        self.stored = stored

    def _file(self, target: Target, record: LockRecord) -> Suggestion | None:
        """A file target: the file with the same blob elsewhere (a rename), then its match levels there."""
        try:
            self.new.resolve(target.path)
        except ResolveError:
            pass
        else:
            return self._line(target, target.path, record, base=1.0, reason="similar line") if target.match \
                else None
        listing = self.new.tree.listing or self.new.tree.blobs
        moved = sorted(path for path, blob in listing.items() if blob == record.blob)
        if not moved:
            return None
        path = "/" + min(moved, key=lambda p: (-name_similarity(p, target.file), p))
        if target.match is None:
            return Suggestion(path, 1.0, "same file", self._where(path))
        return self._line(target, path, record, base=1.0, reason="same file")

    # -- match texts -------------------------------------------------------------

    def _line(self, target: Target, symbol: str, record: LockRecord, *, base: float,
              reason: str) -> Suggestion | None:
        """The line of *symbol*'s new range most like the locked match line, with a match text unique there."""
        *outer, match = target.matches  # scoped matches: the outer levels are kept, the last one re-matched
        try:
            old_file = self._old_lines(record)
            location = self.new.resolve(symbol, tuple(outer) or None)
        except (SourceAnchorsError, UnicodeDecodeError):
            return None
        at = next((n for n in range(record.start, record.end + 1) if match in old_file[n - 1]), None)
        if at is None:
            return None
        scope = "::".join([symbol, *outer])
        lines = self.new.file_lines(location.path)
        span = range(location.start, min(location.end, len(lines)) + 1)
        if any(match in lines[n - 1] for n in span):  # the text is still there (several times, or moved)
            candidate = f"{scope}::{match}"
            if self._resolves(candidate):
                return Suggestion(candidate, round(base, 3), reason, self._where(candidate))
        old, old_header = old_file[at - 1].strip(), _header(old_file, at)
        # The most similar lines first; of equal ones, the one under the same clause header as before.
        scored = sorted(((similarity(old, lines[n - 1].strip()), _header(lines, n) == old_header, -n)
                         for n in span if lines[n - 1].strip()), reverse=True)
        if not scored or scored[0][0] < THRESHOLD:
            return None
        score, _, number = scored[0]
        number = -number
        why = "similar line" if reason == "similar line" else f"{reason}, similar line"
        for text in _match_texts(old, match, lines[number - 1].strip()):
            if sum(text in lines[n - 1] for n in span) == 1:
                candidate = f"{scope}::{text}"
            else:  # the same text elsewhere in the range: scoped by the clause header above it
                header = _header(lines, number)
                if header is None or "::" in header:
                    continue
                candidate = f"{scope}::{header}::{text}"
            if self._lands_on(candidate, number):
                return Suggestion(candidate, round(min(base, score), 3), why, self._where(candidate))
        return None

    def _lands_on(self, key: str, number: int) -> bool:
        """Whether *key* resolves to a range that holds line *number*."""
        path, _, match = key.partition("::")
        try:
            location = self.new.resolve(path, match or None)
        except ResolveError:
            return False
        return location.start <= number <= location.end

    def _old_lines(self, record: LockRecord) -> list[str]:
        """The lines of the locked file in the old tree (a file outside the packages: from its kept blob)."""
        if self.old.tree.has(record.path) or self.stored is None:
            return self.old.file_lines(record.path)
        data = self.stored(record.blob)
        return split_lines(decode_source(data)) if data is not None else []

    def _resolves(self, key: str) -> bool:
        path, _, match = key.partition("::")
        try:
            self.new.resolve(path, match or None)
        except ResolveError:
            return False
        return True

    def _where(self, key: str) -> str:
        path, _, match = key.partition("::")
        location = self.new.resolve(path, match or None)
        return location.describe()

    # -- the new tree's definitions ------------------------------------------------


class Suggester(LineSuggester):
    """Suggests where missing targets went, from the lock's commit (*old*) to the pinned one (*new*).

    *old* and *new* are resolvers (:class:`~.resolve.Resolver`) of the two trees; the new
    tree's definitions are indexed on first use (every module of the pinned packages parsed once).
    """

    def __init__(self, old: Resolver, new: Resolver, *, stored: Callable[[str], bytes | None] | None = None) -> None:
        super().__init__(old, new, stored=stored)
        self._defs: Catalog | None = None

    # -- entry point ---------------------------------------------------------------

    def suggest(self, target: Target, record: LockRecord) -> Suggestion | None:
        """A suggestion for *target*, missing now and locked as *record*; None when there is none."""
        try:
            return self._suggest(target, record)
        except SourceAnchorsError:
            return None  # an old tree that cannot be read, a file that no longer parses: no suggestion

    def _suggest(self, target: Target, record: LockRecord) -> Suggestion | None:
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
            if symbol is None:
                return None
            return self._line(target, symbol.key, record, base=symbol.similarity, reason=symbol.reason)
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
        start, end = (record.start, record.end) if record is not None and record.path == ref.file \
            else (ref.bind.start, ref.bind.end)
        text, sha = normal(old_lines[start - 1:end]), sha_of(old_lines, start, end)
        if "." in ref.qual:
            return self._member(target, ref, text)
        found = self._same_lines(ref.module, ref.qual, ref.bind.kind, sha)
        if found is not None:
            return self._made(target, ref.qual, found, 1.0, "same lines")
        best = self._by_members(target, ref) if ref.bind.kind == "class" else None
        scored = self._most_similar(ref.module, ref.qual, ref.bind.kind, text, self._catalog().top_level)
        if scored is not None and (best is None or scored[1] > best.similarity):
            return self._made(target, ref.qual, scored[0], scored[1], "similar definition")
        return best

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
                score = similarity(text, normal(self.new.file_lines(location.path)[location.start - 1:location.end]))
                if score < THRESHOLD:
                    return None  # there, but rewritten: a similar definition of another name is not it
                return Suggestion(f"{moved.key}.{member}", round(score, 3), f"member of {moved.key}",
                                  location.describe())
        catalog = self._catalog()
        cls = catalog.at(owner.path, owner.start)
        if cls is None:
            return None
        scored = self._most_similar(cls.module, ref.qual, ref.bind.kind if ref.bind else "", text,
                                    catalog.members(cls))
        if scored is None:
            return None
        found, score = scored
        if score < SIBLING_FLOOR:
            return None
        key = f"{moved.key if moved else owner_path}.{found.qual.rpartition('.')[2]}"
        if not self._lands(key, found):
            return None
        return Suggestion(key, round(score, 3), "similar member", f"{found.file}:{line_range(found.start, found.end)}")

    def _same_lines(self, module: str, qual: str, kind: str, sha: str) -> Definition | None:
        hits = [d for d in self._catalog().by_sha.get((kind, sha), []) if "." not in d.qual]
        if not hits:
            return None
        return max(hits, key=lambda d: (d.module == module, name_similarity(qual, d.qual)))

    def _most_similar(self, module: str, qual: str, kind: str, text: str,
                      among: Collection[int]) -> tuple[Definition, float] | None:
        """The best definition of *kind* among *among* by similarity, in *module* when one there is enough.

        A definition of another name counts only when the names are :data:`NAME_FLOOR` similar.
        """
        name = qual.rpartition(".")[2]
        catalog = self._catalog()
        best: dict[bool, tuple[tuple[float, float], Definition]] = {}
        for here in (True, False):
            for number in catalog.nearest(text, kind, module if here else None, among):
                candidate, other = catalog.defs[number], catalog.texts[number]
                other_name = candidate.qual.rpartition(".")[2]
                named = name_similarity(name, other_name)
                if named < NAME_FLOOR or _bound(text, other) < THRESHOLD:
                    continue
                score = similarity(text, other)
                if score < THRESHOLD:
                    continue
                key = (score, named)
                if here not in best or key > best[here][0]:
                    best[here] = (key, candidate)
            if here in best:
                break
        chosen = best.get(True) or best.get(False)
        return None if chosen is None else (chosen[1], chosen[0][0])

    def _by_members(self, target: Target, ref: Ref) -> Suggestion | None:
        """The class that most members of the old class *ref* went to, with the same lines.

        Its similarity is the share of the members found with the same lines somewhere that are in
        that class (one found in several classes counts for each in part); at least two must be found.
        """
        assert ref.bind is not None
        index = self.old.files.index(ref.file, ref.module)
        lines = self.old.file_lines(ref.file)
        catalog = self._catalog()
        prefix = ref.qual + "."
        members = [bind for qual, binds in index.bindings.items() if qual.startswith(prefix)
                   and "." not in qual[len(prefix):] for bind in binds[:1]
                   if bind.owner == ref.bind.start and bind.kind in KINDS]
        votes: dict[Definition, float] = {}
        for bind in members:
            hits = catalog.by_sha.get((bind.kind, sha_of(lines, bind.start, bind.end)), [])
            owners = {catalog.owner(hit) for hit in hits} - {None}
            for owner in owners:
                assert owner is not None
                votes[owner] = votes.get(owner, 0.0) + 1 / len(owners)
        found = sum(votes.values())
        if found < 2:
            return None
        owner, count = max(votes.items(), key=lambda item: (item[1], name_similarity(ref.qual, item[0].qual)))
        share = count / found
        return self._made(target, ref.qual, owner, share, "members moved") if share >= THRESHOLD else None

    def _made(self, target: Target, old_qual: str, found: Definition, score: float, reason: str) -> Suggestion | None:
        """The suggestion for *found*, written as the target was (a re-exported path kept when it still works)."""
        path = found.path
        if target.path.endswith("." + old_qual):
            written = target.path[: -len(old_qual)] + found.qual
            if written != path and self._lands(written, found):
                path = written
        if not self._lands(path, found):
            return None
        return Suggestion(path, round(score, 3), reason, f"{found.file}:{line_range(found.start, found.end)}")

    def _lands(self, path: str, found: Definition) -> bool:
        try:
            location = self.new.resolve(path)
        except ResolveError:
            return False
        return (location.path, location.start) == (found.file, found.start)

    def _catalog(self) -> Catalog:
        if self._defs is None:
            self._defs = Catalog(self.new)
        return self._defs


def _match_texts(old_line: str, match: str, new_line: str) -> Iterator[str]:
    """Match texts for *new_line*: the part that corresponds to *match* in *old_line*, then the whole line."""
    at = old_line.find(match)
    if at >= 0 and match != old_line:
        start, end = at, at + len(match)
        mapped_start = mapped_end = None
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_line, new_line, autojunk=False).get_opcodes():
            if mapped_start is None and i2 > start:
                mapped_start = j1 + (start - i1 if tag == "equal" else 0)
            if i2 >= end:
                mapped_end = j1 + (end - i1) if tag == "equal" else j2
                break
        if mapped_start is not None and mapped_end is not None:
            part = new_line[mapped_start:mapped_end].strip()
            if part and "::" not in part:
                yield part
    if "::" not in new_line:
        yield new_line


def _header(lines: list[str], number: int) -> str | None:
    """The text of the nearest line above *number* indented less (its clause header), or None."""
    text = lines[number - 1]
    indent = len(text) - len(text.lstrip())
    for above in range(number - 1, 0, -1):
        line = lines[above - 1]
        if line.strip() and not line.lstrip().startswith("#") and len(line) - len(line.lstrip()) < indent:
            return line.strip()
    return None
