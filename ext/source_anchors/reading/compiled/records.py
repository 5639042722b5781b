"""The records of compiled bindings: what a binding form says, and what the index answers (pure).

Named tuples, not dataclasses: a frozen dataclass costs a first build about three million
instructions to make (its methods are compiled from source when the module is imported).
"""

from __future__ import annotations

from typing import NamedTuple


class Claim(NamedTuple):
    """What one binding form says: Python name *name* is the definition *symbol* (or the lines given).

    A reader of a binding style makes claims; the index finds each symbol's definition with the
    language core, in the claim's file first, then in the other compiled files that spell it.
    """

    #: The Python dotted name (``pkg.mod.Type.method``).
    name: str
    #: The file that holds the binding.
    path: str
    #: The form followed, for the link's rule: ``PyMethodDef``, ``cdef class``, ``pybind11 .def``,
    #: ``#[pyfunction]``.
    form: str
    #: The kind of the Python object: ``function``, ``class``, ``method``, ``property``,
    #: ``attribute``, ``module``.
    kind: str
    #: The definition to find, by its path of names (``("Type", "method")``); empty when
    #: :attr:`lines` are the link.
    symbol: tuple[str, ...] = ()
    #: The lines of the binding itself (a lambda's ``.def`` call, a ``PyMemberDef`` entry, a
    #: ``.pyx`` ``def``); for a Rust *symbol*, the line of its item in :attr:`path`, which the
    #: definition must hold.
    lines: tuple[int, int] = (0, 0)
    #: A definition tried before :attr:`symbol` (an Argument Clinic wrapper's ``_impl``).
    first: tuple[str, ...] = ()


class Binding(NamedTuple):
    """A Python name's compiled definition: its file and lines (1-based, inclusive)."""

    name: str
    path: str
    start: int
    end: int
    kind: str
    #: The binding form and the language rule that chose the definition, for the link's rule.
    form: str


class Undecided(NamedTuple):
    """A Python name (or a module's names) a compiled binding makes, but not in a form read statically."""

    name: str
    #: Why: ``added at run time by PyModule_AddObject at src/mod.c:120``.
    why: str
