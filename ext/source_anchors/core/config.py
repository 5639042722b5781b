"""Configuration: one frozen dataclass of options, validated once (no Sphinx).

Each field of :class:`Options` is a ``conf.py`` value named ``source_anchors_<field>``;
its metadata carries the help text shown in the author's guide. :func:`settings_from`
validates the raw values and returns :class:`Settings`, or raises one
:class:`~source_anchors.errors.ConfigError` listing every problem with its position.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .hosts import PermalinkTemplate, template_for

PREFIX = "source_anchors_"
SHA_RE = re.compile(r"^[0-9a-f]{40}$")
SOURCE_KINDS = ("cache", "git", "dist")
ARCHIVE_SUFFIXES = (".whl", ".tar.gz", ".tgz", ".zip")
_REPO_KEYS = {"url", "commit", "packages", "dist", "listing", "sources", "host", "permalink"}
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class Options:
    """The raw ``conf.py`` options, with defaults and help (``source_anchors_<name>``)."""

    repos: dict[str, dict[str, Any]] = field(
        default_factory=dict,
        metadata={"help": "Pinned repositories by name: 'url', 'commit' (40-hex SHA), 'packages' "
                  "(package directories from the repository root), and optionally 'dist' "
                  "(a pip requirement such as 'pkg==1.0' whose files stand in for the commit), "
                  "'listing' (a committed 'git ls-tree -r' output vouching for blob ids), "
                  "'sources' (order of 'cache', 'git', 'dist'), 'host' ('github' or 'gitlab') "
                  "or 'permalink' (a URL template for other hosts)."},
    )
    default_repo: str | None = field(
        default=None, metadata={"help": "Repository used by targets without a 'repo:' prefix; "
                                "a page overrides it with 'source-repo' in its front matter."})
    locked: bool = field(
        default=False, metadata={"help": "Treat anchors missing from the lock as errors "
                                 "(also on when the environment has CI=true)."})
    lock_file: str = field(
        default="source-anchors.lock",
        metadata={"help": "Lock file path, relative to the directory of conf.py."})
    cache_dir: str | None = field(
        default=None, metadata={"help": "Cache of exported trees; default: $SOURCE_ANCHORS_CACHE, "
                                "else the per-user cache directory."})
    timeout: int = field(
        default=300, metadata={"help": "Seconds allowed for one git or pip command before it is "
                               "abandoned."})
    max_file_bytes: int = field(
        default=2_000_000, metadata={"help": "Upstream files larger than this are not parsed; "
                                     "anchors into them get a warning."})
    reproduced_lines_max: int = field(
        default=0, metadata={"help": "Warn when the book's literal blocks reproduce more upstream "
                             "lines of real content than this."})
    feedback_email: str = field(
        default="", metadata={"help": "Address used by the feedback-line directive."})


def option_names() -> list[str]:
    """The ``conf.py`` names of all options, in declaration order."""
    return [PREFIX + f.name for f in dataclasses.fields(Options)]


@dataclass(frozen=True)
class RepoPin:
    """One validated repository pin."""

    name: str
    url: str
    commit: str
    packages: tuple[str, ...]
    dist: str | None
    #: When ``dist`` names a local wheel or sdist (relative to conf.py) instead of a requirement.
    dist_file: Path | None
    listing: Path | None
    sources: tuple[str, ...]
    permalink_template: PermalinkTemplate

    @property
    def short(self) -> str:
        """The short commit shown to readers."""
        return self.commit[:7]

    def package_dirs(self) -> dict[str, str]:
        """Map each top-level package name to its directory in the tree ('src/pkg' -> 'pkg')."""
        return {path.rsplit("/", 1)[-1]: path for path in self.packages}

    def permalink(self, path: str, start: int | None = None, end: int | None = None) -> str:
        """Permalink to *path* (and lines) at the pinned commit."""
        return self.permalink_template.render(url=self.url, commit=self.commit, path=path,
                                              start=start, end=end)

    def with_commit(self, commit: str) -> RepoPin:
        """The same pin at another commit (for previews of a pin bump)."""
        return dataclasses.replace(self, commit=commit)


@dataclass(frozen=True)
class Settings:
    """Validated settings used by the core."""

    repos: Mapping[str, RepoPin]
    default_repo: str | None
    locked: bool
    lock_path: Path
    cache_dir: Path
    timeout: int
    max_file_bytes: int
    reproduced_lines_max: int
    feedback_email: str


def default_cache_dir(environ: Mapping[str, str]) -> Path:
    """The cache directory: $SOURCE_ANCHORS_CACHE, else the per-user cache."""
    if environ.get("SOURCE_ANCHORS_CACHE"):
        return Path(environ["SOURCE_ANCHORS_CACHE"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("source-anchors", appauthor=False))


def settings_from(values: Mapping[str, Any], *, confdir: Path,
                  environ: Mapping[str, str] | None = None) -> Settings:
    """Validate raw option *values* (keys without the prefix) into :class:`Settings`."""
    env = os.environ if environ is None else environ
    opts = {f.name: values.get(f.name, _default(f)) for f in dataclasses.fields(Options)}
    problems: list[str] = []
    repos: dict[str, RepoPin] = {}
    raw_repos = opts["repos"]
    if not isinstance(raw_repos, Mapping):
        problems.append(f"{PREFIX}repos: expected a dict of repository entries, got {type(raw_repos).__name__}")
        raw_repos = {}
    for name, entry in raw_repos.items():
        try:
            repos[name] = _repo(name, entry, confdir=confdir)
        except ConfigError as error:
            problems.extend(str(error).splitlines())
    default_repo = opts["default_repo"]
    if default_repo is not None and default_repo not in raw_repos:
        problems.append(f"{PREFIX}default_repo: {default_repo!r} is not a key of {PREFIX}repos "
                        f"(known: {sorted(raw_repos)})")
    for key in ("timeout", "max_file_bytes", "reproduced_lines_max"):
        if not isinstance(opts[key], int) or isinstance(opts[key], bool) or opts[key] < 0:
            problems.append(f"{PREFIX}{key}: expected a non-negative integer, got {opts[key]!r}")
    if problems:
        raise ConfigError("\n".join(problems))
    for key in ("lock_file", "feedback_email"):
        if not isinstance(opts[key], str):
            problems.append(f"{PREFIX}{key}: expected a string, got {opts[key]!r}")
    if opts["cache_dir"] is not None and not isinstance(opts["cache_dir"], str):
        problems.append(f"{PREFIX}cache_dir: expected a directory path, got {opts['cache_dir']!r}")
    if problems:
        raise ConfigError("\n".join(problems))
    cache = Path(opts["cache_dir"]) if opts["cache_dir"] else default_cache_dir(env)
    if cache.exists() and not cache.is_dir():
        where = f"{PREFIX}cache_dir" if opts["cache_dir"] else "the cache directory ($SOURCE_ANCHORS_CACHE)"
        raise ConfigError(f"{where}: {cache} exists and is not a directory")
    locked = bool(opts["locked"]) or env.get("CI", "").lower() == "true"
    return Settings(
        repos=repos, default_repo=default_repo, locked=locked,
        lock_path=(confdir / opts["lock_file"]).resolve(), cache_dir=cache.resolve(),
        timeout=opts["timeout"], max_file_bytes=opts["max_file_bytes"],
        reproduced_lines_max=opts["reproduced_lines_max"], feedback_email=opts["feedback_email"] or "",
    )


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return f.default


def _repo(name: str, entry: Any, *, confdir: Path) -> RepoPin:
    where = f"{PREFIX}repos[{name!r}]"
    problems: list[str] = []
    if not isinstance(name, str) or not _NAME_RE.match(name):
        problems.append(f"{where}: invalid repository name; use letters, digits, '.', '_' and '-'")
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{where}: expected a dict with 'url', 'commit' and 'packages'")
    unknown = sorted(set(entry) - _REPO_KEYS)
    if unknown:
        problems.append(f"{where}: unknown key(s) {unknown}; known: {sorted(_REPO_KEYS)}")
    for key in ("url", "commit", "packages"):
        if key not in entry:
            problems.append(f"{where}: missing key {key!r}")
    url = entry.get("url", "")
    url = url.strip() if isinstance(url, str) else url
    if "url" in entry and (not isinstance(url, str) or not url.strip()):
        problems.append(f"{where}['url']: expected a non-empty string")
    elif isinstance(url, str) and url.startswith("-"):
        problems.append(f"{where}['url']: {url!r} starts with '-' and could be read as an option")
    commit = entry.get("commit", "")
    if "commit" in entry and not (isinstance(commit, str) and SHA_RE.match(commit)):
        problems.append(f"{where}['commit']: {commit!r} is not a full 40-hex lowercase commit SHA "
                        "(branches, tags and short SHAs move or clash; pin the commit itself)")
    packages = entry.get("packages", [])
    if isinstance(packages, str) or not isinstance(packages, (list, tuple)) or not packages:
        if "packages" in entry:
            problems.append(f"{where}['packages']: expected a non-empty list of package directories")
        packages = []
    for pkg in packages:
        if not isinstance(pkg, str) or not _safe_rel(pkg) or not pkg.rsplit("/", 1)[-1].isidentifier():
            problems.append(f"{where}['packages']: {pkg!r} is not a relative package directory "
                            "such as 'pkg' or 'src/pkg'")
    dist = entry.get("dist")
    dist = dist.strip() if isinstance(dist, str) else dist
    dist_file = None
    if dist is not None and (not isinstance(dist, str) or not dist.strip() or dist.startswith("-")):
        problems.append(f"{where}['dist']: expected a requirement such as 'pkg==1.0' or an archive path")
    elif isinstance(dist, str) and dist.endswith(ARCHIVE_SUFFIXES):
        dist_file = (confdir / dist).resolve()
        if not dist_file.is_file():
            problems.append(f"{where}['dist']: archive {dist!r} not found (paths are relative to conf.py)")
    sources = entry.get("sources", SOURCE_KINDS)
    if isinstance(sources, str) or not isinstance(sources, (list, tuple)) or \
            not sources or any(s not in SOURCE_KINDS for s in sources):
        problems.append(f"{where}['sources']: expected a list drawn from {list(SOURCE_KINDS)}")
        sources = SOURCE_KINDS
    listing = entry.get("listing")
    listing_path = None
    if listing is not None:
        if not isinstance(listing, str):
            problems.append(f"{where}['listing']: expected a path relative to conf.py")
        else:
            listing_path = (confdir / listing).resolve()
            if not listing_path.is_file():
                problems.append(f"{where}['listing']: file {listing!r} not found next to conf.py")
    template = None
    try:
        template = template_for(url=url if isinstance(url, str) else "", host=entry.get("host"),
                                permalink=entry.get("permalink"), where=where)
    except ConfigError as error:
        problems.append(str(error))
    if problems or template is None:
        raise ConfigError("\n".join(problems))
    return RepoPin(name=name, url=url.strip(), commit=commit, packages=tuple(packages),
                   dist=dist.strip() if dist else None, dist_file=dist_file, listing=listing_path,
                   sources=tuple(sources), permalink_template=template)


def _safe_rel(path: str) -> bool:
    parts = path.split("/")
    return not path.startswith("/") and all(p not in ("", ".", "..") for p in parts)
