"""Module indexes kept between runs by what decides them: a file unchanged across a bump is parsed once.

The codec is checked against fresh parses of real modules (the standard library's own source);
the cache against engines on repositories the tests make with git: the same outcomes as with an
empty cache, only the changed file parsed at the new commit, damaged packs parsed again.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.python import Python
from source_anchors.model.textlines import decode_source, split_lines
from source_anchors.reading.python.indexcodec import from_json, index_key, statements_of, to_json
from source_anchors.reading.python.modindex import build

TARGETS = ("up:pkg.a.f", "up:pkg.a.C.m", "up:pkg.b.B.m", "up:pkg.b.B.value", "up:pkg.b::return 2")
A_PY = "def f(x):\n    return x + 1\n\n\nclass C:\n    def m(self):\n        return 1\n"
B_PY = "class B:\n    value = 1\n\n    def m(self):\n        return 2\n"


def test_every_stdlib_module_index_comes_back_from_json_as_a_parse_builds_it() -> None:
    """The oracle is a fresh parse: each index of the standard library's email, json, asyncio and logging."""
    folder = Path(sysconfig.get_paths()["stdlib"])
    files = sorted(
        path
        for name in ("email", "json", "asyncio", "logging")
        for path in (folder / name).glob("*.py")
    )
    assert len(files) > 60
    for path in files:
        text = decode_source(path.read_bytes())
        module = "stdlib." + path.stem
        index = build(
            ast.parse(text), split_lines(text), module, package=path.name == "__init__.py"
        )
        assert from_json(json.loads(json.dumps(to_json(index)))) == index, path.name
        # The statements alone, from the text as a pack holds it: the nested lists the tuples are
        # written as, read without the rest (which here no longer decodes).
        text = json.dumps(to_json(index), separators=(",", ":"), ensure_ascii=False)
        found = statements_of(
            text[: len(json.dumps(index.statements, separators=(",", ":"))) + 2] + "{broken"
        )
        assert found == json.loads(json.dumps(index.statements)), path.name
        assert (
            found is not None
            and statements_of(text) == found
            and _tuples(found) == index.statements
        ), path.name


def test_the_key_changes_with_the_text_the_module_the_package_flag_and_the_python() -> None:
    text = (
        "import sys\nif sys.version_info >= (3, 10):\n    def f(): pass\nelse:\n    def f(): pass\n"
    )
    base = index_key(text, "pkg.mod", package=False, python=Python((3, 12)))
    others = {
        index_key(text + "\n", "pkg.mod", package=False, python=Python((3, 12))),
        index_key(text, "pkg.other", package=False, python=Python((3, 12))),
        index_key(text, "pkg.mod", package=True, python=Python((3, 12))),
        index_key(text, "pkg.mod", package=False, python=Python((3, 9))),
        index_key(text, "pkg.mod", package=False, python=Python((3, 12), "win32")),
    }
    assert base not in others and len(others) == 5
    assert base == index_key(text, "pkg.mod", package=False, python=Python((3, 12)))


def test_a_shape_it_does_not_know_is_no_index() -> None:
    damaged: object
    for damaged in (None, [], [1, 2], {"a": 1}, [{}, [], [], None, [[1]], []], "text"):
        assert from_json(damaged) is None
    for text in ("", "{}", "[1,[]]", '[{"a":1},[]]', "[[1,2", "not json"):
        assert statements_of(text) is None, text


def _tuples(items: list[Any]) -> tuple[Any, ...]:
    """Nested lists of statements as the index's tuples."""
    return tuple(
        (start, end, tuple(map(tuple, spans)), _tuples(children), *rest)
        for start, end, spans, children, *rest in items
    )


def _engine(
    upstream: Upstream, commit: str, root: Path, cache: Path, python: str | None = None
) -> Engine:
    config = {
        "repos": {"up": {"url": upstream.url, "commit": commit, "packages": ["pkg"]}},
        "cache_dir": str(cache),
        "lock_file": str(root / "source-anchors.lock"),
        **({"python": python} if python else {}),
    }
    return Engine(settings_from(config, confdir=root, environ={}))


def _seen(engine: Engine) -> list[tuple[str, str, str | None, str | None]]:
    outcomes = [engine.check_text(text, default_repo=None) for text in TARGETS]
    return [(o.name, o.status.value, o.permalink, o.message) for o in outcomes]


def _locked_at_a(upstream: Upstream, tmp_path: Path) -> tuple[str, str, Path]:
    """Anchors locked at commit A (their indexes stored); commit B changes pkg/a.py only."""
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/a.py", A_PY)
    upstream.write("pkg/b.py", B_PY)
    old = upstream.commit()
    cache = tmp_path / "cache"
    engine = _engine(upstream, old, tmp_path, cache)
    outcomes = [engine.check_text(text, default_repo=None) for text in TARGETS]
    engine.relock(outcomes)
    engine.remember(outcomes)
    assert engine.resolver("up").files.parsed >= {"pkg/a.py", "pkg/b.py"}
    upstream.write("pkg/a.py", "import os\n\n\n" + A_PY.replace("return 1", "return 10"))
    return old, upstream.commit(), cache


def test_after_a_bump_only_the_changed_file_is_parsed_and_every_answer_is_the_same(
    upstream: Upstream, tmp_path: Path
) -> None:
    _, new, cache = _locked_at_a(upstream, tmp_path)
    bumped = _engine(upstream, new, tmp_path, cache)
    seen = _seen(bumped)
    files = bumped.resolver("up").files
    assert files.parsed == {"pkg/a.py"} and "pkg/b.py" in files.loaded
    # An engine that has no index of either commit gives the very same outcomes.
    assert seen == _seen(_engine(upstream, new, tmp_path, tmp_path / "empty-cache"))
    assert {status for _, status, _, _ in seen} >= {"moved", "changed", "ok"}
    bumped.remember([])  # the new commit's pack now holds every index it used
    again = _engine(upstream, new, tmp_path, cache)
    assert _seen(again) == seen
    assert again.resolver("up").files.parsed == set()


def test_damaged_packs_are_parsed_again_with_the_same_answers(
    upstream: Upstream, tmp_path: Path
) -> None:
    old, _, cache = _locked_at_a(upstream, tmp_path)
    expected = _seen(_engine(upstream, old, tmp_path, tmp_path / "empty-cache"))
    packs = sorted((cache / "indexes").glob("*.jsonl"))
    assert packs
    shutil.rmtree(cache / "resolutions")  # the targets are resolved again, from the indexes
    keys = [
        line.partition(" ")[0] for pack in packs for line in pack.read_text("utf-8").splitlines()
    ]
    assert len(keys) >= 2
    for pack in packs:  # every entry of another shape
        pack.write_text("".join(f"{key} [1, 2]\n" for key in keys), "utf-8")
    shaped = _engine(upstream, old, tmp_path, cache)
    assert _seen(shaped) == expected and shaped.resolver("up").files.parsed >= {
        "pkg/a.py",
        "pkg/b.py",
    }
    for pack in packs:  # cut short, as a full disk leaves a file written without the rename
        pack.write_text("".join(f'{key} [{{"": [["class", 1' for key in keys), "utf-8")
    shutil.rmtree(cache / "resolutions", ignore_errors=True)
    truncated = _engine(upstream, old, tmp_path, cache)
    assert _seen(truncated) == expected and truncated.resolver("up").files.parsed >= {
        "pkg/a.py",
        "pkg/b.py",
    }


def test_an_index_read_for_one_python_is_never_used_for_another(
    upstream: Upstream, tmp_path: Path
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/v.py",
        "import sys\n\nif sys.version_info >= (3, 10):\n    def f():\n        return 'new'\n"
        "else:\n    def f():\n        return 'old'\n",
    )
    commit = upstream.commit()
    lines: dict[str, set[int]] = {}
    for python in ("3.9", "3.12", "3.9"):
        engine = _engine(upstream, commit, tmp_path, tmp_path / "cache", python)
        outcome = engine.check_text("up:pkg.v.f", default_repo=None)
        engine.remember([outcome])
        assert outcome.location is not None
        lines.setdefault(python, set()).add(outcome.location.start)
    assert lines == {"3.9": {7}, "3.12": {4}}


def test_a_text_with_line_separators_in_its_strings_is_stored_and_read_back(
    upstream: Upstream, tmp_path: Path
) -> None:
    """U+2028 and NEL are no newlines to JSON: a pack is split at newlines alone."""
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/odd.py",
        '__all__ = ["A", "a\u2028b\x85c"]\n\n\nclass A:\n'
        '    """Doc\u2028string."""\n\n    def m(self):\n        return "\u2028"\n',
    )
    commit = upstream.commit()
    first = _engine(upstream, commit, tmp_path, tmp_path / "cache")
    outcome = first.check_text("up:pkg.odd.A.m", default_repo=None)
    first.remember([outcome])
    shutil.rmtree(tmp_path / "cache" / "resolutions")
    second = _engine(upstream, commit, tmp_path, tmp_path / "cache")
    again = second.check_text("up:pkg.odd.A.m", default_repo=None)
    assert (
        second.resolver("up").files.loaded == {"pkg/odd.py"}
        and second.resolver("up").files.parsed == set()
    )
    assert (again.status, again.permalink) == (
        outcome.status,
        outcome.permalink,
    ) and again.location is not None


def test_a_release_that_reads_modules_differently_has_other_keys(tmp_path: Path) -> None:
    """The code that builds an index is in its key: an edited reading stage never reads the old entries."""
    import source_anchors

    package = Path(source_anchors.__file__).parent

    def digest(root: Path) -> str:
        return subprocess.run(
            [
                sys.executable,
                "-c",
                "from source_anchors.reading.python.indexcodec import "
                "builder_digest; print(builder_digest())",
            ],
            env={**os.environ, "PYTHONPATH": str(root)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

    for name in ("same", "edited", "textlines"):
        shutil.copytree(
            package,
            tmp_path / name / "source_anchors",
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    statements = tmp_path / "edited" / "source_anchors" / "reading" / "python" / "statements.py"
    with statements.open("a", encoding="utf-8") as code:
        code.write("\n# a change to how statements are read\n")
    with (tmp_path / "textlines" / "source_anchors" / "model" / "textlines.py").open(
        "a", encoding="utf-8"
    ) as code:
        code.write("\n# a change to how lines are counted\n")
    same = digest(tmp_path / "same")
    assert same == digest(tmp_path / "same")
    assert len({same, digest(tmp_path / "edited"), digest(tmp_path / "textlines")}) == 3
