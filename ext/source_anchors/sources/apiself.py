"""The docs' own project as a linked tree: its files at the commit being built, and where links point (no Sphinx).

In a git checkout the tree is HEAD's files read from git's objects into the cache (once per commit),
the commit HEAD (a tag on it is shown), the web address the ``origin`` remote's or the configured
one. Outside one (a build from an sdist), the configured commit or tag names the files found next to
``conf.py``'s project, as they are. :func:`own_source` returns the :class:`OwnSource`, or the one
problem that stops every link, naming the setting that fixes it.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import NamedTuple

from ..model.config import PREFIX, ApiSettings, RepoPin
from ..model.errors import ConfigError, GitError, SourceError
from . import apigit
from .apigit import discover_packages
from .treefiles import blob_id
from .trees import Tree, TreeCache, content_key

__all__ = ["OwnSource", "discover_packages", "own_source"]

_PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")


class OwnSource(NamedTuple):
    """The docs' own project: its pin (name ``self``), its tree, what readers are shown of the commit."""

    pin: RepoPin
    tree: Tree
    #: The tag on the commit, else its short id.
    shown: str
    #: The git working copy (None outside one): its uncommitted edits are named in a warning.
    checkout: Path | None


#: What compiled links read (reading/compiled): C, C++, Cython and Rust sources, and the build
#: configuration.
_COMPILED = (
    ".c",
    ".h",
    ".cc",
    ".cpp",
    ".cxx",
    ".hpp",
    ".hh",
    ".hxx",
    ".inc",
    ".pyx",
    ".pxi",
    ".rs",
)
_BUILD = ("setup.py", "meson.build", "pyproject.toml", "Cargo.toml", "CMakeLists.txt")


def _compiled(path: str) -> bool:
    return path.endswith(_COMPILED) or path.rpartition("/")[2] in _BUILD


def _wanted(path: str, packages: tuple[str, ...]) -> bool:
    if _compiled(path) or path.endswith("/__init__.py"):
        return True  # a package's __init__ says which folders are packages, for the module of a compiled file
    return path.endswith((".py", ".pyi")) and any(
        path.startswith(p + "/") or path == p + ".py" for p in packages
    )


def own_source(settings: ApiSettings, *, confdir: Path, cache: TreeCache) -> OwnSource | str:
    """The docs' own project as a linked tree, or the problem (one sentence, naming the setting to add)."""
    repo = apigit.find_repo(confdir, timeout=cache.timeout)
    if repo is None:
        return _outside_git(settings, confdir)
    url = settings.url or (apigit.web_url(repo.remote) if repo.remote else None)
    if url is None:
        why = (
            f"its 'origin' remote {repo.remote!r} is no web address"
            if repo.remote
            else "it has no 'origin' remote"
        )
        return (
            f"API source links are off: the repository {repo.root.name} holding conf.py has no known web "
            f"address ({why}); set {PREFIX}api_url = 'https://host/owner/project'"
        )
    try:
        template = settings.template(url)
        listing = apigit.listing(repo.root, repo.commit, timeout=cache.timeout)
    except (ConfigError, GitError) as error:
        return f"API source links are off: {error}"
    packages = settings.packages or discover_packages(sorted(listing))
    if not packages and not any(_compiled(path) for path in listing):
        return (
            f"API source links are off: the commit {repo.commit[:7]} of {repo.root.name} has no Python "
            f"package and no compiled source; set {PREFIX}api_packages = ['src/pkg']"
        )
    pin = RepoPin(
        name="self",
        url=url,
        commit=repo.commit,
        packages=packages,
        dist=None,
        dist_file=None,
        listing=None,
        sources=("git",),
        permalink_template=template,
        ref=repo.tags[0] if repo.tags else None,
    )
    wanted = {path: blob for path, blob in listing.items() if _wanted(path, packages)}
    export = partial(apigit.export_commit, repo.root, repo.commit, wanted, timeout=cache.timeout)
    try:
        tree = cache.cached(url, repo.commit, content=content_key(pin)) or cache.populate(
            pin, export
        )
    except SourceError as error:
        return f"API source links are off: {error}"
    shown = sorted(repo.tags)[-1] if repo.tags else repo.commit[:7]
    return OwnSource(pin=pin, tree=tree, shown=shown, checkout=repo.root)


def _outside_git(settings: ApiSettings, confdir: Path) -> OwnSource | str:
    """The files next to conf.py's project, named by the configured commit or tag (a build from an sdist)."""
    if settings.commit is None or settings.url is None:
        missing = " and ".join(
            f"{PREFIX}{name}"
            for name, value in (("api_commit", settings.commit), ("api_url", settings.url))
            if value is None
        )
        return (
            f"API source links are off: {confdir} is not in a git checkout, so the commit and the web "
            f"address are not known; set {missing} (the commit or release tag these files are, and "
            "the repository's web address)"
        )
    root = next(
        (d for d in (confdir, *confdir.parents) if any((d / f).is_file() for f in _PROJECT_FILES)),
        confdir.parent,
    )
    paths = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and (p.suffix.startswith(".py") or _compiled(p.name))
    )
    packages = settings.packages or discover_packages(paths)
    blobs = {path: blob_id((root / path).read_bytes()) for path in paths if _wanted(path, packages)}
    try:
        template = settings.template(settings.url)
    except ConfigError as error:
        return f"API source links are off: {error}"
    pin = RepoPin(
        name="self",
        url=settings.url,
        commit=settings.commit,
        packages=packages,
        dist=None,
        dist_file=None,
        listing=None,
        sources=(),
        permalink_template=template,
    )
    tree = Tree(
        root=root,
        url=settings.url,
        commit=settings.commit,
        method="files",
        dist=None,
        blobs=blobs,
        listing=None,
        refused={},
    )
    return OwnSource(pin=pin, tree=tree, shown=settings.commit[:12], checkout=None)
