"""Shared fixtures: upstream repositories made with git, and small books built with Sphinx."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXT = ROOT / "ext"
if str(EXT) not in sys.path:
    sys.path.insert(0, str(EXT))


def git(*args: str, cwd: Path) -> str:
    """Run git in *cwd* with a fixed identity; return stdout."""
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=env).stdout


@dataclass
class Upstream:
    """A git repository made by a test, served as a ``file://`` remote with blob filters allowed."""

    path: Path

    def __post_init__(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        git("init", "-q", "-b", "main", cwd=self.path)
        git("config", "uploadpack.allowFilter", "true", cwd=self.path)

    @property
    def url(self) -> str:
        """The ``file://`` URL of this repository."""
        return self.path.as_uri()

    def write(self, rel: str, text: str) -> None:
        """Write a file (dedented) into the work tree."""
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text).lstrip("\n"), "utf-8")

    def remove(self, rel: str) -> None:
        """Delete a file from the work tree."""
        (self.path / rel).unlink()

    def commit(self, message: str = "change") -> str:
        """Commit everything; return the full SHA."""
        git("add", "-A", cwd=self.path)
        git("commit", "-q", "--allow-empty", "-m", message, cwd=self.path)
        return git("rev-parse", "HEAD", cwd=self.path).strip()


@dataclass
class Book:
    """A small book: conf.py, pages in source/, a private anchor cache."""

    root: Path
    cache: Path
    repos: dict[str, dict[str, object]] = field(default_factory=dict)
    extra_conf: str = ""

    def write_conf(self, **values: object) -> None:
        """(Re)write conf.py with the current repos and any extra ``source_anchors_*`` values."""
        lines = [
            "import sys",
            f"sys.path.insert(0, {str(EXT)!r})",
            "extensions = ['myst_parser', 'source_anchors']",
            "myst_enable_extensions = ['colon_fence']",
            f"source_anchors_repos = {self.repos!r}",
            f"source_anchors_cache_dir = {str(self.cache)!r}",
        ]
        lines += [f"source_anchors_{key} = {value!r}" for key, value in values.items()]
        (self.root / "conf.py").write_text("\n".join(lines) + "\n" + self.extra_conf, "utf-8")

    def page(self, name: str, text: str) -> None:
        """Write ``source/<name>.md`` (dedented)."""
        target = self.root / "source" / f"{name}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text).lstrip("\n"), "utf-8")

    def build(self, *args: str, out: str = "html", env: dict[str, str] | None = None) -> BuildResult:
        """Run ``sphinx-build`` in a subprocess, as a user would; CI is unset unless given."""
        full_env = {k: v for k, v in os.environ.items() if k not in ("CI", "SOURCE_ANCHORS_CACHE")}
        full_env.update(env or {})
        done = subprocess.run(
            [sys.executable, "-m", "sphinx", "-c", str(self.root), *args, str(self.root / "source"),
             str(self.root / "_build" / out)],
            capture_output=True, text=True, env=full_env, cwd=self.root, timeout=600,
        )
        return BuildResult(done.returncode, done.stdout, done.stderr, self.root / "_build" / out)

    @property
    def lock(self) -> Path:
        """The lock file beside conf.py."""
        return self.root / "source-anchors.lock"


@dataclass
class BuildResult:
    """Exit status, output and the output directory of one build."""

    returncode: int
    stdout: str
    stderr: str
    outdir: Path

    def report(self) -> list[dict[str, object]]:
        """The build's ``source-anchors.json``."""
        import json

        data = json.loads((self.outdir / "source-anchors.json").read_text("utf-8"))
        assert isinstance(data, list)
        return data

    def warnings(self) -> list[str]:
        """The lines of stderr that are warnings (paths made relative to the book)."""
        return [line for line in self.stderr.splitlines() if "WARNING" in line or "ERROR" in line]


@pytest.fixture
def upstream(tmp_path: Path) -> Upstream:
    """An empty upstream repository."""
    return Upstream(tmp_path / "upstream")


@pytest.fixture
def book(tmp_path: Path) -> Book:
    """An empty book with its own cache."""
    root = tmp_path / "book"
    (root / "source").mkdir(parents=True)
    return Book(root=root, cache=tmp_path / "cache")


@pytest.fixture(autouse=True)
def _no_ci(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests choose locked mode themselves; CI's own CI=true must not leak into them."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("SOURCE_ANCHORS_CACHE", raising=False)
    yield
