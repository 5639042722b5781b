"""Generated pages: the source ledger and the licence notes.

Directives leave placeholders while reading; ``doctree-resolved`` fills them from
the domain's records of the whole book, so the pages stay current on incremental
builds (they are rewritten on every build, see ``env-updated``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from ..engine.engine import Engine
from ..model.errors import SourceAnchorsError
from ..model.records import AnchorRecord, Status, line_range
from .domain import get_domain
from .envform import node_id
from .generated import link, root_licences
from .i18n import _
from .state import BuildState, get_state
from .tables import column_widths

if TYPE_CHECKING:
    from ..model.config import RepoPin


def labels() -> dict[str, str]:
    """The generated pages' words, in the book's language (see :mod:`.i18n`)."""
    return {
        "repo": _("Repository"),
        "url": _("URL"),
        "commit": _("Pinned commit"),
        "verified": _("Verified by"),
        "licence": _("Licence"),
        "anchors": _("Anchors"),
        "path": _("File"),
        "lines": _("Lines"),
        "link": _("Permalink"),
        "cited": _("Cited at"),
        "git": _("git: exported at the commit"),
        "dist": _(
            "distribution: {dist}, each file checked against its git blob id ({n} files checked)"
        ),
        "unknown": _("not identified"),
        "reproduced": _(
            "Upstream code lines reproduced verbatim in the book's literal blocks "
            "(content lines only): {n}"
        ),
        "whole": _("whole file"),
        "declared": _("Declared licences"),
    }


class ledger_placeholder(nodes.General, nodes.Element):  # type: ignore[misc]  # docutils is untyped here
    """Replaced by generated content on ``doctree-resolved``."""


class LedgerDirective(SphinxDirective):
    """``source-ledger``: every repository, pin, verification, licence and anchored location."""

    kind = "ledger"

    def run(self) -> list[nodes.Node]:
        """Leave a placeholder; a ledger page is rewritten whenever any page was read."""
        if self.kind == "ledger":
            get_domain(self.env).add_ledger(self.env.docname)
        node = ledger_placeholder(kind=self.kind)
        self.set_source_info(node)
        return [node]


class LicenceNotesDirective(LedgerDirective):
    """``licence-notes``: identified licences and everything awaiting rights review.

    It depends on the pins only, and a pin change re-reads every page, so it is
    rendered when its own page is written.
    """

    kind = "licences"


def _table(header: list[str], rows: list[list[nodes.Node | str]]) -> nodes.table:
    table = nodes.table(classes=["sa-table"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for width in column_widths([header, *rows]):
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    head += _row(header)
    body = nodes.tbody()
    group += body
    for row in rows:
        body += _row(row)
    return table


def _row(cells: list[nodes.Node | str]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        para = nodes.paragraph()
        para += nodes.Text(cell) if isinstance(cell, str) else cell
        entry += para
        row += entry
    return row


def _tree_note(engine: Engine, repo: str, records: list[AnchorRecord]) -> str:
    try:
        tree = engine.tree(repo)
    except SourceAnchorsError as error:
        return _("not obtained: {error}").format(error=error)
    if tree.method == "git":
        return _("git: exported at the commit")
    paths = {r.outcome.location.path for r in records if r.outcome.location}
    inside = {p for p in paths if p in tree.blobs}
    note = labels()["dist"].format(dist=tree.dist, n=len(inside))
    # Files outside the distribution's packages came from another source, each checked by its blob
    # id too (:meth:`.OutsideFiles.commit_file`): the ledger names it, with the files it served.
    served: dict[str, list[str]] = defaultdict(list)
    listing = engine.listing(repo)
    sdist = engine.sdist(repo) if paths - inside else None
    from_lock: list[str] = []
    for path in sorted(paths - inside):
        try:
            source = engine.commit_file(repo, path)[1]
        except SourceAnchorsError:
            # No source here has it: its anchors, if ok, were answered from the lock.
            if any(
                r.outcome.location.path == path and r.outcome.status is Status.ok
                for r in records
                if r.outcome.location
            ):
                from_lock.append(path)
            continue
        if (
            sdist is not None
            and not isinstance(sdist, SourceAnchorsError)
            and path in listing
            and sdist.blobs.get(path) == listing[path]
        ):
            # served now from a kept copy or the sdist itself: the sdist holds these bytes
            source = sdist.name
        served[source].append(path)
    for source, files in sorted(served.items()):
        note += _("; {source}: {files}, each checked against its git blob id").format(
            source=source, files=", ".join(files)
        )
    if from_lock:
        note += _(
            "; the lock (resolved at the commit where git was reachable): {files}, each record's "
            "git blob id checked against the listing"
        ).format(files=", ".join(from_lock))
    return note


def _ledger(app: Sphinx, docname: str) -> list[nodes.Node]:
    from .licnotes import declared_summary  # the ledger's declared-licences column

    state = get_state(str(app.srcdir))
    engine = state.engine
    by_repo: dict[str, list[AnchorRecord]] = defaultdict(list)
    for record in get_domain(app.env).all_anchors():
        if record.outcome.target is not None:
            by_repo[record.outcome.target.repo].append(record)
    out: list[nodes.Node] = []
    summary_rows: list[list[nodes.Node | str]] = []
    for repo in sorted(by_repo):
        pin = engine.pins.get(repo)
        if pin is None:
            continue
        _path, licence, ids = root_licences(engine, repo, docname)
        pinned = (
            _("{ref} ({short})").format(ref=pin.ref, short=pin.short) if pin.ref else pin.commit
        )
        summary_rows.append(
            [
                repo,
                link(pin.shown_url, pin.shown_url),
                link(pinned, pin.permalink("")),
                _tree_note(engine, repo, by_repo[repo]),
                licence,
                declared_summary(engine, repo, ids),
                str(len(by_repo[repo])),
            ]
        )
    words = labels()
    out.append(
        _table(
            [
                words[k]
                for k in ("repo", "url", "commit", "verified", "licence", "declared", "anchors")
            ],
            summary_rows,
        )
    )
    out.append(_reproduction(app))
    for repo in sorted(by_repo):
        anchored = engine.pins.get(repo)
        section = nodes.section(ids=[f"sa-ledger-{repo}"])
        section += nodes.title("", _("{repo}: anchored locations").format(repo=repo))
        by_file: dict[str, dict[tuple[int, int], list[AnchorRecord]]] = defaultdict(
            lambda: defaultdict(list)
        )
        for record in by_repo[repo]:
            loc = record.outcome.location
            if loc is not None:
                by_file[loc.path][(loc.start, loc.end)].append(record)
        for path in sorted(by_file):
            rows: list[list[nodes.Node | str]] = []
            for (start, end), cites in sorted(by_file[path].items()):
                first = cites[0].outcome
                whole = first.location is not None and first.location.whole_file
                lines = words["whole"] if whole else line_range(start, end)
                back = nodes.inline()
                permalink = first.permalink or ""
                for index, cite in enumerate(sorted(cites, key=lambda c: (c.page, c.line))):
                    if index:
                        back += nodes.Text(" · ")
                    uri = app.builder.get_relative_uri(docname, cite.page) + "#" + node_id(cite)
                    back += nodes.reference(
                        "",
                        _("{label} ({doc}:{line})").format(
                            label=cite.label, doc=cite.page, line=cite.line
                        ),
                        refuri=uri,
                        classes=["sa-backlink"],
                    )
                    report = _report_link(state, anchored, cite, f"{path}:{lines}", permalink)
                    if report is not None:
                        back += nodes.Text(" ")
                        back += report
                rows.append([lines, link(permalink.rsplit("/", 1)[-1], permalink), back])
            file_title = nodes.paragraph(classes=["sa-ledger-file"])
            file_title += nodes.literal("", path)
            section += file_title
            section += _table([words["lines"], words["link"], words["cited"]], rows)
        out.append(section)
    return out


def _report_link(
    state: BuildState, pin: RepoPin | None, cite: AnchorRecord, where: str, permalink: str
) -> nodes.Node | None:
    """An anchor's "report a problem" link: a new report prefilled with the page, the anchor and the pin."""
    from .feedback import report_body, report_uri

    if pin is None:
        return None
    title = _("[feedback] {label} ({doc}:{line}) @ {repo}@{short}").format(
        label=cite.label, doc=cite.page, line=cite.line, repo=pin.name, short=pin.short
    )
    body = report_body(
        page=f"{cite.page}:{cite.line}",
        pin=pin,
        anchor=f"{cite.label} ({cite.outcome.text})",
        location=where,
        permalink=permalink,
    )
    uri = report_uri(state.settings, title, body)
    if uri is None:
        return None
    return nodes.reference("", _("report a problem"), refuri=uri, classes=["sa-report"])


def _reproduction(app: Sphinx) -> nodes.Node:
    """The count checked on ``env-updated`` (see :mod:`.bookchecks`)."""
    para = nodes.paragraph(classes=["sa-reproduced"])
    para += nodes.Text(
        labels()["reproduced"].format(n=get_domain(app.env).data.get("reproduced", 0))
    )
    return para


def _fill(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    from .licnotes import html_dropdowns, licences  # the licence notes' page

    has_notes = False
    for node in list(doctree.findall(ledger_placeholder)):
        has_notes = has_notes or node["kind"] != "ledger"
        content = _ledger(app, docname) if node["kind"] == "ledger" else licences(app, docname)
        node.replace_self(content)
    if has_notes:
        html_dropdowns(app, doctree)


def setup(app: Sphinx) -> None:
    """Register the generated-page directives."""
    app.add_node(ledger_placeholder)
    app.add_directive("source-ledger", LedgerDirective)
    app.add_directive("licence-notes", LicenceNotesDirective)
    app.connect("doctree-resolved", _fill)
