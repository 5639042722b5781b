"""``source-anchors init-ci github|gitlab`` where there is no conf.py: a job for Markdown line links.

A repository whose Markdown cites its own code (a ``source-anchors.lock`` with ``self`` records,
or Markdown files with line links into the repository) gets one job on pull (merge) requests and
on pushes to the default branch: ``source-anchors check --format github|gitlab PATH…`` over the
Markdown files and folders that hold such links. Its annotations land on the Markdown lines of the
links that drifted, and on the code lines that broke them (where the cited lines are now, or
were). The whole history is fetched: a permalink to an older commit, and the class of a change,
are read from it. Nothing is built and nothing but this package is installed.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from ..lock.lockfile import read_lock
from ..markup.mdlinks import md_links
from ..model.config import SELF
from ..model.errors import GitError, SourceAnchorsError
from ..model.fsio import atomic_write
from ..model.records import LockRecord
from ..model.target import parse_target
from ..plain.forms import LineLink, line_link
from ..sources.apigit import find_repo, web_url
from .initci import PATHS, _not_from_an_index, repo_root
from .plaincode import MARKDOWN
from .plainconf import lock_file

__all__ = ["init_plain_ci", "markdown_roots", "render_plain"]

PURPOSE = (
    "check the Markdown line links that cite this repository's code\n# against {lock} on every "
    "{request} request, annotated on the Markdown lines and on the\n# code lines that broke them."
)

GITHUB = """\
# Written by `source-anchors init-ci github`: {purpose}
name: source-anchors
on:
  pull_request:
  push:
    branches: [{default}]
permissions:
  contents: read
jobs:
  markdown:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v5
        with:
          fetch-depth: 0
      - uses: actions/setup-python@v6
        with:
          python-version: "3.12"
      - run: pip install sphinx-source-anchors
      - name: Markdown line links, annotated on the Markdown and on the code
        run: source-anchors check --format github {paths}
"""

GITLAB = """\
# Written by `source-anchors init-ci gitlab`: {purpose}
source-anchors:
  image: python:3.12
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE == "push"
  variables:
    GIT_DEPTH: "0"
  script:
    - pip install sphinx-source-anchors
    - source-anchors check --format gitlab {paths} > gl-code-quality-report.json
  artifacts:
    when: always
    reports:
      codequality: gl-code-quality-report.json
"""


def _quoted(path: str) -> str:
    return (
        path
        if all(c.isalnum() or c in "._-/" for c in path)
        else "'" + path.replace("'", "'\\''") + "'"
    )


def render_plain(kind: str, *, paths: list[str], lock: str, default_branch: str = "main") -> str:
    """The workflow text for *kind* (``github`` or ``gitlab``) checking the Markdown *paths*."""
    purpose = PURPOSE.format(lock=lock, request="pull" if kind == "github" else "merge")
    form = GITHUB if kind == "github" else GITLAB
    return form.format(
        purpose=purpose, default=default_branch, paths=" ".join(_quoted(p) for p in paths)
    )


def markdown_roots(
    root: Path, records: Mapping[str, LockRecord], *, timeout: float = 60
) -> tuple[list[str], int]:
    """The Markdown files and top folders of *root*'s tracked files that hold line links into it, and how many links.

    Where the lock has ``self`` *records*, only the files with a link it records (``update`` was
    given those); else every file with a line link. A file at the root is named itself; one
    below is named by its top folder.
    """
    by_lines = {(r.path, r.start, r.end) for r in records.values()}

    def locked(says: LineLink) -> bool:
        if not records:
            return True
        if says.explicit is not None:
            try:
                return parse_target(says.explicit, default_repo=SELF).key in records
            except SourceAnchorsError:
                return False
        return (says.path, says.start, says.end) in by_lines

    from ..sources import proc

    try:
        raw = proc.git(
            ["ls-files", "-z", "--", *(f"*{s}" for s in MARKDOWN)], cwd=root, timeout=timeout
        )
    except GitError:
        return [], 0
    repo = find_repo(root, timeout=timeout)
    web = web_url(repo.remote) if repo is not None and repo.remote else None
    roots: set[str] = set()
    count = 0
    for name in raw.decode("utf-8", "surrogateescape").split("\0"):
        try:
            text = (root / name).read_bytes().decode("utf-8") if name else ""
        except (OSError, UnicodeDecodeError):
            continue
        page_dir = name.rpartition("/")[0]
        says = [
            line_link(link.url, link.title, page_dir=page_dir, web=web) for link in md_links(text)
        ]
        found = [s for s in says if isinstance(s, LineLink)]
        if any(locked(s) for s in found):
            count += len(found)
            roots.add(name.partition("/")[0])
    return sorted(roots), count


def init_plain_ci(kind: str, *, output: str | None, force: bool) -> int:
    """Write the Markdown job; 0, or 2 with one message when there is nothing to check or it cannot."""
    root = repo_root(Path.cwd())
    lock = Path(lock_file(str(root), None))
    lock = lock if lock.is_absolute() else root / lock
    try:
        records = read_lock(lock).records.get(SELF, {}) if lock.is_file() else {}
    except SourceAnchorsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    roots, count = markdown_roots(root, records)
    if not roots:
        print(
            f"error: nothing to check in {root.name}: no conf.py here (a Sphinx book), and no tracked "
            "Markdown file with a line link into this repository ([text](lib/mod.py#L4-L6)); "
            "write one and run 'source-anchors update FILE', or run init-ci where conf.py is",
            file=sys.stderr,
        )
        return 2
    target = Path(output) if output else root / PATHS[kind]
    if target.exists() and not force:
        print(
            f"error: {target} exists; nothing written (add --force to replace it)", file=sys.stderr
        )
        return 2
    text = render_plain(
        kind,
        paths=roots,
        lock=lock.relative_to(root).as_posix() if lock.is_relative_to(root) else lock.name,
    )
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(target, text)
    except OSError as error:
        print(f"error: cannot write {target}: {error.strerror or error}", file=sys.stderr)
        return 2
    note = _not_from_an_index(text)
    if note:
        print(note, file=sys.stderr)
    print(
        f"wrote {target}: on {'pull' if kind == 'github' else 'merge'} requests, 'source-anchors "
        f"check --format {kind} {' '.join(roots)}' ({count} line link(s) now)"
        + (
            ""
            if lock.is_file()
            else f"; no {lock.name} yet: run 'source-anchors update "
            f"{' '.join(roots)}' and commit it"
        )
    )
    return 0
