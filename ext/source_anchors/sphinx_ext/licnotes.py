"""The licence notes page: root licence, declared licences and their disagreements, the rights review.

Rendered by :mod:`.ledger`'s placeholder on ``doctree-resolved``. The review categories are
sphinx-design dropdowns when sphinx-design is loaded, else plain lists: it is never required.
A disagreement between a declared licence and the licence text is stated on the page (and
counted in the ledger), never warned about: the book cannot fix upstream.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

from ..engine.engine import Engine
from ..licences.declared import Declaration, disagreements
from ..model.config import RepoPin
from ..model.errors import ConfigError, MissingExtraError, SourceAnchorsError
from .diagnostics import LOGGER, Subtype, warn
from .generated import link, root_licences, warn_once
from .i18n import _
from .licevidence import dist_licence, notices_section, third_party_section
from .state import get_state

__all__ = ["declared_summary", "html_dropdowns", "licences"]


def declared_summary(engine: Engine, repo: str, identified: frozenset[str]) -> nodes.Node:
    """The ledger's cell: the SPDX ids declared, and whether any declaration disagrees with the texts."""
    try:
        found, unread = engine.licences.declared(repo)
    except SourceAnchorsError as error:
        LOGGER.info("source-anchors: the declared licences of %s were not read: %s", repo, error)
        return nodes.Text(_("not read (the build log says why)"))
    ids = sorted({spdx for declaration in found for spdx in declaration.spdx})
    cell = nodes.inline()
    cell += nodes.Text(", ".join(ids) if ids else _("none found"))
    differ = disagreements(identified, found)
    if differ:
        cell += nodes.Text(" — ")
        cell += nodes.strong(
            "",
            _("{n} disagree with the licence text (see the licence notes)").format(n=len(differ)),
            classes=["sa-licence-disagreement"],
        )
    if unread:
        cell += nodes.Text(_("; {n} not read").format(n=len(unread)))
    return cell


def _spdx_words(declaration: Declaration) -> str:
    """What the page says a declaration names: its SPDX ids, or why none is compared."""
    from ..licences.declared import PRIVATE_FIELD  # generated pages only

    if declaration.field == PRIVATE_FIELD:
        return _("no licence declared (a private package: npm does not publish it)")
    return (
        ", ".join(sorted(declaration.spdx))
        if declaration.spdx
        else _("not recognised, not compared")
    )


def _declaration_link(
    declaration: Declaration, pin: RepoPin, listing: Mapping[str, str]
) -> nodes.Node:
    where = f"{declaration.path}:L{declaration.line}"
    if declaration.path in listing:
        return link(where, pin.permalink(declaration.path, declaration.line, declaration.line))
    return nodes.literal("", where)  # a distribution's METADATA is no file of the commit


def _declared_section(
    engine: Engine,
    repo: str,
    pin: RepoPin,
    identified: frozenset[str],
    listing: Mapping[str, str],
    docname: str,
) -> nodes.section:
    from ..licences.declared import disagreements  # generated pages only

    section = nodes.section(ids=[f"sa-declared-{repo}"])
    section += nodes.title("", _("Declared licences"))
    outside = engine.licences
    found, unread = outside.declared(repo)
    recorded = outside.from_record.get(repo, set())
    intro = nodes.paragraph()
    intro += nodes.Text(
        _(
            "What the packaging files declare (pyproject.toml, setup.py, setup.cfg, every "
            "package.json and its variants, Cargo.toml, composer.json, the distribution's METADATA), "
            "read statically, never executed, normalised to SPDX identifiers where recognised:"
        )
    )
    section += intro
    items = nodes.bullet_list(classes=["sa-declared"])
    for declaration in found:
        item = nodes.list_item()
        para = nodes.paragraph()
        para += _declaration_link(declaration, pin, listing)
        para += nodes.Text(
            _(" — {field}: {value} → {spdx}").format(
                field=declaration.field, value=declaration.value, spdx=_spdx_words(declaration)
            )
        )
        if declaration.path in recorded:
            para += nodes.Text(
                _(" (from the facts record, blob {blob})").format(
                    blob=listing.get(declaration.path, "")[:12]
                )
            )
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
        para += nodes.Text(
            (
                _(" declares {declared}; the licence text is {expected}.")
                if shown
                else _(" declares {declared}; most declarations say {expected}.")
            ).format(declared=", ".join(sorted(disagreement.declared)), expected=expected)
        )
        section += para
    if found and not differ and any(d.recognised for d in found):
        section += nodes.paragraph(
            "",
            _("Every recognised declaration agrees with the licence text.")
            if shown
            else _("Every recognised declaration agrees with the others."),
            classes=["sa-licence-agreement"],
        )
    if recorded:
        section += nodes.paragraph(
            "",
            _(
                "{n} of these files are not in the distribution the build reads: their "
                "declarations come from the committed facts record, each entry "
                "checked against the blob id of the commit's listing."
            ).format(n=len(recorded)),
            classes=["sa-licence-record"],
        )
    for missing in unread:  # the reader gets one sentence; the reasons go to the build log
        LOGGER.info("source-anchors: %s of %s not read: %s", missing.path, repo, missing.why)
    if unread:
        para = nodes.paragraph(classes=["sa-licence-not-read"])
        para += nodes.Text(
            _(
                "{n} packaging files could not be read by this build ({paths}); the book draws no "
                "conclusion about them."
            ).format(n=len(unread), paths=", ".join(m.path for m in unread))
        )
        section += para
    for problem in outside.stale.get(repo, []):
        warn(f"licence-notes: {repo}: {problem}", Subtype.unverified, location=(docname, None))
    return section


def _category_label(category: str) -> str:
    """The review category's words, in the book's language."""
    words = {
        "root licence": _("root licence"),
        "vendored": _("vendored"),
        "minified": _("minified"),
        "javascript": _("javascript"),
        "stylesheet": _("stylesheet"),
        "font": _("font"),
        "image": _("image"),
        "audio": _("audio"),
        "video": _("video"),
        "data": _("data"),
        "document": _("document"),
        "notebook": _("notebook"),
        "archive": _("archive"),
        "binary": _("binary"),
        "model weights": _("model weights"),
        "static": _("static"),
        "config": _("config"),
        "typescript": _("typescript"),
        "html": _("html"),
        "documentation": _("documentation"),
        "text": _("text"),
        "script": _("script"),
        "python (outside the packages)": _("python (outside the packages)"),
        "other": _("other"),
    }
    return words.get(category, category)


def licences(app: Sphinx, docname: str) -> list[nodes.Node]:
    """The licence notes of every pin, then this repository's own licence."""
    from ..licences.identify import (  # generated pages only
        LICENCE_CATEGORY,
        ROOT_LICENCE_CATEGORY,
        identify_licence,
        survey,
    )

    state = get_state(str(app.srcdir))
    engine = state.engine
    collapse = _dropdown_maker(app)
    out: list[nodes.Node] = []
    for repo, pin in sorted(engine.pins.items()):
        section = nodes.section(ids=[f"sa-licence-{repo}"])
        section += nodes.title("", _("{repo} ({short})").format(repo=repo, short=pin.short))
        path, licence, identified = root_licences(engine, repo, docname)
        para = nodes.paragraph()
        para += nodes.Text(
            _("Root licence of the repository (identified offline against the SPDX licence list): ")
        )
        if path:
            para += link(f"{path} — {licence}", pin.permalink(path))
        else:
            para += nodes.Text(_("not identified"))
        section += para
        try:
            listing = engine.listing(repo)
        except SourceAnchorsError as error:
            unlisted = _("The commit's file listing could not be obtained: {error}").format(
                error=error
            )
            section += nodes.paragraph("", unlisted)
            out.append(section)
            continue
        origin = dist_licence(engine, repo, path, listing) if path else None
        if origin is not None:
            section += origin
        inside = 0
        try:
            section += _declared_section(engine, repo, pin, identified, listing, docname)
            notices, inside = notices_section(engine, repo, pin)
            section += notices
            section += third_party_section(engine, repo, pin)
        except (
            ConfigError
        ) as error:  # a facts record that cannot be read: said once, located at conf.py
            warn(f"licence-notes: {error}", Subtype.config, location=(docname, None))
            section += nodes.paragraph(
                "",
                _(
                    "The declared licences and the marks of third-party material are "
                    "missing: the build could not read the facts record (see the "
                    "build log)."
                ),
            )
        found = survey(sorted(listing.items()), root_licence=path, packages=pin.packages)
        para = nodes.paragraph()
        para += nodes.Text(
            _(
                "{n} files in the commit, {m} of them outside the packages' Python modules, "
                "by category. These await a final rights review:"
            ).format(n=len(listing), m=len(found.review))
        )
        section += para
        grouped = found.review_by_category()
        if LICENCE_CATEGORY not in grouped:  # said even when there is none, after the root licence
            rest = list(grouped.items())
            first = [item for item in rest[:1] if item[0] == ROOT_LICENCE_CATEGORY]
            grouped = dict([*first, (LICENCE_CATEGORY, []), *rest[len(first) :]])
        for category, paths in grouped.items():
            if category == LICENCE_CATEGORY:
                title = (
                    _(
                        "Other licence or copyright files, by name ({n}; {m} files state a licence or copyright "
                        "inside, listed above)"
                    )
                    if inside
                    else _("Other licence or copyright files, by name ({n})")
                ).format(n=len(paths), m=inside)
            else:
                title = _("{category} ({n})").format(
                    category=_category_label(category), n=len(paths)
                )
            section += collapse(title, paths, pin)
        out.append(section)
    own = Path(app.confdir) / "LICENSE"
    if own.is_file():
        try:
            # once per full build
            match = identify_licence(own.read_text("utf-8", errors="replace"))
        except MissingExtraError as error:
            warn_once(error, docname)
            match = None
        para = nodes.paragraph(classes=["sa-own-licence"])
        own_id = (
            _("{spdx} (LICENSE, score {score}).").format(
                spdx=match.spdx_id, score=f"{match.score:.2f}"
            )
            if match
            else _("LICENSE.")
        )
        para += nodes.Text(_("This repository's own licence (book and extension): ") + own_id)
        out.append(para)
    return out


def _path_list(paths: Sequence[str], pin: RepoPin) -> nodes.bullet_list:
    inner = nodes.bullet_list(classes=["sa-review-list"])
    for path in paths:
        entry = nodes.list_item()
        p = nodes.paragraph()
        p += link(path, pin.permalink(path))
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
                container = create_component(
                    "dropdown",
                    opened=False,
                    type="dropdown",
                    has_title=True,
                    icon=None,
                    chevron=None,
                    container_classes=["sd-mb-3", "sa-review"],
                    title_classes=[],
                    body_classes=[],
                )
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


def html_dropdowns(app: Sphinx, doctree: nodes.document) -> None:
    """Run sphinx-design's own post-transform on the dropdowns made after post-transforms ran."""
    if "sphinx_design" not in app.extensions or app.builder.format != "html":
        return
    try:
        from sphinx_design.dropdown import DropdownHtmlTransform
    except ImportError:
        return
    transform = DropdownHtmlTransform(doctree)
    transform.run()
