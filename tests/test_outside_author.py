"""What an outside author hit (issue 28): a hostile environment and settings that left them guessing.

Each test builds a real book (in-process with ``make_app``, or ``sphinx-build`` in a subprocess
where the exit status or a read-only mount is the point) against git repositories made here.
Read-only folders are real: a read-only bind mount in a private mount namespace, or mode bits (see
``readonly``).
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
from pathlib import Path

import pytest
from helpers import (
    PY,
    Book,
    BuildResult,
    Upstream,
    build_env,
    cli_argv,
    git,
    run_cli,
    sphinx_argv,
    write_conf,
)
from readonly import read_only

MOD = '''\
def hello(name):
    """Greet."""
    return "hi " + name


def bye(name):
    return "bye " + name
'''


@pytest.fixture
def tagged(upstream: Upstream) -> tuple[Upstream, str]:
    """An upstream whose one commit is tagged ``v1.0`` (annotated, as releases are)."""
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/core.py", MOD)
    sha = upstream.commit("release 1.0")
    git("tag", "-a", "-m", "1.0", "v1.0", cwd=upstream.path)
    return upstream, sha


def _pinned(book: Book, up: tuple[Upstream, str], **values: object) -> Book:
    upstream, sha = up
    book.repos = {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}}
    book.write_conf(default_repo="up", **values)
    book.page("index", "# Demo\n\nSee {src}`hello <pkg.core.hello>`.\n")
    return book


def _one_line(text: str, needle: str) -> str:
    [line] = [line for line in text.splitlines() if needle in line]
    return line


def _run(argv: list[str], *, cwd: Path, env: dict[str, str | None] | None = None) -> BuildResult:
    done = subprocess.run(
        argv, capture_output=True, text=True, env=build_env(env), cwd=cwd, timeout=600, check=False
    )
    return BuildResult(done.returncode, done.stdout, done.stderr, cwd / "_build" / "html", cwd)


# 1 -- a cache directory that cannot be created or written
# ------------------------------------------------


def test_cache_under_a_regular_file_falls_back_to_the_build_with_one_warning(
    book: Book, tagged: tuple[Upstream, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "afile").write_text("not a folder\n", "utf-8")
    book.cache = tmp_path / "afile" / "cache"  # fails for root too
    _pinned(book, tagged)

    result = book.build(strict=False, fresh=True)

    assert result.returncode == 0 and "Traceback" not in result.stderr
    [warning] = result.warnings()
    assert (
        "[source-anchors.unwritable]" in warning and f"the cache directory {book.cache}" in warning
    )
    assert "source_anchors_cache_dir in conf.py" in warning and "Not a directory" in warning
    assert (
        "set SOURCE_ANCHORS_CACHE, or source_anchors_cache_dir in conf.py, to a writable directory"
        in warning
    )
    [row] = result.report()
    assert row["status"] == "new" and "/blob/" in row["permalink"]
    [local] = list((book.root / "_build").rglob("source-anchors-cache"))
    assert any((local / "trees").iterdir()), "the tree was exported into the build-local cache"

    capsys.readouterr()
    assert run_cli(book.cli("check")) == 0
    out = capsys.readouterr()
    assert "ok       up:pkg.core.hello" in out.out
    assert _one_line(out.err, "warning:").startswith(f"warning: the cache directory {book.cache}")
    assert "Traceback" not in out.err and len(out.err.strip().splitlines()) == 1


def test_read_only_home_cache_falls_back_in_sphinx_build_and_the_cli(
    tmp_path: Path, tagged: tuple[Upstream, str]
) -> None:
    upstream, sha = tagged
    root, home = tmp_path / "book", tmp_path / "home"
    home.mkdir()
    write_conf(
        root,
        {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}},
        extensions=("source_anchors",),
        default_repo="up",
    )
    (root / "index.rst").write_text("Demo\n====\n\nSee :src:`hello <pkg.core.hello>`.\n", "utf-8")
    env: dict[str, str | None] = {"HOME": str(home), "XDG_CACHE_HOME": None}

    with read_only(home) as prefix:
        built = _run(prefix + sphinx_argv(root, "-q", "--no-color"), cwd=root, env=env)
        checked = _run(prefix + cli_argv(root, "check"), cwd=root, env=env)

    assert built.returncode == 0 and "Traceback" not in built.stderr, built.stderr
    [warning] = built.warnings()
    assert (
        f"the cache directory {home}/.cache/source-anchors (from the per-user cache directory)"
        in warning
    )
    assert "[source-anchors.unwritable]" in warning and "SOURCE_ANCHORS_CACHE" in warning
    assert checked.returncode == 0 and "Traceback" not in checked.stderr, checked.stderr
    assert checked.stderr.count("warning: the cache directory") == 1
    assert "1 anchors: 1 ok" in checked.stdout


# 2 -- a read-only checkout with one new anchor
# ------------------------------------------------------------


def test_read_only_checkout_warns_at_the_lock_and_fails_only_when_locked(
    book: Book, tagged: tuple[Upstream, str], tmp_path: Path
) -> None:
    _pinned(book, tagged)
    assert book.build_subprocess("-q").returncode == 0
    before = book.lock.read_bytes()
    book.page(
        "index", "# Demo\n\nSee {src}`hello <pkg.core.hello>` and {src}`bye <pkg.core.bye>`.\n"
    )
    out = tmp_path / "out"

    def build(*options: str, env: dict[str, str | None] | None = None) -> BuildResult:
        argv = sphinx_argv(
            book.root, "--no-color", "-d", str(out / "doctrees"), *options, outdir=out / "html"
        )
        return _run(prefix + argv, cwd=book.root, env=env)

    with read_only(book.root) as prefix:
        preview = build("-q", "-E")
        locked = build("-q", "-E", env={"CI": "true"})
        update = _run(prefix + cli_argv(book.root, "update"), cwd=book.root)

    assert preview.returncode == 0 and "Traceback" not in preview.stderr, preview.stderr
    [warning] = preview.warnings()
    assert warning.startswith(
        "source-anchors.lock:1: WARNING: cannot write source-anchors.lock ("
    )  # at the lock
    assert f"{book.lock}:1: WARNING" in preview.stderr
    assert (
        "1 new anchor(s) are checked but not recorded" in warning
        and "[source-anchors.unwritable]" in warning
    )
    assert locked.returncode == 1 and "unwritable" not in locked.stderr
    assert "new: up:pkg.core.bye" in locked.stderr and "Traceback" not in locked.stderr
    assert update.returncode == 2 and "Traceback" not in update.stderr
    assert _one_line(update.stderr, "error:").startswith(
        "error: cannot write source-anchors.lock ("
    )
    assert (
        f"it is unchanged: make {book.root} writable, or run 'source-anchors update' in a writable checkout, "
        "and commit the lock" in update.stderr
    )
    # Atomic writes: the lock is intact and no temporary file is left beside it.
    assert book.lock.read_bytes() == before
    assert [p.name for p in book.root.iterdir() if p.name.startswith(".")] == []


# 5 -- a distribution of another release than the pinned commit
# -----------------------------------------


def _sdist(upstream: Upstream, commit: str, dest: Path, version: str) -> Path:
    """``demo-<version>.tar.gz``: PKG-INFO and the files of *commit* under ``demo-<version>/``."""
    archive = dest / f"demo-{version}.tar.gz"
    with tarfile.open(archive, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        members = {"PKG-INFO": f"Metadata-Version: 2.4\nName: demo\nVersion: {version}\n".encode()}
        for rel in upstream.ls_tree(commit):
            members[rel] = subprocess.run(
                ["git", "show", f"{commit}:{rel}"],
                cwd=upstream.path,
                check=True,
                capture_output=True,
            ).stdout
        for rel, data in members.items():
            info = tarfile.TarInfo(f"demo-{version}/{rel}")
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return archive


def test_a_distribution_of_another_release_is_one_warning_naming_the_mismatch(
    book: Book, upstream: Upstream
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/a.py", "def one():\n    return 1\n")
    upstream.write("pkg/b.py", "def two():\n    return 2\n")
    pinned = upstream.commit("1.0")
    upstream.write("pkg/a.py", "def one():\n    return 1.0\n")
    upstream.write("pkg/b.py", "def two():\n    return 2.0\n")
    later = upstream.commit("1.1")
    _sdist(upstream, later, book.root, "1.1")
    (book.root / "listing.txt").write_text(git("ls-tree", "-r", pinned, cwd=upstream.path), "utf-8")
    book.repos = {
        "up": {
            "url": upstream.url,
            "commit": pinned,
            "packages": ["pkg"],
            "dist": "demo-1.1.tar.gz",
            "listing": "listing.txt",
            "sources": ["dist"],
        }
    }
    book.write_conf(default_repo="up")
    book.page("index", "# Demo\n\n{src}`pkg.a.one`, {src}`pkg.b.two`, {src}`pkg.b.two::return`.\n")

    result = book.build(strict=False, fresh=True)

    [warning] = result.warnings()
    assert (
        "[source-anchors.unverified]" in warning
        and "[3 anchor(s) on 1 page(s) affected: index]" in warning
    )
    assert (
        f"up: 2 of the 3 files of demo-1.1.tar.gz that the listing of up@{pinned[:7]} also has differ"
        in warning
    )
    assert "it is not the release of this commit" in warning
    assert (
        f"set source_anchors_repos['up']['dist'] to the release built from {pinned[:7]}" in warning
    )
    assert {row["status"] for row in result.report()} == {"error"}
    # A locked build fails, and does not send the author to 'update', which cannot help.
    book.write_conf(default_repo="up", locked=True)
    locked = book.build(strict=False, fresh=True)
    [error] = [w for w in locked.warnings() if "[source-anchors.lock]" in w]
    assert locked.returncode == 1
    assert (
        "3 of them cannot be checked: fix what their warnings name ('source-anchors update' cannot)"
        in error
    )
    assert "and commit the lock" not in error


# 6 -- boolean options take the words of CI
# ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "locked"),
    [
        ("no", False),
        ("0", False),
        ("False", False),
        ("", False),
        ("yes", True),
        ("true", True),
        (" 1 ", True),
    ],
)
def test_boolean_options_read_words_as_ci_does(
    book: Book, tagged: tuple[Upstream, str], word: str, locked: bool
) -> None:
    _pinned(book, tagged, locked=word)  # no lock yet: a locked build fails on the new anchor

    result = book.build(strict=False, fresh=True)

    assert "has type" not in result.stderr  # no generic Sphinx type warning either
    assert result.returncode == (1 if locked else 0), result.stderr
    assert book.lock.is_file() is not locked


def test_a_boolean_option_with_another_word_is_a_config_error(
    book: Book, tagged: tuple[Upstream, str]
) -> None:
    _pinned(book, tagged, locked="nope")

    with pytest.raises(SystemExit):
        book.build(strict=False)

    stderr = book.last_warnings.getvalue()
    assert (
        "source_anchors_locked: expected True or False, or one of the words '1', 'true', 'yes', '', '0', "
        "'false', 'no' (those of the CI variable), got 'nope'" in stderr
    )
    assert "Traceback" not in stderr


# 9 -- a URL without a scheme
# ---------------------------------------------------------------------------------


def test_a_url_without_a_scheme_is_a_config_error_before_git_runs(
    book: Book, tagged: tuple[Upstream, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _pinned(book, tagged)
    book.repos["up"]["url"] = "github.com/encode/httpx"
    book.write_conf(default_repo="up")
    empty = tmp_path / "no-git"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # had git been asked, it would say 'not installed'

    with pytest.raises(SystemExit):
        book.build(strict=False)

    stderr = book.last_warnings.getvalue()
    assert (
        "source_anchors_repos['up']['url']: 'github.com/encode/httpx' has no scheme, so git would read it "
        "as a folder of this machine; write the repository's URL in full, such as "
        "'https://github.com/encode/httpx'" in stderr
    )
    assert "git" not in stderr.replace("so git would", "").replace("github", "")


# 10 -- an unknown commit names the setting and how to find the right value
# --------------------------------


def test_an_unknown_commit_names_the_setting_and_the_way_to_the_right_one(
    book: Book, tagged: tuple[Upstream, str]
) -> None:
    _pinned(book, tagged)
    book.repos["up"]["commit"] = "1234567890abcdef1234567890abcdef12345678"
    book.write_conf(default_repo="up")

    [warning] = book.build(strict=False).warnings()

    assert "the remote has no commit 1234567890abcdef1234567890abcdef12345678" in warning
    assert (
        "fix source_anchors_repos['up']['commit'] in conf.py: 'source-anchors pin up TAG' writes the commit "
        f"of a tag or branch there, and 'git ls-remote {tagged[0].url}' lists them all" in warning
    )


# 12 -- from a tag to a pinned commit
# --------------------------------------------------------------------------


def test_pin_writes_the_commit_of_a_tag_and_the_book_builds_strict(
    book: Book, tagged: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, sha = tagged
    _pinned(book, tagged)
    conf = book.root / "conf.py"
    conf.write_text(conf.read_text("utf-8").replace(sha, "v1.0"), "utf-8")

    # The build and bump refuse the tag, naming the command that fixes it.
    with pytest.raises(SystemExit):
        book.build(strict=False)
    advice = "run 'source-anchors pin up v1.0' (it writes the commit and records 'v1.0' as 'ref')"
    assert advice in book.last_warnings.getvalue()
    capsys.readouterr()
    assert run_cli(book.cli("bump", "up", "v1.0")) == 2
    assert advice in capsys.readouterr().err

    assert run_cli(book.cli("pin", "up")) == 0
    out = capsys.readouterr().out
    assert f"up: 'v1.0' is {sha} at {upstream.url}" in out
    assert f"source_anchors_repos['up']['commit'] 'v1.0' → '{sha}'" in out
    text = conf.read_text("utf-8")
    assert re.search(rf"'commit': '{sha}', \"ref\": \"v1.0\", 'packages'", text), text
    assert book.build(strict=True, fresh=True).returncode == 0  # -W: green, and the lock written
    book.repos["up"]["ref"] = "v1.0"
    book.write_conf(default_repo="up", locked=True)
    assert book.build(strict=True, fresh=True).returncode == 0  # locked: the lock matches


def test_pin_with_an_unknown_tag_names_where_to_look(
    book: Book, tagged: tuple[Upstream, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, _ = tagged
    _pinned(book, tagged)
    before = (book.root / "conf.py").read_bytes()

    assert run_cli(book.cli("pin", "up", "v9.9")) == 2

    err = capsys.readouterr().err
    assert (
        f"error: up: no tag or branch 'v9.9' at {upstream.url}; 'git ls-remote {upstream.url}' lists"
        in err
    )
    assert (book.root / "conf.py").read_bytes() == before


def test_pin_runs_as_a_command(book: Book, tagged: tuple[Upstream, str]) -> None:
    upstream, sha = tagged
    book.repos = {"up": {"url": upstream.url, "commit": "v1.0", "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    done = subprocess.run(
        [PY, "-m", "source_anchors", "pin", "up"],
        cwd=book.root,
        capture_output=True,
        text=True,
        env=build_env(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert sha in (book.root / "conf.py").read_text("utf-8")
