"""The warm check of Markdown links: the same answers as the full front end, from the lock and git alone.

A repository made with git holds a module, a README and docs pages with relative links, links
titled with their target, permalinks to an older commit and a link into another repository. Each
state of it (locked and unchanged, an uncommitted edit, code moved or changed by a commit, a
page that is not UTF-8, a lock written by another resolver) is checked twice: by
``source_anchors.cli.main.main`` (the warm check, which gives the question to the full front end
when it cannot answer it) and by the full front end alone (``cli.plain.run``); both print the same
and exit the same. A subprocess run of ``python -m source_anchors check`` shows what the warm check
loads and which git commands it runs (a ``git`` on the PATH that logs each call, then runs git).
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import commit_all, git
from source_anchors.cli.main import get_parser, main
from source_anchors.cli.plain import run
from source_anchors.cli.warm import warm_check
from source_anchors.markup import mdscan

WEB = "https://github.com/acme/lib"
MODULE = '''\
"""A library."""


def greet(name):
    """Say hello."""
    return "hello " + name


def part(name):
    """The first letter."""
    return name[:1]


class Box:
    def size(self):
        return 3
'''


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "lib-repo"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "__init__.py").write_text("", "utf-8")
    (root / "lib" / "mod.py").write_text(MODULE, "utf-8")
    (root / "lib" / "other.py").write_text("X = 1\n", "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("remote", "add", "origin", "git@github.com:acme/lib.git", cwd=root)
    first = commit_all(root, "library")
    (root / "README.md").write_text(
        "# lib\n\n"
        "[`greet`](lib/mod.py#L4-L6) says hello; [the step](lib/mod.py#L15-L16).\n"
        f"Permalink: [greet]({WEB}/blob/{first}/lib/mod.py#L4-L6).\n"
        '[part](lib/mod.py#L9-L11 "src: lib.mod.part") and [other](https://github.com/x/y/blob/a/b.py#L1).\n'
        "\n```md\n[not a link](lib/mod.py#L1-L2)\n```\n"
        "and `[inline](lib/mod.py#L1)` is code, [a page](https://example.org/x).\n",
        "utf-8",
    )
    (root / "docs" / "guide").mkdir(parents=True)
    (root / "docs" / "guide" / "use.md").write_text(
        "Use [greet](../../lib/mod.py#L4-L6) and [`X`](../../lib/other.py#L1).\n"
        f'The [part]({WEB}/blob/{first}/lib/mod.py#L9-L11 "src: lib.mod.part").\n',
        "utf-8",
    )
    (root / "docs" / "_build").mkdir()
    (root / "docs" / "_build" / "skipped.md").write_text("[x](../../lib/nothere.py#L1)\n", "utf-8")
    commit_all(root, "docs")
    (root / "pyproject.toml").write_text(
        f"[tool.source-anchors]\ncache-dir = {str(tmp_path / 'cache')!r}\n", "utf-8"
    )
    monkeypatch.chdir(root)
    assert main(["update", "README.md", "docs"]) == 0
    commit_all(root, "lock")
    return root


def _both(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int | None, int, str, str]:
    """(warm answer or None, then status, stdout, stderr of main, then of the full front end)."""
    capsys.readouterr()
    warm = warm_check(argv)
    warm_out = capsys.readouterr()
    assert warm is not None or warm_out == ("", ""), "the warm check printed, then gave up"
    status = main(argv)
    got = capsys.readouterr()
    args = get_parser().parse_args(argv)
    args.paths = args.pages
    full = run(args)
    want = capsys.readouterr()
    assert (status, got.out, got.err) == (full, want.out, want.err)
    return warm, status, got.out, got.err


@pytest.mark.parametrize("fmt", ["text", "github", "gitlab"])
def test_an_unchanged_repository_is_answered_warm_and_as_the_full_front_end_answers(
    repo: Path, fmt: str, capsys: pytest.CaptureFixture[str]
) -> None:
    warm, status, out, err = _both(["check", "--format", fmt, "README.md", "docs/"], capsys)
    assert (warm, status) == (0, 0)
    if fmt == "text":
        assert (out, err) == (
            "",
            "7 line link(s), 0 drifted, 0 broken; left alone: 1 another repository\n",
        )
    else:
        assert out == {"github": "\n", "gitlab": "[]\n"}[fmt]


def test_an_edit_not_committed_is_the_same_note(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "lib" / "other.py").write_text("X = 2\n", "utf-8")
    warm, status, _, err = _both(["check", "docs"], capsys)
    assert (warm, status) == (0, 0)
    assert err.startswith("note: 1 cited file(s) have uncommitted edits")


def test_another_commit_elsewhere_in_a_cited_file_is_left_to_the_full_front_end(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file at another blob is resolved again: the lock alone does not say its lines."""
    (repo / "lib" / "mod.py").write_text(MODULE + "\n\nY = 2\n", "utf-8")
    commit_all(repo, "more")
    warm, status, _, _ = _both(["check", "README.md", "docs"], capsys)
    assert (warm, status) == (None, 0)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ('"""A library."""\n', "README.md:3: moved: self:/lib/mod.py#greet"),
        ('"hello " + name', "README.md:3: changed (code): self:/lib/mod.py#greet"),
    ],
)
def test_drift_is_the_full_front_ends_answer(
    repo: Path, change: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    new = '"""A library."""\n\nSEP = 1\n' if change.startswith('"""') else '"hi " + name'
    (repo / "lib" / "mod.py").write_text(MODULE.replace(change, new), "utf-8")
    commit_all(repo, "drift")
    for fmt in ("text", "github", "gitlab"):
        assert _both(["check", "--format", fmt, "README.md", "docs"], capsys)[:2] == (None, 1)
    assert says in _both(["check", "README.md"], capsys)[2]


def test_what_the_warm_check_does_not_read_is_the_full_front_ends(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "docs" / "latin1.md").write_bytes(
        "[greet](../lib/mod.py#L4-L6) caf\xe9\n".encode("latin-1")
    )
    assert _both(["check", "docs"], capsys)[:2] == (None, 1)
    (repo / "docs" / "latin1.md").unlink()
    assert _both(["check", "lib/mod.py"], capsys)[0] is None  # a code file: its citing links
    assert _both(["check", "--format", "json", "docs"], capsys)[0] is None
    assert _both(["check", "docs", "missing.md"], capsys)[:2] == (None, 2)
    lock = json.loads((repo / "source-anchors.lock").read_text("utf-8"))
    lock["resolver"]["python"] = "3.99"
    (repo / "source-anchors.lock").write_text(json.dumps(lock), "utf-8")
    assert _both(["check", "docs"], capsys)[:2] == (None, 0)  # resolved again, at the same lines
    (repo / "source-anchors.lock").write_text("{", "utf-8")
    assert _both(["check", "docs"], capsys)[:2] == (None, 2)


def test_another_lock_named_by_pyproject_or_by_option(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "source-anchors.lock").rename(repo / "docs.lock")
    assert _both(["check", "docs"], capsys)[0] is None  # no lock here: every link is new
    assert _both(["check", "--lock", "docs.lock", "docs"], capsys)[:2] == (0, 0)
    (repo / "pyproject.toml").write_text('[tool.source-anchors]\nlock = "docs.lock"\n', "utf-8")
    assert _both(["check", "docs"], capsys)[:2] == (0, 0)


def _old_link_pattern() -> re.Pattern[str]:
    """The pattern ``md_links`` used before the warm check: a look-behind first, a backtracking label."""
    return re.compile(
        r"(?<![!\\])\[(?P<label>(?:[^\[\]\\]|\\.|\[[^\]]*\])*)\]"
        r"\((?P<url><[^>\n]*>|[^\s()]+)(?:\s+(?P<title>\"[^\"]*\"|'[^']*'))?\s*\)"
    )


def test_the_link_pattern_finds_what_the_backtracking_one_found() -> None:
    rng = random.Random(5)
    pieces = ["[", "]", "(", ")", "\\", "!", "<", ">", '"', "'", " ", "a", "#L1", "x.py", "]("]
    pieces += ["[a](x.py#L1)", "[b [c]](<d e>)", '[f](g "h")', "[i](j 'k')", "[l\\]m](n)"] * 3
    lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 14))) for _ in range(40000)]
    lines += ["[a](b) [c [d](e#L1 'f') ![g](h) \\[i](j)", "[a\\](b)](c#L2)", "[[x]](y#L1-L2)"]
    old, found = _old_link_pattern(), 0

    def spans(pattern: re.Pattern[str], line: str) -> list[tuple[object, ...]]:
        return [
            (m.span(), m.span("label"), m.span("url"), m.span("title"))
            for m in pattern.finditer(line)
        ]

    differ = [line for line in lines if spans(old, line) != spans(mdscan._LINK, line)]
    found = sum(bool(old.search(line)) for line in lines)
    assert differ[:3] == []
    assert found > 20000


def _shimmed(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose ``git`` logs its arguments to a file, then runs the real git."""
    real = subprocess.run(
        ["which", "git"], capture_output=True, text=True, check=True
    ).stdout.strip()
    shim, log = tmp_path / "shim", tmp_path / "git.log"
    shim.mkdir()
    (shim / "git").write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n', "utf-8")
    (shim / "git").chmod(0o755)
    ext = Path(__file__).resolve().parent.parent / "ext"
    env = {**os.environ, "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(ext)}
    return env, log


def test_a_warm_check_loads_no_engine_and_runs_git_five_times(repo: Path, tmp_path: Path) -> None:
    env, log = _shimmed(tmp_path)
    code = (
        "import sys\nfrom source_anchors.cli.main import main\n"
        "status = main(['check', 'README.md', 'docs'])\n"
        "print(' '.join(sorted(sys.modules)))\nsys.exit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "7 line link(s), 0 drifted, 0 broken; left alone: 1 another repository\n"
    loaded = set(done.stdout.split())
    heavy = {"subprocess", "dataclasses", "typing", "argparse", "tomllib", "sphinx", "docutils"}
    assert loaded & heavy == set()
    ours = sorted(m for m in loaded if m.startswith("source_anchors."))
    assert not [
        m
        for m in ours
        if m.split(".")[1] in ("engine", "resolve", "reading", "suggest", "sphinx_ext", "drift")
    ]
    calls = log.read_text("utf-8").splitlines()
    # rev-parse, config, ls-tree HEAD, ls-tree of the permalinks' commit, status: no blob is read
    assert sorted(call.split()[2] for call in calls) == [
        "config",
        "ls-tree",
        "ls-tree",
        "rev-parse",
        "status",
    ]
    assert "source_anchors.markup.mdscan" in loaded  # the pages read, and kept in .git

    again = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, env=env, capture_output=True, text=True
    )
    assert (again.returncode, again.stderr) == (0, done.stderr)
    kept = set(again.stdout.split())
    assert {"json", "source_anchors.markup.mdscan", "source_anchors.lock.lockform"} & kept == set()
    assert len(log.read_text("utf-8").splitlines()) == 10

    log.unlink()
    (repo / "lib" / "mod.py").write_text(MODULE + "\nY = 2\n", "utf-8")
    commit_all(repo, "more")
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=repo, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "source_anchors.engine.engine" in done.stdout.split()  # resolved again: the full path


def test_what_is_kept_answers_only_for_the_same_text(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _both(["check", "README.md", "docs"], capsys)[:2] == (0, 0)
    assert (repo / ".git" / "source-anchors" / "warm.marshal").is_file()
    readme = (repo / "README.md").read_text("utf-8")
    (repo / "README.md").write_text(readme.replace("#L4-L6) says", "#L5-L6) says"), "utf-8")
    assert _both(["check", "README.md", "docs"], capsys)[:2] == (None, 1)  # a new link
    (repo / "README.md").write_text(readme, "utf-8")
    assert _both(["check", "README.md", "docs"], capsys)[:2] == (0, 0)
    lock = (repo / "source-anchors.lock").read_text("utf-8")
    blob = json.loads(lock)["anchors"]["self"]["/lib/mod.py#greet"]["blob"]
    (repo / "source-anchors.lock").write_text(lock.replace(blob, "0" * 40), "utf-8")
    assert _both(["check", "README.md", "docs"], capsys)[:2] == (None, 0)  # resolved: same text
    (repo / ".git" / "source-anchors" / "warm.marshal").write_bytes(b"not marshal")
    (repo / "source-anchors.lock").write_text(lock, "utf-8")
    assert _both(["check", "README.md", "docs"], capsys)[:2] == (0, 0)


def test_cache_clear_drops_the_warm_readings_of_the_checkout(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _both(["check", "README.md", "docs"], capsys)[:2] == (0, 0)
    kept = repo / ".git" / "source-anchors"
    assert (kept / "warm.marshal").is_file()
    assert main(["cache", "info"]) == 0
    assert (
        f"(the warm Markdown check's readings of this checkout: {kept})" in capsys.readouterr().out
    )
    assert main(["cache", "clear"]) == 0
    assert f"from {kept}" in capsys.readouterr().out
    assert not kept.exists()
    assert main(["cache", "info"]) == 0
    assert "warm" not in capsys.readouterr().out
    assert _both(["check", "README.md", "docs"], capsys)[:2] == (0, 0)  # read again, kept again
    assert (kept / "warm.marshal").is_file()
