"""What an outside author hit (issue 28, second half): what ``check``, the CLI and the other builders print.

Each test failed before its fix. Books are built in-process (``make_app``) unless the output of
``sphinx-build`` or the CLI itself is what is checked; upstream repositories are made with git
(:mod:`outside_author`).
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
from helpers import PROXIES, ROOT, Book, Upstream, git, run_cli
from outside_author import CLIENT, configure, make_up


@pytest.fixture
def up(upstream: Upstream) -> tuple[Upstream, str]:
    return make_up(upstream)


def _book(book: Book, up: tuple[Upstream, str], **values: object) -> Book:
    return configure(book, up, **values)


# 15 -- what check prints, the CLI's options, the manual's account of a chip
# ---------------------------------


def _cli(book: Book, *args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = run_cli(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_says_how_often_a_target_is_cited(
    book: Book, up: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _book(book, up)
    book.page(
        "index",
        "# Book\n\n{src}`httpx.Client.send`\n\nAgain {src}`httpx.Client.send`\n\n{src}`httpx.Client`\n",
    )
    book.build()
    code, out, _ = _cli(book, *book.cli("check"), capsys=capsys)
    assert code == 0
    assert "[cited 2 times: index:3, index:5]" in out and "[index:7]" in out, out


def test_a_module_anchor_that_grew_is_not_shown_as_a_move(
    book: Book, up: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
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
    assert (
        "changed (code): httpx:httpx._client httpx/_client.py:L1–L13 → httpx/_client.py:L1–L16"
        in warning
    )


def test_book_options_are_taken_after_the_command(
    book: Book,
    up: tuple[Upstream, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    book.build()
    monkeypatch.chdir(tmp_path)  # no conf.py here: only the options find the book
    for argv in (
        ["check", "--confdir", str(book.root), "--srcdir", str(book.root)],
        ["--confdir", str(book.root), "check", "--srcdir", str(book.root)],
        ["--confdir", "nowhere", "check", "--confdir", str(book.root), "--srcdir", str(book.root)],
    ):
        code, out, err = _cli(book, *argv, capsys=capsys)
        assert (code, err) == (0, ""), (argv, err)
        assert out.startswith("ok       httpx:httpx.Client"), out


def test_the_manual_describes_the_chip_the_html_builder_writes(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _, sha = up
    _book(book, up)
    book.page("index", "# Book\n\n{src}`Client <httpx.Client>`\n")
    html = unescape(book.build().html())
    title = f"httpx · httpx/_client.py:L8–L13 @ {sha[:7]}"
    where = f"httpx/_client.py:L8–L13@{sha[:7]}"
    assert (
        f'title="{title}"><span class="sa-label">Client</span><span class="sa-where">{where}</span></a>'
        in html
    )
    css = (ROOT / "ext/source_anchors/sphinx_ext/static/source-anchors.css").read_text("utf-8")
    assert (
        ".sa-anchor .sa-where { display: none; }" in css
    )  # not in the running text: on hover and in print
    anchors, builders = (
        (ROOT / "docs" / name).read_text("utf-8") for name in ("anchors.md", "builders.md")
    )
    assert "on hover or keyboard focus and after the label in print" in anchors
    assert "`repo · path:Lstart–Lend @ short-sha`" in anchors
    assert "on hover or\n  keyboard focus and in print" in builders


def test_a_mistyped_ref_is_reported_as_mistyped_not_moved(
    book: Book, up: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, sha = up
    git("tag", "0.28.0", cwd=upstream.path)
    upstream.write("setup.cfg", "[metadata]\nname = httpx\nversion = 2\n")
    later = upstream.commit("next", tag="0.28.1")
    book.repos = {
        "httpx": {"url": upstream.url, "commit": sha, "ref": "0.28.1", "packages": ["httpx"]}
    }
    book.write_conf(default_repo="httpx")
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    book.build()
    code, _, err = _cli(book, *book.cli("check"), capsys=capsys)
    assert code == 0
    assert err == (
        f"note: source_anchors_repos['httpx']['ref']: '0.28.1' names {later[:7]}, not the pinned commit "
        f"{sha[:7]}, which is '0.28.0' at {upstream.url}: the ref is mistyped; set it to '0.28.0'\n"
    ), err
    git("tag", "-d", "0.28.0", cwd=upstream.path)  # now no name points at the pinned commit
    _, _, err = _cli(book, *book.cli("check"), capsys=capsys)
    assert (
        "the tag '0.28.1' names" in err
        and "tags are not meant to move" in err
        and "now points" not in err
    ), err


def test_where_bump_and_check_pin_print_the_resolved_tag(
    book: Book, up: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, sha = up
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    book.build()
    new = upstream.commit("same code", tag="v2")
    code, out, err = _cli(book, *book.cli("bump", "httpx", "v2"), capsys=capsys)
    assert code == 0 and out.splitlines()[0] == f"httpx: 'v2' is {new} (pinned: {sha})", (
        out
    )  # stdout (docs/cli.md)
    code, out, err = _cli(book, *book.cli("check", "--pin", "httpx=v2", "--json"), capsys=capsys)
    assert err == f"note: httpx: 'v2' is {new} at {upstream.url}\n"
    assert json.loads(out)[0]["status"] == "ok"
    manual = (ROOT / "docs" / "cli.md").read_text("utf-8")
    assert "by `bump` on stdout" in manual and "by `check --pin` as a note on stderr" in manual


# 16 -- linkcheck asks for each upstream page once
# ------------------------------------------------------------


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


def test_linkcheck_requests_each_upstream_page_once(
    book: Book, up: tuple[Upstream, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in PROXIES:
        monkeypatch.delenv(name, raising=False)
    _Counting.seen.clear()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        upstream, sha = up
        base = f"http://127.0.0.1:{server.server_address[1]}"
        book.repos = {
            "httpx": {
                "url": upstream.url,
                "commit": sha,
                "packages": ["httpx"],
                "permalink": base + "/{commit}/{path}#L{start}-L{end}",
            }
        }
        book.write_conf(default_repo="httpx")
        book.page(
            "index",
            "# Book\n\n{src}`httpx.Client` {src}`httpx.Client.send` {src}`httpx.Client.fetch` "
            "{src}`/docs/index.md::The line` {src}`/docs/index.md::Some prose`\n",
        )
        book.build()
        result = book.build(builder="linkcheck", out="linkcheck")
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stderr
    assert dict(_Counting.seen) == {f"/{sha}/httpx/_client.py": 1, f"/{sha}/docs/index.md": 1}, (
        _Counting.seen
    )
    output = (result.outdir / "output.json").read_text("utf-8")
    assert output.count('"status": "working"') == 2, output


# 17 -- cosmetics
# -------------------------------------------------------------------------------------------


def test_a_second_build_does_not_say_the_configuration_changed(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    # sphinx-build, as a user runs it (sphinx.testing sets options of its own between two
    # applications).
    assert book.build_subprocess("-W").returncode == 0
    book.page("index", "# Book\n\nEdited. {src}`httpx.Client`\n")
    second = book.build_subprocess("-W")
    assert second.returncode == 0, second.stderr
    assert "configuration has changed" not in second.stdout and "1 changed" in second.stdout, (
        second.stdout
    )


def test_generated_tables_are_readable_in_the_text_builder(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    book.page(
        "index",
        "# Book\n\n{src}`httpx.Client`\n\n```{source-anchors-config}\n```\n\n"
        "```{source-anchors-diagnostics}\n```\n\n```{source-ledger}\n```\n",
    )
    text = (book.build(builder="text", out="text").outdir / "index.txt").read_text("utf-8")
    rows = [line for line in text.splitlines() if line.startswith("|")]
    assert rows and max(len(line) for line in rows) <= 100, text
    for whole in ("source_anchors_repos", "source-anchors.changed", "| L8–L13 |", "| Repository |"):
        assert any(whole in line for line in rows), (whole, text)


def test_a_diff_warning_ends_with_its_tag_on_a_line_of_its_own(
    book: Book, up: tuple[Upstream, str]
) -> None:
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
    assert lines[at + 1 : at + 5] == [
        "@@ -2 +2 @@",
        "-        return request",
        "+        return request.copy()",
        " [source-anchors.changed]",
    ], stderr


def test_an_invalid_permalink_template_is_one_error(
    book: Book, up: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _book(book, up)
    book.repos["httpx"]["permalink"] = "{url}/x/{sha}/{path}#L{start}"
    book.write_conf(default_repo="httpx")
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    built = book.build_subprocess("-q", "-W")
    assert built.returncode != 0 and built.stderr.count("is not a valid template") == 1, (
        built.stderr
    )
    code, out, err = _cli(book, *book.cli("check"), capsys=capsys)
    assert code == 2 and out == "" and err.count("is not a valid template") == 1, err
    assert err.startswith(
        f"error: {book.root / 'conf.py'}: source_anchors: invalid configuration:"
    ), err


def test_merge_conflict_markers_in_the_lock_are_named(
    book: Book, up: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.Client`\n")
    book.build()
    lines = book.lock.read_text("utf-8").splitlines(keepends=True)
    book.lock.write_text(
        "".join(
            [
                *lines[:3],
                "<<<<<<< HEAD\n",
                *lines[3:5],
                "=======\n",
                *lines[3:5],
                ">>>>>>> other\n",
                *lines[5:],
            ]
        ),
        "utf-8",
    )
    code, _, err = _cli(book, *book.cli("check"), capsys=capsys)
    assert code == 2
    assert f"{book.lock}:4: the lock holds git merge-conflict markers" in err, err
    assert (
        "git checkout --ours or --theirs -- source-anchors.lock" in err
        and "source-anchors update" in err
    )


def test_check_json_gives_places_as_fields(
    book: Book, up: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
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
