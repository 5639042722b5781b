"""The index of the docs' own repository as a commit: the code as it will be committed (``--staged``).

At pre-commit time the code being committed is in git's index, not in HEAD. :func:`staged_repo`
makes the index a commit object, so that everything that reads ``self`` from git's objects (the
tree export, the history a changed anchor's old lines are found in) reads it as it reads HEAD:
``git write-tree`` (as pre-commit itself runs before its hooks) and ``git commit-tree`` with HEAD
as parent and a fixed author, committer and date, so that the same index on the same HEAD is the
same commit and its exported tree is read from the cache on the next run. The commit is referenced
by no branch or tag: git's garbage collection removes it. Nothing is read from the working tree.
"""

from __future__ import annotations

from pathlib import Path

from ..model.errors import GitError
from ..model.hosts import without_credentials
from .apigit import LocalRepo, find_repo

__all__ = ["index_changes", "staged_repo"]

#: Who "wrote" the index's commit: fixed, so that the same index gives the same commit id.
_IDENTITY = {
    "GIT_AUTHOR_NAME": "source-anchors",
    "GIT_AUTHOR_EMAIL": "source-anchors@localhost",
    "GIT_COMMITTER_NAME": "source-anchors",
    "GIT_COMMITTER_EMAIL": "source-anchors@localhost",
}
MESSAGE = "source-anchors: the index (staged, not committed)"


def _git(args: list[str], cwd: Path, timeout: float, env: dict[str, str] | None = None) -> bytes:
    from . import proc  # the subprocess machinery, for the runs that use it only

    return proc.git(args, cwd=cwd, timeout=timeout, env=env)


def staged_repo(start: Path, *, timeout: float) -> LocalRepo | str:
    """The git checkout holding *start* with its index as the commit; or the problem, naming its fix.

    Works before a first commit too (the index's commit then has no parent).
    """
    try:
        root = Path(_git(["rev-parse", "--show-toplevel"], start, timeout).decode().strip())
    except GitError:
        return f"{start} is in no git checkout (or git is not installed): run 'git init' first"
    head = find_repo(root, timeout=timeout)
    try:
        tree = _git(["write-tree"], root, timeout).decode().strip()
    except GitError as error:
        return f"cannot read the index of {root.name} as a tree (a merge in progress?): {error}"
    if head is not None:
        date = _git(["show", "-s", "--format=%ct", head.commit], root, timeout).decode().strip()
        parent = ["-p", head.commit]
    else:
        date, parent = "1", []
    stamp = f"@{date} +0000"
    env = {**_IDENTITY, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    try:
        commit = (
            _git(["commit-tree", tree, *parent, "-m", MESSAGE], root, timeout, env=env)
            .decode()
            .strip()
        )
    except GitError as error:
        return f"cannot make a commit of the index of {root.name}: {error}"
    remote = head.remote if head is not None else None
    if head is None:
        try:
            configured = _git(["config", "--get", "remote.origin.url"], root, timeout).decode()
        except GitError:
            configured = ""
        remote = without_credentials(configured.strip()) or None
    return LocalRepo(root=root, commit=commit, tags=(), remote=remote)


def index_changes(root: Path, *, timeout: float) -> tuple[list[str], list[str]]:
    """The files the index changes from HEAD: (added or modified, deleted); renames as both.

    A file renamed away is a deleted path here, so that the links into its old name are found.
    Before a first commit every file of the index is added.
    """
    try:
        raw = _git(
            ["diff", "--cached", "--name-status", "--no-renames", "-z", "HEAD", "--"],
            root,
            timeout,
        )
    except GitError:
        listed = _git(["ls-files", "-z"], root, timeout).decode("utf-8", "surrogateescape")
        return sorted(p for p in listed.split("\0") if p), []
    fields = raw.decode("utf-8", "surrogateescape").split("\0")
    changed: list[str] = []
    deleted: list[str] = []
    for status, path in zip(fields[0::2], fields[1::2], strict=False):
        (deleted if status == "D" else changed).append(path)
    return sorted(changed), sorted(deleted)
