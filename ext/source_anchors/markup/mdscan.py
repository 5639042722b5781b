"""The inline links of a plain Markdown file as matches, line by line, outside code (pure).

:func:`link_matches` is the one scanner: :func:`.mdlinks.md_links` makes its records of these
matches, and the warm check (:mod:`source_anchors.cli.warm`) reads them as they are, without
loading dataclasses. Fenced code blocks, indented code blocks and inline code spans are never read
as links; images are not links. Reference-style links are left alone (their destination is on
another line).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing itself is not imported: the warm check loads this module
if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["LINE_END", "blank_code", "link_matches", "title_span", "url_span"]

LINE_END = re.compile(r"\r\n|\r|\n")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
#: A link: ``[label](destination "title")``, its ``[`` not escaped and not an image's ``![``.
#:
#: The pattern starts with the ``[`` itself (then looks behind it), so that the engine searches
#: for that character between links instead of trying a look-behind at every position. The
#: label's repetition is possessive: which of its three forms comes next is decided by its first
#: character (``\``, ``[``, anything else but ``]``), so there is only ever one way to read a
#: label, and giving characters back could never end it at a ``]`` it did not end at; the
#: matches are the ones of ``(?<![!\\])\[(?:[^\[\]\\]|\\.|\[[^\]]*\])*\]…``
#: (``tests/test_plain_warm.py`` compares the two on generated lines).
_LINK = re.compile(
    r"\[(?<![!\\]\[)(?P<label>(?:[^\[\]\\]++|\\.|\[[^\]]*+\])*+)\]"
    r"\((?P<url><[^>\n]*>|[^\s()]+)(?:\s+(?P<title>\"[^\"]*\"|'[^']*'))?\s*\)"
)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def blank_code(line: str) -> str:
    """*line* with each inline code span's text replaced by spaces (columns kept).

    A line of two backticks apart is one span from the first to the second (what the pattern
    finds there), blanked without the pattern's substitution and its call per span.
    """
    if line.count("`") == 2:
        first = line.index("`")
        last = line.index("`", first + 1)
        if last == first + 1:
            return line  # ``: a run of two, and no other run to close it
        return line[:first] + " " * (last - first + 1) + line[last + 1 :]
    return _CODE_SPAN.sub(_blank, line)


def link_matches(
    text: str, containing: str | None = None
) -> Iterator[tuple[int, str, re.Match[str]]]:
    """(line number, line, match) of every inline link of the Markdown *text*, in reading order.

    The match is of the line with its inline code blanked out (columns kept): read the link's
    label from *line* at the match's span (:func:`url_span`, :func:`title_span`). With
    *containing*, only the lines that hold that text are searched (a line link's destination
    holds ``#L``); the others still open and close code blocks.
    """
    fence: str | None = None
    previous_blank, in_indented = True, False
    # the lines of split_lines, without their ends (str.split alone where no line ends in CR)
    lines = LINE_END.split(text) if "\r" in text else text.split("\n")
    for number, line in enumerate(lines, start=1):
        opened = _FENCE.match(line) if "```" in line or "~~~" in line else None
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
        if in_indented or blank or (containing is not None and containing not in line):
            continue
        for match in _LINK.finditer(blank_code(line) if "`" in line else line):
            yield number, line, match


def url_span(match: re.Match[str]) -> tuple[str, int, int]:
    """A link's destination and its columns in the line (``<…>`` brackets left out)."""
    url = match.group("url")
    start, end = match.span("url")
    if url.startswith("<"):
        return url[1:-1], start + 1, end - 1
    return url, start, end


def title_span(match: re.Match[str]) -> tuple[int, int]:
    """A link title's columns in the line, quotes excluded; ``(-1, -1)`` without a title."""
    if match.group("title") is None:
        return -1, -1
    return match.start("title") + 1, match.end("title") - 1
