"""Markdown beside a Sphinx book (README.md next to docs/conf.py): the plain front end's, its own lock.

Each test makes a repository with git holding a book's ``conf.py`` and a README with a line link,
and runs ``source-anchors check|update|fix README.md`` in-process from the repository's root.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import git, run_cli

MODULE = (
    '"""A library."""\n\n\ndef greet(name):\n    """Say hello."""\n    return "hello " + name\n'
)


def _repo(root: Path, tmp: Path, *, confdir: str, pages: str = "") -> Path:
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "__init__.py").write_text("", "utf-8")
    (root / "lib" / "mod.py").write_text(MODULE, "utf-8")
    (root / confdir).mkdir(parents=True, exist_ok=True)
    (root / confdir / "conf.py").write_text('extensions = ["source_anchors"]\n', "utf-8")
    (root / confdir / pages).mkdir(parents=True, exist_ok=True)
    (root / confdir / pages / "index.rst").write_text("Index\n=====\n", "utf-8")
    (root / "README.md").write_text("[`greet`](lib/mod.py#L4-L6) says hello.\n", "utf-8")
    (root / "pyproject.toml").write_text(
        f"[tool.source-anchors]\ncache-dir = {str(tmp / 'cache')!r}\n", "utf-8"
    )
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "library", cwd=root)
    return root


def test_a_readme_beside_docs_conf_is_checked_by_its_own_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path / "lib-repo", tmp_path, confdir="docs")
    monkeypatch.chdir(root)
    # Before anything is locked: said, and no failure (the book's hook passes every staged .md).
    assert run_cli(["check", "README.md"]) == 0
    assert "README.md: no page of the book" in capsys.readouterr().err
    assert run_cli(["update", "README.md"]) == 0
    lock = json.loads((root / "source-anchors.lock").read_text("utf-8"))
    assert list(lock["anchors"]["self"]) == ["/lib/mod.py#greet"]
    assert not (root / "docs" / "source-anchors.lock").exists()
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "lock", cwd=root)
    (root / "lib" / "mod.py").write_text(
        MODULE.replace('"""A library."""\n', '"""A library."""\n\nA = 1\n'), "utf-8"
    )
    git("commit", "-q", "-am", "move", cwd=root)
    capsys.readouterr()
    assert run_cli(["check", "README.md"]) == 1
    assert "README.md:1: moved: self:/lib/mod.py#greet" in capsys.readouterr().out
    assert run_cli(["fix", "--write", "README.md"]) == 0
    assert "(lib/mod.py#L6-L8)" in (root / "README.md").read_text("utf-8")


def test_a_book_at_the_root_never_shares_its_lock_with_markdown_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # conf.py at the root, the pages in source/ (sphinx-build -c . source): README.md is no page.
    root = _repo(tmp_path / "lib-repo", tmp_path, confdir=".", pages="source")
    monkeypatch.chdir(root)
    assert run_cli(["update", "README.md"]) == 2
    err = capsys.readouterr().err
    assert "would be the book's (source-anchors.lock)" in err and "--lock FILE" in err
    assert not (root / "source-anchors.lock").exists()
    assert run_cli(["update", "--lock", "docs-links.lock", "README.md"]) == 0
    assert "/lib/mod.py#greet" in (root / "docs-links.lock").read_text("utf-8")
