"""What the extension reads of a page's own source: front matter and role lines (pure)."""

from __future__ import annotations

import re
from functools import cached_property

from .textlines import split_lines

_FENCE = re.compile(r"^---[ \t]*$")


class PageSource:
    """The text of one page, with helpers the role needs."""

    def __init__(self, text: str) -> None:
        self.lines = split_lines(text)

    @cached_property
    def front_matter(self) -> dict[str, object]:
        """The YAML front matter (``---`` fenced at the top), or ``{}``."""
        if not self.lines or not _FENCE.match(self.lines[0]):
            return {}
        for index, line in enumerate(self.lines[1:], start=1):
            if _FENCE.match(line):
                import yaml  # only pages with front matter need it

                try:
                    data = yaml.safe_load("\n".join(self.lines[1:index]))
                except yaml.YAMLError:
                    return {}
                return data if isinstance(data, dict) else {}
        return {}

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
