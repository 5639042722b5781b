"""Plain Markdown, no Sphinx: line links of a README checked, relocked and healed across real commits.

Each test makes a repository with git (``lib/mod.py``, a README with a relative line link, a
permalink and an explicit target), runs ``source-anchors check|update|fix README.md`` in-process
from the repository's folder, commits, and runs them again.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import commit_all, git, run_cli
from source_anchors.markup.mdlinks import md_links
from source_anchors.plain.forms import LineLink, line_link

WEB = "https://github.com/acme/lib"
MODULE = '''\
"""A library."""


def greet(name):
    """Say hello."""
    return "hello " + name


def part(name):
    """The first letter."""
    return name[:1]
'''


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "lib-repo"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "__init__.py").write_text("", "utf-8")
    (root / "lib" / "mod.py").write_text(MODULE, "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("remote", "add", "origin", "git@github.com:acme/lib.git", cwd=root)
    first = commit_all(root, "library")
    (root / "README.md").write_text(
        "# lib\n\n"
        "[`greet`](lib/mod.py#L4-L6) says hello.\n"
        f"Permalink: [greet]({WEB}/blob/{first}/lib/mod.py#L4-L6).\n"
        '[part](lib/mod.py#L9-L11 "src: lib.mod.part") and [other](https://github.com/x/y/blob/a/b.py#L1).\n'
        "\n```md\n[not a link](lib/mod.py#L1-L2)\n```\n"
        "and `[inline](lib/mod.py#L1)` is code.\n",
        "utf-8",
    )
    commit_all(root, "readme")
    (root / "pyproject.toml").write_text(
        f"[tool.source-anchors]\ncache-dir = {str(tmp_path / 'cache')!r}\n", "utf-8"
    )
    monkeypatch.chdir(root)
    return root


def test_links_outside_code_are_read_with_their_lines() -> None:
    text = 'a [x](lib/a.py#L2-L3 "src: lib.a.f") b [y](/c.py#L4)\n```\n[z](d.py#L1)\n```\n`[w](e.py#L1)`\n'
    links = md_links(text)
    assert [(lnk.line, lnk.url, lnk.title) for lnk in links] == [
        (1, "lib/a.py#L2-L3", "src: lib.a.f"),
        (1, "/c.py#L4", None),
    ]
    assert line_link("lib/a.py#L2-L3", "src: lib.a.f", page_dir="docs", web=WEB) == LineLink(
        "docs/lib/a.py", 2, 3, explicit="lib.a.f"
    )
    assert line_link(f"{WEB}/-/blob/abc/x.py#L4-6", None, page_dir="", web=WEB) == LineLink(
        "x.py", 4, 6, rev="abc", style="gitlab"
    )
    assert line_link("https://github.com/o/r/blob/a/b.py#L1", None, page_dir="", web=WEB) == (
        "another repository"
    )


def test_update_then_a_move_is_reported_and_fixed(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["update", "README.md"]) == 0
    lock = json.loads((repo / "source-anchors.lock").read_text("utf-8"))
    assert sorted(lock["anchors"]["self"]) == ["/lib/mod.py#greet", "lib.mod.part"]
    assert all("commit" not in record for record in lock["anchors"]["self"].values())
    commit_all(repo, "lock")
    assert run_cli(["check", "README.md"]) == 0
    capsys.readouterr()

    # A commit moves greet down two lines.
    (repo / "lib" / "mod.py").write_text(
        MODULE.replace('"""A library."""\n', '"""A library."""\n\nSEP = " "\n'), "utf-8"
    )
    head = commit_all(repo, "move")
    assert run_cli(["check", "README.md"]) == 1
    out = capsys.readouterr().out
    assert "README.md:3: moved: self:/lib/mod.py#greet lib/mod.py:L4–L6 → lib/mod.py:L6–L8" in out
    assert "README.md:4: old permalink" in out
    assert "README.md:5: moved: self:lib.mod.part is at lib/mod.py:L11–L13" in out

    assert run_cli(["check", "--format", "github", "README.md"]) == 1
    assert "::warning file=README.md,line=3" in capsys.readouterr().out

    assert run_cli(["fix", "--write", "README.md"]) == 0
    text = (repo / "README.md").read_text("utf-8")
    assert "[`greet`](lib/mod.py#L6-L8)" in text
    assert '[part](lib/mod.py#L11-L13 "src: lib.mod.part")' in text
    assert f"/blob/{head}/" not in text  # a permalink moves only when asked
    assert run_cli(["fix", "--write", "--to", "HEAD", "README.md"]) == 0
    assert f"{WEB}/blob/{head}/lib/mod.py#L6-L8" in (repo / "README.md").read_text("utf-8")
    capsys.readouterr()
    assert run_cli(["check", "README.md"]) == 0, capsys.readouterr().out


def test_a_changed_body_is_changed_with_its_class(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["update", "README.md"]) == 0
    commit_all(repo, "lock")
    (repo / "lib" / "mod.py").write_text(MODULE.replace('"hello " + name', '"hi " + name'), "utf-8")
    commit_all(repo, "hi")
    capsys.readouterr()
    assert run_cli(["check", "README.md"]) == 1
    out = capsys.readouterr().out
    assert "README.md:3: changed (code): self:/lib/mod.py#greet" in out
    assert run_cli(["update", "README.md"]) == 0
    assert run_cli(["check", "README.md"]) == 0


def test_bad_input_gets_one_located_message(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "docs").mkdir()
    (repo / "docs" / "bad.md").write_text(
        "[gone](../lib/nothere.py#L1-L2) [far](../lib/mod.py#L40-L41)\n"
        "[same](../lib/mod.py#L4-L6) [same](../lib/mod.py#L4-L6)\n",
        "utf-8",
    )
    (repo / "docs" / "latin.md").write_bytes("caf\xe9 [x](../lib/mod.py#L4)\n".encode("latin-1"))
    assert run_cli(["update", "docs"]) == 1
    err = capsys.readouterr().err
    assert "docs/bad.md:1: lib/nothere.py#L1-L2: " in err
    assert "docs/bad.md:1: lib/mod.py#L40-L41: lines 40-41 are past the end of lib/mod.py" in err
    assert "docs/latin.md:1: not UTF-8" in err
    assert "Traceback" not in err


def test_the_lock_changes_only_when_cited_code_does(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["update", "README.md"]) == 0
    locked = (repo / "source-anchors.lock").read_text("utf-8")
    commit_all(repo, "lock")
    # An edit elsewhere in the cited file: a new blob, the same lines and text of greet and part.
    (repo / "lib" / "mod.py").write_text(MODULE + "\n\ndef later():\n    return 1\n", "utf-8")
    commit_all(repo, "later")
    capsys.readouterr()
    assert run_cli(["update", "README.md"]) == 0
    assert "(0 change(s))" in capsys.readouterr().err
    assert (repo / "source-anchors.lock").read_text("utf-8") == locked
    assert run_cli(["check", "README.md"]) == 0
    # The cited body changes: its record (text hash and blob) does.
    (repo / "lib" / "mod.py").write_text(MODULE.replace('"hello " + name', '"hi " + name'), "utf-8")
    commit_all(repo, "hi")
    assert run_cli(["update", "README.md"]) == 0
    after = json.loads((repo / "source-anchors.lock").read_text("utf-8"))["anchors"]["self"]
    before = json.loads(locked)["anchors"]["self"]
    assert after["/lib/mod.py#greet"]["sha256"] != before["/lib/mod.py#greet"]["sha256"]
    assert after["lib.mod.part"] == before["lib.mod.part"]


def test_a_permalink_is_never_locked_and_moved_to_head_checks_clean(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    head = git("rev-parse", "HEAD", cwd=repo).strip()
    (repo / "NOTES.md").write_text(f"[part]({WEB}/blob/{head}/lib/mod.py#L9-L11)\n", "utf-8")
    commit_all(repo, "notes")
    assert run_cli(["update", "NOTES.md"]) == 0
    assert "0 line link(s) locked" in capsys.readouterr().err
    assert not json.loads((repo / "source-anchors.lock").read_text("utf-8"))["anchors"]
    (repo / "lib" / "mod.py").write_text(
        MODULE.replace('"""A library."""\n', '"""A library."""\n\nA = 1\n'), "utf-8"
    )
    new = commit_all(repo, "move")
    assert run_cli(["check", "NOTES.md"]) == 0  # old, never broken
    assert "NOTES.md:1: old permalink" in capsys.readouterr().out
    assert run_cli(["fix", "--write", "--to", "HEAD", "NOTES.md"]) == 0
    assert f"/blob/{new}/lib/mod.py#L11-L13" in (repo / "NOTES.md").read_text("utf-8")
    commit_all(repo, "notes at head")
    capsys.readouterr()
    assert run_cli(["check", "NOTES.md"]) == 0
    assert capsys.readouterr().out == ""


def test_update_never_relocks_a_link_to_what_its_old_lines_show_now(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["update", "README.md"]) == 0
    locked = (repo / "source-anchors.lock").read_text("utf-8")
    commit_all(repo, "lock")
    # greet grows by two lines: its link (L4-L6) now shows only part of it.
    grown = MODULE.replace(
        '    return "hello " + name\n',
        '    word = "hello"\n    sep = " "\n    return word + sep + name\n',
    )
    (repo / "lib" / "mod.py").write_text(grown, "utf-8")
    commit_all(repo, "grow")
    capsys.readouterr()
    assert run_cli(["update", "README.md"]) == 1
    err = capsys.readouterr().err
    assert (
        "README.md:3: self:/lib/mod.py#greet is now at lib/mod.py:L4–L8, the link says "
        "lib/mod.py:L4-L6; run 'source-anchors fix --write' first" in err
    )
    after = json.loads((repo / "source-anchors.lock").read_text("utf-8"))["anchors"]["self"]
    assert after["/lib/mod.py#greet"] == json.loads(locked)["anchors"]["self"]["/lib/mod.py#greet"]
    # fix follows the changed definition's lines; the change stays reported until update.
    assert run_cli(["fix", "--write", "README.md"]) == 0
    assert "[`greet`](lib/mod.py#L4-L8)" in (repo / "README.md").read_text("utf-8")
    commit_all(repo, "fixed")
    capsys.readouterr()
    assert run_cli(["check", "README.md"]) == 1
    assert "README.md:3: changed (code): self:/lib/mod.py#greet" in capsys.readouterr().out
    assert run_cli(["update", "README.md"]) == 0
    assert run_cli(["check", "README.md"]) == 0


def test_update_of_some_files_keeps_what_the_others_cite(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "docs").mkdir()
    (repo / "docs" / "guide.md").write_text("[part](../lib/mod.py#L9-L11)\n", "utf-8")
    commit_all(repo, "guide")
    assert run_cli(["update", "README.md", "docs"]) == 0
    both = json.loads((repo / "source-anchors.lock").read_text("utf-8"))["anchors"]["self"]
    assert "/lib/mod.py#part" in both
    assert run_cli(["update", "README.md"]) == 0
    after = json.loads((repo / "source-anchors.lock").read_text("utf-8"))["anchors"]["self"]
    assert after == both
    # Once no file cites it, update prunes it.
    (repo / "docs" / "guide.md").write_text("no links\n", "utf-8")
    commit_all(repo, "guide without links")
    (repo / "README.md").write_text("[`greet`](lib/mod.py#L4-L6) says hello.\n", "utf-8")
    commit_all(repo, "readme shorter")
    capsys.readouterr()
    assert run_cli(["update", "README.md"]) == 0
    assert "pruned: self:/lib/mod.py#part" in capsys.readouterr().out


def test_a_title_names_a_module_of_a_namespace_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # tools/ has no __init__.py: Python imports tools.report from the root all the same (PEP 420).
    root = tmp_path / "ns"
    (root / "tools").mkdir(parents=True)
    (root / "tools" / "report.py").write_text(MODULE, "utf-8")
    (root / "README.md").write_text(
        '[part](tools/report.py#L9-L11 "src: tools.report.part")\n', "utf-8"
    )
    (root / "pyproject.toml").write_text(
        f"[tool.source-anchors]\ncache-dir = {str(tmp_path / 'cache')!r}\n", "utf-8"
    )
    git("init", "-q", "-b", "main", cwd=root)
    commit_all(root, "namespace")
    monkeypatch.chdir(root)
    assert run_cli(["update", "README.md"]) == 0, capsys.readouterr().err
    lock = json.loads((root / "source-anchors.lock").read_text("utf-8"))["anchors"]["self"]
    assert (lock["tools.report.part"]["start"], lock["tools.report.part"]["end"]) == (9, 11)


def test_a_change_after_a_merge_brought_the_locked_text_is_classed_from_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The locked blob was made by a merge commit (which 'git log' does not diff by default): the
    # old lines are still found, in the parent of the commit that changed them.
    assert run_cli(["update", "README.md"]) == 0
    commit_all(repo, "lock")
    git("checkout", "-q", "-b", "topic", cwd=repo)
    (repo / "lib" / "mod.py").write_text(MODULE.replace("Say hello.", "Say hello!"), "utf-8")
    commit_all(repo, "docstring on a branch")
    git("checkout", "-q", "main", cwd=repo)
    (repo / "lib" / "mod.py").write_text(MODULE.replace("The first", "The 1st"), "utf-8")
    commit_all(repo, "another docstring on main")
    # Both sides changed the file: the merged text is a blob that only the merge commit has.
    git("merge", "-q", "--no-ff", "-m", "merge topic", "topic", cwd=repo)
    merged = MODULE.replace("Say hello.", "Say hello!").replace("The first", "The 1st")
    assert (repo / "lib" / "mod.py").read_text("utf-8") == merged
    assert run_cli(["update", "README.md"]) == 0
    commit_all(repo, "relock")
    (repo / "lib" / "mod.py").write_text(
        merged.replace("Say hello!", "Say hello, politely."), "utf-8"
    )
    commit_all(repo, "comment only")
    capsys.readouterr()
    assert run_cli(["check", "README.md"]) == 1
    out = capsys.readouterr().out
    assert "README.md:3: changed (comments): self:/lib/mod.py#greet" in out, out
    assert "old tree not available" not in out


def test_a_locked_text_in_no_commit_of_the_history_says_so(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["update", "README.md"]) == 0
    # A rewritten history (one orphan commit) no longer holds the locked blob.
    (repo / "lib" / "mod.py").write_text(MODULE.replace("Say hello.", "Say hi."), "utf-8")
    git("checkout", "-q", "--orphan", "rewritten", cwd=repo)
    commit_all(repo, "squashed")
    capsys.readouterr()
    assert run_cli(["check", "README.md"]) == 1
    out = capsys.readouterr().out
    assert "README.md:3: changed (code): self:/lib/mod.py#greet" in out, out
    assert "is in no commit of this checkout's history" in out and "self@" not in out
