"""Java (``.java``), with tree-sitter-java.

Takes in: a file's bytes.
Gives out: :data:`JAVA`, a :class:`~source_anchors.reading.language.Language`.
May import: the languages package's shared modules. Naming: classes, interfaces, enums and records
open a scope (``Outer.Inner.method``); a constructor is named by its class (``Outer.Outer``).
Overloaded methods share a path: the error names each, and one is anchored by its file and a match
on its first line.
"""

from __future__ import annotations

from ..clauses import Shape
from ..grammar import TreeSitterLanguage


class Java(TreeSitterLanguage):
    """Java files."""

    name = "Java"
    suffixes = (".java",)
    grammar = ("tree_sitter_java", "language")
    package = __name__
    shape = Shape(
        bodies=frozenset(
            {
                "program",
                "block",
                "class_body",
                "interface_body",
                "enum_body_declarations",
                "constructor_body",
                "switch_block",
                "switch_block_statement_group",
            }
        ),
        clauses=frozenset(
            {"switch_block_statement_group", "switch_rule", "catch_clause", "finally_clause"}
        ),
        literals=frozenset({"array_initializer", "element_value_array_initializer"}),
        carriers=frozenset(
            {
                "local_variable_declaration",
                "field_declaration",
                "variable_declarator",
                "return_statement",
                "expression_statement",
                "assignment_expression",
                "array_creation_expression",
            }
        ),
    )


JAVA = Java()
