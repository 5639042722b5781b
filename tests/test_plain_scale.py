"""Plain Markdown's work, not its time: a cold update parses each cited file once, a warm check reads none.

A repository made with git holds a package of two modules and pages of line links (relative links
to definitions and to a statement, a link with an explicit target re-exported by the package, a
permalink to the first commit). The front end runs on the engine as ``source-anchors`` runs it,
and the engine's counters (:meth:`Engine.work`, :meth:`Engine.parses`) say what it read and parsed.
The timings are ``bench/markdown.py``'s.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import commit_all, git
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.records import Status
from source_anchors.plain.anchors import MarkdownLinks
from source_anchors.plain.heal import relock

WEB = "https://github.com/acme/lib"
MOD = '''\
"""Greetings."""


def greet(name):
    """Say hello."""
    return "hello " + name


class Greeter:
    def loud(self, name):
        return greet(name).upper()
'''
UTIL = '''\
"""Helpers."""


def first(text):
    return text[:1]
'''


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "lib-repo"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "__init__.py").write_text("from .mod import greet\n", "utf-8")
    (root / "lib" / "mod.py").write_text(MOD, "utf-8")
    (root / "lib" / "util.py").write_text(UTIL, "utf-8")
    (root / "lib" / "unused.py").write_text("X = 1\n", "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("remote", "add", "origin", "git@github.com:acme/lib.git", cwd=root)
    first = commit_all(root, "library")
    (root / "docs").mkdir()
    for n in range(3):  # the same code cited from several pages, several times
        (root / "docs" / f"p{n}.md").write_text(
            f"# Page {n}\n\n"
            "[greet](../lib/mod.py#L4-L6) and [loud](../lib/mod.py#L10-L11), again "
            "[greet](../lib/mod.py#L4-L6).\n"
            '[the export](../lib/mod.py#L4-L6 "src: lib.greet") and '
            "[its return](../lib/mod.py#L6).\n"
            f"[first](../lib/util.py#L4-L5), [at first]({WEB}/blob/{first}/lib/util.py#L4-L5).\n",
            "utf-8",
        )
    commit_all(root, "docs")
    return root


def _links(root: Path) -> tuple[Engine, MarkdownLinks]:
    """An engine and the front end, made as ``source-anchors check|update docs`` makes them."""
    settings = settings_from(
        {
            "quiet": True,
            "lock_file": "source-anchors.lock",
            "cache_dir": str(root.parent / "cache"),
        },
        confdir=root,
    )
    engine = Engine(settings)
    return engine, MarkdownLinks(engine, root)


def _pages(root: Path) -> list[Path]:
    return sorted((root / "docs").glob("*.md"))


def _update(root: Path) -> Engine:
    engine, links = _links(root)
    changes, problems = relock(links, links.links(_pages(root)))
    assert problems == [] and changes
    commit_all(root, "lock")
    return engine


def test_a_cold_update_parses_each_cited_file_once(repo: Path) -> None:
    engine = _update(repo)
    parses = {path: count for (_, path), count in engine.parses().items()}
    # mod.py and util.py cited; the package's __init__ read for the export; nothing else.
    assert parses == {"lib/mod.py": 1, "lib/util.py": 1, "lib/__init__.py": 1}
    assert engine.work()["parses"] == 3


def test_a_warm_check_reads_no_source_file(repo: Path) -> None:
    _update(repo)
    engine, links = _links(repo)
    records = [links.record(item) for item in links.links(_pages(repo))]
    assert len(records) == 21
    assert {r.status for r in records} == {Status.ok}
    work = engine.work()
    assert (work["files_read"], work["parses"], work["resolved"]) == (0, 0, 0)


def test_a_changed_file_is_read_again_and_its_drift_found(repo: Path) -> None:
    _update(repo)
    (repo / "lib" / "mod.py").write_text(MOD.replace('"hello "', '"hi "'), "utf-8")
    (repo / "lib" / "unused.py").write_text("X = 2\n", "utf-8")  # cited by nothing
    commit_all(repo, "hi")
    engine, links = _links(repo)
    records = [links.record(item) for item in links.links(_pages(repo))]
    by_status = {r.status for r in records if "util.py" in r.outcome.name}
    assert by_status == {Status.ok}  # util.py is still its locked blob: answered from the lock
    # On each of the 3 pages: greet (twice) and the export changed, the return's text is gone
    # (a statement is locked by its text), loud re-resolved unchanged.
    statuses = [r.status for r in records if "util.py" not in r.outcome.name]
    assert statuses.count(Status.changed) == 9
    assert statuses.count(Status.missing) == 3
    assert statuses.count(Status.ok) == 3
    assert engine.work()["files_read"] > 0


def test_a_file_the_resolution_used_is_checked_too(repo: Path) -> None:
    """The export's record uses lib/__init__.py: a change there re-resolves it (and finds it unmoved)."""
    _update(repo)
    (repo / "lib" / "__init__.py").write_text("# the package\nfrom .mod import greet\n", "utf-8")
    commit_all(repo, "comment")
    engine, links = _links(repo)
    records = [links.record(item) for item in links.links(_pages(repo))]
    assert {r.status for r in records} == {Status.ok}
    assert engine.work()["resolved"] == 3  # the export, once per page; nothing else resolved
