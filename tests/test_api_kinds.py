"""API source links for every kind of Python object, in a package this test writes and commits.

Autodoc documents most of it (and imports it, as autodoc does); hand-written ``py:`` directives
document an attrs class that is never imported. Each expected range is found in the source text
by the line that starts it. Also: links into a pinned repository (locked, drift reported as an
anchor's), and the ``linkcode`` drop-in.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from html import unescape
from pathlib import Path

from helpers import Upstream, git

CLIENT = '''\
import contextlib
import functools
from dataclasses import dataclass
from typing import overload

import attr

from .util import traced


class Base:
    def inherited(self):
        return 1


class Client(Base):
    """A client."""

    #: The timeout.
    timeout = 3

    def __init__(self):
        #: The name.
        self.name = "x"

    @traced
    def send(self, x):
        return x

    @classmethod
    def make(cls):
        return cls()

    @staticmethod
    def helper():
        pass

    @property
    def size(self):
        return 1

    @size.setter
    def size(self, value):
        pass

    class Inner:
        """Nested."""

    @overload
    def get(self, x: int) -> int: ...
    @overload
    def get(self, x: str) -> str: ...
    def get(self, x):
        return x or x


class Oops(Exception):
    """An error."""


@dataclass
class Point:
    """A point."""

    x: int = 0
    y: int = 0


@attr.s
class Pair:
    left = attr.ib()
    right: int = attr.ib(default=0)


@contextlib.contextmanager
def opened():
    """A context manager."""
    yield
'''
UTIL = """\
import functools


def traced(func):
    @functools.wraps(func)
    def inner(*args):
        return func(*args)
    return inner
"""
PAGE = """\
API
===

.. automodule:: pkg
   :members: Oops, opened

.. autoclass:: pkg.Point
   :members:
   :undoc-members:

.. autoclass:: pkg.Client
   :members:
   :inherited-members:
   :undoc-members:

.. py:currentmodule:: pkg._client

.. py:class:: Pair

   .. py:attribute:: left
   .. py:attribute:: right
"""
#: Object -> the text its range starts with, and the text its range ends with (same line: None).
EXPECTED = {
    "pkg.Client": ("class Client(Base):", "        return x or x"),
    "pkg.Client.timeout": ("    timeout = 3", None),
    "pkg.Client.name": ('        self.name = "x"', None),
    "pkg.Client.send": ("    @traced", "        return x"),
    "pkg.Client.make": ("    @classmethod", "        return cls()"),
    "pkg.Client.helper": ("    @staticmethod", "        pass"),
    "pkg.Client.size": ("    @property", "        pass"),
    "pkg.Client.Inner": ("    class Inner:", '        """Nested."""'),
    "pkg.Client.get": ("    def get(self, x):", "        return x or x"),
    "pkg.Client.inherited": ("    def inherited(self):", "        return 1"),
    "pkg.Oops": ("class Oops(Exception):", '    """An error."""'),
    "pkg.Point": ("@dataclass", "    y: int = 0"),
    "pkg.Point.x": ("    x: int = 0", None),
    "pkg.opened": ("@contextlib.contextmanager", "    yield"),
    "pkg._client.Pair.left": ("    left = attr.ib()", None),
    "pkg._client.Pair.right": ("    right: int = attr.ib(default=0)", None),
}


def _range(start_text: str, end_text: str | None) -> tuple[int, int]:
    """The range from the first line equal to *start_text* to the first line after it equal to *end_text*."""
    lines = CLIENT.splitlines()
    start = lines.index(start_text) + 1
    if start_text == "    def get(self, x):":
        start = len(lines) - lines[::-1].index(
            start_text
        )  # the implementation, after the overloads
    end = start if end_text is None else lines.index(end_text, start - 1) + 1
    return start, end


def _write_package(root: Path) -> None:
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "__init__.py").write_text(
        '"""The package."""\n\nfrom ._client import Client, Oops, Point, opened\n', "utf-8"
    )
    (root / "src" / "pkg" / "_client.py").write_text(CLIENT, "utf-8")
    (root / "src" / "pkg" / "util.py").write_text(UTIL, "utf-8")
    # attrs is not installed: autodoc never imports _client's attrs class, and this stub lets it
    # import the module.
    (root / "src" / "attr.py").write_text(
        "def s(cls):\n    return cls\n\n\ndef ib(**kwargs):\n    return None\n", "utf-8"
    )


def _signature_links(html: str) -> dict[str, str]:
    found = {}
    for ident, body in re.findall(
        r'<dt class="sig sig-object py" id="([^"]+)">(.*?)</dt>', html, re.S
    ):
        match = re.search(r'class="reference external sa-api-source" href="([^"]+)"', body)
        if match:
            found[ident] = unescape(match[1])
    return found


def _sphinx(docs: Path, cache: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(cache)}
    env.pop("CI", None)
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", *extra, str(docs), str(docs / "_build")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_every_kind_of_object_links_to_its_definition(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _write_package(root)
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        textwrap.dedent("""\
        import os, sys
        sys.path.insert(0, os.path.abspath("../src"))
        extensions = ["sphinx.ext.autodoc", "source_anchors"]
        source_anchors_api_links = "self"
        source_anchors_api_packages = ["src/pkg"]
        """),
        "utf-8",
    )
    (docs / "index.rst").write_text(PAGE, "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "one", cwd=root)
    git("remote", "add", "origin", "https://github.com/me/proj.git", cwd=root)
    commit = git("rev-parse", "HEAD", cwd=root).strip()
    done = _sphinx(docs, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    html = (docs / "_build" / "index.html").read_text("utf-8")
    links = _signature_links(html)
    base = f"https://github.com/me/proj/blob/{commit}/src/pkg/_client.py"
    for name, (first, last) in EXPECTED.items():
        start, end = _range(first, last)
        assert links.get(name) == base + (f"#L{start}" if start == end else f"#L{start}-L{end}"), (
            name
        )
    # The module: its whole file, without a line range.
    assert f'href="https://github.com/me/proj/blob/{commit}/src/pkg/__init__.py"' in html
    # The hover text is the range.
    assert re.search(r'title="src/pkg/_client\.py:L\d+–L\d+&#64;' + commit[:7] + '"', html)


def test_links_into_a_pinned_repository_are_locked_like_anchors(tmp_path: Path) -> None:
    up = Upstream(tmp_path / "up")
    _write_package(up.path)
    first = up.commit("one")
    book = tmp_path / "book"
    book.mkdir()

    def conf(commit: str) -> None:
        (book / "conf.py").write_text(
            textwrap.dedent(f"""\
            extensions = ["source_anchors"]
            source_anchors_repos = {{"up": {{"url": {up.url!r}, "commit": {commit!r}, "packages": ["src/pkg"]}}}}
            source_anchors_api_links = "up"
            """),
            "utf-8",
        )

    conf(first)
    (book / "index.rst").write_text(
        ".. py:class:: pkg.Client\n\n   .. py:method:: send(x)\n", "utf-8"
    )
    done = _sphinx(book, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    links = _signature_links((book / "_build" / "index.html").read_text("utf-8"))
    assert links["pkg.Client.send"].startswith(
        f"{up.url.removesuffix('.git')}/blob/{first}/src/pkg/_client.py#L"
    )
    lock = (book / "source-anchors.lock").read_text("utf-8")
    assert "pkg.Client.send" in lock and "pkg.Client" in lock
    # The method moves down: the pin bump reports it as a moved anchor, located on the page.
    up.write_files({"src/pkg/_client.py": "# a comment first\n" + CLIENT})
    second = up.commit("two")
    conf(second)
    done = _sphinx(book, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    moved = [line for line in done.stderr.splitlines() if "source-anchors.moved" in line]
    assert any("pkg.Client.send" in line and "index.rst" in line for line in moved), done.stderr
    # `source-anchors check` lists the API links as anchors; `update` relocks them (and keeps them).
    env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(tmp_path / "cache")}
    env.pop("CI", None)
    cli = [sys.executable, "-m", "source_anchors", "--confdir", str(book)]
    check = subprocess.run([*cli, "check"], capture_output=True, text=True, env=env, timeout=300)
    assert check.returncode == 1 and "pkg.Client.send" in check.stdout, check.stdout + check.stderr
    update = subprocess.run([*cli, "update"], capture_output=True, text=True, env=env, timeout=300)
    assert update.returncode == 0, update.stderr
    assert f'"commit": "{second}"' in (book / "source-anchors.lock").read_text("utf-8")
    assert "pkg.Client.send" in (book / "source-anchors.lock").read_text("utf-8")
    again = subprocess.run([*cli, "check"], capture_output=True, text=True, env=env, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr


def test_linkcode_dropin_gives_ranged_links_from_one_import(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _write_package(root)
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        textwrap.dedent("""\
        import os, sys
        sys.path.insert(0, os.path.abspath("../src"))
        extensions = ["sphinx.ext.autodoc", "sphinx.ext.linkcode"]
        from source_anchors.linkcode import linkcode_resolve
        """),
        "utf-8",
    )
    (docs / "index.rst").write_text(
        ".. autoclass:: pkg.Client\n   :members: send, size\n   :undoc-members:\n", "utf-8"
    )
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "one", cwd=root)
    git("remote", "add", "origin", "git@gitlab.com:me/proj.git", cwd=root)
    commit = git("rev-parse", "HEAD", cwd=root).strip()
    done = _sphinx(docs, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    html = (docs / "_build" / "index.html").read_text("utf-8")
    start, end = _range("    @traced", "        return x")
    assert (
        f'href="https://gitlab.com/me/proj/-/blob/{commit}/src/pkg/_client.py#L{start}-{end}"'
        in html
    )
    # With the extension loaded too, linkcode still writes the one HTML link per signature.
    (docs / "conf.py").write_text(
        (docs / "conf.py")
        .read_text("utf-8")
        .replace('"sphinx.ext.linkcode"]', '"sphinx.ext.linkcode", "source_anchors"]'),
        "utf-8",
    )
    done = _sphinx(docs, tmp_path / "cache", "-E")
    assert done.returncode == 0, done.stderr
    html = (docs / "_build" / "index.html").read_text("utf-8")
    assert html.count("[source]") == 3  # Client, send, size: one link each
    assert f"src/pkg/_client.py#L{start}-{end}" in html
