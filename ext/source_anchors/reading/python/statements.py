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
- A line inside a multi-line collection display of a simple statement (a dict
  entry, a list item) is that element's lines: the element rule of
  :mod:`.displays`.
"""

from __future__ import annotations

import ast
import tokenize
from collections.abc import Sequence

from .displays import element_span

Span = tuple[int, int]

_DEFSET = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_TRY = (ast.Try, ast.TryStar) if hasattr(ast, "TryStar") else (ast.Try,)


def node_span(node: ast.stmt) -> Span:
    """Lines of *node*, from its first decorator for a definition."""
    start = node.lineno
    if node.__class__ in _DEFSET and node.decorator_list:  # type: ignore[attr-defined]
        start = min(start, *(d.lineno for d in node.decorator_list))  # type: ignore[attr-defined]
    return start, node.end_lineno or node.lineno


def statement_span(
    tree: ast.Module, line: int, lines: Sequence[str], column: int | None = None
) -> Span | None:
    """Span of the statement or clause holding *line*; None outside any statement.

    *lines* are the file's lines (1-based via ``lines[n - 1]``), used to find
    ``else:`` and ``finally:`` headers, which the ``ast`` does not locate, and
    comment lines. *column* is where the match text starts on the line.
    """
    return compact_span(compact(tree.body, lines), line, lines, column)


#: Statements with one body; statements with a body and an ``else``.
_ONE_BODY = frozenset(
    {ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.AsyncWith}
)
_WITH_ELSE = frozenset({ast.If, ast.For, ast.AsyncFor, ast.While})


def child_bodies(node: ast.stmt) -> list[list[ast.stmt]]:
    """The statement lists directly inside *node*: body, ``else``, ``finally``, then handlers or cases.

    This runs for every compound statement of every file parsed: plain attribute reads, no loop.
    """
    kind = node.__class__
    if kind in _ONE_BODY:
        return [node.body]  # type: ignore[attr-defined]
    if kind in _WITH_ELSE:
        orelse = node.orelse  # type: ignore[attr-defined]
        return [node.body, orelse] if orelse else [node.body]  # type: ignore[attr-defined]
    if kind in _TRY:
        bodies = [body for body in (node.body, node.orelse, node.finalbody) if body]  # type: ignore[attr-defined]
        return bodies + [handler.body for handler in node.handlers]  # type: ignore[attr-defined]
    if kind is ast.Match:
        return [case.body for case in node.cases]  # type: ignore[attr-defined]
    return []


def _end(body: Sequence[ast.stmt]) -> int:
    """The last line of a statement list: its last statement's (statements follow one another)."""
    last = body[-1]
    return last.end_lineno or last.lineno


def _keyword_line(lines: Sequence[str], after: int, before: int, keyword: str) -> int:
    """First line in (after, before) whose code starts with *keyword* (``else``/``finally``)."""
    for number in range(after + 1, before):
        text = lines[number - 1].lstrip()
        if text.startswith(keyword) and text[len(keyword) :].lstrip().startswith(":"):
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


#: A statement in a compact index: (start, end, clause spans, child statements, then the line and
#: column where it starts and ends). Tuples of ints only, so the garbage collector stops tracking
#: them, unlike the syntax tree they are read from.
Compact = tuple[int, int, tuple[Span, ...], tuple["Compact", ...], int, int, int, int]

_NONE: tuple[()] = ()
_SIMPLE = -1
#: How :func:`compact` treats each compound statement: 0 a definition (span from its first
#: decorator, no clauses), 1 a ``with`` (no clauses), 2 a statement with clauses. Any other
#: statement is simple.
_KINDS: dict[type, int] = {
    ast.FunctionDef: 0,
    ast.AsyncFunctionDef: 0,
    ast.ClassDef: 0,
    ast.With: 1,
    ast.AsyncWith: 1,
    ast.If: 2,
    ast.For: 2,
    ast.AsyncFor: 2,
    ast.While: 2,
    ast.Match: 2,
    **{kind: 2 for kind in _TRY},
}
#: Compound statements whose bodies run in the scope they are in (a def or a class opens another).
SAME_SCOPE = frozenset(kind for kind, how in _KINDS.items() if how)


def compact(body: Sequence[ast.stmt], lines: Sequence[str]) -> tuple[Compact, ...]:
    """The statements of *body*, nested, with their clause spans: all :func:`compact_span` needs.

    This runs over every statement of every file parsed, so it reads only the attributes the rule
    needs: a simple statement costs one tuple; a header's last line is found when a query needs it.
    """
    out: list[Compact] = []
    append = out.append
    kinds = _KINDS
    for node in body:
        first = node.lineno
        last = node.end_lineno or first
        kind = kinds.get(node.__class__, _SIMPLE)
        if kind == _SIMPLE:
            append(
                (first, last, _NONE, _NONE, first, node.col_offset, last, node.end_col_offset or 0)
            )
            continue
        start = first
        if kind == 0 and node.decorator_list:  # type: ignore[attr-defined]
            start = min(first, *(d.lineno for d in node.decorator_list))  # type: ignore[attr-defined]
        children: list[Compact] = []
        for sub in child_bodies(node):
            children.extend(compact(sub, lines))
        clauses = tuple(_clauses(node, lines)) if kind == 2 else _NONE
        append(
            (
                start,
                last,
                clauses,
                tuple(children),
                first,
                node.col_offset,
                last,
                node.end_col_offset or 0,
            )
        )
    return tuple(out)


def compact_span(
    statements: tuple[Compact, ...],
    line: int,
    lines: Sequence[str] | None = None,
    column: int | None = None,
) -> Span | None:
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
    if found[3] and line > found[4] and lines is not None:
        header_end = _header_end(lines, found[4])
        if line > header_end and lines[line - 1].lstrip().startswith("#"):
            return line, line  # a comment in a body, held by no statement of it
        if not found[2] and line <= header_end:
            return (
                line,
                line,
            )  # a line of a header below its first line: a parameter, a base, a with item
    elif not found[3] and found[4] < found[6] and lines is not None:
        element = element_span(lines, found[4:], line, column)
        if element is not None:
            return element  # one entry of a multi-line dict, one item of a list (the element rule)
    for start, end in found[2]:
        if start <= line <= end:
            return start, end
    return found[0], found[1]


def _header_end(lines: Sequence[str], first: int) -> int:
    """The line of the colon that ends the header of the compound statement starting on line *first*.

    The colon is the first ``:`` outside brackets that no ``lambda`` takes; read with
    :mod:`tokenize` from *first* on, so strings and comments in the header are skipped as Python
    skips them.
    """
    depth = lambdas = 0
    rows = (line + "\n" for line in lines[first - 1 :])
    try:
        for token in tokenize.generate_tokens(lambda: next(rows, "")):
            if token.type == tokenize.OP:
                if token.string in "([{":
                    depth += 1
                elif token.string in ")]}":
                    depth -= 1
                elif token.string == ":" and depth == 0:
                    if not lambdas:
                        return first + token.start[0] - 1
                    lambdas -= 1
            elif token.type == tokenize.NAME and token.string == "lambda" and depth == 0:
                lambdas += 1
    except (tokenize.TokenError, SyntaxError):
        pass
    return first


def _holds(node: Compact, line: int, column: int) -> bool:
    first, col, last, end_col = node[4:]
    start = (node[0], 0) if node[0] < first else (first, col)
    return start <= (line, column) < (last, end_col)


def _starts_after(node: Compact, line: int, column: int) -> bool:
    return node[0] == node[4] == line and column < node[5]
