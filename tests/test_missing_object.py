"""A checkout that lacks an object of HEAD (a damaged clone, a snapshot without its large files).

Found on a real copy of gpt-researcher whose one large log file was left out: exporting HEAD for the
``self`` repository ended in a traceback from the parser of ``git cat-file --batch``. Now the links
get one located message that names the object and the fix, and nothing is locked.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import git, run_cli


def test_a_missing_object_is_one_located_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "repo"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "__init__.py").write_text("", "utf-8")
    (root / "lib" / "mod.py").write_text("def greet():\n    return 'hello'\n", "utf-8")
    (root / "logs.txt").write_text("a large log the copy left out\n", "utf-8")
    (root / "README.md").write_text(
        '# lib\n\n[greet](lib/mod.py#L1-L2 "src: lib.mod.greet") says hello.\n', "utf-8"
    )
    (root / "pyproject.toml").write_text(
        f"[tool.source-anchors]\ncache-dir = {str(tmp_path / 'cache')!r}\n", "utf-8"
    )
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "lib", cwd=root)
    blob = git("rev-parse", "HEAD:logs.txt", cwd=root).strip()
    (root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    monkeypatch.chdir(root)

    assert run_cli(["update", "README.md"]) == 1
    err = capsys.readouterr().err
    assert "README.md:3: lib.mod.greet: cannot read self@" in err
    assert f"git has no object {blob} (missing); fetch it again" in err
    assert "Traceback" not in err
    assert not (root / "source-anchors.lock").exists() or "lib.mod.greet" not in (
        root / "source-anchors.lock"
    ).read_text("utf-8")
