"""Find the statement or clause that holds a line (pure ``ast``).

The rule: the innermost statement whose span holds the line, where a
definition's span starts at its first decorator. When the line is in the header
of a clause (``if``/``elif``/``else``, ``for``/``while`` and their ``else``,
``with``, ``try``/``except``/``else``/``finally``, ``case``), the span is that
clause: its header and its own body, not the rest of the chain.
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


def innermost(body: Sequence[ast.stmt], line: int) -> ast.stmt | None:
    """The innermost statement in *body* (recursively) whose span holds *line*."""
    for node in body:
        start, end = node_span(node)
        if start <= line <= end:
            for child_body in child_bodies(node):
                deeper = innermost(child_body, line)
                if deeper is not None:
                    return deeper
            return node
    return None


def statement_span(tree: ast.Module, line: int, lines: Sequence[str]) -> Span | None:
    """Span of the statement or clause holding *line*; None outside any statement.

    *lines* are the file's lines (1-based via ``lines[n - 1]``), used to find
    ``else:`` and ``finally:`` headers, which the ``ast`` does not locate.
    """
    node = innermost(tree.body, line)
    if node is None:
        return None
    for start, end in _clauses(node, lines):
        if start <= line <= end:
            return start, end
    return node_span(node)


def child_bodies(node: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists directly inside *node*: bodies, ``else``/``finally``, handlers, cases."""
    bodies: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        value = getattr(node, name, None)
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
            bodies.append(value)
    for handler in getattr(node, "handlers", []):
        bodies.append(handler.body)
    for case in getattr(node, "cases", []):
        bodies.append(case.body)
    return bodies


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


#: A statement in a compact index: (start, end, clause spans, child statements). Tuples of ints only,
#: so the garbage collector stops tracking them, unlike the syntax tree they are read from.
Compact = tuple[int, int, tuple[Span, ...], tuple["Compact", ...]]


def compact(body: Sequence[ast.stmt], lines: Sequence[str]) -> tuple[Compact, ...]:
    """The statements of *body*, nested, with their clause spans: all :func:`compact_span` needs."""
    return tuple((*node_span(node), tuple(_clauses(node, lines)),
                  tuple(child for sub in child_bodies(node) for child in compact(sub, lines)))
                 for node in body)


def compact_span(statements: tuple[Compact, ...], line: int) -> Span | None:
    """:func:`statement_span` over a :func:`compact` index of the whole file."""
    found: Compact | None = None
    level = statements
    while True:
        for node in level:
            if node[0] <= line <= node[1]:
                found, level = node, node[3]
                break
        else:
            break
    if found is None:
        return None
    for start, end in found[2]:
        if start <= line <= end:
            return start, end
    return found[0], found[1]
