"""The docs' own repository as a pin (``self``): read at HEAD from the checkout's git objects (no Sphinx).

Prose anchors into the repository that holds the docs name it ``self``. Its pin is HEAD of the git
checkout holding the docs (:func:`own_pin`), its web address the ``origin`` remote's (credentials
dropped) or the configured one; its trees, at HEAD or at an older commit, are exported from the
checkout's objects (:func:`export_local`), never fetched and never read from the working tree,
whose uncommitted edits are only named. A lock record of ``self`` names no commit: the commit that
holds its blob is found in the history when a changed anchor's old lines are wanted
(:func:`holding_commit`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..model.config import SELF, RepoPin
from ..model.errors import ConfigError, GitError, SourceError
from ..model.hosts import template_for
from . import apigit

__all__ = ["export_local", "holding_commit", "listing_at", "own_pin", "read_blob"]


def _git(args: list[str], cwd: Path, timeout: float) -> bytes:
    from . import proc  # the subprocess machinery, for the builds that use it only

    return proc.git(args, cwd=cwd, timeout=timeout)


def own_pin(
    start: Path,
    *,
    timeout: float,
    url: str | None = None,
    host: str | None = None,
    staged: bool = False,
) -> tuple[RepoPin, dict[str, str]] | str:
    """The pin ``self`` of the git checkout holding *start*, at HEAD, and HEAD's files with their blob ids.

    Or the problem, naming its fix.

    *url* is the configured web address (else the ``origin`` remote's); without either, the
    checkout's own folder stands for it: permalinks then point nowhere a reader can follow, but
    relative links and the lock work. *staged*: at the commit the index would make
    (:func:`.staged.staged_repo`), not at HEAD.
    """
    if staged:
        from .staged import staged_repo  # --staged runs only

        found = staged_repo(start, timeout=timeout)
        if isinstance(found, str):
            return f"'self' names the git repository holding {start}, but {found}"
        repo: apigit.LocalRepo | None = found
    else:
        repo = apigit.find_repo(start, timeout=timeout)
    if repo is None:
        return (
            f"'self' names the git repository holding {start}, but {start} is in no git checkout "
            "with a commit (or git is not installed): run 'git init' and commit, or pin the "
            "repository in the configuration"
        )
    web = url or (apigit.web_url(repo.remote) if repo.remote else None)
    try:
        template = template_for(
            url=web or repo.root.as_uri(), host=host, permalink=None, where="the 'self' repository"
        )
    except ConfigError as error:
        return str(error)
    try:
        paths = apigit.listing(repo.root, repo.commit, timeout=timeout)
    except GitError as error:
        return f"cannot list HEAD of {repo.root.name}: {error}"
    return RepoPin(
        name=SELF,
        url=web or repo.root.as_uri(),
        commit=repo.commit,
        packages=apigit.discover_packages(sorted(paths)),
        dist=None,
        dist_file=None,
        listing=None,
        sources=("git",),
        permalink_template=template,
        ref=repo.tags[0] if repo.tags else None,
        checkout=repo.root,
    ), paths


def export_local(pin: RepoPin, files: Path, *, timeout: float) -> dict[str, Any]:
    """Write every regular file of *pin*'s commit, read from its checkout's objects, under *files*."""
    assert pin.checkout is not None
    try:
        paths = apigit.listing(pin.checkout, pin.commit, timeout=timeout)
        meta = apigit.export_commit(pin.checkout, pin.commit, paths, files, timeout=timeout)
    except GitError as error:
        raise SourceError(
            f"cannot read {pin.name}@{pin.short} from the checkout {pin.checkout.name}: {error}"
        ) from error
    return {**meta, "listing": paths}


def listing_at(root: Path, commit: str, *, timeout: float) -> dict[str, str]:
    """Every regular file of *commit* of the checkout at *root* with its blob id (raises :class:`SourceError`)."""
    try:
        return apigit.listing(root, commit, timeout=timeout)
    except GitError as error:
        raise SourceError(f"cannot list {commit[:12]} of {root.name}: {error}") from error


def read_blob(root: Path, blob: str, *, timeout: float) -> bytes:
    """The bytes of blob *blob* of the checkout at *root* (raises :class:`SourceError`)."""
    try:
        return _git(["cat-file", "blob", blob], root, timeout)
    except GitError as error:
        raise SourceError(
            f"blob {blob[:12]} is not in the checkout {root.name}: {error}"
        ) from error


def holding_commit(root: Path, head: str, path: str, blob: str, *, timeout: float) -> str | None:
    """The newest commit before *head* whose file *path* is blob *blob*, or None (not in its history).

    A lock record of ``self`` names no commit; this finds one that holds its lines, for the class of
    change and the suggestions of an anchor whose code changed since. ``git log --find-object``
    lists the commits that add or remove the blob, but it does not diff a merge: a blob that only a
    merge made (both sides changed the file) is found as the parent of the commit that removed it.
    """
    try:
        raw = _git(
            ["log", "--format=%H %P", f"--find-object={blob}", head, "--", path], root, timeout
        )
    except GitError:
        return None
    for line in raw.decode().splitlines():
        commit, *parents = line.split()
        for candidate in (commit, *parents):
            try:
                found = _git(["rev-parse", f"{candidate}:{path}"], root, timeout).decode().strip()
            except GitError:
                continue
            if found == blob:
                return candidate
    return None
