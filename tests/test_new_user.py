"""What a new user hit (issue 13): each test failed before its fix.

Books are built in-process (``make_app``) unless the exit status of ``sphinx-build`` itself is
what is checked; upstream repositories are made here with git.
"""

from __future__ import annotations

import json
import os
import re
import stat
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import Book, Upstream, git, run_cli

MOD = '''\
def alpha(x):
    """First."""
    return x + 1


def walk(items, n):
    total = 0
    # the loop below is the heart of it
    for i in range(n):
        if 0 <= i < n:
            total += i
    if total: y = 1; z = (3,
        4)
    return total


def pattern():
    return r"(?P<exponent1>[0-9]+)"


def combine(first_value, second_value):
    combined_value = first_value * 2 + second_value
    return combined_value
'''


def _lines_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


@pytest.fixture
def up(upstream: Upstream) -> tuple[Upstream, str]:
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/mod.py", MOD)
    upstream.write("pkg2/__init__.py", "")
    upstream.write("pkg2/other.py", "def beta():\n    return 2\n")
    upstream.write("LICENSE", "MIT License\n")
    return upstream, upstream.commit("v1")


def _book(book: Book, up: tuple[Upstream, str], **values: object) -> Book:
    upstream, sha = up
    book.repos = {
        "up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]},
        "other": {"url": upstream.url, "commit": sha, "packages": ["pkg2"]},
    }
    book.write_conf(default_repo="up", **values)
    return book


def _by_label(result_report: list[dict[str, object]]) -> dict[object, dict[str, object]]:
    return {row["label"]: row for row in result_report}


# 1 -- an anchor in a section title
# ---------------------------------------------------------------------


@pytest.mark.parametrize("syntax", ["myst", "rst"])
def test_anchor_in_a_section_title_builds_and_the_toc_shows_its_label(
    book: Book, up: tuple[Upstream, str], syntax: str
) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n```{toctree}\nchapter\n```\n")
    if syntax == "myst":
        book.page("chapter", "# About {src}`alpha <pkg.mod.alpha>`\n\nText.\n")
    else:
        (book.root / "chapter.rst").write_text(
            "About :src:`alpha <pkg.mod.alpha>`\n==================================\n\nText.\n",
            "utf-8",
        )
    result = book.build(fresh=True)
    chapter, index = result.html("chapter"), result.html("index")
    # The heading keeps its link to the pinned lines ...
    assert re.search(
        r"<h1>About <a [^>]*href=\"[^\"]*/blob/[0-9a-f]{40}/pkg/mod.py#L1-L3\"", chapter
    )
    # ... and the table of contents shows the label as text inside its own link, never a nested
    # link.
    entry = re.search(r'<a class="reference internal" href="chapter.html">(.*?)</a>', index)
    assert entry is not None and entry.group(1) == "About alpha"


# 2 -- rST front matter
# ---------------------------------------------------------------------------------


def test_rst_front_matter_names_the_repository(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n```{toctree}\nother\nnowhere\n```\n")
    (book.root / "other.rst").write_text(
        ":source-repo: other\n\nOther\n=====\n\n:src:`beta <pkg2.other.beta>`\n", "utf-8"
    )
    (book.root / "nowhere.rst").write_text(
        ".. a comment first\n\n:source-repo: nowhere\n\nN\n=\n\n:src:`beta <pkg2.other.beta>`\n",
        "utf-8",
    )
    result = book.build(strict=False, fresh=True)
    rows = {row["doc"]: row for row in result.report()}
    assert (rows["other"]["target"], rows["other"]["status"]) == ("other:pkg2.other.beta", "new")
    assert rows["nowhere"]["status"] == "error"
    [warning] = result.warnings()
    assert (
        "nowhere.rst:3: WARNING: the page's front matter sets 'source-repo: nowhere', which is not a key"
        in warning
    )


# 3 -- '<' in a match text
# ------------------------------------------------------------------------------


def test_angle_brackets_in_match_texts_follow_sphinx_convention(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    book.page(
        "index",
        """
        # P

        {src}`bounds <pkg.mod.walk::if 0 <= i < n:>` and {src}`pkg.mod.walk::if 0 <= i < n:`
        and {src}`pkg.mod.pattern::(?P\\<exponent1>` and {src}`a \\< b <pkg.mod.alpha>`.
        """,
    )
    result = book.build(fresh=True)
    rows = result.report()
    line = _lines_of(MOD, "if 0 <= i < n:")
    assert [(r["label"], r["start"], r["end"]) for r in rows] == [
        ("bounds", line, line + 1),
        ("pkg.mod.walk::if 0 <= i < n:", line, line + 1),
        ("pkg.mod.pattern::(?P<exponent1>", _lines_of(MOD, "?P<"), _lines_of(MOD, "?P<")),
        ("a < b", 1, 3),
    ]


def test_a_label_that_looks_like_a_target_warns_with_the_escape(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    book.page("index", "# P\n\n{src}`pkg.mod.pattern::(?P<exponent1>`\n")
    result = book.build(strict=False, fresh=True)
    [warning] = result.warnings()
    assert "missing: up:exponent1" in warning
    assert (
        "the label 'pkg.mod.pattern::(?P' holds '::' like a target" in warning
        and "'\\<'" in warning
    )


# 4 -- CI values and the exit status of a locked build
# --------------------------------------------------


@pytest.mark.parametrize(
    ("value", "locked"),
    [
        ("1", True),
        ("yes", True),
        ("TRUE", True),
        ("on", True),
        ("", False),
        ("0", False),
        ("false", False),
        ("No", False),
    ],
)
def test_any_ci_value_but_off_words_locks(
    book: Book, up: tuple[Upstream, str], monkeypatch: pytest.MonkeyPatch, value: str, locked: bool
) -> None:
    _book(book, up)
    book.page("index", "# P\n\n{src}`alpha <pkg.mod.alpha>`\n")
    monkeypatch.setenv("CI", value)
    result = book.build(strict=False, fresh=True)
    assert book.lock.exists() is not locked
    assert result.returncode == (1 if locked else 0)
    if locked:
        assert any("[source-anchors.lock]" in w and "do not match" in w for w in result.warnings())


def test_a_locked_build_off_the_lock_exits_non_zero_without_w(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    book.page("index", "# P\n\n{src}`alpha <pkg.mod.alpha>`\n")
    assert book.build(fresh=True).returncode == 0  # writes the lock
    book.page("index", "# P\n\n{src}`alpha <pkg.mod.alpha>` {src}`walk <pkg.mod.walk>`\n")
    done = book.build_subprocess("-E", env={"CI": "1"})
    assert done.returncode == 1, done.stderr
    assert "1 anchor(s) do not match source-anchors.lock in this locked build" in done.stderr
    assert book.build_subprocess("-E").returncode == 0  # preview: the new anchor is locked


# 5 -- an annotated tag's object id
# ---------------------------------------------------------------------


def test_an_annotated_tag_object_is_refused_naming_its_commit(
    book: Book, up: tuple[Upstream, str]
) -> None:
    upstream, sha = up
    git("tag", "-a", "v1.0", "-m", "release", cwd=upstream.path)
    tag_object = git("rev-parse", "v1.0", cwd=upstream.path).strip()
    assert tag_object != sha
    book.repos = {"up": {"url": upstream.url, "commit": tag_object, "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    book.page("index", "# P\n\n{src}`alpha <pkg.mod.alpha>` {src}`walk <pkg.mod.walk>`\n")
    result = book.build(strict=False, fresh=True)
    [warning] = result.warnings()
    assert (
        f"'commit' {tag_object} is an annotated tag object, not a commit; pin the commit it points to: {sha}"
        in warning
    )
    assert {row["permalink"] for row in result.report()} == {None}
    assert not book.lock.exists()


# 6 -- src-layout distributions
# -------------------------------------------------------------------------


def _wheel(dest: Path, files: dict[str, str]) -> Path:
    """A wheel of the test's own files, laid out as every wheel is: packages at the root."""
    path = dest / "srcpkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr(
            "srcpkg-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: srcpkg\nVersion: 1.0\n"
        )
        archive.writestr("srcpkg-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\n")
        archive.writestr("srcpkg-1.0.dist-info/RECORD", "")
    return path


@pytest.fixture
def src_layout(upstream: Upstream) -> tuple[Upstream, str]:
    upstream.write("src/pkg/__init__.py", "")
    upstream.write("src/pkg/mod.py", MOD)
    return upstream, upstream.commit("src layout")


def test_a_src_layout_distribution_maps_onto_the_package_directory(
    book: Book, src_layout: tuple[Upstream, str]
) -> None:
    upstream, sha = src_layout
    _wheel(book.root, {"pkg/__init__.py": "", "pkg/mod.py": MOD})
    (book.root / "listing.txt").write_text(git("ls-tree", "-r", sha, cwd=upstream.path), "utf-8")
    book.repos = {
        "up": {
            "url": upstream.url,
            "commit": sha,
            "packages": ["src/pkg"],
            "sources": ["dist"],
            "dist": "srcpkg-1.0-py3-none-any.whl",
            "listing": "listing.txt",
        }
    }
    book.write_conf(default_repo="up")
    book.page("index", "# P\n\n{src}`alpha <pkg.mod.alpha>`\n")
    [row] = book.build(fresh=True).report()
    assert (row["path"], row["start"], row["end"], row["status"]) == ("src/pkg/mod.py", 1, 3, "new")
    assert str(row["permalink"]).endswith(f"/blob/{sha}/src/pkg/mod.py#L1-L3")


# 7, 8 -- a fixed configuration works at once; a shared failure is reported once
# -----------------------


def test_wrong_packages_suggest_the_directory_once_and_the_fix_needs_no_cache_clearing(
    book: Book, src_layout: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, sha = src_layout
    book.repos = {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    book.page(
        "index",
        "# P\n\n{src}`alpha <pkg.mod.alpha>` {src}`walk <pkg.mod.walk>`\n\n{src}`pkg.mod`\n",
    )
    result = book.build(strict=False, fresh=True)
    [warning] = result.warnings()
    assert (
        "the configured package directory 'pkg' holds no file in the git tree; the package is at src/pkg"
        in warning
    )
    assert "[3 anchor(s) on 1 page(s) affected: index]" in warning
    assert result.stats()["resolved"] == 0
    book.repos["up"]["packages"] = ["src/pkg"]
    book.write_conf(default_repo="up")
    rows = book.build(fresh=True).report()  # the same cache directory, not cleared
    assert {row["status"] for row in rows} == {"new"}
    assert run_cli(book.cli("cache", "info")) == 0
    info = capsys.readouterr().out
    assert f"cache: {book.cache}" in info
    assert re.search(
        r"trees\s+1 entries", info
    )  # the tree exported for the wrong packages was replaced
    assert re.search(r"resolutions\s+1 entries", info)  # the failure was not persisted
    assert run_cli(book.cli("cache", "clear")) == 0
    assert "removed" in capsys.readouterr().out and not (book.cache / "trees").exists()


def test_an_unknown_commit_is_one_warning_and_no_anchor_counts_as_resolved(
    book: Book, up: tuple[Upstream, str]
) -> None:
    upstream, _ = up
    book.repos = {
        "up": {"url": upstream.url, "commit": "e" * 40, "packages": ["pkg"], "sources": ["git"]}
    }
    book.write_conf(default_repo="up")
    book.page(
        "index", "# P\n\n" + " ".join(f"{{src}}`a{i} <pkg.mod.alpha>`" for i in range(4)) + "\n"
    )
    book.page("two", "# Two\n\n{src}`w <pkg.mod.walk>`\n")
    result = book.build(strict=False, fresh=True)
    warnings = result.warnings()
    assert len(warnings) == 2  # the repository once, and 'two' is not in a toctree
    [source] = [w for w in warnings if "[source-anchors.source]" in w]
    assert "[5 anchor(s) on 2 page(s) affected: index, two]" in source
    assert (result.stats()["resolved"], result.stats()["cached"]) == (0, 0)


def test_a_missing_lock_in_a_locked_build_is_said_once(
    book: Book, up: tuple[Upstream, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _book(book, up)
    book.page(
        "index", "# P\n\n{src}`a <pkg.mod.alpha>` {src}`w <pkg.mod.walk>` {src}`m <pkg.mod>`\n"
    )
    monkeypatch.setenv("CI", "true")
    result = book.build(strict=False, fresh=True)
    news = [w for w in result.warnings() if "[source-anchors.new]" in w]
    assert len(news) == 1
    assert "is not in source-anchors.lock and this build is locked: the lock file" in news[0]
    assert f"the lock file {book.lock} does not exist" in result.stderr
    assert "[3 anchor(s) on 1 page(s) affected: index]" in news[0]


# 9 -- figures
# ------------------------------------------------------------------------------------------


def test_a_parallel_cold_build_counts_what_its_readers_resolved(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    names = [f"p{i}" for i in range(6)]
    book.page("index", "# Book\n\n```{toctree}\n" + "\n".join(names) + "\n```\n")
    for name in names:
        book.page(
            name, f"# {name}\n\n{{src}}`a <pkg.mod.alpha>` {{src}}`w <pkg.mod.walk::total = 0>`\n"
        )
    done = book.build_subprocess("-j", "2", "-E")
    assert done.returncode == 0, done.stderr
    stats = json.loads((done.outdir / "source-anchors.stats.json").read_text("utf-8"))
    assert stats["resolved"] + stats["cached"] == 12
    assert stats["modules_parsed"] >= 1
    assert (
        f"{stats['resolved']} anchors resolved, {stats['cached']} from the resolution cache"
        in done.stdout
    )


def test_check_says_not_checked_and_update_keeps_records_it_cannot_check(
    book: Book, up: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, _ = up
    _book(book, up)
    book.page("index", "# P\n\n{src}`a <pkg.mod.alpha>`\n")
    assert run_cli(book.cli("update")) == 0
    book.repos["up"] = {
        "url": upstream.url,
        "commit": "e" * 40,
        "packages": ["pkg"],
        "sources": ["git"],
    }
    book.write_conf(default_repo="up")
    capsys.readouterr()
    assert run_cli(book.cli("check")) == 1
    assert "pkg/mod.py:L1–L3 → (not checked)" in capsys.readouterr().out
    before = book.lock.read_text("utf-8")
    assert run_cli(book.cli("update")) == 1
    out = capsys.readouterr().out
    assert "0 target(s) not locked, 1 that could not be checked keep their record" in out
    assert book.lock.read_text("utf-8") == before


# 10 -- file modes
# --------------------------------------------------------------------------------------


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o022)
    os.umask(old)
    yield
    os.umask(old)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o027, 0o640)])
def test_lock_and_cache_files_follow_the_umask(
    book: Book, up: tuple[Upstream, str], umask: None, mask: int, mode: int
) -> None:
    _book(book, up)
    book.page("index", "# P\n\n{src}`a <pkg.mod.alpha>`\n")
    os.umask(mask)
    book.build(fresh=True)
    assert stat.S_IMODE(book.lock.stat().st_mode) == mode
    [resolutions] = (book.cache / "resolutions").glob("*.json")
    assert stat.S_IMODE(resolutions.stat().st_mode) == mode
    [tree] = (book.cache / "trees").iterdir()
    assert stat.S_IMODE(tree.stat().st_mode) == mode | 0o111 & ~mask
    book.page("index", "# P\n\n{src}`a <pkg.mod.alpha>` {src}`w <pkg.mod.walk>`\n")
    book.build(fresh=True)  # a rewrite keeps following it
    assert stat.S_IMODE(book.lock.stat().st_mode) == mode


# 11, 12 -- the reproduction guard without a ledger; hover text of unresolved chips
# ---------------------


def test_pasted_upstream_lines_warn_without_a_ledger_page(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    book.page(
        "index",
        "# P\n\nNo ledger page here.\n\n"
        "```python\ncombined_value = first_value * 2 + second_value\n```\n",
    )
    result = book.build(strict=False, fresh=True)
    [warning] = result.warnings()
    line = _lines_of(MOD, "combined_value = first")
    assert re.match(
        rf"index.md:\d+: WARNING: literal block reproduces upstream line up:pkg/mod.py:{line} "
        r"\[source-anchors.reproduced\]",
        warning,
    ), warning


def test_missing_and_error_chips_keep_their_hover_text(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    book.page("index", "# P\n\n{src}`gone <pkg.mod.nothing>` {src}`bad <nope:pkg.mod>`\n")
    html = book.build(strict=False, fresh=True).html()
    assert re.search(
        r'<span class="sa-anchor sa-missing" id="sa-1" title="missing: missing: up:pkg.mod.nothing',
        html,
    )
    assert re.search(
        r'<span class="sa-anchor sa-error" id="sa-2" title="error: unknown repository', html
    )


# 13 -- comment lines and lines with several statements
# -------------------------------------------------


def test_comment_lines_and_statements_sharing_a_line(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page(
        "index",
        """
        # P

        {src}`c <pkg.mod.walk::# the loop below>` {src}`z <pkg.mod.walk::z = (3,>`
        {src}`y <pkg.mod.walk::y = 1>` {src}`if <pkg.mod.walk::if total:>` {src}`doc <pkg.mod.alpha::First.>`
        """,
    )
    rows = _by_label(book.build(fresh=True).report())
    comment, shared = _lines_of(MOD, "# the loop below"), _lines_of(MOD, "if total:")
    assert (rows["c"]["start"], rows["c"]["end"]) == (comment, comment)
    assert (rows["z"]["start"], rows["z"]["end"]) == (shared, shared + 1)
    assert (rows["y"]["start"], rows["y"]["end"]) == (shared, shared)
    assert (rows["if"]["start"], rows["if"]["end"]) == (shared, shared + 1)
    assert (rows["doc"]["start"], rows["doc"]["end"]) == (
        2,
        2,
    )  # a docstring line: the whole docstring


# 14 -- check output
# ------------------------------------------------------------------------------------


def test_check_prints_one_line_per_distinct_target(
    book: Book, up: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _book(book, up)
    book.page(
        "index",
        "# P\n\n{src}`a <pkg.mod.alpha>` {src}`again <pkg.mod.alpha>`\n\n{src}`w <pkg.mod.walk>`\n",
    )
    book.page("two", "# T\n\n{src}`a <pkg.mod.alpha>`\n")
    assert run_cli(book.cli("update")) == 0
    capsys.readouterr()
    assert run_cli(book.cli("check")) == 0
    lines = capsys.readouterr().out.splitlines()
    [alpha] = [line for line in lines if "up:pkg.mod.alpha" in line]
    assert (
        alpha
        == "ok       up:pkg.mod.alpha  pkg/mod.py:L1–L3  [cited 3 times: index:3, index:3, two:3]"
    )
    assert "→" not in "\n".join(lines[:-1])
    assert lines[-1] == "4 anchors: 4 ok (2 distinct targets)"
