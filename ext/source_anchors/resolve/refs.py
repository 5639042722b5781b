"""What the walk hands between its parts: a binding reached (Ref), a path that leads outside, the walker's face.

:class:`~.walk.Walker` walks dotted paths; :mod:`.members`, :mod:`.descriptors` and :mod:`.missing`
each decide one part of a step and call back into the walker through :class:`Walking`, the methods
they use, so that none of them imports :mod:`.walk` (which imports them).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from ..model.errors import ResolveError
from ..reading.files import SourceFiles
from ..reading.modindex import ModuleIndex
from ..reading.rules import Bind


class OutsideError(ResolveError):
    """A path leads out of the pinned packages (``target`` is where it leads)."""

    def __init__(self, message: str, *, target: str, closest: tuple[str, ...] = ()) -> None:
        super().__init__(message, closest=closest)
        self.target = target


class Ref(NamedTuple):
    """A module, or one binding in a module, with how it was chosen among others.

    A named tuple: the walk makes one at every step, and a tuple is the cheapest frozen record.
    """

    module: str
    file: str
    #: Dotted path inside the module ("" for the module itself).
    qual: str = ""
    bind: Bind | None = None
    #: The binding rules that chose *bind* among several (``+``-joined), and the others' spans.
    rule: str = ""
    others: tuple[tuple[int, int], ...] = ()
    caveat: str = ""

    @property
    def is_class(self) -> bool:
        """Whether this is a class statement."""
        return self.bind is not None and self.bind.kind == "class"

    @property
    def key(self) -> tuple[str, int]:
        """(file, first line): the same statement however it was reached."""
        return self.file, self.bind.start if self.bind else 0


#: An entry of a method resolution order: a class of the pinned packages, or a base not read statically.
Entry = Ref | str


class Walking(Protocol):
    """The walker as the parts of a step see it (:class:`~.walk.Walker` is the one implementation)."""

    files: SourceFiles
    _packages: dict[str, str]
    #: How many candidate paths are being probed (for closest names): their failures compute none.
    _probing: int

    def object(self, path: str, *, hops: int = 0) -> Ref:
        """The binding dotted *path* names."""

    def module(self, dotted: str, asked: str) -> Ref:
        """The module *dotted*, as asked for by *asked*."""

    def index(self, ref: Ref) -> ModuleIndex:
        """The index of *ref*'s module."""

    def mro(self, cls: Ref, hops: int = 0) -> tuple[Entry, ...]:
        """The C3 linearisation of the class *cls*."""

    def _walk(self, ref: Ref, parts: list[str], where: str, hops: int) -> Ref:
        """*parts* walked from *ref*."""

    def _chosen(self, container: Ref, qual: str, binds: list[Bind], hops: int) -> Ref:
        """The definition among *binds* of *qual*."""

    def _follow(self, container: Ref, qual: str, bind: Bind, hops: int) -> Ref:
        """What the import *bind* of *qual* imports."""
