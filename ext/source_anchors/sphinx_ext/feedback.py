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
from .state import get_state


class FeedbackLineDirective(SphinxDirective):
    """``feedback-line``: a mailto link naming the chapter and its short pin, and the feedback page."""

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
        subject = f"[反馈] {chapter} @ {pin.name}@{pin.short}" if pin else f"[反馈] {chapter}"
        para = nodes.paragraph(classes=["sa-feedback"])
        para += nodes.Text("发现错误或有改进建议？")
        address = state.settings.feedback_email
        if address:
            para += nodes.reference("", "发邮件反馈本章", refuri=f"mailto:{address}?subject={quote(subject)}")
            para += nodes.Text(f"（{address}，主题已填好），或查看")
        else:
            warn("feedback-line: set source_anchors_feedback_email in conf.py", Subtype.config,
                 location=(self.env.docname, self.lineno))
        xref = pending_xref("", refdomain="std", reftype="doc", reftarget="/" + self.options.get("page", "feedback"),
                            refexplicit=True, refwarn=True)
        xref += nodes.inline("", "反馈说明")
        para += xref
        para += nodes.Text("。")
        return [para]


def setup(app: Sphinx) -> None:
    """Register the directive."""
    app.add_directive("feedback-line", FeedbackLineDirective)
