"""``source-anchors init-ci github|gitlab``: a workflow for the book's repository.

On pull requests (and pushes): the anchors are checked as annotations on the page lines, then the
book is built strictly (``CI=true``: locked; ``-W --keep-going``; ``-n`` is left to ``conf.py``'s
``nitpicky``). On a schedule (and by hand):
``source-anchors bump NAME --latest --write`` for every pinned repository, and one pull (merge)
request, on one branch, opened or updated with the bodies the bumps wrote. The anchor cache is kept
between runs by the CI's own cache, keyed by the lock.

Both jobs install what the docs build needs (:func:`install_command`): the requirement files, and
the project itself where the repository holds one, since autodoc imports what the pages document
(and the API links of a pinned repository are read from what autodoc gives). A book that pins
nothing (a library whose API links point at itself, ``source_anchors_api_links = "self"``) gets the
strict build alone: there is nothing to bump.

The file goes where the CI reads it, below the repository's root (found with git, else the current
directory): ``.github/workflows/source-anchors.yml`` or ``.gitlab-ci.yml``. An existing file is
never overwritten without ``--force``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from ..model.fsio import atomic_write
from .book import BookError
from .bump import configured

BRANCH = "source-anchors/bump"
PATHS = {"github": ".github/workflows/source-anchors.yml", "gitlab": ".gitlab-ci.yml"}

GITHUB = """\
# Written by `source-anchors init-ci github`: {purpose}
name: source-anchors
on:
  pull_request:
  push:
    branches: [{default}]
{schedule}permissions:
  contents: read
env:
  SOURCE_ANCHORS_CACHE: ${{{{ github.workspace }}}}/.source-anchors-cache
jobs:
  build:
{build_if}    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v5
      - uses: actions/setup-python@v6
        with:
          python-version: "3.12"
      - uses: actions/cache@v5
        with:
          path: .source-anchors-cache
          key: source-anchors-${{{{ hashFiles('{lock}') }}}}
          restore-keys: source-anchors-
      - run: {install}
{annotations}      - name: strict build (locked)
        env:
          CI: "true"
        run: {build}
"""

GITHUB_SCHEDULE = """\
  schedule:
    - cron: "23 4 * * 1"
  workflow_dispatch:
"""
GITHUB_BUILD_IF = "    if: github.event_name == 'pull_request' || github.event_name == 'push'\n"
GITHUB_ANNOTATIONS = """\
      - name: anchors as annotations on the page lines
        run: source-anchors{book} check --format github || true
"""

GITHUB_BUMP = """\
  bump:
    if: github.event_name == 'schedule' || github.event_name == 'workflow_dispatch'
    runs-on: ubuntu-latest
    permissions:
      contents: write
      pull-requests: write
    steps:
      - uses: actions/checkout@v5
      - uses: actions/setup-python@v6
        with:
          python-version: "3.12"
      - uses: actions/cache@v5
        with:
          path: .source-anchors-cache
          key: source-anchors-${{{{ hashFiles('{lock}') }}}}
          restore-keys: source-anchors-
      - run: {install}
      - name: bump every pin to its newest release
        run: |
          : > "$RUNNER_TEMP/body.md"
          for name in {names}; do
            source-anchors{book} bump "$name" --latest --write --body "$RUNNER_TEMP/$name.md" || [ $? -eq 1 ]
            cat "$RUNNER_TEMP/$name.md" >> "$RUNNER_TEMP/body.md"
          done
      - name: open or update the pull request
        env:
          GH_TOKEN: ${{{{ github.token }}}}
        run: |
          if git diff --quiet; then echo "no new release"; exit 0; fi
          git config user.name "github-actions[bot]"
          git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
          git switch -C {branch}
          git commit -q -a -m "Bump pinned upstreams to their newest releases"
          git push --force origin {branch}
          if gh pr view {branch} --json number > /dev/null 2>&1; then
            gh pr edit {branch} --body-file "$RUNNER_TEMP/body.md"
          else
            gh pr create --head {branch} --title "Bump pinned upstreams to their newest releases" \\
              --body-file "$RUNNER_TEMP/body.md"
          fi
"""

GITLAB = """\
# Written by `source-anchors init-ci gitlab`: {purpose}
default:
  image: python:3.12
  cache:
    key:
      files: [{lock}]
    paths: [.source-anchors-cache]
variables:
  SOURCE_ANCHORS_CACHE: $CI_PROJECT_DIR/.source-anchors-cache
stages: [{stages}]
build:
  stage: build
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE == "push"
  script:
    - {install}
{annotations}    - {build}
{artifacts}"""

GITLAB_ANNOTATIONS = (
    "    - source-anchors{book} check --format gitlab > gl-code-quality-report.json || true\n"
)
GITLAB_ARTIFACTS = """\
  artifacts:
    when: always
    reports:
      codequality: gl-code-quality-report.json
"""

GITLAB_BUMP = """\
bump:
  stage: bump
  rules:
    - if: $CI_PIPELINE_SOURCE == "schedule" || $CI_PIPELINE_SOURCE == "web"
  script:
    - {install}
    - |
      : > body.md
      for name in {names}; do
        source-anchors{book} bump "$name" --latest --write --body "$name.md" || [ $? -eq 1 ]
        cat "$name.md" >> body.md; rm "$name.md"
      done
    - |
      if git diff --quiet; then echo "no new release"; exit 0; fi
      git config user.name "source-anchors bot"
      git config user.email "source-anchors-bot@$CI_SERVER_HOST"
      git switch -C {branch}
      git commit -q -a -m "Bump pinned upstreams to their newest releases"
      git push --force "https://oauth2:$SOURCE_ANCHORS_BOT_TOKEN@$CI_SERVER_HOST/$CI_PROJECT_PATH.git" \\
        HEAD:{branch} -o merge_request.create -o merge_request.target=$CI_DEFAULT_BRANCH \\
        -o merge_request.title="Bump pinned upstreams to their newest releases" \\
        -o merge_request.description="$(head -c 60000 body.md)"
"""


def repo_root(start: Path) -> Path:
    """The git work tree's root holding *start*, else *start* itself."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=start,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except OSError:  # no git: the current directory it is
        return start
    return Path(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else start


#: What the first lines of the file say it does, by kind; :data:`NOTHING_TO_BUMP` where nothing is
#: pinned.
PURPOSE = {
    "github": "check the book's anchors on every pull request and\n# propose a pull request when an "
    "upstream it pins makes a release.",
    "gitlab": "check the book's anchors on every merge request and\n# propose a merge request when an "
    "upstream it pins makes a release (a pipeline schedule runs `bump`;\n# it pushes with the "
    "CI/CD variable SOURCE_ANCHORS_BOT_TOKEN, a project access token with write_repository).",
}
NOTHING_TO_BUMP = (
    "build the docs strictly on every {request} request.\n# conf.py pins no repository, so "
    'there is no bump job: API links to "self" follow this\n# repository\'s own commit and '
    "are not locked."
)
#: Requirement files of a docs build, beside the repository's own ``requirements.txt``.
DOCS_REQUIREMENTS = (
    "requirements.txt",
    "requirements-docs.txt",
    "docs-requirements.txt",
    "docs/requirements.txt",
    "doc/requirements.txt",
)


def install_command(root: Path, confdir: Path, srcdir: Path) -> str:
    """``pip install …``: what the docs build needs, as the repository says it.

    Its requirement files (at the root, in ``docs/`` or ``doc/``, beside ``conf.py`` or the pages),
    the project itself when the root holds one (``.``, or ``.[docs]`` when it declares a ``docs``
    extra), since autodoc imports what the pages document; and this extension unless a requirement
    file names it already.
    """
    found: list[Path] = []
    for path in [root / name for name in DOCS_REQUIREMENTS] + [
        confdir / "requirements.txt",
        srcdir / "requirements.txt",
    ]:
        if path.is_file() and path.resolve() not in found:
            found.append(path.resolve())
    words = [f"-r {Path(os.path.relpath(path, root.resolve())).as_posix()}" for path in found]
    if any((root / name).is_file() for name in ("pyproject.toml", "setup.py", "setup.cfg")):
        words.append("'.[docs]'" if _docs_extra(root / "pyproject.toml") else ".")
    named = any(
        re.search(
            r"^\s*sphinx[-_.]source[-_.]anchors\b",
            path.read_text("utf-8", "replace"),
            re.IGNORECASE | re.MULTILINE,
        )
        for path in found
    )
    return "pip install " + " ".join(words + ([] if named else ["sphinx-source-anchors"]))


def _not_from_an_index(workflow: str) -> str | None:
    """A note when the workflow installs ``sphinx-source-anchors`` by name but this copy came from a file or URL.

    pip records where a distribution installed from a path, a wheel file or a VCS URL came from
    (``direct_url.json``, PEP 610); before the first release that is the only way to have it, and
    the generated ``pip install … sphinx-source-anchors`` would find nothing on the package index.
    """
    if not re.search(r"pip install .*\bsphinx-source-anchors\b", workflow):
        return None
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        origin = distribution("sphinx-source-anchors").read_text("direct_url.json")
    except PackageNotFoundError:
        return None
    if not origin:
        return None
    try:
        url = json.loads(origin).get("url", "")
    except (ValueError, AttributeError):
        url = ""
    return (
        f"note: this sphinx-source-anchors was installed from {url or 'a file or URL'}, not from a package "
        "index; if it is not on yours, change 'sphinx-source-anchors' in the workflow's pip install line to "
        "a wheel committed to this repository (./wheels/sphinx_source_anchors-….whl) or to 'sphinx-source-"
        "anchors @ git+<its repository>@<commit>' (see the manual's Install page)"
    )


def _docs_extra(pyproject: Path) -> bool:
    """Whether *pyproject* declares the optional dependencies ``docs``."""
    try:
        data = tomllib.loads(pyproject.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
    extras = data.get("project", {}).get("optional-dependencies", {})
    return isinstance(extras, dict) and "docs" in extras


def render(
    kind: str,
    *,
    root: Path,
    confdir: Path,
    srcdir: Path,
    names: list[str],
    lock: Path,
    default_branch: str = "main",
) -> str:
    """The workflow text for *kind* (``github`` or ``gitlab``), with paths relative to *root*.

    Without *names* (no pin to bump) it holds the strict build alone.
    """

    def rel(path: Path) -> str:
        return Path(os.path.relpath(path, root)).as_posix()

    conf, src = rel(confdir), rel(srcdir)
    book = f" --confdir {conf} --srcdir {src}" if (conf, src) != (".", ".") else ""
    config = f"-c {conf} " if conf != src else ""
    fields = {
        "default": default_branch,
        "lock": rel(lock),
        "install": install_command(root, confdir, srcdir),
        "book": book,
        "build": f"python -m sphinx -W --keep-going {config}{src} _build/html",
        "names": " ".join(names),
        "branch": BRANCH,
    }
    bump = bool(names)
    purpose = (
        PURPOSE[kind]
        if bump
        else NOTHING_TO_BUMP.format(request="pull" if kind == "github" else "merge")
    )
    if kind == "github":
        return GITHUB.format(
            **fields,
            purpose=purpose,
            schedule=GITHUB_SCHEDULE if bump else "",
            build_if=GITHUB_BUILD_IF if bump else "",
            annotations=GITHUB_ANNOTATIONS.format(**fields) if bump else "",
        ) + (GITHUB_BUMP.format(**fields) if bump else "")
    return GITLAB.format(
        **fields,
        purpose=purpose,
        stages="build, bump" if bump else "build",
        annotations=GITLAB_ANNOTATIONS.format(**fields) if bump else "",
        artifacts=GITLAB_ARTIFACTS if bump else "",
    ) + (GITLAB_BUMP.format(**fields) if bump else "")


def init_ci(kind: str, confdir: Path, srcdir: Path, *, output: str | None, force: bool) -> int:
    """Write the workflow; 0, or 2 with one message when it cannot."""
    try:
        settings = configured(confdir)
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    root = repo_root(Path.cwd())
    target = Path(output) if output else root / PATHS[kind]
    if target.exists() and not force:
        print(
            f"error: {target} exists; nothing written (add --force to replace it)", file=sys.stderr
        )
        return 2
    text = render(
        kind,
        root=root,
        confdir=confdir,
        srcdir=srcdir,
        names=sorted(settings.repos),
        lock=settings.lock_path,
    )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, text)
    except OSError as error:
        print(f"error: cannot write {target}: {error.strerror or error}", file=sys.stderr)
        return 2
    requests = f"the strict build on {'pull' if kind == 'github' else 'merge'} requests"
    note = _not_from_an_index(text)
    if note:
        print(note, file=sys.stderr)
    if not settings.repos:
        print(
            f"wrote {target}: {requests}; no bump job, since {confdir / 'conf.py'} pins no repository "
            '(source_anchors_repos): API links to "self" follow the checkout\'s commit and are not locked'
        )
        return 0
    print(
        f"wrote {target}: {requests} and a scheduled bump of {', '.join(sorted(settings.repos))}"
        + (
            "; set the CI/CD variable SOURCE_ANCHORS_BOT_TOKEN and a pipeline schedule"
            if kind == "gitlab"
            else ""
        )
    )
    return 0
