"""C++ (``.cc``, ``.cpp``, ``.cxx``, ``.c++``, ``.hh``, ``.hpp``, ``.hxx``, ``.h++``), with tree-sitter-cpp.

Takes in: a file's bytes.
Gives out: :data:`CPP`, a :class:`~source_anchors.reading.language.Language`.
May import: the languages package's shared modules (``cfamily``). Naming: namespaces, classes and
structs open a scope (``ns.Class.method``); a method defined outside its class (``void
ns::Class::method() {}``) is named by its qualified name, template arguments stripped; a template's
range starts at its ``template <…>`` line. The C rules choose among several. A ``.h`` header whose
text shows C++ is read by it too (:mod:`..header`). A class's bases, in order, for C++'s member
lookup (:meth:`Cpp.bases`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language import Definition
from ..capture import text_of
from ..cfamily import SHAPE, CFamily

if TYPE_CHECKING:
    import tree_sitter

#: The node types that define a class with bases.
_CLASSES = frozenset({"class_specifier", "struct_specifier"})
#: The node types of a base's name in a ``base_class_clause``.
_BASES = frozenset({"type_identifier", "qualified_identifier", "template_type"})


class Cpp(CFamily):
    """C++ files."""

    name = "C++"
    suffixes = (".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++")
    grammar = ("tree_sitter_cpp", "language")
    package = __name__
    shape = SHAPE

    def bases(self, source: bytes, definition: Definition) -> tuple[tuple[str, ...], ...]:
        """The bases a class or struct *definition* of *source* names, in order, as paths of names.

        As its ``base_class_clause`` writes them, access and ``virtual`` left out, a template's
        arguments stripped: ``class S : public Base<S>, private ns::Other`` gives ``("Base",)``,
        ``("ns", "Other")``. Empty for a class with no bases, or a definition that is not a class.
        """
        row = definition.name_line - 1
        stack = [self.tree(source).tree.root_node]
        while stack:  # down the nodes that hold the name's line only
            node = stack.pop()
            name = node.child_by_field_name("name") if node.type in _CLASSES else None
            if (
                name is not None
                and name.start_point.row == row
                and self.names(text_of(name))[-1:] == definition.path[-1:]
            ):
                clause = next(
                    (c for c in node.named_children if c.type == "base_class_clause"), None
                )
                named = clause.named_children if clause is not None else []
                return tuple(self.names(text_of(c)) for c in named if c.type in _BASES)
            stack.extend(
                child
                for child in reversed(node.named_children)
                if child.start_point.row <= row <= child.end_point.row
            )
        return ()

    def kind_of(self, node: tree_sitter.Node, kind: str) -> str:
        """A function in a class body, or defined as ``Class::method``, is a method."""
        parent = node.parent
        if kind == "function" and parent is not None and parent.type == "field_declaration_list":
            return "method"
        return kind


CPP = Cpp()
