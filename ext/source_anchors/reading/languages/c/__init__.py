"""C (``.c``; a ``.h`` header whose text shows no C++, through :mod:`..header`), with tree-sitter-c.

Takes in: a file's bytes.
Gives out: :data:`C`, a :class:`~source_anchors.reading.language.Language`.
May import: the languages package's shared modules (``cfamily``). Naming: functions, prototypes
(declarations without a body), structs, unions, enums, typedefs and function-like macros, by their
names. A function defined in several ``#if``/``#ifdef`` branches is the first; a definition with a
body is chosen before its prototypes.
"""

from __future__ import annotations

from dataclasses import replace

from ..cfamily import SHAPE, CFamily


class C(CFamily):
    """C files; a ``.h`` header is read as C unless its text shows C++ (:mod:`..header`)."""

    name = "C"
    suffixes = (".c",)
    grammar = ("tree_sitter_c", "language")
    package = __name__
    shape = replace(SHAPE, flat=True)  # C has no nested names: a #define in a body is the file's


C_LANGUAGE = C()
