"""Generated pages: the source ledger and the licence notes.

Directives leave placeholders while reading; ``doctree-resolved`` fills them from
the domain's records of the whole book, so the pages stay current on incremental
builds (they are rewritten on every build, see ``env-updated``).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from ..core.caches import identify_cached
from ..core.config import RepoPin
from ..core.engine import Engine
from ..core.errors import SourceAnchorsError
from ..core.records import AnchorRecord, line_range
from .domain import get_domain
from .state import get_state

#: The generated pages' words, in the book's language.
LABELS = {
    "repo": "仓库", "url": "地址", "commit": "固定提交", "verified": "验证方式", "licence": "许可证",
    "anchors": "锚点数", "path": "文件", "lines": "行", "link": "永久链接", "cited": "引用位置",
    "git": "git：按提交导出", "dist": "发行包：{dist}，逐文件核对 git blob id（{n} 个文件已核对）",
    "unknown": "未能识别", "reproduced": "本书文字块中逐字复现的上游代码行（仅计实际内容行）：{n}",
    "whole": "整个文件",
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
        return f"未获取：{error}"
    if tree.method == "git":
        return LABELS["git"]
    paths = {r.outcome.location.path for r in records if r.outcome.location}
    return LABELS["dist"].format(dist=tree.dist, n=len(paths))


def _root_licence(engine: Engine, repo: str) -> tuple[str | None, str]:
    """(path, "SPDX-ID (score)") of the root licence of *repo*'s pin."""
    try:
        tree = engine.tree(repo)
    except SourceAnchorsError:
        return None, LABELS["unknown"]
    from ..core.licences import is_root_licence  # generated pages only

    candidates = sorted(p for p in tree.blobs if is_root_licence(p))
    for path in candidates:
        try:
            data = tree.read_bytes(path)  # a distribution's licence file must be the commit's too
        except SourceAnchorsError as error:
            return path, f"{LABELS['unknown']}（{error}）"
        match = identify_cached(engine.settings.cache_dir, tree.blobs[path], data)
        if match:
            return path, f"{match.spdx_id}（score {match.score:.2f}）"
    return (candidates[0] if candidates else None), LABELS["unknown"]


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
        _, licence = _root_licence(engine, repo)
        summary_rows.append([repo, _link(pin.url, pin.url), _link(pin.commit, pin.permalink("")),
                             _tree_note(engine, repo, by_repo[repo]), licence, str(len(by_repo[repo]))])
    out.append(_table([LABELS[k] for k in ("repo", "url", "commit", "verified", "licence", "anchors")],
                      summary_rows, [2, 4, 4, 4, 2, 1]))
    out.append(_reproduction(app))
    for repo in sorted(by_repo):
        section = nodes.section(ids=[f"sa-ledger-{repo}"])
        section += nodes.title("", f"{repo} 的锚定位置")
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
                lines = LABELS["whole"] if whole else line_range(start, end)
                back = nodes.inline()
                for index, cite in enumerate(sorted(cites, key=lambda c: (c.doc, c.line))):
                    if index:
                        back += nodes.Text(" · ")
                    uri = app.builder.get_relative_uri(docname, cite.doc) + "#" + cite.id
                    back += nodes.reference("", f"{cite.label}（{cite.doc}:{cite.line}）",
                                            refuri=uri, classes=["sa-backlink"])
                link = first.permalink or ""
                rows.append([lines, _link(link.rsplit("/", 1)[-1], link), back])
            file_title = nodes.paragraph(classes=["sa-ledger-file"])
            file_title += nodes.literal("", path)
            section += file_title
            section += _table([LABELS["lines"], LABELS["link"], LABELS["cited"]], rows, [1, 3, 6])
        out.append(section)
    return out


def _reproduction(app: Sphinx) -> nodes.Node:
    """The count checked on ``env-updated`` (see :mod:`.checks`)."""
    para = nodes.paragraph(classes=["sa-reproduced"])
    para += nodes.Text(LABELS["reproduced"].format(n=get_domain(app.env).data.get("reproduced", 0)))
    return para


def _licences(app: Sphinx, docname: str) -> list[nodes.Node]:
    from ..core.licences import identify_licence, survey  # generated pages only

    state = get_state(str(app.srcdir))
    engine = state.engine
    out: list[nodes.Node] = []
    for repo, pin in sorted(engine.pins.items()):
        section = nodes.section(ids=[f"sa-licence-{repo}"])
        section += nodes.title("", f"{repo}（{pin.short}）")
        path, licence = _root_licence(engine, repo)
        para = nodes.paragraph()
        para += nodes.Text("仓库根许可证（离线比对 SPDX 许可证库识别）：")
        if path:
            para += _link(f"{path} — {licence}", pin.permalink(path))
        else:
            para += nodes.Text(LABELS["unknown"])
        section += para
        try:
            listing = engine.listing(repo)
        except SourceAnchorsError as error:
            section += nodes.paragraph("", f"未能取得提交的文件清单：{error}")
            out.append(section)
            continue
        found = survey(sorted(listing.items()), root_licence=path)
        para = nodes.paragraph()
        para += nodes.Text(f"提交中共 {len(listing)} 个文件。以下各项尚待权益终审：")
        section += para
        items = nodes.bullet_list()
        others = found.other_licence_files
        items += _item(f"其他许可/版权声明文件（{len(others)} 个）", others, pin)
        for category, paths in found.assets_by_category().items():
            items += _item(f"{category}（{len(paths)} 个）", paths, pin)
        section += items
        out.append(section)
    own = Path(app.confdir) / "LICENSE"
    if own.is_file():
        match = identify_licence(own.read_text("utf-8", errors="replace"))  # once per full build
        para = nodes.paragraph(classes=["sa-own-licence"])
        para += nodes.Text("本仓库（书稿与扩展）自身的许可证："
                           + (f"{match.spdx_id}（LICENSE，score {match.score:.2f}）。" if match else "LICENSE。"))
        out.append(para)
    return out


def _item(title: str, paths: tuple[str, ...] | list[str], pin: RepoPin) -> nodes.list_item:
    item = nodes.list_item()
    para = nodes.paragraph()
    para += nodes.Text(title + ("：" if paths else "：无"))
    item += para
    if paths:
        inner = nodes.bullet_list(classes=["sa-review-list"])
        for path in paths:
            entry = nodes.list_item()
            p = nodes.paragraph()
            p += _link(path, pin.permalink(path))
            entry += p
            inner += entry
        item += inner
    return item


def _fill(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for node in list(doctree.findall(ledger_placeholder)):
        content = _ledger(app, docname) if node["kind"] == "ledger" else _licences(app, docname)
        node.replace_self(content)


def setup(app: Sphinx) -> None:
    """Register the generated-page directives."""
    app.add_node(ledger_placeholder)
    app.add_directive("source-ledger", LedgerDirective)
    app.add_directive("licence-notes", LicenceNotesDirective)
    app.connect("doctree-resolved", _fill)
