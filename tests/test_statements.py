"""Tests for ``source_anchors.reading.python.statements``: the statement and clause rule (pure ``ast``).

Every expected span is computed from the source text written here: ``line_of``
finds the one line holding a needle, so the tables name lines by their text.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from source_anchors.reading.python.statements import node_span, statement_span


def line_of(text: str, needle: str) -> int:
    """The 1-based number of the only line of *text* containing *needle*."""
    hits = [number for number, line in enumerate(text.splitlines(), start=1) if needle in line]
    assert len(hits) == 1, f"{needle!r} is on lines {hits}, expected exactly one"
    return hits[0]


def span_at(text: str, needle: str) -> tuple[int, int] | None:
    """The span the rule gives for the line holding *needle*."""
    return statement_span(ast.parse(text), line_of(text, needle), text.splitlines())


def expected(text: str, start: str, end: str) -> tuple[int, int]:
    return line_of(text, start), line_of(text, end)


IF_CHAIN = """\
import os


def classify(a):
    if a > 1:
        r = "big"
        r += "!"
    elif a == 1:
        r = "one"
    elif a == 0:
        # zero is special
        r = "zero"
    else:
        r = "small"
        r += "?"
    return r
"""

LOOPS = """\
def walk(items):
    for item in items:
        if item:
            break
    else:  # for-else
        item = None
        log(item)
    while item:
        item = item.next
    else:  # while-else
        done = True
        log(done)
    return item
"""

WITH = """\
async def save(path, lock, other):
    with open(path) as f:
        data = f.read()
        size = len(data)
    async with lock:
        await flush(data)
        await sync(data)
    with (
        open(path) as fa,
        open(other) as fb,
    ):
        copy(fa, fb)
    async for chunk in stream(data):
        await send(chunk)
    return size
"""

TRY = """\
def attempt():
    try:  # main
        value = compute()
        check(value)
    except ValueError as error:
        log(error)
        value = None
    except (TypeError, KeyError):
        value = 0
    else:
        value += 1
        log(value)
    finally:
        cleanup()
        log("done")
    try:  # no handlers
        step()
    finally :  # spaced keyword
        undo()
    try:  # star
        go()
    except* OSError:
        retry()
    return value
"""

MATCH = """\
def dispatch(command):
    match command.split():
        case [action]:
            run(action)
            log(action)
        case [action, obj] if obj:
            run(action, obj)
        case _:
            fail(command)
"""

MULTI = """\
RESULT = combine(
    first,
    second,
)  # end combine


def check(a, b):
    if (
        a > 1
        and b < 2
    ):  # end if header
        return a
    elif (
        a < 0
        or b > 5
    ):  # end elif header
        return b
    else:
        total = add(
            a,
            b,
        )  # end add
        return total
"""

NESTED = """\
import functools


class Outer:
    x = 1

    @staticmethod
    @functools.cache
    def helper(
        value,
    ):
        return value

    @functools.total_ordering
    class Inner:
        y = 2

        def method(self):
            return self.y


def outer():
    @functools.wraps(
        outer,
    )
    def inner():
        return 1

    return inner
"""


@pytest.mark.parametrize(
    ("text", "line", "start", "end"),
    [
        # if / elif / elif / else: each header gives its own clause only.
        pytest.param(IF_CHAIN, "if a > 1:", "if a > 1:", 'r += "!"', id="if"),
        pytest.param(IF_CHAIN, "elif a == 1:", "elif a == 1:", 'r = "one"', id="elif"),
        pytest.param(IF_CHAIN, "elif a == 0:", "elif a == 0:", 'r = "zero"', id="second-elif"),
        pytest.param(IF_CHAIN, "else:", "else:", 'r += "?"', id="if-else"),
        # A comment line that no statement holds is its own span (issue 13: it anchored the clause
        # or function).
        pytest.param(
            IF_CHAIN,
            "# zero is special",
            "# zero is special",
            "# zero is special",
            id="comment-in-elif-body",
        ),
        # for / while and their else.
        pytest.param(LOOPS, "for item in items:", "for item in items:", "break", id="for"),
        pytest.param(LOOPS, "# for-else", "# for-else", "log(item)", id="for-else"),
        pytest.param(LOOPS, "while item:", "while item:", "item = item.next", id="while"),
        pytest.param(LOOPS, "# while-else", "# while-else", "log(done)", id="while-else"),
        pytest.param(LOOPS, "if item:", "if item:", "break", id="if-in-for"),
        # with, async with, a parenthesised with header, async for.
        pytest.param(
            WITH, "with open(path) as f:", "with open(path) as f:", "size = len(data)", id="with"
        ),
        pytest.param(
            WITH, "async with lock:", "async with lock:", "await sync(data)", id="async-with"
        ),
        pytest.param(
            WITH,
            "open(other) as fb,",
            "open(other) as fb,",
            "open(other) as fb,",
            id="with-multiline-header",
        ),
        pytest.param(
            WITH, "async for chunk", "async for chunk", "await send(chunk)", id="async-for"
        ),
        # try / except / except / else / finally; try-finally; except*.
        pytest.param(TRY, "# main", "# main", "check(value)", id="try"),
        pytest.param(TRY, "# no handlers", "# no handlers", "step()", id="try-without-handlers"),
        pytest.param(TRY, "# star", "# star", "go()", id="try-with-except-star"),
        pytest.param(TRY, "except ValueError", "except ValueError", "value = None", id="except"),
        pytest.param(
            TRY, "except (TypeError", "except (TypeError", "value = 0", id="second-except"
        ),
        pytest.param(TRY, "else:", "else:", "log(value)", id="try-else"),
        pytest.param(TRY, "finally:", "finally:", 'log("done")', id="finally"),
        pytest.param(TRY, "finally :", "finally :", "undo()", id="finally-spaced-no-handlers"),
        pytest.param(TRY, "except* OSError", "except* OSError", "retry()", id="except-star"),
        # match: a case header gives that case; the match header the whole statement.
        pytest.param(MATCH, "case [action]:", "case [action]:", "log(action)", id="case"),
        pytest.param(
            MATCH, "case [action, obj]", "case [action, obj]", "run(action, obj)", id="case-guard"
        ),
        pytest.param(MATCH, "case _:", "case _:", "fail(command)", id="case-wildcard"),
        pytest.param(MATCH, "match command", "match command", "fail(command)", id="match"),
        # Multi-line statements are taken whole, from any of their lines.
        pytest.param(
            MULTI, "    second,", "RESULT = combine(", "# end combine", id="multiline-assign"
        ),
        pytest.param(
            MULTI, "# end combine", "RESULT = combine(", "# end combine", id="multiline-assign-last"
        ),
        # A multi-line condition is part of the header.
        pytest.param(MULTI, "and b < 2", "    if (", "return a", id="multiline-if-condition"),
        pytest.param(MULTI, "# end if header", "    if (", "return a", id="multiline-if-closing"),
        pytest.param(MULTI, "or b > 5", "elif (", "return b", id="multiline-elif-condition"),
        # A line of a simple statement inside a clause body gives that statement only.
        pytest.param(
            MULTI, "            b,", "total = add(", "# end add", id="simple-in-else-body"
        ),
        pytest.param(
            MULTI, "return total", "return total", "return total", id="return-in-else-body"
        ),
        pytest.param(IF_CHAIN, 'r = "one"', 'r = "one"', 'r = "one"', id="simple-in-elif-body"),
        # Decorated definitions start at their first decorator.
        pytest.param(
            NESTED, "@functools.cache", "@staticmethod", "return value", id="second-decorator"
        ),
        pytest.param(
            NESTED, "@staticmethod", "@staticmethod", "return value", id="first-decorator"
        ),
        pytest.param(
            NESTED, "        value,", "        value,", "        value,", id="multiline-signature"
        ),
        pytest.param(
            NESTED, "class Inner:", "@functools.total_ordering", "return self.y", id="nested-class"
        ),
        pytest.param(
            NESTED, "def method", "def method", "return self.y", id="method-in-nested-class"
        ),
        pytest.param(NESTED, "y = 2", "y = 2", "y = 2", id="class-attribute"),
        pytest.param(
            NESTED, "        outer,", "@functools.wraps(", "return 1", id="nested-def-decorator-arg"
        ),
        pytest.param(NESTED, "def inner", "@functools.wraps(", "return 1", id="nested-def"),
    ],
)
def test_clause_or_statement(text: str, line: str, start: str, end: str) -> None:
    assert span_at(text, line) == expected(text, start, end)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (IF_CHAIN, 0),  # before the first line
        (IF_CHAIN, IF_CHAIN.splitlines().index("") + 1),  # the first blank line, between statements
        (IF_CHAIN, len(IF_CHAIN.splitlines()) + 5),  # past the end
    ],
)
def test_outside_any_statement(text: str, line: int) -> None:
    assert statement_span(ast.parse(text), line, text.splitlines()) is None


def test_top_level_comment_is_outside_any_statement() -> None:
    text = "x = 1\n# a comment\ny = 2\n"
    assert statement_span(ast.parse(text), 2, text.splitlines()) is None


def test_whole_statement_when_the_line_is_in_no_clause() -> None:
    # A blank line between the end of the if body and 'else:' is in the if statement
    # but in none of its clauses: the whole statement is given.
    text = "def f(a):\n    if a:\n        x = 1\n\n    else:\n        x = 2\n    return x\n"
    assert statement_span(ast.parse(text), 4, text.splitlines()) == (2, 6)


def test_one_line_clauses() -> None:
    text = "if a: x = 1\nelif b: x = 2\nelse: x = 3\n"
    tree, lines = ast.parse(text), text.splitlines()
    assert [statement_span(tree, n, lines) for n in (1, 2, 3)] == [(1, 1), (2, 2), (3, 3)]


def test_else_holding_only_an_if_is_not_an_elif() -> None:
    text = """\
if a:
    x = 1
else:
    if b:
        x = 2
    else:  # inner
        x = 3
"""
    # The outer 'else:' clause holds the whole nested if statement.
    outer_else = text.splitlines().index("else:") + 1
    assert statement_span(ast.parse(text), outer_else, text.splitlines()) == (
        outer_else,
        line_of(text, "x = 3"),
    )
    # The nested 'if' header gives the nested if clause only.
    assert span_at(text, "    if b:") == expected(text, "    if b:", "x = 2")
    assert span_at(text, "# inner") == expected(text, "# inner", "x = 3")


PARENTHESISED_CASE = """\
def dispatch(code):
    match code:
        case (
            1
            | 2
        ):
            small(code)
        case _:
            big(code)
"""


@pytest.mark.parametrize("line", ["case (", "| 2"])
def test_case_with_parenthesised_pattern_on_later_lines(line: str) -> None:
    text = PARENTHESISED_CASE
    assert span_at(text, line) == expected(text, "case (", "small(code)")


def test_the_closing_line_of_a_long_signature_is_a_header_line() -> None:
    text = "def build(\n    first,\n    second,\n) -> dict:\n    # body\n    return {}\n"
    assert span_at(text, ") -> dict:") == expected(text, ") -> dict:", ") -> dict:")
    assert span_at(text, "# body") == expected(text, "# body", "# body")  # a comment in the body
    assert span_at(text, "return {}") == expected(text, "return {}", "return {}")


def test_a_lambda_in_a_header_does_not_end_it() -> None:
    text = "with patch(key=lambda: 0,\n           other=1) as p:\n    use(p)\n"
    assert span_at(text, "other=1") == expected(text, "other=1", "other=1")
    text = "for x in sorted(items,\n                key=lambda i: i.n):\n    # loop\n    use(x)\n"
    assert span_at(text, "# loop") == expected(text, "# loop", "# loop")


STDLIB = (
    "argparse",
    "ast",
    "dataclasses",
    "inspect",
    "typing",
    "tokenize",
    "pathlib",
    "functools",
    "enum",
    "subprocess",
    "zipfile",
    "tarfile",
    "email.message",
    "http.client",
    "json.decoder",
    "asyncio.tasks",
)


@pytest.mark.parametrize("name", STDLIB)
def test_header_ends_agree_with_the_syntax_tree_over_the_stdlib(name: str) -> None:
    # The header end is read with tokenize when a query needs it; the syntax tree bounds it: at or
    # after every header expression, at or before the body, on a line holding a colon, and only
    # blank or comment lines between it and the body.
    import importlib.util

    from source_anchors.reading.python.statements import _header_end

    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    text = Path(spec.origin).read_text("utf-8")
    lines = text.splitlines()
    checked = 0
    for node in ast.walk(ast.parse(text)):
        if not isinstance(
            node,
            (
                ast.FunctionDef,
                ast.AsyncFunctionDef,
                ast.ClassDef,
                ast.With,
                ast.AsyncWith,
                ast.If,
                ast.For,
                ast.AsyncFor,
                ast.While,
            ),
        ):
            continue
        parts: list[ast.AST] = [
            getattr(node, f)
            for f in ("test", "iter", "target", "returns")
            if getattr(node, f, None)
        ]
        parts += [*getattr(node, "bases", []), *getattr(node, "keywords", [])]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            parts += [*node.args.args, *node.args.kwonlyargs, *node.args.defaults]
        if isinstance(node, (ast.With, ast.AsyncWith)):
            parts += [item.context_expr for item in node.items]
        end = _header_end(lines, node.lineno)
        lowest = max([node.lineno, *(getattr(p, "end_lineno", 0) or 0 for p in parts)])
        body = node_span(node.body[0])[0]
        assert lowest <= end <= body, (name, node.lineno)
        assert ":" in lines[end - 1], (name, node.lineno)
        assert all(not s.strip() or s.strip().startswith("#") for s in lines[end : body - 1]), (
            name,
            node.lineno,
        )
        checked += 1
    assert checked > 20


# -- the element rule: one element of a multi-line collection display ---------------------------

DISPLAYS = '''\
DEFAULTS: dict = {
    "RETRIEVER": "tavily",
    "SMART_LLM": "gpt-4.1",  # long answers
    # settings of the deep mode
    "DEEP": {"BREADTH": 3,
             "DEPTH": 2},
    **EXTRA,
    "PAIRS": [1, 2,
              3], "LAST": 4,
}
ORDER = [
    "first",
    """a long
    second""",
]
CALL = build(
    name="x",
    license="MIT",
)
ROWS = [row for row in range(
    1,
    2)]
SENT = send(messages=[
    {"role": "system"},
    {"role": "user"},
])
'''


def span_from(text: str, needle: str) -> tuple[int, int] | None:
    """The span for a match text *needle*, the column where it starts given as the resolver gives it."""
    lines = text.splitlines()
    line = line_of(text, needle)
    return statement_span(ast.parse(text), line, lines, lines[line - 1].find(needle))


@pytest.mark.parametrize(
    ("needle", "start", "end"),
    [
        pytest.param('"RETRIEVER": "tavily"', '"RETRIEVER"', '"RETRIEVER"', id="dict-entry"),
        pytest.param('"tavily"', '"RETRIEVER"', '"RETRIEVER"', id="dict-value"),
        pytest.param("long answers", '"SMART_LLM"', '"SMART_LLM"', id="comment-after-an-entry"),
        pytest.param('"DEEP": {', '"DEEP": {', '"DEPTH": 2}', id="multi-line-entry-from-its-key"),
        pytest.param('"BREADTH"', '"DEEP": {', '"DEEP": {', id="nested-display-innermost"),
        pytest.param('"DEPTH": 2', '"DEPTH": 2', '"DEPTH": 2', id="nested-display-later-line"),
        pytest.param("**EXTRA", "**EXTRA", "**EXTRA", id="double-star-entry"),
        pytest.param("3]", "3]", "3]", id="list-item-in-a-dict-value"),
        pytest.param('"LAST"', '3], "LAST"', '3], "LAST"', id="second-element-on-a-line"),
        pytest.param('"PAIRS"', '"PAIRS"', '3], "LAST"', id="multi-line-element"),
        pytest.param('"first"', '"first"', '"first"', id="list-item"),
        pytest.param("second", '"""a long', 'second"""', id="multi-line-string-item"),
    ],
)
def test_a_match_on_an_element_anchors_the_element(needle: str, start: str, end: str) -> None:
    assert span_from(DISPLAYS, needle) == expected(DISPLAYS, start, end)


@pytest.mark.parametrize(
    ("needle", "start", "end"),
    [
        pytest.param(
            "DEFAULTS: dict = {", "DEFAULTS", "ORDER = [", id="before-the-opening-bracket"
        ),
        pytest.param(
            "# settings of the deep", "DEFAULTS", "ORDER = [", id="comment-line-no-element"
        ),
        pytest.param(
            'license="MIT"', "CALL = build(", "ROWS = [", id="call-arguments-are-no-display"
        ),
        pytest.param("2)]", "ROWS =", "SENT =", id="a-comprehension-over-a-call"),
        pytest.param('"role": "system"', "SENT =", "", id="a-display-passed-to-a-call"),
    ],
)
def test_the_statement_stands_where_no_element_holds_the_match(
    needle: str, start: str, end: str
) -> None:
    # The statement runs to the line before *end*'s (the closing bracket is on no line of its own
    # here).
    last = line_of(DISPLAYS, end) - 1 if end else len(DISPLAYS.splitlines())
    assert span_from(DISPLAYS, needle) == (line_of(DISPLAYS, start), last)


def test_the_element_rule_is_not_applied_in_a_header_or_a_body() -> None:
    # Headers keep their own rules (a def's parameter line, a clause), and a statement in a block
    # is found first: the rule narrows only inside the simple statement the match is in.
    text = 'def f(a=[\n        1,\n        2]):\n    return {\n        "k": a,\n    }\n'
    assert span_from(text, "        1,") == expected(
        text, "        1,", "        1,"
    )  # the header-line rule
    assert span_from(text, '"k": a') == expected(text, '"k": a', '"k": a')


def test_elements_on_the_first_line_after_a_statement_on_the_same_line() -> None:
    text = 'x = 1; y = {"a": 1,\n           "b": 2}\n'
    assert span_from(text, '"a": 1') == (1, 1)
    assert span_from(text, "y = {") == (1, 2)
    assert span_from(text, "x = 1") == (1, 1)


def test_each_element_of_the_stdlib_displays_is_its_own_anchor() -> None:
    # Oracle, from the syntax tree of the whole file: every item of an innermost multi-line display
    # in a module-level simple statement, when it has its lines to itself and is matched where it
    # starts, gives its own lines; the statement's first line matched at its first column gives the
    # statement.
    import importlib.util

    checked = 0
    for name in STDLIB:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None
        text = Path(spec.origin).read_text("utf-8")
        lines, tree = text.splitlines(), ast.parse(text)
        for statement in tree.body:
            if (
                isinstance(
                    statement,
                    (
                        ast.FunctionDef,
                        ast.AsyncFunctionDef,
                        ast.ClassDef,
                        ast.If,
                        ast.For,
                        ast.While,
                        ast.With,
                        ast.Try,
                    ),
                )
                or statement.end_lineno == statement.lineno
            ):
                continue
            assert statement_span(tree, statement.lineno, lines, statement.col_offset) == (
                statement.lineno,
                statement.end_lineno,
            )
            for display in _written_out(getattr(statement, "value", None)):
                if not any(
                    _multi_line_display(inner)
                    for inner in _written_out(display)
                    if inner is not display
                ):
                    checked += _check_items(tree, lines, display, name)
    assert checked > 200, checked


def _written_out(node: ast.AST | None) -> list[ast.expr]:
    """The multi-line displays *node* is or holds through displays only (the rule's reach)."""
    if node is None or not _multi_line_display(node):
        return []
    assert isinstance(node, (ast.Dict, ast.List, ast.Set, ast.Tuple))
    parts = [*node.keys, *node.values] if isinstance(node, ast.Dict) else node.elts
    return [node, *(inner for part in parts if part is not None for inner in _written_out(part))]


def _multi_line_display(node: ast.AST) -> bool:
    return (
        isinstance(node, (ast.Dict, ast.List, ast.Set, ast.Tuple))
        and node.end_lineno != node.lineno
    )


def _check_items(tree: ast.Module, lines: list[str], display: ast.expr, name: str) -> int:
    """Check each item of *display* that has its lines to itself; return how many were checked."""
    if isinstance(display, ast.Dict):
        extents = [
            (k if k is not None else v, v)
            for k, v in zip(display.keys, display.values, strict=True)
        ]
    else:
        extents = [(item, item) for item in display.elts]  # type: ignore[attr-defined]
    checked = 0
    for first, last in extents:
        shared = [
            f
            for f, la in extents
            if f is not first
            and f.lineno <= (last.end_lineno or 0)
            and (la.end_lineno or 0) >= first.lineno
        ]
        if shared or first.lineno == display.lineno:
            continue
        column = len(lines[first.lineno - 1].encode()[: first.col_offset].decode())
        got = statement_span(tree, first.lineno, lines, column)
        assert got == (first.lineno, last.end_lineno), (name, first.lineno)
        checked += 1
    return checked
