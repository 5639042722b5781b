"""This repository's book, built strictly from a cold anchor cache, as CI builds it.

The build is the session's ``the_book`` (``helpers.build_the_book``: ``CI=true``, ``-nW --keep-going -E``),
made once per run and shared with the browser tests, which open its pages.
"""

from __future__ import annotations

import json
import re

from helpers import ROOT, BuildResult


def test_the_book_builds_strictly_and_locked_from_a_cold_cache(the_book: BuildResult) -> None:
    assert the_book.returncode == 0, f"{the_book.stdout[-3000:]}\n{the_book.stderr[-5000:]}"
    assert not the_book.warnings(), "\n".join(the_book.warnings())
    assert "build succeeded" in the_book.stdout
    summary = re.search(r"source-anchors: (\d+) anchors resolved, (\d+) from the resolution cache", the_book.stdout)
    assert summary, the_book.stdout[-3000:]
    locked = json.loads((ROOT / "source-anchors.lock").read_text("utf-8"))["anchors"]
    entries = sum(len(anchors) for anchors in locked.values())
    # Resolved afresh (the cache was empty): every citation, at least one per locked anchor.
    assert int(summary[1]) >= entries and summary[2] == "0", (summary[0], entries)
    for page in ("index", "gpt-researcher/hybrid", "ledger", "licences", "guide"):
        assert (the_book.outdir / f"{page}.html").is_file(), page
