"""The package as a stranger installs it: a wheel from a clean copy, a fresh venv, ``sphinx-quickstart`` books.

The wheel is built from a copy of what the package is made of (so the checkout gets no
``build/`` folder), with pip's build isolation: setuptools comes from the package index, as
on any machine. The venv installs the wheel and its dependencies from the index (pip's cache
makes the second run quick). Nothing of this checkout is on ``sys.path`` there: the books
find the extension, and ``source-anchors`` is on the venv's PATH, only because pip put them there.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from helpers import ROOT, Upstream

MODULE = '''\
"""A small module for the packaging test."""


def alpha():
    return 1


class Beta:
    size = 3

    def gamma(self):
        if self.size > 2:
            return "big"
        return "small"
'''


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (
        f"{argv[:3]} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done


def clean_env(venv: Path | None = None) -> dict[str, str]:
    """No PYTHONPATH, no CI, no cache override; the venv's bin first on PATH (proxies kept: pip downloads).

    In the venv, Python writes byte code as it imports (``PYTHONDONTWRITEBYTECODE`` dropped), since
    pip installed it without any (see ``venv``): the first build compiles what it uses, later ones
    load it.
    """
    dropped = (
        "PYTHONPATH",
        "CI",
        "SOURCE_ANCHORS_CACHE",
        "PYTHONHOME",
        "VIRTUAL_ENV",
        "PYTHONPYCACHEPREFIX",
        *(["PYTHONDONTWRITEBYTECODE"] if venv is not None else []),
    )
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    if venv is not None:
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("package-src")
    for name in ("pyproject.toml", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(
        ROOT / "ext",
        src / "ext",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"),
    )
    out = tmp_path_factory.mktemp("wheelhouse")
    run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(src)],
        src,
        clean_env(),
    )
    (found,) = out.glob("sphinx_source_anchors-*.whl")
    return found


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    root = tmp_path_factory.mktemp("venv") / "v"
    # No pip inside the venv (ensurepip takes seconds): this interpreter's pip installs into it.
    run([sys.executable, "-m", "venv", "--without-pip", str(root)], root.parent, clean_env())
    # --no-compile: pip would byte-compile every installed module (half the install's time); the
    # books' builds compile the modules they import, as Python does on first import anywhere.
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(root / "bin" / "python"),
            "install",
            "-q",
            "--no-compile",
            "--disable-pip-version-check",
            f"{wheel}[myst]",
        ],
        root.parent,
        clean_env(),
    )
    return root


@pytest.fixture(scope="module")
def pinned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Upstream, str]:
    up = Upstream(tmp_path_factory.mktemp("package-upstream") / "repo")
    up.write("pkg/__init__.py", '"""The package."""\n')
    up.write("pkg/mod.py", MODULE)
    up.write("LICENSE", "A licence text written for this test.\n")
    return up, up.commit()


def configure(conf: Path, up: Upstream, sha: str, *, myst: bool) -> None:
    """What the manual's quickstart says to add to a quickstart conf.py."""
    extensions = ["source_anchors", *(["myst_parser"] if myst else [])]
    conf.write_text(
        conf.read_text("utf-8")
        + f"""
extensions += {extensions!r}
source_anchors_repos = {{"up": {{"url": {up.url!r}, "commit": {sha!r}, "packages": ["pkg"],
                                 "host": "github"}}}}
source_anchors_default_repo = "up"
source_anchors_cache_dir = "_anchor_cache"
""",
        "utf-8",
    )


def quickstart(
    book: Path,
    env: dict[str, str],
    up: Upstream,
    sha: str,
    *,
    sep: bool = False,
    myst: bool = False,
) -> Path:
    """``sphinx-quickstart`` a book (``--sep`` puts conf.py in source/), configured as the manual says; its conf dir."""
    run(
        [
            "sphinx-quickstart",
            "-q",
            *(["--sep"] if sep else []),
            "-p",
            "Demo",
            "-a",
            "Tester",
            "--no-makefile",
            "--no-batchfile",
            str(book),
        ],
        book.parent,
        env,
    )
    confdir = book / "source" if sep else book
    configure(confdir / "conf.py", up, sha, myst=myst)
    return confdir


def add_to_toctree(index: Path, page: str) -> None:
    """List *page* in the toctree sphinx-quickstart wrote into *index*."""
    index.write_text(
        index.read_text("utf-8").replace(
            ":caption: Contents:\n", f":caption: Contents:\n\n   {page}\n"
        ),
        "utf-8",
    )


def test_the_wheel_holds_the_package_its_css_and_its_console_script(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(
            archive.read(n).decode() for n in names if n.endswith("entry_points.txt")
        )
        metadata = next(archive.read(n).decode() for n in names if n.endswith("METADATA"))
    assert "source_anchors/sphinx_ext/static/source-anchors.css" in names
    assert "source_anchors/py.typed" in names
    assert "source_anchors/locale/zh_CN/LC_MESSAGES/source_anchors.mo" in names
    assert "source_anchors/engine/engine.py" in names
    for language in (
        "typescript",
        "javascript",
        "go",
        "rust",
        "c",
        "cpp",
        "java",
    ):  # each language's query
        assert f"source_anchors/reading/languages/{language}/definitions.scm" in names
    assert not any(n.startswith(("tests/", "bench/", "source/")) for n in names)
    assert "source-anchors = source_anchors.cli.main:main" in entry_points
    assert "Classifier: Framework :: Sphinx :: Extension" in metadata
    assert "Requires-Python: >=3.11" in metadata
    for dependency in ("sphinx", "platformdirs"):
        assert f"Requires-Dist: {dependency}" in metadata


def test_a_quickstart_rst_book_builds_strictly_and_checks(
    venv: Path, pinned: tuple[Upstream, str], tmp_path: Path
) -> None:
    up, sha = pinned
    env = clean_env(venv)
    book = quickstart(tmp_path / "rstbook", env, up, sha)
    index = book / "index.rst"
    index.write_text(
        index.read_text("utf-8")
        + """
The module's entry: :src:`alpha <pkg.mod.alpha>`; a class, :src:`Beta <pkg.mod.Beta>`; one branch,
:src:`the test <pkg.mod.Beta.gamma::if self.size > 2:>`.
""",
        "utf-8",
    )
    run(["sphinx-build", "-W", "-q", "-b", "html", ".", "_build/html"], book, env)
    html = (book / "_build" / "html" / "index.html").read_text("utf-8")
    assert f"{up.url}/blob/{sha}/pkg/mod.py#L4-L5" in html
    assert f"{up.url}/blob/{sha}/pkg/mod.py#L12-L13" in html
    assert "pkg/mod.py:L8–L14" in html
    checked = run(["source-anchors", "check"], book, env)
    assert checked.stdout.count("ok") >= 3, checked.stdout
    assert (book / "source-anchors.lock").is_file()


def test_a_quickstart_myst_book_with_a_source_folder_checks_from_its_root(
    venv: Path, pinned: tuple[Upstream, str], tmp_path: Path
) -> None:
    up, sha = pinned
    env = clean_env(venv)
    book = tmp_path / "mystbook"
    quickstart(book, env, up, sha, sep=True, myst=True)
    (book / "source" / "anchors.md").write_text(
        """# Anchors

The module's entry: {src}`alpha <pkg.mod.alpha>`; a class, {src}`Beta <pkg.mod.Beta>`; one branch,
{src}`the test <pkg.mod.Beta.gamma::if self.size > 2:>`.
""",
        "utf-8",
    )
    add_to_toctree(book / "source" / "index.rst", "anchors")
    run(["sphinx-build", "-W", "-q", "-b", "html", "source", "build/html"], book, env)
    html = (book / "build" / "html" / "anchors.html").read_text("utf-8")
    assert f"{up.url}/blob/{sha}/pkg/mod.py#L4-L5" in html
    checked = run(
        ["source-anchors", "check"], book, env
    )  # finds source/conf.py from the book's root
    assert checked.stdout.count("ok") >= 3, checked.stdout
    assert (book / "source" / "source-anchors.lock").is_file()


def test_licence_notes_without_the_licences_extra_warn_once_naming_it(
    venv: Path, pinned: tuple[Upstream, str], tmp_path: Path
) -> None:
    """The venv has the ``myst`` extra only: the licence page renders and one warning names the extra."""
    up, sha = pinned
    env = clean_env(venv)
    book = quickstart(tmp_path / "licencebook", env, up, sha)
    (book / "licences.rst").write_text("Licences\n========\n\n.. licence-notes::\n", "utf-8")
    add_to_toctree(book / "index.rst", "licences")
    done = subprocess.run(
        ["sphinx-build", "-q", "-b", "html", ".", "_build/html"],
        cwd=book,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.count("pip install 'sphinx-source-anchors[licences]'") == 1, done.stderr
    assert "LICENSE" in (book / "_build" / "html" / "licences.html").read_text("utf-8")


def test_the_quickstart_goes_from_a_tag_to_a_green_strict_build(venv: Path, tmp_path: Path) -> None:
    """docs/quickstart.md, step by step: the tag as the commit, ``source-anchors pin``, strict builds, check."""
    up = Upstream(tmp_path / "repo")
    up.write("pkg/__init__.py", '"""The package."""\n')
    up.write("pkg/mod.py", MODULE)
    sha = up.commit("release 1.0", tag="v1.0")
    env = clean_env(venv)
    run(["sphinx-quickstart", "-q", "-p", "Demo", "-a", "Me", "mybook"], tmp_path, env)
    book = tmp_path / "mybook"
    configure(book / "conf.py", up, "v1.0", myst=False)  # step 2: the tag where the commit goes
    refused = subprocess.run(
        ["sphinx-build", "-W", "-q", "-b", "html", ".", "_build/html"],
        cwd=book,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert refused.returncode == 2 and "run 'source-anchors pin up v1.0'" in refused.stderr

    pinned = run(["source-anchors", "pin", "up"], book, env)  # step 3
    assert f"up: 'v1.0' is {sha} at {up.url}" in pinned.stdout
    index = book / "index.rst"  # step 4
    index.write_text(
        index.read_text("utf-8")
        + "\nSee :src:`the test <pkg.mod.Beta.gamma::if self.size > 2:>`.\n",
        "utf-8",
    )
    for extra in ({}, {"CI": "true"}):  # step 5: strict, then locked as CI builds are
        built = run(
            ["sphinx-build", "-W", "-b", "html", ".", "_build/html"], book, {**env, **extra}
        )
        assert "build succeeded." in built.stdout
    assert f"{up.url}/blob/{sha}/pkg/mod.py#L12" in (
        book / "_build" / "html" / "index.html"
    ).read_text("utf-8")
    assert "1 ok" in run(["source-anchors", "check"], book, env).stdout


def test_the_package_names_only_addresses_a_reader_can_open(wheel: Path) -> None:
    """No Project-URL or README link on a reserved domain (issue 40), and the README says how to install today.

    The project has no public address yet; it had ``.example`` URLs, which PyPI would show as links
    to nowhere. Before a release, ``pip install sphinx-source-anchors`` finds nothing: the README
    (the PyPI page) and the manual name ``make dist`` and the wheel it builds, by the version the
    package has.
    """
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(
            archive.read(n).decode() for n in archive.namelist() if n.endswith("METADATA")
        )
    readme = metadata.partition("\n\n")[2]  # the long description: ext/README.md
    hosts = re.findall(r"https?://([^/\s)\"'>]+)", metadata)
    reserved = [
        host
        for host in hosts
        if host.rsplit(".", 1)[-1] in {"example", "test", "invalid", "localhost"}
    ]
    assert not reserved, reserved
    for text in (readme, (ROOT / "docs" / "install.md").read_text("utf-8")):
        assert "make dist" in text and "sphinx_source_anchors-0.1.0-py3-none-any.whl" in text
    version = re.search(r"^Version: (\S+)$", metadata, re.MULTILINE)
    assert version and version.group(1) == "0.1.0", "the README's wheel name follows the version"
