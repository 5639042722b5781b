"""Change classes by a grammar's tokens: the leaves of two trees compared, comments apart from code.

A leaf is a node without children, or a whole string or character literal (its inside is its
text, white space included). Two texts whose code leaves are the same, in order, differ in their
``formatting`` when their comment leaves are the same too, else in their ``comments``; any other
difference is ``code``. Text that no leaf covers (a grammar's gap) counts as code when it is not
white space, so nothing is hidden by a grammar that leaves text outside its nodes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...model.changeclass import ChangeClass

if TYPE_CHECKING:
    import tree_sitter


def _is_literal(kind: str) -> bool:
    return "string" in kind or kind.startswith("char") or kind.endswith("char_literal")


def tokens(tree: tree_sitter.Tree, source: bytes) -> tuple[list[bytes], list[bytes]]:
    """The code leaves and the comment leaves of *tree*, each as its bytes, in order."""
    code: list[bytes] = []
    comments: list[bytes] = []
    position = 0
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.child_count and not _is_literal(node.type) and "comment" not in node.type:
            stack.extend(reversed(node.children))
            continue
        if node.start_byte == node.end_byte:
            continue  # a node the parser inserted to recover (a missing ``;``): no text
        gap = source[position : node.start_byte]
        if gap.strip():
            code.append(gap.strip())
        text = source[node.start_byte : node.end_byte]
        (comments if "comment" in node.type else code).append(
            text.strip() if "comment" in node.type else text
        )
        position = max(position, node.end_byte)
    if source[position:].strip():
        code.append(source[position:].strip())
    return code, comments


def change_class(
    old_tree: tree_sitter.Tree, old: bytes, new_tree: tree_sitter.Tree, new: bytes
) -> ChangeClass:
    """``formatting``, ``comments`` or ``code``: what differs between *old* and *new* by their tokens."""
    old_code, old_comments = tokens(old_tree, old)
    new_code, new_comments = tokens(new_tree, new)
    if old_code != new_code:
        return ChangeClass.code
    if old_comments != new_comments:
        return ChangeClass.comments
    return ChangeClass.formatting
