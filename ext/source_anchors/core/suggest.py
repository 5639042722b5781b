"""Where a missing anchor went: suggestions from the locked lines and the new tree (pure).

For a symbol that no longer resolves, the locked lines (read from the tree of the lock's
commit) are looked for in the new tree, among the definitions of the same kind (class,
function, attribute):

1. the same lines (equal sha256) anywhere in the packages: similarity 1;
2. a member of a class that is gone, in the class the class itself went to
   (``BaseCommand.main`` → ``Command.main``), found as Python would (its MRO);
3. else the most similar definition, in the same module first, then in every pinned package;
   of each, the :data:`CANDIDATES` definitions sharing the most identifiers with the locked
   lines (each weighted by its rarity, ``log(N/df)``) are scored.

For a match text that occurs on no line of its (still resolving) symbol, the most similar
line of the symbol's new range is taken, with a match text that occurs on that line only.

**Similarity** is :class:`difflib.SequenceMatcher`'s ratio, ``2·M/T``, of the two excerpts
case-folded, with each line stripped of its indentation (so a method moved into another
class compares equal and ``_flag_needs_value`` is close to ``FLAG_NEEDS_VALUE``), or of the
two lines. A suggestion below :data:`THRESHOLD` is not made: 0.6 is
difflib's own cut-off for a close match (:func:`difflib.get_close_matches`), and ties are
broken by the similarity of the names, then by the same module. Every suggestion is
resolved in the new tree before it is made.
"""

from __future__ import annotations

import difflib
import hashlib
import heapq
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import ResolveError, SourceAnchorsError
from .records import LockRecord, Suggestion, line_range
from .target import Target

if TYPE_CHECKING:
    from .resolve import Resolver
    from .walk import Ref

#: Suggestions below this similarity are not made (difflib's cut-off for a close match).
THRESHOLD = 0.6
#: How many definitions (of the module, then of the packages) are scored for one missing symbol.
CANDIDATES = 25
_WORDS = re.compile(r"[^\W\d]\w*")
#: Kinds of definition a missing symbol may be matched with.
_KINDS = ("class", "function", "attribute")


@dataclass(frozen=True)
class _Def:
    """One definition in a tree: its dotted path, file, lines and kind."""

    path: str
    module: str
    qual: str
    file: str
    start: int
    end: int
    kind: str


def similarity(a: str, b: str) -> float:
    """SequenceMatcher's ratio of *a* and *b* case-folded (1.0 for two empty texts)."""
    a, b = a.casefold(), b.casefold()
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _bound(a: str, b: str) -> float:
    """An upper bound of :func:`similarity` from the lengths alone (``2·min/sum``)."""
    total = len(a) + len(b)
    return 1.0 if not total else 2 * min(len(a), len(b)) / total


def _normal(lines: list[str]) -> str:
    """An excerpt without indentation or trailing blanks, the form similarities compare."""
    return "\n".join(line.strip() for line in lines)


def _sha(lines: list[str], start: int, end: int) -> str:
    return hashlib.sha256("\n".join(lines[start - 1:end]).encode("utf-8")).hexdigest()


class Suggester:
    """Suggests where missing targets went, from the lock's commit (*old*) to the pinned one (*new*).

    *old* and *new* are resolvers (:class:`~.resolve.Resolver`) of the two trees; the new
    tree's definitions are indexed on first use (every module of the pinned packages parsed once).
    """

    def __init__(self, old: Resolver, new: Resolver) -> None:
        self.old = old
        self.new = new
        self._defs: _Catalog | None = None

    # -- entry point ---------------------------------------------------------------

    def suggest(self, target: Target, record: LockRecord) -> Suggestion | None:
        """A suggestion for *target*, missing now and locked as *record*; None when there is none."""
        try:
            return self._suggest(target, record)
        except SourceAnchorsError:
            return None  # an old tree that cannot be read, a file that no longer parses: no suggestion

    def _suggest(self, target: Target, record: LockRecord) -> Suggestion | None:
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
        if ref.bind is None or ref.bind.kind not in _KINDS:
            return None  # a module, or a name the old tree did not define either
        old_lines = self.old.file_lines(ref.file)
        start, end = (record.start, record.end) if record is not None and record.path == ref.file \
            else (ref.bind.start, ref.bind.end)
        text, sha = _normal(old_lines[start - 1:end]), _sha(old_lines, start, end)
        found = self._same_lines(ref.module, ref.qual, ref.bind.kind, sha)
        if found is not None:
            return self._made(target, ref.qual, found, 1.0, "same lines")
        best = self._member_of_moved_class(target, ref)
        scored = self._most_similar(ref.module, ref.qual, ref.bind.kind, text)
        if scored is not None and (best is None or scored[1] > best.similarity):
            return self._made(target, ref.qual, scored[0], scored[1], "similar definition")
        return best

    def _same_lines(self, module: str, qual: str, kind: str, sha: str) -> _Def | None:
        hits = self._catalog().by_sha.get((kind, sha), [])
        if not hits:
            return None
        name = qual.rpartition(".")[2]
        return max(hits, key=lambda d: (d.module == module, similarity(name, d.qual.rpartition(".")[2])))

    def _most_similar(self, module: str, qual: str, kind: str, text: str) -> tuple[_Def, float] | None:
        """The best definition of *kind* by similarity: in *module* when one there reaches the threshold."""
        name = qual.rpartition(".")[2]
        catalog = self._catalog()
        best: dict[bool, tuple[tuple[float, float], _Def]] = {}
        for here in (True, False):
            for number in catalog.nearest(text, kind, module if here else None):
                candidate, other = catalog.defs[number], catalog.texts[number]
                if _bound(text, other) < THRESHOLD:
                    continue
                score = similarity(text, other)
                if score < THRESHOLD:
                    continue
                key = (score, similarity(name, candidate.qual.rpartition(".")[2]))
                if here not in best or key > best[here][0]:
                    best[here] = (key, candidate)
            if here in best:
                break
        chosen = best.get(True) or best.get(False)
        return None if chosen is None else (chosen[1], chosen[0][0])

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
        old = _normal(self.old.file_lines(old_ref.file)[old_ref.bind.start - 1:old_ref.bind.end])
        new = _normal(self.new.file_lines(location.path)[location.start - 1:location.end])
        score = similarity(old, new)
        if score < THRESHOLD:
            return None
        return Suggestion(new_path, round(score, 3), f"member of {moved.key}",
                          f"{location.path}:{line_range(location.start, location.end)}")

    def _made(self, target: Target, old_qual: str, found: _Def, score: float, reason: str) -> Suggestion | None:
        """The suggestion for *found*, written as the target was (a re-exported path kept when it still works)."""
        path = found.path
        if target.path.endswith("." + old_qual):
            written = target.path[: -len(old_qual)] + found.qual
            if written != path and self._lands(written, found):
                path = written
        if not self._lands(path, found):
            return None
        return Suggestion(path, round(score, 3), reason, f"{found.file}:{line_range(found.start, found.end)}")

    def _lands(self, path: str, found: _Def) -> bool:
        try:
            location = self.new.resolve(path)
        except ResolveError:
            return False
        return (location.path, location.start) == (found.file, found.start)

    # -- match texts -------------------------------------------------------------

    def _line(self, target: Target, symbol: str, record: LockRecord, *, base: float,
              reason: str) -> Suggestion | None:
        """The line of *symbol*'s new range most like the locked match line, with a match text unique there."""
        assert target.match is not None
        try:
            old_file = self.old.file_lines(record.path)
        except SourceAnchorsError:
            return None
        match = target.match
        old_line = next((line for line in old_file[record.start - 1:record.end] if match in line), None)
        if old_line is None:
            return None
        location = self.new.resolve(symbol)
        lines = self.new.file_lines(location.path)
        span = range(location.start, min(location.end, len(lines)) + 1)
        if any(match in lines[n - 1] for n in span):  # the text is still there (several times, or moved)
            candidate = f"{symbol}::{match}"
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
                candidate = f"{symbol}::{text}"
                if self._resolves(candidate):
                    return Suggestion(candidate, round(min(base, score), 3),
                                      "similar line" if reason == "similar line" else f"{reason}, similar line",
                                      self._where(candidate))
        return None

    def _resolves(self, key: str) -> bool:
        path, _, match = key.partition("::")
        try:
            self.new.resolve(path, match)
        except ResolveError:
            return False
        return True

    def _where(self, key: str) -> str:
        path, _, match = key.partition("::")
        location = self.new.resolve(path, match or None)
        return f"{location.path}:{line_range(location.start, location.end)}"

    # -- the new tree's definitions ------------------------------------------------

    def _catalog(self) -> _Catalog:
        if self._defs is None:
            self._defs = _Catalog(self.new)
        return self._defs


class _Catalog:
    """The new tree's definitions, indexed by kind and lines, by module, and by the identifiers they use."""

    def __init__(self, resolver: Resolver) -> None:
        self.defs = list(definitions(resolver))
        self.texts: list[str] = []
        self.by_sha: dict[tuple[str, str], list[_Def]] = {}
        self.by_module: dict[str, list[int]] = {}
        self.words: dict[str, list[int]] = {}
        for number, found in enumerate(self.defs):
            lines = resolver.file_lines(found.file)
            self.texts.append(_normal(lines[found.start - 1:found.end]))
            self.by_sha.setdefault((found.kind, _sha(lines, found.start, found.end)), []).append(found)
            self.by_module.setdefault(found.module, []).append(number)
            for word in set(_WORDS.findall(self.texts[-1].casefold())):
                self.words.setdefault(word, []).append(number)

    def nearest(self, text: str, kind: str, module: str | None) -> list[int]:
        """The :data:`CANDIDATES` definitions of *kind* (in *module*, or anywhere) most like *text*.

        Likeness here is the identifiers shared with *text*, each weighted by its rarity (``log(N/df)``).
        """
        allowed = set(self.by_module.get(module, ())) if module is not None else None
        scores: dict[int, float] = {}
        total = len(self.defs) or 1
        for word in set(_WORDS.findall(text.casefold())):
            holders = self.words.get(word, ())
            if not holders:
                continue
            weight = math.log(total / len(holders)) + 1e-3
            for number in holders:
                if (allowed is None or number in allowed) and self.defs[number].kind == kind:
                    scores[number] = scores.get(number, 0.0) + weight
        return heapq.nlargest(CANDIDATES, scores, key=scores.__getitem__)


def definitions(resolver: Resolver) -> Iterator[_Def]:
    """Every class, function and attribute defined in the modules of *resolver*'s pinned packages."""
    files = resolver.files
    for name, folder in sorted(files.packages.items()):
        for path in sorted(resolver.tree.blobs):
            module = _module_of(path, name, folder)
            if module is None:
                continue
            try:
                index = files.index(path, module)
            except SourceAnchorsError:
                continue
            for qual, binds in index.bindings.items():
                for bind in binds:
                    if bind.kind in _KINDS:
                        yield _Def(f"{module}.{qual}", module, qual, path, bind.start, bind.end, bind.kind)


def _module_of(path: str, name: str, folder: str) -> str | None:
    """The dotted module of file *path* in package *name* (kept in *folder*), or None outside it."""
    if path == f"{folder}.py":
        return name
    if not (path.startswith(folder + "/") and path.endswith(".py")):
        return None
    parts = path[len(folder) + 1: -3].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    if not all(part.isidentifier() for part in parts):
        return None
    return ".".join([name, *parts])


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
