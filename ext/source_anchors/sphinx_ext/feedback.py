"""How a reader reports a problem: the ``feedback-line`` and ``feedback-channel`` directives, report links.

The channel is the book's own repository (``source_anchors_feedback_repo``): every report link opens
its new-issue form prefilled with the page, the anchor (for an anchor's link in the ledger), the pin
and a place for what the reader saw. Without a repository an address that receives mail
(``source_anchors_feedback_email``) gets a prefilled message instead. Without either, the page says
so in one sentence and the build log notes it once (:func:`check_channel`), wherever a directive
asks. Without a setting, the repository the book is built from is used (:func:`derived_channel`);
the log names it once, in a book that offers feedback.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

from ..model.config import RepoPin, Settings
from ..model.issuelinks import feedback_repo_problem, issue_url
from ..sources.apigit import book_repository
from .domain import get_domain
from .i18n import _
from .state import get_state

logger = logging.getLogger(__name__)


def derived_channel(settings: Settings, confdir: Path) -> Settings:
    """*settings* with the book's repository learnt from where it is built, when conf.py names no channel.

    A published build (GitHub Actions, GitLab CI, Read the Docs, or a checkout with an ``origin`` on
    GitHub or GitLab) then files reports in its own repository without a setting; where the address
    was read is kept for the build log, which names it only when the book offers feedback
    (:func:`check_channel`).
    """
    if settings.feedback_repo or settings.feedback_email or settings.quiet:
        return settings  # the command line reads pages for their anchors, renders no report link: no git call
    found = book_repository(confdir, os.environ, timeout=settings.timeout)
    if found is None or feedback_repo_problem(found[0]) is not None:
        return settings
    url, where = found
    return dataclasses.replace(settings, feedback_repo=url, feedback_from=where)


def report_uri(settings: Settings, title: str, body: str) -> str | None:
    """A prefilled report in the configured channel (a new issue, else a mail), or ``None`` when there is none."""
    if settings.feedback_repo:
        return issue_url(settings.feedback_repo, title, body)
    if settings.feedback_email:
        return f"mailto:{settings.feedback_email}?subject={quote(title)}&body={quote(body)}"
    return None


def report_body(
    *, page: str, pin: RepoPin | None, anchor: str = "", location: str = "", permalink: str = ""
) -> str:
    """The body of a report, in the book's language: where, at which pin, and room for what the reader saw."""
    lines = [_("Page: {page}").format(page=page)]
    if pin is not None:
        lines.append(_("Pinned commit: {repo}@{commit}").format(repo=pin.name, commit=pin.commit))
    if anchor:
        lines.append(_("Anchor: {label}").format(label=anchor))
    if location:
        lines.append(_("It points at: {location}").format(location=location))
    if permalink:
        lines.append(permalink)
    lines += ["", _("What I saw:"), "", _("What I expected, and why:"), ""]
    return "\n".join(lines)


def _no_channel() -> nodes.paragraph:
    return nodes.paragraph(
        "",
        _(
            "This book has no feedback channel configured yet, so problems cannot be "
            "reported from here."
        ),
        classes=["sa-feedback", "sa-no-channel"],
    )


class FeedbackLineDirective(SphinxDirective):
    """``feedback-line``: a prefilled report naming the chapter and its pin, and the feedback page.

    The rule for the page: ``:page:`` names one, which must exist (a missing one is Sphinx's own
    warning); without it, the book's page ``feedback`` is linked when there is one, and otherwise
    the line has the report link alone. A book without a feedback page thus builds with ``-W``.
    The page is read again when a page ``feedback`` comes or goes (``extension._outdated``).
    """

    option_spec: ClassVar[dict[str, Any]] = {
        "chapter": directives.unchanged_required,
        "page": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        """Render the feedback paragraph for this page's pin."""
        state = get_state(str(self.env.srcdir))
        docname = self.env.docname
        get_domain(self.env).add_feedback(docname, self.lineno)
        page = state.page(self.env)
        repo = page.front_matter.get("source-repo") or state.settings.default_repo
        pin = state.engine.pins.get(str(repo))
        chapter = self.options.get("chapter", docname)
        subject = (
            _("[feedback] {chapter} @ {repo}@{short}").format(
                chapter=chapter, repo=pin.name, short=pin.short
            )
            if pin
            else _("[feedback] {chapter}").format(chapter=chapter)
        )
        uri = report_uri(
            state.settings, subject, report_body(page=f"{chapter} ({docname})", pin=pin)
        )
        if uri is None:
            return [_no_channel()]
        para = nodes.paragraph(classes=["sa-feedback"])
        para += nodes.Text(_("Found an error, or have a suggestion? "))
        para += nodes.reference("", _("Report a problem in this chapter"), refuri=uri)
        target = self.options.get("page") or (
            "feedback" if "feedback" in self.env.found_docs else ""
        )
        if not target:
            para += nodes.Text(_(" (page and pin filled in)."))
            return [para]
        para += nodes.Text(_(" (page and pin filled in), or see "))
        xref = pending_xref(
            "",
            refdomain="std",
            reftype="doc",
            reftarget="/" + target.lstrip("/"),
            refexplicit=True,
            refwarn=True,
        )
        xref += nodes.inline("", _("how to give feedback"))
        para += xref
        para += nodes.Text(_("."))
        return [para]


class FeedbackChannelDirective(SphinxDirective):
    """``feedback-channel``: where reports go, with a link that opens a new one (the feedback page).

    Its content (how to write a report, what the links open) is shown only when there is a channel:
    a build without one says so in one sentence and promises nothing else.
    """

    has_content = True

    def run(self) -> list[nodes.Node]:
        """Render the channel paragraph and the content, or the one sentence saying there is none."""
        state = get_state(str(self.env.srcdir))
        get_domain(self.env).add_feedback(self.env.docname, self.lineno)
        pin = state.engine.pins.get(str(state.settings.default_repo))
        uri = report_uri(state.settings, _("[feedback] "), report_body(page="", pin=pin))
        if uri is None:
            return [_no_channel()]
        para = nodes.paragraph(classes=["sa-feedback", "sa-channel"])
        if state.settings.feedback_repo:
            para += nodes.Text(_("Reports go to the book's repository, "))
            para += nodes.reference(
                "", state.settings.feedback_repo, refuri=state.settings.feedback_repo
            )
            para += nodes.Text(_(": "))
        else:
            para += nodes.Text(
                _("Reports go by mail to {address}: ").format(address=state.settings.feedback_email)
            )
        para += nodes.reference("", _("open a new report"), refuri=uri)
        para += nodes.Text(_(" (a form with the pin and the questions filled in)."))
        return [para, *self.parse_content_to_nodes()]


def offers_feedback(app: Sphinx) -> bool:
    """Whether the book asks readers for reports: a feedback directive, a ledger page, or a page ``feedback``."""
    domain = get_domain(app.env)
    return bool(
        domain.data.get("feedback")
        or domain.data.get("ledgers")
        or "feedback" in app.env.found_docs
    )


def check_channel(app: Sphinx) -> None:
    """One note per build, in the log, about where reports go, when the book offers feedback at all.

    With a channel learnt from where the book is built, the note names it and where it was read.
    Without any, when a page asks for feedback, the note says how to set one: a note, not a warning,
    since a preview built where the book has no public home yet (a local clone) is not broken, and
    its pages already say in one sentence that there is no channel. A book that offers no feedback
    (API links only, say) hears nothing of it.
    """
    state = get_state(str(app.srcdir))
    if state.quiet or state.settings.feedback_email or not offers_feedback(app):
        return
    if state.settings.feedback_repo:
        if state.settings.feedback_from:
            logger.info(
                f"source_anchors: reports go to {state.settings.feedback_repo} (from "
                f"{state.settings.feedback_from}); set source_anchors_feedback_repo to choose another "
                "repository"
            )
        return
    asked = get_domain(app.env).data.setdefault("feedback", {})
    if asked:
        docname = min(asked)
        logger.info(
            f"source_anchors: no feedback channel, so {len(asked)} page(s) say there is none: set "
            "source_anchors_feedback_repo to the book's repository (or source_anchors_feedback_email "
            "to an address that receives mail); a build on GitHub Actions, GitLab CI or Read the Docs, "
            "or from a clone whose 'origin' is on GitHub or GitLab, finds the repository itself",
            location=(docname, asked[docname]),
        )


def setup(app: Sphinx) -> None:
    """Register the directives."""
    app.add_directive("feedback-line", FeedbackLineDirective)
    app.add_directive("feedback-channel", FeedbackChannelDirective)
