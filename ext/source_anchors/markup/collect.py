"""The anchors a page writes, read from its text without Sphinx: (line, target text, label) (pure).

What the Sphinx glue finds on a page by parsing it, found here by the patterns of the page's markup
(:mod:`.myst`, :mod:`.rst`): each ``src`` role outside code, with its label and target split as the
role splits them (:func:`.labels.split_label`), and each ``source-anchor`` directive, whose label is
its ``caption`` option or else its target. Lines are 1-based: a role's is the line of its opening
backtick, a directive's the line it starts on.
"""

from __future__ import annotations

from .base import Markup, Written, outside
from .labels import split_label
from .page import PageSource


def anchors(text: str, markup: Markup) -> list[Written]:
    """Every anchor *text* writes in *markup*, in the order of the page."""
    code = markup.code(text)
    lines = PageSource(text, markup).lines
    found: list[tuple[int, Written]] = []
    for _, (begin, end) in markup.roles(text, code):
        tick = text.rfind("`", 0, begin)
        content = text[begin:end]
        label, target = split_label(markup.role_content(content))
        found.append(
            (tick, Written(markup.role_line(lines, _line(text, tick), content), target, label))
        )
    for start, (begin, end) in markup.directives(text):
        if not outside(code, start):
            continue
        line = _line(text, start)
        target = text[begin:end].strip()
        found.append((start, Written(line, target, markup.caption(lines, line) or target)))
    return [written for _, written in sorted(found, key=lambda pair: pair[0])]


def _line(text: str, at: int) -> int:
    """The 1-based line of offset *at*, counting the line ends the page's lines count (LF, CRLF, CR)."""
    head = text[:at]
    return head.count("\n") + head.count("\r") - head.count("\r\n") + 1
