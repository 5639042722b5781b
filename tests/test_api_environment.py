"""API links decided as the build's environment decides them: optional imports, overrides, module ``__getattr__``.

The package this test writes binds ``show``, ``render`` and ``speed`` one way when the top-level
module ``fakeopt`` can be imported and another when it cannot. Two real builds, one with ``fakeopt``
on the build's ``PYTHONPATH`` and one without, show that each link follows the branch autodoc
documents (its docstring is on the page). A name served by a module ``__getattr__`` is named in the
unlinked listing, and ``source_anchors_api_overrides`` links it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from html import unescape
from pathlib import Path

from helpers import git

SHOW = '''\
"""Output, better with fakeopt."""

import importlib.util

try:
    import fakeopt
except ImportError:
    fakeopt = None

if fakeopt is None:
    def show(x):
        """Show without fakeopt."""
        return "stub"
else:
    def show(x):
        """Show with fakeopt."""
        return fakeopt.render(x)

try:
    from fakeopt import render
except ImportError:
    def render(x):
        """Render without fakeopt."""
        return x

def clean(x):
    """Clean without fakeopt."""
    return x

try:  # a stand-in first, then the real one when fakeopt is found: the later binding that runs wins
    from fakeopt import clean
except ImportError:
    pass

if importlib.util.find_spec("fakeopt") is not None:
    def speed():
        """Fast, with fakeopt."""
        return 2
else:
    def speed():
        """Slow, without fakeopt."""
        return 1
'''
COMPAT = '''\
"""Deprecated names, served by the module's __getattr__."""


def _real_old():
    """The object behind old_name."""
    return 1


def __getattr__(name):
    if name == "old_name":
        return _real_old
    raise AttributeError(name)
'''
FAKEOPT = '''\
def render(x):
    """Render with fakeopt."""
    return x


def clean(x):
    """Clean with fakeopt."""
    return x
'''
PAGE = """\
API
===

.. autofunction:: pkg._show.show
.. autofunction:: pkg._show.render
.. autofunction:: pkg._show.speed
.. autofunction:: pkg._show.clean
.. autofunction:: pkg.compat.old_name

.. py:function:: pkg.compat.nowhere()

   Hand-written: its module's __getattr__ never names it.
"""


def _line(text: str, wanted: str, after: int = 0) -> int:
    """The number of the first line of *text* after line *after* equal to *wanted*."""
    return text.splitlines().index(wanted, after) + 1


def _project(root: Path, conf: str = "") -> tuple[Path, str]:
    """The package, committed with its docs; (the docs folder, the commit)."""
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "__init__.py").write_text('"""The package."""\n', "utf-8")
    (root / "src" / "pkg" / "_show.py").write_text(SHOW, "utf-8")
    (root / "src" / "pkg" / "compat.py").write_text(COMPAT, "utf-8")
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        textwrap.dedent("""\
        import os, sys
        sys.path.insert(0, os.path.abspath("../src"))
        extensions = ["sphinx.ext.autodoc", "source_anchors"]
        source_anchors_api_links = "self"
        source_anchors_api_list_unlinked = True
        """)
        + conf,
        "utf-8",
    )
    (docs / "index.rst").write_text(PAGE, "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "one", cwd=root)
    git("remote", "add", "origin", "https://github.com/me/proj.git", cwd=root)
    return docs, git("rev-parse", "HEAD", cwd=root).strip()


def _site(tmp_path: Path) -> Path:
    """A folder holding the top-level module ``fakeopt``, for the build's PYTHONPATH."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "fakeopt.py").write_text(FAKEOPT, "utf-8")
    return site


def _env(cache: Path, site: Path | None) -> dict[str, str]:
    env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(cache)}
    env.pop("CI", None)
    env.pop("PYTHONPATH", None)
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return env


def _sphinx(docs: Path, cache: Path, site: Path | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", "html", str(docs), str(docs / "_build")],
        capture_output=True,
        text=True,
        env=_env(cache, site),
        timeout=600,
    )


def _links(docs: Path) -> tuple[str, dict[str, str]]:
    """The page's HTML, and each signature's id with its link."""
    html = (docs / "_build" / "index.html").read_text("utf-8")
    found = {}
    for ident, body in re.findall(
        r'<dt class="sig sig-object py" id="([^"]+)">(.*?)</dt>', html, re.S
    ):
        match = re.search(r'class="reference external sa-api-source" href="([^"]+)"', body)
        if match:
            found[ident] = unescape(match[1])
    return html, found


def _span(first: str, last: str, after: int = 0) -> str:
    start = _line(SHOW, first, after)
    return f"#L{start}-L{_line(SHOW, last, start)}"


def test_links_follow_the_branch_the_environment_runs(tmp_path: Path) -> None:
    docs, commit = _project(tmp_path / "proj")
    base = f"https://github.com/me/proj/blob/{commit}/src/pkg/_show.py"
    second_show = _line(SHOW, "    def show(x):", _line(SHOW, "    def show(x):"))

    done = _sphinx(docs, tmp_path / "cache", _site(tmp_path))  # fakeopt found
    assert done.returncode == 0, done.stderr
    html, links = _links(docs)
    assert "Show with fakeopt." in html and "Fast, with fakeopt." in html  # what autodoc documents
    assert links["pkg._show.show"] == base + _span(
        "    def show(x):", "        return fakeopt.render(x)", second_show - 1
    )
    assert links["pkg._show.speed"] == base + _span("    def speed():", "        return 2")
    assert "pkg._show.render" not in links  # fakeopt's own render, outside the package
    assert "Render with fakeopt." in html
    assert "Clean with fakeopt." in html and "pkg._show.clean" not in links  # rebound to fakeopt's

    # fakeopt not found now; the same output folder: the page is read again, because of that alone.
    done = _sphinx(docs, tmp_path / "cache", None)
    assert done.returncode == 0, done.stderr
    assert (
        "pages read again: fakeopt was installed or removed since the last build" in done.stdout
    ), done.stdout
    html, links = _links(docs)
    assert "Show without fakeopt." in html and "Slow, without fakeopt." in html
    assert links["pkg._show.show"] == base + _span("    def show(x):", '        return "stub"')
    assert links["pkg._show.speed"] == base + _span(
        "    def speed():",
        "        return 1",
        _line(SHOW, "else:", _line(SHOW, "    def speed():")),
    )
    assert links["pkg._show.render"] == base + _span("    def render(x):", "        return x")
    assert "Clean without fakeopt." in html
    assert links["pkg._show.clean"] == base + _span("def clean(x):", "    return x")


def test_a_name_served_by_getattr_is_listed_then_linked_by_an_override(tmp_path: Path) -> None:
    docs, commit = _project(tmp_path / "proj")
    done = _sphinx(docs, tmp_path / "cache", None)
    assert done.returncode == 0, done.stderr
    assert "pkg.compat.old_name" not in _links(docs)[1]
    line = _line(PAGE, ".. autofunction:: pkg.compat.old_name")  # the directive's line
    assert (
        f"index.rst:{line}: pkg.compat.old_name: no link: served by pkg.compat.__getattr__ (set "
        "source_anchors_api_overrides)" in done.stdout
    ), done.stdout
    assert "(1 not bound statically, 1 served by a module __getattr__)" in done.stdout
    assert "pkg.compat.nowhere: no link: not bound statically" in done.stdout

    conf = docs / "conf.py"
    conf.write_text(
        conf.read_text("utf-8") + 'source_anchors_api_overrides = {"pkg.compat.old_name": '
        '"pkg.compat._real_old"}\n',
        "utf-8",
    )
    git("commit", "-q", "-am", "override", cwd=docs.parent)
    commit = git("rev-parse", "HEAD", cwd=docs.parent).strip()
    done = _sphinx(docs, tmp_path / "cache", None)
    assert done.returncode == 0, done.stderr
    start = _line(COMPAT, "def _real_old():")
    assert (
        _links(docs)[1]["pkg.compat.old_name"]
        == f"https://github.com/me/proj/blob/{commit}/src/pkg/compat.py#L{start}-L{start + 2}"
    )
    assert "pkg.compat.old_name: no link" not in done.stdout


def test_a_bad_override_is_one_located_error(tmp_path: Path) -> None:
    docs, _ = _project(
        tmp_path / "proj", conf='source_anchors_api_overrides = {"pkg.x": 3, "a b": "pkg.y"}\n'
    )
    done = _sphinx(docs, tmp_path / "cache", None)
    assert done.returncode != 0
    errors = [line for line in done.stderr.splitlines() if "source_anchors_api_overrides" in line]
    assert len(errors) == 1, done.stderr
    assert f"{docs / 'conf.py'}: source_anchors: invalid configuration" in done.stderr
    assert (
        "expected dotted names on both sides, such as {'pkg.name': 'pkg.module.real_name'}, got "
        "'pkg.x': 3, 'a b': 'pkg.y'" in errors[0]
    )
    assert "Traceback" not in done.stderr


def test_deciding_imports_neither_the_optional_module_nor_the_package(tmp_path: Path) -> None:
    """find_spec on the top-level name: the links come out, and fakeopt and pkg stay unimported."""
    docs, _ = _project(tmp_path / "proj")
    site = _site(tmp_path)
    (site / "fakeopt.py").write_text(
        FAKEOPT + 'raise SystemExit("fakeopt was imported")\n', "utf-8"
    )
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from source_anchors.engine.apilinker import OwnLinker
        from source_anchors.model.config.api import ApiSettings
        from source_anchors.sources.apiself import own_source
        from source_anchors.sources.trees import TreeCache
        own = own_source(ApiSettings(links="self"), confdir=Path({str(docs)!r}),
                         cache=TreeCache(Path({str(tmp_path / "cache")!r}), timeout=60))
        linker = OwnLinker(own, max_file_bytes=10**7, overrides={{"pkg.compat.old_name": "pkg.compat._real_old"}})
        show, speed, render = (linker.link("pkg._show", name) for name in ("show", "speed", "render"))
        old = linker.link("pkg.compat", "old_name")
        assert "fakeopt" not in sys.modules and not any(m.split(".")[0] == "pkg" for m in sys.modules)
        print(show.start, show.rule, speed.rule, render.reason.name, old.rule)
        """)
    ran = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env=_env(tmp_path / "cache", site),
    )
    second_show = _line(SHOW, "    def show(x):", _line(SHOW, "    def show(x):"))
    assert ran.stdout.split() == [
        str(second_show),
        "import-availability",
        "import-availability",
        "no_source",
        "api-override",
    ], ran.stderr
