"""What an outside author hit (issue 28, second half): each test failed before its fix.

Books are built in-process (``make_app``) unless the output of ``sphinx-build`` or the CLI itself is
what is checked; upstream repositories are made here with git.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections import Counter
from html import unescape
from pathlib import Path
from typing import ClassVar

import pytest
from helpers import PROXIES, ROOT, Book, Upstream, git, run_cli, write_conf
from source_anchors.core.hosts import template_for

API = '''\
from ._client import *

__all__ = ["Client", "send"]
'''

CLIENT = '''\
__all__ = ["Client"]


class BaseClient:
    pass


class Client(BaseClient):
    def send(self, request):
        return request

    async def fetch(self):
        return 1
'''


@pytest.fixture
def up(upstream: Upstream) -> tuple[Upstream, str]:
    upstream.write("httpx/__init__.py", API)
    upstream.write("httpx/_client.py", CLIENT)
    upstream.write("docs/index.md", "# Title\n\nSome prose.\n\nThe line we link.\n")
    upstream.write("data/table.csv", "a,b\n1,2\n3,4\n")
    upstream.write("setup.cfg", "[metadata]\nname = httpx\n")
    return upstream, upstream.commit("v1")


def _book(book: Book, up: tuple[Upstream, str], **values: object) -> Book:
    upstream, sha = up
    book.repos = {"httpx": {"url": upstream.url, "commit": sha, "packages": ["httpx"]}}
    book.write_conf(default_repo="httpx", **values)
    return book


# 3 -- line links into files the host renders ----------------------------------------------------------


def test_line_links_into_rendered_files_ask_for_the_source_view(book: Book, up: tuple[Upstream, str]) -> None:
    upstream, sha = up
    _book(book, up)
    book.page("index", "# Book\n\n{src}`/docs/index.md::The line we link` {src}`/data/table.csv::3,4` "
                       "{src}`/setup.cfg::name =` {src}`/docs/index.md`\n")
    html = book.build().html()
    base = f"{upstream.url}/blob/{sha}"
    assert f'href="{base}/docs/index.md?plain=1#L5"' in html
    assert f'href="{base}/data/table.csv?plain=1#L3"' in html
    assert f'href="{base}/setup.cfg#L2"' in html  # not rendered: the plain link
    assert f'href="{base}/docs/index.md"' in html  # the whole file: rendered is what a reader wants


@pytest.mark.parametrize(("url", "host", "permalink", "expected"), [
    ("https://github.com/o/r", None, None, "https://github.com/o/r/blob/c/docs/a.md?plain=1#L3-L4"),
    ("https://gitlab.com/o/r", None, None, "https://gitlab.com/o/r/-/blob/c/docs/a.md?plain=1#L3-4"),
    # A user's template has no known source-view form: it is used as written (docs/sources.md says so).
    ("https://codeberg.org/o/r", None, "{url}/src/commit/{commit}/{path}#L{start}-L{end}",
     "https://codeberg.org/o/r/src/commit/c/docs/a.md#L3-L4"),
])
def test_each_host_links_rendered_files_to_their_source_view(url: str, host: str | None, permalink: str | None,
                                                              expected: str) -> None:
    template = template_for(url=url, host=host, permalink=permalink, where="t")
    assert template.render(url=url, commit="c", path="docs/a.md", start=3, end=4) == expected
    assert "plain" not in template.render(url=url, commit="c", path="docs/a.py", start=3, end=4)
    assert "plain" not in template.render(url=url, commit="c", path="docs/a.md", start=None, end=None)


# 4 -- every name offered as closest resolves ------------------------------------------------------------


def test_closest_offers_only_names_that_resolve(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.BaseClient`\n")
    warnings = book.build(strict=False).warnings()
    assert len(warnings) == 1, warnings
    # BaseClient is bound in httpx._client, which httpx star-imports, but its __all__ leaves it out.
    offered = warnings[0].split("closest: ")[1].split(" [")[0].split("; ")[0].split(", ")
    assert offered == ["httpx.Client"], warnings
    book.page("index", "# Book\n\n" + " ".join(f"{{src}}`{name}`" for name in offered) + "\n")
    book.build()


# 7 -- role typos that the parser shows as text ------------------------------------------------------------


def test_a_space_after_the_role_name_is_a_located_warning_with_the_fix(book: Book,
                                                                       up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n```{toctree}\nguide\n```\n\nA {src} `httpx.Client` here.\n")
    (book.root / "guide.rst").write_text("Guide\n=====\n\nText.\n\nA :src: `httpx.Client` there.\n", "utf-8")
    warnings = sorted(book.build(strict=False).warnings())
    assert warnings == [
        "guide.rst:6: WARNING: ':src: `httpx.Client`' has a space after the role name, so this reStructuredText "
        "page shows it as text: write :src:`httpx.Client` (no space between the role and the backtick) "
        "[source-anchors.target]",
        "index.md:7: WARNING: '{src} `httpx.Client`' has a space after the role name, so this Markdown (MyST) "
        "page shows it as text: write {src}`httpx.Client` (no space between the role and the backtick) "
        "[source-anchors.target]"], warnings
    book.page("index", "# Book\n\n```{toctree}\nguide\n```\n\nA {src}`httpx.Client` here.\n")
    (book.root / "guide.rst").write_text("Guide\n=====\n\nText.\n\nA :src:`httpx.Client` there.\n", "utf-8")
    book.build()


def test_a_colon_fence_without_colon_fence_names_the_setting(book: Book, up: tuple[Upstream, str]) -> None:
    upstream, sha = up
    book.repos = {"httpx": {"url": upstream.url, "commit": sha, "packages": ["httpx"]}}
    write_conf(book.root, book.repos, book.cache, myst_extensions=(), default_repo="httpx")
    book.page("index", "# Book\n\nText.\n\n:::{source-anchor} httpx.Client\n:caption: The client\n:::\n")
    warnings = book.build(strict=False).warnings()
    assert warnings == [
        "index.md:5: WARNING: ':::{source-anchor}' is a colon fence, which MyST reads as text unless its "
        "'colon_fence' extension is enabled: add \"colon_fence\" to myst_enable_extensions in conf.py, or fence "
        "the block with ``` instead of ::: [source-anchors.target]"], warnings
    book.write_conf(default_repo="httpx")  # colon_fence enabled
    book.build()


# 8 -- an unknown source-repo in the front matter ------------------------------------------------------------


@pytest.mark.parametrize("syntax", ["myst", "rst"])
def test_an_unknown_source_repo_is_one_warning_at_the_front_matter(book: Book, up: tuple[Upstream, str],
                                                                  syntax: str) -> None:
    _book(book, up)
    anchors = " ".join(["{src}`httpx.Client`", "{src}`httpx.Client.send`", "{src}`/setup.cfg::name`"])
    if syntax == "myst":
        book.page("index", f"---\ntitle: x\nsource-repo: htpx\n---\n# Book\n\n{anchors}\n\n{anchors}\n")
        where = "index.md:3"
    else:
        (book.root / "index.rst").write_text(":orphan:\n:source-repo: htpx\n\nBook\n====\n\n"
                                             + anchors.replace("{src}", ":src:") + "\n", "utf-8")
        where = "index.rst:2"
    warnings = book.build(strict=False).warnings()
    assert warnings == [
        f"{where}: WARNING: the page's front matter sets 'source-repo: htpx', which is not a key of "
        "source_anchors_repos (configured: httpx); its anchors without a 'repo:' prefix link nothing until it "
        "names one of them [source-anchors.target]"], warnings


# 13 -- feedback-line without a feedback page -------------------------------------------------------------


def test_feedback_line_links_a_feedback_page_only_where_there_is_one(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up, feedback_email="book@example.org")
    book.page("index", "# Book\n\n```{toctree}\nchapter\n```\n")
    book.page("chapter", "# Chapter\n\nText.\n\n```{feedback-line}\n:chapter: One\n```\n")
    html = book.build().html("chapter")  # -W: no page named 'feedback', and no warning
    assert "mailto:" in html and "how to give feedback" not in html and "subject filled in)." in html
    book.page("feedback", "# Feedback\n\nWrite to us.\n")
    book.page("index", "# Book\n\n```{toctree}\nchapter\nfeedback\n```\n")
    html = book.build().html("chapter")  # incremental: the chapter is read again for the new page
    assert 'href="feedback.html"' in html and "how to give feedback" in html
    (book.root / "feedback.md").unlink()
    book.page("index", "# Book\n\n```{toctree}\nchapter\n```\n")
    html = book.build().html("chapter")  # and again when it is gone
    assert "how to give feedback" not in html
    book.page("chapter", "# Chapter\n\nText.\n\n```{feedback-line}\n:page: about/contact\n```\n")
    warnings = book.build(strict=False, fresh=True).warnings()
    assert len(warnings) == 1 and "about/contact" in warnings[0], warnings  # a page named and missing


# 14 -- target-syntax errors name the fix ---------------------------------------------------------------------


def test_target_syntax_errors_name_the_fix(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx/_client.py`\n\n{src}`httpx.Client.send()`\n\n{src}`~httpx.Client`\n\n"
                       "{src}`Client.send`\n\n{src}`httpx:httpx/_client.py::def send`\n")
    warnings = book.build(strict=False).warnings()
    assert [w.split(" [source-anchors.")[0] for w in warnings] == [
        "index.md:3: WARNING: invalid dotted path 'httpx/_client.py': 'httpx/_client' is not a Python identifier; "
        "a file path starts with '/': write '/httpx/_client.py'",
        "index.md:5: WARNING: invalid dotted path 'httpx.Client.send()': 'send()' is not a Python identifier; "
        "a target names the function, not a call: drop the '(...)' and write 'httpx.Client.send'",
        "index.md:7: WARNING: invalid dotted path '~httpx.Client': '~httpx' is not a Python identifier; '~' is "
        "Sphinx's cross-reference shorthand, not target syntax: write 'httpx.Client' (a label such as "
        "'Client <...>' sets the text shown)",
        "index.md:9: WARNING: missing: httpx:Client.send: Client.send: 'Client' is not a package of httpx "
        "(packages: httpx); did you mean httpx.Client.send?",
        "index.md:11: WARNING: invalid dotted path 'httpx/_client.py': 'httpx/_client' is not a Python identifier; "
        "a file path starts with '/': write 'httpx:/httpx/_client.py::def send'",
    ], warnings
    # Each fix, written as offered, builds green.
    book.page("index", "# Book\n\n{src}`/httpx/_client.py`\n\n{src}`httpx.Client.send`\n\n{src}`httpx.Client`\n\n"
                       "{src}`httpx:/httpx/_client.py::def send`\n")
    book.build()


def test_did_you_mean_offers_nothing_that_does_not_resolve(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`BaseClient`\n")  # httpx.BaseClient does not resolve (see __all__)
    [warning] = book.build(strict=False).warnings()
    assert "did you mean" not in warning and "'BaseClient' is not a package of httpx" in warning


# 15 -- what check prints, the CLI's options, the manual's account of a chip ---------------------------------


def _cli(book: Book, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = run_cli(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_says_how_often_a_target_is_cited(book: Book, up: tuple[Upstream, str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client.send`\n\nAgain {src}`httpx.Client.send`\n\n{src}`httpx.Client`\n")
    book.build()
    code, out, _ = _cli(book, *book.cli("check"), capsys=capsys)
    assert code == 0
    assert "[cited 2 times: index:3, index:5]" in out and "[index:7]" in out, out


def test_a_module_anchor_that_grew_is_not_shown_as_a_move(book: Book, up: tuple[Upstream, str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    upstream, _ = up
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx._client`\n")
    book.build()
    upstream.write("httpx/_client.py", CLIENT + "\n\nLIMIT = 1\n")
    new = upstream.commit("grow")
    code, out, _ = _cli(book, *book.cli("check", "--pin", f"httpx={new}"), capsys=capsys)
    assert code == 1
    assert "httpx/_client.py:L1–L13 → httpx/_client.py:L1–L16" in out, out
    book.repos["httpx"]["commit"] = new
    book.write_conf(default_repo="httpx")
    [warning] = book.build(strict=False).warnings()  # the build's warning says the same
    assert "changed (code): httpx:httpx._client httpx/_client.py:L1–L13 → httpx/_client.py:L1–L16" in warning


def test_book_options_are_taken_after_the_command(book: Book, up: tuple[Upstream, str], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    book.build()
    monkeypatch.chdir(tmp_path)  # no conf.py here: only the options find the book
    for argv in (["check", "--confdir", str(book.root), "--srcdir", str(book.root)],
                 ["--confdir", str(book.root), "check", "--srcdir", str(book.root)],
                 ["--confdir", "nowhere", "check", "--confdir", str(book.root), "--srcdir", str(book.root)]):
        code, out, err = _cli(book, *argv, capsys=capsys)
        assert (code, err) == (0, ""), (argv, err)
        assert out.startswith("ok       httpx:httpx.Client"), out


def test_the_manual_describes_the_chip_the_html_builder_writes(book: Book, up: tuple[Upstream, str]) -> None:
    _, sha = up
    _book(book, up)
    book.page("index", "# Book\n\n{src}`Client <httpx.Client>`\n")
    html = unescape(book.build().html())
    title = f"httpx · httpx/_client.py:L8–L13 @ {sha[:7]}"
    where = f"httpx/_client.py:L8–L13@{sha[:7]}"
    assert f'title="{title}"><span class="sa-label">Client</span><span class="sa-where">{where}</span></a>' in html
    css = (ROOT / "ext/source_anchors/sphinx_ext/static/source-anchors.css").read_text("utf-8")
    assert ".sa-anchor .sa-where { display: none; }" in css  # not in the running text: on hover and in print
    anchors, builders = ((ROOT / "docs" / name).read_text("utf-8") for name in ("anchors.md", "builders.md"))
    assert "on hover or keyboard focus and after the label in print" in anchors
    assert "`repo · path:Lstart–Lend @ short-sha`" in anchors
    assert "on hover or\n  keyboard focus and in print" in builders


def test_a_mistyped_ref_is_reported_as_mistyped_not_moved(book: Book, up: tuple[Upstream, str],
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    upstream, sha = up
    git("tag", "0.28.0", cwd=upstream.path)
    upstream.write("setup.cfg", "[metadata]\nname = httpx\nversion = 2\n")
    later = upstream.commit("next", tag="0.28.1")
    book.repos = {"httpx": {"url": upstream.url, "commit": sha, "ref": "0.28.1", "packages": ["httpx"]}}
    book.write_conf(default_repo="httpx")
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    book.build()
    code, _, err = _cli(book, *book.cli("check"), capsys=capsys)
    assert code == 0
    assert err == (f"note: source_anchors_repos['httpx']['ref']: '0.28.1' names {later[:7]}, not the pinned commit "
                   f"{sha[:7]}, which is '0.28.0' at {upstream.url}: the ref is mistyped; set it to '0.28.0'\n"), err
    git("tag", "-d", "0.28.0", cwd=upstream.path)  # now no name points at the pinned commit
    _, _, err = _cli(book, *book.cli("check"), capsys=capsys)
    assert "the tag '0.28.1' names" in err and "tags are not meant to move" in err and "now points" not in err, err


def test_where_bump_and_check_pin_print_the_resolved_tag(book: Book, up: tuple[Upstream, str],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    upstream, sha = up
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    book.build()
    new = upstream.commit("same code", tag="v2")
    code, out, err = _cli(book, *book.cli("bump", "httpx", "v2"), capsys=capsys)
    assert code == 0 and out.splitlines()[0] == f"httpx: 'v2' is {new} (pinned: {sha})", out  # stdout (docs/cli.md)
    code, out, err = _cli(book, *book.cli("check", "--pin", "httpx=v2", "--json"), capsys=capsys)
    assert err == f"note: httpx: 'v2' is {new} at {upstream.url}\n"
    assert json.loads(out)[0]["status"] == "ok"
    manual = (ROOT / "docs" / "cli.md").read_text("utf-8")
    assert "by `bump` on stdout" in manual and "by `check --pin` as a note on stderr" in manual


# 16 -- linkcheck asks for each upstream page once ------------------------------------------------------------


class _Counting(http.server.BaseHTTPRequestHandler):
    """Answers every HEAD and GET with 200, counting the requests per path."""

    seen: ClassVar[Counter[str]] = Counter()

    def do_HEAD(self) -> None:
        self.seen[self.path] += 1
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        self.do_HEAD()

    def log_message(self, *args: object) -> None:
        pass


def test_linkcheck_requests_each_upstream_page_once(book: Book, up: tuple[Upstream, str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXIES:
        monkeypatch.delenv(name, raising=False)
    _Counting.seen.clear()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        upstream, sha = up
        base = f"http://127.0.0.1:{server.server_address[1]}"
        book.repos = {"httpx": {"url": upstream.url, "commit": sha, "packages": ["httpx"],
                                "permalink": base + "/{commit}/{path}#L{start}-L{end}"}}
        book.write_conf(default_repo="httpx")
        book.page("index", "# Book\n\n{src}`httpx.Client` {src}`httpx.Client.send` {src}`httpx.Client.fetch` "
                           "{src}`/docs/index.md::The line` {src}`/docs/index.md::Some prose`\n")
        book.build()
        result = book.build(builder="linkcheck", out="linkcheck")
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stderr
    assert dict(_Counting.seen) == {f"/{sha}/httpx/_client.py": 1, f"/{sha}/docs/index.md": 1}, _Counting.seen
    output = (result.outdir / "output.json").read_text("utf-8")
    assert output.count('"status": "working"') == 2, output


# 17 -- cosmetics -------------------------------------------------------------------------------------------


def test_a_second_build_does_not_say_the_configuration_changed(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    # sphinx-build, as a user runs it (sphinx.testing sets options of its own between two applications).
    assert book.build_subprocess("-W").returncode == 0
    book.page("index", "# Book\n\nEdited. {src}`httpx.Client`\n")
    second = book.build_subprocess("-W")
    assert second.returncode == 0, second.stderr
    assert "configuration has changed" not in second.stdout and "1 changed" in second.stdout, second.stdout


def test_generated_tables_are_readable_in_the_text_builder(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client`\n\n```{source-anchors-config}\n```\n\n"
                       "```{source-anchors-diagnostics}\n```\n\n```{source-ledger}\n```\n")
    text = (book.build(builder="text", out="text").outdir / "index.txt").read_text("utf-8")
    rows = [line for line in text.splitlines() if line.startswith("|")]
    assert rows and max(len(line) for line in rows) <= 100, text
    for whole in ("source_anchors_repos", "source-anchors.changed", "| L8–L13 |", "| Repository |"):
        assert any(whole in line for line in rows), (whole, text)


def test_a_diff_warning_ends_with_its_tag_on_a_line_of_its_own(book: Book, up: tuple[Upstream, str]) -> None:
    upstream, _ = up
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client.send`\n")
    book.build()
    upstream.write("httpx/_client.py", CLIENT.replace("return request", "return request.copy()"))
    book.repos["httpx"]["commit"] = upstream.commit("change send")
    book.write_conf(default_repo="httpx")
    stderr = book.build(strict=False).stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    at = next(i for i, line in enumerate(lines) if "changed (code)" in line)
    assert lines[at + 1:at + 5] == ["@@ -2 +2 @@", "-        return request", "+        return request.copy()",
                                    " [source-anchors.changed]"], stderr


def test_an_invalid_permalink_template_is_one_error(book: Book, up: tuple[Upstream, str],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    _book(book, up)
    book.repos["httpx"]["permalink"] = "{url}/x/{sha}/{path}#L{start}"
    book.write_conf(default_repo="httpx")
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    built = book.build_subprocess("-q", "-W")
    assert built.returncode != 0 and built.stderr.count("is not a valid template") == 1, built.stderr
    code, out, err = _cli(book, *book.cli("check"), capsys=capsys)
    assert code == 2 and out == "" and err.count("is not a valid template") == 1, err
    assert err.startswith(f"error: {book.root / 'conf.py'}: source_anchors: invalid configuration:"), err


def test_merge_conflict_markers_in_the_lock_are_named(book: Book, up: tuple[Upstream, str],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    book.build()
    lines = book.lock.read_text("utf-8").splitlines(keepends=True)
    book.lock.write_text("".join([*lines[:3], "<<<<<<< HEAD\n", *lines[3:5], "=======\n", *lines[3:5],
                                  ">>>>>>> other\n", *lines[5:]]), "utf-8")
    code, _, err = _cli(book, *book.cli("check"), capsys=capsys)
    assert code == 2
    assert f"{book.lock}:4: the lock holds git merge-conflict markers" in err, err
    assert "git checkout --ours or --theirs -- source-anchors.lock" in err and "source-anchors update" in err


def test_check_json_gives_places_as_fields(book: Book, up: tuple[Upstream, str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    upstream, sha = up
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client.send`\n")
    book.build()
    upstream.write("httpx/_client.py", "# a new first line\n" + CLIENT)
    new = upstream.commit("shift")
    code, out, _ = _cli(book, *book.cli("check", "--pin", f"httpx={new}", "--json"), capsys=capsys)
    [row] = json.loads(out)
    assert (code, row["status"]) == (1, "moved")
    assert row["old"] == {"commit": sha, "path": "httpx/_client.py", "start": 9, "end": 10}
    assert row["new"] == {"commit": new, "path": "httpx/_client.py", "start": 10, "end": 11}
    manual = (ROOT / "docs" / "cli.md").read_text("utf-8")
    assert '`{"commit": …, "path": …, "start": …, "end": …}`' in manual


def test_a_file_path_fix_is_checked_against_the_pinned_tree(book: Book, upstream: Upstream) -> None:
    upstream.write("src/tomli/__init__.py", "from ._parser import loads\n")
    upstream.write("src/tomli/_parser.py", "def loads(s):\n    return {}\n")
    sha = upstream.commit("src layout")
    book.repos = {"tomli": {"url": upstream.url, "commit": sha, "packages": ["src/tomli"]}}
    book.write_conf(default_repo="tomli")
    book.page("index", "# Book\n\n{src}`tomli/_parser.py`\n\n{src}`tomli/_nothing.py`\n")
    warnings = [w.split(" [source-anchors.")[0] for w in book.build(strict=False).warnings()]
    assert warnings == [
        "index.md:3: WARNING: invalid dotted path 'tomli/_parser.py': 'tomli/_parser' is not a Python identifier; "
        "a file path starts with '/': write '/src/tomli/_parser.py'",
        "index.md:5: WARNING: invalid dotted path 'tomli/_nothing.py': 'tomli/_nothing' is not a Python identifier; "
        "a file path starts with '/': write '/tomli/_nothing.py' (a path from the repository root; "
        "tomli/_nothing.py is not a file at the pinned commit)"], warnings
    book.page("index", "# Book\n\n{src}`/src/tomli/_parser.py`\n")
    book.build()
