"""Reading a file of an exported tree: its bytes as exported, or one located message (no traceback).

The tree is a git repository the test makes, exported into a cache by the engine; the test then
damages the cache as a shared, writable folder may be damaged.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.errors import UpstreamFileError
from source_anchors.sources.trees import Tree

TEXT = "def f():\n    return 1\n" * 50


def _tree(tmp_path: Path) -> Tree:
    up = Upstream(tmp_path / "up")
    up.write_files({"pkg/__init__.py": "", "pkg/a.py": TEXT, "pkg/b.py": "x = 1\n"})
    commit = up.commit()
    settings = settings_from(
        {
            "repos": {"up": {"url": up.url, "commit": commit, "packages": ["pkg"]}},
            "cache_dir": str(tmp_path / "cache"),
        },
        confdir=tmp_path,
        environ={},
    )
    return Engine(settings).resolver("up").tree


def test_a_file_reads_as_exported(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    assert tree.read_bytes("pkg/a.py") == TEXT.encode()
    assert tree.read_bytes("pkg/a.py", max_bytes=len(TEXT)) == TEXT.encode()


def test_a_file_above_the_limit_is_refused_by_its_size(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    with pytest.raises(UpstreamFileError, match=r"pkg/a\.py is 1,100 bytes, above the 1,099-byte"):
        tree.read_bytes("pkg/a.py", max_bytes=len(TEXT) - 1)


def test_a_changed_or_grown_file_is_refused_and_the_fix_named(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    exported = Path(tree._folder + "pkg/a.py")
    exported.write_text(TEXT.replace("1", "2"), "utf-8")  # the same size, other bytes
    with pytest.raises(UpstreamFileError, match=r"differs from the exported blob .*; delete "):
        tree.read_bytes("pkg/a.py")
    exported.write_text(TEXT + "# more\n" * 10_000, "utf-8")  # grown past one read
    with pytest.raises(UpstreamFileError, match="differs from the exported blob"):
        tree.read_bytes("pkg/a.py")


def test_a_missing_file_says_the_cache_is_damaged(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    Path(tree._folder + "pkg/b.py").unlink()
    with pytest.raises(UpstreamFileError, match=r"pkg/b\.py: the cached tree is damaged .*delete "):
        tree.read_bytes("pkg/b.py")
    with pytest.raises(UpstreamFileError, match="not in the exported tree"):
        tree.read_bytes("pkg/c.py")
