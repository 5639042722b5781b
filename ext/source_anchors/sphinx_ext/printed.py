"""The printed page (LaTeX): compact locations inline, the commit once per chapter, the links in a table.

A permalink is a hundred characters; as a footnote after every anchor it filled half a page. In
print each chip is followed by its location only, ``(researcher.py:L162–163)``: the file by the
shortest end of its path that no other file of the chapter shares, the lines without the repeated
``L``. The chapter says once, under its title, which commit of which repository every location is
at, and ends with a source table: the links' common beginning once, then each file's path and the
line fragment of each link, every entry a link to its lines followed by what the anchor points at
(:mod:`.targetwords`: its kind, name and match text), since the label alone may not say it. The
LaTeX builder assembles the whole book into one tree before ``doctree-resolved``; each chapter there
is the content of one ``start_of_file`` node.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from collections.abc import Iterator

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx

from .i18n import _
from .render import anchor_reference, card_link
from .state import get_state

__all__ = ["compact_lines", "short_paths", "split_location"]

_LINES = re.compile(r"L\d+(?:–L\d+)?")


def split_location(location: str) -> tuple[str, str, str]:
    """``(path, lines, short commit)`` of a chip's ``path:Lx–Ly@sha`` (``lines`` is ``""`` for a whole file)."""
    where, _at, short = location.rpartition("@")
    path, sep, lines = where.rpartition(":")
    if sep and _LINES.fullmatch(lines):
        return path, lines, short
    return where, "", short


def compact_lines(lines: str) -> str:
    """``L162–L163`` as ``L162–163`` (the ``L`` once)."""
    return lines.replace("–L", "–")


def short_paths(paths: set[str]) -> dict[str, str]:
    """Each path's shortest end (whole segments) that no other path of *paths* ends with."""
    out = {}
    for path in paths:
        parts = path.split("/")
        for count in range(1, len(parts) + 1):
            tail = "/".join(parts[-count:])
            if not any(
                other != path and (other == tail or other.endswith("/" + tail)) for other in paths
            ):
                break
        out[path] = tail
    return out


def _chapters(doctree: nodes.document, docname: str) -> Iterator[tuple[str, nodes.Element]]:
    """``(docname, node)``: the root document itself, then the ``start_of_file`` of every included one."""
    yield docname, doctree
    for node in doctree.findall(addnodes.start_of_file):
        yield node["docname"], node


def _own(node: nodes.Element, kind: type[nodes.Element]) -> list[nodes.Element]:
    """The *kind* nodes of this chapter, not of a chapter included inside it."""
    found: list[nodes.Element] = []
    stack = list(node.children)
    while stack:
        child = stack.pop(0)
        if isinstance(child, addnodes.start_of_file):
            continue
        if isinstance(child, kind):
            found.append(child)
        if isinstance(child, nodes.Element):
            stack[:0] = list(child.children)
    return found


def lay_out(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """For the LaTeX builder: compact locations, the commit under each chapter title, the source table."""
    if app.builder.format != "latex":
        return
    pins = get_state(str(app.srcdir)).engine.pins
    for doc, chapter in _chapters(doctree, docname):
        chips = [c for c in _own(chapter, anchor_reference) if c.get("sa_location")]
        cards = _own(chapter, card_link)
        if not chips and not cards:
            continue
        located = [(chip, *split_location(chip["sa_location"])) for chip in chips]
        shorts = short_paths({path for _chip, path, _lines, _sha in located})
        for chip, path, lines, _sha in located:
            chip["sa_print"] = f"{shorts[path]}:{compact_lines(lines)}" if lines else shorts[path]
        repos = sorted({chip["sa_repo"] for chip in chips if chip.get("sa_repo") in pins})
        links = [
            (str(node["refuri"]), str(node.get("sa_target", "")))
            for node in (*chips, *cards)
            if node.get("refuri")
        ]
        sections = [child for child in chapter.children if isinstance(child, nodes.section)]
        if not sections or not links:
            continue
        top = sections[0]
        title = _("Sources of this chapter")
        if repos:
            pinned = _("; ").join(
                _("{repo} at commit {commit}").format(repo=repo, commit=pins[repo].commit)
                for repo in repos
            )
            words = (
                _(
                    "Every source location in this chapter is at the pinned commit: {pinned}. The links are "
                    "listed at the end of the chapter (“{title}”)."
                )
                if app.config.latex_show_urls == "no"
                else _("Every source location in this chapter is at the pinned commit: {pinned}.")
            )
            note = nodes.paragraph(
                "", words.format(pinned=pinned, title=title), classes=["sa-print-pin"]
            )
            top.insert(1 if top.children and isinstance(top[0], nodes.title) else 0, note)
        # else Sphinx prints each URL already: no table to double them
        if app.config.latex_show_urls == "no":
            top += _table(title, links, f"sa-sources-{doc.replace('/', '-')}")


def _table(title: str, links: list[tuple[str, str]], ident: str) -> nodes.section:
    """The chapter's source table: the common beginning once, then per file each fragment, a link, and what it is.

    *links* are ``(permalink, target in words)``; a permalink that several anchors share is listed
    once, with each of their descriptions.
    """
    described: dict[str, list[str]] = defaultdict(list)
    for link, words in links:
        if words and words not in described[link]:
            described[link].append(words)
    unique = sorted(described)
    prefix = os.path.commonprefix(unique)  # noqa: RUF071  # by character, then cut back to a "/"
    prefix = (
        prefix[: prefix.rfind("/") + 1] if len(unique) > 1 else unique[0].rsplit("/", 1)[0] + "/"
    )
    by_file: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for link in unique:
        rest = link[len(prefix) :]
        path, sep, fragment = rest.partition("#")
        by_file[path].append((sep + fragment, link))
    section = nodes.section(ids=[ident], classes=["sa-sources"])
    section += nodes.title("", title)
    section += nodes.paragraph(
        "",
        _(
            "Every link below begins with the line that follows; then come the file's "
            "path and the fragment of its lines, each followed by what it points at:"
        ),
    )
    common = nodes.paragraph(classes=["sa-sources-prefix"])
    # a URL: LaTeX may break it after any slash
    common += nodes.reference("", prefix, refuri=prefix)
    section += common
    items = nodes.bullet_list(classes=["sa-sources-list"])
    for path in sorted(by_file):
        fragments = sorted(
            by_file[path], key=lambda item: [int(n) for n in re.findall(r"\d+", item[0])]
        )
        whole = [link for fragment, link in fragments if not fragment]
        para = nodes.paragraph()
        # A file anchored whole: its path is the link.
        para += (
            nodes.reference("", "", nodes.literal("", path), refuri=whole[0])
            if whole
            else nodes.literal("", path)
        )
        if whole and described[whole[0]]:
            para += _straight(" " + _("; ").join(described[whole[0]]))
        for index, (fragment, link) in enumerate(f for f in fragments if f[0]):
            para += nodes.Text(_(": ") if not index else _("; "))
            para += nodes.reference("", fragment, refuri=link)
            if described[link]:
                para += _straight(" " + _(" / ").join(described[link]))
        item = nodes.list_item()
        item += para
        items += item
    section += items
    return section


def _straight(words: str) -> list[nodes.Node]:
    r"""*words* as text whose straight double quotes print straight.

    A match text is quoted as the code has it (``=== ""``); the LaTeX writer leaves ``"`` as it is,
    and XeTeX's TeX ligatures print it as a closing curly quote, which a reader searching the code
    for the text would not find. ``\textquotedbl`` is the straight one.
    """
    parts: list[nodes.Node] = []
    for index, piece in enumerate(words.split('"')):
        if index:
            parts.append(nodes.raw("", r"\textquotedbl{}", format="latex"))
        if piece:
            parts.append(nodes.Text(piece))
    return parts


def setup(app: Sphinx) -> None:
    """Lay out the printed book before the LaTeX writer runs."""
    app.connect("doctree-resolved", lay_out)
