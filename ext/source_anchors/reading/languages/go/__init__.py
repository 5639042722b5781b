"""Go (``.go``), with tree-sitter-go.

Takes in: a file's bytes.
Gives out: :data:`GO`, a :class:`~source_anchors.reading.language.Language`.
May import: the languages package's shared modules. Naming: a method is named by its receiver's
type, pointer or not (``func (c *Command) AddCommand`` is ``Command.AddCommand``; Go allows one
method of a name per type, so there is no rule to choose); a ``type`` spec is a struct, an interface
or a type, and an interface's methods are under it.
"""

from __future__ import annotations

from ..clauses import Shape
from ..grammar import TreeSitterLanguage


class Go(TreeSitterLanguage):
    """Go files."""

    name = "Go"
    suffixes = (".go",)
    grammar = ("tree_sitter_go", "language")
    package = __name__
    shape = Shape(
        wrappers=frozenset({"type_declaration"}),
        bodies=frozenset({"source_file", "block", "statement_list"}),
        clauses=frozenset({"expression_case", "default_case", "type_case", "communication_case"}),
        literals=frozenset({"literal_value"}),
        carriers=frozenset(
            {
                "short_var_declaration",
                "var_declaration",
                "var_spec",
                "const_declaration",
                "const_spec",
                "expression_list",
                "return_statement",
                "assignment_statement",
                "composite_literal",
                "expression_statement",
                "unary_expression",
                "literal_element",
            }
        ),
    )


GO = Go()
