"""A page with anchors in TSX, Go, Rust and C, built to HTML, PDF and EPUB (``language_page.py``).

The upstream's sources are written for the test (``tests/roots/upstream/languages/``) and the page
(``tests/roots/test-languages/``) anchors definitions with ``#Name`` and statements with
``#Name::match``, by ``{src}`` roles and a ``source-anchor`` card. Each permalink's ``#Lx-Ly`` is
compared with an oracle that is not tree-sitter: brace matching from the line the definition or
statement opens on (its first line: an attribute, ``export`` or the declaration specifiers, never a
comment), and for C and Go Universal Ctags' name line and end where it is installed. The PDF
(xelatex; skipped without it, as ``test_print.py`` is) prints each label with its compact location
and the chapter's source table lists the four files with those lines and what each points at; the
EPUB writes each location and lists each permalink in a note. ``make languages-demo`` shows the page.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import NamedTuple

import pytest
from helpers import Book, SharedUpstream, latex_pdf
from language_page import PERMALINK, files, print_settings, repos
from test_languages_upstream import CTAGS, brace_end, ctags
from test_print import SKIP as PRINT_SKIP
from test_print import flat


class Anchor(NamedTuple):
    """An anchor of the page: its label, target, what the print says it points at, and its oracle."""

    label: str
    target: str
    words: str  # the source table's and the notes' words (white space removed), zh_CN
    first: str  # the text of its first line
    opens: str | None = None  # the line whose first "{" the closing brace matches (default: first)
    clause: bool = False  # a clause: it ends on the line before the brace that closes its switch


TSX, GO, RUST, C = (
    "frontend/components/ResearchForm.tsx",
    "server/handler.go",
    "engine/src/planner.rs",
    "native/buffer.c",
)
#: In the page's order; the card (Planner::new) is the only one that is not a chip.
ANCHORS = (
    Anchor(
        "ResearchForm 组件", f"/{TSX}#ResearchForm", "函数ResearchForm", "export default function"
    ),
    Anchor(
        "拒绝空任务",
        f'/{TSX}#ResearchForm::if (task.trim() === "")',
        'ResearchForm中的语句「if(task.trim()==="")」',
        "if (task.trim()",
    ),
    Anchor(
        "SourceToggle 下拉框", f"/{TSX}#SourceToggle", "函数SourceToggle", "export const Source"
    ),
    Anchor("Request 结构体", f"/{GO}#Request", "结构体Request", "type Request struct"),
    Anchor(
        "ServeHTTP 方法", f"/{GO}#Handler.ServeHTTP", "方法Handler.ServeHTTP", "func (h *Handler)"
    ),
    Anchor(
        "未知来源的分支",
        f"/{GO}#Handler.ServeHTTP::default:",
        "Handler.ServeHTTP中的语句「default:」",
        "\tdefault:",
        opens="\tswitch req.Source",
        clause=True,
    ),
    Anchor(
        "ReportSource 枚举", f"/{RUST}#ReportSource", "枚举ReportSource", "#[derive", "pub enum"
    ),
    Anchor("plan 方法", f"/{RUST}#Planner.plan", "方法Planner.plan", "pub fn plan"),
    Anchor(
        "Hybrid 分支",
        f"/{RUST}#Planner.plan::Hybrid =>",
        "Planner.plan中的语句「Hybrid=>」",
        "ReportSource::Hybrid =>",
    ),
    Anchor("Planner::new", f"/{RUST}#Planner.new", "方法Planner.new", "#[must_use]", "pub fn new"),
    Anchor(
        "buffer_grow 函数",
        f"/{C}#buffer_grow",
        "函数buffer_grow",
        "static int",
        "buffer_grow(struct",
    ),
    Anchor(
        "倍增循环",
        f"/{C}#buffer_grow::while (cap < need)",
        "buffer_grow中的语句「while(cap<need)」",
        "while (cap < need)",
    ),
    Anchor("buffer 结构体", f"/{C}#buffer", "结构体buffer", "struct buffer {"),
)
CARD = "Planner::new"


def line_of(lines: list[str], text: str) -> int:
    """The one line that holds *text*."""
    (number,) = [n for n, line in enumerate(lines, 1) if text in line]
    return number


def oracle(anchor: Anchor) -> tuple[str, int, int]:
    """The file and lines *anchor* names, by brace matching on the text the test wrote."""
    path = anchor.target[1:].split("#", 1)[0]
    lines = files()[path].splitlines()
    start = line_of(lines, anchor.first)
    end = brace_end(lines, line_of(lines, anchor.opens or anchor.first))
    assert end is not None, anchor
    return path, start, end - 1 if anchor.clause else end


def where(path: str, start: int, end: int) -> str:
    return f"{path}:L{start}–L{end}"


@pytest.fixture
def page(shared_upstream: SharedUpstream, book: Book) -> tuple[Book, str]:
    """The page pinned to the upstream's commit, with the book's print settings; and that commit."""
    sha = shared_upstream.commits["languages"]
    book.repos = repos(shared_upstream.url, sha)
    book.settings = print_settings()
    book.write_conf(default_repo="up")
    book.from_root("languages")
    return book, sha


def test_the_oracle_reads_each_definition_from_its_first_line_to_its_closing_brace(
    tmp_path: Path,
) -> None:
    """The oracle itself, on lines counted by hand, and against Universal Ctags for C and Go."""
    assert oracle(ANCHORS[4]) == (GO, 20, 34) and oracle(ANCHORS[5]) == (GO, 30, 32)
    assert oracle(ANCHORS[6]) == (RUST, 4, 9) and oracle(ANCHORS[10]) == (C, 11, 25)
    if not Path(CTAGS).exists():
        return  # the hand-counted lines above still hold
    root = files()
    compared = 0
    for anchor in ANCHORS:
        path, start, end = oracle(anchor)
        if "::" in anchor.target or not path.endswith((".c", ".go")):
            continue  # ctags tags definitions; it gives no end for Rust, and reads no .tsx
        name = anchor.target.rsplit("#", 1)[1].rsplit(".", 1)[-1]
        copy = tmp_path / path.rsplit("/", 1)[-1]
        copy.write_text(root[path], "utf-8")
        (tag,) = [t for t in ctags([copy]) if t["name"] == name and t["kind"] != "member"]
        assert (tag["end"], start <= tag["line"]) == (end, True), (anchor, tag)
        compared += 1
    assert compared == 4


def test_each_permalink_in_html_is_the_oracles_range(page: tuple[Book, str]) -> None:
    book, sha = page
    out = book.build().outdir  # strict: no warning
    text = (out / "languages.html").read_text("utf-8")
    chips = dict(
        (html.unescape(label), href)
        for href, label in re.findall(
            r'<a class="sa-anchor[^"]*" href="([^"]+)"[^>]*><span class="sa-label">([^<]+)</span>',
            text,
        )
    )
    (card,) = re.findall(r'<p class="sa-card-title"><a class="[^"]*" href="([^"]+)"', text)
    chips[CARD] = card
    assert set(chips) == {anchor.label for anchor in ANCHORS}
    for anchor in ANCHORS:
        path, start, end = oracle(anchor)
        expected = PERMALINK.format(commit=sha, path=path, start=start, end=end)
        assert chips[anchor.label] == expected, anchor.target
    # The location a reader sees on hover, for every chip (the card says it on its own line).
    for anchor in ANCHORS:
        if anchor.label != CARD:
            assert f"{where(*oracle(anchor))}&#64;{sha[:7]}</span>" in text, anchor.target


@pytest.mark.skipif(PRINT_SKIP is not None, reason=PRINT_SKIP or "")
def test_the_pdf_prints_each_location_and_lists_the_four_files_in_the_source_table(
    page: tuple[Book, str],
) -> None:
    book, sha = page
    latex = book.build(builder="latex", out="latex").outdir
    _, text = latex_pdf(latex)
    body = flat(text)
    start, end = body.index("本章的源码位置都指固定提交"), body.rindex("本章源码位置")
    chapter, table = body[start:end], body[end + len("本章源码位置") :]
    assert chapter.count(sha) == 1
    for anchor in ANCHORS:
        path, first, last = oracle(anchor)
        if anchor.label == CARD:  # the card's own line: repo@sha · path:Lx–Ly
            assert f"up@{sha[:7]}·{where(path, first, last)}" in chapter
            continue
        compact = f"{path.rsplit('/', 1)[-1]}:L{first}–{last}"  # each file's name is its own
        assert flat(anchor.label) + f"({compact})" in chapter, (anchor.label, compact)
    # The table: the links' common beginning once, then each file and its fragments, each followed by
    # what it points at.
    prefix = f"https://example.org/blob/{sha}/"
    assert table.startswith("下列链接都以下面这一行开头") and prefix in table
    rows = table.split(prefix, 1)[1]
    assert [rows.count(path + "：") for path in (TSX, GO, RUST, C)] == [1, 1, 1, 1]
    places = [rows.index(path + "：") for path in sorted((TSX, GO, RUST, C))]
    assert places == sorted(places), "each file once, by its path"
    for anchor in ANCHORS:
        path, first, last = oracle(anchor)
        section = rows[rows.index(path + "：") :]
        assert f"#L{first}-L{last}{flat(anchor.words)}" in section, anchor.target


def test_the_epub_writes_each_location_and_lists_each_permalink(page: tuple[Book, str]) -> None:
    book, sha = page
    out = book.build(builder="epub", out="epub").outdir  # strict: no warning
    pages = [path.read_text("utf-8") for path in Path(out).rglob("*.xhtml")]
    text = html.unescape(re.sub(r"<[^>]+>", "", "".join(pages)))
    notes = [
        flat(html.unescape(note))
        for page in pages
        for note in re.findall(r'role="doc-footnote">(.*?)</aside>', page, re.DOTALL)
    ]
    for anchor in ANCHORS:
        path, first, last = oracle(anchor)
        permalink = PERMALINK.format(commit=sha, path=path, start=first, end=last)
        if anchor.label == CARD:
            assert where(path, first, last) in text
        else:
            assert f"{anchor.label} ({where(path, first, last)}@{sha[:7]})" in text, anchor
            assert any(f"<p>{flat(anchor.words)}—{permalink}</p>" in note for note in notes), anchor
        assert any(permalink in note for note in notes), permalink
