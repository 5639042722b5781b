"""Prose anchors into the docs' own repository (``self:``): read at HEAD, locked with no commit, drift caught.

Each test makes a project with git (a package and a ``docs`` folder, ``origin`` on GitHub), builds
it with ``sphinx-build`` in a subprocess and runs the CLI in-process, commit after commit.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from helpers import PY, build_env, commit_all, git, run_cli

ORIGIN = "git@github.com:acme/tiny.git"
MODULE = '''\
"""Tiny."""


def greet(name):
    """Say hello."""
    return "hello " + name


def part(name):
    """The first letter, upper case."""
    head = name[:1]
    return head.upper()
'''
PAGE = """\
# Tour

`greet` says hello: {src}`greet <tiny.mod.greet>`; split: {src}`self:tiny.mod.part`.
"""


def _project(root: Path, *, page: str = PAGE) -> Path:
    """A committed project (``tiny/mod.py``, ``docs/``) citing itself with ``self``; its docs folder."""
    (root / "tiny").mkdir(parents=True)
    (root / "tiny" / "__init__.py").write_text("", "utf-8")
    (root / "tiny" / "mod.py").write_text(MODULE, "utf-8")
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        'extensions = ["myst_parser", "source_anchors"]\n'
        'source_anchors_default_repo = "self"\n'
        "exclude_patterns = ['_build']\n"
        f"source_anchors_cache_dir = {str(root.parent / 'cache')!r}\n",
        "utf-8",
    )
    (docs / "index.md").write_text(page, "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("remote", "add", "origin", ORIGIN, cwd=root)
    commit_all(root, "release")
    return docs


def _build(docs: Path, *, locked: bool) -> subprocess.CompletedProcess[str]:
    env = {"CI": "true" if locked else None}
    return subprocess.run(
        [PY, "-m", "sphinx", "-q", str(docs), str(docs / "_build" / "html")],
        capture_output=True,
        text=True,
        env=build_env(env),
        cwd=docs,
        timeout=300,
        check=False,
    )


def _cli(docs: Path, *args: str) -> int:
    return run_cli(["--confdir", str(docs), "--srcdir", str(docs), *args])


def test_self_anchors_lock_without_commit_and_link_the_built_commit(tmp_path: Path) -> None:
    docs = _project(tmp_path / "proj")
    head = git("rev-parse", "HEAD", cwd=docs.parent).strip()
    first = _build(docs, locked=False)
    assert first.returncode == 0, first.stderr
    assert "WARNING" not in first.stderr, first.stderr
    lock = json.loads((docs / "source-anchors.lock").read_text("utf-8"))
    records = lock["anchors"]["self"]
    assert sorted(records) == ["tiny.mod.greet", "tiny.mod.part"]
    assert all("commit" not in record for record in records.values())
    assert records["tiny.mod.greet"]["path"] == "tiny/mod.py"
    assert (records["tiny.mod.greet"]["start"], records["tiny.mod.greet"]["end"]) == (4, 6)
    html = (docs / "_build" / "html" / "index.html").read_text("utf-8")
    assert f"https://github.com/acme/tiny/blob/{head}/tiny/mod.py#L4-L6" in html

    # A commit that touches no cited line leaves the lock's text as it is, and the build passes.
    lock_text = (docs / "source-anchors.lock").read_text("utf-8")
    (docs.parent / "NOTES.txt").write_text("unrelated\n", "utf-8")
    commit_all(docs.parent, "notes")
    again = _build(docs, locked=True)
    assert again.returncode == 0, again.stderr
    assert "WARNING" not in again.stderr, again.stderr
    assert (docs / "source-anchors.lock").read_text("utf-8") == lock_text


def test_a_commit_that_changes_a_cited_body_fails_the_locked_build(tmp_path: Path) -> None:
    docs = _project(tmp_path / "proj")
    assert _build(docs, locked=False).returncode == 0
    commit_all(docs.parent, "lock")
    mod = docs.parent / "tiny" / "mod.py"
    mod.write_text(MODULE.replace('"hello " + name', '"hi " + name'), "utf-8")
    commit_all(docs.parent, "say hi")
    failed = _build(docs, locked=True)
    assert "changed (code): self:tiny.mod.greet tiny/mod.py:L4–L6" in failed.stderr, failed.stderr
    assert '-    return "hello " + name' in failed.stderr
    assert "tiny.mod.part" not in failed.stderr  # its lines are the same

    assert _cli(docs, "update") == 0
    lock = json.loads((docs / "source-anchors.lock").read_text("utf-8"))
    assert "commit" not in lock["anchors"]["self"]["tiny.mod.greet"]
    commit_all(docs.parent, "relock")
    passed = _build(docs, locked=True)
    assert passed.returncode == 0, passed.stderr
    assert "WARNING" not in passed.stderr, passed.stderr


def test_a_moved_definition_is_moved_and_a_renamed_one_is_fixed(tmp_path: Path) -> None:
    docs = _project(tmp_path / "proj")
    assert _build(docs, locked=False).returncode == 0
    commit_all(docs.parent, "lock")
    mod = docs.parent / "tiny" / "mod.py"
    # One commit moves greet down (a helper above it) and renames part to first.
    text = MODULE.replace('"""Tiny."""\n', '"""Tiny."""\n\nSEP = " "\n').replace(
        "def part", "def first"
    )
    mod.write_text(text, "utf-8")
    commit_all(docs.parent, "move and rename")
    failed = _build(docs, locked=True)
    assert "moved: self:tiny.mod.greet tiny/mod.py:L4–L6 → tiny/mod.py:L6–L8" in failed.stderr, (
        failed.stderr
    )
    assert "missing: self:tiny.mod.part" in failed.stderr
    assert "tiny.mod.first" in failed.stderr  # the suggestion names the new name

    assert _cli(docs, "fix", "--write") == 0
    assert "{src}`self:tiny.mod.first`" in (docs / "index.md").read_text("utf-8")
    assert _cli(docs, "update") == 0
    commit_all(docs.parent, "fixed")
    passed = _build(docs, locked=True)
    assert passed.returncode == 0, passed.stderr
    assert "WARNING" not in passed.stderr, passed.stderr


def test_uncommitted_edits_to_cited_files_are_named_in_one_warning(tmp_path: Path) -> None:
    docs = _project(tmp_path / "proj")
    (docs.parent / "tiny" / "other.py").write_text("X = 1\n", "utf-8")
    commit_all(docs.parent, "other")
    assert _build(docs, locked=False).returncode == 0
    commit_all(docs.parent, "lock")
    head = git("rev-parse", "HEAD", cwd=docs.parent).strip()
    # The cited module edited and not committed; a file no anchor cites edited too.
    mod = docs.parent / "tiny" / "mod.py"
    mod.write_text(MODULE.replace('"hello " + name', '"hi " + name'), "utf-8")
    (docs.parent / "tiny" / "other.py").write_text("X = 2\n", "utf-8")
    built = _build(docs, locked=True)
    assert built.returncode == 0, built.stderr  # HEAD is what is read and locked: no drift
    warnings = [line for line in built.stderr.splitlines() if "WARNING" in line]
    assert len(warnings) == 1, built.stderr
    assert (
        "index.md:3: WARNING: 1 file(s) that 'self:' anchors cite have uncommitted edits"
        in (warnings[0])
    )
    assert f"committed at HEAD ({head[:7]}): tiny/mod.py; commit them" in warnings[0]
    assert "editing [source-anchors.uncommitted]" in warnings[0]
    html = (docs / "_build" / "html" / "index.html").read_text("utf-8")
    assert f"/blob/{head}/tiny/mod.py#L4-L6" in html
