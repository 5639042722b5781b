"""API links of names a package defines in Python and rebinds to its compiled module's.

``class FrozenList: …`` as a pure-Python fallback, then ``try: from ._frozenlist import FrozenList
as CFrozenList`` / ``else: FrozenList = CFrozenList`` (or ``if not USE_EXTENSIONS: from
._multidict_py import MultiDict`` / ``else: from ._multidict import MultiDict``): the built package,
which autodoc imports, holds the compiled class, so its ``[source]`` link is the compiled
definition, not the fallback. Shown on
a project the test writes (``"self"``) and on frozenlist's sdist from PyPI, pinned and locked, whose
lines were read off the files by a person (``bench/compiled_facts.json``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import textwrap
from html import unescape
from pathlib import Path

from helpers import ROOT, Upstream
from source_anchors.sources.simpleindex import download_sdist
from test_api_compiled import lines_of, self_project

SETUP = """\
from setuptools import Extension, setup

setup(ext_modules=[Extension("pkg._fast", ["pkg/_fast.pyx"])])
"""
INIT = """\
import os

NO_EXTENSIONS = bool(os.environ.get("PKG_NO_EXTENSIONS"))

from ._fast import Wrapped
from ._fast import Kept as _Kept


class Box:
    def __init__(self, value):
        self.value = value

    def get(self):
        return self.value

    def only_here(self):
        return 0


class Wrapped(Wrapped):
    def get(self):
        return 2


class Kept:
    def get(self):
        return 3


if not NO_EXTENSIONS:
    try:
        from ._fast import Box as CBox  # type: ignore
    except ImportError:
        pass
    else:
        Box = CBox

if NO_EXTENSIONS:
    from ._slow import (
        Pair,
        pair,
    )
else:
    from ._fast import (
        Pair,
        pair,
    )
"""
SLOW = """\
class Pair:
    def first(self):
        return 0


def pair():
    return Pair()
"""
PYX = """\
# cython: language_level=3
cdef class Box:
    cdef object value

    def __init__(self, value):
        self.value = value

    def get(self):
        return self.value


cdef class Wrapped:
    def get(self):
        return 1


cdef class Kept:
    def get(self):
        return 1


cdef class Pair:
    def first(self):
        return 1


def pair():
    return Pair()
"""
#: Documented object -> (file, first words of the first line, of the last line).
EXPECTED = {
    "pkg.Box": ("pkg/_fast.pyx", "cdef class Box", "        return self.value"),
    "pkg.Box.get": ("pkg/_fast.pyx", "    def get(self)", "        return self.value"),
    # A Python class below the import of the compiled one wraps it: the Python class is the object.
    "pkg.Wrapped": ("pkg/__init__.py", "class Wrapped(Wrapped)", "        return 2"),
    # Imported under another name and never rebound: the Python class stays.
    "pkg.Kept.get": ("pkg/__init__.py", "    def get(self):\n        return 3", "return 3"),
    # Imported from a Python module in one branch, from the compiled one in the branch below.
    "pkg.Pair": ("pkg/_fast.pyx", "cdef class Pair", "        return 1"),
    "pkg.Pair.first": ("pkg/_fast.pyx", "    def first(self):\n        return 1", "return 1"),
    "pkg.pair": ("pkg/_fast.pyx", "def pair():", "    return Pair()"),
}
HTML_LINK = re.compile(r'<a class="reference external sa-api-source" href="([^"]+)"')


def _links(html: str) -> dict[str, str]:
    found = {}
    for ident, block in re.findall(
        r'<dt class="sig sig-object py" id="([^"]+)">(.*?)</dt>', html, re.S
    ):
        match = HTML_LINK.search(block)
        if match:
            found[ident] = unescape(match[1])
    return found


def _page(names: list[str]) -> str:
    """A ``py:class`` or ``py:method`` directive, written by hand, for each name."""
    parts = ["API", "===", ""]
    for name in names:
        compiled = "frozenlist._frozenlist"
        module = compiled if name.startswith(f"{compiled}.") else name.split(".")[0]
        inner = name[len(module) + 1 :]
        leaf = inner.rpartition(".")[2]
        kind = "class" if leaf[0].isupper() else "method" if "." in inner else "function"
        parts += [f".. py:{kind}:: {inner}", f"   :module: {module}", "", "   By hand.", ""]
    return "\n".join(parts)


def _build(docs: Path, cache: Path, *, locked: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(cache)}
    env.pop("CI", None)
    if locked:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-E", "-b", "html", str(docs), str(docs / "_build")],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_a_python_fallback_rebound_to_the_compiled_class_links_the_compiled_one(
    tmp_path: Path,
) -> None:
    files = {
        "setup.py": SETUP,
        "pkg/__init__.py": INIT,
        "pkg/_fast.pyx": PYX,
        "pkg/_slow.py": SLOW,
    }
    docs, commit = self_project(tmp_path / "proj", files, _page([*EXPECTED, "pkg.Box.only_here"]))

    done = _build(docs, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    links = _links((docs / "_build" / "index.html").read_text("utf-8"))
    for name, (file, first, last) in EXPECTED.items():
        start, end = lines_of(files[file], first, last)
        fragment = f"#L{start}" if start == end else f"#L{start}-L{end}"
        assert links.get(name) == f"https://github.com/org/proj/blob/{commit}/{file}{fragment}", (
            name,
            links.get(name),
        )
    # The fallback's own method: the compiled class has none, so no link (never the fallback's).
    assert "pkg.Box.only_here" not in links
    rebinding = lines_of(INIT, "        Box = CBox", "CBox")[0]
    assert re.search(
        rf"pkg\.Box\.only_here: no link: rebound at pkg/__init__\.py:L{rebinding} to "
        r"pkg\._fast\.Box\.only_here, which no compiled binding names",
        done.stdout + done.stderr,
    ), done.stdout + done.stderr


FACTS = json.loads((ROOT / "bench" / "compiled_facts.json").read_text("utf-8"))["frozenlist==1.8.0"]


def test_frozenlist_links_the_cdef_class_its_package_rebinds_pinned_and_locked(
    tmp_path: Path,
) -> None:
    download_sdist("frozenlist==1.8.0", tmp_path, timeout=300)
    with tarfile.open(next(tmp_path.glob("*.tar.gz"))) as tar:
        tar.extractall(tmp_path / "x", filter="data")
    unpacked = next((tmp_path / "x").iterdir())
    up = Upstream(tmp_path / "up")
    up.write_files(
        {
            p.relative_to(unpacked).as_posix(): p.read_bytes()
            for p in unpacked.rglob("*")
            if p.is_file()
        }
    )
    commit = up.commit("frozenlist 1.8.0")
    # The public name (frozenlist.FrozenList) and the compiled module's own.
    documented = {
        name.replace("frozenlist._frozenlist.", "frozenlist."): fact for name, fact in FACTS.items()
    }
    documented.update(FACTS)
    book = tmp_path / "book"
    book.mkdir()
    (book / "conf.py").write_text(
        textwrap.dedent(f"""\
        extensions = ["source_anchors"]
        source_anchors_repos = {{"up": {{"url": {up.url!r}, "commit": {commit!r}, "packages": ["frozenlist"]}}}}
        source_anchors_api_links = "up"
        """),
        "utf-8",
    )
    (book / "index.rst").write_text(_page(sorted(documented)), "utf-8")
    done = _build(book, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    links = _links((book / "_build" / "index.html").read_text("utf-8"))
    for name, (path, start, end) in documented.items():
        fragment = f"#L{start}" if start == end else f"#L{start}-L{end}"
        assert links.get(name) == f"{up.url}/blob/{commit}/{path}{fragment}", (name, links)
    lock = json.loads((book / "source-anchors.lock").read_text("utf-8"))["anchors"]["up"]
    assert lock["frozenlist.FrozenList"]["path"] == "frozenlist/_frozenlist.pyx"
    locked = _build(book, tmp_path / "cache", locked=True)
    assert locked.returncode == 0, locked.stdout + locked.stderr
