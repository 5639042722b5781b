"""What a reader sees of an API object's source link, per builder (docutils nodes).

In HTML the link is the one ``sphinx.ext.linkcode`` and ``viewcode`` write: ``[source]`` in a
``viewcode-link`` span at the end of the signature, so every theme styles it as its own; the file
and line range are its hover text. An e-book reader has no hover, and paper no links: EPUB, LaTeX,
text, man and Texinfo print the location after the signature, `` (path:Lx–Ly@commit)``, as a
chip prints its location after its label.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.locale import _ as sphinx_text

from ..resolve.apiobjects import ApiLink


class api_source(nodes.inline):  # type: ignore[misc]  # docutils is untyped here
    """The source link of one signature: ``refuri``, ``sa_where`` (``path:Lx–Ly@commit``)."""


def make(link: ApiLink) -> api_source:
    """The node of *link*, appended to the signature it belongs to."""
    return api_source("", "", refuri=link.url, sa_where=link.where(), classes=["sa-api-source"])


def visit_html(self: Any, node: api_source) -> None:
    """``<a href title="path:Lx–Ly@commit"><span class="viewcode-link">[source]</span></a>``; EPUB: the location."""
    where, uri = node["sa_where"], node["refuri"]
    if self.builder.name.startswith("epub"):
        self.body.append(
            f'<a class="reference external sa-api-source" href="{self.attval(uri)}">'
            f'<span class="sa-api-where"> ({self.encode(where)})</span></a>'
        )
    # else sphinx.ext.linkcode, with the drop-in resolver, writes it
    elif node.get("sa_html", True):
        label = self.encode(sphinx_text("[source]"))
        self.body.append(
            f'<a class="reference external sa-api-source" href="{self.attval(uri)}" '
            f'title="{self.attval(where)}"><span class="viewcode-link"><span class="pre">'
            f"{label}</span></span></a>"
        )
    raise nodes.SkipNode


def visit_latex(self: Any, node: api_source) -> None:
    """`` (path:Lx–Ly@commit)`` after the signature, linked; it may break after a slash."""
    where = self.encode(node["sa_where"]).replace("/", r"/\allowbreak{}")
    self.body.append(rf" \sphinxhref{{{self.encode_uri(node['refuri'])}}}{{({where})}}")
    raise nodes.SkipNode


def visit_text(self: Any, node: api_source) -> None:
    """`` (path:Lx–Ly@commit)`` (text builder)."""
    self.add_text(f" ({node['sa_where']})")
    raise nodes.SkipNode


def visit_man(self: Any, node: api_source) -> None:
    """`` (path:Lx–Ly@commit)``, escaped as roff text."""
    self.visit_Text(nodes.Text(f" ({node['sa_where']})"))
    raise nodes.SkipNode


def visit_texinfo(self: Any, node: api_source) -> None:
    """`` (path:Lx–Ly@commit)``, escaped for Texinfo."""
    self.body.append(self.escape(f" ({node['sa_where']})"))
    raise nodes.SkipNode


def setup(app: Sphinx) -> None:
    """Register the node with a writer for every builder Sphinx ships."""
    app.add_node(
        api_source,
        html=(visit_html, None),
        latex=(visit_latex, None),
        text=(visit_text, None),
        man=(visit_man, None),
        texinfo=(visit_texinfo, None),
    )
