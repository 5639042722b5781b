"""Anchors written in the other markup's role syntax, which the page's parser shows as plain text.

A MyST page reads reStructuredText's ``:src:`label <target>``` as the text ``:src:`` and a
code span, and its ``.. source-anchor::`` as a paragraph; an rST page reads MyST's
``{src}`label <target>``` as text. Neither is an anchor, and neither parser warns, so the page
builds green without the link. :func:`foreign_anchors` finds them in a doctree, outside code,
and says how the page's own markup writes them.

Near misses in a page's own markup are read as text just as silently, and found the same way: a
space after the role name (``:src: `x``` in rST, ``{src} `x``` in MyST: text, then the default
role's or a code span), and MyST's ``:::{source-anchor}`` block where ``colon_fence`` is not
enabled.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from docutils import nodes

#: What a page's source must hold for its doctree to be read for anchors shown as text: MyST's forms
#: or rST's role with a space in an rST page; rST's forms, MyST's role with a space or its colon
#: fence in any other.
_SUSPECT_RST = re.compile(r"\{src\}\s*`|:src:\s+`")
_SUSPECT_MYST = re.compile(r":src:\s*`|\.\. source-anchor::|\{src\}\s+`|:::\{source-anchor\}")
#: Elements whose text is shown as written: the syntax may be quoted there (a manual, this one).
_VERBATIM = (
    nodes.FixedTextElement,
    nodes.literal,
    nodes.raw,
    nodes.comment,
    nodes.substitution_definition,
)
#: MyST's form in an rST page: ``{src}`` then the backticked text, all one text node.
_MYST_IN_RST = re.compile(r"\{src\}`([^`]+)`")
#: A role name then the code: a text ending in ``:src:`` (rST's form in a MyST page, or either
#: markup's with a space after the name) or in ``{src}`` and a space, then a code span (MyST) or
#: interpreted text in the default role (rST).
_ROLE_BEFORE_CODE = re.compile(r"(?:^|(?<=[\s(\[\"'“‘（]))(:src:|\{src\})(\s*)$")
#: rST's block directive in a MyST page: a paragraph that opens with it.
_RST_DIRECTIVE = re.compile(r"\A\.\. source-anchor::[ \t]*([^\n]*)")
#: MyST's colon fence read as a paragraph: ``colon_fence`` is not enabled.
_COLON_FENCE = re.compile(r"\A(:{3,})\{source-anchor\}[ \t]*([^\n]*)")


def suspect(text: str, *, rst: bool) -> bool:
    """Whether a page's source may hold an anchor that its parser shows as text (then its doctree is read)."""
    return (_SUSPECT_RST if rst else _SUSPECT_MYST).search(text) is not None


def foreign_anchors(
    doctree: nodes.document, *, rst: bool = False
) -> Iterator[tuple[nodes.Element, str, str]]:
    """(the element holding it, the message, the text as written) for each anchor shown as text.

    *rst*: the page is reStructuredText (else MyST), which decides the form each message suggests.
    """
    for text in doctree.findall(nodes.Text):
        parent = text.parent
        if parent is None or _verbatim(parent):
            continue
        value = str(text)
        first = isinstance(parent, nodes.paragraph) and parent[0] is text
        opening = _RST_DIRECTIVE.match(value) if first else None
        if opening:
            yield (
                parent,
                (
                    f"'.. source-anchor:: {opening[1]}' is the reStructuredText form of the block anchor, "
                    "which this Markdown (MyST) page shows as text: open a fence with ```{source-anchor} "
                    f"{opening[1]}, put its options (:caption: …) below and close it with ```"
                ),
                opening[0],
            )
        fence = _COLON_FENCE.match(value) if first else None
        if fence:
            yield (
                parent,
                (
                    f"'{fence[1]}{{source-anchor}}' is a colon fence, which MyST reads as text unless its "
                    "'colon_fence' extension is enabled: add \"colon_fence\" to myst_enable_extensions "
                    "in conf.py, or fence the block with ``` instead of :::"
                ),
                fence[0],
            )
        for found in _MYST_IN_RST.finditer(value):
            yield (
                parent,
                (
                    f"'{{src}}`{found[1]}`' is the MyST form of an anchor, which this reStructuredText "
                    f"page shows as text: write :src:`{found[1]}`"
                ),
                found[0],
            )
        role = _ROLE_BEFORE_CODE.search(value)
        index = parent.index(text) if role else -1
        following = parent[index + 1] if 0 <= index < len(parent) - 1 else None
        if role and following is not None and _code(following, rst=rst):
            message, written = _near_miss(role[1], role[2], following.astext(), rst=rst)
            yield parent, message, written


def _code(node: nodes.Node, *, rst: bool) -> bool:
    """The element that backticks after a role name make: a code span (MyST), the default role's text (rST)."""
    if not rst:
        return isinstance(node, nodes.literal)
    return (
        isinstance(node, nodes.Element)
        and node.rawsource.startswith("`")
        and node.rawsource.endswith("`")
    )


def _near_miss(name: str, space: str, code: str, *, rst: bool) -> tuple[str, str]:
    """The message for a role name followed by code: the other markup's form, or a space too many."""
    written = f"{name}{space}`{code}`"
    own = f":src:`{code}`" if rst else f"{{src}}`{code}`"
    markup = "this reStructuredText page" if rst else "this Markdown (MyST) page"
    if (name == ":src:") == rst:
        message = (
            f"'{written}' has a space after the role name, so {markup} shows it as text: write {own} "
            "(no space between the role and the backtick)"
        )
    else:
        other = "MyST" if rst else "reStructuredText"
        message = f"'{written}' is the {other} form of an anchor, which {markup} shows as text: write {own}"
    return message, written


def _verbatim(node: nodes.Node) -> bool:
    while node is not None:
        if isinstance(node, _VERBATIM):
            return True
        node = node.parent
    return False
