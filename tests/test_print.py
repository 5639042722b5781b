"""The PDF (xelatex, xeCJK) and the EPUB of a small Chinese book made with the book's own print settings.

The PDF is read back with ``pdftotext``: every anchor's label is followed by ``(path:Lx–Ly@sha)``
and a footnote mark, and that footnote holds the anchor's permalink (an anchor in a section title
has the location only; a card's title has the footnote, its next line the location). The EPUB's
XHTML shows ``label (path:Lx–Ly@sha)`` as text and lists each permalink in a footnote of the
chapter. Skipped, with the reason, where xelatex, latexmk, pdftotext or the Noto CJK fonts are
missing (``make print-packages`` installs them). ``make pdf`` and ``make epub`` build the book.
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
from helpers import ROOT, Book, SharedUpstream


def missing_reason() -> str | None:
    """Why the PDF cannot be built here, or None."""
    tools = [tool for tool in ("xelatex", "latexmk", "pdftotext", "fc-list") if shutil.which(tool) is None]
    if tools:
        return f"{', '.join(tools)} not found (make print-packages installs the Debian packages)"
    fonts = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True, check=False).stdout
    if "Noto Serif CJK SC" not in fonts:
        return "the Noto CJK fonts are missing (Debian fonts-noto-cjk; make print-packages)"
    return None


SKIP = missing_reason()

#: The book's own title, language and print settings (conf.py at the repository's root).
BOOK_CONF = runpy.run_path(str(ROOT / "conf.py"))
PRINT_SETTINGS = {key: value for key, value in BOOK_CONF.items()
                  if key.startswith(("latex_", "epub_")) or key in ("project", "author", "copyright",
                                                                    "version", "release", "language")}

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
CARD = "delta 卡片"  # a card: its title, a footnote, then "repo@sha · path:Lx–Ly" on its own line


@pytest.fixture
def printed(shared_upstream: SharedUpstream, book: Book) -> tuple[Book, str]:
    """The book with the print settings, and the commit it pins."""
    sha = shared_upstream.commits["build-v1"]
    book.repos = {"up": {"url": shared_upstream.url, "commit": sha, "packages": ["pkg"], "host": "github",
                         "permalink": "https://example.org/blob/{commit}/{path}#L{start}-L{end}"}}
    book.settings = dict(PRINT_SETTINGS)
    book.write_conf(default_repo="up")
    book.page("index", PAGE)
    return book, sha


def records_of(outdir: Path, sha: str) -> list[dict[str, Any]]:
    """The anchor records of the build in *outdir* (its ``source-anchors.json``, which every builder
    writes), each with the location it prints."""
    records: list[dict[str, Any]] = json.loads((outdir / "source-anchors.json").read_text("utf-8"))
    for record in records:
        lines = f"L{record['start']}" + (f"–L{record['end']}" if record["end"] != record["start"] else "")
        record["where"] = f"{record['path']}:{lines}@{sha[:7]}"
    assert len(records) == 6
    return records


def flat(text: str) -> str:
    """The text without white space: pdftotext breaks lines, and spaces out stretched CJK lines."""
    return re.sub(r"\s+", "", text)


@pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
def test_the_pdf_prints_every_location_and_each_permalink_as_a_footnote(
        printed: tuple[Book, str]) -> None:
    book, sha = printed
    latex = book.build(builder="latex", out="latex").outdir
    records = records_of(latex, sha)
    # What `make pdf` runs: Sphinx's own Makefile in the LaTeX directory (latexmk, xelatex).
    done = subprocess.run(["make", "-C", str(latex), "LATEXMKOPTS=-silent",
                           "LATEXOPTS=-interaction=nonstopmode -halt-on-error"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (pdf,) = latex.glob("*.pdf")
    log = pdf.with_suffix(".log").read_text("utf-8", errors="replace")
    assert "Missing character" not in log  # every CJK character has a glyph
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    body = flat(text)
    assert flat(BOOK_CONF["project"]) in body and "目录" in body  # the title page and the contents
    notes = 0
    for record in records:
        where = f"({record['where']})"
        if record["label"] == CARD:
            mark = re.search(re.escape(flat(CARD)) + r"(\d+)up@", body)
            assert mark is not None and mark.group(1) + record["permalink"] in body, "the card's footnote"
            assert record["where"].split("@")[0] in body
            notes += 1
            continue
        assert flat(record["label"]) + where in body, record
        if record["label"] in IN_TITLE:
            continue  # a section title is a moving argument: no footnote there
        mark = re.search(re.escape(where) + r"(\d+)", body)
        assert mark is not None, f"no footnote mark after {where}"
        assert mark.group(1) + record["permalink"] in body, f"footnote {mark.group(1)} lacks {record['permalink']}"
        notes += 1
    assert notes == 5


def test_the_epub_shows_every_location_and_lists_the_permalinks(printed: tuple[Book, str]) -> None:
    book, sha = printed
    epub = book.build(builder="epub", out="epub").outdir  # strict: no warning
    records = records_of(epub, sha)
    pages = [path.read_text("utf-8") for path in Path(epub).rglob("*.xhtml")]
    text = html.unescape(re.sub(r"<[^>]+>", "", "".join(pages)))
    notes = [html.unescape(note) for page in pages
             for note in re.findall(r'role="doc-footnote">(.*?)</aside>', page, re.DOTALL)]
    for record in records:
        if record["label"] == CARD:
            assert re.search(re.escape(flat(CARD)) + r"(\[#\d+\])?up@", flat(text)), "the card"
            assert record["where"].split("@")[0] in text
        else:
            assert f"{record['label']} ({record['where']})" in text, record  # readers cannot hover
        assert any(record["permalink"] in note for note in notes), record["permalink"]
    (archive,) = Path(epub).glob("*.epub")
    assert archive.stat().st_size > 0
