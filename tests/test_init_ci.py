"""``source-anchors init-ci github|gitlab`` and the pre-commit hook (issue 31).

The workflow files are checked with actionlint and with the GitHub workflow and GitLab CI schemas
that check-jsonschema ships; the scheduled bump's own script is run with bash against an upstream
made here (only the step that talks to GitHub is not). The hook runs under the real ``pre-commit
try-repo`` in a repository made here, from the anchor cache alone: the upstream is gone by then.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, Book, Upstream, build_env, git, run_cli, write_conf
from test_ci import Released
from workflows import assert_valid_github_workflow, gitlab_schema, venv_tool

BIN = Path(sys.executable).parent


@pytest.fixture
def repo(upstream: Upstream, book: Book, monkeypatch: pytest.MonkeyPatch) -> Released:
    """The book as a git repository of its own (its root holds conf.py), locked at v1.0.0."""
    made = Released(upstream, book)
    (book.root / "requirements.txt").write_text("sphinx-source-anchors\nmyst-parser\n", "utf-8")
    assert run_cli(book.cli("update")) == 0
    git("init", "-q", "-b", "main", cwd=book.root)
    git("add", "-A", cwd=book.root)
    git("commit", "-q", "-m", "book", cwd=book.root)
    monkeypatch.chdir(book.root)
    return made


def test_github_workflow_passes_actionlint_and_the_schema(
    repo: Released, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["init-ci", "github"]) == 0
    workflow = repo.book.root / ".github" / "workflows" / "source-anchors.yml"
    assert f"wrote {workflow}" in capsys.readouterr().out
    assert_valid_github_workflow(workflow, cwd=repo.book.root)
    data = yaml.safe_load(workflow.read_text("utf-8"))
    assert set(data["jobs"]) == {"build", "bump"}
    build = [step.get("run", "") for step in data["jobs"]["build"]["steps"]]
    assert "python -m sphinx -W --keep-going . _build/html" in build
    # actionlint can fail: a broken expression is reported (so the check above means something).
    workflow.write_text(workflow.read_text("utf-8").replace("github.token", "github.tokn"), "utf-8")
    assert (
        subprocess.run(
            [venv_tool("actionlint"), "-no-color", str(workflow)], capture_output=True, check=False
        ).returncode
        == 1
    )


def test_an_existing_workflow_is_kept(repo: Released, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["init-ci", "gitlab"]) == 0
    assert run_cli(["init-ci", "gitlab"]) == 2
    assert "exists; nothing written (add --force to replace it)" in capsys.readouterr().err
    assert run_cli(["init-ci", "gitlab", "--force"]) == 0


def test_gitlab_ci_passes_the_gitlab_schema(repo: Released) -> None:
    assert run_cli(["init-ci", "gitlab"]) == 0
    path = repo.book.root / ".gitlab-ci.yml"
    schema = gitlab_schema(path)
    assert schema.returncode == 0, schema.stdout + schema.stderr
    data = yaml.safe_load(path.read_text("utf-8"))
    assert data["build"]["artifacts"]["reports"]["codequality"] == "gl-code-quality-report.json"
    path.write_text(path.read_text("utf-8").replace("when: always", "when: sometimes"), "utf-8")
    assert (
        subprocess.run(
            [venv_tool("check-jsonschema"), "--builtin-schema", "vendor.gitlab-ci", str(path)],
            capture_output=True,
            check=False,
        ).returncode
        == 1
    )


def _script_env(tmp: Path) -> dict[str, str]:
    return build_env(
        {"PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "RUNNER_TEMP": str(tmp), "CI": "true"}
    )


def test_the_workflow_scripts_build_strictly_and_bump(repo: Released, tmp_path: Path) -> None:
    """The build job's strict build passes; the bump job's script moves the pin and writes the body."""
    assert run_cli(["init-ci", "github"]) == 0
    data = yaml.safe_load(
        (repo.book.root / ".github" / "workflows" / "source-anchors.yml").read_text("utf-8")
    )
    env = _script_env(tmp_path)
    strict = next(
        step
        for step in data["jobs"]["build"]["steps"]
        if step.get("name") == "strict build (locked)"
    )
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", strict["run"]],
        cwd=repo.book.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    bump = next(
        step
        for step in data["jobs"]["bump"]["steps"]
        if step.get("name", "").startswith("bump every pin")
    )
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", bump["run"]],
        cwd=repo.book.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    body = (tmp_path / "body.md").read_text("utf-8")
    assert body.startswith("## Bump `up` to v2.0.0") and "### Needs a human" in body
    changed = git("diff", "--name-only", cwd=repo.book.root).split()
    assert sorted(changed) == ["conf.py", "index.md", "source-anchors.lock"]
    # Now the strict build fails on what needs a human, as the pull request's check will.
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", strict["run"]],
        cwd=repo.book.root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode != 0 and "pkg.mod.gamma" in done.stderr


# -- pre-commit
# ----------------------------------------------------------------------------------------


def test_hook_definition() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert [hook["id"] for hook in hooks] == ["source-anchors", "source-anchors-markdown"]
    assert all(hook["language"] == "python" for hook in hooks)
    assert hooks[0]["entry"].startswith("source-anchors check")
    assert hooks[1]["entry"] == "source-anchors check --staged" and "files" not in hooks[1]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is needed")
def test_pre_commit_try_repo_checks_the_staged_pages_offline(
    repo: Released, tmp_path: Path
) -> None:
    """The hook passes on a page whose anchors match the lock and fails, located, on one that does not.

    The upstream is deleted first: the hook reads only the anchor cache the lock's build filled.
    """
    book = repo.book.root
    # reStructuredText pages, so that the hook's environment needs no MyST parser.
    (book / "index.md").unlink()
    (book / "index.rst").write_text(RST, "utf-8")
    repo.book.settings = {}
    write_conf(
        book, repo.book.repos, repo.book.cache, extensions=("source_anchors",), default_repo="up"
    )
    assert run_cli(repo.book.cli("update")) == 0
    git("add", "-A", cwd=book)
    git("commit", "-q", "-m", "rst", cwd=book)
    shutil.rmtree(repo.upstream.path)
    env = build_env(
        {
            "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
            "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "GIT_CONFIG_GLOBAL": os.devnull,
        },
        proxies=True,
    )

    def hook(*pages: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                venv_tool("pre-commit"),
                "try-repo",
                str(ROOT),
                "source-anchors",
                "--verbose",
                "--files",
                *pages,
            ],
            cwd=book,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )

    done = hook("index.rst")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout and "6 anchors: 6 ok" in done.stdout
    page = (book / "index.rst").read_text("utf-8")
    (book / "index.rst").write_text(page.replace("pkg.mod.alpha", "pkg.mod.nowhere"), "utf-8")
    done = hook("index.rst")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout and "pkg.mod.nowhere" in done.stdout and "index:4" in done.stdout


RST = """\
Page
====

:src:`alpha <pkg.mod.alpha>`, :src:`beta <pkg.mod.beta>`,
:src:`gamma <pkg.mod.gamma>`, :src:`delta <pkg.mod.delta>`,
:src:`epsilon <pkg.mod.epsilon>` and :src:`zeta <pkg.mod.zeta>`.
"""


def test_the_manuals_local_hook_runs_the_installed_command(repo: Released, tmp_path: Path) -> None:
    """Before a release there is no tag to name: the manual's ``repo: local`` hook works under real pre-commit."""
    manual = (ROOT / "docs" / "publishing.md").read_text("utf-8")
    blocks = [
        block.partition("\n")[2] for block in manual.split("```")[1::2] if block.startswith("yaml")
    ]
    (local,) = [block for block in blocks if "repo: local" in block]
    book = repo.book.root
    (book / ".pre-commit-config.yaml").write_text(local, "utf-8")
    git("add", "-A", cwd=book)
    git("commit", "-q", "-m", "hook", cwd=book)
    env = build_env(
        {
            "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
            "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "GIT_CONFIG_GLOBAL": os.devnull,
        },
        proxies=True,
    )
    run = [venv_tool("pre-commit"), "run", "source-anchors", "--verbose", "--files", "index.md"]
    done = subprocess.run(
        run, cwd=book, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0 and "Passed" in done.stdout, done.stdout + done.stderr
    page = (book / "index.md").read_text("utf-8")
    (book / "index.md").write_text(page.replace("pkg.mod.alpha", "pkg.mod.nowhere"), "utf-8")
    done = subprocess.run(
        run, cwd=book, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 1 and "pkg.mod.nowhere" in done.stdout, done.stdout + done.stderr


# -- a library that documents itself (issue 40)
# -----------------------------------------------------------


@pytest.fixture
def library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A library's repository: ``src/lib``, a ``docs`` extra, and docs whose API links point at itself."""
    root = tmp_path / "lib"
    files = {
        "pyproject.toml": '[project]\nname = "lib"\nversion = "1"\n\n[project.optional-dependencies]\n'
        'docs = ["sphinx"]\n',
        "src/lib/__init__.py": '"""The library."""\n\n\ndef area(w, h):\n    """The area."""\n    return w * h\n',
        "docs/requirements.txt": "sphinx\n",
        "docs/conf.py": "import os, sys\nsys.path.insert(0, os.path.abspath('../src'))\n"
        "extensions = ['sphinx.ext.autodoc', 'source_anchors']\n"
        "source_anchors_api_links = 'self'\nexclude_patterns = ['_build']\n",
        "docs/index.rst": "Lib\n===\n\n.. automodule:: lib\n\n.. autofunction:: lib.area\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("remote", "add", "origin", "https://github.com/me/lib.git", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "lib", cwd=root)
    monkeypatch.chdir(root)
    return root


def test_a_library_without_pins_gets_the_strict_build_alone(
    library: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run_cli(["init-ci", "github"]) == 0
    out, err = capsys.readouterr()
    assert "no bump job" in out and "pins no repository" in out, out
    # This venv has the extension from this checkout (pip's direct_url.json), not from an index: the
    # workflow's `pip install … sphinx-source-anchors` may find nothing, and init-ci says what to
    # change.
    assert "was installed from file://" in err and "not from a package index" in err, err
    workflow = library / ".github" / "workflows" / "source-anchors.yml"
    assert_valid_github_workflow(workflow, cwd=library)
    data = yaml.safe_load(workflow.read_text("utf-8"))
    assert set(data["jobs"]) == {"build"} and set(data[True]) == {
        "pull_request",
        "push",
    }  # YAML 1.1: on is True
    steps = data["jobs"]["build"]["steps"]
    # The project with its docs extra (autodoc imports it), the docs' requirements and the
    # extension.
    assert {"run": "pip install -r docs/requirements.txt '.[docs]' sphinx-source-anchors"} in steps
    strict = next(step for step in steps if step.get("name") == "strict build (locked)")
    assert strict["run"] == "python -m sphinx -W --keep-going docs _build/html"
    # The strict build passes, then fails once a documented function is gone from the library.
    env = _script_env(tmp_path)
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", strict["run"]],
        cwd=library,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (library / "src" / "lib" / "__init__.py").write_text('"""The library."""\n', "utf-8")
    git("commit", "-q", "-a", "-m", "area removed", cwd=library)
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", strict["run"]],
        cwd=library,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode != 0 and re.search(r"autodoc: failed to import .*area", done.stderr), (
        done.stderr
    )


def test_a_library_without_pins_gets_a_valid_gitlab_ci(
    library: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["init-ci", "gitlab"]) == 0
    assert "no bump job" in capsys.readouterr().out
    path = library / ".gitlab-ci.yml"
    schema = gitlab_schema(path)
    assert schema.returncode == 0, schema.stdout + schema.stderr
    data = yaml.safe_load(path.read_text("utf-8"))
    assert "bump" not in data and data["stages"] == ["build"]
    assert data["build"]["script"] == [
        "pip install -r docs/requirements.txt '.[docs]' sphinx-source-anchors",
        "python -m sphinx -W --keep-going docs _build/html",
    ]


def test_the_install_step_takes_what_the_repository_names(tmp_path: Path) -> None:
    from source_anchors.cli.initci import install_command

    root = tmp_path / "r"
    (root / "docs").mkdir(parents=True)
    assert (
        install_command(root, root / "docs", root / "docs") == "pip install sphinx-source-anchors"
    )
    (root / "setup.py").write_text("", "utf-8")
    (root / "docs" / "requirements.txt").write_text("furo\nSphinx_Source_Anchors>=1\n", "utf-8")
    assert (
        install_command(root, root / "docs", root / "docs")
        == "pip install -r docs/requirements.txt ."
    )
