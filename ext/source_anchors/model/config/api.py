"""The settings of API source links (``source_anchors_api_*``), validated once (no Sphinx).

:func:`api_settings` reads the raw options that :class:`~.options.Options` declares and returns an
:class:`ApiSettings`, or the problems found, each naming its option.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError
from ..hosts import HOSTS, PermalinkTemplate, template_for, without_credentials
from .values import PREFIX, flag

__all__ = ["SELF", "ApiSettings", "api_settings", "overrides_problem"]

#: ``source_anchors_api_links`` for the git repository that holds ``conf.py``.
SELF = "self"
_COMMITISH = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/+-]*$")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


@dataclass(frozen=True)
class ApiSettings:
    """Where the ``[source]`` links of documented Python objects point."""

    #: ``"self"`` (the docs' own repository) or the name of a pinned repository.
    links: str
    #: The web address of the docs' own repository (None: from the ``origin`` remote).
    url: str | None = None
    #: ``github``, ``gitlab``, ``bitbucket`` or a permalink template (None: from the URL's host).
    host: str | None = None
    #: Outside a git checkout: the commit or release tag the links name.
    commit: str | None = None
    #: Package directories of the docs' own repository (empty: every top-level package of the
    #: commit).
    packages: tuple[str, ...] = ()
    #: Print every object without a link (a check-style list), not only their count.
    list_unlinked: bool = False
    #: Documented names no statement binds (served by a module ``__getattr__``, made at run time),
    #: each linked where the dotted name it maps to resolves.
    overrides: Mapping[str, str] = field(default_factory=dict)

    def template(self, url: str) -> PermalinkTemplate:
        """The permalink template for the docs' own repository at *url* (raises :class:`ConfigError`)."""
        host = self.host
        custom = host if host is not None and "{" in host else None
        return template_for(
            url=url, host=None if custom else host, permalink=custom, where=f"{PREFIX}api_host"
        )


def api_settings(
    opts: Mapping[str, Any], repos: Mapping[str, Any]
) -> tuple[ApiSettings | None, list[str]]:
    """The API link settings from the raw options *opts* (None when ``api_links`` is unset), and problems."""
    links = opts.get("api_links")
    if links is None or links == "":
        return None, []
    problems: list[str] = []
    if not isinstance(links, str):
        return None, [f"{PREFIX}api_links: expected 'self' or a repository name, got {links!r}"]
    if links != SELF and links not in repos:
        problems.append(
            f"{PREFIX}api_links: {links!r} is neither 'self' nor a key of {PREFIX}repos "
            f"(known: {sorted(repos)})"
        )
    url, host, commit = opts.get("api_url"), opts.get("api_host"), opts.get("api_commit")
    for name, value in (("api_url", url), ("api_host", host), ("api_commit", commit)):
        if value is not None and (not isinstance(value, str) or not value.strip()):
            problems.append(f"{PREFIX}{name}: expected a non-empty string or None, got {value!r}")
    if isinstance(host, str) and "{" not in host and host not in HOSTS:
        problems.append(
            f"{PREFIX}api_host: unknown host {host!r}; use one of {sorted(HOSTS)} or a template "
            "such as '{url}/src/commit/{commit}/{path}#L{start}-L{end}'"
        )
    elif isinstance(host, str) and "{" in host:
        try:
            template_for(url="u", host=None, permalink=host, where=f"{PREFIX}api_host")
        except ConfigError as error:
            problems.append(str(error))
    if isinstance(commit, str) and not _COMMITISH.match(commit.strip()):
        problems.append(f"{PREFIX}api_commit: {commit!r} is not a commit id or a tag name")
    packages = opts.get("api_packages") or ()
    if (
        isinstance(packages, str)
        or not isinstance(packages, (list, tuple))
        or not all(
            isinstance(p, str) and p and not p.startswith("/") and ".." not in p.split("/")
            for p in packages
        )
    ):
        problems.append(
            f"{PREFIX}api_packages: expected a list of package directories such as ['src/pkg']"
        )
        packages = ()
    if problems:
        return None, problems
    return ApiSettings(
        links=links,
        url=without_credentials(url) if isinstance(url, str) else None,
        host=host,
        commit=commit.strip() if isinstance(commit, str) else None,
        packages=tuple(p.strip("/") for p in packages),
        list_unlinked=bool(flag(opts.get("api_list_unlinked", False))),
        overrides=dict(opts.get("api_overrides") or {}),
    ), []


def overrides_problem(value: Any) -> str | None:
    """``source_anchors_api_overrides``: documented dotted name -> the dotted name of its definition."""
    example = "{'pkg.name': 'pkg.module.real_name'}"
    if not isinstance(value, Mapping):
        return (
            f"expected a dict of documented name to the name of its definition, such as {example}, "
            f"got {type(value).__name__}"
        )
    bad = [
        f"{key!r}: {target!r}"
        for key, target in value.items()
        if not (
            isinstance(key, str)
            and _DOTTED.match(key)
            and isinstance(target, str)
            and _DOTTED.match(target)
            and key != target
        )
    ]
    return (
        f"expected dotted names on both sides, such as {example}, got {', '.join(bad)}"
        if bad
        else None
    )
