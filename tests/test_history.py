"""Suggestions from git history (issue 31): renamed files and moved definitions between the lock and the pin.

The upstream is a git repository made here. Each case is one that the similarity rules alone cannot
tell (or tell without saying why); the suggestion names the range it came from. Nothing of git is
mocked; a distribution's tree gets no history.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import Book, Upstream, run_cli
from source_anchors.sources.trees import Tree
from source_anchors.suggest.history import between

BODY = """\
    total = 0
    for index, item in enumerate(items):
        if index % 2:
            total += item * weight
        else:
            total -= item
    return total
"""
OTHER = "def unrelated(a):\n    return a\n"


def _suggestion(book: Book, capsys: pytest.CaptureFixture[str], commit: str) -> dict[str, object]:
    capsys.readouterr()
    assert run_cli(book.cli("check", "--pin", f"up={commit}", "--json")) == 1
    rows = json.loads(capsys.readouterr().out)
    missing = [row for row in rows if row["status"] == "missing"]
    assert len(missing) == 1, rows
    return missing[0]["suggestion"] or {}


def _book(book: Book, upstream: Upstream, commit: str, target: str) -> None:
    book.page("index", f"# P\n\n{{src}}`x <{target}>`\n")
    book.repos = {"up": {"url": upstream.url, "commit": commit, "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    assert run_cli(book.cli("update")) == 0


def test_a_renamed_module_is_told_by_git(
    upstream: Upstream, book: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/util.py", OTHER + "\n\ndef weigh(items, weight):\n" + BODY)
    old = upstream.commit("v1")
    upstream.remove("pkg/util.py")
    # Renamed and edited (another blob): git's rename detection, not the listings, tells where it
    # went.
    upstream.write("pkg/tools/__init__.py", "")
    edited = BODY.replace("total -= item", "total -= item / 2")
    upstream.write("pkg/tools/util.py", OTHER + "\n\ndef weigh(items, weight):\n" + edited)
    new = upstream.commit("v2")
    _book(book, upstream, old, "pkg.util.weigh")
    suggestion = _suggestion(book, capsys, new)
    assert suggestion["target"] == "pkg.tools.util.weigh"
    assert (
        suggestion["reason"] == f"renamed in {old[:7]}..{new[:7]}: pkg/util.py → pkg/tools/util.py"
    )


def test_a_moved_and_renamed_definition_is_found_by_its_lines(
    upstream: Upstream, book: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/a.py", OTHER + "\n\ndef f(items, weight):\n" + BODY)
    upstream.write("pkg/b.py", "def g():\n    return 1\n")
    old = upstream.commit("v1")
    upstream.write("pkg/a.py", OTHER)
    upstream.write(
        "pkg/b.py",
        "def g():\n    return 1\n\n\ndef weighted_alternating_sum(items, weight):\n" + BODY,
    )
    new = upstream.commit("v2")
    _book(book, upstream, old, "pkg.a.f")
    suggestion = _suggestion(book, capsys, new)
    assert suggestion["target"] == "pkg.b.weighted_alternating_sum"
    assert suggestion["reason"] == f"moved in {old[:7]}..{new[:7]}: pkg/a.py → pkg/b.py"


def test_without_history_the_renamed_definition_is_found_by_its_lines_alone(
    upstream: Upstream, book: Book
) -> None:
    """The case above with history turned off: the same lines renamed (``suggest/elsewhere.py``), not the range."""
    from source_anchors.engine.engine import Engine
    from source_anchors.lock.lockfile import read_lock
    from source_anchors.model.target import Target

    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/a.py", OTHER + "\n\ndef f(items, weight):\n" + BODY)
    old = upstream.commit("v1")
    upstream.write("pkg/a.py", OTHER)
    upstream.write("pkg/b.py", "def weighted_alternating_sum(items, weight):\n" + BODY)
    new = upstream.commit("v2")
    _book(book, upstream, old, "pkg.a.f")
    from source_anchors.model.config import settings_from

    record = read_lock(book.lock).get("up", "pkg.a.f")
    assert record is not None
    results = {}
    for history in (False, True):
        settings = settings_from(
            {
                "repos": {"up": {"url": upstream.url, "commit": new, "packages": ["pkg"]}},
                "cache_dir": str(book.cache),
                "lock_file": str(book.lock),
            },
            confdir=book.root,
            environ={},
        )
        engine = Engine(settings)
        engine._suggesters.use_history = history
        found = engine._suggesters.suggester("up", old).suggest(Target("up", "pkg.a.f"), record)
        results[history] = (found.key, found.reason) if found else None
    assert results == {
        False: ("pkg.b.weighted_alternating_sum", "same lines, renamed"),
        True: (
            "pkg.b.weighted_alternating_sum",
            f"moved in {old[:7]}..{new[:7]}: pkg/a.py → pkg/b.py",
        ),
    }


def test_a_distribution_tree_has_no_history(tmp_path: Path) -> None:
    def tree(method: str, commit: str, listing: dict[str, str] | None) -> Tree:
        return Tree(
            root=tmp_path,
            url="file:///x",
            commit=commit,
            method=method,
            dist=None,
            blobs={},
            listing=listing,
            refused={},
        )

    old = tree("git", "a" * 40, {"pkg/a.py": "1" * 40})
    assert between(old, tree("dist", "b" * 40, None), "file:///x", ["pkg/a.py"], timeout=30) is None
    found = between(
        old, tree("git", "b" * 40, {"pkg/b.py": "1" * 40}), "file:///x", ["pkg/a.py"], timeout=30
    )
    assert found is not None and dict(found.renames) == {
        "pkg/a.py": "pkg/b.py"
    }  # the same blob: no git asked
    assert found.touched == {"pkg/b.py"}
