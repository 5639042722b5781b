"""What a Markdown link says: a line range of a file of the repository, at HEAD or at a commit (pure).

:func:`line_link` reads a link's destination and title into a :class:`LineLink`, or says why it is
none: an address elsewhere (another repository, a web page), a link without lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from .lineparts import PERMALINK, TITLE_PREFIX, line_parts

__all__ = ["TITLE_PREFIX", "LineLink", "line_link", "with_lines"]


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


def line_link(
    url: str, title: str | None, *, page_dir: str, web: str | None
) -> LineLink | str | None:
    """The :class:`LineLink` of a destination *url* written in a page in *page_dir*; else why not.

    None for a link that is no concern of this tool (a web page, a mail address, a page anchor);
    a string for a link that looks like a line link but is not one of this repository (counted).
    *web* is the repository's web address (its ``origin``), for permalinks
    (:func:`.lineparts.line_parts`).
    """
    parts = line_parts(url, title, page_dir=page_dir, web=web)
    return parts if parts is None or isinstance(parts, str) else LineLink(*parts)


def with_lines(
    url: str, start: int, end: int, *, style: str, rev: str | None = None, path: str | None = None
) -> str:
    """*url* with its fragment set to lines *start*-*end* (and, for a permalink, *rev* and *path*)."""
    address, _, _ = url.partition("#")
    if rev is not None and path is not None:
        found = PERMALINK.match(address)
        if found is not None:
            address = f"{found['base']}{found['blob']}{rev}/{path}"
    if start == end:
        return f"{address}#L{start}"
    return f"{address}#L{start}-{'' if style == 'gitlab' else 'L'}{end}"
