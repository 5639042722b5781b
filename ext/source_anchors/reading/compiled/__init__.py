"""Compiled bindings: a Python dotted name followed into the C, C++, Cython or Rust that defines it (pure).

Takes in: a tree's paths and a way to read their bytes.
Gives out: :class:`.index.CompiledIndex`, which answers a documented name with a
:class:`.records.Binding` (a file and the definition's lines, found by the language core of
:mod:`source_anchors.reading.languages`), or an :class:`.records.Undecided` saying why no link can
be given. One module per binding style: :mod:`.capi` (CPython's C API tables, types and module
definitions, Argument Clinic), :mod:`.cython` (``.pyx`` and its ``include`` files, a line reader: no
tree-sitter grammar of Cython is published), :mod:`.pybind` (pybind11 and nanobind), :mod:`.pyo3`;
the module a file builds comes from :mod:`.buildconf` (setuptools ``Extension``, meson, maturin);
what is built is kept between builds by a key of the files' blob ids (:mod:`.stored`).
May import: :mod:`source_anchors.reading` (the registry and its languages) and
:mod:`source_anchors.model`. Nothing is compiled, imported or executed; where a binding is made at
run time or by a macro, no link.
"""

from .index import CompiledIndex, compiled_file
from .records import Binding, Undecided
from .stored import CompiledStore

__all__ = ["Binding", "CompiledIndex", "CompiledStore", "Undecided", "compiled_file"]
