"""The definitions of a pinned tree, indexed for the suggestions of :mod:`.suggest` (pure).

Every class, function and attribute that the modules of the pinned packages define, with its
lines normalised for comparison (indentation stripped), indexed by kind and sha256 of the lines,
by module, and by the identifiers it uses (for a candidate search that does not score every one).
Given the blobs of the lock's commit, only the definitions of files new or changed since then are
indexed by identifiers: a file with the same blob defined the same things before the bump, so none
of its definitions is where a missing one went (:func:`fresh`), and the rules that look for what was
there before (a copy kept, the votes of members moved) find them by name and by lines.
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import heapq
import math
import re
from collections import defaultdict
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import add

from ..model.errors import SourceAnchorsError
from ..reading.files import collector_paused
from ..resolve.refs import Ref
from ..resolve.resolver import Resolver

#: How many definitions (of the module, then of the packages) are scored for one missing symbol.
CANDIDATES = 25
#: Kinds of definition a missing symbol may be matched with.
KINDS = ("class", "function", "attribute")
_WORDS = re.compile(r"[^\W\d]\w*")
#: Allowed definitions fewer than the holders of a word by this factor are looked up in them (:meth:`Catalog.nearest`).
_FEW = 8
_WORDS_OR_NEWLINE = re.compile(r"[^\W\d]\w*|\n")


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


def sha_of(lines: list[str], start: int, end: int) -> str:
    """sha256 of lines *start*..*end* joined with newlines (as the lock records them)."""
    return hashlib.sha256("\n".join(lines[start - 1:end]).encode("utf-8")).hexdigest()


class Catalog:
    """The new tree's definitions, indexed by kind and lines, by module, and by the identifiers they use."""

    def __init__(self, resolver: Resolver, before: Mapping[str, str] | None = None) -> None:
        # Tens of thousands of objects that hold no cycles: collections while they are made would only walk
        # them (and a build's heap) again and again; the first after the block walks them once.
        with collector_paused():
            self._index(resolver, before or {})

    def _index(self, resolver: Resolver, before: Mapping[str, str]) -> None:
        """Index *resolver*'s definitions, those of files changed since *before* by their words too.

        *before* maps the lock's commit's files to their blob ids: the definitions of a file with the
        same blob now were there before, so they are never a candidate of :meth:`nearest`.
        """
        self.defs = list(definitions(resolver))
        #: Each definition's lines as similarities compare them (:func:`normal`), made when first asked for.
        self.texts = _Texts(resolver, self.defs)
        self.by_sha: dict[tuple[str, str], list[Definition]] = {}
        self.by_module: dict[str, tuple[int, ...]] = {}
        self.words: dict[str, tuple[int, ...]] = {}
        #: The definitions of each name (the last part of the dotted path), at any level.
        self.by_name: dict[str, tuple[int, ...]] = {}
        self._of_kind: dict[tuple[str, str], tuple[int, ...]] = {}
        self._by_file: dict[str, frozenset[int]] = {}
        self._classes = {(d.module, d.qual): d for d in self.defs if d.kind == "class"}
        self._at = {(d.file, d.start): d for d in reversed(self.defs)}
        #: The definitions of module bodies (not of a class).
        self.top_level = frozenset(n for n, d in enumerate(self.defs) if "." not in d.qual)
        #: Every definition (of module bodies and of classes).
        self.everything = frozenset(range(len(self.defs)))
        by_module: dict[str, list[int]] = defaultdict(list)
        by_name: dict[str, list[int]] = defaultdict(list)
        words: dict[str, list[int]] = defaultdict(list)
        by_sha = self.by_sha
        # Each file's lines and identifiers, read once: a file's definitions come in turn (the same if not).
        file, lines, known, starts, fresh = "", list[str](), list[str](), [0], True
        blobs = resolver.tree.blobs
        #: How many definitions :meth:`nearest` weighs words among (those of files new or changed since then).
        self.worded = 0
        for number, found in enumerate(self.defs):
            if found.file != file:
                file = found.file
                lines = resolver.file_lines(file)
                fresh = before.get(file) != blobs[file]
                known, starts = _words_of(lines) if fresh else ([], [0])
            by_sha.setdefault((found.kind, sha_of(lines, found.start, found.end)), []).append(found)
            by_module[found.module].append(number)
            by_name[found.qual.rpartition(".")[2]].append(number)
            if not fresh:
                continue
            self.worded += 1
            # The identifiers of its normal() text: no identifier spans lines or holds blanks.
            used = set(known[starts[found.start - 1]:starts[found.end] if found.end < len(starts) else None])
            used.discard("\n")
            for word in used:
                words[word].append(number)
        # Tuples of numbers: the collector stops tracking them once it has seen them (lists it walks at each
        # full collection, tens of thousands of them).
        self.by_module = {key: tuple(numbers) for key, numbers in by_module.items()}
        self.by_name = {key: tuple(numbers) for key, numbers in by_name.items()}
        self.words = {key: tuple(numbers) for key, numbers in words.items()}

    def at(self, file: str, start: int) -> Definition | None:
        """The definition whose lines start at *start* in *file*, if any."""
        return self._at.get((file, start))

    def in_file(self, file: str) -> frozenset[int]:
        """The definitions of *file*."""
        if not self._by_file:
            by_file: dict[str, list[int]] = {}
            for number, found in enumerate(self.defs):
                by_file.setdefault(found.file, []).append(number)
            self._by_file = {path: frozenset(numbers) for path, numbers in by_file.items()}
        return self._by_file.get(file, frozenset())

    def members(self, cls: Definition) -> list[int]:
        """The definitions a class statement binds itself (one level down)."""
        prefix = cls.qual + "."
        return [n for n in self.by_module.get(cls.module, ()) if self.defs[n].qual.startswith(prefix)
                and "." not in self.defs[n].qual[len(prefix):]]

    def owner(self, found: Definition) -> Definition | None:
        """The class that defines *found* directly (None in a module body)."""
        qual = found.qual.rpartition(".")[0]
        return self._classes.get((found.module, qual)) if qual else None

    def nearest(self, text: str, kind: str, module: str | None, among: Collection[int]) -> list[int]:
        """The :data:`CANDIDATES` definitions of *kind* (in *module*, or anywhere) most like *text*.

        Likeness here is the identifiers shared with *text*, each weighted by its rarity (``log(N/df)``) among
        the definitions of files new or changed since the lock's commit (all of them without that commit).
        """
        allowed = among if module is None else {n for n in self.by_module.get(module, ()) if n in among}
        # The same sums in the same order whichever way the holders are found: each word's holders are in
        # ascending numbers, and so is a few allowed definitions' walk, looked up in them by bisection.
        few = sorted(allowed) if len(allowed) < len(self.defs) // _FEW else None
        scores: dict[int, float] = {}
        total = self.worded or 1
        for word in set(_WORDS.findall(text.casefold())):
            holders = self.words.get(word, ())
            if not holders:
                continue
            weight = math.log(total / len(holders)) + 1e-3  # the rarity among worded definitions of every kind
            kept = self._holders(word, kind, holders)
            scored: Sequence[int] = kept
            if few is not None and len(few) * _FEW < len(kept):
                scored = [number for number in few if (at := bisect.bisect_left(kept, number)) < len(kept)
                          and kept[at] == number]
            elif allowed is not self.everything:
                scored = [number for number in kept if number in allowed]
            # Each score plus the weight, for all of them at once: the same sums in the same order.
            scores.update(zip(scored, map(add, map(scores.get, scored, repeat(0.0)), repeat(weight)), strict=True))
        return heapq.nlargest(CANDIDATES, scores, key=scores.__getitem__)

    def _holders(self, word: str, kind: str, holders: tuple[int, ...]) -> tuple[int, ...]:
        """The definitions of *kind* among *holders*, those that use *word* (kept: a word is asked for again)."""
        kept = self._of_kind.get((word, kind))
        if kept is None:
            kept = self._of_kind[word, kind] = tuple(n for n in holders if self.defs[n].kind == kind)
        return kept


def _words_of(lines: list[str]) -> tuple[list[str], list[int]]:
    """The identifiers of *lines*, case-folded, with a newline after each line; where each line's begin."""
    words = _WORDS_OR_NEWLINE.findall("\n".join(lines).casefold())
    starts, find, at = [0], words.index, -1
    with contextlib.suppress(ValueError):  # no newline after the last line
        while True:
            at = find("\n", at + 1)
            starts.append(at + 1)
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
            text = self._made[number] = normal(self._resolver.file_lines(found.file)[found.start - 1:found.end])
        return text

    def __len__(self) -> int:
        return len(self._defs)


def definitions(resolver: Resolver) -> Iterator[Definition]:
    """Every class, function and attribute defined in the modules of *resolver*'s pinned packages."""
    files = resolver.files
    for name, folder in sorted(files.packages.items()):
        for path in sorted(resolver.tree.blobs):
            module = module_of(path, name, folder)
            if module is None:
                continue
            try:
                index = files.index(path, module)
            except SourceAnchorsError:
                continue
            for qual, binds in index.bindings.items():
                for bind in binds:
                    if bind.kind in KINDS:
                        yield Definition(f"{module}.{qual}", module, qual, path, bind.start, bind.end, bind.kind)


def module_of(path: str, name: str, folder: str) -> str | None:
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
        return any(isinstance(entry, Ref) and entry.key == missing.key for entry in old.walker.mro(was)[1:])
    return False
