"""Plain Markdown: missing links healed to their suggestions, bad input located, uncommitted edits named.

Each test makes a repository with git (``lib/mod.py``, Markdown files citing it), commits, runs
``source-anchors check|update|fix PATH…`` in-process from the repository's folder (an exception
would fail the test: no traceback reaches the user), commits again and runs them again.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import pytest
from helpers import commit_all, git, run_cli
from source_anchors.markup.mdlinks import md_links, split_lines
from source_anchors.model.records import RESOLVER_VERSION

WEB = "https://github.com/acme/lib"
# part first, then greet: when greet leaves for another file, part keeps its lines.
MODULE = '''\
"""A library."""


def part(name):
    """The first letter."""
    return name[:1]


def greet(name):
    """Say hello."""
    return "hello " + name
'''
OTHER = '''\
"""Greetings."""

SEP = " "


def greet(name):
    """Say hello."""
    return "hello " + name
'''


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "lib-repo"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "__init__.py").write_text("", "utf-8")
    (root / "lib" / "mod.py").write_text(MODULE, "utf-8")
    (root / "pyproject.toml").write_text(
        f"[tool.source-anchors]\ncache-dir = {str(tmp_path / 'cache')!r}\n", "utf-8"
    )
    git("init", "-q", "-b", "main", cwd=root)
    git("remote", "add", "origin", "git@github.com:acme/lib.git", cwd=root)
    commit_all(root, "library")
    monkeypatch.chdir(root)
    return root


def _snapshot(root: Path, *names: str) -> dict[str, bytes]:
    return {name: (root / name).read_bytes() for name in names}


def test_lines_count_as_editors_count_them() -> None:
    text = 'a\r\n[x](a.py#L1)\x0c [y](b.py#L2 "src: b.f")\u2028z\r[w](c.py#L3)\n'
    links = md_links(text)
    assert [(link.line, link.url) for link in links] == [
        (2, "a.py#L1"),
        (2, "b.py#L2"),
        (3, "c.py#L3"),
    ]
    lines = split_lines(text)
    assert "".join(lines) == text and len(lines) == 3
    y = links[1]
    assert lines[1][y.title_start : y.title_end] == "src: b.f"


def test_fix_heals_missing_links_to_their_suggestions(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = git("rev-parse", "HEAD", cwd=repo).strip()
    # CRLF line ends, a title naming the target, a permalink; a guide in a folder, mode 0640.
    (repo / "README.md").write_bytes(
        (
            "# lib\r\n\r\n"
            '[hello](lib/mod.py#L9-L11 "src: lib.mod.greet") and [part](lib/mod.py#L4-L6).\r\n'
            f"Permalink: [part]({WEB}/blob/{first}/lib/mod.py#L4-L6).\r\n"
        ).encode()
    )
    (repo / "docs").mkdir()
    guide = repo / "docs" / "guide.md"
    guide.write_text("Say [hello](../lib/mod.py#L9-L11).\n", "utf-8")
    guide.chmod(0o640)
    assert run_cli(["update", "README.md", "docs"]) == 0
    commit_all(repo, "docs and lock")
    # One commit moves greet to lib/other.py and renames part, in place, to first.
    (repo / "lib" / "mod.py").write_text(
        MODULE.replace("def part", "def first").split("\n\n\ndef greet")[0] + "\n", "utf-8"
    )
    (repo / "lib" / "other.py").write_text(OTHER, "utf-8")
    head = commit_all(repo, "greet moves, part is first")
    capsys.readouterr()

    assert run_cli(["check", "README.md", "docs"]) == 1
    out = capsys.readouterr().out
    assert "README.md:3: missing: self:lib.mod.greet: " in out
    assert "suggestion: lib.other.greet at lib/other.py:L6–L8 (same lines" in out
    assert "README.md:3: missing: self:/lib/mod.py#part: " in out
    assert "suggestion: /lib/mod.py#first at lib/mod.py:L4–L6" in out
    assert "docs/guide.md:1: missing: self:/lib/mod.py#greet: " in out
    assert "README.md:4: old permalink" in out

    # Without --write: what would change, at each link's line; nothing is written.
    before = _snapshot(repo, "README.md", "docs/guide.md", "source-anchors.lock")
    assert run_cli(["fix", "README.md", "docs"]) == 0
    out, err = capsys.readouterr()
    assert (
        'README.md:3: lib/mod.py#L9-L11 → lib/other.py#L6-L8 "src: lib.other.greet" (missing; '
        in out
    )
    assert "README.md:3: lib/mod.py#L4-L6: relocked as self:/lib/mod.py#first (missing; " in out
    assert "docs/guide.md:1: ../lib/mod.py#L9-L11 → ../lib/other.py#L6-L8 (missing; " in out
    assert "README.md:4" not in out  # a permalink moves only when asked
    assert "would heal 3 link(s) in 2 file(s)" in err
    assert _snapshot(repo, "README.md", "docs/guide.md", "source-anchors.lock") == before

    assert run_cli(["fix", "--write", "README.md", "docs"]) == 0
    capsys.readouterr()
    assert (repo / "README.md").read_bytes() == (
        "# lib\r\n\r\n"
        '[hello](lib/other.py#L6-L8 "src: lib.other.greet") and [part](lib/mod.py#L4-L6).\r\n'
        f"Permalink: [part]({WEB}/blob/{first}/lib/mod.py#L4-L6).\r\n"
    ).encode()
    assert guide.read_text("utf-8") == "Say [hello](../lib/other.py#L6-L8).\n"
    assert stat.S_IMODE(guide.stat().st_mode) == 0o640
    records = json.loads((repo / "source-anchors.lock").read_text("utf-8"))["anchors"]["self"]
    # The link renamed in place is locked by its new name; its old record, at the same lines, is gone.
    assert "/lib/mod.py#first" in records and "/lib/mod.py#part" not in records
    assert {"lib.other.greet", "/lib/other.py#greet"} <= records.keys()

    assert run_cli(["check", "README.md", "docs"]) == 0, capsys.readouterr().out
    assert "README.md:4: old permalink" in capsys.readouterr().out
    assert run_cli(["fix", "--write", "--to", "HEAD", "README.md"]) == 0
    assert f"{WEB}/blob/{head}/lib/mod.py#L4-L6" in (repo / "README.md").read_text("utf-8")
    capsys.readouterr()
    assert run_cli(["check", "README.md", "docs"]) == 0
    assert "drifted" in capsys.readouterr().err


def test_a_suggestion_below_the_floor_or_none_is_not_applied(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "README.md").write_text(
        "[part](lib/mod.py#L4-L6) and [hello](lib/mod.py#L9-L11).\n", "utf-8"
    )
    assert run_cli(["update", "README.md"]) == 0
    commit_all(repo, "readme")
    # part is renamed and its body changed; greet is deleted.
    (repo / "lib" / "mod.py").write_text(
        MODULE.replace("def part", "def initial")
        .replace("name[:1]", "name[:1].upper()")
        .split("\n\n\ndef greet")[0]
        + "\n",
        "utf-8",
    )
    commit_all(repo, "initial")
    before = _snapshot(repo, "README.md", "source-anchors.lock")
    capsys.readouterr()
    assert run_cli(["fix", "--write", "--min-similarity", "0.99", "README.md"]) == 0
    err = capsys.readouterr().err
    assert re.search(
        r"README\.md:1: not fixed: self:/lib/mod\.py#part: suggestion /lib/mod\.py#initial at "
        r"lib/mod\.py:L4–L6 \(similar definition, similarity 0\.\d\d\) is below 0\.99; edit the link "
        "by hand",
        err,
    ), err
    assert (
        "README.md:1: not fixed: self:/lib/mod.py#greet: no suggestion; edit the link by hand"
        in err
    )
    assert "healed 0 link(s) in 0 file(s); 2 not fixed" in err
    assert _snapshot(repo, "README.md", "source-anchors.lock") == before

    # At the default floor the renamed one is healed; the deleted one still is not.
    assert run_cli(["fix", "--write", "README.md"]) == 0
    assert "healed 1 link(s) in 1 file(s); 1 not fixed" in capsys.readouterr().err


def test_bad_input_gets_one_located_message_and_loses_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = repo / "docs"
    docs.mkdir()
    (repo / "lib" / "new.py").write_text("X = 1\n", "utf-8")  # in the working tree, not at HEAD
    files = {
        "docs/gone.md": "# Gone\n\n[new](../lib/new.py#L1) and [none](../lib/none.py#L1-L2).\n",
        "docs/far.md": "[far](../lib/mod.py#L40-L41) [back](../lib/mod.py#L6-L4)\n",
        "docs/other.md": "[theirs](https://github.com/other/repo/blob/abc/x.py#L1-L2)\n",
        "docs/two.md": "[a](../lib/mod.py#L4-L6) [b](../lib/mod.py#L9-L11)\n"
        "[a](../lib/mod.py#L4-L6) again\n",
        "README.md": "[a](lib/mod.py#L4-L6) as in docs/two.md\n",
    }
    for name, text in files.items():
        (repo / name).write_text(text, "utf-8")
    # Not UTF-8 on its third line: a Latin-1 é at byte 5.
    (docs / "latin.md").write_bytes("ok\n\nT\xe9st [a](../lib/mod.py#L4-L6)\n".encode("latin-1"))
    git("add", "docs", "README.md", cwd=repo)
    git("commit", "-q", "-m", "docs", cwd=repo)
    names = [*files, "docs/latin.md"]
    before = _snapshot(repo, *names)
    capsys.readouterr()

    assert run_cli(["update", "README.md", "docs"]) == 1
    err = capsys.readouterr().err
    located = [
        "docs/gone.md:3: lib/new.py#L1-L1: lib/new.py is not a file of the repository at HEAD",
        "docs/gone.md:3: lib/none.py#L1-L2: lib/none.py is not a file of the repository at HEAD",
        "docs/far.md:1: lib/mod.py#L40-L41: lines 40-41 are past the end of lib/mod.py (11 lines "
        "at HEAD); correct the link's lines",
        "docs/far.md:1: lib/mod.py#L6-L4: L6-L4 is not a range of lines",
        "docs/latin.md:3: not UTF-8 (invalid continuation byte at byte 5); its links are not read",
    ]
    for message in located:
        assert err.count(message) == 1, (message, err)
    assert "4 of 8 line link(s) locked" in err
    assert "left alone: 1 another repository" in err
    lock = json.loads((repo / "source-anchors.lock").read_text("utf-8"))
    assert sorted(lock["anchors"]["self"]) == ["/lib/mod.py#greet", "/lib/mod.py#part"]
    git("add", "source-anchors.lock", cwd=repo)  # lib/new.py stays out of every commit
    git("commit", "-q", "-m", "lock", cwd=repo)
    lock_text = (repo / "source-anchors.lock").read_bytes()

    assert run_cli(["check", "README.md", "docs"]) == 1
    out, err = capsys.readouterr()
    for message in located[:4]:
        assert out.count(message) == 1, (message, out)
    assert err.count("docs/latin.md:3: not UTF-8") == 1
    assert "8 line link(s), 0 drifted, 4 broken; left alone: 1 another repository" in err
    # The same link twice in one file and once in another: each reported at its own line.
    assert run_cli(["check", "--format", "json", "README.md", "docs"]) == 1
    rows = json.loads(capsys.readouterr().out)
    same = [(r["doc"], r["line"]) for r in rows if r["target"] == "self:/lib/mod.py#part"]
    assert same == [("README.md", 1), ("docs/two.md", 1), ("docs/two.md", 2)]

    assert run_cli(["fix", "--write", "README.md", "docs"]) == 1
    err = capsys.readouterr().err
    assert "docs/far.md:1: not fixed: lib/mod.py#L40-L41: lines 40-41 are past the end" in err
    assert "healed 0 link(s) in 0 file(s); 4 not fixed; left alone: 1 another repository" in err
    assert _snapshot(repo, *names) == before
    assert (repo / "source-anchors.lock").read_bytes() == lock_text

    # A commit moves both functions down: two links on one line and the same link thrice heal.
    (repo / "lib" / "mod.py").write_text(
        MODULE.replace('"""A library."""\n', '"""A library."""\n\nSEP = " "\n'), "utf-8"
    )
    git("commit", "-q", "-m", "move", "lib/mod.py", cwd=repo)
    assert run_cli(["fix", "--write", "README.md", "docs"]) == 1  # latin.md is still unread
    assert (docs / "two.md").read_text("utf-8") == (
        "[a](../lib/mod.py#L6-L8) [b](../lib/mod.py#L11-L13)\n[a](../lib/mod.py#L6-L8) again\n"
    )
    assert (repo / "README.md").read_text("utf-8") == "[a](lib/mod.py#L6-L8) as in docs/two.md\n"
    for name in ("docs/gone.md", "docs/far.md", "docs/other.md", "docs/latin.md"):
        assert (repo / name).read_bytes() == before[name], name
    capsys.readouterr()
    assert run_cli(["check", "README.md", "docs/two.md"]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("field", ["version", "resolver"])
def test_a_lock_from_a_newer_release_names_the_upgrade(
    repo: Path, capsys: pytest.CaptureFixture[str], field: str
) -> None:
    (repo / "README.md").write_text("[part](lib/mod.py#L4-L6)\n", "utf-8")
    assert run_cli(["update", "README.md"]) == 0
    lock = repo / "source-anchors.lock"
    lines = lock.read_text("utf-8").splitlines(keepends=True)
    if field == "version":  # the format's version, the lock's last key
        at, says = len(lines) - 1, "lock format version 2 is not supported"
        lines[at - 1] = lines[at - 1].replace('"version": 1', '"version": 2')
    else:  # the resolver's, inside "resolver"
        at = next(n for n, text in enumerate(lines, 1) if '"resolver"' in text)
        says = f"resolver version {RESOLVER_VERSION + 1}; this one has {RESOLVER_VERSION}"
        inner = next(n for n in range(at, len(lines)) if '"version"' in lines[n])
        lines[inner] = lines[inner].replace(f": {RESOLVER_VERSION}", f": {RESOLVER_VERSION + 1}")
    lock.write_text("".join(lines), "utf-8")
    (repo / "lib" / "mod.py").write_text("\n\n" + MODULE, "utf-8")
    commit_all(repo, "moved, and a lock from a newer release")
    before = _snapshot(repo, "README.md", "source-anchors.lock")
    for command in (["check"], ["update"], ["fix", "--write"]):
        capsys.readouterr()
        assert run_cli([*command, "README.md"]) == 2, command
        err = capsys.readouterr().err
        assert f"source-anchors.lock:{at}: " in err, err
        assert says in err
        assert "upgrade sphinx-source-anchors (pip install -U sphinx-source-anchors)" in err
        assert err.count("\n") == 1, err
        assert _snapshot(repo, "README.md", "source-anchors.lock") == before


def test_check_names_cited_files_with_uncommitted_edits_once(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "lib" / "util.py").write_text("def helper():\n    return 1\n", "utf-8")
    (repo / "README.md").write_text(
        "[part](lib/mod.py#L4-L6) [greet](lib/mod.py#L9-L11) [helper](lib/util.py#L1-L2)\n",
        "utf-8",
    )
    commit_all(repo, "util and readme")
    assert run_cli(["update", "README.md"]) == 0
    commit_all(repo, "lock")
    capsys.readouterr()
    assert run_cli(["check", "README.md"]) == 0
    assert "uncommitted" not in capsys.readouterr().err

    # An edit in the working tree and a staged one, neither committed: HEAD is what is checked.
    (repo / "lib" / "mod.py").write_text("\n\n" + MODULE, "utf-8")
    (repo / "lib" / "util.py").write_text("def helper():\n    return 2\n", "utf-8")
    git("add", "lib/util.py", cwd=repo)
    (repo / "NOTES.txt").write_text("not cited\n", "utf-8")
    assert run_cli(["check", "README.md"]) == 0
    err = capsys.readouterr().err
    notes = [line for line in err.splitlines() if "uncommitted" in line]
    assert notes == [
        "note: 2 cited file(s) have uncommitted edits, and links are checked against HEAD "
        f"({git('rev-parse', 'HEAD', cwd=repo)[:7]}), not against them: "
        "lib/mod.py, lib/util.py; commit them to check what you are editing"
    ]
