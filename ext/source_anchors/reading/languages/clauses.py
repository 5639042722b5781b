"""The ``::match`` rule by a grammar's node types: one statement, one clause, one element.

The Python rule (:mod:`source_anchors.reading.python.statements`, docs/anchors.md) read off a
tree-sitter tree:

- The match text must be on exactly one line of the range (a match starting with closing brackets,
  ``} else {``, is placed at what follows them); the anchor is the innermost statement
  holding that line, a statement being a named child of a body (a block, a class body, a file) or a
  clause (a ``case``, a ``match`` arm, ``else``, ``catch``, ``finally``). On a line holding several,
  the one the match text starts in; a statement starting on the line after the match text's start
  is not descended into (``if (x) { y(); }`` matched at ``if`` is the ``if``).
- A definition is its whole range (from its first attribute line; an attribute line gives the
  definition it belongs to); a line of its header below its name's line (a parameter, the line
  that opens its body) is its own span. A definition without a body (an object bound to a name)
  is a statement like any other below its name's line: the element rule applies in it.
- In an ``if`` chain, a line of a clause's header gives that clause: its header to the end of its
  own body (``else if`` to the end of its body, not the rest of the chain); a ``try``'s line gives
  the ``try`` block alone.
- A comment held by no statement is its own span.
- A line inside a multi-line literal (an object, an array, an initializer list, a composite
  literal, a JSX element) that a simple statement writes out (the value of a declaration, an
  assignment, a ``return``) is the element holding it (the innermost literal with an element on the
  line); a literal inside another expression (an argument of a call) keeps the whole statement. The
  elements of a JSX element are its children (elements, ``{…}`` expressions); a line of its opening
  or closing tag gives the element itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model.errors import ResolveError

if TYPE_CHECKING:
    import tree_sitter

    from .parsed import Parsed

Span = tuple[int, int]
_EMPTY: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Shape:
    """The node types of one grammar that the ranges and the statement rule read."""

    #: Node types before a definition that are part of its range (``attribute_item``,
    #: ``decorator``).
    attributes: frozenset[str] = _EMPTY
    #: Parent types whose lines are a definition's when it is their one definition
    #: (``export_statement``).
    wrappers: frozenset[str] = _EMPTY
    #: Node types of a preprocessor conditional's branches.
    conditionals: frozenset[str] = _EMPTY
    #: Nodes whose named children are statements (``statement_block``, ``block``, ``class_body``).
    bodies: frozenset[str] = _EMPTY
    #: Clause nodes, statements wherever they are (``switch_case``, ``match_arm``, ``else_clause``).
    clauses: frozenset[str] = _EMPTY
    #: Multi-line literals whose elements the element rule gives (``object``, ``array``,
    #: ``initializer_list``).
    literals: frozenset[str] = _EMPTY
    #: Nodes through which a statement writes a literal out (a declarator, an assignment, a
    #: ``return``).
    carriers: frozenset[str] = _EMPTY
    #: Children of a literal that are parts of it, not elements (a JSX element's opening and closing
    #: tags): a line in one gives the literal itself.
    parts: frozenset[str] = _EMPTY
    #: Whether a definition's name is its own alone, never under the definitions around it (C: a
    #: ``#define`` in a function's body, a struct declared in another, are the file's).
    flat: bool = False
    #: Whether a function's first line may be above its node (C and C++: the specifier macros the
    #: grammar reads as a declaration of their own, :meth:`~.cfamily.CFamily.first_line`).
    specifiers: bool = False
    #: Node types whose lines go on past a line ending in a backslash (a C ``#define``).
    spliced: frozenset[str] = _EMPTY


def find_line(parsed: Parsed, start: int, end: int, match: str) -> tuple[int, int]:
    """The one line of *start*..*end* holding *match*, and the match's column in bytes on it."""
    lines = [line for line in range(start, end + 1) if match in parsed.line_text(line)]
    if len(lines) != 1:
        where = "no line" if not lines else f"{len(lines)} lines ({', '.join(map(str, lines[:5]))})"
        raise ResolveError(
            f"match text {match!r} is on {where} of lines {start}-{end}"
            + ("; give more of the line, or an outer level first (::outer::inner)" if lines else "")
        )
    text = parsed.line_text(lines[0])
    column = text.index(match)
    column += len(match) - len(match.lstrip("}])\t "))  # ``} else {`` is placed at its ``else``
    return lines[0], len(text[:column].encode())


def statement_span(parsed: Parsed, shape: Shape, start: int, end: int, match: str) -> Span:
    """The span the ``::match`` rule gives for *match* within lines *start*..*end* (the module docstring)."""
    line, column = find_line(parsed, start, end, match)
    span = statement_at(parsed, shape, line, column)
    return max(span[0], start), min(span[1], end)


def statement_at(parsed: Parsed, shape: Shape, line: int, column: int) -> Span:
    """The span the ``::match`` rule gives for a match on *line* at byte *column*, whatever range holds it."""
    point = (line - 1, column)
    found = _innermost(parsed, shape, parsed.tree.root_node, line, point)
    if found is None:
        return line, line
    if found.type in shape.attributes:
        following = found.next_named_sibling
        while following is not None and (
            following.type in shape.attributes or "comment" in following.type
        ):
            following = following.next_named_sibling
        found = following if following is not None and following.id in parsed.by_node else found
    return _span(parsed, shape, found, line, point)


def _is_statement(node: tree_sitter.Node, shape: Shape, parsed: Parsed) -> bool:
    parent = node.parent
    return (
        node.type in shape.clauses
        or node.id in parsed.by_node
        or (parent is not None and (parent.parent is None or parent.type in shape.bodies))
    )


def _innermost(
    parsed: Parsed, shape: Shape, root: tree_sitter.Node, line: int, point: tuple[int, int]
) -> tree_sitter.Node | None:
    """The innermost statement holding *line*, chosen by *point* among those sharing the line."""
    found: tree_sitter.Node | None = None
    node = root
    while True:
        holders = [
            child
            for child in node.named_children
            if child.start_point.row + 1 <= line <= parsed.last_line(child)
        ]
        if not holders:
            return found
        chosen = holders[0]
        if len(holders) > 1:
            chosen = next(
                (child for child in holders if child.start_point <= point < child.end_point),
                next((child for child in holders if child.start_point > point), holders[-1]),
            )
        if found is not None and chosen.start_point.row + 1 == line and chosen.start_point > point:
            return found  # the match starts before this node on its first line: in the header around it
        if _is_statement(chosen, shape, parsed):
            found = chosen
        node = chosen


def _span(
    parsed: Parsed, shape: Shape, node: tree_sitter.Node, line: int, point: tuple[int, int]
) -> Span:
    first, last = node.start_point.row + 1, parsed.last_line(node)
    known = parsed.by_node.get(node.id)
    if known is not None and (known[1] or line <= known[0].name_line):
        definition, body_line = known
        if definition.name_line < line <= body_line:
            return line, line  # a parameter, a base, the line that opens the body
        return definition.start, definition.end
    if "comment" in node.type:
        return first, last
    clauses = _clauses(parsed, shape, node)
    if (
        not clauses
        and node.named_child_count == 1
        and node.named_children[0].start_byte == node.start_byte
    ):
        # an ``if`` expression as a statement (Rust)
        clauses = _clauses(parsed, shape, node.named_children[0])
    if clauses:
        holding = [(head, span) for head, span in clauses if span[0] <= line <= span[1]]
        if holding:
            at_or_before = [span for head, span in holding if head <= point]
            return at_or_before[-1] if at_or_before else holding[0][1]
    if node.type in shape.clauses:
        return _clause_end(parsed, shape, node, first, last)
    if first < last:
        element = _element(parsed, shape, node, point)
        if element is not None:
            return element
    return first, last


def _clauses(
    parsed: Parsed, shape: Shape, node: tree_sitter.Node
) -> list[tuple[tuple[int, int], Span]]:
    """The clauses of an ``if`` chain or a ``try``: each one's header point and (first line, last line).

    A clause starts at the node, at an ``else`` keyword, or at a clause child (``else_clause``,
    ``catch_clause``, ``finally_clause``); it ends at the last line of what comes before the next.
    """
    children = node.children
    bounds = [
        i
        for i, child in enumerate(children)
        if (child.type == "else" and not child.is_named) or child.type in shape.clauses
    ]
    if not bounds or node.type in shape.clauses:
        return []
    spans: list[tuple[tuple[int, int], Span]] = []
    starts = [0, *bounds]
    for number, begin in enumerate(starts):
        stop = starts[number + 1] if number + 1 < len(starts) else len(children)
        part = [child for child in children[begin:stop] if "comment" not in child.type]
        if not part:
            continue
        head = part[0].start_point if begin else node.start_point
        first = head[0] + 1
        tail = part[-1]
        if tail.type in shape.clauses:
            last = _clause_end(parsed, shape, tail, first, parsed.last_line(tail))[1]
        elif len(part) > 1 and part[1].child_by_field_name("consequence") is not None and begin:
            # ``else if``: to the end of its own body
            last = _first_clause_end(parsed, shape, part[1])
        else:
            last = parsed.last_line(tail)
        spans.append((head, (first, last)))
    return spans


def _clause_end(
    parsed: Parsed, shape: Shape, node: tree_sitter.Node, first: int, last: int
) -> Span:
    """An ``else`` clause holding an ``if``: to the end of that ``if``'s own body; any other clause whole."""
    inner = [child for child in node.named_children if "comment" not in child.type]
    if len(inner) == 1 and inner[0].child_by_field_name("consequence") is not None:
        return first, _first_clause_end(parsed, shape, inner[0])
    return first, last


def _first_clause_end(parsed: Parsed, shape: Shape, node: tree_sitter.Node) -> int:
    consequence = node.child_by_field_name("consequence")
    return parsed.last_line(consequence if consequence is not None else node)


def _element(
    parsed: Parsed, shape: Shape, statement: tree_sitter.Node, point: tuple[int, int]
) -> Span | None:
    """The element rule: the innermost literal's element holding the match's line, or None (the whole statement)."""
    leaf = statement.named_descendant_for_point_range(point, point)
    chain: list[tree_sitter.Node] = []
    while leaf is not None and leaf.id != statement.id:
        chain.append(leaf)
        leaf = leaf.parent
    if leaf is None:
        return None
    chain.reverse()
    found: list[tree_sitter.Node | None] = []
    previous_literal = False
    for index, node in enumerate(chain):
        if node.type in shape.literals:
            after = chain[index + 1] if index + 1 < len(chain) else None
            element = (
                after
                if after is not None
                and "comment" not in after.type
                and after.type not in shape.parts
                else None
            )
            found.append(element)
            previous_literal = True
            continue
        if not (previous_literal or node.type in shape.carriers):
            break
        previous_literal = False
    line = point[0] + 1
    for element in reversed(found):
        if element is not None and element.start_point.row + 1 <= line <= parsed.last_line(element):
            return element.start_point.row + 1, parsed.last_line(element)
    return None
