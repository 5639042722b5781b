"""The generated pages: source ledger, licence notes, feedback line, author's guide tables."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from helpers import ROOT, Book, SharedUpstream, git

Project = tuple[SharedUpstream, Book, str]


@pytest.fixture
def project(shared_upstream: SharedUpstream, book: Book) -> Project:
    """tests/roots/test-ledger pinned to the session upstream's "ledger" tree (read-only).

    That tree: pkg/mod.py (compute_total, other), our own MIT LICENSE, web/vendor/LICENSE.txt,
    web/static/app.min.js and docs/logo.png.
    """
    assert shared_upstream.text("ledger", "LICENSE") == (ROOT / "LICENSE").read_text(
        "utf-8"
    )  # our own MIT text
    sha = shared_upstream.commits["ledger"]
    book.repos = {"up": {"url": shared_upstream.url, "commit": sha, "packages": ["pkg"]}}
    # The generated words come from the zh_CN catalog, as in this book; the search index stays
    # English (a Chinese one loads jieba's dictionary, about a second per build).
    book.settings = {"language": "zh_CN", "html_search_language": "en"}
    book.write_conf(default_repo="up", feedback_email="book@example.org")
    book.from_root("ledger")
    return shared_upstream, book, sha


def text_of(html: Path) -> str:
    body = html.read_text("utf-8").split('<div class="body"', 1)[-1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_ledger_lists_repository_locations_and_back_links(project: Project) -> None:
    _, book, sha = project
    result = book.build()
    assert result.returncode == 0, result.stderr
    html = (result.outdir / "ledger.html").read_text("utf-8")
    text = text_of(result.outdir / "ledger.html")
    assert "git：按提交导出" in text and "MIT（score" in text
    assert f'href="{book.repos["up"]["url"]}/blob/{sha}/"' in html  # the pinned commit, linked
    assert "pkg/mod.py" in text and "L1–L3" in text
    assert 'href="chapter.html#sa-1"' in html  # back to the citing place
    assert "逐字复现的上游代码行（仅计实际内容行）：0" in text


def test_ledger_stays_current_on_incremental_builds(project: Project) -> None:
    _, book, _ = project
    assert book.build().returncode == 0
    assert book.build().returncode == 0  # the first build's anchors were new: now they are locked
    book.page("more", "# More\n\nAnd {src}`other <pkg.mod.other>`.\n")
    result = book.build()
    assert result.returncode == 0, result.stderr
    html = (result.outdir / "ledger.html").read_text("utf-8")
    assert 'href="more.html#sa-1"' in html
    assert re.findall(r"reading sources\.\.\. \[\s*\d+%\] (\S+)", result.stdout) == ["more"]


def test_licence_notes_identify_and_list_what_awaits_review(project: Project) -> None:
    _, book, sha = project
    result = book.build()
    text = text_of(result.outdir / "licences.html")
    assert "LICENSE — MIT（score 1.00）" in text or "LICENSE — MIT（score 0.9" in text
    assert "其他许可/版权声明文件（按文件名找到 1 个）" in text and "web/vendor/LICENSE.txt" in text
    assert "web/static/app.min.js" in text and "docs/logo.png" in text
    assert "pkg/mod.py" not in text
    assert (
        "本仓库（书稿与扩展）自身的许可证：" not in text
    )  # this test book has no LICENSE of its own
    html = (result.outdir / "licences.html").read_text("utf-8")
    assert f"/blob/{sha}/LICENSE" in html


def test_reproduced_upstream_lines_are_counted_and_warned(project: Project) -> None:
    _, book, _ = project
    book.page(
        "more",
        "# More\n\n```python\nsubtotal = sum(item.price for item in items)\nreturn []\n```\n",
    )
    result = book.build(strict=False)
    assert "逐字复现的上游代码行（仅计实际内容行）：1" in text_of(result.outdir / "ledger.html")
    warnings = [w for w in result.warnings() if "reproduced" in w]
    assert len(warnings) == 1 and "more.md:3" in warnings[0] and "up:pkg/mod.py:2" in warnings[0]
    book.write_conf(default_repo="up", feedback_email="book@example.org", reproduced_lines_max=1)
    assert book.build(fresh=True).returncode == 0


def test_feedback_line_by_mail_names_chapter_and_pin(project: Project) -> None:
    _, book, sha = project
    result = book.build()
    html = (result.outdir / "chapter.html").read_text("utf-8")
    mailto = re.search(r'href="(mailto:[^"]+)"', html)
    assert mailto is not None
    link = unquote(unescape(mailto.group(1)))  # Sphinx cloaks addresses: entities and %40
    assert link.startswith(f"mailto:book@example.org?subject=[反馈] Totals @ up@{sha[:7]}&body=")
    assert f"固定提交：up@{sha}" in link and "我看到的：" in link
    assert 'href="feedback.html"' in html


def _issue_links(html: str) -> list[dict[str, list[str]]]:
    return [
        parse_qs(urlsplit(unescape(href)).query)
        for href in re.findall(r'href="(https://github\.com/example/book/issues/new\?[^"]+)"', html)
    ]


def test_reports_open_a_prefilled_issue_in_the_books_repository(project: Project) -> None:
    _, book, sha = project
    book.write_conf(default_repo="up", feedback_repo="https://github.com/example/book")
    result = book.build()
    (chapter,) = _issue_links((result.outdir / "chapter.html").read_text("utf-8"))
    assert chapter["title"] == [f"[反馈] Totals @ up@{sha[:7]}"]
    assert (
        "页面：Totals (chapter)" in chapter["body"][0]
        and f"固定提交：up@{sha}" in chapter["body"][0]
    )
    (page,) = _issue_links((result.outdir / "feedback.html").read_text("utf-8"))
    assert "我看到的：" in page["body"][0]
    assert "本书的仓库" in text_of(result.outdir / "feedback.html")
    assert "Each report link opens a prefilled report." in text_of(result.outdir / "feedback.html")
    # Each anchor's line in the ledger: a report naming the page, the anchor, where it points and
    # the pin.
    ledger = (result.outdir / "ledger.html").read_text("utf-8")
    anchors = _issue_links(ledger)
    assert len(anchors) == len(re.findall(r'class="[^"]*sa-backlink', ledger)) >= 1
    body = next(a["body"][0] for a in anchors if "computed" in a["title"][0])
    assert (
        "锚点：computed (up:pkg.mod.compute_total)" in body and "它指向：pkg/mod.py:L1–L3" in body
    )
    assert f"/blob/{sha}/pkg/mod.py#L1-L3" in body and "页面：chapter:" in body
    assert not any("mailto:" in href for href in re.findall(r'href="([^"]+)"', ledger))


def test_without_a_channel_the_pages_say_so_and_the_log_notes_it_once(project: Project) -> None:
    _, book, _ = project
    book.write_conf(default_repo="up")
    result = book.build()  # -W: a book without a public home yet still builds strictly
    notes = [line for line in result.stdout.splitlines() if "no feedback channel" in line]
    assert (
        len(notes) == 1 and "2 page(s)" in notes[0] and "source_anchors_feedback_repo" in notes[0]
    )
    for page in ("chapter", "feedback"):
        assert "本书尚未设置反馈渠道，暂时无法从这里报告问题。" in text_of(
            result.outdir / f"{page}.html"
        )
    assert "报告问题" not in text_of(result.outdir / "ledger.html")
    # The page's own words about report links are the directive's content: without a channel, not
    # shown.
    assert "prefilled report" not in text_of(result.outdir / "feedback.html")


@pytest.mark.parametrize(
    ("variables", "origin"),
    [
        ({"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "example/book"}, None),
        ({"READTHEDOCS_GIT_CLONE_URL": "https://github.com/example/book.git"}, None),
        ({}, "git@github.com:example/book.git"),
        ({}, "https://github.com/example/book.git"),
        # The service's own variable names the repository being built, before a clone's origin.
        (
            {"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "example/book"},
            "/somewhere/else.git",
        ),
    ],
)
def test_unset_the_channel_is_the_repository_the_book_is_built_from(
    project: Project, monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], origin: str | None
) -> None:
    _, book, sha = project
    book.write_conf(default_repo="up")
    if origin is not None:
        git("init", "-q", "-b", "main", cwd=book.root)
        git("add", "-A", cwd=book.root)
        git("commit", "-q", "-m", "book", cwd=book.root)
        git("remote", "add", "origin", origin, cwd=book.root)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    result = book.build()
    (chapter,) = _issue_links((result.outdir / "chapter.html").read_text("utf-8"))
    assert chapter["title"] == [f"[反馈] Totals @ up@{sha[:7]}"]
    assert "本书尚未设置反馈渠道" not in text_of(result.outdir / "feedback.html")
    (note,) = [line for line in result.stdout.splitlines() if "reports go to" in line]
    assert "https://github.com/example/book (from " in note
    assert (
        "GITHUB_REPOSITORY"
        if variables.get("GITHUB_REPOSITORY")
        else "READTHEDOCS"
        if variables
        else "'origin' remote"
    ) in note


def test_gitlab_ci_files_reports_in_its_project(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, book, _ = project
    book.write_conf(default_repo="up")
    monkeypatch.setenv("CI_PROJECT_URL", "https://gitlab.com/example/book")
    html = (book.build().outdir / "feedback.html").read_text("utf-8")
    assert 'href="https://gitlab.com/example/book/-/issues/new?issue%5Btitle%5D=' in html


def test_an_origin_that_is_a_path_or_an_unknown_host_gives_no_channel(project: Project) -> None:
    _, book, _ = project
    book.write_conf(default_repo="up")
    git("init", "-q", "-b", "main", cwd=book.root)
    git("add", "-A", cwd=book.root)
    git("commit", "-q", "-m", "book", cwd=book.root)
    git("remote", "add", "origin", "/srv/git/book.git", cwd=book.root)
    for origin in ("/srv/git/book.git", "https://example.org/example/book.git"):
        git("remote", "set-url", "origin", origin, cwd=book.root)
        result = book.build(fresh=True)
        assert "本书尚未设置反馈渠道" in text_of(result.outdir / "feedback.html"), origin


@pytest.mark.parametrize(
    "value",
    [
        "http://github.com/example/book",
        "https://example.org/example/book",
        "https://github.com/",
        3,
    ],
)
def test_a_repository_that_cannot_take_reports_is_refused(project: Project, value: object) -> None:
    _, book, _ = project
    book.write_conf(default_repo="up", feedback_repo=value)
    with pytest.raises(SystemExit):
        book.build(strict=False)
    assert "source_anchors_feedback_repo" in book.last_warnings.getvalue()


def test_gitlab_takes_the_title_and_description_of_its_own_form() -> None:
    from source_anchors.model.issuelinks import issue_url

    url = issue_url("https://gitlab.com/example/book.git", "标题 1", "行一\n行二")
    assert url.startswith("https://gitlab.com/example/book/-/issues/new?")
    assert parse_qs(urlsplit(url).query) == {
        "issue[title]": ["标题 1"],
        "issue[description]": ["行一\n行二"],
    }


def test_guide_tables_are_generated_from_the_code(
    book: Book, shared_upstream: SharedUpstream
) -> None:
    from source_anchors.model.config import option_names
    from source_anchors.sphinx_ext.diagnostics import Subtype, subtype_docs

    commit = shared_upstream.commits["build-v1"]  # any pin with a package will do
    book.repos = {"up": {"url": shared_upstream.url, "commit": commit, "packages": ["pkg"]}}
    book.write_conf()
    book.page(
        "index",
        "# Guide\n\n```{source-anchors-config}\n```\n\n```{source-anchors-diagnostics}\n```\n",
    )
    result = book.build()
    assert result.returncode == 0, result.stderr
    text = text_of(result.outdir / "index.html")
    for name in option_names():
        assert name in text
    docs = dict(subtype_docs())
    assert len(docs) == len(Subtype)
    for name, doc in docs.items():
        first_words = " ".join(doc.replace("'", "’").split()[:3])
        assert name in text and first_words in text
