"""A second language, made by this test, plugged in through the registry alone (reading/registry.py).

The toy language reads ``.toy`` files: a definition is a ``def NAME {`` line to its ``}``, a
statement is the block (or the line) holding the match, and a change is ``formatting`` when only
blanks differ, ``comments`` when only ``#`` lines do (a text file's change would be ``code``).
Nothing of the resolver, the drift stage or the engine is touched: registered, its files' matches
give its statements and its changed anchors its class of change; taken out, they are text again.
Expected lines are computed from the texts the test wrote.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.model.changeclass import ChangeClass
from source_anchors.model.config import settings_from
from source_anchors.model.errors import ResolveError
from source_anchors.model.target import parse_target
from source_anchors.reading.language import Definition, Language
from source_anchors.reading.registry import language_for, register, unregister, wired_language
from test_resolve import line_of

TOY = """\
# a toy program
def greet {
  say hello
  say world
}

def part {
  say bye
}
"""


class Toy(Language):
    """Blocks of ``def NAME {`` … ``}``; everything else is a line of its own."""

    name = "Toy"
    suffixes = (".toy",)
    wired = True

    def definitions(self, source: bytes) -> list[Definition]:
        lines, found, start = source.decode().split("\n"), [], 0
        for number, line in enumerate(lines, 1):
            if line.startswith("def "):
                start = number
            elif line == "}" and start:
                found.append(
                    Definition((lines[start - 1].split()[1],), "block", start, number, start)
                )
                start = 0
        return found

    def statement(self, source: bytes, start: int, end: int, match: str) -> tuple[int, int]:
        lines = source.decode().split("\n")
        hits = [n for n in range(start, end + 1) if match in lines[n - 1]]
        if len(hits) != 1:
            raise ResolveError(f"match text {match!r} is on {len(hits)} lines")
        block = [d for d in self.definitions(source) if d.start <= hits[0] <= d.end]
        return (block[0].start, block[0].end) if block else (hits[0], hits[0])

    def change_class(self, old: bytes, new: bytes) -> ChangeClass:
        if old.split() == new.split():
            return ChangeClass.formatting
        code = [
            [
                line.split()
                for line in text.decode().split("\n")
                if not line.lstrip().startswith("#")
            ]
            for text in (old, new)
        ]
        return ChangeClass.comments if code[0] == code[1] else ChangeClass.code


@pytest.fixture
def toy() -> Iterator[Toy]:
    language = Toy()
    register(language)
    try:
        yield language
    finally:
        unregister(language)


def _engine(upstream: Upstream, commit: str, tmp_path: Path) -> Engine:
    return Engine(
        settings_from(
            {
                "repos": {"up": {"url": upstream.url, "commit": commit, "packages": ["pkg"]}},
                "cache_dir": str(tmp_path / "cache"),
            },
            confdir=tmp_path,
            environ={},
        )
    )


def test_a_registered_language_reads_its_files_for_the_resolver(
    toy: Toy, tree_upstream: Upstream, tmp_path: Path
) -> None:
    assert language_for("src/app.toy") is toy
    assert wired_language("src/APP.TOY") is toy
    tree_upstream.clear()
    tree_upstream.write_files({"pkg/__init__.py": "", "src/app.toy": TOY})
    engine = _engine(tree_upstream, tree_upstream.commit("toy"), tmp_path)
    location = engine.resolver("up").resolve("/src/app.toy", match="say world")
    assert (location.kind, location.start, location.end) == (
        "statement",
        line_of(TOY, "def greet"),
        line_of(TOY, "say world") + 1,
    )
    comment = engine.resolver("up").resolve("/src/app.toy", match="a toy program")
    assert (comment.kind, comment.start, comment.end) == ("statement", 1, 1)
    with pytest.raises(ValueError, match=r"Toy: \.toy already read as Toy"):
        register(Toy())


def test_without_the_language_its_files_are_text_again(
    tree_upstream: Upstream, tmp_path: Path
) -> None:
    assert language_for("src/app.toy") is None
    tree_upstream.clear()
    tree_upstream.write_files({"pkg/__init__.py": "", "src/app.toy": TOY})
    engine = _engine(tree_upstream, tree_upstream.commit("toy as text"), tmp_path)
    location = engine.resolver("up").resolve("/src/app.toy", match="say world")
    assert (location.kind, location.start, location.end) == (
        "line",
        line_of(TOY, "say world"),
        line_of(TOY, "say world"),
    )


def test_a_registered_language_classes_a_changed_anchor(
    toy: Toy, upstream: Upstream, tmp_path: Path
) -> None:
    upstream.write_files({"pkg/__init__.py": "", "src/app.toy": TOY})
    first = upstream.commit("one")
    # The greet block given a comment (as text: code), the part block re-indented (formatting).
    upstream.write_files(
        {
            "src/app.toy": TOY.replace("  say hello", "  # greets\n  say hello").replace(
                "  say bye", "    say bye"
            )
        }
    )
    second = upstream.commit("two")
    texts = ["up:/src/app.toy::say world", "up:/src/app.toy::def part"]
    before = _engine(upstream, first, tmp_path)
    assert before.lock_new(
        [before.check(parse_target(t, default_repo=None)) for t in texts]
    ) == len(texts)
    after = _engine(upstream, second, tmp_path)
    outcomes = [after.check(parse_target(t, default_repo=None)) for t in texts]
    assert [(o.status, o.change_class) for o in outcomes] == [
        ("changed", ChangeClass.comments),
        ("changed", ChangeClass.formatting),
    ], [o.message for o in outcomes]
