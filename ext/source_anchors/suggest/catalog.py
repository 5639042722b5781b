"""The definitions of a pinned tree, indexed for the suggestions of :mod:`.suggest` (pure).

Every class, function and attribute that the modules of the pinned packages define, with its
lines normalised for comparison (indentation stripped), found by kind and lines, by name, by
place and by module, and by the identifiers it uses (for a candidate search that does not score
every one).

Given the blobs of the lock's commit, only the files new or changed since then are read at once,
and only their definitions are indexed by identifiers: a file with the same blob defined the same
things before the bump, so none of its definitions is where a missing one went (:func:`fresh`). The
rules that look for what was there before (a copy kept, the votes of members moved, a class of the
same place) still find them: a lookup by name reads the unchanged files that name it as a whole
word (or that are not ASCII, where another spelling may be the name), a lookup by lines those whose
text holds the lines, a lookup by place its file. Each answer is the one every file read at once
would give, in the same order (the files' order, then the definitions' in each file).
"""

from __future__ import annotations

import math
import re
import string
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import compress, repeat
from operator import add

from ..model.errors import SourceAnchorsError
from ..reading.collector import collector_paused
from ..reading.python import Ref, candidates, module_of
from ..resolve.resolver import Resolver

#: How many definitions (of the module, then of the packages) are scored for one missing symbol.
CANDIDATES = 25
_WORDS = re.compile(r"[^\W\d]\w*")
#: How many texts' rankings :meth:`Catalog.nearest` keeps (a missing definition's text is asked of
#: several times).
_TEXTS_KEPT = 64


@dataclass(frozen=True)
class Definition:
    """One definition in a tree: its dotted path, file, lines and kind."""

    path: str
    module: str
    qual: str
    file: str
    start: int
    end: int
    kind: str


def normal(lines: list[str]) -> str:
    """An excerpt without indentation or trailing blanks, the form similarities compare."""
    return "\n".join(line.strip() for line in lines)


def lines_of(lines: list[str], start: int, end: int) -> str:
    """Lines *start*..*end* joined with newlines, as they are (what the lock's sha256 is of)."""
    return "\n".join(lines[start - 1 : end])


class Catalog:
    """The new tree's definitions: by kind and lines, by name, place and module, and by the identifiers they use."""

    def __init__(self, resolver: Resolver, before: Mapping[str, str] | None = None) -> None:
        # Tens of thousands of objects that hold no cycles: collections while they are made would
        # only walk them (and a build's heap) again and again; the first after the block walks them
        # once.
        with collector_paused():
            self._index(resolver, before or {})

    def _index(self, resolver: Resolver, before: Mapping[str, str]) -> None:
        """Read the files changed since *before*, indexing their definitions' words too; keep the others for later.

        *before* maps the lock's commit's files to their blob ids: the definitions of a file with
        the same blob now were there before, so they are never a candidate of :meth:`nearest`.
        """
        self._resolver = resolver
        self.defs: list[Definition] = []
        #: Each definition's kind, by its number (what :meth:`_holders` filters by, read in C).
        self._kinds: list[str] = []
        #: Each definition's lines as similarities compare them (:func:`normal`), made when first
        #: asked for.
        self.texts = _Texts(resolver, self.defs)
        #: Definitions by kind, first line and number of lines more: where :meth:`same_lines` looks.
        self._same: dict[tuple[str, str, int], list[int]] = {}
        self._by_module: dict[str, list[int]] = defaultdict(list)
        self._by_name: dict[str, list[int]] = defaultdict(list)
        self._by_file: dict[str, list[int]] = defaultdict(list)
        self._classes: dict[tuple[str, str], Definition] = {}
        self._at: dict[tuple[str, int], Definition] = {}
        self._of_kind: dict[tuple[str, str], tuple[int, ...]] = {}
        self._rankings: dict[tuple[str, str], list[int]] = {}
        #: Each file's place in the order of :func:`modules` (the order of every answer).
        self._rank: dict[str, int] = {}
        #: The files not read yet (the same blob as at the lock's commit), with their modules.
        self._later: dict[str, list[str]] = {}
        #: The words of each file not read yet (ASCII ones), and the files not ASCII, made when
        #: first asked for.
        self._words_later: dict[str, frozenset[str]] | None = None
        self._not_ascii: list[str] = []
        #: The files not read yet by the lines they hold, made when first asked for.
        self._lines_later: dict[str, list[str]] | None = None
        words: dict[str, list[int]] = defaultdict(list)
        blobs = resolver.tree.blobs
        for path, module in modules(resolver):
            self._rank.setdefault(path, len(self._rank))
            if before.get(path) == blobs[path]:
                self._later.setdefault(path, []).append(module)
            else:
                self._read(path, module, words)
        #: How many definitions :meth:`nearest` weighs words among (those of files new or changed
        #: since then).
        self.worded = len(self.defs)
        # Tuples of numbers: the collector stops tracking them once it has seen them (lists it walks
        # at each full collection, tens of thousands of them).
        self.words = {key: tuple(numbers) for key, numbers in words.items()}
        #: The definitions of module bodies (not of a class) that :meth:`nearest` may give.
        self.top_level = frozenset(n for n, d in enumerate(self.defs) if "." not in d.qual)
        #: Every definition that :meth:`nearest` may give (of module bodies and of classes).
        self.everything = frozenset(range(len(self.defs)))

    def _read(self, path: str, module: str, words: dict[str, list[int]] | None = None) -> None:
        """Index the definitions of *path* (the file of *module*), by their words too when given *words*."""
        try:
            index = self._resolver.files.index(path, module)
        except SourceAnchorsError:
            return
        lines = self._resolver.file_lines(path)
        known, starts = _words_of(lines) if words is not None else ([], [0])
        for qual, kind, start, end in candidates(index):
            number, found = (
                len(self.defs),
                Definition(f"{module}.{qual}", module, qual, path, start, end, kind),
            )
            self.defs.append(found)
            self._kinds.append(kind)
            self._same.setdefault(
                (found.kind, lines[found.start - 1], found.end - found.start), []
            ).append(number)
            self._by_module[module].append(number)
            self._by_name[qual.rpartition(".")[2]].append(number)
            self._by_file[path].append(number)
            self._at.setdefault((path, found.start), found)
            if found.kind == "class":
                self._classes[module, qual] = found
            if words is None:
                continue
            # The identifiers of its normal() text: no identifier spans lines or holds blanks.
            used = set(known[starts[found.start - 1] : starts[found.end]])
            for word in used:
                words[word].append(number)

    def _read_later(self, paths: list[str]) -> None:
        """Read the files of *paths* not read yet."""
        for path in paths:
            if self._words_later is not None:
                self._words_later.pop(path, None)
            for module in self._later.pop(path, ()):
                self._read(path, module)

    def _ordered(self, numbers: Collection[int]) -> list[int]:
        """*numbers* in the order of the definitions had every file been read at once."""
        defs, rank = self.defs, self._rank
        return sorted(numbers, key=lambda number: (rank[defs[number].file], number))

    def named(self, name: str) -> list[int]:
        """The definitions of *name* (the last part of their dotted paths), at any level."""
        if self._later:
            if self._words_later is None:
                self._words_later = _words_by_file(self._resolver, self._later, self._not_ascii)
            self._read_later(
                [path for path, words in self._words_later.items() if name in words]
                + [path for path in self._not_ascii if path in self._later]
            )
        return self._ordered(self._by_name.get(name, ()))

    def same_lines(self, kind: str, text: str) -> list[Definition]:
        """The definitions of *kind* whose lines, as they are, are *text* (:func:`lines_of`)."""
        first = text.partition("\n")[0]  # a file whose lines hold text has this line
        if self._later:
            if self._lines_later is None:
                self._lines_later = _files_by_line(self._resolver, self._later)
            self._read_later(
                [
                    path
                    for path in self._lines_later.get(first, ())
                    if path in self._later and text in "\n".join(self._resolver.file_lines(path))
                ]
            )
        defs, file_lines = self.defs, self._resolver.file_lines
        # Those of the same first line and length, then their lines whole (joined only for these
        # few).
        return [
            defs[number]
            for number in self._ordered(self._same.get((kind, first, text.count("\n")), ()))
            if lines_of(file_lines(defs[number].file), defs[number].start, defs[number].end) == text
        ]

    def at(self, file: str, start: int) -> Definition | None:
        """The definition whose lines start at *start* in *file*, if any."""
        self._read_later([file])
        return self._at.get((file, start))

    def in_file(self, file: str) -> frozenset[int]:
        """The definitions of *file*."""
        self._read_later([file])
        return frozenset(self._by_file.get(file, ()))

    def members(self, cls: Definition) -> list[int]:
        """The definitions a class statement binds itself (one level down)."""
        prefix = cls.qual + "."
        return [
            n
            for n in self._ordered(self._by_module.get(cls.module, ()))
            if self.defs[n].qual.startswith(prefix) and "." not in self.defs[n].qual[len(prefix) :]
        ]

    def owner(self, found: Definition) -> Definition | None:
        """The class that defines *found* directly (None in a module body)."""
        qual = found.qual.rpartition(".")[0]
        return self._classes.get((found.module, qual)) if qual else None

    def nearest(
        self, text: str, kind: str, module: str | None, among: Collection[int]
    ) -> list[int]:
        """The :data:`CANDIDATES` definitions of *kind* (in *module*, or anywhere) among *among* most like *text*.

        Likeness here is the identifiers shared with *text*, each weighted by its rarity
        (``log(N/df)``) among the definitions of files new or changed since the lock's commit (all
        of them without that commit). Ties go to the definition scored first (:meth:`_ranked`).
        """
        allowed = (
            among if module is None else {n for n in self._by_module.get(module, ()) if n in among}
        )
        best: list[int] = []
        # the best allowed, in order: as heapq.nlargest of them
        for number in self._ranked(text, kind):
            if number in allowed:
                best.append(number)
                if len(best) == CANDIDATES:
                    break
        return best

    def _ranked(self, text: str, kind: str) -> list[int]:
        """Each definition of *kind* that uses a word of *text*, by the weights of those words summed, highest first.

        Ties in the order first scored: the words in one order, each word's holders ascending. A
        text is asked of several times (in its module, then everywhere; by history; by the rules of
        :mod:`.elsewhere`), with other definitions allowed each time: a definition's score does not
        depend on them, so the order is kept.
        """
        found = self._rankings.pop((text, kind), None)
        if found is None:
            scores: dict[int, float] = {}
            total = self.worded or 1
            for word in set(_WORDS.findall(text.casefold())):
                holders = self.words.get(word, ())
                if not holders:
                    continue
                # the rarity among worded definitions of every kind
                weight = math.log(total / len(holders)) + 1e-3
                kept = self._holders(word, kind, holders)
                # Each score plus the weight, for all of them at once: the same sums in the same
                # order.
                scores.update(
                    zip(
                        kept,
                        map(add, map(scores.get, kept, repeat(0.0)), repeat(weight)),
                        strict=True,
                    )
                )
            # stable: ties in the order scored
            found = sorted(scores, key=scores.__getitem__, reverse=True)
            if len(self._rankings) >= _TEXTS_KEPT:
                del self._rankings[next(iter(self._rankings))]  # the least recently asked
        self._rankings[text, kind] = found
        return found

    def _holders(self, word: str, kind: str, holders: tuple[int, ...]) -> tuple[int, ...]:
        """The definitions of *kind* among *holders*, those that use *word* (kept: a word is asked for again)."""
        kept = self._of_kind.get((word, kind))
        if kept is None:
            kinds = map(self._kinds.__getitem__, holders)
            kept = self._of_kind[word, kind] = tuple(compress(holders, map(kind.__eq__, kinds)))
        return kept


def _words_by_file(
    resolver: Resolver, paths: Iterable[str], not_ascii: list[str]
) -> dict[str, frozenset[str]]:
    """The words of each file of *paths* that is ASCII; those that are not go to *not_ascii*.

    Python reads names NFKC-normalised: in a text that is not ASCII another spelling may be any
    name. A file that cannot be read is in neither. A set per file, not the files of each word:
    :meth:`Catalog.named` asks of a few hundred names, and a list for each of the tens of thousands
    of words costs more to make.
    """
    found: dict[str, frozenset[str]] = {}
    for path in paths:
        try:
            lines = resolver.file_lines(path)
        except SourceAnchorsError:
            continue
        if all(map(str.isascii, lines)):
            found[path] = frozenset(_ascii_words(lines))
        else:
            not_ascii.append(path)
    return found


def _files_by_line(resolver: Resolver, paths: Iterable[str]) -> dict[str, list[str]]:
    """The files of *paths* by each of their lines (one that cannot be read is in none)."""
    index: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        try:
            lines = resolver.file_lines(path)
        except SourceAnchorsError:
            continue
        for line in set(lines):
            index[line].append(path)
    return index


#: The ASCII characters not in a word (a letter, digit or underscore).
_NOT_WORD = "".join(
    chr(code) for code in range(128) if not (chr(code).isalnum() or chr(code) == "_")
)
#: Each of them a blank but a line's end (one character for one: :meth:`str.translate`'s quick way).
_BLANKS = str.maketrans(_NOT_WORD.replace("\n", ""), " " * (len(_NOT_WORD) - 1))


def _ascii_words(lines: list[str]) -> list[str]:
    r"""The words of ASCII *lines*: what ``(?<!\w)name(?!\w)`` finds of each name in them."""
    return "\n".join(lines).translate(_BLANKS).split()


def _words_of(lines: list[str]) -> tuple[list[str], list[int]]:
    r"""The identifiers of *lines* (``[^\W\d]\w*``), case-folded; where each line's begin among them, and the end.

    An ASCII text's words are its runs of letters, digits and underscores less their leading digits,
    found by :meth:`str.translate` and :meth:`str.split`: the pattern tries a match at each
    character, which over a bump's changed files cost four times as many instructions.
    """
    text = "\n".join(lines).casefold()
    words: list[str] = []
    starts = [0]
    # Unicode's letters and digits: the pattern's, line by line (no word spans lines)
    if not text.isascii():
        for line in text.split("\n"):
            words += _WORDS.findall(line)
            starts.append(len(words))
        return words, starts
    for line in text.translate(_BLANKS).split("\n"):
        found = line.split()
        # a run that begins with digits (they sort first): a number, or less them
        if found and min(found)[0] <= "9":
            found = [word for word in (run.lstrip(string.digits) for run in found) if word]
        words += found
        starts.append(len(words))
    return words, starts


class _Texts:
    """The normalised lines (:func:`normal`) of each definition by its number, made when first asked for."""

    def __init__(self, resolver: Resolver, defs: list[Definition]) -> None:
        self._resolver = resolver
        self._defs = defs
        self._made: dict[int, str] = {}

    def __getitem__(self, number: int) -> str:
        text = self._made.get(number)
        if text is None:
            found = self._defs[number]
            text = self._made[number] = normal(
                self._resolver.file_lines(found.file)[found.start - 1 : found.end]
            )
        return text

    def __len__(self) -> int:
        return len(self._defs)


def modules(resolver: Resolver) -> Iterator[tuple[str, str]]:
    """Each Python file of *resolver*'s pinned packages with its dotted module, packages and paths in order."""
    files = resolver.files
    for name, folder in sorted(files.packages.items()):
        for path in sorted(resolver.tree.blobs):
            module = module_of(path, name, folder)
            if module is not None:
                yield path, module


def fresh(old: Resolver, found: Definition, missing: Ref) -> bool:
    """Whether *found* is new since the lock's commit, or a class that inherited from *missing* there.

    A definition that was already there is not where a missing one went (``SHA1PasswordHasher``
    removed did not become ``MD5PasswordHasher``), unless the missing class merged into its own
    subclass (click's ``BaseCommand`` into ``Command``).
    """
    try:
        was = old.walker.object(found.path)
    except SourceAnchorsError:
        return True
    if was.bind is None or was.file != found.file:
        return True  # not defined there before (imported, or somewhere else)
    if was.is_class and missing.is_class:
        return any(
            isinstance(entry, Ref) and entry.key == missing.key for entry in old.walker.mro(was)[1:]
        )
    return False
