"""The ``source-anchors-cli`` directive: the command's help and each subcommand's, in a page of the book.

It lives with the command line it documents (the Sphinx glue does not know the CLI); the
package's ``setup`` registers it beside the glue's directives.
"""

from __future__ import annotations

import argparse

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


class CliReferenceDirective(SphinxDirective):
    """``source-anchors-cli``: the command's help and each subcommand's, from the argument parser."""

    def run(self) -> list[nodes.Node]:
        """One literal block per command, as ``source-anchors [COMMAND] --help`` prints it (88 columns)."""
        from .main import get_parser  # the whole command line: pages that show it only

        def width(prog: str) -> argparse.HelpFormatter:
            return argparse.HelpFormatter(prog, width=88)

        parser = get_parser()
        parsers = [parser]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += list(action.choices.values())
        out: list[nodes.Node] = []
        for each in parsers:
            each.formatter_class = width
            out.append(nodes.rubric("", each.prog))
            out.append(nodes.literal_block("", each.format_help(), language="text"))
        return out


def setup(app: Sphinx) -> None:
    """Register ``source-anchors-cli``."""
    app.add_directive("source-anchors-cli", CliReferenceDirective)
