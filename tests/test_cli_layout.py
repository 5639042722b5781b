"""The CLI finds a book as ``sphinx-build`` users lay it out (``find_book``), and says so when it cannot."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_cli
from source_anchors.cli.main import find_book


def lay_out(root: Path, files: list[str]) -> Path:
    for rel in files:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(
            "# a page\n" if not rel.endswith("conf.py") else "project = 'x'\n", "utf-8"
        )
    return root


@pytest.mark.parametrize(
    ("files", "conf", "pages"),
    [
        (["conf.py", "index.rst"], ".", "."),  # sphinx-quickstart
        (["source/conf.py", "source/index.rst"], "source", "source"),  # sphinx-quickstart --sep
        (
            ["conf.py", "source/index.md"],
            ".",
            "source",
        ),  # sphinx-build -c . source (this project's book)
        (["docs/conf.py", "docs/index.md"], "docs", "docs"),
        (["doc/conf.py", "doc/index.rst"], "doc", "doc"),
        (
            ["conf.py", "index.rst", "source/conf.py", "source/index.rst"],
            ".",
            ".",
        ),  # source/ is a book of its own
    ],
)
def test_the_book_is_found_where_sphinx_users_put_it(
    tmp_path: Path, files: list[str], conf: str, pages: str
) -> None:
    root = lay_out(tmp_path, files)
    assert find_book(root, None, None) == ((root / conf).resolve(), (root / pages).resolve())


def test_explicit_folders_win(tmp_path: Path) -> None:
    root = lay_out(tmp_path, ["conf.py", "source/index.md", "other/index.rst"])
    assert find_book(root, ".", "other") == (root.resolve(), (root / "other").resolve())
    assert find_book(root / "source", "..", None) == (root.resolve(), (root / "source").resolve())


def test_no_conf_py_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run_cli(["check"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("error: no conf.py in ")
        and "pass --confdir" in err
        and "Traceback" not in err
    )
