"""The ``{src}`` role and the ``source-anchor`` directive: target text -> outcome -> node + record."""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective, SphinxRole

from ..core.pages import PageSource
from ..core.records import AnchorRecord
from ..core.target import split_label
from .diagnostics import warn
from .domain import get_domain
from .render import card, chip
from .state import BuildState, get_state


def _anchor(state: BuildState, env: Any, *, label: str, text: str, line: int, page: PageSource) -> AnchorRecord:
    """Check *text* on the page being read, warn when the outcome is a problem, keep the record."""
    docname: str = env.docname
    page_repo = page.front_matter.get("source-repo")
    default = page_repo if isinstance(page_repo, str) else state.settings.default_repo
    domain = get_domain(env)
    outcome = state.engine.check_text(text, default_repo=default)
    record = AnchorRecord(doc=docname, line=line, id=domain.next_id(docname), label=label, outcome=outcome)
    if outcome.subtype is not None and not state.quiet:
        warn(outcome.message, outcome.subtype, location=(docname, line))
    domain.add_anchor(docname, record)
    return record


def _page(state: BuildState, env: Any) -> PageSource:
    docname: str = env.docname
    return state.page(docname, lambda: env.doc2path(docname))


class SourceRole(SphinxRole):
    """``{src}`label <[repo:]dotted.path[::match]>``: an inline permalink to pinned lines."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        """Resolve the target and return a reference (or plain text when it cannot link)."""
        state = get_state(str(self.env.srcdir))
        label, text = split_label(self.text)
        docname = self.env.docname
        page = _page(state, self.env)
        nth = state.next_occurrence(docname, self.lineno, self.rawtext)
        line = page.line_of(self.rawtext, near=self.lineno, nth=nth)
        record = _anchor(state, self.env, label=label, text=text, line=line, page=page)
        return [chip(record, self.rawtext)], []


class SourceAnchorDirective(SphinxDirective):
    """A block anchor: a card with label, repo@short commit, path:lines and the permalink."""

    # Optional, so an empty target gets our own located ``target`` warning and a report record.
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Any]] = {"caption": directives.unchanged, "class": directives.class_option}

    def run(self) -> list[nodes.Node]:
        """Resolve the target and return the card."""
        state = get_state(str(self.env.srcdir))
        text = self.arguments[0] if self.arguments else ""
        label = self.options.get("caption") or text
        record = _anchor(state, self.env, label=label, text=text, line=self.lineno, page=_page(state, self.env))
        node = card(record, self.options.get("class", []))
        self.set_source_info(node)
        return [node]
