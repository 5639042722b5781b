"""Fixtures: Sphinx's own (``make_app``), upstream repositories made with git, and small books.

The helpers themselves live in ``helpers.py`` (no pytest there, so the bench can use them);
this module only turns them into fixtures. Upstream repositories are made once per session:
``shared_upstream`` holds the fixed trees of ``tests/roots/upstream/`` as tagged commits, read
only; ``tree_upstream`` takes each test's small one-off tree as a new commit. A test that
changes its upstream afterwards asks for the function-scoped ``upstream`` instead.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import (
    ROOTS,
    SERVICE_VARIABLES,
    Book,
    BuildResult,
    SharedUpstream,
    Upstream,
    build_the_book,
    load_build,
    make_shared_upstream,
    save_build,
    share_compiled_templates,
)
from source_anchors.model.fsio import FileLock

#: Sphinx's fixtures (make_app, rootdir, ...) and the reliability figures, whose hooks must run in
#: every process (under pytest-xdist the controller collects nothing but merges the workers'
#: figures).
pytest_plugins = ("sphinx.testing.fixtures", "reliability.figures")


@pytest.fixture(scope="session", autouse=True)
def _plain_console() -> None:
    """Sphinx's output without colour codes, as ``sphinx-build`` writes it to a pipe (it calls ``nocolor()``)."""
    from sphinx.util.console import nocolor

    nocolor()


@pytest.fixture(scope="session", autouse=True)
def _shared_templates() -> Iterator[None]:
    """Each in-process build reuses the Jinja templates compiled by the ones before (see helpers)."""
    undo = share_compiled_templates()
    yield
    undo()


@pytest.fixture(scope="session", autouse=True)
def _no_debug_records() -> Iterator[None]:
    """Sphinx logs about 600 debug records while an application starts (``[app] adding ...``); a build
    at verbosity 0 drops them in its handlers, after making each one. ``logging.disable`` stops them
    at the logger: nothing a test can see changes (no test runs Sphinx with ``-vv``)."""
    logging.disable(logging.DEBUG)
    yield
    logging.disable(logging.NOTSET)


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where ``sphinx.testing`` finds the test books (``tests/roots/test-*``)."""
    return ROOTS


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium, headless, launched once per process and shared by every browser test file
    (Playwright's sync API allows one running instance per thread)."""
    from browser_site import chromium

    with chromium() as launched:
        yield launched


@pytest.fixture(scope="session")
def the_book(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """This repository's book, built strictly once per run (``build_the_book``): the strict-build test
    reads its result and the browser tests open its pages. Under pytest-xdist the first worker to
    ask builds it in the run's shared temporary folder; the others wait on a file lock and read the
    result."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    where = shared / "the-book"
    with FileLock(shared / "the-book.lock", timeout=3600):
        if (where / "result.json").is_file():
            return load_build(where / "result.json")
        where.mkdir(exist_ok=True)  # a worker that stopped mid-build may have left it
        result = build_the_book(where / "html", where / "anchor-cache")
        save_build(result, where / "result.json")
        return result


@pytest.fixture(scope="session")
def shared_upstream(tmp_path_factory: pytest.TempPathFactory) -> SharedUpstream:
    """One git repository for the session, a tagged commit per tree; tests must not write to it."""
    return make_shared_upstream(tmp_path_factory.mktemp("shared") / "upstream")


@pytest.fixture(scope="session")
def tree_upstream(tmp_path_factory: pytest.TempPathFactory) -> Upstream:
    """One repository for the session's small one-off trees: a test empties the work tree, writes its
    files and commits them (``Upstream.clear`` then ``commit``); earlier commits are never changed.
    """
    return Upstream(tmp_path_factory.mktemp("trees") / "upstream")


@pytest.fixture
def upstream(tmp_path: Path) -> Upstream:
    """An empty upstream repository of this test's own (for tests that commit into it)."""
    return Upstream(tmp_path / "upstream")


@pytest.fixture
def book(tmp_path: Path, make_app: Callable[..., object]) -> Book:
    """An empty book with its own cache, built in-process by Sphinx's ``make_app``."""
    root = tmp_path / "book"
    root.mkdir(parents=True)
    return Book(root=root, cache=tmp_path / "cache", make_app=make_app)


@pytest.fixture(autouse=True)
def _no_ci(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests choose locked mode and the book's repository themselves; CI's own variables must not leak in."""
    for name in ("CI", "SOURCE_ANCHORS_CACHE", *SERVICE_VARIABLES):
        monkeypatch.delenv(name, raising=False)
    yield


#: The files that take longest (seconds of one worker under ``make test``, 3 workers on 2 cores),
#: longest first. Only the order of the run depends on this list.
LONGEST_FIRST = (
    "test_browser.py",  # ~40 s (the book's build included)
    "test_themes.py",  # ~8 s (same worker: SHARE_A_WORKER)
    "test_package.py",  # ~28 s
    "reliability/test_hostile_upstream.py",  # ~20 s
    "test_sources.py",  # ~19 s
    "reliability/test_faults.py",  # ~13 s
    "test_new_user.py",  # ~11 s
    "test_build.py",  # ~10 s
    "test_pins.py",  # ~9 s
    "test_change_classes.py",  # ~7 s
    "reliability/test_concurrency.py",  # ~4 s
    "test_print.py",  # ~4 s
    "test_declared.py",  # ~4 s
    "test_sdist_index.py",  # ~4 s
)


def _rank(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0].removeprefix("tests/")
    return LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first, so that under ``--dist loadfile --no-loadscope-reorder`` (``make pytest``)
    the workers take the short files last and finish at about the same time (longest-first
    scheduling). The sort is stable: within a file, and among the short files, the collection order
    stays."""
    items.sort(key=_rank)


#: Files that one pytest-xdist worker runs together, as if they were one file: the browser tests
#: share that worker's Chromium (the session fixture ``browser``) instead of each worker launching
#: its own (about 1.2 s of CPU a launch, and a first page load in a cold renderer).
SHARE_A_WORKER = ("tests/test_browser.py", "tests/test_themes.py")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """Under ``--dist loadfile`` (``make pytest``), schedule :data:`SHARE_A_WORKER` as one unit."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedBrowserScheduling(LoadFileScheduling):  # type: ignore[misc]  # xdist is untyped
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return SHARE_A_WORKER[0] if path in SHARE_A_WORKER else path

    return SharedBrowserScheduling(config, log)
