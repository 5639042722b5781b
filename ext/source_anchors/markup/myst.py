"""MyST Markdown: the ``{src}`` role, the ``source-anchor`` fence, YAML front matter, code (pure)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .base import Markup, Span

_FRONT = re.compile(r"^---[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$", re.M)
_TICKS = re.compile(r"`+")
#: A line that ends a paragraph above it: a heading, a fence, a list item's or a quote's marker.
_BLOCK = re.compile(r"^[ \t]*(?:#|`{3,}|~{3,}|:{3,})")
_OPTION = re.compile(r"^[ \t]*:([\w-]+):[ \t]*(.*?)[ \t]*$")


class MyST(Markup):
    """MyST-Parser's Markdown, as Sphinx reads it with ``myst_parser``."""

    name = "MyST Markdown"
    role = re.compile(r"\{src\}(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
    role_groups = (2,)
    directive = re.compile(
        r"^([ \t]*(?:`{3,}|~{3,}|:{3,})\{source-anchor\})(?:[ \t]+(\S(?:.*\S)?))?[ \t]*$", re.M
    )

    def front_matter(self, lines: Sequence[str]) -> dict[str, object]:
        """YAML front matter, ``---`` fenced at the top."""
        if not lines or not _FRONT.match(lines[0]):
            return {}
        for index, line in enumerate(lines[1:], start=1):
            if _FRONT.match(line):
                import yaml  # only pages with front matter need it

                try:
                    data = yaml.safe_load("\n".join(lines[1:index]))
                except yaml.YAMLError:
                    return {}
                return data if isinstance(data, dict) else {}
        return {}

    def code(self, text: str) -> list[Span]:
        """Fenced blocks (not a directive's) and inline code spans (not a role's)."""
        spans: list[Span] = []
        lines = text.splitlines(keepends=True)
        offset, fence, fence_start, directive = 0, "", 0, False
        for line in lines:
            found = _FENCE.match(line)
            if fence:
                if (
                    found
                    and found.group(1)[0] == fence[0]
                    and len(found.group(1)) >= len(fence)
                    and not found.group(2).strip()
                ):
                    if not directive:
                        spans.append((fence_start, offset + len(line)))
                    fence = ""
            elif found:
                fence, fence_start = found.group(1), offset
                directive = found.group(2).lstrip().startswith("{")
            offset += len(line)
        if fence and not directive:
            spans.append((fence_start, len(text)))
        fences = [(m.start(), m.end()) for m in _FENCE.finditer(text)]
        at = 0
        while (run := _TICKS.search(text, at)) is not None:
            if any(start <= run.start() < end for start, end in [*spans, *fences]):
                at = run.end()
                continue
            closing = re.compile(rf"(?<!`){run.group()}(?!`)").search(text, run.end())
            if closing is None:
                break
            if not text[: run.start()].endswith("}"):  # a role's backticks are not a code span
                spans.append((run.start(), closing.end()))
            at = closing.end()
        return spans

    def role_content(self, content: str) -> str:
        """The content with its line breaks as spaces, as a CommonMark code span has them."""
        return content.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")

    def role_line(self, lines: Sequence[str], line: int, content: str) -> int:
        """A role whose text spans lines is placed at its paragraph's first line.

        MyST reports a role at its paragraph's first line, and the role's text arrives with its line
        breaks as spaces: the page holds no line that shows it, so the role keeps the paragraph's
        line (:meth:`~source_anchors.markup.page.PageSource.line_of`).
        """
        if "\n" not in content and "\r" not in content:
            return line
        while line > 1 and lines[line - 2].strip() and not _BLOCK.match(lines[line - 2]):
            line -= 1
        return line

    def caption(self, lines: Sequence[str], line: int) -> str | None:
        """The option ``:caption: text`` on the lines after the fence, or in a ``---`` block there."""
        index, fenced = line, False
        if index < len(lines) and _FRONT.match(lines[index]):
            index, fenced = index + 1, True
        while index < len(lines):
            text = lines[index]
            if fenced and _FRONT.match(text):
                return None
            found = _OPTION.match(text) or (
                re.match(r"^[ \t]*([\w-]+):[ \t]*(.*?)[ \t]*$", text) if fenced else None
            )
            if found is None:
                return None
            if found.group(1) == "caption":
                return found.group(2)
            index += 1
        return None
