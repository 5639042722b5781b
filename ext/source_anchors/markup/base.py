"""What every markup module gives: where a page writes roles, directives and code, and its front matter (pure)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

#: A span of a page's text: (start, end) offsets, end excluded.
Span = tuple[int, int]


@dataclass(frozen=True)
class Written:
    """An anchor as a page writes it: its line (1-based), its target text and its label."""

    line: int
    target: str
    label: str


class Markup:
    """One markup's knowledge of a page: subclasses set the patterns and read front matter and code.

    :attr:`role` matches a ``src`` role; its content (the text between the backticks) is the
    first of :attr:`role_groups` that took part in the match. :attr:`directive` matches the
    ``source-anchor`` directive's first line, its argument in group 2 (absent when none is written).
    """

    #: The markup's name, as messages and the registry say it.
    name: ClassVar[str]
    role: ClassVar[re.Pattern[str]]
    role_groups: ClassVar[tuple[int, ...]]
    directive: ClassVar[re.Pattern[str]]

    def front_matter(self, lines: Sequence[str]) -> dict[str, object]:
        """The page's own settings (``{}`` when there are none)."""
        raise NotImplementedError

    def code(self, text: str) -> list[Span]:
        """Spans of *text* shown as code, where nothing is read as an anchor."""
        raise NotImplementedError

    def caption(self, lines: Sequence[str], line: int) -> str | None:
        """The ``caption`` option of the directive that starts on *line* (1-based), if it sets one."""
        raise NotImplementedError

    def role_content(self, content: str) -> str:
        """A role's content as the parser hands it to the role (MyST joins the lines of a code span)."""
        return content

    def role_line(self, lines: Sequence[str], line: int, content: str) -> int:
        """The line Sphinx gives a role that opens on *line*: its own, unless the markup loses it."""
        del lines, content
        return line

    def roles(self, text: str, code: Sequence[Span] | None = None) -> Iterator[tuple[int, Span]]:
        """(start of the role, span of its content) for each role in *text*.

        Without *code*, roles in code are included. With it, a role that starts in code is not one,
        and the text after its start is searched again (what looked like its content may hold a
        role).
        """
        at = 0
        while (found := self.role.search(text, at)) is not None:
            if code is not None and not outside(code, found.start()):
                at = found.start() + 1
                continue
            group = next(group for group in self.role_groups if found.group(group) is not None)
            yield found.start(), (found.start(group), found.end(group))
            at = found.end()

    def directives(self, text: str) -> Iterator[tuple[int, Span]]:
        """(start of the directive, span of its argument) for each directive in *text*, code included.

        A directive without an argument has an empty span at the end of its name.
        """
        for found in self.directive.finditer(text):
            span = found.span(2) if found.group(2) is not None else (found.end(1), found.end(1))
            yield found.start(), span


def outside(spans: Sequence[Span], at: int) -> bool:
    """Whether offset *at* is in none of *spans*."""
    return not any(start <= at < end for start, end in spans)
