"""Compiled bindings are written to the cache once a flush, with what is known then.

The engine's :class:`~source_anchors.engine.indexcache.IndexCache` writes into a folder the test
makes; a fresh cache reads what the flush wrote.
"""

from __future__ import annotations

from pathlib import Path

from source_anchors.engine.indexcache import IndexCache


def test_compiled_bindings_are_written_at_the_flush_with_what_is_known_then(
    tmp_path: Path,
) -> None:
    cache = IndexCache(tmp_path)
    known = ["first"]
    encodings = []

    def text() -> str:
        encodings.append(len(known))
        return " ".join(known)

    for name in ("second", "third"):
        cache.put_compiled("k", text)
        known.append(name)
    assert cache.compiled("k") is None and encodings == []  # nothing written before the flush
    cache.flush()
    assert cache.compiled("k") == "first second third" and encodings == [3]
    cache.flush()  # nothing pending: nothing encoded again
    assert encodings == [3]
    assert IndexCache(tmp_path).compiled("k") == "first second third"
