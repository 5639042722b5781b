"""The inline links of a plain Markdown file, with their lines and columns (pure).

Fenced code blocks, indented code blocks and inline code spans are never read as links; images are
not links. Reference-style links are left alone (their destination is on another line). The
scanner is :mod:`.mdscan`'s; here the records of what it finds.
"""

from __future__ import annotations

from dataclasses import dataclass

from .mdscan import LINE_END, link_matches, title_span, url_span

__all__ = ["MdLink", "md_links", "split_lines"]


@dataclass(frozen=True)
class MdLink:
    """One inline link: its line (1-based), where its destination starts and ends in the line, its parts."""

    line: int
    #: The destination's columns in the line (0-based, end exclusive): what ``fix`` rewrites.
    start: int
    end: int
    label: str
    url: str
    #: The link title without its quotes, or None.
    title: str | None
    #: The title's columns in the line, quotes excluded (``-1`` without a title): what ``fix``
    #: rewrites when the title states a target that moved.
    title_start: int = -1
    title_end: int = -1


def split_lines(text: str) -> list[str]:
    """*text*'s lines with their ends, split where Markdown (and an editor) ends a line: LF, CRLF, CR.

    Not :meth:`str.splitlines`, which also ends a line at a form feed or U+2028, so that its line
    numbers are not the ones the file's readers see.
    """
    lines, at = [], 0
    for end in LINE_END.finditer(text):
        lines.append(text[at : end.end()])
        at = end.end()
    if at < len(text):
        lines.append(text[at:])
    return lines


def md_links(text: str, containing: str | None = None) -> list[MdLink]:
    """Every inline link of the Markdown *text*, in reading order.

    With *containing*, only the links of the lines that hold that text (:func:`.mdscan.link_matches`).
    """
    found: list[MdLink] = []
    for number, line, match in link_matches(text, containing):
        url, start, end = url_span(match)
        title_start, title_end = title_span(match)
        found.append(
            MdLink(
                line=number,
                start=start,
                end=end,
                label=line[match.start("label") : match.end("label")],
                url=url,
                title=line[title_start:title_end] if title_start >= 0 else None,
                title_start=title_start,
                title_end=title_end,
            )
        )
    return found
