"""Tables for the manual (docs/), generated from the code so they cannot drift from it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from ..model.config import PREFIX, Options, option_default
from .diagnostics import subtype_docs
from .tables import column_widths

Cell = str | list[nodes.Node]


def _table(header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> nodes.table:
    table = nodes.table(classes=["sa-table"])
    group = nodes.tgroup(cols=len(header))
    table += group
    texts = [
        [cell if isinstance(cell, str) else "".join(node.astext() for node in cell) for cell in row]
        for row in rows
    ]
    for width in column_widths([header, *texts]):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    body = nodes.tbody()
    group += body
    parts: list[tuple[nodes.Element, Sequence[Sequence[Cell]]]] = [(head, [header]), (body, rows)]
    for target, cells in parts:
        for cells_row in cells:
            row = nodes.row()
            for index, cell in enumerate(cells_row):
                entry = nodes.entry()
                para = nodes.paragraph()
                if isinstance(cell, list):
                    para.extend(cell)
                elif index == 0 and target is body:
                    para += nodes.literal("", cell)
                else:
                    para += nodes.Text(cell)
                entry += para
                row += entry
            target += row
    return table


class ConfigTableDirective(SphinxDirective):
    """``source-anchors-config``: every ``conf.py`` option with its default and help."""

    def run(self) -> list[nodes.Node]:
        """Build the table from :class:`~source_anchors.config.Options`."""
        rows = [
            (PREFIX + f.name, repr(option_default(f)), f.metadata["help"])
            for f in dataclasses.fields(Options)
        ]
        return [_table(("option", "default", "meaning"), rows)]


class DiagnosticsTableDirective(SphinxDirective):
    """``source-anchors-diagnostics``: every warning subtype with its docstring."""

    def run(self) -> list[nodes.Node]:
        """Build the table from :class:`~source_anchors.diagnostics.Subtype`."""
        rows: list[tuple[Cell, Cell]] = []
        for name, doc in subtype_docs():
            # Docstrings use ``code`` markup: parse it, so the table reads as the code's own docs.
            parsed, _ = self.parse_inline(doc, lineno=self.lineno)
            rows.append((name, list(parsed)))
        return [_table(("warning type", "meaning and what to do"), rows)]


def setup(app: Sphinx) -> None:
    """Register the generated-table directives."""
    app.add_directive("source-anchors-config", ConfigTableDirective)
    app.add_directive("source-anchors-diagnostics", DiagnosticsTableDirective)
