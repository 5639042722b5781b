"""What the extension reads of a page's own source: front matter and role lines (pure)."""

from __future__ import annotations

import re
from functools import cached_property

from .textlines import split_lines

_FENCE = re.compile(r"^---[ \t]*$")
#: A field of a reStructuredText field list: ``:name: value``.
_FIELD = re.compile(r"^:((?:[^:\\]|\\.)+):(?:\s+(.*))?$")


class PageSource:
    """The text of one page, with helpers the role needs.

    *rst* says the page is reStructuredText: its front matter is the field list at its
    top (Sphinx's file-wide metadata), not YAML.
    """

    def __init__(self, text: str, *, rst: bool = False) -> None:
        self.lines = split_lines(text)
        self.rst = rst

    @cached_property
    def front_matter(self) -> dict[str, object]:
        """The page's own settings (``{}`` when there are none).

        YAML front matter (``---`` fenced at the top); for reStructuredText, the field list
        that opens the page.
        """
        if self.rst:
            return self._field_list()
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

    def _field_list(self) -> dict[str, object]:
        """The field list that opens the page (only comments and blank lines may precede it)."""
        fields: dict[str, object] = {}
        index, lines = 0, self.lines
        while index < len(lines) and (not lines[index].strip() or lines[index].startswith("..")):
            index += 1
            while lines[index - 1].startswith("..") and index < len(lines) and lines[index][:1] in (" ", "\t"):
                index += 1  # the comment's indented continuation
        last = None
        while index < len(lines):
            line = lines[index]
            found = _FIELD.match(line)
            if found:
                last = found.group(1).strip()
                fields[last] = (found.group(2) or "").strip()
            elif last is not None and line[:1] in (" ", "\t") and line.strip():
                fields[last] = f"{fields[last]} {line.strip()}".strip()
            else:
                break
            index += 1
        return fields

    def field_line(self, name: str) -> int:
        """The line (1-based) of the front matter's field *name* (``name:`` or ``:name:``); 1 if not found."""
        pattern = re.compile(rf"^\s*:?{re.escape(name)}:")
        return next((number for number, line in enumerate(self.lines, start=1) if pattern.match(line)), 1)

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
