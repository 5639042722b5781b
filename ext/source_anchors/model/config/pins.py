"""A repository pin of ``source_anchors_repos``: its record and its validation (no Sphinx)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..hosts import PermalinkTemplate, template_for, without_credentials
from .pinfields import SHA_RE, commit_problem, parse_pinned, ref_problem, url_problem
from .values import PREFIX

__all__ = ["RepoPin", "repo_pin"]

SOURCE_KINDS = ("cache", "git", "dist")
ARCHIVE_SUFFIXES = (".whl", ".tar.gz", ".tgz", ".zip")
DIST_FORMATS = ("wheel", "sdist")
_REPO_KEYS = {
    "url",
    "commit",
    "ref",
    "packages",
    "dist",
    "dist_format",
    "listing",
    "facts",
    "sources",
    "host",
    "permalink",
}
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class RepoPin:
    """One validated repository pin."""

    name: str
    url: str
    commit: str
    #: The package folders Python's dotted paths resolve in; empty for a repository with no Python
    #: packages (its files are anchored by file targets, ``/main.go#Command.AddCommand``).
    packages: tuple[str, ...]
    dist: str | None
    #: When ``dist`` names a local wheel or sdist (relative to conf.py) instead of a requirement.
    dist_file: Path | None
    listing: Path | None
    sources: tuple[str, ...]
    permalink_template: PermalinkTemplate
    #: The tag or branch the commit came from (a record for readers; the commit is what is read).
    ref: str | None = None
    #: What ``dist`` downloads from the index: ``"wheel"`` (pip) or ``"sdist"`` (the Simple API,
    #: unbuilt).
    dist_format: str = "wheel"
    #: A committed record of facts about files of the commit (:mod:`.facts`), relative to conf.py.
    facts: Path | None = None
    #: The git checkout whose objects hold this repository's commits: the docs' own repository
    #: (``self``), read locally, never fetched; its lock records name no commit.
    checkout: Path | None = None

    @property
    def short(self) -> str:
        """The short commit shown to readers."""
        return self.commit[:7]

    @property
    def shown_url(self) -> str:
        """The URL as pages and messages show it: without a user or token (``url`` keeps them, to fetch)."""
        return without_credentials(self.url)

    def package_dirs(self) -> dict[str, str]:
        """Map each top-level package name to its directory in the tree ('src/pkg' -> 'pkg')."""
        return {path.rsplit("/", 1)[-1]: path for path in self.packages}

    def permalink(self, path: str, start: int | None = None, end: int | None = None) -> str:
        """Permalink to *path* (and lines) at the pinned commit."""
        return self.permalink_template.render(
            url=self.url, commit=self.commit, path=path, start=start, end=end
        )

    def with_commit(self, commit: str) -> RepoPin:
        """The same pin at another commit (previews of a bump, a lock record's commit).

        What belongs to the pinned commit only no longer applies: its ``ref``, its distribution (a
        release of that commit: its files are not another commit's), its listing and facts records.
        """
        if commit == self.commit:
            return self
        return dataclasses.replace(
            self, commit=commit, ref=None, dist=None, dist_file=None, listing=None, facts=None
        )


def repo_pin(name: str, entry: Any, *, confdir: Path) -> RepoPin:
    """The pin *entry* of ``source_anchors_repos[name]`` validated, or a ``ConfigError`` naming each problem."""
    where = f"{PREFIX}repos[{name!r}]"
    problems: list[str] = []
    if not isinstance(name, str) or not _NAME_RE.match(name):
        problems.append(f"{where}: invalid repository name; use letters, digits, '.', '_' and '-'")
    if not isinstance(entry, Mapping):
        raise ConfigError(
            f"{where}: expected a dict with 'url', 'commit' and, for Python anchors, 'packages'"
        )
    unknown = sorted(set(entry) - _REPO_KEYS)
    if unknown:
        problems.append(f"{where}: unknown key(s) {unknown}; known: {sorted(_REPO_KEYS)}")
    # 'packages' is for Python's dotted paths: a Go module, a Rust crate, a front end or a project
    # whose importable modules are all compiled has none (docs/languages.md, docs/api-links.md).
    for key in ("url", "commit"):
        if key not in entry:
            problems.append(f"{where}: missing key {key!r}")
    url = entry.get("url", "")
    url = url.strip() if isinstance(url, str) else url
    if "url" in entry and (not isinstance(url, str) or not url.strip()):
        problems.append(f"{where}['url']: expected a non-empty string")
    elif isinstance(url, str) and url.startswith("-"):
        problems.append(f"{where}['url']: {url!r} starts with '-' and could be read as an option")
    elif isinstance(url, str) and any(ord(char) < 0x20 or ord(char) == 0x7F for char in url):
        problems.append(
            f"{where}['url']: {url!r} holds a control character, which no repository URL has"
        )
    elif isinstance(url, str) and (problem := url_problem(url)):
        problems.append(f"{where}['url']: {problem}")
    commit = entry.get("commit", "")
    if "commit" in entry and not (isinstance(commit, str) and SHA_RE.match(commit)):
        problems.append(f"{where}['commit']: {commit_problem(name, commit, url)}")
    ref = entry.get("ref")
    if ref is not None and (problem := ref_problem(ref)):
        problems.append(f"{where}['ref']: {problem}")
    packages = entry.get("packages", [])
    if isinstance(packages, str) or not isinstance(packages, (list, tuple)) or not packages:
        if "packages" in entry:
            problems.append(
                f"{where}['packages']: expected a non-empty list of package directories"
            )
        packages = []
    for pkg in packages:
        if (
            not isinstance(pkg, str)
            or not _safe_rel(pkg)
            or not pkg.rsplit("/", 1)[-1].isidentifier()
        ):
            problems.append(
                f"{where}['packages']: {pkg!r} is not a relative package directory "
                "such as 'pkg' or 'src/pkg'"
            )
    dist = entry.get("dist")
    dist = dist.strip() if isinstance(dist, str) else dist
    dist_file = None
    if dist is not None and (not isinstance(dist, str) or not dist.strip() or dist.startswith("-")):
        problems.append(
            f"{where}['dist']: expected a requirement such as 'pkg==1.0' or an archive path"
        )
    elif isinstance(dist, str) and dist.endswith(ARCHIVE_SUFFIXES):
        dist_file = (confdir / dist).resolve()
        if not dist_file.is_file():
            problems.append(
                f"{where}['dist']: archive {dist!r} not found (paths are relative to conf.py)"
            )
    dist_format = entry.get("dist_format", "wheel")
    problems.extend(
        f"{where}['dist_format']: {p}" for p in _dist_format_problems(dist_format, dist, dist_file)
    )
    sources = entry.get("sources", SOURCE_KINDS)
    if (
        isinstance(sources, str)
        or not isinstance(sources, (list, tuple))
        or not sources
        or any(s not in SOURCE_KINDS for s in sources)
    ):
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
    facts = entry.get("facts")
    facts_path = None
    if facts is not None:
        if not isinstance(facts, str):
            problems.append(f"{where}['facts']: expected a path relative to conf.py")
        else:
            facts_path = (
                confdir / facts
            ).resolve()  # made by 'source-anchors facts' when it is missing
    template = None
    try:
        template = template_for(
            url=url if isinstance(url, str) else "",
            host=entry.get("host"),
            permalink=entry.get("permalink"),
            where=where,
        )
    except ConfigError as error:
        problems.append(str(error))
    if problems or template is None:
        raise ConfigError("\n".join(problems))
    return RepoPin(
        name=name,
        url=url.strip(),
        commit=commit,
        packages=tuple(packages),
        dist=dist.strip() if dist else None,
        dist_file=dist_file,
        listing=listing_path,
        sources=tuple(sources),
        permalink_template=template,
        ref=ref,
        dist_format=dist_format,
        facts=facts_path,
    )


def _dist_format_problems(dist_format: Any, dist: Any, dist_file: Path | None) -> list[str]:
    """Why *dist_format* does not fit the pin's ``dist``: an sdist is found for an exact 'name==version'."""
    if dist_format not in DIST_FORMATS:
        return [f"expected 'wheel' or 'sdist', got {dist_format!r}"]
    if dist_format == "wheel":
        return []
    if not isinstance(dist, str) or not dist:
        return ["'sdist' needs a 'dist' requirement such as 'pkg==1.0'"]
    if dist_file is not None:
        return [
            f"'sdist' is for a release on the package index; the local archive {dist!r} is used as it is "
            "(drop 'dist_format')"
        ]
    if parse_pinned(dist) is None:
        return [f"'sdist' needs an exact 'name==version' requirement, got {dist!r}"]
    return []


def _safe_rel(path: str) -> bool:
    parts = path.split("/")
    return not path.startswith("/") and all(p not in ("", ".", "..") for p in parts)
