"""What a Markdown link says, as plain parts: a line range of a file of the repository (pure).

:func:`line_parts` reads a link's destination and title; :func:`.forms.line_link` makes the
:class:`~.forms.LineLink` record of its parts. Apart from it so that the warm check
(:mod:`source_anchors.cli.warm`) reads links without loading dataclasses or :mod:`urllib.parse`.
"""

from __future__ import annotations

import posixpath
import re

__all__ = ["PERMALINK", "TITLE_PREFIX", "line_parts", "unquote"]

#: A link title that states the link's target: ``"src: lib.mod.f"`` (any target of the grammar).
TITLE_PREFIX = "src:"
_FRAGMENT = re.compile(r"^L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")
PERMALINK = re.compile(r"^(?P<base>.+?)(?P<blob>/-/blob/|/blob/)(?P<rev>[^/]+)/(?P<path>[^#?]+)$")

#: A line link's parts: path, start, end, commit (None: read at HEAD), explicit target (or None),
#: style (``github`` or ``gitlab``).
Parts = tuple[str, int, int, str | None, str | None, str]


def unquote(text: str) -> str:
    """:func:`urllib.parse.unquote`, which is imported only for a text that holds a ``%``.

    (``unquote`` itself returns such a text as it is.)
    """
    if "%" not in text:
        return text
    from urllib.parse import unquote as decoded

    return decoded(text)


def _fragment(fragment: str) -> tuple[int, int] | None:
    match = _FRAGMENT.match(fragment)
    if match is None:
        return None
    start = int(match["start"])
    return start, int(match["end"]) if match["end"] else start


def line_parts(
    url: str, title: str | None, *, page_dir: str, web: str | None
) -> Parts | str | None:
    """The parts of the line link of a destination *url* written in a page in *page_dir*; else why not.

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
    lines = _fragment(fragment) if fragment.startswith("L") else None
    if lines is None:  # no line range: nothing this tool reads, wherever it points
        return None
    if "://" in address:
        found = PERMALINK.match(address)
        if found is None:
            return None
        if web is None or found["base"].rstrip("/") != web.rstrip("/"):
            return "another repository"
        style = "gitlab" if found["blob"] == "/-/blob/" or "-L" not in fragment else "github"
        return unquote(found["path"]), *lines, found["rev"], explicit, style
    if address.startswith(("mailto:", "//")) or not address:
        return None
    if address.startswith("/"):
        joined = address.lstrip("/")
    else:
        relative = unquote(address)
        joined = posixpath.normpath(
            f"{page_dir}/{relative}"  # posixpath.join's result here, without its call
            if page_dir and not page_dir.endswith("/") and not relative.startswith("/")
            else posixpath.join(page_dir, relative)
        )
    if joined.startswith("../") or joined == "..":
        return "outside the repository"
    style = "github" if "-L" in fragment or lines[0] == lines[1] else "gitlab"
    return joined, *lines, None, explicit, style
