"""The nodes around a definition's own that its lines take in, by a grammar's node types (pure).

Takes in: a tree-sitter node and the language's :class:`~.clauses.Shape`.
Gives out: the wrapper whose lines are the definition's (``export``, ``template <…>``, ``const f =
…``), the first attribute or decorator above it, and whether it is in a preprocessor branch.
May import: :mod:`.clauses` (the shape) only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

    from .clauses import Shape

__all__ = ["conditional", "first_node", "outer"]


def outer(shape: Shape, node: tree_sitter.Node) -> tree_sitter.Node:
    """*node*, or the wrapper around it whose lines are its (``export``, ``template <…>``, ``const f = …``)."""
    if not shape.wrappers:
        return node
    while (parent := node.parent) is not None and parent.type in shape.wrappers:
        if parent.named_child_count == 1:  # node alone in it (``export function f``)
            node = parent
            continue
        named = [
            child
            for child in parent.named_children
            if "comment" not in child.type and child.type not in shape.attributes
        ]
        if len([child for child in named if child.type == node.type]) != 1:
            break
        node = parent
    return node


def first_node(shape: Shape, outer: tree_sitter.Node) -> tree_sitter.Node:
    """The node the definition whose outer node is *outer* starts with: its first attribute, else *outer*."""
    first = outer
    if not shape.attributes:
        return first
    sibling = outer.prev_named_sibling
    while sibling is not None and (sibling.type in shape.attributes or "comment" in sibling.type):
        if sibling.type in shape.attributes:
            first = sibling
        sibling = sibling.prev_named_sibling
    return first


def conditional(shape: Shape, node: tree_sitter.Node) -> bool:
    """Whether *node* is inside a branch of a preprocessor conditional (``#if``, ``#ifdef``, ``#else``)."""
    parent = node.parent
    while parent is not None:
        if parent.type in shape.conditionals:
            return True
        parent = parent.parent
    return False
