"""A definitions query of the simplest shape matched at the nodes around a place, without tree-sitter's query.

Compiling a query costs tree-sitter an analysis of the whole grammar: for C++ about five
milliseconds whatever the patterns, more than parsing a few files. A lookup by name
(:func:`.lookup.named_definitions`) needs the matches of the nodes that hold one place only, the
definition around it and the scopes around that; where every pattern of a language's
``definitions.scm`` is of the shape ``(type field: (child) @capture !field …) @capture`` (C, C++,
Rust, Java), those are found here by walking up from the place, each ancestor against the patterns
of its type: a field's children in the pattern's order, ``(_)`` any named node, ``!field`` a field
absent. A file of any other shape (alternatives, predicates, nested patterns) gives None: the
query is compiled then. ``tests/test_languages_lookup.py`` compares what this gives with the whole
file's definitions read by the query, for every name of the test files and of real upstream files.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

__all__ = ["Patterns", "patterns_of"]

#: One pattern a line: ``(type`` its fields and absent fields ``)`` and its capture; and one part
#: of it (compiled when a language's patterns are first read: every build imports this module).
_LINE = r"\((\w+)((?:\s+(?:!\w+|\w+:\s*\((?:\w+|_)\)(?:\s*@[\w.]+)?))*)\s*\)\s*@([\w.]+)"
_PART = r"!(\w+)|(\w+):\s*\((\w+|_)\)(?:\s*@([\w.]+))?"

#: A field the pattern asks for: its name, the child's type (None: any named node), its capture.
Field = tuple[str, "str | None", "str | None"]
#: What a query's ``matches`` gives: the pattern's index and its captures.
Match = tuple[int, dict[str, list["tree_sitter.Node"]]]


class Patterns:
    """The patterns of a definitions query by the node type they match."""

    def __init__(
        self, by_type: dict[str, list[tuple[int, tuple[Field, ...], tuple[str, ...], str]]]
    ):
        #: node type -> (pattern index, its fields, its absent fields, its capture) for each pattern.
        self.by_type = by_type

    def at(self, root: tree_sitter.Node, start: int, end: int) -> list[Match]:
        """The matches of the nodes that hold bytes *start* to *end*, the outermost first."""
        # Down from the root through the child holding the range, to the smallest node that holds
        # it (``descendant_for_byte_range``'s): the nodes on the way are that node's ancestors,
        # found without ``Node.parent``, which tree-sitter answers by walking down from the root
        # again each time. A range of one or more bytes is held by one child at most (children do
        # not overlap), the first one that ends after its start. (A cursor steps down:
        # ``Node.first_child_for_byte`` crashes py-tree-sitter 0.26 on some nodes.)
        by_type = self.by_type
        around: list[tree_sitter.Node] = []
        cursor = root.walk()
        node = root
        while True:
            if node.type in by_type:
                around.append(node)
            if cursor.goto_first_child_for_byte(start) is None:
                break
            child = cursor.node
            if child is None or child.start_byte > start or child.end_byte < end:
                break
            node = child
        found: list[Match] = []
        for node in around:
            for index, fields, absent, capture in self.by_type[node.type]:
                if any(node.child_by_field_name(name) is not None for name in absent):
                    continue
                found.extend(_matches(node, index, fields, capture))
        return found


def _matches(
    node: tree_sitter.Node, index: int, fields: tuple[Field, ...], capture: str
) -> list[Match]:
    """The matches of one pattern at *node*: a child for each field, in the pattern's order."""
    if not fields:
        return [(index, {capture: [node]})]
    options = []
    for name, kind, _ in fields:
        children = [
            child
            for child in node.children_by_field_name(name)
            if (child.is_named if kind is None else child.type == kind)
        ]
        if not children:
            return []
        options.append(children)
    found: list[Match] = []
    for chosen in itertools.product(*options):
        spans = [(child.start_byte, child.end_byte) for child in chosen]
        if any(spans[i] >= spans[i + 1] for i in range(len(spans) - 1)):
            continue  # a pattern's children are matched in its order
        captures: dict[str, list[tree_sitter.Node]] = {capture: [node]}
        for field, child in zip(fields, chosen, strict=True):
            if field[2] is not None:
                captures[field[2]] = [child]
        found.append((index, captures))
    return found


def patterns_of(text: str) -> Patterns | None:
    """The patterns of a ``definitions.scm`` text, when every one is of the shape read here; else None."""
    by_type: dict[str, list[tuple[int, tuple[Field, ...], tuple[str, ...], str]]] = {}
    index = 0
    for written in text.splitlines():
        line = written.strip()
        if not line or line.startswith(";"):
            continue
        matched = re.fullmatch(_LINE, line)
        if matched is None:
            return None
        fields: list[Field] = []
        absent: list[str] = []
        for part in re.finditer(_PART, matched[2]):
            if part[1]:
                absent.append(part[1])
            else:
                fields.append((part[2], None if part[3] == "_" else part[3], part[4]))
        by_type.setdefault(matched[1], []).append((index, tuple(fields), tuple(absent), matched[3]))
        index += 1
    return Patterns(by_type)
