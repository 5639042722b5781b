"""The words the extension generates follow the book's language: English by default, zh_CN from its catalog."""

from __future__ import annotations

import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from helpers import ROOT, Book, SharedUpstream

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def body(html: Path) -> str:
    return html.read_text("utf-8").split('<div class="body"', 1)[-1]


@pytest.fixture
def ledger_book(shared_upstream: SharedUpstream, book: Book) -> Book:
    sha = shared_upstream.commits["ledger"]
    book.repos = {"up": {"url": shared_upstream.url, "commit": sha, "packages": ["pkg"]}}
    book.from_root("ledger")
    return book


@pytest.mark.parametrize("language", [None, "en", "fr"])
def test_a_book_in_another_language_gets_english_words_and_no_cjk(
    ledger_book: Book, language: str | None
) -> None:
    ledger_book.settings = {"language": language} if language else {}
    ledger_book.write_conf(default_repo="up", feedback_email="book@example.org")
    out = ledger_book.build().outdir
    for page in ("ledger", "licences", "chapter"):
        found = CJK.findall(body(out / f"{page}.html"))
        assert not found, f"{page}.html holds {''.join(found)!r}"
    assert "Pinned commit" in body(out / "ledger.html")
    assert "await a final rights review" in body(out / "licences.html")
    assert "Report a problem in this chapter" in body(out / "chapter.html")
    assert "subject=%5Bfeedback%5D%20Totals%20%40%20up%40" in unescape(body(out / "chapter.html"))


def test_a_chinese_book_gets_the_catalog_words(ledger_book: Book) -> None:
    ledger_book.settings = {
        "language": "zh_CN",
        "html_search_language": "en",
    }  # no jieba: ~1 s per build
    ledger_book.write_conf(default_repo="up", feedback_email="book@example.org")
    out = ledger_book.build().outdir
    assert "固定提交" in body(out / "ledger.html") and "Pinned commit" not in body(
        out / "ledger.html"
    )
    assert "报告本章的问题" in body(out / "chapter.html")


def test_the_committed_catalog_is_its_po_compiled() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "catalogs.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
