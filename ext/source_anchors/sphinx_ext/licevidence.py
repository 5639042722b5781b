"""The evidence sections of the licence notes: notices inside files, and known third-party material.

Both list files of the commit with the evidence the tree gives (:mod:`..licences.thirdparty`,
:mod:`..licences.notices`), each piece with its line: read from the file when the build can have
it, else from the pin's facts record. A file's notices (a licence, a credit, a copyright line) go
to the first section, its marks of material from elsewhere to the second; a file with both is in
both. Also the sentence that says where a distribution's root licence file comes from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from docutils import nodes

from ..engine.engine import Engine
from ..licences.evidence import Evidence
from ..model.config import RepoPin
from ..model.errors import SourceAnchorsError
from .generated import link
from .i18n import _

__all__ = ["NOTICE_KINDS", "dist_licence", "notices_section", "third_party_section"]

#: The kinds of evidence that are a file's own notices, not marks of material from elsewhere.
NOTICE_KINDS = frozenset({"licence", "credit", "copyright"})


def _kind_words(kind: str) -> str:
    """The kind of evidence, in the book's language."""
    words = {
        "bundle": _("vendored bundle"),
        "adapted": _("adapted from elsewhere"),
        "data": _("data set"),
        "logo": _("third-party logo"),
        "quoted": _("quotes web pages"),
        "source": _("source named in the file"),
        "licence": _("licence named in the file"),
        "credit": _("credit"),
        "copyright": _("copyright line"),
    }
    return words.get(kind, kind)


def _entry(path: str, pieces: Sequence[Evidence], pin: RepoPin) -> nodes.list_item:
    """One file: its link, then each piece as "kind: what (Ln)", the line linked at the pin."""
    item = nodes.list_item()
    para = nodes.paragraph()
    para += link(path, pin.permalink(path))
    for index, piece in enumerate(pieces):
        para += nodes.Text(" — " if not index else "; ")
        para += nodes.strong("", _kind_words(piece.kind))
        para += nodes.Text(_(": {what}").format(what=_(piece.what).format(**dict(piece.args))))
        if piece.line:
            para += nodes.Text(" (")
            para += link(f"L{piece.line}", pin.permalink(path, piece.line, piece.line))
            para += nodes.Text(")")
    item += para
    return item


def _split(found: Mapping[str, list[Evidence]], notices: bool) -> dict[str, list[Evidence]]:
    chosen = {
        path: [e for e in items if (e.kind in NOTICE_KINDS) == notices]
        for path, items in found.items()
    }
    return {path: items for path, items in sorted(chosen.items()) if items}


def notices_section(engine: Engine, repo: str, pin: RepoPin) -> tuple[nodes.section, int]:
    """Files that state a licence, a credit or a copyright in their own text; and how many there are."""
    found = _split(engine.licences.third_party(repo), notices=True)
    section = nodes.section(ids=[f"sa-notices-{repo}"])
    section += nodes.title(
        "", _("Licences and copyright notices inside files ({n})").format(n=len(found))
    )
    section += nodes.paragraph(
        "",
        _(
            "Besides the licence files found by their names (below), these files state "
            "in their own text a licence, a creator or rights holder, or a copyright "
            "line; each is listed with its line and its words:"
        ),
    )
    items = nodes.bullet_list(classes=["sa-notices"])
    for path, pieces in found.items():
        items += _entry(path, pieces, pin)
    if not found:
        items += nodes.list_item("", nodes.paragraph("", _("None found.")))
    section += items
    licences = [
        (path, piece)
        for path, pieces in found.items()
        for piece in pieces
        if piece.kind == "licence"
    ]
    if licences:
        para = nodes.paragraph(classes=["sa-licence-in-file"])
        para += nodes.Text(
            _("Licences named inside files, beside the root licence: {items}.").format(
                items=", ".join(
                    f"{path}:L{piece.line} {dict(piece.args)['licence']}"
                    for path, piece in licences
                )
            )
        )
        section += para
    return section, len(found)


def third_party_section(engine: Engine, repo: str, pin: RepoPin) -> nodes.section:
    """Files the tree itself shows to be third-party material, each with its evidence."""
    found = _split(engine.licences.third_party(repo), notices=False)
    section = nodes.section(ids=[f"sa-third-party-{repo}"])
    section += nodes.title("", _("Known third-party material ({n})").format(n=len(found)))
    section += nodes.paragraph(
        "",
        _(
            "Marked by evidence in the tree (a bundle's name and markers, an adapted-from "
            "notice, a data set under an adapted folder, a brand's logo, web pages "
            "quoted in results, a source an image names: SVG Repo, Lucide, EmojiOne); "
            "every entry still awaits the rights review below."
        ),
    )
    items = nodes.bullet_list(classes=["sa-third-party"])
    for path, pieces in found.items():
        items += _entry(path, pieces, pin)
    section += items
    return section


def dist_licence(
    engine: Engine, repo: str, path: str, listing: Mapping[str, str]
) -> nodes.Node | None:
    """Where the build read root licence *path* from, when that is a wheel's ``.dist-info/licenses/``."""
    try:
        tree = engine.tree(repo)
    except SourceAnchorsError:
        return None
    metadata = tree.metadata or {}
    member = metadata.get("name", "")
    if (
        tree.method != "dist"
        or not member.endswith(".dist-info/METADATA")
        or path not in tree.blobs
    ):
        return None
    blob = tree.blobs[path]
    archive, _sep, inside = member.rpartition(": ")  # "NAME.whl: NAME.dist-info/METADATA"
    where = f"{inside.removesuffix('METADATA')}licenses/{path}"
    same = listing.get(path) == blob
    text = (
        _(
            "The build reads it from {archive} of {dist}, as {member}: blob {blob}, the commit's {path}."
        )
        if same
        else _(
            "The build reads it from {archive} of {dist}, as {member}: blob {blob}, not the "
            "commit's {path}."
        )
    )
    pin = engine.pins[repo]
    return nodes.paragraph(
        "",
        text.format(
            archive=archive or pin.dist, dist=pin.dist, member=where, blob=blob[:12], path=path
        ),
        classes=["sa-dist-licence"],
    )
