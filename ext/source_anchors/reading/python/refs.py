"""What the walk hands between its parts: a binding reached (:class:`Ref`), a path that leads outside.

:class:`~.walker.Walker` makes them; :func:`join` and :func:`with_hidden` add the rules and caveats
of a step.
"""

from __future__ import annotations

from typing import NamedTuple

from ...model.errors import ResolveError
from .rules import Bind


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


#: An entry of a method resolution order: a class of the pinned packages, or a base not read
#: statically.
Entry = Ref | str


def join(first: str, second: str, sep: str = "+") -> str:
    """*first* and *second* joined by *sep* (rules by ``+``, caveats by ``; ``), or *second* alone."""
    return f"{first}{sep}{second}" if first else second


def with_hidden(found: Ref, hidden: list[str]) -> Ref:
    """*found*, its caveat naming the *hidden* bases (not read statically) that come before its class."""
    if not hidden:
        return found
    return found._replace(
        caveat=join(
            found.caveat,
            "inherited past bases not read statically, which "
            f"could define it first: {', '.join(hidden)}",
            "; ",
        )
    )
