"""The inline links of a plain Markdown file, with their lines and columns (pure).

Fenced code blocks, indented code blocks and inline code spans are never read as links; images are
not links. Reference-style links are left alone (their destination is on another line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MdLink", "md_links", "split_lines"]

_LINE_END = re.compile(r"\r\n|\r|\n")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_LINK = re.compile(
    r"(?<![!\\])\[(?P<label>(?:[^\[\]\\]|\\.|\[[^\]]*\])*)\]"
    r"\((?P<url><[^>\n]*>|[^\s()]+)(?:\s+(?P<title>\"[^\"]*\"|'[^']*'))?\s*\)"
)


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
    for end in _LINE_END.finditer(text):
        lines.append(text[at : end.end()])
        at = end.end()
    if at < len(text):
        lines.append(text[at:])
    return lines


def _blank_code(line: str) -> str:
    """*line* with each inline code span's text replaced by spaces (columns kept)."""
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def md_links(text: str) -> list[MdLink]:
    """Every inline link of the Markdown *text*, in reading order."""
    found: list[MdLink] = []
    fence: str | None = None
    previous_blank, in_indented = True, False
    # the lines of split_lines, without their ends (str.split alone where no line ends in CR)
    lines = _LINE_END.split(text) if "\r" in text else text.split("\n")
    for number, line in enumerate(lines, start=1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        blank = not line.strip()
        indented = line.startswith(("    ", "\t")) and not blank
        in_indented = indented and (previous_blank or in_indented)
        previous_blank = blank if not in_indented else previous_blank
        if in_indented or blank:
            continue
        for match in _LINK.finditer(_blank_code(line)):
            url = match.group("url")
            start, end = match.span("url")
            if url.startswith("<"):
                url, start, end = url[1:-1], start + 1, end - 1
            title = match.group("title")
            title_at = (match.start("title") + 1, match.end("title") - 1) if title else (-1, -1)
            found.append(
                MdLink(
                    line=number,
                    start=start,
                    end=end,
                    label=line[match.start("label") : match.end("label")],
                    url=url,
                    title=line[title_at[0] : title_at[1]] if title else None,
                    title_start=title_at[0],
                    title_end=title_at[1],
                )
            )
    return found
