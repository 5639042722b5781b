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
    )

    def name_of(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """The declared name of a function definition or prototype; None for a declaration of no function."""
        declarator = node.child_by_field_name("declarator")
        function = False
        while declarator is not None:
            if declarator.type in _NAMES:
                return declarator if function else None
            function = function or declarator.type == "function_declarator"
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
        if "operator" in text:
            head, _, operator = text.partition("operator")
            parts = [part for part in _strip_templates(head).split("::") if part.strip()]
            return (*(part.strip() for part in parts), "operator" + operator.strip())
        return tuple(part.strip() for part in _strip_templates(text).split("::") if part.strip())

    def choose(self, candidates: Sequence[Definition]) -> tuple[Definition, str] | None:
        """A definition with a body before prototypes; of several in ``#if`` branches, the first."""
        bodies = [candidate for candidate in candidates if candidate.body]
        if len(bodies) > 1 and all(candidate.conditional for candidate in bodies):
            return bodies[0], self.rules[1]
        return super().choose(candidates)


def _strip_templates(text: str) -> str:
    """*text* without its template arguments, nested ones too: ``Map<K, Vec<V>>::get`` gives ``Map::get``."""
    while True:
        stripped = _TEMPLATE_ARGUMENTS.sub("", text)
        if stripped == text:
            return text
        text = stripped
