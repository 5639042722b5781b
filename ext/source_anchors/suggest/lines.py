"""Suggestions among lines, and the similarity they are measured by (pure).

A match text that occurs on no line of its symbol (or now on several) gets the most similar
line of the symbol's new range, with a match text found on that line only (scoped by the
clause header above it when the text is there twice); a file target whose file is gone gets
the path with the same blob. :func:`similarity` is the one measure of every suggestion (see
:mod:`.suggest`).
"""

from __future__ import annotations

import difflib
import functools
import re
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator

from ..model.errors import ResolveError, SourceAnchorsError
from ..model.records import LockRecord, Suggestion
from ..model.target import Target
from ..model.textlines import decode_source, split_lines
from ..resolve.resolver import Resolver

#: Suggestions below this similarity are not made (difflib's cut-off for a close match).
THRESHOLD = 0.6
#: A definition of another name is suggested only when the names are at least this similar
#: (characters).
NAME_FLOOR = 0.6


def similarity(a: str, b: str) -> float:
    """SequenceMatcher's ratio of the tokens of *a* and *b*, case-folded (1.0 for two empty texts).

    A token is a word (a run of word characters) or one other non-blank character. Tokens, not
    characters, keep long excerpts fast (the matcher's time grows with the product of the lengths).
    """
    a, b = a.casefold(), b.casefold()
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, _TOKENS.findall(a), _TOKENS.findall(b)).ratio()


def line_similarity(a: str, b: str) -> float:
    """SequenceMatcher's ratio of two lines' characters, case-folded.

    One line is short, so characters are cheap, and they weigh a changed word by its length: a case
    ``"chrome":`` is closer to ``"chrome" | "edge":`` than to ``"firefox":``, which tokens would not
    say (one token of five differs). ``_flag_needs_value`` and ``FLAG_NEEDS_VALUE`` compare nearly
    equal.
    """
    return difflib.SequenceMatcher(None, a.casefold(), b.casefold(), autojunk=False).ratio()


@functools.lru_cache(maxsize=8192)
def name_similarity(a: str, b: str) -> float:
    """SequenceMatcher's ratio of two names' characters, case-folded (for ties and file names).

    Kept: a missing name is compared with the same candidates' names by several rules.
    """
    return difflib.SequenceMatcher(None, a.casefold(), b.casefold()).ratio()


_TOKENS = re.compile(r"\w+|[^\w\s]")
_DIGITS = re.compile(r"\d+")


def versions(a: str, b: str) -> bool:
    """Whether names *a* and *b*, both numbered, differ only in their numbers: two versions, not one renamed.

    ``is_postgresql_14`` removed when ``is_postgresql_17`` was added is support dropped and support
    added. A number added to a name (``beta`` → ``beta2``) is a successor, where the code went.
    """
    return (
        a != b
        and bool(_DIGITS.search(a))
        and bool(_DIGITS.search(b))
        and _DIGITS.sub("", a) == _DIGITS.sub("", b)
    )


def bound(a: str, b: str) -> float:
    """An upper bound of :func:`similarity` from the lengths alone (``2·min/sum``)."""
    total = len(a) + len(b)
    return 1.0 if not total else 2 * min(len(a), len(b)) / total


class Likeness:
    """:func:`similarity` of texts compared many times, with what each costs to prepare kept: the same answers.

    A text's tokens are kept, and for a second text the matcher that has indexed them (difflib's
    ``set_seq2``, the costly half): one missing definition is scored against tens of candidates, and
    a candidate against many missing ones. At most :data:`KEPT` of each are kept, the least recent
    dropped.
    """

    KEPT = 2048

    def __init__(self) -> None:
        self._tokens: OrderedDict[str, tuple[str, list[str]]] = OrderedDict()
        self._matchers: OrderedDict[str, difflib.SequenceMatcher[str]] = OrderedDict()
        self._counts: OrderedDict[str, Counter[str]] = OrderedDict()

    def _prepared(self, text: str) -> tuple[str, list[str]]:
        """(case-folded text, its tokens)."""
        got = self._tokens.get(text)
        if got is None:
            folded = text.casefold()
            got = self._tokens[text] = (folded, _TOKENS.findall(folded))
            if len(self._tokens) > self.KEPT:
                self._tokens.popitem(last=False)
        else:
            self._tokens.move_to_end(text)
        return got

    def known(self, text: str, tokens: list[str]) -> None:
        """Take *tokens* as the case-folded tokens of *text*, made by a caller that knows them without a scan."""
        if text not in self._tokens:
            self._tokens[text] = (text.casefold(), tokens)
            if len(self._tokens) > self.KEPT:
                self._tokens.popitem(last=False)

    def similarity(self, a: str, b: str) -> float:
        """:func:`similarity` of *a* and *b*."""
        (folded_a, tokens_a), (folded_b, tokens_b) = self._prepared(a), self._prepared(b)
        if folded_a == folded_b:
            return 1.0
        matcher = self._matchers.get(b)
        if matcher is None:
            matcher = self._matchers[b] = difflib.SequenceMatcher(None, (), tokens_b)
            if len(self._matchers) > self.KEPT:
                self._matchers.popitem(last=False)
        else:
            self._matchers.move_to_end(b)
        # the second sequence's index is kept: the ratio is SequenceMatcher(a, b)'s
        matcher.set_seq1(tokens_a)
        return matcher.ratio()

    def upper(self, a: str, b: str) -> float:
        """An upper bound of :meth:`similarity` from the numbers of tokens alone (``2·min/sum``): never below it."""
        count_a, count_b = len(self._prepared(a)[1]), len(self._prepared(b)[1])
        total = count_a + count_b
        return 1.0 if not total else 2.0 * min(count_a, count_b) / total

    def bounds(self, a: str, b: str) -> Iterator[float]:
        """:meth:`upper`, then :meth:`shared`: each made only when the one before did not rule the pair out."""
        yield self.upper(a, b)
        yield self.shared(a, b)

    def shared(self, a: str, b: str) -> float:
        """An upper bound of :meth:`similarity` from the tokens the two texts share, counted with repeats.

        difflib's ``quick_ratio``: every match pairs a token of *a* with an equal one of *b*, so the
        matches are at most the shared tokens, and this is never below the score (and at most
        :meth:`upper`).
        """
        counts_a, counts_b = self._counted(a), self._counted(b)
        total = counts_a.total() + counts_b.total()
        if not total:
            return 1.0
        if len(counts_a) > len(counts_b):
            counts_a, counts_b = counts_b, counts_a
        both = sum(
            min(count, counts_b[token]) for token, count in counts_a.items() if token in counts_b
        )
        return 2.0 * both / total

    def _counted(self, text: str) -> Counter[str]:
        """How many times each token occurs in *text*."""
        got = self._counts.get(text)
        if got is None:
            got = self._counts[text] = Counter(self._prepared(text)[1])
            if len(self._counts) > self.KEPT:
                self._counts.popitem(last=False)
        else:
            self._counts.move_to_end(text)
        return got


class LineSuggester:
    """Suggestions among the lines of the new tree: a match text's new line, a file's new path.

    *old* and *new* are resolvers (:class:`~source_anchors.resolve.resolver.Resolver`) of the lock's
    commit and of the pinned one; *stored* gives the bytes of a blob kept in the cache (files
    outside the packages).
    """

    def __init__(
        self, old: Resolver, new: Resolver, *, stored: Callable[[str], bytes | None] | None = None
    ) -> None:
        self.old = old
        self.new = new
        self.stored = stored
        #: :func:`similarity` with each text's tokens and matcher kept (scores of many pairs, fast).
        self.likeness = Likeness()

    def _file(self, target: Target, record: LockRecord) -> Suggestion | None:
        """A file target: the file with the same blob elsewhere (a rename), then its match levels there."""
        try:
            self.new.resolve(target.path)
        except ResolveError:
            pass
        else:
            return (
                self._line(target, target.path, record, base=1.0, reason="similar line")
                if target.match
                else None
            )
        listing = self.new.tree.listing or self.new.tree.blobs
        moved = sorted(path for path, blob in listing.items() if blob == record.blob)
        if not moved:
            return None
        path = "/" + min(moved, key=lambda p: (-name_similarity(p, target.file), p))
        if target.match is None:
            return Suggestion(path, 1.0, "same file", self.where(path))
        return self._line(target, path, record, base=1.0, reason="same file")

    # -- match texts -------------------------------------------------------------

    def _line(
        self, target: Target, symbol: str, record: LockRecord, *, base: float, reason: str
    ) -> Suggestion | None:
        """The line of *symbol*'s new range most like the locked match line, with a match text unique there."""
        # scoped matches: the outer levels are kept, the last one re-matched
        *outer, match = target.matches
        try:
            old_file = self._old_lines(record)
            location = self.new.resolve(symbol, tuple(outer) or None)
        except (SourceAnchorsError, UnicodeDecodeError):
            return None
        at = next(
            (n for n in range(record.start, record.end + 1) if match in old_file[n - 1]), None
        )
        if at is None:
            return None
        scope = "::".join([symbol, *outer])
        lines = self.new.file_lines(location.path)
        span = range(location.start, min(location.end, len(lines)) + 1)
        # the text is still there (several times, or moved)
        if any(match in lines[n - 1] for n in span):
            candidate = f"{scope}::{match}"
            if self._resolves(candidate):
                return Suggestion(candidate, round(base, 3), reason, self.where(candidate))
        old, old_header = old_file[at - 1].strip(), _header(old_file, at)
        # Only a line that starts the same kind of statement (or a close one that gives a value,
        # :func:`_fits`), inside the same clause when the new range still has that clause's header
        # once (a branch rewritten is not its sibling branch).
        kind, inside = _kind(old), _clause(lines, span, old_header)
        # The most similar lines first; of equal ones, the one under the same clause header as
        # before.
        scored = sorted(
            (
                (score, _header(lines, n) == old_header, -n)
                for n in inside
                if lines[n - 1].strip()
                and _fits(
                    kind,
                    _kind(lines[n - 1].strip()),
                    score := line_similarity(old, lines[n - 1].strip()),
                )
            ),
            reverse=True,
        )
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
            if self.lands_on(candidate, number):
                return Suggestion(candidate, round(min(base, score), 3), why, self.where(candidate))
        return None

    def lands_on(self, key: str, number: int) -> bool:
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

    def where(self, key: str) -> str:
        """``path:Lstart–Lend`` of *key* (``dotted.path[::match]``, resolving) in the new tree."""
        path, _, match = key.partition("::")
        location = self.new.resolve(path, match or None)
        return location.describe()

    # -- the new tree's definitions ------------------------------------------------


def _match_texts(old_line: str, match: str, new_line: str) -> Iterator[str]:
    """Match texts for *new_line*: the part that corresponds to *match* in *old_line*, then the whole line."""
    at = old_line.find(match)
    if at >= 0 and match != old_line:
        start, end = at, at + len(match)
        mapped_start = mapped_end = None
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
            None, old_line, new_line, autojunk=False
        ).get_opcodes():
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


#: Words that start a statement of their own kind (``elif`` is an ``if``; ``async`` is read past).
_KEYWORDS = {
    "if": "if",
    "elif": "if",
    "else": "else",
    "for": "for",
    "while": "while",
    "with": "with",
    "try": "try",
    "except": "except",
    "finally": "finally",
    "return": "return",
    "raise": "raise",
    "def": "def",
    "class": "class",
    "import": "import",
    "from": "import",
    "assert": "assert",
    "del": "del",
    "pass": "pass",
    "break": "break",
    "continue": "continue",
    "yield": "yield",
    "global": "global",
    "nonlocal": "nonlocal",
    "match": "match",
    "case": "case",
}
_ASSIGNS = re.compile(r"^[\w.\[\]'\", *]+?\s*(?::[^=]+)?(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)")


def _kind(line: str) -> str:
    """The kind of statement *line* starts, read from its text: a keyword's, ``assign`` or ``expr``.

    A line inside a longer statement (an argument, a dict entry) reads as an assignment or an
    expression too, and is compared with lines of its own kind: a call's ``model=…`` argument with
    another keyword argument, never with an ``if``.
    """
    words = line.split(None, 2)
    if words and words[0] == "async" and len(words) > 1:
        words = words[1:]
    word = re.match(r"\w+", words[0]) if words else None
    first = word.group() if word else ""
    if (
        first in _KEYWORDS
        and (len(words) == 1 or not words[1].startswith(("=", ".")))
        and not (first in ("match", "case") and not line.rstrip().endswith(":"))
    ):
        return _KEYWORDS[first]
    return "assign" if _ASSIGNS.match(line) else "expr"


#: Statements that give or keep a value may become one another (``rows = run(q)`` then ``return
#: rows`` rewritten as ``return run(q)``), when the lines stay this close; other kinds never change.
_VALUES = frozenset({"assign", "return", "expr", "yield"})
CROSS_KIND = 0.75


def _fits(old: str, new: str, score: float) -> bool:
    """Whether a line of kind *new* may answer for one of kind *old* at line similarity *score*."""
    return old == new or (old in _VALUES and new in _VALUES and score >= CROSS_KIND)


def _clause(lines: list[str], span: range, header: str | None) -> range:
    """The lines of *span* inside the clause headed by *header*, when *span* has that header on one line only."""
    if header is None:
        return span
    found = [n for n in span if lines[n - 1].strip() == header]
    if len(found) != 1:
        return span
    start = found[0]
    indent = len(lines[start - 1]) - len(lines[start - 1].lstrip())
    end = start
    for n in range(start + 1, span.stop):
        text = lines[n - 1]
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        end = n
    return range(start + 1, end + 1)


def _header(lines: list[str], number: int) -> str | None:
    """The text of the nearest line above *number* indented less (its clause header), or None."""
    text = lines[number - 1]
    indent = len(text) - len(text.lstrip())
    for above in range(number - 1, 0, -1):
        line = lines[above - 1]
        if (
            line.strip()
            and not line.lstrip().startswith("#")
            and len(line) - len(line.lstrip()) < indent
        ):
            return line.strip()
    return None
