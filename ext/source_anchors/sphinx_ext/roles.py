"""The ``{src}`` role and the ``source-anchor`` directive: target text -> outcome -> node + record."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.parsers.rst.states import Inliner
from sphinx.util.docutils import SphinxDirective, SphinxRole

from ..markup.labels import label_looks_like_target, split_label
from ..markup.page import PageSource
from ..model.records import AnchorRecord
from .diagnostics import Subtype, warn
from .domain import get_domain
from .render import card, chip
from .state import BuildState, get_state


def _anchor(
    state: BuildState,
    env: Any,
    *,
    label: str,
    text: str,
    line: int,
    page: PageSource,
    hint: str = "",
) -> AnchorRecord:
    """Check *text* on the page being read, warn when the outcome is a problem, keep the record.

    A *hint* about how the text was written joins the anchor's own warning, or is one of its own.
    """
    docname: str = env.docname
    page_repo = page.front_matter.get("source-repo")
    from_page = isinstance(page_repo, str)  # even empty: the page says it has no default
    default = page_repo.strip() if isinstance(page_repo, str) else state.settings.default_repo
    domain = get_domain(env)
    outcome = state.engine.check_text(
        text,
        default_repo=default,
        default_from="the page's front matter ('source-repo')" if from_page else None,
    )
    record = AnchorRecord(
        page=docname, line=line, label=label, outcome=outcome, seq=domain.next_seq(docname)
    )
    unknown_default = (
        from_page
        and outcome.target is not None
        and outcome.target.defaulted
        and outcome.target.repo not in state.engine.pins
    )
    if state.quiet:
        pass
    elif unknown_default:
        _warn_front_matter(state, docname, page, str(default))
    elif outcome.subtype is not None and outcome.group is None:
        warn(
            outcome.message + (f" ({hint})" if hint else ""),
            outcome.subtype,
            location=(docname, line),
        )
    elif hint:
        warn(f"{hint}: {outcome.name}", Subtype.target, location=(docname, line))
    domain.add_anchor(docname, record)
    return record


def _warn_front_matter(state: BuildState, docname: str, page: PageSource, repo: str) -> None:
    """One warning per page, at its front matter, for a ``source-repo`` that names no configured repository."""
    if docname in state.bad_front_matter:
        return
    state.bad_front_matter.add(docname)
    configured = ", ".join(sorted(state.engine.pins)) or "none"
    warn(
        f"the page's front matter sets 'source-repo: {repo}', which is not a key of source_anchors_repos "
        f"(configured: {configured}); its anchors without a 'repo:' prefix link nothing until it names one of "
        "them",
        Subtype.target,
        location=(docname, page.field_line("source-repo")),
    )


class SourceRole(SphinxRole):
    r"""``{src}`label <[repo:]dotted.path[::match]>`` (or ``<[repo:]/file/path[::match]>``): an inline permalink.

    The label and target are split as Sphinx's reference roles split them (``\<`` escapes a ``<``);
    :func:`~source_anchors.markup.labels.split_label` needs the text with its escapes, which
    :class:`SphinxRole` drops, so it is kept here.
    """

    escaped: str

    def __call__(
        self,
        name: str,
        rawtext: str,
        text: str,
        lineno: int,
        inliner: Inliner,
        options: dict[str, Any] | None = None,
        content: Sequence[str] = (),
    ) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        """Keep the escaped text, then run the role as :class:`SphinxRole` does."""
        self.escaped = text
        return super().__call__(name, rawtext, text, lineno, inliner, options, content)

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        """Resolve the target and return a reference (or plain text when it cannot link)."""
        state = get_state(str(self.env.srcdir))
        label, text = split_label(self.escaped)
        docname = self.env.docname
        page = state.page(self.env)
        nth = state.next_occurrence(docname, self.lineno, self.rawtext)
        line = page.line_of(self.rawtext, near=self.lineno, nth=nth)
        hint = (
            (
                f"the label {label!r} holds '::' like a target: if a '<' belongs to the match text, "
                "write it as '\\<'"
            )
            if label_looks_like_target(label, text)
            else ""
        )
        record = _anchor(state, self.env, label=label, text=text, line=line, page=page, hint=hint)
        return [chip(record, self.rawtext)], []


class SourceAnchorDirective(SphinxDirective):
    """A block anchor: a card with label, repo@short commit, path:lines and the permalink."""

    # Optional, so an empty target gets our own located ``target`` warning and a report record.
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Any]] = {
        "caption": directives.unchanged,
        "class": directives.class_option,
    }

    def run(self) -> list[nodes.Node]:
        """Resolve the target and return the card."""
        state = get_state(str(self.env.srcdir))
        text = self.arguments[0] if self.arguments else ""
        label = self.options.get("caption") or text
        record = _anchor(
            state, self.env, label=label, text=text, line=self.lineno, page=state.page(self.env)
        )
        node = card(record, self.options.get("class", []))
        self.set_source_info(node)
        return [node]
