"""The docs' own repository: its address as configured, never a rewrite or a credential; quiet when unused.

Each test makes a small project with git (a package and a ``docs`` folder) and builds it with
``sphinx-build`` in a subprocess. git's ``url.<base>.insteadOf`` rewrites are set in a global
configuration file of the test's own (``GIT_CONFIG_GLOBAL``) or in the project's, as a CI runner
or a corporate mirror sets them.
"""

from __future__ import annotations

import re
import subprocess
import textwrap
from pathlib import Path

import pytest
from helpers import PY, Book, SharedUpstream, build_env, git

SECRET = "SECRET-7f3a"
PAGE = """\
API
===

.. py:module:: tinypkg

.. py:function:: greet(name)

   Says hello.
"""
LINK = re.compile(r'class="reference external sa-api-source" href="([^"]+)"')


def _project(root: Path, origin: str | None, *, conf: str = "", page: str = PAGE) -> Path:
    """A committed project (``tinypkg`` and ``docs/``) whose ``origin`` is *origin*; its docs folder."""
    (root / "tinypkg").mkdir(parents=True)
    (root / "tinypkg" / "__init__.py").write_text(
        '"""Tiny."""\n\n\ndef greet(name):\n    return name\n', "utf-8"
    )
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        'extensions = ["source_anchors"]\nsource_anchors_api_links = "self"\n' + conf, "utf-8"
    )
    (docs / "index.rst").write_text(page, "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "release", cwd=root)
    if origin is not None:
        git("remote", "add", "origin", origin, cwd=root)
    return docs


def _global_config(tmp_path: Path, text: str) -> dict[str, str | None]:
    """The variables that make *text* git's global configuration (and no system one)."""
    path = tmp_path / "gitconfig"
    path.write_text(textwrap.dedent(text), "utf-8")
    return {"GIT_CONFIG_GLOBAL": str(path), "GIT_CONFIG_NOSYSTEM": "1"}


def _build(docs: Path, env: dict[str, str | None] | None = None, *options: str) -> tuple[str, Path]:
    """Build *docs* to HTML with ``sphinx-build``; its log (stdout and stderr) and output folder."""
    out = docs / "_build" / "html"
    done = subprocess.run(
        [PY, "-m", "sphinx", *options, str(docs), str(out)],
        capture_output=True,
        text=True,
        env=build_env({"SOURCE_ANCHORS_CACHE": str(docs.parent.parent / "cache"), **(env or {})}),
        cwd=docs,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr, out


def _links(out: Path) -> list[str]:
    return LINK.findall((out / "index.html").read_text("utf-8"))


def _files_holding(text: str, *folders: Path) -> list[Path]:
    """Every file under *folders* whose bytes contain *text*."""
    return [
        path
        for folder in folders
        for path in folder.rglob("*")
        if path.is_file() and text.encode() in path.read_bytes()
    ]


@pytest.mark.parametrize("where", ["global", "repository"])
def test_a_mirror_rewrite_leaves_the_links_on_the_configured_address(
    tmp_path: Path, where: str
) -> None:
    mirror = tmp_path / "mirror.git"
    git("init", "-q", "--bare", str(mirror), cwd=tmp_path)
    docs = _project(tmp_path / "proj", "https://github.com/owner/repo.git")
    rule = f'[url "{mirror.as_uri()}"]\n\tinsteadOf = https://github.com/owner/repo\n'
    env = _global_config(tmp_path, rule if where == "global" else "")
    if where == "repository":
        with open(docs.parent / ".git" / "config", "a", encoding="utf-8") as config:
            config.write(rule)
    # git itself now names the mirror as the origin's address ...
    rewritten = subprocess.run(
        ["git", "remote", "get-url", "origin"],
        cwd=docs,
        capture_output=True,
        text=True,
        env=build_env(env),
        check=True,
    ).stdout
    assert rewritten.strip().startswith("file://")
    log, out = _build(docs, env)
    commit = git("rev-parse", "HEAD", cwd=docs)
    # ... and the links keep the address the repository is configured with.
    assert _links(out) == [
        f"https://github.com/owner/repo/blob/{commit.strip()}/tinypkg/__init__.py",
        f"https://github.com/owner/repo/blob/{commit.strip()}/tinypkg/__init__.py#L4-L5",
    ]
    assert "file://" not in log and "no web address" not in log


def test_a_token_rewrite_shows_nowhere(tmp_path: Path) -> None:
    docs = _project(
        tmp_path / "proj",
        "https://github.com/owner/repo.git",
        page=PAGE + "\n.. feedback-channel::\n",
    )
    env = _global_config(
        tmp_path,
        f'[url "https://x-access-token:{SECRET}@github.com/"]\n\tinsteadOf = https://github.com/\n',
    )
    rewritten = subprocess.run(
        ["git", "remote", "get-url", "origin"],
        cwd=docs,
        capture_output=True,
        text=True,
        env=build_env(env),
        check=True,
    ).stdout
    assert SECRET in rewritten
    log, out = _build(docs, env)
    assert _links(out)[0].startswith("https://github.com/owner/repo/blob/")
    assert "reports go to https://github.com/owner/repo (from the 'origin' remote of proj)" in log
    assert SECRET not in log
    assert _files_holding(SECRET, out, tmp_path / "cache") == []


def test_credentials_in_the_configured_origin_show_nowhere(tmp_path: Path) -> None:
    docs = _project(
        tmp_path / "proj",
        f"https://user:{SECRET}@github.com/o/r.git",
        page=PAGE + "\n.. feedback-channel::\n",
    )
    log, out = _build(docs, _global_config(tmp_path, ""))
    assert all(link.startswith("https://github.com/o/r/blob/") for link in _links(out))
    assert 'href="https://github.com/o/r/issues/new?' in (out / "index.html").read_text("utf-8")
    assert "reports go to https://github.com/o/r (from " in log
    assert SECRET not in log
    assert _files_holding(SECRET, out, tmp_path / "cache") == []


def test_an_origin_that_is_no_web_address_is_named_without_its_credentials(tmp_path: Path) -> None:
    docs = _project(tmp_path / "proj", f"https://x-access-token:{SECRET}@example.org")
    log, out = _build(docs, _global_config(tmp_path, ""))
    assert "its 'origin' remote 'https://example.org' is no web address" in log
    assert SECRET not in log
    assert _links(out) == []


@pytest.mark.parametrize("setting", ["api_url", "feedback_repo"])
def test_credentials_in_a_configured_address_show_nowhere(tmp_path: Path, setting: str) -> None:
    conf = f"source_anchors_{setting} = 'https://user:{SECRET}@github.com/o/r.git'\n"
    docs = _project(tmp_path / "proj", None, conf=conf, page=PAGE + "\n.. feedback-channel::\n")
    log, out = _build(docs, _global_config(tmp_path, ""))
    html = (out / "index.html").read_text("utf-8")
    if setting == "api_url":
        assert all(link.startswith("https://github.com/o/r/blob/") for link in _links(out))
    else:
        assert 'href="https://github.com/o/r/issues/new?' in html
    assert SECRET not in log
    # Sphinx keeps conf.py's values, as written, in its pickled environment; nothing else holds the
    # secret.
    assert [p.name for p in _files_holding(SECRET, out, tmp_path / "cache")] == [
        "environment.pickle"
    ]


def test_a_refused_feedback_repository_is_named_without_its_credentials(tmp_path: Path) -> None:
    docs = _project(
        tmp_path / "proj",
        None,
        conf=f"source_anchors_feedback_repo = 'http://u:{SECRET}@github.com/o/r'\n",
    )
    done = subprocess.run(
        [PY, "-m", "sphinx", str(docs), str(docs / "_build")],
        capture_output=True,
        text=True,
        env=build_env({"SOURCE_ANCHORS_CACHE": str(tmp_path / "cache")}),
        timeout=300,
        check=False,
    )
    assert done.returncode != 0
    assert "got 'http://github.com/o/r'" in done.stderr
    assert SECRET not in done.stdout + done.stderr


def test_api_links_alone_print_nothing_about_anchors_or_feedback(tmp_path: Path) -> None:
    docs = _project(tmp_path / "proj", "git@github.com:owner/repo.git")
    env = _global_config(tmp_path, "")
    log, out = _build(docs, env)
    assert len(_links(out)) == 2
    assert "source_anchors: reports go to" not in log
    assert "anchors resolved" not in log
    # -v asks for the figures, anchors or not.
    log, _ = _build(docs, env, "-v", "-E")
    assert "source-anchors: 0 anchors resolved, 0 from the resolution cache" in log
    assert "source_anchors: reports go to" not in log


def test_anchors_bring_the_figures_and_a_feedback_directive_the_channel(tmp_path: Path) -> None:
    # The project pins itself, by its folder, for one anchor beside the API links.
    docs = _project(tmp_path / "proj", "git@github.com:owner/repo.git")
    commit = git("rev-parse", "HEAD", cwd=docs).strip()
    git("config", "uploadpack.allowFilter", "true", cwd=docs)
    (docs / "conf.py").write_text(
        (docs / "conf.py").read_text("utf-8")
        + textwrap.dedent(f"""\
        source_anchors_repos = {{"own": {{"url": {docs.parent.as_uri()!r}, "commit": {commit!r},
                                          "packages": ["tinypkg"]}}}}
        source_anchors_default_repo = "own"
        """),
        "utf-8",
    )
    (docs / "index.rst").write_text(
        PAGE + "\nSee :src:`greet <tinypkg.greet>`.\n\n.. feedback-line::\n", "utf-8"
    )
    log, _ = _build(docs, _global_config(tmp_path, ""))
    assert re.search(r"source-anchors: \d+ anchors resolved, \d+ from the resolution cache", log)
    assert (
        "source_anchors: reports go to https://github.com/owner/repo (from the 'origin' remote of proj); set "
        "source_anchors_feedback_repo" in log
    )


def test_a_pins_credentials_stay_out_of_the_ledger_and_the_messages(
    shared_upstream: SharedUpstream, book: Book, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pin's URL with a token fetches (git rewrites it to the upstream here); pages and messages show none."""
    tokened = f"https://bot:{SECRET}@github.com/o/r"
    monkeypatch.setenv(
        "GIT_CONFIG_GLOBAL",
        _global_config(
            tmp_path,
            f"""\
        [url "{shared_upstream.url}"]
            insteadOf = {tokened}
        """,
        )["GIT_CONFIG_GLOBAL"]
        or "",
    )
    sha = shared_upstream.commits["ledger"]
    book.repos = {"up": {"url": tokened, "commit": sha, "packages": ["pkg"]}}
    book.settings = {"html_search_language": "en"}
    book.write_conf(default_repo="up", feedback_email="book@example.org")
    book.from_root("ledger")
    result = book.build(strict=False)
    assert result.returncode == 0, result.stderr
    ledger = (result.outdir / "ledger.html").read_text("utf-8")
    assert (
        f'href="https://github.com/o/r/blob/{sha}/"' in ledger
        and ">https://github.com/o/r<" in ledger
    )
    assert SECRET not in result.stdout + result.stderr
    assert _files_holding(SECRET, result.outdir) == []
    # Unreachable: git's own message names the URL it was given; the warning does not carry the
    # token.
    book.repos = {
        "up": {
            "url": f"https://bot:{SECRET}@127.0.0.1:9/o/r",
            "host": "github",
            "commit": "1" * 40,
            "packages": ["pkg"],
        }
    }
    book.write_conf(
        default_repo="up", feedback_email="book@example.org", cache_dir=str(tmp_path / "cold")
    )
    failed = book.build(strict=False, fresh=True)
    assert "127.0.0.1:9/o/r" in failed.stderr and SECRET not in failed.stdout + failed.stderr, (
        failed.stderr
    )
