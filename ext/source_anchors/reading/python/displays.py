"""The element rule: a match on one element of a multi-line collection display (pure ``ast``).

A collection display is a list, tuple, set or dict written out in brackets
(``[a, b]``, ``(a, b)``, ``{a, b}``, ``{k: v}``). When a match text starts inside
such a display that spans several lines and is the value a simple statement
writes out (the right side of an assignment, what a ``return`` gives, a bare
expression), the anchor is the element holding the match's line, not the whole
statement: a dict entry from its key to its value
(``**mapping`` included), an item of a list, tuple or set. So
``pkg.defaults.CONFIG::"TIMEOUT": 30`` is the line of that entry, not the whole
53-line ``CONFIG = {...}``.

- Displays nest: the element of the innermost display that has an element on
  the match's line is chosen (``"a": {`` ... ``"b": 1`` ... ``}`` gives the
  ``"b"`` entry for a match on it, the whole ``"a"`` entry for a match on its
  first or closing line).
- When several elements share the line, the one the match text starts in is
  chosen; failing that (the text starts between them or in a comment after
  them), the next one starting after it on the line, failing that the last.
- A match that starts before the display's opening bracket (``CONFIG = {``)
  or on a line with no element of any display (a comment line, the closing
  bracket) keeps the whole statement. So does a display inside any other
  expression (an argument of a call, an operand, a comprehension, a
  subscript): it is part of that expression, and a statement such as
  ``result = call(messages=[...])`` stays whole wherever the match is in it.

The statement alone is parsed again, and only when the rule may apply (a match
on a later line of a multi-line simple statement): the index of the file keeps
no syntax tree.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

Span = tuple[int, int]
#: A position as the ``ast`` gives it: line (1-based), column in UTF-8 bytes.
Position = tuple[int, int]

_DISPLAYS = (ast.Dict, ast.List, ast.Set, ast.Tuple)


def element_span(
    lines: Sequence[str], statement: tuple[int, int, int, int], line: int, column: int | None
) -> Span | None:
    """The lines of the display element holding the match at (*line*, *column*), or None.

    *statement* is the simple statement the match is in: its first line, its first
    column, its last line and its end column, as the ``ast`` gives them (columns in
    UTF-8 bytes). *column* is where the match text starts on *line*, in characters;
    None means the line's first character that is not blank.
    """
    first, first_col, last, _ = statement
    if first == last or not first <= line <= last:
        return None
    text = lines[line - 1]
    if column is None:
        column = len(text) - len(text.lstrip())
    byte_column = len(text[:column].encode())
    # Positions in the statement parsed alone: its first line is cut at the statement's column.
    where = (line - first + 1, byte_column - first_col if line == first else byte_column)
    node = _parse(lines, statement)
    if node is None:
        return None
    best: tuple[int, Span] | None = None
    value = _value(node)
    for depth, span in _candidates(value, where, 0) if value is not None else ():
        if best is None or depth > best[0]:
            best = (depth, span)
    return None if best is None else (best[1][0] + first - 1, best[1][1] + first - 1)


def _parse(lines: Sequence[str], statement: tuple[int, int, int, int]) -> ast.stmt | None:
    """The statement alone, its first line cut at the statement's first column."""
    first, first_col, last, end_col = statement
    head = lines[first - 1].encode()[first_col:].decode(errors="ignore")
    tail = [lines[number - 1] for number in range(first + 1, last + 1)]
    tail[-1] = tail[-1].encode()[:end_col].decode(errors="ignore")
    try:
        body = ast.parse("\n".join([head, *tail])).body
    except (SyntaxError, ValueError):
        return None  # not readable alone (it should always be): the statement rule stands
    return body[0] if len(body) == 1 else None


def _candidates(node: ast.AST, where: Position, depth: int) -> list[tuple[int, Span]]:
    """(depth, lines) of the elements on *where*'s line of each multi-line display holding *where*.

    Only the statement's value is looked into (:func:`_value`), and within a display only the
    elements that are displays themselves: a display passed to a call, or inside any other
    expression, is part of that expression.
    """
    found: list[tuple[int, Span]] = []
    if (
        isinstance(node, _DISPLAYS)
        and (node.end_lineno or node.lineno) > node.lineno
        and _start(node) < where < _end(node)
    ):
        chosen = _element(_elements(node), where)
        if chosen is not None:
            found.append((depth + 1, chosen))
        for child in _parts(node):
            found.extend(_candidates(child, where, depth + 1))
    return found


def _value(statement: ast.stmt) -> ast.expr | None:
    """The expression a simple statement writes out: an assignment's value, a return's, a bare expression."""
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.Expr)):
        return statement.value
    return None


def _parts(display: ast.expr) -> list[ast.expr]:
    """The expressions a display is made of: a dict's keys and values, the items of the others."""
    if isinstance(display, ast.Dict):
        return [part for part in (*display.keys, *display.values) if part is not None]
    return list(display.elts)  # type: ignore[attr-defined]


def _elements(display: ast.expr) -> list[tuple[Position, Position]]:
    """Each element's extent: a dict entry from its key (its value for ``**``) to its value."""
    if isinstance(display, ast.Dict):
        pairs = zip(display.keys, display.values, strict=True)
        return [(_start(key if key is not None else value), _end(value)) for key, value in pairs]
    return [(_start(item), _end(item)) for item in display.elts]  # type: ignore[attr-defined]


def _start(node: ast.expr) -> Position:
    return node.lineno, node.col_offset


def _end(node: ast.expr) -> Position:
    return node.end_lineno or node.lineno, node.end_col_offset or 0


def _element(elements: list[tuple[Position, Position]], where: Position) -> Span | None:
    """The lines of the element on *where*'s line: the one holding *where*, else the next, else the last."""
    line = where[0]
    on_line = [(start, end) for start, end in elements if start[0] <= line <= end[0]]
    if not on_line:
        return None
    chosen = next((e for e in on_line if e[0] <= where < e[1]), None)
    if chosen is None:
        chosen = next((e for e in on_line if e[0] > where), on_line[-1])
    return chosen[0][0], chosen[1][0]
