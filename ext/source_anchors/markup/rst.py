"""reStructuredText: the ``:src:`` role, the ``source-anchor`` directive, the opening field list, code (pure)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .base import Markup, Span
from .myst import MyST

#: A field of a reStructuredText field list: ``:name: value``.
_FIELD = re.compile(r"^:((?:[^:\\]|\\.)+):(?:\s+(.*))?$")
_FRONT = re.compile(r"^---[ \t]*$")
_LITERAL = re.compile(r"``.+?``", re.DOTALL)
_CODE_DIRECTIVE = re.compile(
    r"^([ \t]*)\.\.[ \t]+(?:code-block|code|sourcecode|literalinclude)::.*$", re.M
)
_OPTION = re.compile(r"^([ \t]+):([\w-]+):[ \t]*(.*?)[ \t]*$")


class ReST(Markup):
    """reStructuredText, as docutils reads it."""

    name = "reStructuredText"
    role = re.compile(
        r":src:(`)((?:[^`\\]|\\.)+?)`(?!`)|(?<![`:])(`)((?:[^`\\]|\\.)+?)`:src:", re.DOTALL
    )
    role_groups = (2, 4)
    directive = re.compile(
        r"^([ \t]*\.\.[ \t]+source-anchor::)(?:[ \t]+(\S(?:.*\S)?))?[ \t]*$", re.M
    )

    def front_matter(self, lines: Sequence[str]) -> dict[str, object]:
        """The field list that opens the page (Sphinx's file-wide metadata; comments and blank lines may precede it).

        A page that opens with a ``---`` line has its YAML read as MyST's is (what an author brings
        from Markdown).
        """
        if lines and _FRONT.match(lines[0]):
            return _MYST.front_matter(lines)
        fields: dict[str, object] = {}
        index = 0
        while index < len(lines) and (not lines[index].strip() or lines[index].startswith("..")):
            index += 1
            while (
                lines[index - 1].startswith("..")
                and index < len(lines)
                and lines[index][:1] in (" ", "\t")
            ):
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

    def code(self, text: str) -> list[Span]:
        """Inline literals, and blocks after ``::`` or a code directive."""
        spans = [(m.start(), m.end()) for m in _LITERAL.finditer(text)]
        lines = text.splitlines(keepends=True)
        offset, block_indent, block_start = 0, None, 0
        for line in lines:
            indent = len(line) - len(line.lstrip())
            if block_indent is not None and line.strip() and indent <= block_indent:
                spans.append((block_start, offset))
                block_indent = None
            literal = line.rstrip().endswith("::") and not line.lstrip().startswith(".. ")
            if block_indent is None and (literal or _CODE_DIRECTIVE.match(line)):
                block_indent, block_start = indent, offset + len(line)
            offset += len(line)
        if block_indent is not None:
            spans.append((block_start, len(text)))
        return spans

    def caption(self, lines: Sequence[str], line: int) -> str | None:
        """The option ``:caption: text`` among the indented options after the directive's line."""
        index = line
        while index < len(lines) and (found := _OPTION.match(lines[index])):
            if found.group(2) == "caption":
                return found.group(3)
            index += 1
        return None


_MYST = MyST()
