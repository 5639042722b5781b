"""Anchors written in the other markup's role syntax, which the page's parser shows as plain text.

A MyST page reads reStructuredText's ``:src:`label <target>``` as the text ``:src:`` and a
code span, and its ``.. source-anchor::`` as a paragraph; an rST page reads MyST's
``{src}`label <target>``` as text. Neither is an anchor, and neither parser warns, so the page
builds green without the link. :func:`foreign_anchors` finds them in a doctree, outside code,
and says how the page's own markup writes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docutils import nodes

#: What a page's source must hold for the doctree to be read for the other syntax: MyST's in an rST
#: page, reStructuredText's in any other.
MYST_MARKERS = ("{src}`",)
RST_MARKERS = (":src:", ".. source-anchor::")
#: Elements whose text is shown as written: the syntax may be quoted there (a manual, this one).
_VERBATIM = (nodes.FixedTextElement, nodes.literal, nodes.raw, nodes.comment, nodes.substitution_definition)
#: MyST's form in an rST page: ``{src}`` then the backticked text, all one text node.
_MYST_IN_RST = re.compile(r"\{src\}`([^`]+)`")
#: rST's form in a MyST page: a text ending in ``:src:``, then a code span.
_RST_IN_MYST = re.compile(r"(?:^|(?<=[\s(\[\"'“‘（]))(:src:)$")
#: rST's block directive in a MyST page: a paragraph that opens with it.
_RST_DIRECTIVE = re.compile(r"\A\.\. source-anchor::[ \t]*([^\n]*)")


def foreign_anchors(doctree: nodes.document) -> Iterator[tuple[nodes.Element, str, str]]:
    """(the element holding it, the message, the text as written) for each anchor in the other syntax."""
    for text in doctree.findall(nodes.Text):
        parent = text.parent
        if parent is None or _verbatim(parent):
            continue
        value = str(text)
        opening = _RST_DIRECTIVE.match(value) if isinstance(parent, nodes.paragraph) and parent[0] is text else None
        if opening:
            yield parent, (f"'.. source-anchor:: {opening[1]}' is the reStructuredText form of the block anchor, "
                           "which this Markdown (MyST) page shows as text: open a fence with ```{source-anchor} "
                           f"{opening[1]}, put its options (:caption: …) below and close it with ```"), opening[0]
        for found in _MYST_IN_RST.finditer(value):
            yield parent, (f"'{{src}}`{found[1]}`' is the MyST form of an anchor, which this reStructuredText "
                           f"page shows as text: write :src:`{found[1]}`"), found[0]
        if _RST_IN_MYST.search(value):
            index = parent.index(text)
            following = parent[index + 1] if index + 1 < len(parent) else None
            if isinstance(following, nodes.literal):
                code = following.astext()
                yield parent, (f"':src:`{code}`' is the reStructuredText form of an anchor, which this Markdown "
                               f"(MyST) page shows as text: write {{src}}`{code}`"), f":src:`{code}`"


def _verbatim(node: nodes.Node) -> bool:
    while node is not None:
        if isinstance(node, _VERBATIM):
            return True
        node = node.parent
    return False
