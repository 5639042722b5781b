"""Rust (``.rs``), with tree-sitter-rust.

Takes in: a file's bytes.
Gives out: :data:`RUST`, a :class:`~source_anchors.reading.language.Language`.
May import: the languages package's shared modules. Naming: an ``impl`` is a scope named by its type
without generic arguments (``HashTrieMap.insert``); a method of a trait impl is also
``Trait.for.Type.method``. Where a type has a method of one name in its inherent impl and in trait
impls, the inherent one is chosen (as Rust's method calls do); where only trait impls define it, the
error names each ``Trait.for.Type.method``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...language import Definition
from ..clauses import Shape
from ..grammar import TreeSitterLanguage

if TYPE_CHECKING:
    import tree_sitter


class Rust(TreeSitterLanguage):
    """Rust files."""

    name = "Rust"
    suffixes = (".rs",)
    grammar = ("tree_sitter_rust", "language")
    package = __name__
    rules = ("an inherent impl's method before trait impls' methods",)
    shape = Shape(
        attributes=frozenset({"attribute_item"}),
        bodies=frozenset({"source_file", "block", "declaration_list"}),
        clauses=frozenset({"match_arm", "else_clause"}),
        literals=frozenset({"array_expression", "field_initializer_list", "tuple_expression"}),
        carriers=frozenset(
            {
                "let_declaration",
                "struct_expression",
                "return_expression",
                "expression_statement",
                "assignment_expression",
                "static_item",
                "const_item",
                "reference_expression",
            }
        ),
    )

    def kind_of(self, node: tree_sitter.Node, kind: str) -> str:
        """A function inside an ``impl`` or a ``trait`` is a method."""
        parent = node.parent
        grand = parent.parent if parent is not None else None
        if kind == "function" and grand is not None and grand.type in ("impl_item", "trait_item"):
            return "method"
        return kind

    def choose(self, candidates: Sequence[Definition]) -> tuple[Definition, str] | None:
        """The inherent impl's method before trait impls' (whose :attr:`~Definition.qualified` names the trait)."""
        inherent = [candidate for candidate in candidates if not candidate.qualified]
        if len(inherent) == 1 and len(candidates) > 1:
            return inherent[0], self.rules[0]
        return super().choose(candidates)


RUST = Rust()
