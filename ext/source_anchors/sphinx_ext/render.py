"""What a reader sees of an anchor: the inline chip, the card, the hover text (docutils nodes)."""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.transforms.parts import ContentsFilter
from sphinx.application import Sphinx
from sphinx.transforms import SphinxContentsFilter

from ..model.records import AnchorRecord, Status
from .envform import node_id
from .targetwords import target_words


class anchor_reference(nodes.reference):  # type: ignore[misc]  # docutils is untyped here
    """A linked chip: a reference whose HTML also carries the location (``sa_location``).

    ``sa_target`` says in words what the target is (:func:`.targetwords.target_words`): the
    printed books describe each anchor by it in their notes and source tables.

    The doctree holds just the reference and its label, as a plain link would: a
    chapter has hundreds of chips, and every node more is walked by each transform,
    pickled and indexed for search. The HTML writer adds the label and location
    spans (:func:`visit_anchor_html`); other builders treat it as a reference.
    """


class card_link(nodes.reference):  # type: ignore[misc]  # docutils is untyped here
    """A card's title link: a plain reference everywhere but in LaTeX, which adds the card's label."""


class anchor_unresolved(nodes.inline):  # type: ignore[misc]  # docutils is untyped here
    """A chip that cannot link (``missing``, ``error``): its label, and its status as hover text."""


def visit_unresolved_html(self: Any, node: anchor_unresolved) -> None:
    """``<span class="sa-anchor sa-missing" title="missing: …">``: the hover text a link would have."""
    self.body.append(self.starttag(node, "span", "", title=node.get("reftitle", "")))


def depart_unresolved_html(self: Any, node: anchor_unresolved) -> None:
    """``</span>``."""
    self.body.append("</span>")


def visit_anchor_html(self: Any, node: anchor_reference) -> None:
    """``<a … title="repo · path:Lx–Ly @ sha"><span class="sa-label">`` (the label follows as the node's text).

    The hover text is made here from the chip's location and repository, not kept in the doctree.
    """
    where, _, short = node["sa_location"].rpartition("@")
    status = node["classes"][1].removeprefix("sa-")
    title = f"{node['sa_repo']} · {where} @ {short}" + ("" if status in _QUIET else f" · {status}")
    self.body.append(
        self.starttag(
            node, "a", "", **{"class": "reference external", "href": node["refuri"], "title": title}
        )
        + '<span class="sa-label">'
    )


def depart_anchor_html(self: Any, node: anchor_reference) -> None:
    """``</span><span class="sa-where">path:Lx–Ly@sha</span></a>``.

    An e-book reader has no hover: in EPUB the location is written as text after the label,
    `` (path:Lx–Ly@sha)`` in a span the style sheet does not hide, and the note with the permalink
    says what the anchor points at (:func:`_describe_note`).
    """
    where = node.get("sa_location")
    if not where:
        self.body.append("</span></a>")
    elif self.builder.name.startswith("epub"):
        self.body.append(f'</span><span class="sa-at"> ({self.encode(where)})</span></a>')
        _describe_note(node)
    else:
        self.body.append(f'</span><span class="sa-where">{self.encode(where)}</span></a>')


def _describe_note(node: anchor_reference) -> None:
    """Begin the chip's EPUB note with what it points at: ``function ResearchConductor.run — https://…``.

    With ``epub_show_urls = "footnote"`` Sphinx puts a footnote reference right after each external
    link and the note, holding the URL alone, at the end of the document, which is written after
    the chip: the words are added to the note while the chip is written.
    """
    words, parent, document = node.get("sa_target"), node.parent, node.document
    if not words or parent is None or document is None:
        return
    after = parent.index(node) + 1
    if after >= len(parent) or not isinstance(parent[after], nodes.footnote_reference):
        return
    note = document.ids.get(parent[after].get("refid", ""))
    paragraph = next(iter(note.findall(nodes.paragraph)), None) if note is not None else None
    if paragraph is not None:
        paragraph.insert(0, nodes.Text(f"{words} — "))


def tooltip(record: AnchorRecord) -> str:
    """Hover text of a card or an unresolved chip: repo, path, lines, short commit; the status when not ok.

    A linked chip's hover text is the same, made by :func:`visit_anchor_html`.
    """
    out = record.outcome
    if out.location is None or out.target is None:
        return f"{out.status}: {out.message}"
    text = f"{out.target.repo} · {out.location.describe()} @ {(out.commit or '')[:7]}"
    if out.status not in (Status.ok, Status.new):
        text += f" · {out.status}"
    return text


#: Statuses the hover text does not repeat (a chip that links is ok or newly locked, or says why
#: not).
_QUIET = (Status.ok.value, Status.new.value)


def _classes(record: AnchorRecord) -> list[str]:
    return ["sa-anchor", f"sa-{record.status}"]


def chip(record: AnchorRecord, rawtext: str) -> nodes.Node:
    """The inline node of a ``{src}`` role: a linked chip, or plain text when there is no link."""
    out = record.outcome
    node: nodes.Element
    if out.permalink and out.location is not None and out.target is not None:
        # As few attributes as the HTML needs (every page's doctree is pickled and read back):
        # the hover text is derived from them when the page is written.
        return anchor_reference(
            rawtext,
            record.label,
            refuri=out.permalink,
            classes=_classes(record),
            ids=[node_id(record)],
            sa_repo=out.target.repo,
            sa_location=f"{out.location.describe()}@{(out.commit or '')[:7]}",
            sa_target=target_words(out.target, out.location),
        )
    node = anchor_unresolved(rawtext, "", classes=_classes(record))
    node["reftitle"] = tooltip(record)
    node += nodes.inline("", record.label, classes=["sa-label"])
    if out.location is not None:
        node += nodes.inline("", out.where(), classes=["sa-where"])
    node["ids"] = [node_id(record)]
    return node


def card(record: AnchorRecord, extra_classes: list[str]) -> nodes.container:
    """The block node of a ``source-anchor`` directive: title link, repo@commit, path and lines."""
    out = record.outcome
    node = nodes.container(classes=["sa-card", *(_classes(record)[1:]), *extra_classes])
    node["ids"] = [node_id(record)]
    title = nodes.paragraph(classes=["sa-card-title"])
    if out.permalink:
        words = (
            target_words(out.target, out.location)
            if out.target is not None and out.location is not None
            else ""
        )
        title += card_link(
            "", record.label, refuri=out.permalink, reftitle=tooltip(record), sa_target=words
        )
    else:
        title += nodes.Text(record.label)
    node += title
    meta = nodes.paragraph(classes=["sa-card-meta"])
    if out.location is not None and out.target is not None:
        meta += nodes.literal("", f"{out.target.repo}@{(out.commit or '')[:7]}")
        meta += nodes.Text(" · ")
        meta += nodes.literal("", out.location.describe())
    else:
        meta += nodes.Text(f"{out.status}: {out.message}")
    node += meta
    return node


# -- other builders: the label, then "(path:Lx–Ly@sha)"; in LaTeX the compact location (see
# .printed) --


def visit_anchor_other(self: Any, node: anchor_reference) -> None:
    """A reference, as the builder writes one (the label follows as the node's text)."""
    self.visit_reference(node)


def depart_anchor_text(self: Any, node: anchor_reference) -> None:
    """`` (path:Lx–Ly@sha)`` after the label (text builder)."""
    self.depart_reference(node)
    self.add_text(f" ({node['sa_location']})")


def _roff(self: Any, node: anchor_reference) -> None:
    self.visit_Text(nodes.Text(f" ({node['sa_location']})"))  # escaped as roff text


def _texinfo(self: Any, node: anchor_reference) -> None:
    self.body.append(self.escape(f" ({node['sa_location']})"))


def _whole_or_parts(after: Any) -> tuple[Any, Any]:
    """(visit, depart) that write a reference, then *after*, whichever way the writer works.

    A builder's reference visitor either writes the whole reference and skips it (Sphinx's man
    and texinfo writers), or writes its start and leaves the text to the children (docutils' own
    man writer, which replaces Sphinx's on the instance).
    """

    def visit(self: Any, node: anchor_reference) -> None:
        try:
            self.visit_reference(node)
        except nodes.SkipNode:
            after(self, node)
            raise

    def depart(self: Any, node: anchor_reference) -> None:
        self.depart_reference(node)
        after(self, node)

    return visit, depart


def depart_anchor_latex(self: Any, node: anchor_reference) -> None:
    """`` (researcher.py:L162–163)`` after the label (LaTeX builder), no footnote.

    The compact location is set by :mod:`.printed` (the commit is said once per chapter and the
    permalinks are listed in the chapter's source table); a chip it did not see keeps its full
    location. In running text the location may break after a slash and before a colon.
    """
    self.depart_reference(node)
    where = node.get("sa_print") or node["sa_location"]
    if self.in_title or getattr(self, "in_caption", 0):
        self.body.append(f" ({self.encode(where)})")
        return
    # Never hyphenated ("re-searcher.py" is no file): each part is a box; a line may break after a
    # slash and before the colon.
    path, sep, lines = where.rpartition(":") if ":L" in where else (where, "", "")
    boxed = r"/\allowbreak{}".join(rf"\mbox{{{self.encode(part)}}}" for part in path.split("/"))
    if sep:
        boxed += rf"\allowbreak{{}}\mbox{{:{self.encode(lines)}}}"
    self.body.append(f" ({boxed})")


def visit_card_latex(self: Any, node: card_link) -> None:
    """The card's own label (the ledger links to it; LaTeX writes none for a container), then the link."""
    card = node.parent.parent if node.parent is not None else None
    if card is not None and "sa-card" in card.get("classes", []):
        self.body.extend(self.hypertarget(id_, anchor=True) for id_ in card.get("ids", []))
    self.visit_reference(node)


def setup(app: Sphinx) -> None:
    """Register the chip nodes; in a section title, the table of contents keeps only their label."""
    app.add_node(
        anchor_reference,
        html=(visit_anchor_html, depart_anchor_html),
        text=(visit_anchor_other, depart_anchor_text),
        man=_whole_or_parts(_roff),
        texinfo=_whole_or_parts(_texinfo),
        latex=(visit_anchor_other, depart_anchor_latex),
    )
    # Other builders write a card's link as the reference it is (Sphinx's writers look up a visitor
    # by class).
    app.add_node(
        card_link, latex=(visit_card_latex, lambda self, node: self.depart_reference(node))
    )
    app.add_node(anchor_unresolved, html=(visit_unresolved_html, depart_unresolved_html))
    # The title and TOC collectors copy a title with this filter; like a plain reference (and as
    # Sphinx does for pending_xref), a chip gives its text, not a link inside the TOC's own link.
    SphinxContentsFilter.visit_anchor_reference = ContentsFilter.ignore_node_but_process_children
    SphinxContentsFilter.visit_anchor_unresolved = ContentsFilter.ignore_node_but_process_children
