"""Permalinks per code host, from a template table (pure)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote, urlsplit

from .errors import ConfigError
from .remotes import KNOWN_HOSTNAMES as KNOWN_HOSTNAMES
from .remotes import without_credentials as without_credentials


@dataclass(frozen=True)
class PermalinkTemplate:
    """URL templates with fields ``{url}``, ``{commit}``, ``{path}``, ``{start}``, ``{end}``.

    ``file`` links a whole file, ``line`` one line, ``lines`` a range. ``plain`` is the host's
    query that shows a file it renders (Markdown, a notebook, a CSV table …) as numbered source:
    without it the host shows the rendered page and ignores the line fragment. Empty: the host has
    no such form (a user's template), and the link is the template as written.
    """

    file: str
    line: str
    lines: str
    plain: str = ""

    def render(
        self, *, url: str, commit: str, path: str, start: int | None, end: int | None
    ) -> str:
        """Return the permalink; no line fragment when *start* is None."""
        fields = {
            "url": _base(url),
            "commit": commit,
            "path": _quote(path),
            "start": start,
            "end": end,
        }
        if start is None:
            return self.file.format(**fields)
        template = self.line if end is None or end == start else self.lines
        if self.plain and rendered(path):
            base, _, fragment = template.partition("#")
            template = f"{base}{self.plain}#{fragment}"
        return template.format(**fields)


@lru_cache(maxsize=64)
def _base(url: str) -> str:
    # a fetch's token is no reader's
    return without_credentials(url).rstrip("/").removesuffix(".git")


_USERINFO = re.compile(r"(?<=://)[^/\s@'\"]+@")


def redact_credentials(text: str) -> str:
    """*text* with the user and password of every ``scheme://user:token@host`` URL in it removed (for messages)."""
    return _USERINFO.sub("", text)


@lru_cache(maxsize=4096)
def _quote(path: str) -> str:
    """``quote(path)``, once per file: a book links each file many times."""
    return quote(path)


#: Suffixes (lower case) of the text files GitHub and GitLab show rendered at ``/blob/``: markup,
#: notebooks, tables, vector images, maps. A line link into one needs the host's ``plain`` query.
RENDERED_SUFFIXES = frozenset(
    {
        ".md",
        ".markdown",
        ".mdown",
        ".mkdn",
        ".mkd",
        ".mdwn",
        ".rst",
        ".rest",
        ".adoc",
        ".asciidoc",
        ".asc",
        ".org",
        ".textile",
        ".rdoc",
        ".creole",
        ".mediawiki",
        ".wiki",
        ".pod",
        ".ipynb",
        ".csv",
        ".tsv",
        ".svg",
        ".geojson",
        ".topojson",
        ".stl",
        ".mermaid",
        ".mmd",
    }
)


@lru_cache(maxsize=4096)
def rendered(path: str) -> bool:
    """Whether GitHub or GitLab shows *path* rendered (so that a line fragment alone is ignored)."""
    name = path.rpartition("/")[2].lower()
    dot = name.rfind(".")
    return dot > 0 and name[dot:] in RENDERED_SUFFIXES


HOSTS: dict[str, PermalinkTemplate] = {
    # ``?plain=1``: GitHub's source view of a rendered file (2021); GitLab honours the same query
    # since 15.2 (merge request 91810) and ignores it for files it does not render.
    "github": PermalinkTemplate(
        file="{url}/blob/{commit}/{path}",
        line="{url}/blob/{commit}/{path}#L{start}",
        lines="{url}/blob/{commit}/{path}#L{start}-L{end}",
        plain="?plain=1",
    ),
    "gitlab": PermalinkTemplate(
        file="{url}/-/blob/{commit}/{path}",
        line="{url}/-/blob/{commit}/{path}#L{start}",
        lines="{url}/-/blob/{commit}/{path}#L{start}-{end}",
        plain="?plain=1",
    ),
    "bitbucket": PermalinkTemplate(
        file="{url}/src/{commit}/{path}",
        line="{url}/src/{commit}/{path}#lines-{start}",
        lines="{url}/src/{commit}/{path}#lines-{start}:{end}",
    ),
}


def template_for(
    *, url: str, host: str | None, permalink: str | None, where: str
) -> PermalinkTemplate:
    """Choose the permalink template for a repository entry.

    *permalink* is a user template with ``{url} {commit} {path} {start} {end}``
    (the ``lines`` form); its ``file`` and ``line`` forms drop the fragment and
    repeat the start line. *where* names the config entry for error messages.
    """
    if permalink is not None:
        if not isinstance(permalink, str) or not permalink.strip():
            raise ConfigError(
                f"{where}['permalink']: expected a URL template string such as "
                "'{url}/src/commit/{commit}/{path}#L{start}-L{end}'"
            )
        base, _, _ = permalink.partition("#")
        template = PermalinkTemplate(
            file=base, line=permalink.replace("{end}", "{start}"), lines=permalink
        )
        try:
            template.render(url="u", commit="c", path="p", start=1, end=2)
            template.render(url="u", commit="c", path="p", start=None, end=None)
        except (KeyError, IndexError, ValueError, AttributeError) as error:
            raise ConfigError(
                f"{where}['permalink']: {permalink!r} is not a valid template ({error!r}); "
                "use only the fields {url} {commit} {path} {start} {end}"
            ) from None
        return template
    if host is not None:
        if not isinstance(host, str) or host not in HOSTS:
            raise ConfigError(
                f"{where}: unknown host {host!r}; use one of {sorted(HOSTS)} or give 'permalink'"
            )
        return HOSTS[host]
    hostname = (urlsplit(url).hostname or "").lower()
    if hostname in KNOWN_HOSTNAMES:
        return HOSTS[KNOWN_HOSTNAMES[hostname]]
    if urlsplit(url).scheme == "file" or not hostname:
        # Local test and mirror remotes: link in GitHub's shape so pages stay clickable.
        return HOSTS["github"]
    raise ConfigError(
        f"{where}: unknown host {hostname!r}; set 'host' to one of {sorted(HOSTS)} "
        "or give a 'permalink' template such as '{url}/src/commit/{commit}/{path}#L{start}-L{end}'"
    )
