"""Generated pages: the source ledger and the licence notes.

Directives leave placeholders while reading; ``doctree-resolved`` fills them from
the domain's records of the whole book, so the pages stay current on incremental
builds (they are rewritten on every build, see ``env-updated``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from ..core.caches import identify_cached
from ..core.config import RepoPin
from ..core.engine import Engine
from ..core.errors import MissingExtraError, SourceAnchorsError
from ..core.records import AnchorRecord, line_range
from .diagnostics import warn
from .domain import get_domain
from .i18n import _
from .state import get_state

if TYPE_CHECKING:
    from ..core.declared import Declaration


def labels() -> dict[str, str]:
    """The generated pages' words, in the book's language (see :mod:`.i18n`)."""
    return {
        "repo": _("Repository"), "url": _("URL"), "commit": _("Pinned commit"), "verified": _("Verified by"),
        "licence": _("Licence"), "anchors": _("Anchors"), "path": _("File"), "lines": _("Lines"),
        "link": _("Permalink"), "cited": _("Cited at"), "git": _("git: exported at the commit"),
        "dist": _("distribution: {dist}, each file checked against its git blob id ({n} files checked)"),
        "unknown": _("not identified"),
        "reproduced": _("Upstream code lines reproduced verbatim in the book's literal blocks "
                        "(content lines only): {n}"),
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


def _table(header: list[str], rows: list[list[nodes.Node | str]], widths: list[int] | None = None) -> nodes.table:
    table = nodes.table(classes=["sa-table"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for width in widths or [1] * len(header):
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


def _link(text: str, uri: str) -> nodes.reference:
    return nodes.reference("", text, refuri=uri)


def _tree_note(engine: Engine, repo: str, records: list[AnchorRecord]) -> str:
    try:
        tree = engine.tree(repo)
    except SourceAnchorsError as error:
        return _("not obtained: {error}").format(error=error)
    if tree.method == "git":
        return _("git: exported at the commit")
    paths = {r.outcome.location.path for r in records if r.outcome.location}
    return labels()["dist"].format(dist=tree.dist, n=len(paths))


def _root_licence(engine: Engine, repo: str, docname: str) -> tuple[str | None, str]:
    """(path, "SPDX-ID (score)") of the root licence of *repo*'s pin."""
    path, label, _ids = _root_licences(engine, repo, docname)
    return path, label


def _root_licences(engine: Engine, repo: str, docname: str) -> tuple[str | None, str, frozenset[str]]:
    """(path, "SPDX-ID (score)", every SPDX id identified in the root licence files) of *repo*'s pin."""
    try:
        tree = engine.tree(repo)
    except SourceAnchorsError:
        return None, _("not identified"), frozenset()
    from ..core.licences import is_root_licence  # generated pages only

    candidates = sorted(p for p in tree.blobs if is_root_licence(p))
    first: tuple[str, str] | None = None
    ids: set[str] = set()
    for path in candidates:
        try:
            data = tree.read_bytes(path)  # a distribution's licence file must be the commit's too
            match = identify_cached(engine.settings.cache_dir, tree.blobs[path], data)
        except MissingExtraError as error:
            _warn_once(error, docname)
            return path, _("not identified"), frozenset()
        except SourceAnchorsError as error:
            first = first or (path, _("{unknown} ({error})").format(unknown=_("not identified"), error=error))
            continue
        if match:
            if not ids:  # the first identified text is the one shown, as before
                first = (path, _("{spdx} (score {score})").format(spdx=match.spdx_id, score=f"{match.score:.2f}"))
            ids.add(match.spdx_id)
    if first is not None:
        return first[0], first[1], frozenset(ids)
    return (candidates[0] if candidates else None), _("not identified"), frozenset()


_WARNED: set[str] = set()


def _warn_once(error: MissingExtraError, docname: str) -> None:
    """One warning per build process for a missing optional package (the page still renders)."""
    if str(error) not in _WARNED:
        _WARNED.add(str(error))
        warn(f"licence-notes: {error}", error.subtype, location=(docname, None))


def _ledger(app: Sphinx, docname: str) -> list[nodes.Node]:
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
        _path, licence, ids = _root_licences(engine, repo, docname)
        pinned = _("{ref} ({short})").format(ref=pin.ref, short=pin.short) if pin.ref else pin.commit
        summary_rows.append([repo, _link(pin.url, pin.url), _link(pinned, pin.permalink("")),
                             _tree_note(engine, repo, by_repo[repo]), licence,
                             _declared_summary(engine, repo, ids), str(len(by_repo[repo]))])
    words = labels()
    out.append(_table([words[k] for k in ("repo", "url", "commit", "verified", "licence", "declared", "anchors")],
                      summary_rows, [2, 4, 4, 4, 2, 3, 1]))
    out.append(_reproduction(app))
    for repo in sorted(by_repo):
        section = nodes.section(ids=[f"sa-ledger-{repo}"])
        section += nodes.title("", _("{repo}: anchored locations").format(repo=repo))
        by_file: dict[str, dict[tuple[int, int], list[AnchorRecord]]] = defaultdict(lambda: defaultdict(list))
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
                for index, cite in enumerate(sorted(cites, key=lambda c: (c.doc, c.line))):
                    if index:
                        back += nodes.Text(" · ")
                    uri = app.builder.get_relative_uri(docname, cite.doc) + "#" + cite.id
                    back += nodes.reference("", _("{label} ({doc}:{line})").format(label=cite.label, doc=cite.doc,
                                                                                  line=cite.line),
                                            refuri=uri, classes=["sa-backlink"])
                link = first.permalink or ""
                rows.append([lines, _link(link.rsplit("/", 1)[-1], link), back])
            file_title = nodes.paragraph(classes=["sa-ledger-file"])
            file_title += nodes.literal("", path)
            section += file_title
            section += _table([words["lines"], words["link"], words["cited"]], rows, [1, 3, 6])
        out.append(section)
    return out


def _reproduction(app: Sphinx) -> nodes.Node:
    """The count checked on ``env-updated`` (see :mod:`.checks`)."""
    para = nodes.paragraph(classes=["sa-reproduced"])
    para += nodes.Text(labels()["reproduced"].format(n=get_domain(app.env).data.get("reproduced", 0)))
    return para


def _declared_summary(engine: Engine, repo: str, identified: frozenset[str]) -> nodes.Node:
    """The ledger's cell: the SPDX ids declared, and whether any declaration disagrees with the texts."""
    from ..core.declared import disagreements  # generated pages only

    try:
        found, unread = engine.pinned.declared(repo)
    except SourceAnchorsError as error:
        return nodes.Text(_("not read: {why}").format(why=error))
    ids = sorted({spdx for declaration in found for spdx in declaration.spdx})
    cell = nodes.inline()
    cell += nodes.Text(", ".join(ids) if ids else _("none found"))
    differ = disagreements(identified, found)
    if differ:
        cell += nodes.Text(" — ")
        cell += nodes.strong("", _("{n} disagree with the licence text (see the licence notes)").format(n=len(differ)),
                             classes=["sa-licence-disagreement"])
    if unread:
        cell += nodes.Text(_("; {n} not read").format(n=len(unread)))
    return cell


def _declaration_link(declaration: Declaration, pin: RepoPin, listing: Mapping[str, str]) -> nodes.Node:
    where = f"{declaration.path}:L{declaration.line}"
    if declaration.path in listing:
        return _link(where, pin.permalink(declaration.path, declaration.line, declaration.line))
    return nodes.literal("", where)  # a distribution's METADATA is no file of the commit


def _declared_section(engine: Engine, repo: str, pin: RepoPin, identified: frozenset[str],
                      listing: Mapping[str, str]) -> nodes.section:
    from ..core.declared import disagreements  # generated pages only

    section = nodes.section(ids=[f"sa-declared-{repo}"])
    section += nodes.title("", _("Declared licences"))
    found, unread = engine.pinned.declared(repo)
    intro = nodes.paragraph()
    intro += nodes.Text(_("What the packaging files declare (pyproject.toml, setup.py, setup.cfg, every "
                          "package.json, the distribution's METADATA), read statically, never executed, "
                          "normalised to SPDX identifiers where recognised:"))
    section += intro
    items = nodes.bullet_list(classes=["sa-declared"])
    for declaration in found:
        item = nodes.list_item()
        para = nodes.paragraph()
        para += _declaration_link(declaration, pin, listing)
        spdx = ", ".join(sorted(declaration.spdx)) if declaration.spdx else _("not recognised, not compared")
        para += nodes.Text(_(" — {field}: {value} → {spdx}").format(field=declaration.field,
                                                                   value=declaration.value, spdx=spdx))
        item += para
        items += item
    if not found:
        item = nodes.list_item()
        item += nodes.paragraph("", _("No licence declaration found."))
        items += item
    section += items
    differ = disagreements(identified, found)
    shown = ", ".join(sorted(identified)) if identified else None
    for disagreement in differ:
        para = nodes.paragraph(classes=["sa-licence-disagreement"])
        para += nodes.strong("", _("Disagreement: "))
        for index, declaration in enumerate(disagreement.declarations):
            if index:
                para += nodes.Text(", ")
            para += _declaration_link(declaration, pin, listing)
        expected = ", ".join(sorted(disagreement.expected))
        para += nodes.Text((_(" declares {declared}; the licence text is {expected}.") if shown else
                            _(" declares {declared}; most declarations say {expected}.")).format(
            declared=", ".join(sorted(disagreement.declared)), expected=expected))
        section += para
    if found and not differ and any(d.recognised for d in found):
        section += nodes.paragraph("", _("Every recognised declaration agrees with the licence text.")
                                   if shown else _("Every recognised declaration agrees with the others."),
                                   classes=["sa-licence-agreement"])
    for missing in unread:
        para = nodes.paragraph(classes=["sa-licence-not-read"])
        para += nodes.Text(_("not read: {path} ({why})").format(path=missing.path, why=missing.why))
        section += para
    return section


def _category_label(category: str) -> str:
    """The review category's words, in the book's language."""
    words = {
        "root licence": _("root licence"),
        "vendored": _("vendored"), "minified": _("minified"), "javascript": _("javascript"),
        "stylesheet": _("stylesheet"), "font": _("font"), "image": _("image"), "audio": _("audio"),
        "video": _("video"), "data": _("data"), "document": _("document"), "notebook": _("notebook"),
        "archive": _("archive"), "binary": _("binary"), "model weights": _("model weights"),
        "static": _("static"), "config": _("config"), "typescript": _("typescript"), "html": _("html"),
        "documentation": _("documentation"), "text": _("text"), "script": _("script"),
        "python (outside the packages)": _("python (outside the packages)"), "other": _("other"),
    }
    return words.get(category, category)


def _licences(app: Sphinx, docname: str) -> list[nodes.Node]:
    from ..core.licences import LICENCE_CATEGORY, identify_licence, survey  # generated pages only

    state = get_state(str(app.srcdir))
    engine = state.engine
    collapse = _dropdown_maker(app)
    out: list[nodes.Node] = []
    for repo, pin in sorted(engine.pins.items()):
        section = nodes.section(ids=[f"sa-licence-{repo}"])
        section += nodes.title("", _("{repo} ({short})").format(repo=repo, short=pin.short))
        path, licence, identified = _root_licences(engine, repo, docname)
        para = nodes.paragraph()
        para += nodes.Text(_("Root licence of the repository (identified offline against the SPDX licence list): "))
        if path:
            para += _link(f"{path} — {licence}", pin.permalink(path))
        else:
            para += nodes.Text(_("not identified"))
        section += para
        try:
            listing = engine.listing(repo)
        except SourceAnchorsError as error:
            unlisted = _("The commit's file listing could not be obtained: {error}").format(error=error)
            section += nodes.paragraph("", unlisted)
            out.append(section)
            continue
        section += _declared_section(engine, repo, pin, identified, listing)
        found = survey(sorted(listing.items()), root_licence=path, packages=pin.packages)
        para = nodes.paragraph()
        para += nodes.Text(_("{n} files in the commit, {m} of them outside the packages' Python modules, "
                             "by category. These await a final rights review:").format(n=len(listing),
                                                                                       m=len(found.review)))
        section += para
        grouped = found.review_by_category()
        grouped.setdefault(LICENCE_CATEGORY, [])
        for category, paths in grouped.items():
            if category == LICENCE_CATEGORY:
                title = _("Other licence or copyright files ({n})").format(n=len(paths))
            else:
                title = _("{category} ({n})").format(category=_category_label(category), n=len(paths))
            section += collapse(title, paths, pin)
        out.append(section)
    own = Path(app.confdir) / "LICENSE"
    if own.is_file():
        try:
            match = identify_licence(own.read_text("utf-8", errors="replace"))  # once per full build
        except MissingExtraError as error:
            _warn_once(error, docname)
            match = None
        para = nodes.paragraph(classes=["sa-own-licence"])
        own_id = _("{spdx} (LICENSE, score {score}).").format(spdx=match.spdx_id, score=f"{match.score:.2f}") \
            if match else _("LICENSE.")
        para += nodes.Text(_("This repository's own licence (book and extension): ") + own_id)
        out.append(para)
    return out


def _path_list(paths: Sequence[str], pin: RepoPin) -> nodes.bullet_list:
    inner = nodes.bullet_list(classes=["sa-review-list"])
    for path in paths:
        entry = nodes.list_item()
        p = nodes.paragraph()
        p += _link(path, pin.permalink(path))
        entry += p
        inner += entry
    return inner


Collapse = Callable[[str, Sequence[str], RepoPin], nodes.Node]


def _dropdown_maker(app: Sphinx) -> Collapse:
    """A maker of one review category: a sphinx-design dropdown when it is loaded, else a plain list.

    The extension never requires sphinx-design: without it (or with a version whose internals
    differ) each category is a paragraph with its title and count, then its list.
    """
    if "sphinx_design" in app.extensions:
        try:
            from sphinx_design.shared import create_component
        except ImportError:
            pass
        else:
            def dropdown(title: str, paths: Sequence[str], pin: RepoPin) -> nodes.Node:
                if not paths:
                    return _plain_category(title, paths, pin)
                container = create_component("dropdown", opened=False, type="dropdown", has_title=True,
                                             icon=None, chevron=None, container_classes=["sd-mb-3", "sa-review"],
                                             title_classes=[], body_classes=[])
                container += nodes.rubric(title, title)
                container += _path_list(paths, pin)
                return container

            return dropdown
    return _plain_category


def _plain_category(title: str, paths: Sequence[str], pin: RepoPin) -> nodes.Node:
    box = nodes.container(classes=["sa-review"])
    para = nodes.paragraph()
    para += nodes.Text((_("{title}: ") if paths else _("{title}: none")).format(title=title))
    box += para
    if paths:
        box += _path_list(paths, pin)
    return box


def _html_dropdowns(app: Sphinx, doctree: nodes.document) -> None:
    """Run sphinx-design's own post-transform on the dropdowns made after post-transforms ran."""
    if "sphinx_design" not in app.extensions or app.builder.format != "html":
        return
    try:
        from sphinx_design.dropdown import DropdownHtmlTransform
    except ImportError:
        return
    transform = DropdownHtmlTransform(doctree)
    transform.run()


def _fill(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    licences = False
    for node in list(doctree.findall(ledger_placeholder)):
        licences = licences or node["kind"] != "ledger"
        content = _ledger(app, docname) if node["kind"] == "ledger" else _licences(app, docname)
        node.replace_self(content)
    if licences:
        _html_dropdowns(app, doctree)


def setup(app: Sphinx) -> None:
    """Register the generated-page directives."""
    app.add_node(ledger_placeholder)
    app.add_directive("source-ledger", LedgerDirective)
    app.add_directive("licence-notes", LicenceNotesDirective)
    app.connect("doctree-resolved", _fill)
