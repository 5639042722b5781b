"""Pins by tag or branch: ``check --pin NAME=REF``, ``bump NAME REF [--write]``, a pin's ``ref`` (issue 15).

The upstream is a git repository made here (``file://``): an annotated tag, a lightweight tag and a
branch that moves after the book pins it. Nothing of git or Sphinx is mocked.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import Book, Upstream, git, run_cli
from source_anchors.edit.confpy import find_literals, replace
from source_anchors.model.config import settings_from
from source_anchors.model.errors import ConfigError, RefError
from source_anchors.sources.gitrefs import ref_problem, resolve_ref

V1 = "def alpha(x):\n    return x + 1\n\n\ndef beta(y):\n    return y\n"
V2 = "# a new first line\n\n\n" + V1  # alpha and beta move down three lines
PAGE = "# P\n\n{src}`alpha <pkg.mod.alpha>` and {src}`beta <pkg.mod.beta>`\n"


class Pinned:
    """An upstream with v1 (lightweight tag 'light'), v2 (annotated tag 'v2'), branch 'feature' at v2."""

    def __init__(self, upstream: Upstream, book: Book) -> None:
        self.upstream, self.book = upstream, book
        upstream.write("pkg/__init__.py", '"""Pkg."""\n')
        upstream.write("pkg/mod.py", V1)
        self.v1 = upstream.commit("v1", tag="light")
        upstream.write("pkg/mod.py", V2)
        self.v2 = upstream.commit("v2")
        git("tag", "-a", "v2", "-m", "release 2", cwd=upstream.path)
        git("branch", "feature", cwd=upstream.path)
        git("checkout", "-q", "feature", cwd=upstream.path)
        upstream.write("NOTES.txt", "not in a package\n")
        self.feature = upstream.commit("on feature")  # same pkg/ as v2
        git("checkout", "-q", "main", cwd=upstream.path)
        book.page("index", PAGE)

    def pin(self, **entry: object) -> None:
        self.book.repos = {
            "up": {"url": self.upstream.url, "commit": self.v1, "packages": ["pkg"], **entry}
        }
        self.book.write_conf(default_repo="up")

    @property
    def conf(self) -> Path:
        return self.book.root / "conf.py"


@pytest.fixture
def pinned(upstream: Upstream, book: Book) -> Pinned:
    made = Pinned(upstream, book)
    made.pin()
    assert run_cli(book.cli("update")) == 0
    return made


# -- resolving refs
# ------------------------------------------------------------------------------------


def test_tags_and_branches_resolve_peeled(pinned: Pinned) -> None:
    url = pinned.upstream.url
    assert (
        resolve_ref(url, "v2", timeout=30) == pinned.v2
    )  # annotated: the commit, not the tag object
    assert git("rev-parse", "v2", cwd=pinned.upstream.path).strip() != pinned.v2
    assert resolve_ref(url, "light", timeout=30) == pinned.v1
    assert resolve_ref(url, "feature", timeout=30) == pinned.feature
    assert resolve_ref(url, "refs/heads/main", timeout=30) == pinned.v2
    with pytest.raises(RefError, match=f"no tag or branch 'nope' at {url}"):
        resolve_ref(url, "nope", timeout=30)


def test_a_tag_and_a_branch_of_one_name_at_two_commits_is_ambiguous(pinned: Pinned) -> None:
    git("branch", "light", pinned.v2, cwd=pinned.upstream.path)
    with pytest.raises(RefError, match=r"'light' is ambiguous .*refs/tags/light.*refs/heads/light"):
        resolve_ref(pinned.upstream.url, "light", timeout=30)
    assert resolve_ref(pinned.upstream.url, "refs/tags/light", timeout=30) == pinned.v1


@pytest.mark.parametrize(
    "ref", ["", "a..b", "-x", "x/", "x.lock", "a b", "a:b", "v1^{}", "@", "a@{1}", "0" * 40, 3]
)
def test_bad_ref_names_are_refused(ref: object) -> None:
    assert ref_problem(ref) is not None


@pytest.mark.parametrize("ref", ["8.3.0", "v1", "release/2.x", "refs/tags/v1", "main"])
def test_sane_ref_names_pass(ref: str) -> None:
    assert ref_problem(ref) is None


def test_the_ref_key_is_validated_and_located(tmp_path: Path) -> None:
    entry = {"url": "file:///x", "commit": "a" * 40, "packages": ["pkg"], "ref": "a..b"}
    with pytest.raises(
        ConfigError, match=r"source_anchors_repos\['up'\]\['ref'\]: 'a\.\.b' is not a git ref"
    ):
        settings_from(
            {"repos": {"up": entry}, "cache_dir": str(tmp_path)}, confdir=tmp_path, environ={}
        )
    entry["ref"] = "8.3.0"
    settings = settings_from(
        {"repos": {"up": entry}, "cache_dir": str(tmp_path)}, confdir=tmp_path, environ={}
    )
    assert settings.repos["up"].ref == "8.3.0"


# -- check --pin NAME=REF
# ------------------------------------------------------------------------------


@pytest.mark.parametrize(("ref", "attr"), [("v2", "v2"), ("light", "v1"), ("feature", "feature")])
def test_check_pin_accepts_a_tag_or_a_branch(
    pinned: Pinned, capsys: pytest.CaptureFixture[str], ref: str, attr: str
) -> None:
    sha = getattr(pinned, attr)
    code = run_cli(pinned.book.cli("check", "--pin", f"up={ref}"))
    out, err = capsys.readouterr()
    assert f"note: up: {ref!r} is {sha} at {pinned.upstream.url}" in err
    if sha == pinned.v1:
        assert code == 0 and "2 anchors: 2 ok" in out
    else:
        assert code == 1 and "2 anchors: 2 moved" in out


def test_check_pin_markdown_names_the_ref(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(pinned.book.cli("check", "--pin", "up=v2", "--markdown")) == 1
    assert f"## Source anchors at up → v2 ({pinned.v2[:7]})" in capsys.readouterr().out


def test_check_pin_unknown_ref_is_one_clear_error(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(pinned.book.cli("check", "--pin", "up=nope")) == 2
    err = capsys.readouterr().err
    assert err == f"error: up: no tag or branch 'nope' at {pinned.upstream.url}\n"


def test_check_pin_unreachable_url_names_it(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    url = pinned.upstream.url
    shutil.move(pinned.upstream.path, pinned.upstream.path.with_name("gone"))
    assert run_cli(pinned.book.cli("check", "--pin", "up=v2")) == 2
    assert f"error: up: cannot resolve 'v2' at {url}: git ls-remote: " in capsys.readouterr().err


def test_check_pin_bad_ref_name(pinned: Pinned, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(pinned.book.cli("check", "--pin", "up=a..b")) == 2
    assert "'a..b' is not a git ref name" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["v2", "a" * 40])
def test_check_pin_unknown_name_lists_the_configured_ones(
    pinned: Pinned, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    assert run_cli(pinned.book.cli("check", "--pin", f"nope={value}")) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"error: --pin nope={value}: no repository 'nope' in source_anchors_repos; configured: up\n"
    )


# -- the ledger and the moved-ref warning
# ----------------------------------------------------------------


def test_the_ledger_shows_the_ref_and_the_short_commit(pinned: Pinned) -> None:
    pinned.pin(ref="light")
    pinned.book.page("index", PAGE + "\n```{source-ledger}\n```\n")
    html = pinned.book.build().html()
    assert f"light ({pinned.v1[:7]})" in html
    assert f'href="{pinned.upstream.url}/blob/{pinned.v1}/"' in html


def test_a_locked_build_warns_once_when_the_ref_moved(pinned: Pinned) -> None:
    pinned.pin(ref="main")  # main is at v2 already: it moved since v1 was pinned
    unlocked = pinned.book.build()  # strict: a preview build does not ask git about refs
    assert unlocked.warnings() == []
    pinned.book.write_conf(default_repo="up", locked=True)
    result = pinned.book.build(strict=False)
    warnings = [w for w in result.warnings() if "source-anchors.ref" in w]
    assert len(warnings) == 1, result.stderr
    assert (
        f"'main' now points at {pinned.v2[:7]}, not the pinned commit {pinned.v1[:7]}"
        in warnings[0]
    )
    assert "source-anchors bump up main" in warnings[0]
    assert result.returncode == 0  # anchors still match the lock: only -W makes a moved ref fatal
    pinned.book.settings = {"suppress_warnings": ["source-anchors.ref"]}
    pinned.book.write_conf(default_repo="up", locked=True)
    assert pinned.book.build().warnings() == []


def test_a_ref_that_still_matches_or_an_unreachable_remote_gives_no_warning(pinned: Pinned) -> None:
    pinned.pin(ref="light")
    pinned.book.write_conf(default_repo="up", locked=True)
    assert pinned.book.build(fresh=True).warnings() == []  # strict
    shutil.move(
        pinned.upstream.path, pinned.upstream.path.with_name("gone")
    )  # the tree comes from the cache
    result = pinned.book.build(fresh=True)  # strict: offline is not a warning
    assert "not checked" in result.stdout and "is unreachable" in result.stdout


def test_check_notes_a_moved_ref(pinned: Pinned, capsys: pytest.CaptureFixture[str]) -> None:
    pinned.pin(ref="main")
    assert run_cli(pinned.book.cli("check")) == 0
    err = capsys.readouterr().err
    assert f"'main' now points at {pinned.v2[:7]}, not the pinned commit {pinned.v1[:7]}" in err


# -- bump
# ---------------------------------------------------------------------------------------------


def test_bump_previews_without_writing(pinned: Pinned, capsys: pytest.CaptureFixture[str]) -> None:
    before = pinned.conf.read_bytes()
    assert run_cli(pinned.book.cli("bump", "up", "v2")) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"up: 'v2' is {pinned.v2} (pinned: {pinned.v1})"
    assert "moved    up:pkg.mod.alpha" in out and "2 anchors: 2 moved" in out
    assert "preview only: add --write" in out
    assert pinned.conf.read_bytes() == before


def test_bump_write_edits_the_commit_and_ref_literals_only(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    pinned.pin(ref="light")
    text = pinned.conf.read_text("utf-8")
    text = (
        "# pins\r\n" + text.replace("\n", "\r\n") + "release = 'light'\r\n"
    )  # CRLF and a same-valued literal
    pinned.conf.write_bytes(text.encode())
    lock = pinned.book.lock.read_bytes()
    assert run_cli(pinned.book.cli("bump", "up", "v2", "--write")) == 1
    out = capsys.readouterr().out
    assert "run 'source-anchors update' to relock" in out
    expected = text.replace(pinned.v1, pinned.v2).replace("'ref': 'light'", "'ref': 'v2'")
    assert pinned.conf.read_bytes() == expected.encode()
    assert "release = 'light'" in expected
    assert pinned.book.lock.read_bytes() == lock
    assert run_cli(pinned.book.cli("update")) == 0
    assert run_cli(pinned.book.cli("check")) == 0


def test_bump_clean_exits_zero(pinned: Pinned, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(pinned.book.cli("bump", "up", "light")) == 0
    assert "2 anchors: 2 ok" in capsys.readouterr().out


def test_bump_refuses_when_the_commit_is_written_twice(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    with pinned.conf.open("a", encoding="utf-8") as conf:
        conf.write(f"previous = {pinned.v1!r}\n")
    before = pinned.conf.read_bytes()
    assert run_cli(pinned.book.cli("bump", "up", "v2", "--write")) == 2
    err = capsys.readouterr().err
    assert (
        f"the pinned commit {pinned.v1} appears 2 time(s) as a string literal (line 4, 7)" in err
    ), err
    assert f"edit it by hand: set source_anchors_repos['up']['commit'] to {pinned.v2!r}" in err
    assert pinned.conf.read_bytes() == before


def test_bump_refuses_when_the_commit_is_computed(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    half = len(pinned.v1) // 2
    text = pinned.conf.read_text("utf-8").replace(
        repr(pinned.v1), f"{pinned.v1[:half]!r} + {pinned.v1[half:]!r}"
    )
    pinned.conf.write_text(text, "utf-8")
    assert run_cli(pinned.book.cli("bump", "up", "v2", "--write")) == 2
    assert "appears 0 time(s) as a string literal" in capsys.readouterr().err
    assert pinned.conf.read_text("utf-8") == text


def test_bump_edits_a_commit_held_in_a_variable(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    text = pinned.conf.read_text("utf-8").replace(repr(pinned.v1), "UP_COMMIT")
    text = f'UP_COMMIT = "{pinned.v1}"  # bump me\n' + text
    pinned.conf.write_text(text, "utf-8")
    assert run_cli(pinned.book.cli("bump", "up", "feature", "--write")) == 1
    assert "['commit'] " in capsys.readouterr().out
    assert pinned.conf.read_text("utf-8") == text.replace(pinned.v1, pinned.feature)
    assert 'UP_COMMIT = "' + pinned.feature in pinned.conf.read_text("utf-8")


def test_bump_to_a_sha_keeps_no_stale_ref(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    pinned.pin(ref="light")
    before = pinned.conf.read_bytes()
    assert run_cli(pinned.book.cli("bump", "up", pinned.v2, "--write")) == 2
    assert "records 'ref': 'light'" in capsys.readouterr().err
    assert pinned.conf.read_bytes() == before


def test_bump_hints_at_recording_the_ref(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(pinned.book.cli("bump", "up", "v2", "--write")) == 1
    assert "names no 'ref'; add \"ref\": 'v2'" in capsys.readouterr().out


def test_bump_unknown_name_and_ref(pinned: Pinned, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(pinned.book.cli("bump", "nope", "v2")) == 2
    assert "no repository 'nope' in source_anchors_repos; configured: up" in capsys.readouterr().err
    assert run_cli(pinned.book.cli("bump", "up", "nope")) == 2
    assert f"no tag or branch 'nope' at {pinned.upstream.url}" in capsys.readouterr().err


# -- conf.py literals
# ----------------------------------------------------------------------------------


def test_literals_keep_their_quotes_and_prefixes() -> None:
    data = b"a = r'x'\nb = \"\"\"x\"\"\"\nc = f'{a}x'\nd = 'x' 'y'\ne = {'k': 'x'}\n"
    plain, other = find_literals(data, "x")
    assert [p.line for p in plain] == [1, 2, 5] and other == []
    assert replace(data, [(plain[0], "yy")]).startswith(b"a = r'yy'\nb")


def test_bump_a_moved_branch_keeps_its_ref(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    pinned.pin(ref="main")
    text = pinned.conf.read_text("utf-8")
    assert run_cli(pinned.book.cli("bump", "up", "main", "--write")) == 1
    assert pinned.conf.read_text("utf-8") == text.replace(pinned.v1, pinned.v2)
    assert "'ref'" not in capsys.readouterr().out.split("conf.py:", 1)[1].split("\n")[0]


def test_the_ledger_ref_label_is_translated(pinned: Pinned) -> None:
    pinned.book.settings = {"language": "zh_CN", "html_search_language": "en"}
    pinned.pin(ref="light")
    pinned.book.page("index", PAGE + "\n```{source-ledger}\n```\n")
    assert f"light（{pinned.v1[:7]}）" in pinned.book.build().html()


def test_bump_of_a_pin_with_a_listing_previews_from_git_and_writes_nothing(
    pinned: Pinned, capsys: pytest.CaptureFixture[str]
) -> None:
    # The listing vouches for v1's blobs: moved to v2 with it, the book would read v1's files as
    # v2's.
    (pinned.book.root / "v1.ls-tree").write_text(
        git("ls-tree", "-r", pinned.v1, cwd=pinned.upstream.path), "utf-8"
    )
    pinned.pin(listing="v1.ls-tree")
    before = pinned.conf.read_bytes()
    assert run_cli(pinned.book.cli("bump", "up", "v2")) == 1
    assert "2 anchors: 2 moved" in capsys.readouterr().out  # the preview reads v2 itself
    for argv in (
        ("bump", "up", "v2", "--write"),
        ("bump", "up", "--latest", "--write", "--body", "-"),
    ):
        assert run_cli(pinned.book.cli(*argv)) == 2
        out, err = capsys.readouterr()
        assert "source_anchors_repos['up'] has 'listing' of " + pinned.v1[:7] in err, err
        assert "nothing written" in err and "remove 'listing'" in err
        assert pinned.conf.read_bytes() == before
    assert (
        "### Needs a human" in out
        and "- [ ] `conf.py`: source_anchors_repos['up'] has 'listing'" in out
    )
