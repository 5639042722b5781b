"""Configuration: one frozen dataclass of options, validated once (no Sphinx).

Each field of :class:`Options` is a ``conf.py`` value named ``source_anchors_<field>``;
its metadata carries the help text shown in the manual (docs/options.md). :func:`settings_from`
validates the raw values and returns :class:`Settings`, or raises one
:class:`~source_anchors.model.errors.ConfigError` listing every problem with its position.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .apiconfig import ApiSettings, api_settings, overrides_problem
from .errors import ConfigError
from .hosts import PermalinkTemplate, template_for, without_credentials
from .pinfields import SHA_RE, commit_problem, parse_pinned, ref_problem, url_problem
from .python import Python, parse_python, running
from .values import (
    Check,
    annotation_format,
    anything,
    boolean,
    ci_locked,
    commits,
    dict_,
    feedback_repo,
    flag,
    non_negative_int,
    optional_name,
    optional_path,
    python,
    string,
)

__all__ = ["SHA_RE", "Options", "RepoPin", "Settings", "settings_from"]

PREFIX = "source_anchors_"
SOURCE_KINDS = ("cache", "git", "dist")
ARCHIVE_SUFFIXES = (".whl", ".tar.gz", ".tgz", ".zip")
DIST_FORMATS = ("wheel", "sdist")
_REPO_KEYS = {"url", "commit", "ref", "packages", "dist", "dist_format", "listing", "facts", "sources", "host",
              "permalink"}
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


def _meta(*, types: tuple[type, ...], check: Check, help: str) -> dict[str, Any]:
    """An :class:`Options` field's metadata: the types Sphinx is told, its check, its help text."""
    return {"types": types, "check": check, "help": help}


@dataclass(frozen=True)
class Options:
    """The raw ``conf.py`` options, with defaults, checks and help (``source_anchors_<name>``)."""

    repos: dict[str, dict[str, Any]] = field(
        default_factory=dict, metadata=_meta(types=(dict,), check=dict_,
        help="Pinned repositories by name: 'url', 'commit' (40-hex SHA), 'packages' "
             "(package directories from the repository root), and optionally 'ref' (the tag or "
             "branch the commit came from, shown in the ledger and checked by locked builds), 'dist' "
             "(a pip requirement such as 'pkg==1.0' whose files stand in for the commit), 'dist_format' "
             "('wheel', downloaded by pip, or 'sdist', found on pip's indexes and downloaded unbuilt), "
             "'listing' (a committed 'git ls-tree -r' output vouching for blob ids), 'facts' (a committed "
             "record of the licences and third-party evidence of files a build may not read, made by "
             "'source-anchors facts'), "
             "'sources' (order of 'cache', 'git', 'dist'), 'host' ('github' or 'gitlab') "
             "or 'permalink' (a URL template for other hosts)."))
    default_repo: str | None = field(
        default=None, metadata=_meta(types=(str, type(None)), check=optional_name,
        help="Repository used by targets without a 'repo:' prefix; "
             "a page overrides it with 'source-repo' in its front matter."))
    locked: bool = field(
        default=False, metadata=_meta(types=(bool, str), check=boolean,
        help="Treat anchors missing from the lock as errors and make the build fail on any anchor that does not "
             "match the lock (also on when the environment sets CI to anything but '', 0, false or no). "
             "True or False, or a word of CI: '1', 'true', 'yes' or '', '0', 'false', 'no'."))
    lock_file: str = field(
        default="source-anchors.lock", metadata=_meta(types=(str,), check=string,
        help="Lock file path, relative to the directory of conf.py."))
    cache_dir: str | None = field(
        default=None, metadata=_meta(types=(str, type(None)), check=optional_path,
        help="Cache of exported trees; default: $SOURCE_ANCHORS_CACHE, else the per-user cache directory. "
             "When it cannot be created or written, the build warns and keeps a cache in its doctree folder."))
    timeout: int = field(
        default=300, metadata=_meta(types=(int,), check=non_negative_int,
        help="Seconds allowed for one git or pip command before it is abandoned."))
    max_file_bytes: int = field(
        default=2_000_000, metadata=_meta(types=(int,), check=non_negative_int,
        help="Upstream files larger than this are not parsed; anchors into them get a warning."))
    reproduced_lines_max: int = field(
        default=0, metadata=_meta(types=(int,), check=non_negative_int,
        help="Warn when the book's literal blocks reproduce more upstream lines of real content than this."))
    feedback_repo: str = field(
        default="", metadata=_meta(types=(str,), check=feedback_repo,
        help="The book's own repository (an https URL on GitHub or GitLab): the feedback-line and "
             "feedback-channel directives and each anchor's line in the ledger link to a new issue there, "
             "prefilled with the page, the anchor, the pin and what the reader saw. Unset, the repository "
             "the book is built from (GitHub Actions, GitLab CI, Read the Docs, or the origin remote)."))
    feedback_email: str = field(
        default="", metadata=_meta(types=(str,), check=string,
        help="An address that receives mail, used by the feedback directives when there is no feedback_repo."))
    quiet: bool = field(
        default=False, metadata=_meta(types=(bool, str), check=boolean,
        help="Check every anchor without warnings and without writing the lock "
             "(the command line sets it to read the book)."))
    python: str | None = field(
        default=None, metadata=_meta(types=(str, type(None)), check=python,
        help="The Python version the anchors are read for, as '3.11', optionally followed by a space and a "
             "value of sys.platform ('3.11 win32'; default platform: linux); default: the version of the "
             "Python that runs the build. Tests of sys.version_info, sys.platform and TYPE_CHECKING are "
             "decided for it, as type checkers decide them (see the binding rules)."))
    annotations: str = field(
        default="", metadata=_meta(types=(str,), check=annotation_format,
        help="Also report the anchors that drifted for CI: 'github' (workflow commands on standard output, on "
             "the page lines), 'gitlab' (a Code Quality report) or 'sarif' (SARIF 2.1.0), the reports written "
             "beside source-anchors.json; '' (default): none."))
    pin_commits: dict[str, str] = field(
        default_factory=dict, metadata=_meta(types=(dict,), check=commits,
        help="Commits that replace pinned ones for this build only, by repository name "
             "(the command line's '--pin NAME=SHA'); conf.py and the lock are untouched."))
    api_links: str | None = field(
        default=None, metadata=_meta(types=(str, type(None)), check=anything,
        help="Give every documented Python object a [source] link: 'self' (the git repository holding "
             "conf.py, at HEAD) or the name of a pinned repository."))
    api_url: str | None = field(
        default=None, metadata=_meta(types=(str, type(None)), check=anything,
        help="Web address of the docs' own repository (default: from the 'origin' remote)."))
    api_host: str | None = field(
        default=None, metadata=_meta(types=(str, type(None)), check=anything,
        help="'github', 'gitlab', 'bitbucket' or a permalink template for the docs' own repository."))
    api_commit: str | None = field(
        default=None, metadata=_meta(types=(str, type(None)), check=anything,
        help="Outside a git checkout (a build from an sdist): the commit or release tag the links name."))
    api_packages: list[str] = field(
        default_factory=list, metadata=_meta(types=(list, tuple), check=anything,
        help="Package directories of the docs' own repository (default: its top-level packages)."))
    api_list_unlinked: bool = field(
        default=False, metadata=_meta(types=(bool, str), check=boolean,
        help="List every documented object without a source link, not only their count."))
    api_overrides: dict[str, str] = field(
        default_factory=dict, metadata=_meta(types=(dict,), check=overrides_problem,
        help="Documented names that no statement binds (served by a module __getattr__, made at run time), "
             "each with the dotted name of its definition: {'pkg.name': 'pkg.module.real_name'} links "
             "pkg.name where pkg.module.real_name resolves."))


def option_default(option: dataclasses.Field[Any]) -> Any:
    """The default value of an :class:`Options` field (a fresh one for mutable defaults)."""
    if option.default_factory is not dataclasses.MISSING:
        return option.default_factory()
    return option.default


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
    #: The tag or branch the commit came from (a record for readers; the commit is what is read).
    ref: str | None = None
    #: What ``dist`` downloads from the index: ``"wheel"`` (pip) or ``"sdist"`` (the Simple API, unbuilt).
    dist_format: str = "wheel"
    #: A committed record of facts about files of the commit (:mod:`.facts`), relative to conf.py.
    facts: Path | None = None

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
        return self.permalink_template.render(url=self.url, commit=self.commit, path=path,
                                              start=start, end=end)

    def with_commit(self, commit: str) -> RepoPin:
        """The same pin at another commit (previews of a bump, a lock record's commit).

        What belongs to the pinned commit only no longer applies: its ``ref``, its distribution (a
        release of that commit: its files are not another commit's), its listing and facts records.
        """
        if commit == self.commit:
            return self
        return dataclasses.replace(self, commit=commit, ref=None, dist=None, dist_file=None, listing=None, facts=None)


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
    #: The book's own repository, where reports are filed (:mod:`.reports`); ``""`` when none.
    feedback_repo: str = ""
    #: Where :attr:`feedback_repo` was learnt when conf.py names no channel (the build's note); ``""`` otherwise.
    feedback_from: str = ""
    #: Read the book without warnings and lock writes (the CLI).
    quiet: bool = False
    #: The setting that chose :attr:`cache_dir` (for messages): an option, the variable, or the default.
    cache_from: str = "the per-user cache directory"
    #: Why the chosen cache directory could not be used and which one this build uses instead (see
    #: :func:`.cachedir.usable_cache`); None when it is used as configured.
    cache_note: str | None = None
    #: The Python version and platform that static conditions are decided for (``source_anchors_python``).
    python: Python = field(default_factory=running)
    #: Where the ``[source]`` links of documented Python objects point (None: no such links).
    api: ApiSettings | None = None


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
    fields = dataclasses.fields(Options)
    opts = {f.name: values.get(f.name, option_default(f)) for f in fields}
    problems = [f"{PREFIX}{f.name}: {problem}" for f in fields if (problem := f.metadata["check"](opts[f.name]))]
    repos: dict[str, RepoPin] = {}
    raw_repos = opts["repos"] if isinstance(opts["repos"], Mapping) else {}
    for name, entry in raw_repos.items():
        try:
            repos[name] = _repo(name, entry, confdir=confdir)
        except ConfigError as error:
            problems.extend(str(error).splitlines())
    default_repo = opts["default_repo"]
    if isinstance(default_repo, str) and default_repo not in raw_repos:
        problems.append(f"{PREFIX}default_repo: {default_repo!r} is not a key of {PREFIX}repos "
                        f"(known: {sorted(raw_repos)})")
    overrides = opts["pin_commits"] if isinstance(opts["pin_commits"], Mapping) else {}
    unknown = sorted(set(overrides) - set(raw_repos))
    if unknown:
        problems.append(f"{PREFIX}pin_commits (--pin): unknown repositories {unknown}; known: {sorted(raw_repos)}")
    api, api_problems = api_settings(opts, raw_repos)
    problems.extend(api_problems)
    if problems:
        raise ConfigError("\n".join(problems))
    for name, sha in overrides.items():
        repos[name] = repos[name].with_commit(sha)
    cache = Path(opts["cache_dir"]) if opts["cache_dir"] else default_cache_dir(env)
    cache_from = f"{PREFIX}cache_dir in conf.py" if opts["cache_dir"] else \
        "$SOURCE_ANCHORS_CACHE" if env.get("SOURCE_ANCHORS_CACHE") else "the per-user cache directory"
    return Settings(
        repos=repos, default_repo=default_repo, locked=bool(flag(opts["locked"])) or ci_locked(env),
        lock_path=(confdir / opts["lock_file"]).resolve(), cache_dir=cache.resolve(),
        timeout=opts["timeout"], max_file_bytes=opts["max_file_bytes"],
        reproduced_lines_max=opts["reproduced_lines_max"], feedback_email=opts["feedback_email"] or "",
        feedback_repo=without_credentials(opts["feedback_repo"] or ""),
        quiet=bool(flag(opts["quiet"])), cache_from=cache_from, python=_python_of(opts["python"]), api=api,
    )


def _python_of(value: Any) -> Python:
    """The validated ``python`` option read (its check has passed)."""
    python = parse_python(value)
    assert isinstance(python, Python)
    return python


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
    elif isinstance(url, str) and any(ord(char) < 0x20 or ord(char) == 0x7F for char in url):
        problems.append(f"{where}['url']: {url!r} holds a control character, which no repository URL has")
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
    dist_format = entry.get("dist_format", "wheel")
    problems.extend(f"{where}['dist_format']: {p}" for p in _dist_format_problems(dist_format, dist, dist_file))
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
    facts = entry.get("facts")
    facts_path = None
    if facts is not None:
        if not isinstance(facts, str):
            problems.append(f"{where}['facts']: expected a path relative to conf.py")
        else:
            facts_path = (confdir / facts).resolve()  # made by 'source-anchors facts' when it is missing
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
                   sources=tuple(sources), permalink_template=template, ref=ref, dist_format=dist_format,
                   facts=facts_path)


def _dist_format_problems(dist_format: Any, dist: Any, dist_file: Path | None) -> list[str]:
    """Why *dist_format* does not fit the pin's ``dist``: an sdist is found for an exact 'name==version'."""
    if dist_format not in DIST_FORMATS:
        return [f"expected 'wheel' or 'sdist', got {dist_format!r}"]
    if dist_format == "wheel":
        return []
    if not isinstance(dist, str) or not dist:
        return ["'sdist' needs a 'dist' requirement such as 'pkg==1.0'"]
    if dist_file is not None:
        return [f"'sdist' is for a release on the package index; the local archive {dist!r} is used as it is "
                "(drop 'dist_format')"]
    if parse_pinned(dist) is None:
        return [f"'sdist' needs an exact 'name==version' requirement, got {dist!r}"]
    return []


def _safe_rel(path: str) -> bool:
    parts = path.split("/")
    return not path.startswith("/") and all(p not in ("", ".", "..") for p in parts)
