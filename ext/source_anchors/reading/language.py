"""The interface every language implements, and the record of one definition (pure).

A language reads the files of its suffixes (:mod:`.registry` maps a path to its language): the
definitions of a file by their path of names (:meth:`Language.definitions`, :meth:`Language.find`),
which are also where a missing anchor's suggestions look; the statement a match text names
(:meth:`Language.statement`, :meth:`Language.statement_in`); the class of change between two texts
(:meth:`Language.change_class`, :meth:`Language.classify`). Python implements it in :mod:`.python`
(its own ``ast`` reader, beside the dotted paths of Python's import model); the tree-sitter
languages in :mod:`.languages`. A file no language reads is text: a match names its line, and a
change is ``formatting`` or ``code`` by its words (:func:`text_change`).

A definition is named by its path of names, outermost first: ``("Command", "AddCommand")`` for a Go
method by its receiver type, ``("HashTrieMap", "insert")`` for a method of a Rust inherent ``impl``,
``("ns", "Class", "method")`` in C++, ``("Outer", "Inner", "method")`` in Java and TypeScript. Its
lines run from its first attribute, decorator or annotation line to its last line; a doc comment
above it is not part of them (docs/languages.md, "The range").
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple, Protocol

from ..model.changeclass import ChangeClass
from ..model.errors import AmbiguousDefinitionError, ResolveError


class Files(Protocol):
    """A tree's files as a language reads them: bytes, and text lines (a resolver's ``files``)."""

    def data(self, path: str) -> bytes:
        """The bytes of *path*."""

    def lines(self, path: str) -> list[str]:
        """The text lines of *path*, decoded."""


def text_change(old: str, new: str) -> ChangeClass:
    """The class of change of a text no language reads: ``formatting`` when its words are the same, else ``code``."""
    return ChangeClass.formatting if old.split() == new.split() else ChangeClass.code


class Definition(NamedTuple):
    """One definition of a file: its path of names, its kind and its lines (1-based, inclusive).

    A named tuple, as the Python reader's records are: one is made for each anchor resolved, and a
    frozen dataclass costs twice as much to make (the bench's cold resolution, ``bench/languages.py``).
    """

    #: The names from the outermost scope in: ``("Outer", "Inner", "method")``.
    path: tuple[str, ...]
    #: ``function``, ``method``, ``class``, ``struct``, ``enum``, ``interface``, ``trait``,
    #: ``type``, …
    kind: str
    #: The first line: the first attribute, decorator, annotation or template line, else the first
    #: of the node.
    start: int
    #: The last line.
    end: int
    #: The line of the name itself.
    name_line: int
    #: The path that tells this definition from others of the same :attr:`path`, where the language
    #: has one (``("Display", "for", "Point", "fmt")`` for a Rust trait impl's method); else
    #: :attr:`path`.
    qualified: tuple[str, ...] = ()
    #: False for a declaration without a body: an overload signature, a prototype, a trait's
    #: required method.
    body: bool = True
    #: True inside a branch of a preprocessor conditional (``#if``, ``#ifdef``, ``#else``).
    conditional: bool = False
    #: Set by :meth:`Language.find` when a rule of the language chose this one among several: the
    #: rule's words; for a ``.h`` header read as C++, that rule's too (:mod:`.languages.header`).
    rule: str = ""
    #: Where the reader knows them, the bytes its lines are in the file: the offset of its first
    #: line's first byte and of its last line's end (before the newline); else ``()``. A resolver
    #: hashes them, rather than the decoded lines, where they are the same
    #: (:func:`~source_anchors.model.textlines.bytes_are_lines`).
    span: tuple[int, int] | tuple[()] = ()

    @property
    def dotted(self) -> str:
        """The path written with dots, as a target names it: ``Outer.Inner.method``."""
        return ".".join(self.path)

    def describe(self) -> str:
        """The definition as a message names it: ``Display.for.Point.fmt (method, lines 12-14)``."""
        return (
            f"{'.'.join(self.qualified or self.path)} ({self.kind}, lines {self.start}-{self.end})"
        )


class Language(ABC):
    """A language: its name, its suffixes, and what it reads in a file's bytes."""

    #: The language's name in messages: ``TypeScript``.
    name: ClassVar[str]
    #: The file suffixes it reads, with the dot: ``(".ts", ".mts", ".cts")``.
    suffixes: ClassVar[tuple[str, ...]]
    #: The words of the rules :meth:`choose` applies, for the manual and the messages.
    rules: ClassVar[tuple[str, ...]] = ()

    #: Languages whose files a definition moves between share a family (C, C++ and ``.h`` headers:
    #: ``C/C++``): a missing definition's suggestions look in the files of all of them. Empty: none.
    family: ClassVar[str] = ""

    #: Whether anchors are resolved and classed by this language's rules (Python). A language not
    #: wired in is read as text by the resolver and the drift stage: a match names its line
    #: (docs/languages.md).
    wired: ClassVar[bool] = False

    def installed(self) -> bool:
        """Whether what reads this language can be imported (a tree-sitter grammar wheel); True by default."""
        return True

    @abstractmethod
    def definitions(self, source: bytes) -> list[Definition]:
        """Every definition of *source*, in the order of their first lines."""

    @abstractmethod
    def statement(self, source: bytes, start: int, end: int, match: str) -> tuple[int, int]:
        """The statement or clause within lines *start* to *end* that holds the one line holding *match*.

        Raises :class:`~source_anchors.model.errors.ResolveError` when *match* is on no line of the
        range, or on several.
        """

    @abstractmethod
    def change_class(self, old: bytes, new: bytes) -> ChangeClass:
        """What changed from *old* to *new* by the grammar's tokens: ``formatting``, ``comments`` or ``code``."""

    def statement_in(
        self, files: Files, path: str, hit: int, column: int, match: str
    ) -> tuple[int, int] | None:
        """The statement holding line *hit* of the file *path* of *files*, where *match* starts at *column*.

        None when no statement holds the line (the resolver then takes the line alone). By default
        the language's :meth:`statement` over the file's bytes; Python reads the file's module index
        instead.
        """
        return self.statement(files.data(path), hit, hit, match)

    def classify(
        self, old: Sequence[str], new: Sequence[str], *, parts: tuple[Any, Any] | None = None
    ) -> ChangeClass:
        """The class of change from the *old* lines to the *new* ones (a ``changed`` anchor's).

        *parts* are what a language that keeps module indexes knows of each excerpt's statements
        (Python's :class:`~.python.changes.Parts`); by default they are not used, and
        :meth:`change_class` compares the texts.
        """
        return self.change_class("\n".join(old).encode("utf-8"), "\n".join(new).encode("utf-8"))

    def choose(self, candidates: Sequence[Definition]) -> tuple[Definition, str] | None:
        """The one of several same-named *candidates* a rule of this language picks, with the rule's words.

        The default rules, of every language: a definition with a body before declarations without
        one (overload signatures, prototypes); of several with the same lines, the first.
        """
        bodies = [candidate for candidate in candidates if candidate.body]
        if len(bodies) == 1:
            return bodies[0], "a definition with a body before its declarations"
        if len({(candidate.start, candidate.end) for candidate in candidates}) == 1:
            return candidates[0], "one definition under two names (a typedef of its struct)"
        return None

    def reading(self, source: bytes) -> Language:
        """The language that reads *source*, a whole file of this language's suffixes: itself by default.

        Where a suffix is two languages', the file's text decides: a ``.h`` header is read as C++
        when its text shows C++, else as C (:mod:`.languages.header`).
        """
        return self

    def named(self, source: bytes, dotted: str) -> list[Definition] | None:
        """The definitions of *source* whose path or qualified path is *dotted*, read for that name alone.

        None when the language reads a file's definitions only whole (the default): the caller
        then takes them from :meth:`definitions`. The tree-sitter languages read only the places
        where the name is written.
        """
        return None

    def find(
        self, source: bytes, dotted: str, found: Sequence[Definition] | None = None
    ) -> Definition:
        """The definition of *source* named *dotted* (``Outer.Inner.method``); *found*: its definitions, when known.

        Where several have that path, :meth:`choose` picks one and the result's
        :attr:`~Definition.rule` says by which rule; where no rule picks,
        :class:`~source_anchors.model.errors.AmbiguousDefinitionError` names the candidates and how
        to write each. No definition of that path: a
        :class:`~source_anchors.model.errors.ResolveError` with the closest paths.
        """
        wanted = tuple(dotted.split("."))
        found = self.definitions(source) if found is None else found
        return self.pick(
            dotted, [d for d in found if d.path == wanted or d.qualified == wanted], found
        )

    def pick(
        self, dotted: str, candidates: Sequence[Definition], found: Sequence[Definition] = ()
    ) -> Definition:
        """The one of *candidates*, the definitions of the path *dotted*, that :meth:`find` gives.

        One is given as it is (a resolver takes it so, without asking). With none, the error names
        the closest paths among *found* (the file's definitions).
        """
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            names = sorted(
                {d.dotted for d in found} | {".".join(d.qualified) for d in found if d.qualified}
            )
            closest = tuple(difflib.get_close_matches(dotted, names, n=3, cutoff=0.6))
            hint = f"; did you mean {' or '.join(closest)}?" if closest else ""
            raise ResolveError(f"no {self.name} definition {dotted}{hint}", closest=closest)
        chosen = self.choose(candidates)
        if chosen is not None:
            return chosen[0]._replace(rule=chosen[1])
        raise _ambiguous(self.name, dotted, candidates)


def _ambiguous(
    language: str, dotted: str, candidates: Sequence[Definition]
) -> AmbiguousDefinitionError:
    """The error for *candidates* no rule tells apart, naming each and how to anchor it."""
    described = tuple(candidate.describe() for candidate in candidates)
    qualified = {candidate.qualified for candidate in candidates if candidate.qualified}
    if len(qualified) == len(candidates):
        how = "name one by its longer path: " + ", ".join(
            ".".join(path) for path in sorted(qualified)
        )
    else:
        how = (
            "anchor one by its file and a match on its first line (/path/to/file::text of that line), "
            "which gives the whole definition"
        )
    return AmbiguousDefinitionError(
        f"{language} defines {dotted} {len(candidates)} times: {'; '.join(described)}; {how}",
        candidates=described,
    )
