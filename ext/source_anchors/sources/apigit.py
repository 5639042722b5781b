"""The docs' own git repository, read for API source links: HEAD, its tags, the remote, its files (no Sphinx).

Everything is read from git's objects at the commit (``ls-tree`` and ``cat-file``), never from the
working tree, which may hold uncommitted edits; those are only *named* (:func:`changed_files`). A
shallow clone (``fetch-depth: 1``) holds every object of its HEAD, which is all this reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from ..model.errors import GitError
from ..model.remotes import web_url as web_url
from ..model.remotes import without_credentials
from .gitlite import changed_of, listing_of

__all__ = [
    "LocalRepo",
    "book_repository",
    "changed_files",
    "discover_packages",
    "export_commit",
    "find_repo",
    "web_url",
]


@dataclass(frozen=True)
class LocalRepo:
    """A git working copy: its top folder, the commit checked out, the tags on it, its ``origin`` remote."""

    root: Path
    commit: str
    tags: tuple[str, ...]
    #: ``remote.origin.url`` as configured, without credentials (see :func:`find_repo`).
    remote: str | None


def _git(args: list[str], cwd: Path, timeout: float, stdin: bytes | None = None) -> bytes:
    from . import proc  # the subprocess machinery, for the builds that use it only

    return proc.git(args, cwd=cwd, stdin=stdin, timeout=timeout)


def find_repo(start: Path, *, timeout: float) -> LocalRepo | None:
    """The git working copy holding *start*, or None outside one (or without git, or before a first commit).

    Its remote is ``remote.origin.url`` as configured, not ``git remote get-url origin``: that
    applies ``url.<base>.insteadOf``, which points a checkout at a mirror (a CI cache, a ``file://``
    folder) or adds a token, and neither is the address readers should be sent to. Credentials are
    dropped here, so that no message, page, lock or cache key can show them.
    """
    try:
        root = Path(_git(["rev-parse", "--show-toplevel"], start, timeout).decode().strip())
        commit = _git(["rev-parse", "--verify", "HEAD^{commit}"], root, timeout).decode().strip()
    except GitError:
        return None
    try:
        tags = tuple(_git(["tag", "--points-at", commit], root, timeout).decode().split())
    except GitError:
        tags = ()
    try:
        configured = _git(["config", "--get", "remote.origin.url"], root, timeout).decode().strip()
    except GitError:
        configured = ""  # no 'origin': the URL must come from the configuration
    remote = without_credentials(configured) or None
    return LocalRepo(root=root, commit=commit, tags=tags, remote=remote)


#: Where a build learns the web address of the repository it was checked out from, in this order:
#: the CI or hosting service's own variables, then the checkout's ``origin`` remote.
_SERVICES = (
    ("GitHub Actions", ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY"), "{0}/{1}"),
    ("GitLab CI", ("CI_PROJECT_URL",), "{0}"),
    ("Read the Docs", ("READTHEDOCS_GIT_CLONE_URL",), "{0}"),
)


def book_repository(
    confdir: Path, environ: Mapping[str, str], *, timeout: float
) -> tuple[str, str] | None:
    """The web address of the repository the book is built from, and where it was read; None when unknown.

    A build on GitHub Actions, GitLab CI or Read the Docs reads the service's variables
    (``GITHUB_SERVER_URL``/``GITHUB_REPOSITORY``, ``CI_PROJECT_URL``,
    ``READTHEDOCS_GIT_CLONE_URL``); elsewhere the ``origin`` remote of the git checkout holding
    conf.py. A local path is no address.
    """
    for service, names, form in _SERVICES:
        values = [environ.get(name, "").strip() for name in names]
        if all(values) and (url := web_url(form.format(*values))):
            return url, f"{service}: {', '.join(f'${n}' for n in names)}"
    repo = find_repo(confdir, timeout=timeout)
    if repo is not None and repo.remote and (url := web_url(repo.remote)):
        return url, f"the 'origin' remote of {repo.root.name}"
    return None


def listing(root: Path, commit: str, *, timeout: float) -> dict[str, str]:
    """Every regular file of *commit* with its blob id (``git ls-tree -r``)."""
    return listing_of(_git(["ls-tree", "-r", "-z", "--full-tree", commit, "--"], root, timeout))


def export_commit(
    root: Path, commit: str, paths: dict[str, str], files: Path, *, timeout: float
) -> dict[str, Any]:
    """Write the blobs of *paths* (path to blob id, from :func:`listing`) under *files*; the tree's meta."""
    from .gitexport import _cat_blobs  # the one parser of ``cat-file --batch``

    blobs = sorted(set(paths.values()))
    contents = (
        _cat_blobs(
            _git(
                ["cat-file", "--batch"],
                root,
                timeout,
                stdin="".join(f"{b}\n" for b in blobs).encode(),
            )
        )
        if blobs
        else {}
    )
    for path, blob in paths.items():
        target = files.joinpath(*PurePosixPath(path).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(contents[blob])
    files.mkdir(parents=True, exist_ok=True)
    return {"method": "git", "dist": None, "blobs": dict(paths), "refused": {}, "listing": None}


def changed_files(root: Path, paths: list[str], *, timeout: float) -> list[str]:
    """Which of *paths* (files of HEAD) the working copy or the index changed: their links would not match."""
    if not paths:
        return []
    try:
        raw = _git(
            ["status", "--porcelain=v1", "-z", "--untracked-files=no", "--", *paths], root, timeout
        )
    except GitError:
        return []
    return changed_of(raw, paths)


_SKIP = (
    "test",
    "tests",
    "testing",
    "doc",
    "docs",
    "example",
    "examples",
    "benchmarks",
    "bench",
    "scripts",
)


def discover_packages(paths: list[str]) -> tuple[str, ...]:
    """The top-level packages among *paths*: folders with ``__init__.py`` whose parent has none, and modules.

    A folder at the root or in ``src/`` that holds Python files but no ``__init__.py`` is a namespace
    package (PEP 420). Test, documentation and example folders are left out; a single-file module
    counts at the root or in ``src/``. Where two folders give the same package name, the shallower
    wins (Python's own path order is the project's business: set ``source_anchors_api_packages``
    then).
    """
    inits = {path.rpartition("/")[0] for path in paths if path.endswith("/__init__.py")}
    found: dict[str, str] = {}
    for folder in sorted(inits, key=lambda f: (f.count("/"), f)):
        parent = folder.rpartition("/")[0]
        if parent in inits or any(
            part in _SKIP or part.startswith(".") for part in folder.split("/")
        ):
            continue
        found.setdefault(folder.rpartition("/")[2], folder)
    # A folder of Python files without __init__.py at the root or in src/ is a namespace package
    # (PEP 420): 'import lib.mod' finds lib/mod.py with the root on sys.path.
    for path in paths:
        parts = path.split("/")
        base = 1 if parts[0] == "src" and len(parts) > 2 else 0
        top = parts[base]
        if (
            path.endswith(".py")
            and len(parts) > base + 1
            and top.isidentifier()
            and top not in _SKIP
            and all(p.isidentifier() for p in parts[base:-1])
        ):
            found.setdefault(top, "/".join(parts[: base + 1]))
    for path in paths:
        head, _, name = path.rpartition("/")
        if (
            head in ("", "src")
            and name.endswith(".py")
            and name[:-3].isidentifier()
            and name[:-3] not in ("setup", "conf", "noxfile", "tasks", "conftest", "fabfile")
        ):
            found.setdefault(name[:-3], path[:-3])
    return tuple(sorted(found.values()))
