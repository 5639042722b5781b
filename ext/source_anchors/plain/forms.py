"""What a Markdown link says: a line range of a file of the repository, at HEAD or at a commit (pure).

:func:`line_link` reads a link's destination and title into a :class:`LineLink`, or says why it is
none: an address elsewhere (another repository, a web page), a link without lines.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote

__all__ = ["TITLE_PREFIX", "LineLink", "line_link", "with_lines"]

#: A link title that states the link's target: ``"src: lib.mod.f"`` (any target of the grammar).
TITLE_PREFIX = "src:"
_FRAGMENT = re.compile(r"^L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")
_PERMALINK = re.compile(r"^(?P<base>.+?)(?P<blob>/-/blob/|/blob/)(?P<rev>[^/]+)/(?P<path>[^#?]+)$")


@dataclass(frozen=True)
class LineLink:
    """A link to lines of a file of the repository."""

    #: The file, from the repository root.
    path: str
    start: int
    end: int
    #: The commit a permalink names (None: a relative link, read at HEAD).
    rev: str | None = None
    #: The target the link's title states (``src: …``), or None.
    explicit: str | None = None
    #: ``gitlab`` for ``#L4-6`` (and ``/-/blob/``) links, else ``github``.
    style: str = "github"


def _fragment(fragment: str) -> tuple[int, int] | None:
    match = _FRAGMENT.match(fragment)
    if match is None:
        return None
    start = int(match["start"])
    return start, int(match["end"]) if match["end"] else start


def line_link(
    url: str, title: str | None, *, page_dir: str, web: str | None
) -> LineLink | str | None:
    """The :class:`LineLink` of a destination *url* written in a page in *page_dir*; else why not.

    None for a link that is no concern of this tool (a web page, a mail address, a page anchor);
    a string for a link that looks like a line link but is not one of this repository (counted).
    *web* is the repository's web address (its ``origin``), for permalinks.
    """
    explicit = (
        title[len(TITLE_PREFIX) :].strip()
        if title and title.startswith(TITLE_PREFIX) and title[len(TITLE_PREFIX) :].strip()
        else None
    )
    address, _, fragment = url.partition("#")
    lines = _fragment(fragment)
    if "://" in address:
        found = _PERMALINK.match(address)
        if found is None:
            return None
        if web is None or found["base"].rstrip("/") != web.rstrip("/"):
            return "another repository" if lines else None
        if lines is None:
            return None
        style = "gitlab" if found["blob"] == "/-/blob/" or "-L" not in fragment else "github"
        return LineLink(
            unquote(found["path"]), *lines, rev=found["rev"], explicit=explicit, style=style
        )
    if lines is None or address.startswith(("mailto:", "//")) or not address:
        return None
    joined = (
        address.lstrip("/")
        if address.startswith("/")
        else posixpath.normpath(posixpath.join(page_dir, unquote(address)))
    )
    if joined.startswith("../") or joined == "..":
        return "outside the repository"
    style = "github" if "-L" in fragment or lines[0] == lines[1] else "gitlab"
    return LineLink(joined, *lines, explicit=explicit, style=style)


def with_lines(
    url: str, start: int, end: int, *, style: str, rev: str | None = None, path: str | None = None
) -> str:
    """*url* with its fragment set to lines *start*-*end* (and, for a permalink, *rev* and *path*)."""
    address, _, _ = url.partition("#")
    if rev is not None and path is not None:
        found = _PERMALINK.match(address)
        if found is not None:
            address = f"{found['base']}{found['blob']}{rev}/{path}"
    if start == end:
        return f"{address}#L{start}"
    return f"{address}#L{start}-{'' if style == 'gitlab' else 'L'}{end}"
