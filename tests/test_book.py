"""This repository's book, built strictly from a cold anchor cache, as CI builds it.

The build is the session's ``the_book`` (``helpers.build_the_book``: ``CI=true``, ``-nW --keep-going
-E``), made once per run and shared with the browser tests, which open its pages.
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
    summary = re.search(
        r"source-anchors: (\d+) anchors resolved, (\d+) from the resolution cache", the_book.stdout
    )
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
    docs = [
        path.relative_to(ROOT / "source").with_suffix(".html")
        for path in (ROOT / "source").rglob("*.md")
    ]
    pages = [the_book.outdir / doc for doc in [*docs, Path("genindex.html"), Path("search.html")]]
    assert len(pages) >= 8
    for page in pages:
        banner = re.search(
            r'<div class="[^"]*bd-header-announcement[^"]*"[^>]*>(.*?)</div>',
            page.read_text("utf-8"),
            re.S,
        )
        assert banner is not None and "在线预览稿" in banner.group(1), page.name


def test_the_licence_page_shows_every_package_json_and_the_conflicts_they_add(
    the_book: BuildResult,
) -> None:
    text = _text((the_book.outdir / "licences.html").read_text("utf-8"))
    facts = {
        "multi_agents/package.json:L11": "ISC",
        "docs/discord-bot/package.json:L20": "ISC",
        "docs/npm/package.json:L23": "MIT",
        "frontend/nextjs/package.json:L98": "MIT",
        "frontend/nextjs/package.lib.json:L89": "MIT",
    }
    for where, spdx in facts.items():
        assert f'{where} — "license"：{spdx} → {spdx}（取自事实记录，blob' in text, where
        assert f"不一致： {where} 声明为 {spdx}；许可证文本为 Apache-2.0。" in text, where
    assert 'docs/package.json:L4 — "private"：true → 未声明许可证' in text
    assert (
        "未读取" not in text and "Could not resolve host" not in text and "github.com:" not in text
    )
    third = text.split("已知的第三方素材", 1)[1].split("尚待权益终审：", 1)[0]
    for path in (
        "frontend/nextjs/public/workbox-f1770938.js",
        "evals/README.md",
        "evals/simple_evals/problems/Simple QA Test Set.csv",
        "frontend/nextjs/public/img/github.svg",
        "evals/hallucination_eval/results/evaluation_records.jsonl",
    ):
        assert path in third, path
    assert "Workbox 7.0.0" in third


def test_the_licence_page_lists_every_licence_and_copyright_the_files_state(
    the_book: BuildResult,
) -> None:
    text = _text((the_book.outdir / "licences.html").read_text("utf-8"))
    flat = re.sub(r"\s+", "", text)
    inside = flat.split("文件内的许可与版权声明（5个文件）", 1)[1].split("已知的第三方素材", 1)[0]
    for line in (
        "frontend/nextjs/public/img/news.svg—署名：元数据写明作者为JakubJankiewicz(L19);"
        "署名：元数据写明权利人为JakubJankiewicz(L24);文件内声明的许可证：CC-BY-SA-3.0，相同方式共享（share-alike）许可，由其<cc:license>"
        "元数据声明（http://creativecommons.org/licenses/by-sa/3.0/）(L30)",
        "frontend/nextjs/components/Footer.tsx—版权声明：原文「©{newDate().getFullYear()}GPTResearcher.All"
        "rightsreserved.」(L31)",
        "frontend/nextjs/components/layouts/MobileLayout.tsx—版权声明：原文「©{newDate().getFullYear()}"
        "GPTResearcher.Allrightsreserved.」(L343)",
        "docs/docusaurus.config.mjs—版权声明：原文「Copyright©${newDate().getFullYear()}GPTResearcher.」(L88)",
        "根许可证之外，文件内声明的许可证：frontend/nextjs/public/img/news.svg:L30CC-BY-SA-3.0。",
    ):
        assert line in inside, line
    third = flat.split("已知的第三方素材", 1)[1].split("尚待权益终审：", 1)[0]
    for line in (
        "frontend/nextjs/public/img/news.svg—文件自述的来源：来自SVGRepo，凭其标记「Uploadedto:SVGRepo」(L2)",
        "frontend/nextjs/public/img/search.svg—文件自述的来源：来自Lucide，凭其标记「lucidelucide-search」(L1)",
        "来自EmojiOne，凭其标记「iconify--emojione-monotone」(L1)",
        "tests/vector-store.py—改编自他处：一条「改编自」声明，指向https://paulgraham.com/persistence.html(L12)",
    ):
        assert line in third, line
    assert third.count("来自SVGRepo") == 20
    assert (
        "其他许可/版权声明文件（按文件名找到0个；另有5个文件在文内声明许可或版权，见上文）" in flat
    )
    assert "LICENSE—Apache-2.0" in flat
    assert (
        "构建从gpt-researcher==0.15.1的gpt_researcher-0.15.1-py3-none-any.whl中读取它，即gpt_researcher-0.15.1"
        ".dist-info/licenses/LICENSE：blob261eeb9e9f8b，与提交中的LICENSE相同。" in flat
    )


def test_reports_go_to_the_books_repository_and_no_page_names_an_address_that_cannot_receive_mail(
    the_book: BuildResult,
) -> None:
    pages = {page: page.read_text("utf-8") for page in the_book.outdir.rglob("*.html")}
    assert not any(
        re.search(r"[\w.+-]+@[\w-]+(\.[\w-]+)*\.example\b", text) for text in pages.values()
    )
    assert not any("mailto:" in text for text in pages.values())
    # conf.py names no repository: the build takes the one it is built from (here the clone's
    # origin, when that is on GitHub or GitLab), or the pages say there is no channel.
    origin = subprocess.run(
        ["git", "config", "--get", "remote.origin.url"], cwd=ROOT, capture_output=True, text=True
    ).stdout
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
    assert (
        ledger.count("/issues/new?") == ledger.count('class="sa-backlink reference external"') > 200
    )


def test_step_0_links_the_front_end_at_the_pin_from_the_lock_and_the_ledger_says_so(
    the_book: BuildResult,
) -> None:
    # The build reads the wheel, which has no frontend/, and git's host is out of reach: the lock
    # records made where git was reachable give these lines (engine.unchanged.from_lock).
    chapter = (the_book.outdir / "gpt-researcher" / "hybrid.html").read_text("utf-8")
    lock = json.loads((ROOT / "source-anchors.lock").read_text("utf-8"))["anchors"]
    front = {
        key: record
        for key, record in lock["gpt-researcher"].items()
        if record["path"].startswith("frontend/")
    }
    assert len(front) >= 5 and all(record.get("kind") for record in front.values())
    commit = next(iter(front.values()))["commit"]
    base = f"https://github.com/assafelovic/gpt-researcher/blob/{commit}/"
    for record in front.values():
        start, end = record["start"], record["end"]
        lines = f"L{start}" if start == end else f"L{start}-L{end}"
        assert f'href="{base}{record["path"]}#{lines}"' in chapter, record
    ledger = _text((the_book.outdir / "ledger.html").read_text("utf-8"))
    said = re.search(r"锁文件（在能访问 git 处按提交解析）：([^，]+)，", ledger)
    assert said, ledger[:2000]
    assert set(said[1].split(", ")) == {record["path"] for record in front.values()}
