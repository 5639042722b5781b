"""A changed excerpt told ``code`` by the statements inside it (``reading.python.changes.classify``'s parts).

The oracle is the same function without the parts: over class and function statements of real
modules (the standard library's, read as text), each changed as upstream code changes (a member
moved, copied or removed, a comment or a docstring edited, a line reflowed), the class with the
parts must be the class without them, and the parts must decide most ``code`` changes alone.
"""

from __future__ import annotations

import ast
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.model.changeclass import ChangeClass
from source_anchors.model.config import settings_from
from source_anchors.model.textlines import split_lines
from source_anchors.reading.python import changes
from source_anchors.reading.python.changes import Parts, classify
from source_anchors.reading.python.dedent import dedent
from source_anchors.reading.python.statements import Compact, compact

STDLIB = Path(sysconfig.get_paths()["stdlib"])
FILES = (
    "argparse.py",
    "email/_header_value_parser.py",
    "logging/__init__.py",
    "json/decoder.py",
    "asyncio/base_events.py",
    "textwrap.py",
)


def _statements(text: str) -> tuple[list[str], tuple[Compact, ...]]:
    lines = split_lines(text)
    return lines, compact(ast.parse(text).body, lines)


def _holders(statements: tuple[Compact, ...]) -> Iterator[Compact]:
    """Every statement with three statements or more directly inside it, at any depth."""
    for node in statements:
        if len(node[3]) >= 3:
            yield node
        yield from _holders(node[3])


def _find(statements: tuple[Compact, ...], start: int) -> Compact | None:
    for node in _holders(statements):
        if node[0] == start:
            return node
    return None


def _variants(lines: list[str], node: Compact) -> Iterator[tuple[str, list[str], int]]:
    """(what, the file's new lines, the statement's new first line) for edits inside *node*."""
    children = node[3]
    a, b = children[1], children[2]
    first, second = lines[a[0] - 1 : a[1]], lines[b[0] - 1 : b[1]]
    # Two members swapped, one copied, one removed: code (unless they are the same).
    yield (
        "swapped",
        [*lines[: a[0] - 1], *second, *lines[a[1] : b[0] - 1], *first, *lines[b[1] :]],
        node[0],
    )
    yield "copied", [*lines[: a[1]], *first, *lines[a[1] :]], node[0]
    yield "removed", [*lines[: a[0] - 1], *lines[a[1] :]], node[0]
    last = children[-1]
    margin = lines[last[0] - 1][: len(lines[last[0] - 1]) - len(lines[last[0] - 1].lstrip())]
    # A comment added, a statement added at the end, a line of the second member reflowed.
    yield "comment", [*lines[: b[0] - 1], f"{margin}# a note", *lines[b[0] - 1 :]], node[0]
    yield "added", [*lines[: last[1]], f"{margin}_added = 1", *lines[last[1] :]], node[0]
    yield "reflowed", [*lines[: b[0] - 1], lines[b[0] - 1].rstrip() + "  ", *lines[b[0] :]], node[0]
    # A docstring word changed, where the second member opens with one.
    for at in range(b[0], b[1] + 1):
        if '"""' in lines[at - 1]:
            yield (
                "docstring",
                [*lines[: at - 1], lines[at - 1].replace('"""', '""" Note:', 1), *lines[at:]],
                node[0],
            )
            break


def _cases() -> Iterator[tuple[str, str, list[str], list[str], object]]:
    for name in FILES:
        text = (STDLIB / name).read_text("utf-8")
        lines, statements = _statements(text)
        for node in list(_holders(statements))[:40]:
            old = lines[node[0] - 1 : node[1]]
            old_parts = Parts(node[3], lines, node[0])
            for what, new_lines, start in _variants(lines, node):
                try:
                    _, new_statements = _statements("\n".join(new_lines) + "\n")
                except SyntaxError:
                    continue  # a member that cannot stand there: not a change upstream makes
                found = _find(new_statements, start)
                if found is None:
                    continue
                new = new_lines[found[0] - 1 : found[1]]
                yield (
                    f"{name}:{node[0]} {what}",
                    what,
                    old,
                    new,
                    (old_parts, Parts(found[3], new_lines, found[0])),
                )


def test_the_parts_give_the_class_the_whole_excerpts_give() -> None:
    checked, code, decided = 0, 0, 0
    for label, _what, old, new, parts in _cases():
        whole = classify(old, new)
        assert classify(old, new, parts=parts) is whole, label  # type: ignore[arg-type]
        checked += 1
        old_text, new_text = "\n".join(old), "\n".join(new)
        before, after = changes._Excerpt.read(old_text), changes._Excerpt.read(new_text)
        told = changes._code_by_parts(old_text, new_text, before, after, parts)  # type: ignore[arg-type]
        assert not told or whole is ChangeClass.code, label
        code += whole is ChangeClass.code
        decided += told
    assert checked >= 500
    assert code >= 200 and decided >= code * 0.6, (checked, code, decided)


def _deep_cases() -> Iterator[tuple[str, list[str], list[str], Parts, Parts]]:
    """Each top-level class or function of real modules, with one statement two levels in or more edited."""
    for name in FILES:
        text = (STDLIB / name).read_text("utf-8")
        lines, statements = _statements(text)
        tree = ast.parse(text)
        for top in tree.body:
            if not isinstance(top, (ast.ClassDef, ast.FunctionDef)):
                continue
            deep = [
                node
                for outer in top.body
                for inner in ast.walk(outer)
                if inner is not outer and isinstance(inner, ast.stmt) and hasattr(inner, "body")
                for node in inner.body
                if node.lineno == node.end_lineno
            ][:6]
            start = min([top.lineno, *(d.lineno for d in top.decorator_list)])
            for number, node in enumerate(deep):
                line = lines[node.lineno - 1]
                margin = line[: len(line) - len(line.lstrip())]
                # code: a statement added; formatting: a comment; code, or not: the first name
                # doubled.
                edits = {
                    "added": [line, f"{margin}_probe = {number}"],
                    "comment": [f"{line}  # note"],
                    "doubled": [_doubled(line)],
                }
                for what, replacement in edits.items():
                    new_lines = [*lines[: node.lineno - 1], *replacement, *lines[node.lineno :]]
                    try:
                        _, new_statements = _statements("\n".join(new_lines) + "\n")
                    except SyntaxError:
                        continue
                    found = next(item for item in new_statements if item[0] == start)
                    old_top = next(item for item in statements if item[0] == start)
                    yield (
                        f"{name}:{node.lineno} {what}",
                        lines[start - 1 : old_top[1]],
                        new_lines[start - 1 : found[1]],
                        Parts(old_top[3], lines, start),
                        Parts(found[3], new_lines, start),
                    )


def _doubled(line: str) -> str:
    """*line* with its first name written twice (``x = 1`` as ``xx = 1``), or as it is without one."""
    for at, char in enumerate(line):
        if char.isalpha():
            return line[:at] + char + line[at:]
        if char in "#'\"":
            break
    return line


def test_the_statements_inside_the_parts_give_the_class_and_only_they_are_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An edit two or more levels inside a class or function is told by parsing little more than its statement."""
    parsed: list[int] = []
    parse = changes._part_statements

    def counted(lines: list[str]) -> list[ast.stmt] | None:
        parsed.append(len(lines))
        return parse(lines)

    monkeypatch.setattr(changes, "_part_statements", counted)
    checked, code, decided, excerpt_lines, parsed_lines = 0, 0, 0, 0, 0
    for label, old, new, old_parts, new_parts in _deep_cases():
        whole = classify(old, new)
        assert classify(old, new, parts=(old_parts, new_parts)) is whole, label
        checked += 1
        if whole is ChangeClass.code:
            old_text, new_text = "\n".join(old), "\n".join(new)
            before, after = changes._Excerpt.read(old_text), changes._Excerpt.read(new_text)
            parsed.clear()
            told = changes._code_by_parts(old_text, new_text, before, after, (old_parts, new_parts))
            code += 1
            decided += told
            excerpt_lines += len(old) if told else 0
            parsed_lines += sum(parsed) if told else 0
    assert checked >= 400 and code >= 150, (checked, code)
    assert decided >= code * 0.8, (code, decided)
    # A tenth of the excerpts' lines or less (parsing each differing member whole reads nearly half
    # of them).
    assert parsed_lines * 10 <= excerpt_lines, (parsed_lines, excerpt_lines)


def test_a_module_that_gained_a_first_blank_line_is_not_told_by_parts() -> None:
    """Parts count lines from the excerpt's first; a module's first line of blanks is not in the parsed source."""
    old, new = "\nimport a\nimport b\n", "import a\nimport b\n"
    parts = [Parts(_statements(text)[1], split_lines(text), 1) for text in (old, new)]
    assert classify(old.rstrip("\n"), new.rstrip("\n")) is ChangeClass.formatting
    assert (
        classify(old.rstrip("\n"), new.rstrip("\n"), parts=(parts[0], parts[1]))
        is ChangeClass.formatting
    )


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # One statement more, and the first is a docstring on both sides: code.
        (
            'class A:\n    """Doc."""\n    x = 1\n',
            'class A:\n    """Doc."""\n    x = 1\n    y = 2\n',
            ChangeClass.code,
        ),
        # A docstring only, then the same docstring and ``pass``: the same tree once docstrings are
        # dropped.
        (
            'class A:\n    """Doc."""\n',
            'class A:\n    """Doc."""\n    pass\n',
            ChangeClass.comments,
        ),
        # A docstring added where there was none: one more statement, and not code.
        (
            "def f():\n    return 1\n",
            'def f():\n    """Doc."""\n    return 1\n',
            ChangeClass.comments,
        ),
        # A string statement that is not first is no docstring: a change to it is code.
        ('class A:\n    x = 1\n    "a"\n', 'class A:\n    x = 1\n    "b"\n', ChangeClass.code),
    ],
)
def test_docstrings_and_statement_counts(old: str, new: str, expected: ChangeClass) -> None:
    parts = []
    for text in (old, new):
        lines, statements = _statements(text)
        parts.append(Parts(statements[0][3], lines, 1))
    assert classify(old.rstrip("\n"), new.rstrip("\n")) is expected
    assert classify(old.rstrip("\n"), new.rstrip("\n"), parts=(parts[0], parts[1])) is expected


def test_a_check_after_a_bump_reads_the_parts_from_the_stored_indexes(
    upstream: Upstream, tmp_path: Path
) -> None:
    """On a repository made with git: the parts come from the indexes the first build stored (no parse of the
    old file), and every class is the one an engine without those indexes gives (it reads the
    excerpts whole)."""
    members = "".join(f"    def m{n}(self, x):\n        return x + {n}\n\n" for n in range(4))
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/a.py", f'class C:\n    """C."""\n\n{members}\nclass D:\n    """D."""\n\n{members}'
    )
    old = upstream.commit()
    targets = ("up:pkg.a.C", "up:pkg.a.D", "up:pkg.a")
    first = _engine(upstream, old, tmp_path, tmp_path / "cache")
    outcomes = [first.check_text(text, default_repo=None) for text in targets]
    first.relock(outcomes)
    first.remember(outcomes)
    # C: a member rewritten (code); D: its docstring only (comments); the module: both.
    upstream.write(
        "pkg/a.py",
        f'class C:\n    """C."""\n\n{members.replace("x + 2", "x * 2")}\nclass D:\n'
        f'    """D, changed."""\n\n{members}',
    )
    new = upstream.commit()
    warm = _engine(upstream, new, tmp_path, tmp_path / "cache")
    seen = [
        (o.name, o.status.value, o.change_class)
        for o in (warm.check_text(t, default_repo=None) for t in targets)
    ]
    assert seen == [
        ("up:pkg.a.C", "changed", ChangeClass.code),
        ("up:pkg.a.D", "changed", ChangeClass.comments),
        ("up:pkg.a", "changed", ChangeClass.code),
    ]
    assert warm._resolvers.statements_at("up", old, "pkg/a.py", "pkg.a") is not None
    assert (
        warm._resolvers.resolver_at("up", old).files.parsed == set()
    )  # the old file's index was stored
    cold = _engine(upstream, new, tmp_path, tmp_path / "other-cache")
    assert [
        (o.name, o.status.value, o.change_class)
        for o in (cold.check_text(t, default_repo=None) for t in targets)
    ] == seen


def _engine(upstream: Upstream, commit: str, root: Path, cache: Path) -> Engine:
    config = {
        "repos": {"up": {"url": upstream.url, "commit": commit, "packages": ["pkg"]}},
        "cache_dir": str(cache),
        "lock_file": str(root / "source-anchors.lock"),
    }
    return Engine(settings_from(config, confdir=root, environ={}))


@pytest.mark.parametrize(
    ("old", "new", "told"),
    [
        # The first statements compare when neither is a docstring: a class's first method
        # rewritten.
        (
            "class A:\n    def f(self):\n        return 1\n    x = 1\n",
            "class A:\n    def f(self):\n        return 2\n    x = 1\n",
            True,
        ),
        # Not when they are docstrings: in another quote style they are the same.
        ('class A:\n    """Doc."""\n    x = 1\n', 'class A:\n    "Doc."\n    x = 1\n', False),
    ],
)
def test_the_first_statements_compare_only_without_docstrings(
    old: str, new: str, told: bool
) -> None:
    parts = []
    for text in (old, new):
        lines, statements = _statements(text)
        parts.append(Parts(statements[0][3], lines, 1))
    old_text, new_text = old.rstrip("\n"), new.rstrip("\n")
    before, after = changes._Excerpt.read(old_text), changes._Excerpt.read(new_text)
    assert changes._code_by_parts(old_text, new_text, before, after, (parts[0], parts[1])) is told
    assert classify(old_text, new_text, parts=(parts[0], parts[1])) is classify(old_text, new_text)


def test_dedent_is_textwraps_on_random_texts_and_on_every_statement_of_real_modules() -> None:
    """:func:`~source_anchors.reading.python.dedent.dedent` against :func:`textwrap.dedent` itself."""
    import random
    import textwrap

    pieces = (" ", "\t", "\n", "x", "\r", "\x0c", "  ", "    ", "\t ", "é", "#")
    rng = random.Random(31)
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 16))) for _ in range(20000)]
    # Texts of lines, most with a margin every line has or none: what dedent() reads without a line
    # loop.
    margins, contents = (
        ("", " ", "  ", "\t", "    ", "  \t"),
        ("", "x", "#", "\r", "é", " ", "\x0c"),
    )
    texts += [
        "\n".join(
            rng.choice(margins[:3]) + rng.choice(margins) + rng.choice(contents)
            for _ in range(rng.randint(1, 8))
        )
        for _ in range(20000)
    ]
    texts += [
        "\n".join(
            ("    " if rng.random() < 0.9 else "") + rng.choice(margins) + rng.choice(contents[1:4])
            if rng.random() < 0.8
            else ""
            for _ in range(rng.randint(1, 8))
        )
        for _ in range(20000)
    ]
    for name in FILES:
        source = (STDLIB / name).read_text("utf-8")
        lines = source.split("\n")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.stmt) and node.end_lineno is not None:
                texts.append("\n".join(lines[node.lineno - 1 : node.end_lineno]))
                texts.append(
                    "\n".join(lines[node.lineno - 1 : node.end_lineno]).replace("    ", "\t", 1)
                )
    differ = [text for text in texts if dedent(text) != textwrap.dedent(text)]
    assert len(texts) > 70000
    assert not differ[:3]
    # Not a copy of the input: most statements inside a body lose their margin.
    assert sum(dedent(text) != text for text in texts) > 10000
