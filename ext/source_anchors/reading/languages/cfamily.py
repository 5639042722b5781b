"""What C and C++ share: a function's name through its declarators, ``#if`` branches, the statement shapes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..language import Definition
from .clauses import Shape
from .grammar import TreeSitterLanguage

if TYPE_CHECKING:
    import tree_sitter

#: Declarator nodes that end the chain: the name.
_NAMES = frozenset(
    {
        "identifier",
        "field_identifier",
        "qualified_identifier",
        "destructor_name",
        "operator_name",
        "template_function",
        "type_identifier",
    }
)
_TEMPLATE_ARGUMENTS = re.compile(r"<[^<>]*>")

SHAPE = Shape(
    wrappers=frozenset({"type_definition", "declaration", "template_declaration"}),
    conditionals=frozenset(
        {"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"}
    ),
    bodies=frozenset(
        {
            "translation_unit",
            "compound_statement",
            "case_statement",
            "field_declaration_list",
            "declaration_list",
            "preproc_if",
            "preproc_ifdef",
            "preproc_else",
            "preproc_elif",
            "preproc_elifdef",
        }
    ),
    clauses=frozenset({"case_statement", "else_clause", "catch_clause"}),
    literals=frozenset({"initializer_list"}),
    specifiers=True,
    # An error node is a definition only where it starts with a #define (c/definitions.scm).
    spliced=frozenset({"preproc_function_def", "ERROR"}),
    carriers=frozenset(
        {
            "declaration",
            "init_declarator",
            "return_statement",
            "expression_statement",
            "assignment_expression",
            "compound_literal_expression",
            "initializer_pair",
        }
    ),
)


class CFamily(TreeSitterLanguage):
    """C and C++: names through declarators, and the ``#if`` branch rule."""

    family = "C/C++"
    rules = (
        "a definition with a body before its prototypes",
        "of definitions in branches of #if/#ifdef, the first",
        "of several with the same lines (a typedef of its struct), the first",
        "a function before a function-like macro of its name",
    )

    def name_of(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """The declared name of a function definition, prototype or typedef; None for a declaration of no function.

        Where macros in front of a function made the grammar misread its head, the name is still
        the identifier before the parameters: ``API T name(void) {`` read as a declaration
        ``API T`` and a function of type ``name`` (its "declarator" ``(void)``), or ``API T name (…)``
        read with ``name`` as an error between ``T`` and the parameters.
        """
        if node.type == "type_definition":
            return _typedef_name(node)
        if _macro_calls(node):
            return None
        declarator = node.child_by_field_name("declarator")
        if (
            declarator is not None
            and declarator.type == "parenthesized_declarator"
            and node.type == "function_definition"
        ):
            kind = node.child_by_field_name("type")
            return kind if kind is not None and kind.type == "type_identifier" else None
        function = False
        while declarator is not None:
            if declarator.type in _NAMES:
                return declarator if function else None
            if declarator.type == "function_declarator":
                function = True
                misread = _misread_name(declarator)
                if misread is not None:
                    return misread
            inner = declarator.child_by_field_name("declarator")
            if inner is None:
                named = [
                    child
                    for child in declarator.named_children
                    if "declarator" in child.type or child.type in _NAMES
                ]
                inner = named[-1] if named else None
            declarator = inner
        return None

    def names(self, text: str) -> tuple[str, ...]:
        """``ns::Class<T>::method`` gives ``ns``, ``Class``, ``method``; an operator keeps its symbol."""
        if text.isidentifier():  # the usual case: a plain name
            return (text,)
        if "operator" in text:
            head, _, operator = text.partition("operator")
            parts = [part for part in _strip_templates(head).split("::") if part.strip()]
            return (*(part.strip() for part in parts), "operator" + operator.strip())
        return tuple(part.strip() for part in _strip_templates(text).split("::") if part.strip())

    def first_line(self, outer: tree_sitter.Node) -> int:
        """A function's first line: its node's, or above it the specifier macros the grammar read apart.

        ``MEM_STATIC FORCE_INLINE_ATTR`` on the line above ``size_t f(…)`` is read as a declaration
        of its own with a missing ``;``; it is the function's (its storage class, ``inline`` and
        attributes once the macros are expanded), as ``static PyObject *`` above a name is.
        """
        start = super().first_line(outer) if self.shape.attributes else outer.start_point.row + 1
        if outer.type != "function_definition":
            return start
        sibling = outer.prev_sibling
        while sibling is not None and sibling.end_point.row + 2 >= start and _specifiers(sibling):
            start = sibling.start_point.row + 1
            sibling = sibling.prev_sibling
        return start

    def choose(self, candidates: Sequence[Definition]) -> tuple[Definition, str] | None:
        """A body before prototypes; a function before macros; of several in ``#if`` branches, the first."""
        bodies = [candidate for candidate in candidates if candidate.body]
        functions = [candidate for candidate in bodies if candidate.kind != "macro"]
        if functions and len(functions) < len(bodies):
            if len(functions) == 1:
                return functions[0], self.rules[3]
            bodies = functions
        if len(bodies) > 1 and all(candidate.conditional for candidate in bodies):
            return bodies[0], self.rules[1]
        return super().choose(candidates)


#: The children of a declaration that only specifies: macros standing for storage classes,
#: ``inline`` and attributes (``MEM_STATIC``, ``FORCE_INLINE_ATTR``), and types.
_SPECIFIERS = frozenset(
    {
        "type_identifier",
        "identifier",
        "primitive_type",
        "sized_type_specifier",
        "storage_class_specifier",
        "type_qualifier",
        "attribute_specifier",
        "ms_declspec_modifier",
    }
)


def _specifiers(node: tree_sitter.Node) -> bool:
    """Whether *node* is a declaration of specifiers alone whose ``;`` the grammar found missing."""
    if node.type != "declaration":
        return False
    last = node.child(node.child_count - 1)
    return (
        last is not None
        and last.is_missing
        and all(child.type in _SPECIFIERS for child in node.named_children)
    )


def _macro_calls(node: tree_sitter.Node) -> bool:
    """Whether *node* is lines of macro calls the grammar read as an old-style function definition.

    ``GEN_FN(a)`` lines without a ``;`` read as a function of type ``GEN_FN(a)`` whose parameters
    are declared on the lines after (K&R style) up to the next ``{…}``: a real K&R definition does
    not have a macro call for its type.
    """
    if node.type != "function_definition":
        return False
    kind = node.child_by_field_name("type")
    return (
        kind is not None
        and kind.type == "macro_type_specifier"
        and any(child.type == "declaration" for child in node.named_children)
    )


def _misread_name(declarator: tree_sitter.Node) -> tree_sitter.Node | None:
    """The name of a function declarator the grammar misread: one identifier in an error right before the parameters."""
    if declarator.child_count < 3:  # a name and its parameters: the usual case
        return None
    parameters = declarator.child_by_field_name("parameters")
    before = parameters.prev_sibling if parameters is not None else None
    if before is None or before.type != "ERROR" or before.named_child_count != 1:
        return None
    name = before.named_children[0]
    return name if name.type == "identifier" else None


def _typedef_name(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The name a ``typedef`` gives through its declarator: ``typedef void (*F)(void *);`` gives ``F``."""
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "type_identifier":
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            named = [
                child
                for child in declarator.named_children
                if "declarator" in child.type or child.type == "type_identifier"
            ]
            inner = named[0] if named else None
        declarator = inner
    return declarator


def _strip_templates(text: str) -> str:
    """*text* without its template arguments, nested ones too: ``Map<K, Vec<V>>::get`` gives ``Map::get``."""
    while True:
        stripped = _TEMPLATE_ARGUMENTS.sub("", text)
        if stripped == text:
            return text
        text = stripped
