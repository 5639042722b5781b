"""The PDF (xelatex, xeCJK) and the EPUB of a small Chinese book made with the book's own print settings.

The PDF is read back with ``pdftotext``: every anchor's label is followed by its compact location,
``(mod.py:L3–5)``, and no footnote; the chapter says its commit once, under its title, and ends with
a source table: the links' common beginning once, then the path and each line fragment, each entry
a link to the anchor's permalink followed by what the anchor points at (a card's next line gives its
location). The EPUB's XHTML shows ``label (path:Lx–Ly@sha)`` as text and lists each permalink in a
footnote of the chapter, after what the anchor points at. Skipped, with the reason, where xelatex,
latexmk, pdftotext or the Noto CJK fonts are missing (``make print-packages`` installs them).
``make pdf`` and ``make epub`` build the book.
"""

from __future__ import annotations

import html
import json
import re
import runpy
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, Book, SharedUpstream, latex_pdf


def missing_reason() -> str | None:
    """Why the PDF cannot be built here, or None."""
    tools = [
        tool
        for tool in ("xelatex", "latexmk", "pdftotext", "fc-list")
        if shutil.which(tool) is None
    ]
    if tools:
        return f"{', '.join(tools)} not found (make print-packages installs the Debian packages)"
    fonts = subprocess.run(
        ["fc-list", ":", "family"], capture_output=True, text=True, check=False
    ).stdout
    if "Noto Serif CJK SC" not in fonts:
        return "the Noto CJK fonts are missing (Debian fonts-noto-cjk; make print-packages)"
    return None


SKIP = missing_reason()

#: The book's own title, language and print settings (conf.py at the repository's root).
BOOK_CONF = runpy.run_path(str(ROOT / "conf.py"))
PRINT_SETTINGS = {
    key: value
    for key, value in BOOK_CONF.items()
    if key.startswith(("latex_", "epub_"))
    or key
    in (
        "project",
        "author",
        "copyright",
        "version",
        "release",
        "language",
        "html_theme",
        "html_theme_options",
    )
}
#: The preview notice: the web build's site-wide banner (html_theme_options), never printed.
PREVIEW = "在线预览稿"

PAGE = """\
# 打印测试

## 入口

入口是 {src}`alpha 函数 <pkg.mod.alpha>`，它在同一段里紧接着
{src}`elif 分支 <pkg.mod.beta::elif y ==>`；方法 {src}`Gamma.delta() <pkg.mod.Gamma.delta>` 另起一行。

## 标题里的 {src}`beta <pkg.mod.beta>`

- 列表里的锚点：{src}`又是 alpha <pkg.mod.alpha>`。

```{source-anchor} pkg.mod.Gamma.delta
:caption: delta 卡片
```
"""
IN_TITLE = {"beta"}
#: What the PDF's source table and the EPUB's notes say each target is (white space removed).
TARGET_WORDS = {
    "pkg.mod.alpha": "函数alpha",
    "pkg.mod.beta::elif y ==": "beta中的语句「elify==」",
    "pkg.mod.Gamma.delta": "函数Gamma.delta",
    "pkg.mod.beta": "函数beta",
}
CARD = "delta 卡片"  # a card: its title, then "repo@sha · path:Lx–Ly" on its own line


@pytest.fixture
def printed(shared_upstream: SharedUpstream, book: Book) -> tuple[Book, str]:
    """The book with the print settings, and the commit it pins."""
    sha = shared_upstream.commits["build-v1"]
    book.repos = {
        "up": {
            "url": shared_upstream.url,
            "commit": sha,
            "packages": ["pkg"],
            "host": "github",
            "permalink": "https://example.org/blob/{commit}/{path}#L{start}-L{end}",
        }
    }
    book.settings = dict(PRINT_SETTINGS)
    book.write_conf(default_repo="up")
    book.page("index", PAGE)
    return book, sha


def records_of(outdir: Path, sha: str) -> list[dict[str, Any]]:
    """The anchor records of the build in *outdir* (its ``source-anchors.json``, which every builder
    writes), each with the location it prints."""
    records: list[dict[str, Any]] = json.loads((outdir / "source-anchors.json").read_text("utf-8"))
    for record in records:
        lines = f"L{record['start']}" + (
            f"–L{record['end']}" if record["end"] != record["start"] else ""
        )
        record["where"] = f"{record['path']}:{lines}@{sha[:7]}"
    assert len(records) == 6
    return records


def flat(text: str) -> str:
    """The text without white space: pdftotext breaks lines, and spaces out stretched CJK lines."""
    return re.sub(r"\s+", "", text)


def test_a_file_is_printed_by_the_shortest_end_of_its_path_no_other_file_shares() -> None:
    from source_anchors.sphinx_ext.printed import compact_lines, short_paths, split_location

    paths = {
        "gpt_researcher/skills/researcher.py",
        "gpt_researcher/document/document.py",
        "gpt_researcher/context/retriever.py",
        "gpt_researcher/retrievers/retriever.py",
        "LICENSE",
    }
    assert short_paths(paths) == {
        "gpt_researcher/skills/researcher.py": "researcher.py",
        "gpt_researcher/document/document.py": "document.py",
        "gpt_researcher/context/retriever.py": "context/retriever.py",
        "gpt_researcher/retrievers/retriever.py": "retrievers/retriever.py",
        "LICENSE": "LICENSE",
    }
    assert short_paths({"a/x.py", "x.py"}) == {"a/x.py": "a/x.py", "x.py": "x.py"}
    assert split_location("pkg/mod.py:L162–L163@abcdef0") == ("pkg/mod.py", "L162–L163", "abcdef0")
    assert split_location("LICENSE@abcdef0") == ("LICENSE", "", "abcdef0")
    assert compact_lines("L162–L163") == "L162–163" and compact_lines("L7") == "L7"


def test_a_target_is_said_by_its_kind_its_name_in_its_file_and_its_match_text() -> None:
    from source_anchors.model.records import Location
    from source_anchors.model.target import parse_target
    from source_anchors.sphinx_ext.targetwords import MATCH_LIMIT, target_words

    def words(text: str, path: str, kind: str) -> str:
        return target_words(
            parse_target(text, default_repo="up"), Location(path, 1, 2, kind, "", "")
        )

    assert (
        words("pkg.skills.run.Conductor.go", "pkg/skills/run.py", "function")
        == "function Conductor.go"
    )
    assert words("pkg.Agent", "pkg/__init__.py", "class") == "class Agent"
    assert words("pkg.mod", "pkg/mod.py", "module") == "module pkg.mod"
    assert (
        words("pkg.mod.f::if a:::else:", "pkg/mod.py", "statement")
        == "statement “if a:” › “else:” in f"
    )
    assert (
        words('/pyproject.toml::license = "MIT"', "pyproject.toml", "line")
        == 'line “license = "MIT"” in pyproject.toml'
    )
    assert words("/LICENSE", "LICENSE", "file") == "file LICENSE"
    # A definition in a file of another language: its path of names after '#', not the file's.
    assert (
        words("/server/handler.go#Handler.ServeHTTP", "server/handler.go", "method")
        == "method Handler.ServeHTTP"
    )
    assert (
        words("/src/lib.rs#Planner.plan::Hybrid =>", "src/lib.rs", "statement")
        == "statement “Hybrid =>” in Planner.plan"
    )
    long = "x = " + "a" * 80
    assert (
        words(f"pkg.mod.f::{long}", "pkg/mod.py", "statement")
        == f"statement “{long[: MATCH_LIMIT - 1]}…” in f"
    )


@pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
def test_the_pdf_prints_compact_locations_the_commit_once_and_a_source_table(
    printed: tuple[Book, str],
) -> None:
    book, sha = printed
    latex = book.build(builder="latex", out="latex").outdir
    records = records_of(latex, sha)
    tex = next(latex.glob("*.tex")).read_text("utf-8")
    assert "\\footnote" not in tex  # no permalink footnotes: at most a quarter of a page is nothing
    # What `make pdf` runs: Sphinx's own Makefile in the LaTeX directory (latexmk, xelatex).
    pdf, text = latex_pdf(latex)
    log = pdf.with_suffix(".log").read_text("utf-8", errors="replace")
    assert "Missing character" not in log  # every CJK character has a glyph
    body = flat(text)
    assert flat(BOOK_CONF["project"]) in body and "目录" in body  # the title page and the contents
    assert PREVIEW not in body  # the web build's banner only
    # The print notice on page 1, the title page (pdftotext ends a page with a form feed).
    assert flat(BOOK_CONF["PRINT_PREVIEW_NOTICE"]) in flat(text.split("\f", 1)[0])
    # The commit, once, under the chapter's title; the table at its end.
    start, end = (
        body.index("本章的源码位置都指固定提交"),
        body.rindex("本章源码位置"),
    )  # the note; the table's title
    chapter, table = body[start:end], body[end + len("本章源码位置") :]
    assert chapter.count(sha) == 1 and chapter.index(f"up的提交{sha}") < chapter.index("入口是")
    for record in records:
        compact = f"mod.py:{record['where'].split(':', 1)[1].split('@')[0].replace('–L', '–')}"
        if record["label"] == CARD:
            assert (
                record["where"].split("@")[0] in chapter
            )  # the card's own line: repo@sha · path:Lx–Ly
            continue
        assert flat(record["label"]) + f"({compact})" in chapter, (record["label"], compact)
        assert record["permalink"] not in chapter
    prefix = (
        f"https://example.org/blob/{sha}/pkg/"  # what every permalink of the chapter begins with
    )
    assert table.startswith("下列链接都以下面这一行开头") and prefix in table
    rows = table.split(prefix, 1)[1]
    assert rows.lstrip("•").startswith("mod.py：")
    fragments = {"#" + r["permalink"].split("#", 1)[1] for r in records}
    assert len(re.findall(r"#L\d+-L\d+", rows)) == len(fragments)
    # Each fragment once, followed by what it points at (kind, name in its file, match text), not
    # only by a label: a permalink two anchors share lists both targets.
    for record in records:
        fragment = "#" + record["permalink"].split("#", 1)[1]
        assert len(re.findall(re.escape(fragment) + r"(?!\d)", rows)) == 1, fragment
        assert fragment + TARGET_WORDS[record["target"].split(":", 1)[1]] in rows, record["target"]
    for record in records:
        assert (
            "\\sphinxhref{" + record["permalink"].replace("#", "\\#") + "}" in tex
        )  # each entry links there


def test_the_epub_shows_every_location_and_lists_the_permalinks(printed: tuple[Book, str]) -> None:
    book, sha = printed
    epub = book.build(builder="epub", out="epub").outdir  # strict: no warning
    records = records_of(epub, sha)
    pages = [path.read_text("utf-8") for path in Path(epub).rglob("*.xhtml")]
    text = html.unescape(re.sub(r"<[^>]+>", "", "".join(pages)))
    notes = [
        html.unescape(note)
        for page in pages
        for note in re.findall(r'role="doc-footnote">(.*?)</aside>', page, re.DOTALL)
    ]
    for record in records:
        if record["label"] == CARD:
            assert re.search(re.escape(flat(CARD)) + r"(\[#\d+\])?up@", flat(text)), "the card"
            assert record["where"].split("@")[0] in text
        else:
            assert f"{record['label']} ({record['where']})" in text, record  # readers cannot hover
        if record["label"] != CARD:  # each chip's note says what it points at, then the permalink
            words = TARGET_WORDS[record["target"].split(":", 1)[1]]
            assert any(f"<p>{words}—{record['permalink']}</p>" in flat(note) for note in notes), (
                record
            )
        assert any(record["permalink"] in note for note in notes), record["permalink"]
    (archive,) = Path(epub).glob("*.epub")
    assert archive.stat().st_size > 0
    assert (
        PREVIEW not in text and "本章源码位置" not in text
    )  # the banner is the web build's; the table the PDF's
