"""API links beside ``sphinx.ext.viewcode`` or a ``linkcode_resolve`` of the project's own: never two links silently.

Each of those writes its own ``[source]`` link on every signature. With ``source_anchors_api_links``
set, the build says so once, at the ``extensions`` line of ``conf.py``, with the fix; under ``-W``
it fails until the extension is removed or the warning's subtype is silenced. Real builds of a
package this test writes and commits to a git repository.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from helpers import git

PACKAGE = '''\
"""The package."""


def shout(text):
    """Shout *text*."""
    return text.upper()


class Box:
    """A box."""

    def open(self):
        """Open it."""
        return True
'''
CONF = """\
import os, sys
sys.path.insert(0, os.path.abspath("../src"))

project = "box"
extensions = {extensions!r}
source_anchors_api_links = "self"
"""
PAGE = """\
API
===

.. automodule:: vpkg
   :members:
"""
TAG = "[source-anchors.doubled]"


def _project(root: Path, extensions: list[str], more: str = "") -> Path:
    (root / "src" / "vpkg").mkdir(parents=True)
    (root / "src" / "vpkg" / "__init__.py").write_text(PACKAGE, "utf-8")
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(CONF.format(extensions=extensions) + more, "utf-8")
    (docs / "index.rst").write_text(PAGE, "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "one", cwd=root)
    git("remote", "add", "origin", "https://github.com/me/box.git", cwd=root)
    return docs


def _build(docs: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(docs.parent.parent / "cache")}
    env.pop("CI", None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-E",
            "-b",
            "html",
            *extra,
            str(docs),
            str(docs / "_build"),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def _links_per_signature(docs: Path) -> list[int]:
    html = (docs / "_build" / "index.html").read_text("utf-8")
    return [
        body.count("[source]")
        for body in re.findall(r'<dt class="sig sig-object py"[^>]*>(.*?)</dt>', html, re.S)
    ]


def _doubled(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if TAG in line]


def _extensions_line(docs: Path) -> int:
    lines = (docs / "conf.py").read_text("utf-8").splitlines()
    return next(
        number for number, line in enumerate(lines, start=1) if line.startswith("extensions = ")
    )


def test_viewcode_beside_api_links_is_said_once_and_fails_a_strict_build(tmp_path: Path) -> None:
    docs = _project(
        tmp_path / "proj", ["sphinx.ext.autodoc", "sphinx.ext.viewcode", "source_anchors"]
    )
    strict = _build(docs, "-W")
    assert strict.returncode == 1, strict.stderr
    warned = _doubled(strict.stderr)
    assert len(warned) == 1, strict.stderr
    assert warned[0].startswith(f"{docs / 'conf.py'}:{_extensions_line(docs)}: WARNING: ")
    assert (
        "remove 'sphinx.ext.viewcode' from extensions: source_anchors_api_links already links every object"
        in warned[0]
    )
    # The warning tells the truth: without -W the build goes on, and every signature has two links.
    loose = _build(docs)
    assert loose.returncode == 0 and len(_doubled(loose.stderr)) == 1, loose.stderr
    assert set(_links_per_signature(docs)) == {2}
    # Silencing the subtype keeps both links on purpose: the strict build passes.
    conf = (docs / "conf.py").read_text("utf-8")
    (docs / "conf.py").write_text(
        conf + "suppress_warnings = ['source-anchors.doubled']\n", "utf-8"
    )
    silenced = _build(docs, "-W")
    assert silenced.returncode == 0 and not _doubled(silenced.stderr), silenced.stderr
    # The fix the warning names: one link per signature, nothing said.
    (docs / "conf.py").write_text(
        conf.replace('"sphinx.ext.viewcode", ', "").replace("'sphinx.ext.viewcode', ", ""), "utf-8"
    )
    fixed = _build(docs, "-W")
    assert fixed.returncode == 0 and not _doubled(fixed.stderr), fixed.stderr
    assert set(_links_per_signature(docs)) == {1}


def test_a_linkcode_resolve_of_its_own_is_said_once_the_drop_in_is_not(tmp_path: Path) -> None:
    own = "\ndef linkcode_resolve(domain, info):\n    return 'https://example.org/' + info['fullname']\n"
    docs = _project(
        tmp_path / "proj", ["sphinx.ext.autodoc", "sphinx.ext.linkcode", "source_anchors"], own
    )
    done = _build(docs, "-W")
    assert done.returncode == 1, done.stderr
    warned = _doubled(done.stderr)
    assert len(warned) == 1, done.stderr
    assert "remove 'sphinx.ext.linkcode' from extensions" in warned[0]
    assert "from source_anchors.linkcode import linkcode_resolve" in warned[0]
    # The drop-in resolver: linkcode writes the one link, and there is nothing to say.
    dropin_import = "\nfrom source_anchors.linkcode import linkcode_resolve\n"
    (docs / "conf.py").write_text(
        (docs / "conf.py").read_text("utf-8").replace(own, dropin_import), "utf-8"
    )
    dropin = _build(docs, "-W")
    assert dropin.returncode == 0 and not _doubled(dropin.stderr), dropin.stderr
    assert set(_links_per_signature(docs)) == {1}
