"""Column widths for the generated tables (options, diagnostics, ledger).

Sphinx's text builder takes a ``colspec``'s ``colwidth`` as a width in characters, while HTML and
LaTeX size a table without ``:widths:`` from its content and ignore it. A width of 1 made every
column one character wide in the text output; these widths are the content's own, shared out
within a line of text.
"""

from __future__ import annotations

from collections.abc import Sequence

from docutils import nodes

#: Characters a text-builder table may take, borders included (about a terminal's width).
TEXT_WIDTH = 100
#: No column is squeezed below this (a short header, a line range).
_NARROWEST = 8


def column_widths(rows: Sequence[Sequence[nodes.Node | str]]) -> list[int]:
    """Each column's width in characters: its longest line, the widest cut down until the table fits."""
    columns = max((len(row) for row in rows), default=0)
    widths = [1] * columns
    for row in rows:
        for index, cell in enumerate(row):
            text = cell.astext() if isinstance(cell, nodes.Node) else str(cell)
            widths[index] = max(widths[index], *(len(line) for line in text.splitlines() or [""]))
    room = TEXT_WIDTH - 3 * columns - 1  # "| " and " |" around each cell
    while sum(widths) > room and max(widths) > _NARROWEST:
        widest = widths.index(max(widths))
        widths[widest] -= 1
    return widths
