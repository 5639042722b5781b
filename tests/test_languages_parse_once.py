"""Each file of a language parsed once per build, however the anchors go back and forth between files.

A git repository the test makes holds 90 Go files; a resolver asks each file for one definition,
then each again for another, then for a statement inside a third (the statement rule reads the
tree). The grammar's parses are counted where they happen (``TreeSitterLanguage.parse_count``),
and every range is checked against the text the test wrote.
"""

from __future__ import annotations

from pathlib import Path

from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.reading.languages.grammar import TreeSitterLanguage
from source_anchors.reading.registry import language_for

FILES = 90  # more than the 64 files a language kept the parses of before


def _go(number: int) -> str:
    return "package gen\n\n" + "".join(
        f"func F{number}_{index}(x int) int {{\n\tif x > {index} {{\n\t\treturn x\n\t}}\n"
        f"\treturn {index}\n}}\n\n"
        for index in range(3)
    )


def test_a_build_going_back_to_files_parses_each_once(tmp_path: Path) -> None:
    up = Upstream(tmp_path / "up")
    up.write_files({f"gen/file{number}.go": _go(number) for number in range(FILES)})
    commit = up.commit()
    settings = settings_from(
        {
            "repos": {"up": {"url": up.url, "commit": commit}},
            "cache_dir": str(tmp_path / "cache"),
        },
        confdir=tmp_path,
        environ={},
    )
    resolver = Engine(settings).resolver("up")
    go = language_for("x.go")
    assert isinstance(go, TreeSitterLanguage)
    go.forget()
    before = go.parse_count
    for index in range(3):
        for number in range(FILES):
            target = f"/gen/file{number}.go#F{number}_{index}"
            if index < 2:
                found = resolver.resolve(target)
                first = 3 + 7 * index  # "package gen", a blank line, then 7 lines a function
                assert (found.start, found.end) == (first, first + 5), target
            else:
                found = resolver.resolve(target, "return x")
                assert (found.start, found.end) == (3 + 7 * 2 + 2,) * 2, target
    assert go.parse_count - before == FILES
