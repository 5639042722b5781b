"""C++ (``.cc``, ``.cpp``, ``.cxx``, ``.c++``, ``.hh``, ``.hpp``, ``.hxx``, ``.h++``), with tree-sitter-cpp.

Takes in: a file's bytes.
Gives out: :data:`CPP`, a :class:`~source_anchors.reading.language.Language`.
May import: the languages package's shared modules (``cfamily``). Naming: namespaces, classes and
structs open a scope (``ns.Class.method``); a method defined outside its class (``void
ns::Class::method() {}``) is named by its qualified name, template arguments stripped; a template's
range starts at its ``template <…>`` line. The C rules choose among several. A ``.h`` header whose
text shows C++ is read by it too (:mod:`..header`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cfamily import SHAPE, CFamily

if TYPE_CHECKING:
    import tree_sitter


class Cpp(CFamily):
    """C++ files."""

    name = "C++"
    suffixes = (".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++")
    grammar = ("tree_sitter_cpp", "language")
    package = __name__
    shape = SHAPE

    def kind_of(self, node: tree_sitter.Node, kind: str) -> str:
        """A function in a class body, or defined as ``Class::method``, is a method."""
        parent = node.parent
        if kind == "function" and parent is not None and parent.type == "field_declaration_list":
            return "method"
        return kind


CPP = Cpp()
