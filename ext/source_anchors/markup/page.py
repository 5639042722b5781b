"""What the extension reads of a page's own source: front matter and role lines (pure)."""

from __future__ import annotations

import re
from functools import cached_property

from ..model.textlines import split_lines
from .base import Markup


class PageSource:
    """The text of one page, read as its *markup* writes it, with the helpers the role needs."""

    def __init__(self, text: str, markup: Markup) -> None:
        self.lines = split_lines(text)
        self.markup = markup

    @cached_property
    def front_matter(self) -> dict[str, object]:
        """The page's own settings (``{}`` when there are none): YAML front matter, or the opening field list."""
        return self.markup.front_matter(self.lines)

    def field_line(self, name: str) -> int:
        """The line (1-based) of the front matter's field *name* (``name:`` or ``:name:``); 1 if not found."""
        pattern = re.compile(rf"^\s*:?{re.escape(name)}:")
        return next(
            (number for number, line in enumerate(self.lines, start=1) if pattern.match(line)), 1
        )

    def line_of(self, rawtext: str, *, near: int, nth: int = 0) -> int:
        """The line (1-based) of the *nth* occurrence of *rawtext*'s first line at or after *near*.

        MyST reports a role at the first line of its paragraph; the role's own
        line is found in the source. Falls back to *near*.
        """
        # MyST hands over ":src:`text`"; the page has "{src}`text`": match from the backtick.
        tick = rawtext.find("`")
        needle = (rawtext[tick:] if tick >= 0 else rawtext).split("\n", 1)[0]
        if not needle:
            return near
        seen = 0
        for number in range(max(near, 1), len(self.lines) + 1):
            count = self.lines[number - 1].count(needle)
            if seen + count > nth:
                return number
            seen += count
        return near
