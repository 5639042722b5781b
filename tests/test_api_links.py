"""API source links: real autodoc over a package from PyPI, linked statically at the commit being built.

The package (itsdangerous, pure Python) is downloaded as an sdist with ``pip download`` and
committed to a git repository the test makes; its API is documented with autodoc (which imports it,
as autodoc does) and built by ``sphinx-build``. Each link is checked against an independent oracle
(``bench/api_oracle.py``: Python's own ``__mro__`` and ``ast``), and a hook proves that the link
resolver itself imports nothing of the package.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT, git

SDIST = "itsdangerous==2.2.0"
PAGE = """\
API
===

.. automodule:: itsdangerous
   :members:
   :imported-members:
   :undoc-members:
   :inherited-members:

.. py:function:: made_at_runtime()

   Hand-written: no statement binds it.

.. py:function:: len(obj)

   A builtin, documented by hand.
"""
HTML_LINK = re.compile(
    r'<a class="reference external sa-api-source" href="([^"]+)" title="([^"]+)">'
    r'<span class="viewcode-link"><span class="pre">\[source\]</span></span></a>'
)


def _oracle_module() -> Any:
    spec = importlib.util.spec_from_file_location("api_oracle", ROOT / "bench" / "api_oracle.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist's unpacked folder (downloaded once for the module)."""
    where = tmp_path_factory.mktemp("sdist")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--no-binary",
            ":all:",
            "-d",
            str(where),
            SDIST,
        ],
        check=True,
        timeout=300,
    )
    archive = next(where.glob("*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(where, filter="data")
    return next(p for p in where.iterdir() if p.is_dir())


def _project(
    sdist: Path, into: Path, *, conf: str = "", page: str = PAGE, commit: bool = True
) -> Path:
    """The sdist as a git repository (remote: an ssh URL) with a docs folder of our own; the docs folder."""
    shutil.copytree(sdist, into, ignore=shutil.ignore_patterns("docs"))
    docs = into / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        textwrap.dedent("""\
        import os, sys
        sys.path.insert(0, os.path.abspath("../src"))
        extensions = ["sphinx.ext.autodoc", "source_anchors"]
        source_anchors_api_links = "self"
        """)
        + conf,
        "utf-8",
    )
    (docs / "index.rst").write_text(page, "utf-8")
    if commit:
        git("init", "-q", "-b", "main", cwd=into)
        git("add", "-A", cwd=into)
        git("commit", "-q", "-m", "release", cwd=into)
        git("remote", "add", "origin", "git@github.com:pallets/itsdangerous.git", cwd=into)
    return docs


def _build(docs: Path, builder: str = "html", *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(docs.parent.parent / "cache")}
    env.pop("CI", None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            builder,
            *extra,
            str(docs),
            str(docs / "_build" / builder),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def _our_warnings(stderr: str) -> list[str]:
    """The extension's warnings (the package's own docstrings refer to pages of its real docs)."""
    return [line for line in stderr.splitlines() if "WARNING" in line and "source-anchors" in line]


def _html_links(docs: Path) -> dict[str, tuple[str, str]]:
    """Each linked signature's id (the object's full name) and its (href, hover text)."""
    html = (docs / "_build" / "html" / "index.html").read_text("utf-8")
    found: dict[str, tuple[str, str]] = {}
    for block in re.findall(r'<dt class="sig sig-object py" id="([^"]+)">(.*?)</dt>', html, re.S):
        match = HTML_LINK.search(block[1])
        if match:
            found[block[0]] = (unescape(match[1]), unescape(match[2]))
    return found


def test_every_object_links_to_the_lines_python_defines_it_at(sdist: Path, tmp_path: Path) -> None:
    docs = _project(sdist, tmp_path / "proj", conf="source_anchors_api_list_unlinked = True\n")
    commit = git("rev-parse", "HEAD", cwd=docs.parent).strip()
    done = _build(docs)
    assert done.returncode == 0, done.stderr
    links = _html_links(docs)
    sys.path.insert(0, str(docs.parent / "src"))
    try:
        oracle = _oracle_module().oracle
        checked = 0
        for name, (href, hover) in links.items():
            module, _, fullname = _split(name)
            expected = oracle(module, fullname)
            assert expected is not None, name
            file, start, end = expected
            path = Path(file).resolve().relative_to(docs.parent.resolve()).as_posix()
            fragment = f"#L{start}" if start == end else f"#L{start}-L{end}"
            assert (
                href == f"https://github.com/pallets/itsdangerous/blob/{commit}/{path}{fragment}"
            ), name
            assert hover.startswith(f"{path}:L{start}"), name
            checked += 1
    finally:
        sys.path.remove(str(docs.parent / "src"))
    assert checked >= 40
    # Re-exported (itsdangerous.Signer is defined in itsdangerous.signer), and a member shown by
    # :inherited-members: links to the class that defines it, by the MRO.
    assert "/src/itsdangerous/signer.py#L" in links["itsdangerous.Signer"][0]
    assert (
        links["itsdangerous.URLSafeSerializer.dumps"][0]
        == links["itsdangerous.Serializer.dumps"][0]
    )
    # Built-ins (Exception.with_traceback shown by :inherited-members:) and a name made at run time
    # get no link and no warning each: one summary line counts them.
    assert "itsdangerous.BadData.with_traceback" not in links
    assert "itsdangerous.made_at_runtime" not in links
    assert not _our_warnings(done.stderr)
    summary = re.search(
        r"API links: (\d+) objects described, (\d+) linked, (\d+) without a link \(([^)]*)\)",
        done.stdout + done.stderr,
    )
    assert summary is not None, done.stdout
    html = (docs / "_build" / "html" / "index.html").read_text("utf-8")
    assert int(summary[2]) == html.count('class="reference external sa-api-source"') > len(links)
    assert "no Python source" in summary[4] and "not bound statically" in summary[4]
    # The list on request: one line each, at the page line of a hand-written directive.
    line = PAGE.splitlines().index(".. py:function:: made_at_runtime()") + 1
    assert (
        f"index.rst:{line}: itsdangerous.made_at_runtime: no link: not bound statically"
        in done.stdout
    )
    assert "itsdangerous.BadData.with_traceback: no link: no Python source" in done.stdout


def _split(name: str) -> tuple[str, str, str]:
    """(module, '.', name inside it) of a documented full name, by the longest importable module prefix."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        try:
            if importlib.util.find_spec(module) is not None:
                return module, ".", ".".join(parts[cut:])
        except ModuleNotFoundError:
            continue  # a class of a module, not a submodule
    return parts[0], ".", ".".join(parts[1:])


def test_text_and_latex_print_the_location_after_the_signature(sdist: Path, tmp_path: Path) -> None:
    docs = _project(sdist, tmp_path / "proj")
    git("tag", "v2.2.0", cwd=docs.parent)
    for builder in ("text", "latex", "epub"):
        done = _build(docs, builder)
        assert done.returncode == 0, done.stderr
    text = (docs / "_build" / "text" / "index.txt").read_text("utf-8")
    # The tag on HEAD is what readers are shown; the link itself names the full commit.
    assert re.search(
        r"class itsdangerous\.Signer\(.*\) \(src/itsdangerous/signer\.py:L\d+–L\d+@v2\.2\.0\)", text
    )
    # An e-book reader has no hover: the location is written, linked.
    epub = (docs / "_build" / "epub" / "index.xhtml").read_text("utf-8")
    assert re.search(
        r'<span class="sa-api-where"> \(src/itsdangerous/signer\.py:L\d+–L\d+&#64;v2\.2\.0\)</span>',
        epub,
    )
    latex = next((docs / "_build" / "latex").glob("*.tex")).read_text("utf-8")
    commit = git("rev-parse", "HEAD", cwd=docs.parent).strip()
    assert re.search(
        r"\\sphinxhref\{https://github.com/pallets/itsdangerous/blob/"
        + commit
        + r"/src/itsdangerous/signer\.py\\#L\d+-L\d+\}\{\(src/",
        latex,
    )


def test_the_resolver_never_imports_the_documented_package(sdist: Path, tmp_path: Path) -> None:
    """Every import of itsdangerous made from the extension's code fails the build (autodoc's are allowed)."""
    docs = _project(sdist, tmp_path / "proj")
    hook = textwrap.dedent("""
        import builtins, importlib, sys
        _real_import, _real_module = builtins.__import__, importlib.import_module
        def _from_resolver():
            frame = sys._getframe(2)
            while frame is not None:
                name = frame.f_globals.get("__name__", "")
                if name.startswith("sphinx.ext.autodoc"):
                    return False  # autodoc's own import, inside the directive the extension stamps with its line
                if name.startswith("source_anchors"):
                    return True
                frame = frame.f_back
            return False
        def _guard(name):
            if name.split(".")[0] == "itsdangerous" and _from_resolver():
                raise SystemExit("the link resolver imported " + name)
        def _import(name, *args, **kwargs):
            _guard(name)
            return _real_import(name, *args, **kwargs)
        def _module(name, package=None):
            _guard(name)
            return _real_module(name, package)
        class _Finder:
            def find_spec(self, name, path=None, target=None):
                _guard(name)
                return None
        builtins.__import__, importlib.import_module = _import, _module
        sys.meta_path.insert(0, _Finder())
        """)
    (docs / "conf.py").write_text((docs / "conf.py").read_text("utf-8") + hook, "utf-8")
    done = _build(docs)
    assert done.returncode == 0, done.stderr
    assert len(_html_links(docs)) >= 40
    # A fresh interpreter that never imported it: the resolver links every object and leaves it
    # unimported.
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from source_anchors.model.config.api import ApiSettings
        from source_anchors.engine.apilinker import OwnLinker
        from source_anchors.sources.apiself import own_source
        from source_anchors.sources.trees import TreeCache
        class Refuse:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] == "itsdangerous":
                    raise SystemExit("imported " + name)
        sys.meta_path.insert(0, Refuse())
        own = own_source(ApiSettings(links="self"), confdir=Path({str(docs)!r}),
                         cache=TreeCache(Path({str(tmp_path / "cache2")!r}), timeout=60))
        linker = OwnLinker(own, max_file_bytes=10**7)
        names = ["Signer", "Signer.sign", "URLSafeSerializer.dumps", "TimestampSigner.get_timestamp",
                 "exc.BadSignature", "encoding.base64_encode", "Serializer.default_signer"]
        links = [linker.link("itsdangerous", name) for name in names]
        assert all(hasattr(link, "url") for link in links), links
        assert not any(m.split(".")[0] == "itsdangerous" for m in sys.modules), "imported"
        print("ok", len(links))
        """)
    ran = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert ran.stdout.strip() == "ok 7", ran.stderr


def test_uncommitted_edits_are_named_once_and_links_keep_the_commit(
    sdist: Path, tmp_path: Path
) -> None:
    docs = _project(sdist, tmp_path / "proj")
    signer = docs.parent / "src" / "itsdangerous" / "signer.py"
    signer.write_text("# an edit not committed\n" + signer.read_text("utf-8"), "utf-8")
    done = _build(docs)
    assert done.returncode == 0, done.stderr
    warnings = _our_warnings(done.stderr)
    assert len(warnings) == 1, done.stderr
    assert "src/itsdangerous/signer.py" in warnings[0] and "differ from the commit" in warnings[0]
    assert "[source-anchors.api]" in warnings[0]
    # The links are the commit's lines (read from git's objects), not the edited file's.
    committed = git("show", "HEAD:src/itsdangerous/signer.py", cwd=docs.parent).splitlines()
    start = next(n for n, line in enumerate(committed, 1) if line.startswith("class Signer"))
    assert f"signer.py#L{start}-" in _html_links(docs)["itsdangerous.Signer"][0]


def test_shallow_clone_links_like_the_full_one(sdist: Path, tmp_path: Path) -> None:
    docs = _project(sdist, tmp_path / "full")
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{docs.parent}", str(shallow)], check=True
    )
    git("remote", "set-url", "origin", "https://gitlab.com/pallets/itsdangerous.git", cwd=shallow)
    assert git("rev-parse", "--is-shallow-repository", cwd=shallow).strip() == "true"
    done = _build(shallow / "docs")
    assert done.returncode == 0, done.stderr
    links = _html_links(shallow / "docs")
    assert links["itsdangerous.Signer"][0].startswith(
        "https://gitlab.com/pallets/itsdangerous/-/blob/"
    )
    assert re.search(
        r"signer\.py#L\d+-\d+$", links["itsdangerous.Signer"][0]
    )  # GitLab's range form


def test_outside_git_one_warning_names_the_setting_then_the_setting_links(
    sdist: Path, tmp_path: Path
) -> None:
    docs = _project(sdist, tmp_path / "proj", commit=False)
    done = _build(docs)
    assert done.returncode == 0, done.stderr
    warnings = _our_warnings(done.stderr)
    assert len(warnings) == 1 and "source_anchors_api_commit" in warnings[0], done.stderr
    assert not _html_links(docs)
    (docs / "conf.py").write_text(
        (docs / "conf.py").read_text("utf-8")
        + textwrap.dedent("""
        source_anchors_api_commit = "2.2.0"
        source_anchors_api_url = "https://bitbucket.org/pallets/itsdangerous"
        """),
        "utf-8",
    )
    done = _build(docs)
    assert done.returncode == 0 and not _our_warnings(done.stderr), done.stderr
    href = _html_links(docs)["itsdangerous.Signer"][0]
    assert re.match(
        r"https://bitbucket\.org/pallets/itsdangerous/src/2\.2\.0/src/itsdangerous/signer\.py"
        r"#lines-\d+:\d+$",
        href,
    )


def test_parallel_and_incremental_builds(sdist: Path, tmp_path: Path) -> None:
    docs = _project(sdist, tmp_path / "proj")
    first = _build(docs, "html", "-j", "2")
    assert first.returncode == 0, first.stderr
    links = _html_links(docs)
    second = _build(docs, "html", "-j", "2")
    assert second.returncode == 0 and _html_links(docs) == links
    assert (
        "API links:" in second.stdout + second.stderr
    )  # the summary comes from the stored records
    # A new commit: pages are read again, and the links name it.
    (docs.parent / "NOTES.txt").write_text("x\n", "utf-8")
    git("add", "-A", cwd=docs.parent)
    git("commit", "-q", "-m", "notes", cwd=docs.parent)
    commit = git("rev-parse", "HEAD", cwd=docs.parent).strip()
    third = _build(docs, "html", "-j", "2")
    assert third.returncode == 0, third.stderr
    assert f"/blob/{commit}/" in _html_links(docs)["itsdangerous.Signer"][0]
