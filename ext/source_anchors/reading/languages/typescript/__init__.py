"""TypeScript (``.ts``, ``.mts``, ``.cts``) and TSX (``.tsx``, its own grammar), with tree-sitter-typescript.

Takes in: a file's bytes.
Gives out: :data:`TYPESCRIPT` and :data:`TSX`, the two
:class:`~source_anchors.reading.language.Language` objects.
May import: the languages package's shared modules (``grammar``, ``clauses``, ``base``). Naming:
classes, interfaces, enums, type aliases and namespaces open a scope (``Outer.Inner.method``);
``const name = (…) => …`` and ``function`` expressions bound to a name are functions; an overloaded
function or method is its implementation (the signatures are declarations without a body).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from ...language import Definition
from ..clauses import Shape
from ..grammar import TreeSitterLanguage

SHAPE = Shape(
    attributes=frozenset({"decorator"}),
    wrappers=frozenset(
        {
            "export_statement",
            "lexical_declaration",
            "variable_declaration",
            "expression_statement",
            "ambient_declaration",
        }
    ),
    bodies=frozenset(
        {
            "program",
            "statement_block",
            "class_body",
            "interface_body",
            "switch_body",
            "switch_case",
            "switch_default",
        }
    ),
    clauses=frozenset(
        {"else_clause", "catch_clause", "finally_clause", "switch_case", "switch_default"}
    ),
    # A JSX element is a literal of elements (its children); its tags are parts of it.
    literals=frozenset({"object", "array", "jsx_element"}),
    parts=frozenset({"jsx_opening_element", "jsx_closing_element"}),
    carriers=frozenset(
        {
            "lexical_declaration",
            "variable_declaration",
            "variable_declarator",
            "return_statement",
            "expression_statement",
            "assignment_expression",
            "export_statement",
            "as_expression",
            "satisfies_expression",
            "parenthesized_expression",
            "public_field_definition",
            "field_definition",
        }
    ),
)


class TypeScript(TreeSitterLanguage):
    """TypeScript files."""

    name = "TypeScript"
    suffixes: ClassVar[tuple[str, ...]] = (".ts", ".mts", ".cts")
    grammar = ("tree_sitter_typescript", "language_typescript")
    package = __name__
    shape = SHAPE
    rules = ("overloads: the implementation",)

    def choose(self, candidates: Sequence[Definition]) -> tuple[Definition, str] | None:
        """Of an overloaded function or method, the implementation (the one with a body)."""
        chosen = super().choose(candidates)
        if chosen is not None and chosen[1].startswith("a definition with a body"):
            return chosen[0], self.rules[0]
        return chosen


class Tsx(TypeScript):
    """TSX files: TypeScript with JSX, its own grammar."""

    name = "TSX"
    suffixes = (".tsx",)
    grammar = ("tree_sitter_typescript", "language_tsx")


TYPESCRIPT = TypeScript()
TSX = Tsx()
