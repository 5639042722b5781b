"""Declared licences (``source_anchors.licences.declared``) and their place in the licence notes and the ledger.

The parsers are pure and tested on bytes written here; the pages are built from git repositories
and distributions the tests make themselves (never an upstream file).
"""

from __future__ import annotations

import io
import json
import re
import tarfile
import zipfile
from pathlib import Path

import pytest
from helpers import ROOT, Book, Upstream, git
from source_anchors.licences.declared import (
    Declaration,
    disagreements,
    metadata_declarations,
    normalise,
)
from source_anchors.licences.manifests import collect, declarations

MIT_TEXT = (ROOT / "LICENSE").read_text("utf-8")  # our own licence: MIT

PYPROJECT = """\
[tool.poetry]
name = "demo"
license = "MIT"

[project]
name = "demo"
license = { text = "Apache 2" }
license-files = ["LICENSE"]
classifiers = [
    "Programming Language :: Python",
    "License :: OSI Approved :: MIT License",
]
"""

SETUP_PY = """\
import sys
raise SystemExit("this file must never run")
from setuptools import setup

setup(
    name="demo",
    license="MIT",
    classifiers=[
        "Intended Audience :: Developers",
        "License :: OSI Approved :: MIT License",
    ],
)
"""

SETUP_CFG = """\
[metadata]
name = demo
license = BSD-3-Clause
classifiers =
    Programming Language :: Python
    License :: OSI Approved :: BSD License

[options]
license = not-this-one
"""

PACKAGE_JSON = """\
{
  "name": "web",
  "version": "1.0.0",
  "license": "ISC",
  "dependencies": {}
}
"""

METADATA = """\
Metadata-Version: 2.4
Name: demo
Version: 1.0
License: MIT
License-Expression: MIT OR Apache-2.0
Classifier: License :: OSI Approved :: MIT License
Classifier: Programming Language :: Python

License: this line is the description, not a header
"""


def lines(found: list[Declaration]) -> list[tuple[int, str, frozenset[str]]]:
    return [(d.line, d.field, d.spdx) for d in found]


# --- parsing, statically -----------------------------------------------------------------------


def test_pyproject_declares_project_and_poetry_licences_with_lines() -> None:
    found = declarations("pyproject.toml", PYPROJECT.encode())
    assert lines(found) == [
        (3, "[tool.poetry] license", frozenset({"MIT"})),
        (7, "[project] license.text", frozenset({"Apache-2.0"})),
        (8, "[project] license-files", frozenset()),
        (11, "classifier", frozenset({"MIT"})),
    ]
    assert found[2].value == "LICENSE"


def test_pyproject_license_as_spdx_string_and_as_subtable() -> None:
    assert lines(
        declarations(
            "sub/pyproject.toml", b'[project]\nname = "x"\nlicense = "MIT OR Apache-2.0"\n'
        )
    ) == [(3, "[project] license", frozenset({"MIT", "Apache-2.0"}))]
    subtable = b'[project]\nname = "x"\n\n[project.license]\ntext = "MIT"\n'
    assert lines(declarations("pyproject.toml", subtable)) == [
        (5, "[project] license.text", frozenset({"MIT"}))
    ]


def test_setup_py_is_read_with_ast_never_run() -> None:
    found = declarations("setup.py", SETUP_PY.encode())  # it would raise SystemExit if it ran
    assert lines(found) == [
        (7, "setup(license=)", frozenset({"MIT"})),
        (10, "classifier", frozenset({"MIT"})),
    ]
    computed = declarations(
        "setup.py", b"from setuptools import setup\nsetup(license=open('L').read())\n"
    )
    assert [(d.line, d.value, d.recognised) for d in computed] == [(2, "open('L').read()", False)]


def test_setup_cfg_metadata_licence_and_classifiers() -> None:
    found = declarations("setup.cfg", SETUP_CFG.encode())
    # "BSD License" names a family, not one licence: shown, not compared.
    assert lines(found) == [
        (3, "[metadata] license", frozenset({"BSD-3-Clause"})),
        (6, "classifier", frozenset()),
    ]


def test_package_json_licence_string_object_and_array() -> None:
    assert lines(declarations("web/package.json", PACKAGE_JSON.encode())) == [
        (4, '"license"', frozenset({"ISC"}))
    ]
    as_object = json.dumps({"name": "w", "license": {"type": "MIT"}}, indent=2).encode()
    assert lines(declarations("package.json", as_object)) == [(3, '"license"', frozenset({"MIT"}))]
    as_array = json.dumps(
        {"name": "w", "licenses": [{"type": "MIT"}, {"type": "GPL-2.0-only"}]}, indent=2
    ).encode()
    assert {d.spdx for d in declarations("package.json", as_array)} == {
        frozenset({"MIT"}),
        frozenset({"GPL-2.0-only"}),
    }


def test_metadata_headers_only() -> None:
    found = metadata_declarations(
        "demo-1.0-py3-none-any.whl: demo-1.0.dist-info/METADATA", METADATA
    )
    assert lines(found) == [
        (4, "License", frozenset({"MIT"})),
        (5, "License-Expression", frozenset({"MIT", "Apache-2.0"})),
        (6, "Classifier", frozenset({"MIT"})),
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("MIT", {"MIT"}),
        ("mit", {"MIT"}),
        ("MIT License", {"MIT"}),
        ("License :: OSI Approved :: MIT License", {"MIT"}),
        ("Apache 2", {"Apache-2.0"}),
        ("Apache-2.0", {"Apache-2.0"}),
        ("Apache License, Version 2.0", {"Apache-2.0"}),
        ("License :: OSI Approved :: Apache Software License", {"Apache-2.0"}),
        ("MIT OR Apache-2.0", {"MIT", "Apache-2.0"}),
        ("(MIT AND BSD-3-Clause)", {"MIT", "BSD-3-Clause"}),
        ("GPLv3+", {"GPL-3.0-or-later"}),
        ("ISC", {"ISC"}),
        ("License :: OSI Approved :: BSD License", set()),
        ("Proprietary", set()),
        ("MIT OR Mystery", set()),
        (MIT_TEXT, set()),  # a whole licence text in a License field is not an identifier
    ],
)
def test_normalise_to_spdx(value: str, expected: set[str]) -> None:
    assert normalise(value) == expected


# --- comparing
# -------------------------------------------------------------------------------------


def test_a_disagreement_is_flagged_per_declaration_and_agreement_is_not() -> None:
    found = declarations("pyproject.toml", PYPROJECT.encode()) + declarations(
        "setup.py", SETUP_PY.encode()
    )
    differ = disagreements({"MIT"}, found)
    assert [(d.declarations[0].path, d.declarations[0].line, d.declared) for d in differ] == [
        ("pyproject.toml", 7, frozenset({"Apache-2.0"}))
    ]
    assert disagreements({"MIT"}, declarations("setup.py", SETUP_PY.encode())) == []


def test_a_files_classifiers_are_one_declaration() -> None:
    dual = (
        b'[project]\nname = "x"\nclassifiers = [\n  "License :: OSI Approved :: MIT License",\n'
        b'  "License :: OSI Approved :: Apache Software License",\n]\n'
    )
    assert disagreements({"MIT", "Apache-2.0"}, declarations("pyproject.toml", dual)) == []
    assert len(disagreements({"MIT"}, declarations("pyproject.toml", dual))) == 1


def test_without_an_identified_text_declarations_are_compared_with_each_other() -> None:
    found = declarations("setup.py", SETUP_PY.encode()) + declarations(
        "web/package.json", PACKAGE_JSON.encode()
    )
    differ = disagreements(set(), found)
    assert [(d.declarations[0].path, d.expected) for d in differ] == [
        ("web/package.json", frozenset({"MIT"}))
    ]
    assert disagreements(set(), declarations("setup.py", SETUP_PY.encode())) == []


def test_collect_reports_what_it_cannot_read() -> None:
    files = {
        "pyproject.toml": PYPROJECT.encode(),
        "web/package.json": b"{not json",
        "README.md": b"x",
        "node_modules/x/package.json": b"{}",
    }

    def read(path: str) -> bytes:
        if path == "setup.py":
            raise OSError("no source has it")
        return files[path]

    found, unread = collect([*files, "setup.py"], read)
    assert {d.path for d in found} == {"pyproject.toml"}
    assert [(n.path, n.why.split(":")[0]) for n in unread] == [
        ("setup.py", "no source has it"),
        ("web/package.json", "not valid JSON"),
    ]


# --- the pages, from repositories and distributions the tests make
# -------------------------------------

PAGES = {
    "index.md": "# Book\n\n```{toctree}\nchapter\nlicences\nledger\n```\n",
    "chapter.md": "# Chapter\n\nSee {src}`the total <pkg.mod.total>`.\n",
    "licences.md": "# Licences\n\n```{licence-notes}\n```\n",
    "ledger.md": "# Ledger\n\n```{source-ledger}\n```\n",
}


def make_upstream(path: Path) -> tuple[Upstream, str]:
    upstream = Upstream(path)
    upstream.write_files(
        {
            "LICENSE": MIT_TEXT,
            "pkg/__init__.py": "",
            "pkg/mod.py": "def total(items):\n    return sum(items)\n",
            "pkg/data.json": "{}\n",
            "pyproject.toml": PYPROJECT,  # line 7 declares Apache-2.0: a disagreement with the MIT text
            "setup.py": SETUP_PY,  # MIT: agrees
            "web/package.json": PACKAGE_JSON,  # ISC: disagrees
            "broken/package.json": "{not json",
            "web/src/app.tsx": "export {}\n",
            "web/src/api.ts": "export {}\n",
            "web/next.config.mjs": "export default {}\n",
            "web/index.html": "<!doctype html>\n",
            "logs/run 1.txt": "a log\n",
            "tools/build.py": "print()\n",
        }
    )
    return upstream, upstream.commit("demo")


def write_book(book: Book, repos: dict[str, dict[str, object]], *, design: bool) -> None:
    book.repos = repos
    extensions = (
        ["myst_parser", "sphinx_design", "source_anchors"]
        if design
        else ["myst_parser", "source_anchors"]
    )
    from helpers import write_conf

    write_conf(book.root, book.repos, book.cache, extensions=extensions, default_repo="up")
    for name, text in PAGES.items():
        (book.root / name).write_text(text, "utf-8")


def text_of(html: Path) -> str:
    body = html.read_text("utf-8").split('<div class="body"', 1)[-1]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("design", [True, False])
def test_licence_notes_show_declarations_disagreements_and_every_file(
    book: Book, tmp_path: Path, design: bool
) -> None:
    upstream, sha = make_upstream(tmp_path / "up")
    write_book(
        book, {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}}, design=design
    )
    result = book.build()
    assert result.returncode == 0, result.stderr
    html = (result.outdir / "licences.html").read_text("utf-8")
    text = text_of(result.outdir / "licences.html")
    # Each declaration with where it is, linked at the pin.
    assert f'/blob/{sha}/pyproject.toml#L7"' in html and f'/blob/{sha}/setup.py#L7"' in html
    assert "pyproject.toml:L7 — [project] license.text: Apache 2 → Apache-2.0" in text
    assert 'web/package.json:L4 — "license": ISC → ISC' in text.replace("&quot;", '"')
    # Every disagreement flagged, agreement not.
    flagged = re.findall(r'<p class="sa-licence-disagreement">(.*?)</p>', html, re.S)
    assert len(flagged) == 2
    assert any("pyproject.toml:L7" in f for f in flagged) and any(
        "web/package.json:L4" in f for f in flagged
    )
    assert not any("setup.py" in f or "pyproject.toml:L3" in f for f in flagged)
    # The unreadable one is said in one sentence, not skipped; why is in the build log.
    assert "1 packaging files could not be read by this build (broken/package.json)" in text
    assert (
        "not valid JSON" not in text
        and "broken/package.json of up not read: not valid JSON" in result.stdout
    )
    # Every file outside the packages' modules is in one category.
    listing = upstream.ls_tree(sha)
    outside = [p for p in listing if not (p.startswith("pkg/") and p.endswith(".py"))]
    assert f"{len(listing)} files in the commit, {len(outside)} of them outside" in text
    counts = [
        int(n) for n in re.findall(r"\((\d+)\)", text.split("await a final rights review", 1)[1])
    ]
    assert sum(counts) == len(outside)
    for path in (
        "web/src/app.tsx",
        "web/src/api.ts",
        "web/next.config.mjs",
        "web/index.html",
        "logs/run 1.txt",
        "tools/build.py",
        "pkg/data.json",
    ):
        assert f"/blob/{sha}/{path.replace(' ', '%20')}" in html or f"/blob/{sha}/{path}" in html, (
            path
        )
    assert "typescript (2)" in text and "html (1)" in text and "config (" in text
    review = text.split("await a final rights review", 1)[1]
    assert (
        review.index("root licence (1)")
        < review.index("Other licence or copyright files, by name (0)")
        < review.index("data (1)")
        < review.index("config (")
    )  # licences, assets, then ordinary files
    if design:
        assert html.count("<details") >= 5 and "sd-dropdown" in html
        assert re.search(r"<summary[^>]*>.*?typescript \(2\)", html, re.S)
    else:
        assert "<details" not in html
    ledger = text_of(result.outdir / "ledger.html")
    assert "Declared licences" in ledger and "2 disagree with the licence text" in ledger


def _wheel(path: Path, metadata: str, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
        archive.writestr("demo-1.0.dist-info/METADATA", metadata)
        archive.writestr("demo-1.0.dist-info/licenses/LICENSE", MIT_TEXT)
        archive.writestr(
            "demo-1.0.dist-info/WHEEL",
            "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        archive.writestr("demo-1.0.dist-info/RECORD", "")
    return path


def _sdist(path: Path, files: dict[str, str]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, text in {**files, "PKG-INFO": METADATA}.items():
            data = text.encode()
            info = tarfile.TarInfo(f"demo-1.0/{name}")
            info.size, info.mode, info.mtime = len(data), 0o644, 1_700_000_000
            tar.addfile(info, io.BytesIO(data))
    return path


def test_without_git_the_sdist_gives_the_declaring_files_and_the_rest_is_not_read(
    book: Book, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    upstream, sha = make_upstream(tmp_path / "up")
    package = {
        "pkg/__init__.py": "",
        "pkg/mod.py": "def total(items):\n    return sum(items)\n",
        "pkg/data.json": "{}\n",
    }
    links = tmp_path / "links"
    links.mkdir()
    _wheel(links / "demo-1.0-py3-none-any.whl", METADATA, package)
    _sdist(
        links / "demo-1.0.tar.gz",
        {
            **package,
            "LICENSE": MIT_TEXT,
            "pyproject.toml": PYPROJECT,
            "setup.py": SETUP_PY.replace("MIT", "Apache-2.0", 1),
        },
    )  # not the commit's
    for key in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    monkeypatch.setenv("PIP_CACHE_DIR", str(tmp_path / "pip-cache"))
    (book.root).mkdir(exist_ok=True)
    (book.root / "listing.txt").write_text(git("ls-tree", "-r", sha, cwd=upstream.path), "utf-8")
    write_book(
        book,
        {
            "up": {
                "url": upstream.url,
                "commit": sha,
                "packages": ["pkg"],
                "dist": "demo==1.0",
                "listing": "listing.txt",
                "sources": ["cache", "dist"],
            }
        },
        design=False,
    )
    (book.root / "chapter.md").write_text(
        "# Chapter\n\nSee {src}`the total <pkg.mod.total>` and "
        "{src}`the files </pyproject.toml::license-files>`.\n",
        "utf-8",
    )
    result = book.build()
    assert result.returncode == 0, result.stderr
    # The ledger says what verified each anchored file: the wheel the packages, the sdist the file
    # outside them.
    ledger = text_of(result.outdir / "ledger.html")
    assert (
        "each file checked against its git blob id (1 files checked); demo-1.0.tar.gz: pyproject.toml, "
        "each checked against its git blob id" in ledger
    ), ledger
    text = text_of(result.outdir / "licences.html")
    assert (
        "pyproject.toml:L7 — [project] license.text: Apache 2 → Apache-2.0" in text
    )  # from the sdist, vouched
    assert (
        "could not be read by this build (setup.py, broken/package.json, web/package.json)" in text
    )
    log = result.stdout
    assert (
        "setup.py of up not read: the dist tree does not hold it; the sdist's copy differs from the commit's blob"
        in log
    )
    assert (
        "web/package.json of up not read: the dist tree does not hold it; the sdist demo-1.0.tar.gz does not ship "
        "it; the pin's 'sources' leave out git (add 'git' to take it from the git source)" in log
    )
    # The wheel's METADATA, named by archive and member (no file of the commit, so no link).
    assert (
        "demo-1.0-py3-none-any.whl: demo-1.0.dist-info/METADATA:L5 — License-Expression: MIT OR Apache-2.0"
        in text
    )
    # The sdist is recorded in the cache with the files it vouched for: a later build needs no
    # download.
    (links / "demo-1.0.tar.gz").unlink()
    again = book.build(fresh=True)
    assert again.returncode == 0, again.stderr
    warm = text_of(again.outdir / "licences.html")
    assert "pyproject.toml:L7 — [project] license.text: Apache 2 → Apache-2.0" in warm


def test_an_sdist_is_fetched_from_a_simple_index_as_a_file_and_its_hash_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hashlib

    from source_anchors.model.errors import SourceError
    from source_anchors.sources.simpleindex import download_sdist

    archive = _sdist(
        tmp_path / "demo-1.0.tar.gz", {"setup.py": SETUP_PY}
    )  # it would exit if it were run
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    page = tmp_path / "simple" / "demo"
    page.mkdir(parents=True)
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    for key in ("PIP_NO_INDEX", "PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PIP_INDEX_URL", (tmp_path / "simple").as_uri())
    for fragment, fine in ((f"#sha256={digest}", True), ("#sha256=" + "0" * 64, False)):
        (page / "index.html").write_text(
            f'<a href="{archive.as_uri()}{fragment}">demo-1.0.tar.gz</a>', "utf-8"
        )
        dest = tmp_path / f"dest-{fine}"
        dest.mkdir()
        if fine:
            got = download_sdist("demo==1.0", dest, timeout=30)
            assert got.read_bytes() == archive.read_bytes()
        else:
            with pytest.raises(SourceError, match="sha256"):
                download_sdist("demo==1.0", dest, timeout=30)
    with pytest.raises(
        SourceError, match=r"no sdist \(\.tar\.gz or \.zip\) of demo==2\.0 .*versions: 1\.0"
    ):
        download_sdist("demo==2.0", tmp_path, timeout=30)
    with pytest.raises(SourceError, match="exact 'name==version'"):
        download_sdist("demo>=1", tmp_path, timeout=30)
