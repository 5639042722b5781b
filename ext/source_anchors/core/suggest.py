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
from collections.abc import Callable, Iterator
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


#: What :meth:`Suggester._member_of_moved_class` answers when the moved class has the member, rewritten.
_REWRITTEN = Suggestion("", 0.0, "rewritten", "")


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
        old_line = next((line for line in old_file[record.start - 1:record.end] if match in line), None)
        if old_line is None:
            return None
        scope = "::".join([symbol, *outer])
        lines = self.new.file_lines(location.path)
        span = range(location.start, min(location.end, len(lines)) + 1)
        if any(match in lines[n - 1] for n in span):  # the text is still there (several times, or moved)
            candidate = f"{scope}::{match}"
            if self._resolves(candidate):
                return Suggestion(candidate, round(base, 3), reason, self._where(candidate))
        old = old_line.strip()
        scored = sorted(((similarity(old, lines[n - 1].strip()), n) for n in span if lines[n - 1].strip()),
                        reverse=True)
        if not scored or scored[0][0] < THRESHOLD:
            return None
        score, number = scored[0]
        for text in _match_texts(old, match, lines[number - 1].strip()):
            if sum(text in lines[n - 1] for n in span) == 1:
                candidate = f"{scope}::{text}"
                if self._resolves(candidate):
                    return Suggestion(candidate, round(min(base, score), 3),
                                      "similar line" if reason == "similar line" else f"{reason}, similar line",
                                      self._where(candidate))
        return None

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
        found = self._same_lines(ref.module, ref.qual, ref.bind.kind, sha)
        if found is not None:
            return self._made(target, ref.qual, found, 1.0, "same lines")
        best = self._member_of_moved_class(target, ref) if ref.bind.kind != "class" else self._by_members(target, ref)
        if best is _REWRITTEN:
            return None  # its class moved and has it still, rewritten: a similar definition elsewhere is not it
        scored = self._most_similar(ref.module, ref.qual, ref.bind.kind, text)
        if scored is not None and (best is None or scored[1] > best.similarity):
            return self._made(target, ref.qual, scored[0], scored[1], "similar definition")
        return best

    def _same_lines(self, module: str, qual: str, kind: str, sha: str) -> Definition | None:
        hits = self._catalog().by_sha.get((kind, sha), [])
        if not hits:
            return None
        name = qual.rpartition(".")[2]
        return max(hits, key=lambda d: (d.module == module, name_similarity(name, d.qual.rpartition(".")[2]),
                                        name_similarity(qual, d.qual)))

    def _most_similar(self, module: str, qual: str, kind: str, text: str) -> tuple[Definition, float] | None:
        """The best definition of *kind* by similarity: in *module* when one there reaches the threshold."""
        name = qual.rpartition(".")[2]
        catalog = self._catalog()
        best: dict[bool, tuple[tuple[float, float, float], Definition]] = {}
        for here in (True, False):
            for number in catalog.nearest(text, kind, module if here else None):
                candidate, other = catalog.defs[number], catalog.texts[number]
                if _bound(text, other) < THRESHOLD:
                    continue
                score = similarity(text, other)
                if score < THRESHOLD:
                    continue
                key = (score, name_similarity(name, candidate.qual.rpartition(".")[2]),
                       name_similarity(qual, candidate.qual))
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

    def _member_of_moved_class(self, target: Target, ref: Ref) -> Suggestion | None:
        """For ``C.m`` whose class ``C`` is gone: ``m`` of the class ``C`` went to, as Python finds it."""
        if "." not in ref.qual or "." not in target.path:
            return None
        owner_path, _, member = target.path.rpartition(".")
        try:
            self.new.resolve(owner_path)
            return None  # the class is still there: its member went elsewhere
        except ResolveError:
            pass
        moved = self._symbol(Target(target.repo, owner_path), None)
        if moved is None:
            return None
        new_path = f"{moved.key}.{member}"
        try:
            location = self.new.resolve(new_path)
        except ResolveError:
            return None
        old_ref = self.old.walker.object(target.path)
        assert old_ref.bind is not None
        old = normal(self.old.file_lines(old_ref.file)[old_ref.bind.start - 1:old_ref.bind.end])
        new = normal(self.new.file_lines(location.path)[location.start - 1:location.end])
        score = similarity(old, new)
        if score < THRESHOLD:
            return _REWRITTEN
        return Suggestion(new_path, round(score, 3), f"member of {moved.key}",
                          f"{location.path}:{line_range(location.start, location.end)}")

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
