"""Where maintainers work (issue 42, item 3): ``--staged`` and code paths, the Markdown hook, ``init-ci``.

Each test makes a repository with git (``lib/mod.py``, a README with a relative line link and an
explicit target, ``docs/guide.md`` citing the same code, ``NOTES.md`` with a link the lock does not
record), locks it with ``source-anchors update``, commits, then stages a change of the code only.
The hook runs under the real ``pre-commit try-repo`` (pre-commit is in requirements-dev), on the
staged files, with an unstaged edit that pre-commit stashes; the CI jobs are checked with
actionlint and the GitHub and GitLab schemas, and their check command is run with bash.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, build_env, commit_all, git, run_cli
from workflows import assert_valid_github_workflow, gitlab_schema, venv_tool

BIN = Path(sys.executable).parent
MODULE = '''\
"""A library."""


def greet(name):
    """Say hello."""
    return "hello " + name


def part(name):
    """The first letter."""
    return name[:1]
'''
#: greet moved down two lines (L4-L6 -> L6-L8), part too (L9-L11 -> L11-L13).
MOVED = MODULE.replace('"""A library."""\n', '"""A library."""\n\nSEP = " "\n')
README = (
    "# lib\n\n"
    "[`greet`](lib/mod.py#L4-L6) says hello.\n"
    '[part](lib/mod.py#L9-L11 "src: lib.mod.part") gives a letter.\n'
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The repository, locked (README.md and docs/) and committed; the current folder."""
    root = tmp_path / "lib-repo"
    files = {
        "lib/__init__.py": "",
        "lib/mod.py": MODULE,
        "README.md": README,
        "docs/guide.md": "Read [greet](../lib/mod.py#L4-L6) first.\n",
        "NOTES.md": "Not locked: [the docstring](lib/mod.py#L1).\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    (root / ".gitignore").write_text("pyproject.toml\n", "utf-8")
    (root / "pyproject.toml").write_text(
        f"[tool.source-anchors]\ncache-dir = {str(tmp_path / 'cache')!r}\n", "utf-8"
    )
    git("init", "-q", "-b", "main", cwd=root)
    git("remote", "add", "origin", "git@github.com:acme/lib.git", cwd=root)
    monkeypatch.chdir(root)
    commit_all(root, "library and docs")
    assert run_cli(["update", "README.md", "docs"]) == 0
    commit_all(root, "lock")
    return root


def _stage_the_move(root: Path) -> None:
    """The move staged; the working tree's file back as HEAD has it (only the index holds the move)."""
    (root / "lib" / "mod.py").write_text(MOVED, "utf-8")
    git("add", "lib/mod.py", cwd=root)
    (root / "lib" / "mod.py").write_text(MODULE, "utf-8")


def test_staged_code_is_checked_against_every_page_that_cites_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _stage_the_move(repo)
    capsys.readouterr()
    assert run_cli(["check", "README.md"]) == 0  # HEAD: nothing moved yet
    assert run_cli(["check", "--staged", "README.md"]) == 1  # the index: moved
    assert "README.md:3: moved" in capsys.readouterr().out

    # Only the code is given, as pre-commit passes a commit that touches no Markdown.
    assert run_cli(["check", "--staged", "lib/mod.py"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "README.md:3: moved: self:/lib/mod.py#greet lib/mod.py:L4–L6 → lib/mod.py:L6–L8",
        "README.md:4: moved: self:lib.mod.part is at lib/mod.py:L11–L13, the link says "
        "lib/mod.py:L9-L11; run 'source-anchors fix --write'",
        "docs/guide.md:1: moved: self:/lib/mod.py#greet lib/mod.py:L4–L6 → lib/mod.py:L6–L8",
    ]
    assert "NOTES.md" not in out  # a link the lock does not record is its own page's business
    assert "3 line link(s), 3 drifted" in err
    # No path at all: the staged files themselves.
    assert run_cli(["check", "--staged"]) == 1
    assert capsys.readouterr().out == out
    # A code file no locked link cites: nothing to read, nothing to report.
    (repo / "lib" / "__init__.py").write_text("X = 1\n", "utf-8")
    assert run_cli(["check", "--staged", "lib/__init__.py"]) == 0


def test_annotations_land_on_the_markdown_and_on_the_code(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _stage_the_move(repo)
    capsys.readouterr()
    assert run_cli(["check", "--staged", "--format", "github", "lib/mod.py"]) == 1
    out = capsys.readouterr().out
    assert "::warning file=README.md,line=3," in out
    code = "::warning file=lib/mod.py,line=6,title=source-anchors%3A moved self%3A/lib/mod.py#greet"
    assert f"{code}::README.md:3, docs/guide.md:1 cite these lines: moved" in out
    assert "::warning file=lib/mod.py,line=11," in out and "file=docs/guide.md,line=1," in out
    assert run_cli(["check", "--staged", "--format", "gitlab", "lib/mod.py"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert sorted((r["location"]["path"], r["location"]["lines"]["begin"]) for r in report) == [
        ("README.md", 3),
        ("README.md", 4),
        ("docs/guide.md", 1),
        ("lib/mod.py", 6),
        ("lib/mod.py", 11),
    ]
    assert len({r["fingerprint"] for r in report}) == 5


def test_an_old_permalink_is_a_note_and_no_annotation(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = git("rev-list", "--max-parents=0", "HEAD", cwd=repo).strip()
    link = f"https://github.com/acme/lib/blob/{first}/lib/mod.py#L4-L6"
    (repo / "OLD.md").write_text(f"[greet then]({link})\n", "utf-8")
    (repo / "lib" / "mod.py").write_text(MOVED, "utf-8")
    commit_all(repo, "move, and a page with a permalink")
    capsys.readouterr()
    assert run_cli(["check", "OLD.md"]) == 0
    assert f"OLD.md:1: old permalink ({first[:7]}): moved" in capsys.readouterr().out
    assert run_cli(["check", "--format", "github", "OLD.md"]) == 0
    assert capsys.readouterr().out.strip() == ""


def test_fix_staged_heals_the_pages_and_the_commit_then_passes(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _stage_the_move(repo)
    assert run_cli(["fix", "--write", "--staged", "lib/mod.py"]) == 0
    assert "[`greet`](lib/mod.py#L6-L8)" in (repo / "README.md").read_text("utf-8")
    assert '[part](lib/mod.py#L11-L13 "src: lib.mod.part")' in (repo / "README.md").read_text(
        "utf-8"
    )
    assert "(../lib/mod.py#L6-L8)" in (repo / "docs" / "guide.md").read_text("utf-8")
    assert (repo / "NOTES.md").read_text("utf-8").endswith("(lib/mod.py#L1).\n")
    lock = json.loads((repo / "source-anchors.lock").read_text("utf-8"))
    assert lock["anchors"]["self"]["/lib/mod.py#greet"]["start"] == 6
    git("add", "README.md", "docs", "source-anchors.lock", cwd=repo)
    capsys.readouterr()
    assert run_cli(["check", "--staged"]) == 0, capsys.readouterr().out
    git("checkout", "--", "lib/mod.py", cwd=repo)  # the working tree as the index
    git("commit", "-q", "-m", "move greet", cwd=repo)
    assert run_cli(["check", "README.md", "docs"]) == 0, capsys.readouterr().out


def test_a_file_renamed_away_is_found_by_its_old_name(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    git("mv", "lib/mod.py", "lib/core.py", cwd=repo)
    capsys.readouterr()
    # pre-commit passes the new name only; the old one is the index's deletion.
    assert run_cli(["check", "--staged", "lib/core.py"]) == 1
    out = capsys.readouterr().out
    assert "README.md:3: missing: self:/lib/mod.py#greet" in out
    assert "README.md:4: missing: self:lib.mod.part" in out
    assert "docs/guide.md:1: missing" in out


def test_a_first_commit_is_checked_from_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "new"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "__init__.py").write_text("", "utf-8")
    (root / "lib" / "mod.py").write_text(MODULE, "utf-8")
    (root / "README.md").write_text(README, "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    monkeypatch.chdir(root)
    monkeypatch.setenv("SOURCE_ANCHORS_CACHE", str(tmp_path / "cache"))
    assert run_cli(["check", "README.md"]) == 2  # no HEAD to read
    assert "not in a git checkout with a commit" in capsys.readouterr().err
    assert run_cli(["update", "--staged", "README.md"]) == 0
    git("add", "source-anchors.lock", cwd=root)
    assert run_cli(["check", "--staged"]) == 0
    head = subprocess.run(["git", "rev-parse", "--verify", "-q", "HEAD"], cwd=root, check=False)
    assert head.returncode != 0  # still no commit: the index was read


def test_options_that_do_not_go_together(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["update", "lib/mod.py"]) == 2
    assert "lib/mod.py: not a Markdown file or folder; 'update' relocks" in capsys.readouterr().err
    assert run_cli(["fix", "--write", "--staged", "--to", "HEAD", "README.md"]) == 2
    assert "with --staged there is none yet: commit first" in capsys.readouterr().err


# -- the pre-commit hook
# ----------------------------------------------------------------------------------------


def test_the_markdown_hook_under_pre_commit_judges_the_index(repo: Path, tmp_path: Path) -> None:
    """``pre-commit try-repo`` on the staged files: the staged move fails, an unstaged edit is stashed.

    The unstaged edit moves the code back: were the working tree read, the hook would pass.
    """
    env = build_env(
        {
            "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
            "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
            "GIT_CONFIG_GLOBAL": os.devnull,
        },
        proxies=True,
    )

    def hook() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                venv_tool("pre-commit"),
                "try-repo",
                str(ROOT),
                "source-anchors-markdown",
                "--verbose",
            ],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )

    _stage_the_move(repo)
    done = hook()
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    assert (
        "README.md:3: moved: self:/lib/mod.py#greet lib/mod.py:L4–L6 → lib/mod.py:L6–L8"
        in done.stdout
    )
    assert (repo / "lib" / "mod.py").read_text("utf-8") == MODULE  # the unstaged edit is back
    assert run_cli(["fix", "--write", "--staged", "lib/mod.py"]) == 0
    git("add", "README.md", "docs", "source-anchors.lock", cwd=repo)
    done = hook()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Passed" in done.stdout


# -- init-ci for Markdown anchors
# ----------------------------------------------------------------------------------------


def _run_step(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A workflow's ``run:`` line under bash, with the venv's ``source-anchors`` on PATH."""
    env = build_env({"PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"})
    return subprocess.run(
        ["bash", "-eo", "pipefail", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_init_ci_github_annotates_the_markdown_and_the_code(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["init-ci", "github"]) == 0
    workflow = repo / ".github" / "workflows" / "source-anchors.yml"
    assert "check --format github README.md docs' (3 line link(s) now)" in capsys.readouterr().out
    assert_valid_github_workflow(workflow)
    data = yaml.safe_load(workflow.read_text("utf-8"))
    assert set(data[True]) == {"pull_request", "push"}  # YAML 1.1 reads the key 'on' as True
    (job,) = data["jobs"].values()
    assert job["steps"][0]["with"]["fetch-depth"] == 0
    command = job["steps"][-1]["run"]
    assert command == "source-anchors check --format github README.md docs"
    assert _run_step(command, repo).returncode == 0
    (repo / "lib" / "mod.py").write_text(MOVED, "utf-8")
    commit_all(repo, "a pull request moves greet")
    done = _run_step(command, repo)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "::warning file=README.md,line=3," in done.stdout
    assert "::warning file=lib/mod.py,line=6," in done.stdout
    assert "NOTES.md" not in done.stdout


def test_init_ci_gitlab_reports_code_quality(repo: Path) -> None:
    assert run_cli(["init-ci", "gitlab"]) == 0
    path = repo / ".gitlab-ci.yml"
    schema = gitlab_schema(path)
    assert schema.returncode == 0, schema.stdout + schema.stderr
    job = yaml.safe_load(path.read_text("utf-8"))["source-anchors"]
    assert job["variables"]["GIT_DEPTH"] == "0"
    assert job["artifacts"]["reports"]["codequality"] == "gl-code-quality-report.json"
    (repo / "lib" / "mod.py").write_text(MODULE.replace('"hello "', '"hi "'), "utf-8")
    commit_all(repo, "a merge request changes greet")
    assert _run_step(job["script"][-1], repo).returncode == 1
    report = json.loads((repo / "gl-code-quality-report.json").read_text("utf-8"))
    assert {(r["location"]["path"], r["check_name"]) for r in report} == {
        ("README.md", "source-anchors/changed"),
        ("docs/guide.md", "source-anchors/changed"),
        ("lib/mod.py", "source-anchors/changed"),
    }


def test_init_ci_without_anything_to_check_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "README.md").write_text("No [line links](https://example.org) here.\n", "utf-8")
    git("init", "-q", "-b", "main", cwd=tmp_path)
    commit_all(tmp_path, "readme")
    monkeypatch.chdir(tmp_path)
    assert run_cli(["init-ci", "github"]) == 2
    err = capsys.readouterr().err
    assert "nothing to check" in err and "no conf.py here" in err and "Traceback" not in err
    assert not (tmp_path / ".github").exists()
