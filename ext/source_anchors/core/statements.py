"""Find the statement or clause that holds a line (pure ``ast``).

The rule: the innermost statement whose span holds the line, where a
definition's span starts at its first decorator. When the line is in the header
of a clause (``if``/``elif``/``else``, ``for``/``while`` and their ``else``,
``with``, ``try``/``except``/``else``/``finally``, ``case``), the span is that
clause: its header and its own body, not the rest of the chain.

Two refinements settle what the rule alone would not:

- A line holding only a comment that no statement holds (a comment in a body,
  not inside a bracketed expression or a header) is its own span.
- A line of a ``def``, ``class`` or ``with`` header below the statement's first
  line (one parameter of a long signature, with its default; a base; a with
  item) is its own span: that line is what a match there names, not the body.
- When a line holds several statements (``if x: y = 1; z = 2``), the statement
  that holds the match text's first character is chosen (the ``if`` clause for
  ``if x``, ``z = 2`` for ``z =``).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

Span = tuple[int, int]

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_TRY = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)


def node_span(node: ast.stmt) -> Span:
    """Lines of *node*, from its first decorator for a definition."""
    start = node.lineno
    if isinstance(node, _DEFS) and node.decorator_list:
        start = min(start, *(d.lineno for d in node.decorator_list))
    return start, node.end_lineno or node.lineno


def statement_span(tree: ast.Module, line: int, lines: Sequence[str], column: int | None = None) -> Span | None:
    """Span of the statement or clause holding *line*; None outside any statement.

    *lines* are the file's lines (1-based via ``lines[n - 1]``), used to find
    ``else:`` and ``finally:`` headers, which the ``ast`` does not locate, and
    comment lines. *column* is where the match text starts on the line.
    """
    return compact_span(compact(tree.body, lines), line, lines, column)


#: The fields of each compound statement that hold statement lists, in source order.
_BODIES: dict[type, tuple[str, ...]] = {
    ast.FunctionDef: ("body",), ast.AsyncFunctionDef: ("body",), ast.ClassDef: ("body",),
    ast.If: ("body", "orelse"), ast.For: ("body", "orelse"), ast.AsyncFor: ("body", "orelse"),
    ast.While: ("body", "orelse"), ast.With: ("body",), ast.AsyncWith: ("body",),
    **{kind: ("body", "orelse", "finalbody") for kind in _TRY}}
#: The fields of each compound statement's header that can end below its first line (the
#: expressions; a ``withitem`` and a function's ``arguments`` carry no position of their own).
_HEADERS: dict[type, tuple[str, ...]] = {
    ast.FunctionDef: ("decorator_list", "returns", "type_params"),
    ast.AsyncFunctionDef: ("decorator_list", "returns", "type_params"),
    ast.ClassDef: ("bases", "keywords", "decorator_list", "type_params"),
    ast.If: ("test",), ast.While: ("test",), ast.For: ("target", "iter"), ast.AsyncFor: ("target", "iter"),
    ast.Match: ("subject",)}


def child_bodies(node: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists directly inside *node*: body, ``else``, ``finally``, then handlers or cases."""
    kind = node.__class__
    if kind is ast.Match:
        return [case.body for case in node.cases]  # type: ignore[attr-defined]
    fields = _BODIES.get(kind)
    if fields is None:
        return []
    bodies = [body for body in (getattr(node, name) for name in fields) if body]
    if kind in _TRY:
        bodies += [handler.body for handler in node.handlers]  # type: ignore[attr-defined]
    return bodies


def _header_end(node: ast.stmt) -> int:
    """The last line of a compound statement's header expressions (its first line when it has none)."""
    end = node.lineno
    children: list[ast.AST | None] = []
    for name in _HEADERS.get(node.__class__, ()):
        value = getattr(node, name, None)
        children.extend(value if isinstance(value, list) else (value,))
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        params = node.args
        children += [*params.posonlyargs, *params.args, params.vararg, *params.kwonlyargs, params.kwarg,
                     *params.defaults, *params.kw_defaults]
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        children += [part for item in node.items for part in (item.context_expr, item.optional_vars)]
    for child in children:
        last = getattr(child, "end_lineno", None)
        if last is not None and last > end:
            end = last
    return end


def _end(body: Sequence[ast.stmt]) -> int:
    return max(node_span(s)[1] for s in body)


def _keyword_line(lines: Sequence[str], after: int, before: int, keyword: str) -> int:
    """First line in (after, before) whose code starts with *keyword* (``else``/``finally``)."""
    for number in range(after + 1, before):
        text = lines[number - 1].lstrip()
        if text.startswith(keyword) and text[len(keyword):].lstrip().startswith(":"):
            return number
    return before


def _clauses(node: ast.stmt, lines: Sequence[str]) -> list[Span]:
    """The clauses of a compound statement, each (header start, end of its own body)."""
    if isinstance(node, ast.If):
        spans = [(node.lineno, _end(node.body))]
        if node.orelse and not _is_elif(node.orelse, lines):
            head = _keyword_line(lines, _end(node.body), node_span(node.orelse[0])[0], "else")
            spans.append((head, _end(node.orelse)))
        return spans
    if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
        spans = [(node.lineno, _end(node.body))]
        if node.orelse:
            head = _keyword_line(lines, _end(node.body), node_span(node.orelse[0])[0], "else")
            spans.append((head, _end(node.orelse)))
        return spans
    if isinstance(node, _TRY):
        spans = [(node.lineno, _end(node.body))]
        last = _end(node.body)
        for handler in node.handlers:
            spans.append((handler.lineno, _end(handler.body)))
            last = _end(handler.body)
        if node.orelse:
            head = _keyword_line(lines, last, node_span(node.orelse[0])[0], "else")
            spans.append((head, _end(node.orelse)))
            last = _end(node.orelse)
        if node.finalbody:
            head = _keyword_line(lines, last, node_span(node.finalbody[0])[0], "finally")
            spans.append((head, _end(node.finalbody)))
        return spans
    if isinstance(node, ast.Match):
        return [(_case_line(lines, case.pattern.lineno), _end(case.body)) for case in node.cases]
    return []


def _case_line(lines: Sequence[str], pattern_line: int) -> int:
    """The ``case`` keyword's line: a bracketed pattern may start lines below it."""
    for number in range(pattern_line, 0, -1):
        if lines[number - 1].lstrip().startswith("case"):
            return number
    return pattern_line


def _is_elif(orelse: Sequence[ast.stmt], lines: Sequence[str]) -> bool:
    """Whether an ``orelse`` is an ``elif`` (a lone ``If`` starting with the keyword)."""
    if len(orelse) != 1 or not isinstance(orelse[0], ast.If):
        return False
    return lines[orelse[0].lineno - 1].lstrip().startswith("elif")


#: A statement in a compact index: (start, end, clause spans, child statements, (line, column) where
#: it starts and ends, last line of its header; for a simple statement, its first line). Tuples of
#: ints only, so the garbage collector stops tracking them, unlike the syntax tree they are read from.
Compact = tuple[int, int, tuple[Span, ...], tuple["Compact", ...], tuple[int, int, int, int], int]

#: Statements that hold statements; every other statement is simple (one line range, no children).
_COMPOUND = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor,
                       ast.While, ast.With, ast.AsyncWith, ast.Match, *_TRY})
_NONE: tuple[()] = ()
_WITH = (ast.With, ast.AsyncWith)


def compact(body: Sequence[ast.stmt], lines: Sequence[str]) -> tuple[Compact, ...]:
    """The statements of *body*, nested, with their clause spans: all :func:`compact_span` needs.

    Most statements are simple; they take one tuple and no further look (this runs over every
    statement of every file parsed, so it is kept to the attributes the rule reads).
    """
    out: list[Compact] = []
    append = out.append
    for node in body:
        first = node.lineno
        last = node.end_lineno or first
        where = (first, node.col_offset, last, node.end_col_offset or 0)
        kind = node.__class__
        if kind not in _COMPOUND:
            append((first, last, _NONE, _NONE, where, first))
            continue
        start = node_span(node)[0] if kind in _DEFS else first
        children: list[Compact] = []
        for sub in child_bodies(node):
            children.extend(compact(sub, lines))
        clauses = tuple(_clauses(node, lines)) if kind not in _DEFS and kind not in _WITH else _NONE
        append((start, last, clauses, tuple(children), where, _header_end(node)))
    return tuple(out)


def compact_span(statements: tuple[Compact, ...], line: int, lines: Sequence[str] | None = None,
                 column: int | None = None) -> Span | None:
    """The statement rule (see the module docstring) over a :func:`compact` index of the whole file.

    With *column*, of the statements sharing *line* the one holding that column is chosen, and a
    statement that starts on *line* after the column is not descended into (``if x: y = 1``).
    """
    found: Compact | None = None
    level = statements
    while True:
        holders = [node for node in level if node[0] <= line <= node[1]]
        if not holders:
            break
        node = holders[0]
        if column is not None and len(holders) > 1:
            node = next((n for n in holders if _holds(n, line, column)), node)
        if found is not None and column is not None and _starts_after(node, line, column):
            break  # the column is in the header, before a statement on the same line
        found, level = node, node[3]
    if found is None:
        return None
    if lines is not None and found[3] and line > found[5] and lines[line - 1].lstrip().startswith("#"):
        return line, line  # a comment in a body, held by no statement of it
    if not found[2] and found[4][0] < line <= found[5]:
        return line, line  # a line of a header below its first line: a parameter, a base, a with item
    for start, end in found[2]:
        if start <= line <= end:
            return start, end
    return found[0], found[1]


def _holds(node: Compact, line: int, column: int) -> bool:
    first, col, last, end_col = node[4]
    start = (node[0], 0) if node[0] < first else (first, col)
    return start <= (line, column) < (last, end_col)


def _starts_after(node: Compact, line: int, column: int) -> bool:
    return node[0] == node[4][0] == line and column < node[4][1]
