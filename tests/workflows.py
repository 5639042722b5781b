"""The venv's command-line tools and the validators of the CI files ``init-ci`` writes (tests only)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def venv_tool(name: str) -> str:
    """The path of the venv's *name* (actionlint, check-jsonschema, pre-commit); fails when absent."""
    path = BIN / name
    if not path.exists():
        pytest.fail(f"{name} is not installed in the venv: make .venv/.requirements-installed")
    return str(path)


def assert_valid_github_workflow(workflow: Path, *, cwd: Path | None = None) -> None:
    """actionlint and GitHub's workflow schema (check-jsonschema's vendored copy) both accept *workflow*."""
    lint = subprocess.run(
        [venv_tool("actionlint"), "-no-color", str(workflow)],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )
    assert lint.returncode == 0, lint.stdout + lint.stderr
    schema = subprocess.run(
        [
            venv_tool("check-jsonschema"),
            "--builtin-schema",
            "vendor.github-workflows",
            str(workflow),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert schema.returncode == 0, schema.stdout + schema.stderr


def gitlab_schema(path: Path) -> subprocess.CompletedProcess[str]:
    """check-jsonschema's run of GitLab's CI schema (its vendored copy) on *path*."""
    return subprocess.run(
        [venv_tool("check-jsonschema"), "--builtin-schema", "vendor.gitlab-ci", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
