"""The manual's README-to-CI walk-through (docs/self-docs.md) prints what the tool prints.

``tools/self_docs_walkthrough.sh`` runs the page's commands in a scratch repository with fixed dates
(so the commit ids are the page's); every line the tool printed there must be on the page.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ids(text: str) -> str:
    """*text* with its commit ids (40 hex digits, and 7 in a permalink's note) said as ``<commit>``."""
    text = re.sub(r"/blob/[0-9a-f]{40}/", "/blob/<commit>/", text)
    return re.sub(r"(\bat |permalink \()[0-9a-f]{7}\b", r"\1<commit>", text)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_walk_through_prints_what_the_page_shows(tmp_path: Path) -> None:
    tool = Path(sys.executable).with_name("source-anchors")
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    env.pop("CI", None)
    done = subprocess.run(
        ["bash", str(ROOT / "tools" / "self_docs_walkthrough.sh"), str(tool)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    page = (ROOT / "docs" / "self-docs.md").read_text("utf-8")
    printed = [
        line.replace(str(tool), "source-anchors")
        for line in done.stdout.splitlines()
        if line.startswith(
            ("README.md:", "::error", "added:", "updated:", "$ source", " README", "healed")
        )
        or "line link(s)" in line
        or '"blob"' in line
        or '"sha256"' in line
    ]
    printed = [line.replace(str(tool), "source-anchors") for line in printed]
    assert len(printed) > 30
    # Commit ids depend on the lock each commit holds, so on RESOLVER_VERSION: they are compared as
    # ids, everything else as printed.
    page = _ids(page)
    missing = [line for line in map(_ids, printed) if line not in page and line.strip() not in page]
    assert not missing, "\n".join(missing)
