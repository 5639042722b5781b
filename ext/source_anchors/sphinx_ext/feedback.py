"""The ``feedback-line`` directive: how a reader reports an error in this chapter at its pin."""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import quote

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from .diagnostics import Subtype, warn
from .domain import get_domain
from .i18n import _
from .state import get_state


class FeedbackLineDirective(SphinxDirective):
    """``feedback-line``: a mailto link naming the chapter and its short pin, and the feedback page.

    The rule for the page: ``:page:`` names one, which must exist (a missing one is Sphinx's own
    warning); without it, the book's page ``feedback`` is linked when there is one, and otherwise
    the line has the mail link alone. A book without a feedback page thus builds with ``-W``.
    """

    option_spec: ClassVar[dict[str, Any]] = {"chapter": directives.unchanged_required,
                                             "page": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        """Render the feedback paragraph for this page's pin."""
        state = get_state(str(self.env.srcdir))
        docname = self.env.docname
        page = state.page(docname, lambda: self.env.doc2path(docname))
        repo = page.front_matter.get("source-repo") or state.settings.default_repo
        pin = state.engine.pins.get(str(repo))
        chapter = self.options.get("chapter", self.env.docname)
        subject = _("[feedback] {chapter} @ {repo}@{short}").format(chapter=chapter, repo=pin.name, short=pin.short) \
            if pin else _("[feedback] {chapter}").format(chapter=chapter)
        para = nodes.paragraph(classes=["sa-feedback"])
        para += nodes.Text(_("Found an error, or have a suggestion? "))
        address = state.settings.feedback_email
        if not self.options.get("page"):  # read again when a page 'feedback' comes or goes (extension._outdated)
            get_domain(self.env).data["feedback"][docname] = True
        target = self.options.get("page") or ("feedback" if "feedback" in self.env.found_docs else "")
        if address:
            para += nodes.reference("", _("Email feedback on this chapter"),
                                    refuri=f"mailto:{address}?subject={quote(subject)}")
            para += nodes.Text(_(" ({address}, subject filled in), or see ").format(address=address) if target
                               else _(" ({address}, subject filled in).").format(address=address))
        else:
            warn("feedback-line: set source_anchors_feedback_email in conf.py", Subtype.config,
                 location=(self.env.docname, self.lineno))
        if target:
            xref = pending_xref("", refdomain="std", reftype="doc", reftarget="/" + target.lstrip("/"),
                                refexplicit=True, refwarn=True)
            xref += nodes.inline("", _("how to give feedback"))
            para += xref
            para += nodes.Text(_("."))
        return [para]


def setup(app: Sphinx) -> None:
    """Register the directive."""
    app.add_directive("feedback-line", FeedbackLineDirective)
