"""Tests for obtaining pinned trees (``source_anchors.sources.trees``): git, the cache, distributions.

Upstreams are real git repositories made here and served as ``file://`` remotes
with blob filters allowed; distributions are built here (a wheel with ``pip
wheel``, an sdist with ``tarfile``) and downloaded by the extension's own ``pip
download`` through pip's configuration (``PIP_NO_INDEX`` + ``PIP_FIND_LINKS``; no pip
configuration file is read).
Nothing of git, pip or Sphinx is mocked.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import Book, SharedUpstream, Upstream, build_env, git, make_book, sphinx_argv
from source_anchors.engine.engine import Engine
from source_anchors.model.config import Settings, settings_from
from source_anchors.model.errors import ConfigError, SourceError
from source_anchors.model.records import Outcome
from source_anchors.model.target import parse_target
from source_anchors.sources.archive import blob_id
from source_anchors.sources.trees import TreeCache, cache_key

#: Port 9 (discard) on the loopback: nothing listens, so connecting is refused at once.
DEAD_URL = "http://127.0.0.1:9/nothing.git"
LICENCE = "MIT License\n\nPermission is hereby granted, free of charge.\n"
INIT = '"""The demo package."""\n'
MOD = '''\
"""A module."""


def func(value):
    """Double it."""
    return value * 2
'''


# -- helpers ------------------------------------------------------------------


def _settings(
    tmp_path: Path, *, confdir: Path | None = None, cache: Path | None = None, **entry: Any
) -> Settings:
    """Settings with one repository ``up`` (packages ``['pkg']`` unless given)."""
    repo = {"packages": ["pkg"], **entry}
    return settings_from(
        {"repos": {"up": repo}, "cache_dir": str(cache or tmp_path / "cache")},
        confdir=confdir or tmp_path,
        environ={},
    )


def _check(engine: Engine, text: str) -> Outcome:
    return engine.check(parse_target(text, default_repo=None))


def _files(root: Path) -> dict[str, Path]:
    """Every regular file below *root* (links not followed), by relative path."""
    found = {}
    for folder, _dirs, names in os.walk(root, followlinks=False):
        for name in names:
            path = Path(folder, name)
            found[path.relative_to(root).as_posix()] = path
    return found


def _ls_tree(upstream: Upstream, commit: str) -> dict[str, str]:
    """{path: blob id} of every blob of *commit*, straight from ``git ls-tree -r``."""
    return upstream.ls_tree(commit)


def _demo(upstream: Upstream, **extra: str) -> str:
    """A small package plus a root licence; returns the commit."""
    upstream.write("pkg/__init__.py", INIT)
    upstream.write("pkg/mod.py", MOD)
    upstream.write("LICENSE", LICENCE)
    for rel, text in extra.items():
        upstream.write(rel, text)
    return upstream.commit("demo")


def _many_modules(upstream: Upstream, count: int) -> str:
    """The demo package plus *count* small modules (to make an export take a while)."""
    for index in range(count):
        target = upstream.path / "pkg" / f"group{index % 20}" / f"mod{index}.py"
        if not target.parent.is_dir():
            target.parent.mkdir(parents=True)
            (target.parent / "__init__.py").write_text("", "utf-8")
        target.write_text(
            f'"""Module {index}."""\n\nVALUE_{index} = {os.urandom(96).hex()!r}\n', "utf-8"
        )
    return _demo(upstream)


def _tree_dirs(cache: Path) -> list[Path]:
    trees = cache / "trees"
    return sorted(trees.iterdir()) if trees.is_dir() else []


def _tmp_entries(cache: Path) -> list[Path]:
    tmp = cache / "tmp"
    return sorted(tmp.iterdir()) if tmp.is_dir() else []


@dataclass(frozen=True)
class Demo:
    """The session upstream's "demo" commit: INIT, MOD and LICENCE, as ``_demo`` writes them (read-only)."""

    upstream: Upstream
    url: str
    commit: str


@pytest.fixture
def demo(shared_upstream: SharedUpstream) -> Demo:
    for rel, text in (("pkg/__init__.py", INIT), ("pkg/mod.py", MOD), ("LICENSE", LICENCE)):
        assert shared_upstream.text("demo", rel) == text
    return Demo(shared_upstream.upstream, shared_upstream.url, shared_upstream.commits["demo"])


@pytest.fixture
def no_git_path(tmp_path: Path) -> str:
    """A PATH that holds no git (an empty directory)."""
    empty = tmp_path / "bin-without-git"
    empty.mkdir()
    return str(empty)


@pytest.fixture
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """A proxy from the environment must not stand between git and 127.0.0.1."""
    for name in (
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
    ):
        monkeypatch.delenv(name, raising=False)


# -- 1. git exports only what anchors need ------------------------------------------


def test_git_export_fetches_only_packages_and_licence(
    tree_upstream: Upstream, tmp_path: Path
) -> None:
    upstream = tree_upstream
    upstream.clear()  # this commit holds the files written below only
    big = os.urandom(5 * 1024 * 1024)
    (upstream.path / "data").mkdir()
    (upstream.path / "data" / "big.bin").write_bytes(big)
    commit = _demo(
        upstream,
        **{
            "pkg/sub/deep.py": "DEEP = 1\n",
            "pkgextra/other.py": "OTHER = 1\n",  # shares a prefix with 'pkg' but is not under it
            "docs/LICENSE": "not a root licence\n",
            "README.md": "# Demo\n",
            "setup.py": "raise SystemExit('never run')\n",
        },
    )
    settings = _settings(tmp_path, url=upstream.url, commit=commit)
    cache = TreeCache(settings.cache_dir, timeout=60)

    tree = cache.get(settings.repos["up"])

    assert (cache.exports, tree.method, tree.commit) == (1, "git", commit)
    exported = _files(tree.root)
    assert sorted(exported) == ["LICENSE", "pkg/__init__.py", "pkg/mod.py", "pkg/sub/deep.py"]
    assert sorted(tree.blobs) == sorted(exported)
    listing = _ls_tree(upstream, commit)
    for rel, path in exported.items():
        assert path.read_bytes() == (upstream.path / rel).read_bytes()
        assert tree.blobs[rel] == listing[rel] == blob_id(path.read_bytes())
    # The listing still names every file of the commit, the big one included, with git's blob ids.
    assert tree.listing is not None
    assert dict(tree.listing) == listing
    assert tree.listing["data/big.bin"] == blob_id(big)
    # Not one file of the cache (trees, leftovers, locks, anything) holds the big file's bytes.
    everything = _files(settings.cache_dir)
    samples = [big[offset : offset + 64] for offset in (0, 1_000_000, 2_500_000, len(big) - 64)]
    total = 0
    for rel, path in everything.items():
        data = path.read_bytes()
        total += len(data)
        assert not any(sample in data for sample in samples), f"{rel} holds bytes of data/big.bin"
    assert total < 200_000, f"the cache holds {total:,} bytes: {sorted(everything)}"
    assert _tmp_entries(settings.cache_dir) == []


@pytest.mark.parametrize("spelling", ["path", "file-url"])
def test_git_export_keeps_a_url_that_config_syntax_would_change(
    tmp_path: Path, spelling: str
) -> None:
    """The export writes its partial clone's settings into git's config file itself: a URL holding
    the characters that file's syntax treats specially (quote, backslash, comment signs) reaches git
    whole."""
    upstream = Upstream(tmp_path / 'we"ird\\ #dir; x' / "upstream")
    commit = _demo(upstream)
    url = str(upstream.path) if spelling == "path" else f"file://{upstream.path}"
    settings = _settings(tmp_path, url=url, commit=commit)

    tree = TreeCache(settings.cache_dir, timeout=60).get(settings.repos["up"])

    assert tree.method == "git"
    assert (tree.root / "pkg" / "mod.py").read_bytes() == (
        upstream.path / "pkg" / "mod.py"
    ).read_bytes()


# -- 2. a cached tree is reused without git -------------------------------------------


def test_cached_tree_is_reused_without_git(
    demo: Demo, tmp_path: Path, no_git_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream, commit = demo, demo.commit
    settings = _settings(tmp_path, url=upstream.url, commit=commit)
    first = TreeCache(settings.cache_dir, timeout=60).get(settings.repos["up"])

    monkeypatch.setenv("PATH", no_git_path)
    assert shutil.which("git") is None
    again = TreeCache(settings.cache_dir, timeout=60)
    assert again.get(settings.repos["up"]) == first
    assert again.exports == 0
    # Even a pin that does not list 'cache' first finds the tree before it would call git.
    git_only = _settings(tmp_path, url=upstream.url, commit=commit, sources=["git"])
    assert again.get(git_only.repos["up"]) == first
    assert again.exports == 0
    # Without the cached tree, git really is needed and its absence is named.
    cold = TreeCache(tmp_path / "cold-cache", timeout=60)
    with pytest.raises(SourceError, match=r"git: .*not installed or not on PATH"):
        cold.get(settings.repos["up"])


def test_warm_cache_book_builds_strictly_without_git(
    demo: Demo, book: Book, no_git_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream, commit = demo, demo.commit
    book.repos = {"up": {"url": upstream.url, "commit": commit, "packages": ["pkg"]}}
    book.write_conf()
    book.page(
        "index",
        """
        # Demo

        Doubling happens in {src}`func <up:pkg.mod.func>`; the module is {src}`up:pkg.mod`.
        """,
    )
    warm = book.build()
    assert warm.returncode == 0, warm.stderr

    monkeypatch.setenv("PATH", no_git_path)  # the extension runs git with our environment
    cold_env = book.build(fresh=True, out="without-git")

    assert cold_env.returncode == 0, cold_env.stderr
    rows = cold_env.report()
    assert [row["status"] for row in rows] == ["ok", "ok"]
    assert all(f"/blob/{commit}/pkg/mod.py" in str(row["permalink"]) for row in rows)
    assert len(_tree_dirs(book.cache)) == 1


# -- 3. an unreachable remote ------------------------------------------------------------


def test_unreachable_remote_fails_fast_naming_git_and_the_reason(
    tmp_path: Path, no_proxy: None
) -> None:
    settings = _settings(tmp_path, url=DEAD_URL, host="github", commit="1" * 40, sources=["git"])
    cache = TreeCache(settings.cache_dir, timeout=60)

    start = time.monotonic()
    with pytest.raises(SourceError) as caught:
        cache.get(settings.repos["up"])
    assert time.monotonic() - start < 60

    message = str(caught.value)
    assert "tried git: " in message
    assert DEAD_URL in message
    assert re.search(r"(?i)failed to connect|couldn't connect|connection refused", message), message
    assert _tree_dirs(settings.cache_dir) == [] and _tmp_entries(settings.cache_dir) == []


def test_unreachable_remote_error_names_every_attempt(tmp_path: Path, no_proxy: None) -> None:
    settings = _settings(
        tmp_path, url=DEAD_URL, host="github", commit="1" * 40, sources=["cache", "git", "dist"]
    )

    start = time.monotonic()
    with pytest.raises(SourceError) as caught:
        TreeCache(settings.cache_dir, timeout=60).get(settings.repos["up"])
    outcome = _check(Engine(settings), "up:pkg.mod.func")
    assert time.monotonic() - start < 60

    message = str(caught.value)
    assert re.search(
        r"tried cache: no exported tree yet; git: .*(?i:connect).*; dist: no 'dist' configured$",
        message,
    ), message
    assert (outcome.status, outcome.subtype) == ("error", "source")
    assert all(f"{kind}: " in outcome.message for kind in ("cache", "git", "dist"))


# Regression: gitio.git() labelled errors 'git {args[0]}', and the fetch starts with '-c' options,
# so a failed fetch read 'git -c: fatal: ...'.
def test_unreachable_remote_error_names_the_git_subcommand(tmp_path: Path, no_proxy: None) -> None:
    settings = _settings(tmp_path, url=DEAD_URL, host="github", commit="1" * 40, sources=["git"])
    with pytest.raises(SourceError) as caught:
        TreeCache(settings.cache_dir, timeout=60).get(settings.repos["up"])
    assert "git fetch:" in str(caught.value)


# -- 4. concurrent cold builds share one cache ----------------------------------------------


def test_concurrent_cold_builds_share_one_export(
    tree_upstream: Upstream, book: Book, tmp_path: Path
) -> None:
    upstream = tree_upstream
    upstream.clear()  # this commit holds the files written below only
    commit = _many_modules(upstream, 400)
    book.repos = {"up": {"url": upstream.url, "commit": commit, "packages": ["pkg"]}}
    book.write_conf()
    page = """
        # Demo

        See {src}`func <up:pkg.mod.func>` and {src}`up:pkg.group3.mod3.VALUE_3`.
        """
    book.page("index", page)
    twin = make_book(tmp_path / "book-twin", book.cache, repos=book.repos, pages=[("index", page)])

    # Two sphinx-build processes at once: only separate processes race on the cache as users' builds
    # do.
    procs = [
        subprocess.Popen(
            sphinx_argv(b.root, "-W"),
            cwd=b.root,
            env=build_env(),
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for b in (book, twin)
    ]
    outputs = [proc.communicate(timeout=300) for proc in procs]

    for proc, (_out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
    trees = _tree_dirs(book.cache)
    assert [t.name for t in trees] == [cache_key(upstream.url, commit)]
    assert (trees[0] / "meta.json").is_file()
    assert _tmp_entries(book.cache) == []
    for b in (book, twin):
        rows = json.loads((b.root / "_build" / "html" / "source-anchors.json").read_text("utf-8"))
        assert [row["status"] for row in rows] == ["new", "new"]
        assert [row["path"] for row in rows] == ["pkg/mod.py", "pkg/group3/mod3.py"]


# -- 5. a killed export ---------------------------------------------------------------------


def _kill_during_export(book: Book, key: str) -> list[Path] | None:
    """Start a cold build; SIGKILL its whole process group once git has fetched into the staging area.

    Returns the staging leftovers when the kill landed during the export, else None.
    """
    shutil.rmtree(book.cache, ignore_errors=True)
    shutil.rmtree(book.root / "_build", ignore_errors=True)
    staging_parent = book.cache / "tmp"
    proc = subprocess.Popen(
        sphinx_argv(book.root, "-W"),
        cwd=book.root,
        env=build_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    killed = False
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if staging_parent.is_dir() and any(
                staging_parent.glob(f"{key}.*/repo.git/objects/pack/*.pack")
            ):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                killed = True
                break
            time.sleep(0.001)
    finally:
        if proc.poll() is None and not killed:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    final = book.cache / "trees" / key
    leftovers = sorted(staging_parent.glob(f"{key}.*")) if staging_parent.is_dir() else []
    if (
        killed
        and proc.returncode == -signal.SIGKILL
        and leftovers
        and not (final / "meta.json").exists()
    ):
        return leftovers
    return None


def test_killed_export_leaves_leftovers_that_the_next_build_removes(
    tree_upstream: Upstream, book: Book
) -> None:
    upstream = tree_upstream
    upstream.clear()  # this commit holds the files written below only
    commit = _many_modules(upstream, 1000)
    book.repos = {"up": {"url": upstream.url, "commit": commit, "packages": ["pkg"]}}
    book.write_conf()
    book.page(
        "index",
        """
        # Demo

        See {src}`func <up:pkg.mod.func>` and {src}`up:pkg.group7.mod987.VALUE_987`.
        """,
    )
    key = cache_key(upstream.url, commit)

    leftovers = None
    for _attempt in range(3):
        leftovers = _kill_during_export(book, key)
        if leftovers:
            break
    if not leftovers:
        pytest.skip("could not SIGKILL the build while its export was staged (3 tries)")
    assert not book.lock.exists()

    done = book.build()

    assert done.returncode == 0, done.stderr
    assert all(not path.exists() for path in leftovers)
    assert _tmp_entries(book.cache) == []
    assert [t.name for t in _tree_dirs(book.cache)] == [key]
    tree = TreeCache(book.cache, timeout=60).cached(upstream.url, commit)
    assert tree is not None
    wanted = {
        path: blob
        for path, blob in _ls_tree(upstream, commit).items()
        if path.startswith("pkg/") or path == "LICENSE"
    }
    assert dict(tree.blobs) == wanted
    exported = _files(tree.root)
    assert sorted(exported) == sorted(wanted)
    assert all(blob_id(exported[path].read_bytes()) == blob for path, blob in wanted.items())
    assert [row["status"] for row in done.report()] == ["new", "new"]


# -- 6. a half-written tree -----------------------------------------------------------------


@pytest.mark.parametrize(
    "damage", ["no meta.json", "truncated meta.json", "meta.json of another format"]
)
def test_half_written_tree_is_detected_and_redone(demo: Demo, tmp_path: Path, damage: str) -> None:
    upstream, commit = demo, demo.commit
    settings = _settings(tmp_path, url=upstream.url, commit=commit)
    key = cache_key(upstream.url, commit)
    half = settings.cache_dir / "trees" / key
    (half / "files" / "pkg").mkdir(parents=True)
    (half / "files" / "pkg" / "mod.py").write_text("def func(val", "utf-8")  # cut short
    (half / "files" / "stale.py").write_text("STALE = True\n", "utf-8")
    if damage == "truncated meta.json":
        (half / "meta.json").write_text('{"blobs": {"pkg/mod.py": "', "utf-8")
    elif damage == "meta.json of another format":
        (half / "meta.json").write_text(
            json.dumps(
                {"format": 0, "commit": commit, "method": "git", "blobs": {"pkg/mod.py": "0" * 40}}
            ),
            "utf-8",
        )
    leftover = settings.cache_dir / "tmp" / f"{key}.killed"
    (leftover / "repo.git").mkdir(parents=True)
    cache = TreeCache(settings.cache_dir, timeout=60)

    assert cache.cached(upstream.url, commit) is None
    cache_only = _settings(tmp_path, url=upstream.url, commit=commit, sources=["cache"])
    with pytest.raises(SourceError, match="cache: no exported tree yet"):
        cache.get(cache_only.repos["up"])
    tree = cache.get(settings.repos["up"])

    assert cache.exports == 1
    assert tree.root == half / "files"
    assert json.loads((half / "meta.json").read_text("utf-8"))["commit"] == commit
    assert sorted(_files(tree.root)) == ["LICENSE", "pkg/__init__.py", "pkg/mod.py"]
    assert (tree.root / "pkg" / "mod.py").read_text("utf-8") == MOD
    assert not leftover.exists()
    assert _check(Engine(settings), "up:pkg.mod.func").status == "new"


# Regression: Tree.read_bytes() trusted a cached tree whose meta.json was whole: a file deleted
# later raised FileNotFoundError out of Engine.check() (a traceback, not a warning), and a file
# edited later was resolved as if it were the commit (Engine.verify() checks only 'dist' trees), its
# edited lines reported with the commit's blob id.
@pytest.mark.parametrize("damage", ["deleted", "edited"])
def test_file_damaged_after_export_is_not_trusted(demo: Demo, tmp_path: Path, damage: str) -> None:
    upstream, commit = demo, demo.commit
    settings = _settings(tmp_path, url=upstream.url, commit=commit)
    pristine = _check(Engine(settings), "up:pkg.mod.func")
    assert pristine.status == "new"
    cached = TreeCache(settings.cache_dir, timeout=60).cached(upstream.url, commit)
    assert cached is not None
    module = cached.root / "pkg" / "mod.py"
    if damage == "deleted":
        module.unlink()
    else:  # e.g. an editor that followed a link into the cache and saved
        module.write_text(MOD.replace("value * 2", "value * 2  # edited"), "utf-8")

    outcome = _check(Engine(settings), "up:pkg.mod.func")

    # Either the tree is exported again (same location as before) or the damage is reported.
    assert outcome.location == pristine.location or (
        outcome.status == "error" and "pkg/mod.py" in outcome.message
    ), outcome


# -- 7. verified distributions --------------------------------------------------------------

BACKEND = '''\
"""A tiny PEP 517 backend with no requirements, so pip builds this project offline."""

import base64
import hashlib
import zipfile
from pathlib import Path

NAME, VERSION = "sademo", "1.0"
ROOT = Path(__file__).parent
DIST_INFO = f"{NAME}-{VERSION}.dist-info"
METADATA = f"Metadata-Version: 2.4\\nName: {NAME}\\nVersion: {VERSION}\\nLicense-File: LICENSE\\n"
WHEEL = "Wheel-Version: 1.0\\nGenerator: sa_backend\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    target = Path(metadata_directory) / DIST_INFO
    target.mkdir(parents=True, exist_ok=True)
    (target / "METADATA").write_text(METADATA)
    (target / "WHEEL").write_text(WHEEL)
    return DIST_INFO


def _hash(data):
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    entries = [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in sorted((ROOT / "pkg").rglob("*.py"))]
    entries += [(f"{DIST_INFO}/licenses/LICENSE", (ROOT / "LICENSE").read_bytes()),
                (f"{DIST_INFO}/METADATA", METADATA.encode()), (f"{DIST_INFO}/WHEEL", WHEEL.encode())]
    record = "".join(f"{name},sha256={_hash(data)},{len(data)}\\n" for name, data in entries)
    entries.append((f"{DIST_INFO}/RECORD", (record + f"{DIST_INFO}/RECORD,,\\n").encode()))
    name = f"{NAME}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry, data in entries:
            archive.writestr(entry, data)
    return name
'''

PYPROJECT = """\
[build-system]
requires = []
build-backend = "sa_backend"
backend-path = ["."]

[project]
name = "sademo"
version = "1.0"
license-files = ["LICENSE"]
"""

ALPHA = '''\
"""First module."""


def func(value):
    """Double it."""
    return value * 2
'''

BETA = '''\
"""Second module."""


def other(value):
    """Triple it."""
    return value * 3
'''


@dataclass(frozen=True)
class DistProject:
    """An upstream with a wheel and an sdist of its commit, good and with one byte changed."""

    upstream: Upstream
    commit: str
    listing: str
    #: Find-links directories by name: wheel, sdist, wheel-changed, sdist-changed.
    index: dict[str, Path]


def _pip_wheel(project: Path, dest: Path) -> Path:
    # The in-tree backend is imported from the project's folder: no byte code may be left beside it,
    # or the tree is no longer the commit's (whatever the caller's PYTHONDONTWRITEBYTECODE says).
    env = {
        **os.environ,
        "PIP_NO_INDEX": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(dest),
            str(project),
        ],
        check=True,
        capture_output=True,
        env=env,
        timeout=120,
    )
    (wheel,) = dest.glob("*.whl")
    return wheel


def _sdist(project: Path, dest: Path) -> Path:
    """``sademo-1.0.tar.gz``: PKG-INFO plus the tracked files of the work tree under ``sademo-1.0/``."""
    dest.mkdir(parents=True, exist_ok=True)
    tracked = git("ls-files", "-z", cwd=project).split("\0")
    archive = dest / "sademo-1.0.tar.gz"
    with tarfile.open(archive, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        members = {
            "PKG-INFO": b"Metadata-Version: 2.4\nName: sademo\nVersion: 1.0\nLicense-File: LICENSE\n"
        }
        members.update({rel: (project / rel).read_bytes() for rel in tracked if rel})
        for rel, data in members.items():
            info = tarfile.TarInfo(f"sademo-1.0/{rel}")
            info.size, info.mode, info.mtime = len(data), 0o644, 1_700_000_000
            tar.addfile(info, io.BytesIO(data))
    return archive


@pytest.fixture(scope="module")
def dist_project(tmp_path_factory: pytest.TempPathFactory) -> DistProject:
    base = tmp_path_factory.mktemp("dist")
    upstream = Upstream(base / "upstream")
    upstream.write("pyproject.toml", PYPROJECT)
    upstream.write("sa_backend.py", BACKEND)
    upstream.write("LICENSE", LICENCE)
    upstream.write("pkg/__init__.py", INIT)
    upstream.write("pkg/alpha.py", ALPHA)
    upstream.write("pkg/beta.py", BETA)
    commit = upstream.commit("sademo 1.0")
    index = {"wheel": base / "index-wheel", "sdist": base / "index-sdist"}
    _pip_wheel(upstream.path, index["wheel"])
    _sdist(upstream.path, index["sdist"])
    # The same name and version with one byte changed in pkg/beta.py ('* 3' becomes '* 4').
    beta = upstream.path / "pkg" / "beta.py"
    beta.write_text(BETA.replace("* 3", "* 4"), "utf-8")
    try:
        index["wheel-changed"] = base / "index-wheel-changed"
        index["sdist-changed"] = base / "index-sdist-changed"
        _pip_wheel(upstream.path, index["wheel-changed"])
        _sdist(upstream.path, index["sdist-changed"])
    finally:
        beta.write_text(BETA, "utf-8")
    assert git("status", "--porcelain", cwd=upstream.path) == ""
    listing = git("ls-tree", "-r", commit, cwd=upstream.path)
    return DistProject(upstream=upstream, commit=commit, listing=listing, index=index)


@pytest.fixture
def pip_index(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Callable[[Path], None]:
    """Point pip (and so the extension's ``pip download``) at one find-links directory, offline,
    reading none of the machine's pip configuration files (``PIP_CONFIG_FILE`` is the null device).
    """

    def use(directory: Path) -> None:
        monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
        monkeypatch.setenv("PIP_NO_INDEX", "1")
        monkeypatch.setenv("PIP_FIND_LINKS", str(directory))
        monkeypatch.setenv("PIP_CACHE_DIR", str(tmp_path / "pip-cache"))

    monkeypatch.delenv("PIP_INDEX_URL", raising=False)
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    return use


def _dist_settings(
    tmp_path: Path,
    project: DistProject,
    *,
    listing: bool,
    cache: str = "cache",
    archive: Path | None = None,
) -> Settings:
    """Settings that take the distribution from pip ('sademo==1.0'), or from *archive* copied beside conf.py."""
    confdir = tmp_path / "book"
    confdir.mkdir(exist_ok=True)
    dist = "sademo==1.0"
    if archive is not None:
        shutil.copyfile(archive, confdir / archive.name)
        dist = archive.name
    entry: dict[str, Any] = {
        "url": project.upstream.url,
        "commit": project.commit,
        "dist": dist,
        "sources": ["dist"],
    }
    if listing:
        (confdir / "listing.txt").write_text(project.listing, "utf-8")
        entry["listing"] = "listing.txt"
    return _settings(tmp_path, confdir=confdir, cache=tmp_path / cache, **entry)


@pytest.mark.parametrize(("kind", "suffix"), [("wheel", ".whl"), ("sdist", ".tar.gz")])
def test_distribution_verified_by_listing_resolves_like_the_commit(
    dist_project: DistProject,
    pip_index: Callable[[Path], None],
    tmp_path: Path,
    kind: str,
    suffix: str,
) -> None:
    # pip downloads wheels only (it would run an sdist's build backend); an sdist is named by its
    # path.
    pip_index(dist_project.index[kind])
    archive = next(dist_project.index[kind].glob("*.tar.gz")) if kind == "sdist" else None
    settings = _dist_settings(tmp_path, dist_project, listing=True, archive=archive)
    engine = Engine(settings)
    targets = [
        "up:pkg.alpha.func",
        "up:pkg.beta.other",
        "up:pkg.beta.other::return value",
        "up:pkg",
    ]

    outcomes = [_check(engine, target) for target in targets]

    tree = engine.tree("up")
    assert tree.method == "dist"
    assert tree.dist is not None and tree.dist.endswith(f"{suffix})")
    assert tree.dist.startswith("sademo==1.0 (" if kind == "wheel" else "sademo-1.0.tar.gz (")
    assert [o.status for o in outcomes] == ["new"] * 4, [o.message for o in outcomes]
    url, commit = dist_project.upstream.url, dist_project.commit
    assert [o.permalink for o in outcomes] == [
        f"{url}/blob/{commit}/pkg/alpha.py#L4-L6",
        f"{url}/blob/{commit}/pkg/beta.py#L4-L6",
        f"{url}/blob/{commit}/pkg/beta.py#L6",
        f"{url}/blob/{commit}/pkg/__init__.py",
    ]
    # The same anchors resolved from git give the same locations, byte for byte.
    from_git = Engine(
        _settings(
            tmp_path,
            confdir=tmp_path / "book",
            cache=tmp_path / "git-cache",
            url=url,
            commit=commit,
        )
    )
    assert [o.location for o in outcomes] == [_check(from_git, t).location for t in targets]
    assert from_git.tree("up").method == "git"


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_distribution_with_one_changed_byte_is_unverified(
    dist_project: DistProject, pip_index: Callable[[Path], None], tmp_path: Path, kind: str
) -> None:
    pip_index(dist_project.index[f"{kind}-changed"])
    archive = (
        next(dist_project.index["sdist-changed"].glob("*.tar.gz")) if kind == "sdist" else None
    )
    engine = Engine(_dist_settings(tmp_path, dist_project, listing=True, archive=archive))

    changed = _check(engine, "up:pkg.beta.other")
    unchanged = _check(engine, "up:pkg.alpha.func")

    assert engine.tree("up").method == "dist"
    assert (changed.status, changed.subtype) == ("error", "unverified")
    assert "pkg/beta.py" in changed.message and "differs from up@" in changed.message
    assert changed.permalink is None
    assert (unchanged.status, unchanged.subtype) == ("new", None)
    assert (
        unchanged.permalink
        == f"{dist_project.upstream.url}/blob/{dist_project.commit}/pkg/alpha.py#L4-L6"
    )


def test_distribution_file_vouched_for_by_nothing_is_unverified(
    dist_project: DistProject, pip_index: Callable[[Path], None], tmp_path: Path
) -> None:
    pip_index(dist_project.index["wheel"])
    engine = Engine(_dist_settings(tmp_path, dist_project, listing=False))

    outcome = _check(engine, "up:pkg")

    assert (outcome.status, outcome.subtype) == ("error", "unverified")
    assert "pkg/__init__.py" in outcome.message and "not vouched for" in outcome.message


def test_distribution_serves_file_targets_it_ships_verified_and_names_the_source_for_others(
    dist_project: DistProject, pip_index: Callable[[Path], None], tmp_path: Path
) -> None:
    # The sdist ships pyproject.toml (read and vouched for by the listing's blob id); the wheel does
    # not.
    pip_index(dist_project.index["wheel"])
    sdist = next(dist_project.index["sdist"].glob("*.tar.gz"))
    from_sdist = Engine(
        _dist_settings(tmp_path, dist_project, listing=True, archive=sdist, cache="c-sdist")
    )
    from_wheel = Engine(_dist_settings(tmp_path, dist_project, listing=True, cache="c-wheel"))
    from_git = Engine(
        _settings(
            tmp_path,
            confdir=tmp_path / "book",
            cache=tmp_path / "c-git",
            url=dist_project.upstream.url,
            commit=dist_project.commit,
        )
    )
    targets = ["up:/pyproject.toml::name =", "up:/LICENSE"]

    shipped = [_check(from_sdist, t) for t in targets]
    git = [_check(from_git, t) for t in targets]
    wheel = [_check(from_wheel, t) for t in targets]

    assert from_sdist.tree("up").method == from_wheel.tree("up").method == "dist"
    assert [o.status for o in shipped] == ["new", "new"], [o.message for o in shipped]
    assert [o.location for o in shipped] == [o.location for o in git]
    line = PYPROJECT.splitlines().index('name = "sademo"') + 1
    assert (
        shipped[0].permalink
        == f"{dist_project.upstream.url}/blob/{dist_project.commit}/pyproject.toml#L{line}"
    )
    # The wheel ships LICENSE (as .dist-info/licenses/LICENSE) but not pyproject.toml.
    assert wheel[1].status == "new"
    assert (wheel[0].status, wheel[0].subtype) == ("error", "upstream")
    assert "does not ship /pyproject.toml, which up@" in wheel[0].message
    assert "git source" in wheel[0].message and "sdist" in wheel[0].message
    # Without a listing nothing says whether the commit has the file: the message says so.
    unknown = _check(
        Engine(_dist_settings(tmp_path, dist_project, listing=False, cache="c-bare")),
        "up:/pyproject.toml",
    )
    assert (unknown.status, unknown.subtype) == ("error", "upstream")
    assert "does not ship /pyproject.toml, and no listing of up@" in unknown.message


def test_distribution_file_that_changed_is_unverified_as_a_file_target(
    dist_project: DistProject, pip_index: Callable[[Path], None], tmp_path: Path
) -> None:
    pip_index(dist_project.index["sdist-changed"])
    sdist = next(dist_project.index["sdist-changed"].glob("*.tar.gz"))
    engine = Engine(_dist_settings(tmp_path, dist_project, listing=True, archive=sdist))

    outcome = _check(engine, "up:/pkg/beta.py::return value")

    assert (outcome.status, outcome.subtype) == ("error", "unverified")
    assert "pkg/beta.py" in outcome.message and "differs from up@" in outcome.message


# Regression: a lock record held only its anchor's own blob, while every file the resolver reads
# (the ancestor package pkg/__init__.py included) is verified; so anchors into submodules alone
# failed in the dist build with 'pkg/__init__.py ... is not vouched for'.
def test_lock_made_from_git_vouches_for_distribution_files(
    dist_project: DistProject,
    pip_index: Callable[[Path], None],
    book: Book,
    no_git_path: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pip_index(dist_project.index["wheel"])
    anchors = [
        "double <up:pkg.alpha.func>",
        "triple <up:pkg.beta.other::return value>",
    ]  # submodules only
    pin = {"url": dist_project.upstream.url, "commit": dist_project.commit, "packages": ["pkg"]}
    book.repos = {"up": {**pin, "sources": ["git"]}}
    book.write_conf()
    book.page("index", "# Demo\n\n" + ", ".join(f"{{src}}`{anchor}`" for anchor in anchors) + ".\n")
    from_git = book.build(out="git")
    assert from_git.returncode == 0, from_git.stderr
    assert book.lock.is_file()
    # Now from the wheel alone: no listing, a cold cache, and no git on PATH.
    book.repos = {"up": {**pin, "sources": ["dist"], "dist": "sademo==1.0"}}
    book.cache = book.cache.with_name("cache-dist")
    book.write_conf()

    monkeypatch.setenv("PATH", no_git_path)  # the extension runs git and pip with our environment
    from_dist = book.build(fresh=True, out="dist")

    assert from_dist.returncode == 0, from_dist.stderr
    assert [row["status"] for row in from_git.report()] == ["new"] * len(anchors)
    assert [row["status"] for row in from_dist.report()] == ["ok"] * len(anchors)
    assert [row["permalink"] for row in from_dist.report()] == [
        row["permalink"] for row in from_git.report()
    ]
    tree = TreeCache(book.cache, timeout=60).cached(dist_project.upstream.url, dist_project.commit)
    assert tree is not None and tree.method == "dist"


# -- 8. hostile configuration -------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("commit", "abc1234"),
        ("commit", "HEAD"),
        ("commit", "main"),
        ("commit", "A" * 40),
        ("commit", "a" * 39 + "g"),
        ("commit", "a" * 41),
        ("commit", "--upload-pack=touch {pwned}"),
        ("url", "--upload-pack=touch {pwned}"),
        ("url", "-oProxyCommand=touch {pwned}"),
        ("url", "https://example.com/demo\n[core]\n\tsshCommand = touch {pwned}"),
        ("url", "https://example.com/de\tmo"),
        ("dist", "--index-url=file://{pwned}"),
        ("dist", "-r{pwned}"),
    ],
)
def test_hostile_config_is_refused_before_anything_runs(
    tmp_path: Path, key: str, value: str
) -> None:
    pwned = tmp_path / "pwned"
    value = value.format(pwned=pwned)
    entry = {
        "url": "https://github.com/example/demo",
        "commit": "a" * 40,
        "packages": ["pkg"],
        key: value,
    }

    with pytest.raises(ConfigError) as caught:
        settings_from(
            {"repos": {"up": entry}, "cache_dir": str(tmp_path / "cache")},
            confdir=tmp_path,
            environ={},
        )

    message = str(caught.value)
    assert f"source_anchors_repos['up']['{key}']" in message
    if key != "dist":  # the dist message says what is expected, not the value
        assert repr(value) in message
    assert not pwned.exists() and not (tmp_path / "cache").exists()


# Regression: config._repo() tested startswith('-') before stripping and stored the stripped value,
# so ' --upload-pack=...' became the url '--upload-pack=...' and ' -rFILE' a dist that 'pip
# download' took as an option (pip then read FILE as a requirements file).
@pytest.mark.parametrize(
    ("key", "value"), [("url", " --upload-pack=touch pwned"), ("dist", " -rpwned.txt")]
)
def test_option_like_values_behind_whitespace_are_refused(
    tmp_path: Path, key: str, value: str
) -> None:
    entry = {
        "url": "https://github.com/example/demo",
        "commit": "a" * 40,
        "packages": ["pkg"],
        key: value,
    }
    with pytest.raises(ConfigError, match=re.escape(f"['{key}']")):
        settings_from(
            {"repos": {"up": entry}, "cache_dir": str(tmp_path / "cache")},
            confdir=tmp_path,
            environ={},
        )


def test_pip_never_fetches_an_sdist(
    dist_project: DistProject, pip_index: Callable[[Path], None], tmp_path: Path
) -> None:
    # Only an sdist on the index: pip would have to run its build backend to download it, so it is
    # refused.
    pip_index(dist_project.index["sdist"])
    engine = Engine(_dist_settings(tmp_path, dist_project, listing=True))

    outcome = _check(engine, "up:pkg.alpha.func")

    assert (outcome.status, outcome.subtype) == ("error", "source")
    assert "pip download sademo==1.0 (wheels only)" in outcome.message


def test_a_preview_at_another_commit_never_reads_the_pinned_release(
    dist_project: DistProject, pip_index: Callable[[Path], None], tmp_path: Path
) -> None:
    # A pin with a verified distribution and a listing of its commit, previewed at a later commit
    # (`check --pin`, `bump`): the release and the listing belong to the pinned commit only, so the
    # later commit is read from git, and no answer of one is reused for the other.
    pip_index(dist_project.index["wheel"])
    later = Upstream(tmp_path / "later")
    git("fetch", "-q", str(dist_project.upstream.path), dist_project.commit, cwd=later.path)
    git("reset", "-q", "--hard", dist_project.commit, cwd=later.path)
    later.write(
        "pkg/beta.py",
        BETA.replace('"""Second module."""\n', '"""Second module."""\n\nimport os\n\n'),
    )
    sha2 = later.commit("beta moves down two lines")
    confdir = tmp_path / "book"
    confdir.mkdir()
    (confdir / "listing.txt").write_text(dist_project.listing, "utf-8")
    entry = {
        "url": later.url,
        "commit": dist_project.commit,
        "dist": "sademo==1.0",
        "listing": "listing.txt",
        "sources": ["cache", "dist", "git"],
        "packages": ["pkg"],
    }

    def engine(pins: dict[str, str]) -> Engine:
        return Engine(
            settings_from(
                {"repos": {"up": entry}, "cache_dir": str(tmp_path / "cache"), "pin_commits": pins},
                confdir=confdir,
                environ={},
            )
        )

    pinned = engine({})
    first = _check(pinned, "up:pkg.beta.other")
    assert first.location is not None and first.location.start == 4
    assert pinned.tree("up").method == "dist"
    pinned.remember([first])
    for _ in range(2):  # the second time from the cache the first one filled
        preview = engine({"up": sha2})
        outcome = _check(preview, "up:pkg.beta.other")
        assert outcome.location is not None, outcome.message
        assert (outcome.location.start, outcome.location.end) == (7, 9)  # three lines more above it
        assert outcome.permalink == f"{later.url}/blob/{sha2}/pkg/beta.py#L7-L9"
        assert preview.tree("up").method == "git"
        preview.remember([outcome])
