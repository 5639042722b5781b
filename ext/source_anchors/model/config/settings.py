"""Validated settings: the raw options checked once into :class:`Settings`, or one error (no Sphinx).

:func:`settings_from` validates the raw values and returns :class:`Settings`, or raises one
:class:`~source_anchors.model.errors.ConfigError` listing every problem with its position.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..hosts import without_credentials
from ..python import Python, parse_python, running
from .api import SELF, ApiSettings, api_settings
from .options import Options, option_default
from .pins import RepoPin, repo_pin
from .values import PREFIX, ci_locked, flag

__all__ = ["Settings", "default_cache_dir", "settings_from"]


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
    #: The book's own repository, where reports are filed (:mod:`.issuelinks`); ``""`` when none.
    feedback_repo: str = ""
    #: Where :attr:`feedback_repo` was learnt when conf.py names no channel (the build's note);
    #: ``""`` otherwise.
    feedback_from: str = ""
    #: Read the book without warnings and lock writes (the CLI).
    quiet: bool = False
    #: The setting that chose :attr:`cache_dir` (for messages): an option, the variable, or the
    #: default.
    cache_from: str = "the per-user cache directory"
    #: Why the chosen cache directory could not be used and which one this build uses instead (see
    #: :func:`.cachedir.usable_cache`); None when it is used as configured.
    cache_note: str | None = None
    #: The Python version and platform that static conditions are decided for
    #: (``source_anchors_python``).
    python: Python = field(default_factory=running)
    #: Where the ``[source]`` links of documented Python objects point (None: no such links).
    api: ApiSettings | None = None
    #: The folder whose git checkout is the repository ``self:`` anchors name (conf.py's folder,
    #: or the Markdown files' repository); None: ``self`` names nothing.
    own: Path | None = None
    #: ``self`` is read from git's index, the code as it will be committed (``--staged``), not HEAD.
    own_staged: bool = False


def default_cache_dir(environ: Mapping[str, str]) -> Path:
    """The cache directory: $SOURCE_ANCHORS_CACHE, else the per-user cache."""
    if environ.get("SOURCE_ANCHORS_CACHE"):
        return Path(environ["SOURCE_ANCHORS_CACHE"])
    import platformdirs

    return Path(platformdirs.user_cache_dir("source-anchors", appauthor=False))


def settings_from(
    values: Mapping[str, Any], *, confdir: Path, environ: Mapping[str, str] | None = None
) -> Settings:
    """Validate raw option *values* (keys without the prefix) into :class:`Settings`."""
    env = os.environ if environ is None else environ
    fields = dataclasses.fields(Options)
    opts = {f.name: values.get(f.name, option_default(f)) for f in fields}
    problems = [
        f"{PREFIX}{f.name}: {problem}"
        for f in fields
        if (problem := f.metadata["check"](opts[f.name]))
    ]
    repos: dict[str, RepoPin] = {}
    raw_repos = opts["repos"] if isinstance(opts["repos"], Mapping) else {}
    for name, entry in raw_repos.items():
        try:
            repos[name] = repo_pin(name, entry, confdir=confdir)
        except ConfigError as error:
            problems.extend(str(error).splitlines())
    default_repo = opts["default_repo"]
    if isinstance(default_repo, str) and default_repo not in raw_repos and default_repo != SELF:
        problems.append(
            f"{PREFIX}default_repo: {default_repo!r} is not a key of {PREFIX}repos "
            f"(known: {sorted(raw_repos)}), nor 'self' (the git repository holding conf.py)"
        )
    overrides = opts["pin_commits"] if isinstance(opts["pin_commits"], Mapping) else {}
    unknown = sorted(set(overrides) - set(raw_repos))
    if unknown:
        problems.append(
            f"{PREFIX}pin_commits (--pin): unknown repositories {unknown}; known: {sorted(raw_repos)}"
        )
    api, api_problems = api_settings(opts, raw_repos)
    problems.extend(api_problems)
    if problems:
        raise ConfigError("\n".join(problems))
    for name, sha in overrides.items():
        repos[name] = repos[name].with_commit(sha)
    cache = Path(opts["cache_dir"]) if opts["cache_dir"] else default_cache_dir(env)
    cache_from = (
        f"{PREFIX}cache_dir in conf.py"
        if opts["cache_dir"]
        else "$SOURCE_ANCHORS_CACHE"
        if env.get("SOURCE_ANCHORS_CACHE")
        else "the per-user cache directory"
    )
    return Settings(
        repos=repos,
        default_repo=default_repo,
        locked=bool(flag(opts["locked"])) or ci_locked(env),
        lock_path=(confdir / opts["lock_file"]).resolve(),
        cache_dir=cache.resolve(),
        timeout=opts["timeout"],
        max_file_bytes=opts["max_file_bytes"],
        reproduced_lines_max=opts["reproduced_lines_max"],
        feedback_email=opts["feedback_email"] or "",
        feedback_repo=without_credentials(opts["feedback_repo"] or ""),
        quiet=bool(flag(opts["quiet"])),
        cache_from=cache_from,
        python=_python_of(opts["python"]),
        api=api,
        own=confdir,
    )


def _python_of(value: Any) -> Python:
    """The validated ``python`` option read (its check has passed)."""
    python = parse_python(value)
    assert isinstance(python, Python)
    return python
