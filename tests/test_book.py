"""This repository's book, built strictly from a cold anchor cache, as CI builds it.

The build is the session's ``the_book`` (``helpers.build_the_book``: ``CI=true``, ``-nW --keep-going -E``),
made once per run and shared with the browser tests, which open its pages.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path

from helpers import ROOT, BuildResult


def test_the_book_builds_strictly_and_locked_from_a_cold_cache(the_book: BuildResult) -> None:
    assert the_book.returncode == 0, f"{the_book.stdout[-3000:]}\n{the_book.stderr[-5000:]}"
    assert not the_book.warnings(), "\n".join(the_book.warnings())
    assert "build succeeded" in the_book.stdout
    summary = re.search(r"source-anchors: (\d+) anchors resolved, (\d+) from the resolution cache", the_book.stdout)
    assert summary, the_book.stdout[-3000:]
    locked = json.loads((ROOT / "source-anchors.lock").read_text("utf-8"))["anchors"]
    entries = sum(len(anchors) for anchors in locked.values())
    # Resolved afresh (the cache was empty): every citation, at least one per locked anchor.
    assert int(summary[1]) >= entries and summary[2] == "0", (summary[0], entries)
    for page in ("index", "gpt-researcher/hybrid", "ledger", "licences", "guide"):
        assert (the_book.outdir / f"{page}.html").is_file(), page


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def test_every_page_of_the_preview_carries_the_preview_notice(the_book: BuildResult) -> None:
    docs = [path.relative_to(ROOT / "source").with_suffix(".html") for path in (ROOT / "source").rglob("*.md")]
    pages = [the_book.outdir / doc for doc in [*docs, Path("genindex.html"), Path("search.html")]]
    assert len(pages) >= 8
    for page in pages:
        banner = re.search(r'<div class="[^"]*bd-header-announcement[^"]*"[^>]*>(.*?)</div>',
                           page.read_text("utf-8"), re.S)
        assert banner is not None and "在线预览稿" in banner.group(1), page.name


def test_the_licence_page_shows_every_package_json_and_the_conflicts_they_add(the_book: BuildResult) -> None:
    text = _text((the_book.outdir / "licences.html").read_text("utf-8"))
    facts = {"multi_agents/package.json:L11": "ISC", "docs/discord-bot/package.json:L20": "ISC",
             "docs/npm/package.json:L23": "MIT", "frontend/nextjs/package.json:L98": "MIT",
             "frontend/nextjs/package.lib.json:L89": "MIT"}
    for where, spdx in facts.items():
        assert f'{where} — "license"：{spdx} → {spdx}（取自事实记录，blob' in text, where
        assert f"不一致： {where} 声明为 {spdx}；许可证文本为 Apache-2.0。" in text, where
    assert 'docs/package.json:L4 — "private"：true → 未声明许可证' in text
    assert "未读取" not in text and "Could not resolve host" not in text and "github.com:" not in text
    third = text.split("已知的第三方素材", 1)[1].split("尚待权益终审：", 1)[0]
    for path in ("frontend/nextjs/public/workbox-f1770938.js", "evals/README.md",
                 "evals/simple_evals/problems/Simple QA Test Set.csv", "frontend/nextjs/public/img/github.svg",
                 "evals/hallucination_eval/results/evaluation_records.jsonl"):
        assert path in third, path
    assert "Workbox 7.0.0" in third


def test_reports_go_to_the_books_repository_and_no_page_names_an_address_that_cannot_receive_mail(
        the_book: BuildResult) -> None:
    pages = {page: page.read_text("utf-8") for page in the_book.outdir.rglob("*.html")}
    assert not any(re.search(r"[\w.+-]+@[\w-]+(\.[\w-]+)*\.example\b", text) for text in pages.values())
    assert not any("mailto:" in text for text in pages.values())
    # conf.py names no repository: the build takes the one it is built from (here the clone's origin,
    # when that is on GitHub or GitLab), or the pages say there is no channel.
    origin = subprocess.run(["git", "config", "--get", "remote.origin.url"], cwd=ROOT, capture_output=True,
                            text=True).stdout
    public = re.match(r"(https://|git@)(github|gitlab)\.com[/:]", origin.strip())
    feedback = pages[the_book.outdir / "feedback.html"]
    chapter = pages[the_book.outdir / "gpt-researcher" / "hybrid.html"]
    ledger = pages[the_book.outdir / "ledger.html"]
    if not public:
        assert "本书尚未设置反馈渠道，暂时无法从这里报告问题。" in feedback
        assert not any("/issues/new?" in text for text in pages.values())
        return
    assert re.search(r'href="https://git(hub|lab)\.com/[^"/]+/[^"/]+/(-/)?issues/new\?', feedback)
    assert chapter.count("/issues/new?") == 1
    assert ledger.count("/issues/new?") == ledger.count('class="sa-backlink reference external"') > 200
