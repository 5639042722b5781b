"""Licences from every manifest, the committed facts record, and the marks of third-party material.

The rules are tested on bytes written here; the record is made by ``source-anchors facts`` from a
git repository the test makes, and read by an offline build whose distribution lacks the files.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from helpers import Book, Upstream, git, run_cli
from source_anchors.licences.declared import PRIVATE_FIELD, declaring_files
from source_anchors.licences.manifests import declarations
from source_anchors.licences.thirdparty import evidence, path_evidence, spread
from test_declared import MIT_TEXT, PAGES, _sdist, _wheel, text_of

# --- manifests
# ---------------------------------------------------------------------------------------


def test_every_package_json_variant_is_a_manifest_and_a_lock_file_is_not() -> None:
    paths = [
        "web/package.json",
        "web/package.lib.json",
        "web/package.dev.json",
        "web/package-lock.json",
        "web/packages.json",
        "node_modules/x/package.lib.json",
        "rust/Cargo.toml",
        "php/composer.json",
    ]
    assert declaring_files(paths) == [
        "php/composer.json",
        "rust/Cargo.toml",
        "web/package.dev.json",
        "web/package.json",
        "web/package.lib.json",
    ]
    text = b'{\n  "name": "lib",\n  "private": false,\n  "license": "MIT"\n}\n'
    (found,) = declarations("web/package.lib.json", text)
    assert (found.line, found.field, found.value, found.spdx) == (
        4,
        '"license"',
        "MIT",
        frozenset({"MIT"}),
    )


def test_a_private_package_without_a_licence_is_said_and_never_compared() -> None:
    (found,) = declarations("docs/package.json", b'{\n  "name": "docs",\n  "private": true\n}\n')
    assert (found.line, found.field, found.value, found.recognised) == (
        3,
        PRIVATE_FIELD,
        "true",
        False,
    )
    # A private package that declares a licence is its licence; one neither private nor licensed:
    # nothing.
    both = declarations("a/package.json", b'{"private": true,\n"license": "ISC"}')
    assert [d.field for d in both] == ['"license"']
    assert declarations("b/package.json", b'{"name": "b"}') == []


def test_cargo_and_composer_licences_with_their_lines() -> None:
    cargo = (
        b'[package]\nname = "x"\nlicense = "MIT OR Apache-2.0"\nlicense-file = "LICENSE"\n\n'
        b'[dependencies]\nlicense = "not this"\n'
    )
    found = declarations("rust/Cargo.toml", cargo)
    assert [(d.line, d.field, d.spdx) for d in found] == [
        (3, "[package] license", frozenset({"MIT", "Apache-2.0"})),
        (4, "[package] license-file", frozenset()),
    ]
    composer = b'{\n  "name": "a/b",\n  "license": ["GPL-3.0-only", "MIT"]\n}\n'
    (one,) = declarations("php/composer.json", composer)
    assert (one.line, one.spdx) == (3, frozenset({"GPL-3.0-only", "MIT"}))
    with pytest.raises(ValueError, match="not valid TOML"):
        declarations("rust/Cargo.toml", b"[package\n")


# --- third-party evidence
# ------------------------------------------------------------------------------

BUNDLE = (
    'define(["exports"],function(t){"use strict";try{self["workbox:core:7.0.0"]&&_()}catch(t){}'
    + "x" * 1200
    + "});\n"
)


def test_a_bundle_is_named_by_its_markers_or_its_banner() -> None:
    (marked,) = evidence("web/public/workbox-1a2b.js", BUNDLE.encode())
    assert (marked.kind, marked.line) == ("bundle", 1)
    assert (
        marked.text()
        == 'Workbox 7.0.0, named by its module markers ("workbox:core:7.0.0"); minified'
    )
    (banner,) = evidence("static/lib.js", b"/*! jQuery v3.7.1 | (c) OpenJS Foundation */\nvar a;\n")
    assert banner.text() == "jQuery 3.7.1, named by its banner comment"
    assert evidence("web/src/app.js", b"export const a = 1;\n") == []


def test_an_adapted_from_notice_marks_the_folder_it_names_and_its_data() -> None:
    notice = (
        b"# Evals\n\nThe `simple_evals` directory is adapted from [X](https://example.org/x).\n"
    )
    found = {"evals/README.md": evidence("evals/README.md", notice)}
    (item,) = found["evals/README.md"]
    assert (item.kind, item.line) == ("adapted", 3)
    assert (
        item.text()
        == "an adapted-from notice naming simple_evals/ and pointing at https://example.org/x"
    )
    listing = [
        "evals/README.md",
        "evals/simple_evals/run.py",
        "evals/simple_evals/problems/set.csv",
        "evals/other/run.py",
    ]
    marked = spread(listing, found)
    assert [e.kind for e in marked["evals/simple_evals/run.py"]] == ["adapted"]
    assert [e.kind for e in marked["evals/simple_evals/problems/set.csv"]] == ["data"]
    assert (
        marked["evals/simple_evals/run.py"][0].text()
        == "under evals/simple_evals/, which evals/README.md:L3 says is adapted from elsewhere"
    )
    assert "evals/other/run.py" not in marked


def test_logos_by_brand_name_and_quoted_web_pages_by_their_source_lines() -> None:
    assert [e.text() for e in path_evidence("public/img/github-blue.svg")] == [
        "named after the GitHub brand"
    ]
    assert path_evidence("public/img/dinosaur.svg") == [] and path_evidence("src/github.py") == []
    results = json.dumps(
        {"context": "Source: https://a.example/1\nContent: …\n\nSource: https://b.example/2"}
    )
    (quoted,) = evidence("evals/results/out.json", results.encode())
    assert quoted.kind == "quoted" and quoted.text().startswith("2 'Source: <URL>' lines")
    assert evidence("evals/results/plain.json", b'{"a": 1}') == []


NEWS_SVG = """<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Uploaded to: SVG Repo, www.svgrepo.com, Generator: SVG Repo Mixer Tools -->
<svg xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:cc="http://creativecommons.org/ns#"
     xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" width="128" height="128">
  <metadata><rdf:RDF><cc:Work rdf:about="">
    <dc:creator>
      <cc:Agent>
        <dc:title>Ada Example</dc:title>
      </cc:Agent>
    </dc:creator>
    <dc:rights><cc:Agent><dc:title>Ada Example</dc:title></cc:Agent></dc:rights>
    <cc:license rdf:resource="http://creativecommons.org/licenses/by-sa/3.0/" />
  </cc:Work></rdf:RDF></metadata>
  <path d="m 1,1 z"/>
</svg>
"""
VECTOR_PY = 'from x import y\n\n\n# taken from https://essays.example/persistence.html\nessay = """...\n"""\n'
FOOTER_TSX = (
    "export default function Footer() {\n  return (\n    <div>\n"
    "      © {new Date().getFullYear()} Demo Org. All rights reserved.\n    </div>\n  );\n}\n"
)


def test_an_svg_states_its_licence_credits_and_source_each_on_its_line() -> None:
    found = [
        (e.kind, e.line, e.text()) for e in evidence("web/public/img/news.svg", NEWS_SVG.encode())
    ]
    assert found == [
        ("source", 2, 'from SVG Repo, by its marker "Uploaded to: SVG Repo"'),
        ("credit", 8, "its metadata names Ada Example as creator"),
        ("credit", 11, "its metadata names Ada Example as rights holder"),
        (
            "licence",
            12,
            "CC-BY-SA-3.0, a share-alike licence, named by its <cc:license> metadata "
            "(http://creativecommons.org/licenses/by-sa/3.0/)",
        ),
    ]
    by_id = '<svg><g id="SVGRepo_bgCarrier" stroke-width="0"></g></svg>'
    assert [e.text() for e in evidence("img/globe.svg", by_id.encode())] == [
        'from SVG Repo, by its marker "SVGRepo_bgCarrier"'
    ]
    icons = (
        '<svg class="lucide lucide-search"><circle/></svg>\n'
        '<svg class="iconify iconify--emojione-monotone"><path/></svg>\n'
    )
    assert [(e.line, e.text()) for e in evidence("img/two.svg", icons.encode())] == [
        (1, 'from Lucide, by its marker "lucide lucide-search"'),
        (2, 'from EmojiOne, by its marker "iconify--emojione-monotone"'),
    ]
    by_zero = '<cc:license rdf:resource="https://creativecommons.org/publicdomain/zero/1.0/"/>'
    assert [e.text() for e in evidence("a.svg", by_zero.encode())] == [
        "CC0-1.0, named by its <cc:license> metadata (https://creativecommons.org/publicdomain/zero/1.0/)"
    ]
    assert evidence("img/plain.svg", b'<svg><path d="M0 0"/></svg>') == []


def test_source_files_are_read_for_taken_from_notices_copyright_lines_and_spdx_ids() -> None:
    (taken,) = evidence("tests/vector-store.py", VECTOR_PY.encode())
    assert (taken.kind, taken.line, taken.text()) == (
        "adapted",
        4,
        "an adapted-from notice pointing at https://essays.example/persistence.html",
    )
    (line,) = evidence("web/components/Footer.tsx", FOOTER_TSX.encode())
    assert (line.kind, line.line, line.text()) == (
        "copyright",
        4,
        'the line reads "© {new Date().getFullYear()} Demo Org. All rights reserved."',
    )
    config = b"  footer: {\n    copyright: `Copyright \xc2\xa9 ${new Date().getFullYear()} Demo Org.`,\n  },\n"
    assert [e.text() for e in evidence("docs/site.config.mjs", config)] == [
        'the line reads "Copyright © ${new Date().getFullYear()} Demo Org."'
    ]
    page = b"<footer>\n  <p>Demo Org &copy; 2024</p>\n</footer>\n"
    assert [(e.line, e.text()) for e in evidence("web/index.html", page)] == [
        (2, 'the line reads "Demo Org © 2024"')
    ]
    spdx = b"// SPDX-License-Identifier: MIT OR Apache-2.0\nexport {};\n"
    assert [e.text() for e in evidence("web/a.ts", spdx)] == [
        "MIT OR Apache-2.0, named by an SPDX-License-Identifier line"
    ]
    # Words about copyright, a licence's own template line and a folder in backticks in code are no
    # notice.
    prose = b"# copyright law differs; see `vendor` below\nx = 1  # Copyright [yyyy] [name of copyright owner]\n"
    assert evidence("src/notes.py", prose) == []


# --- the record, made with git and read offline
# ----------------------------------------------------------

PACKAGE = {"pkg/__init__.py": "", "pkg/mod.py": "def total(items):\n    return sum(items)\n"}
OUTSIDE = {
    "LICENSE": MIT_TEXT,
    "web/package.json": '{\n  "name": "web",\n  "license": "ISC"\n}\n',
    "web/package.lib.json": '{\n  "name": "web-lib",\n  "private": false,\n  "license": "MIT"\n}\n',
    "docs/package.json": '{\n  "name": "docs",\n  "private": true\n}\n',
    "web/public/workbox-1a2b.js": BUNDLE,
    "web/public/img/github.svg": "<svg/>\n",
    "evals/README.md": "# Evals\n\nThe `simple_evals` directory is adapted from [X](https://example.org/x).\n",
    "evals/simple_evals/problems/set.csv": "problem,answer\nq,a\n",
    "evals/results/out.json": json.dumps({"c": "Source: https://a.example/1"}) + "\n",
    "web/public/img/news.svg": NEWS_SVG,
    "tests/vector-store.py": VECTOR_PY,
    "web/components/Footer.tsx": FOOTER_TSX,
}


@pytest.fixture
def offline(
    book: Book, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Book, Upstream, str]:
    """A book pinned to a distribution (wheel and an sdist holding the package only) and git unreachable."""
    upstream = Upstream(tmp_path / "up")
    upstream.write_files({**PACKAGE, **OUTSIDE})
    sha = upstream.commit("demo")
    links = tmp_path / "links"
    links.mkdir()
    _wheel(
        links / "demo-1.0-py3-none-any.whl",
        "Metadata-Version: 2.4\nName: demo\nVersion: 1.0\n",
        PACKAGE,
    )
    _sdist(links / "demo-1.0.tar.gz", PACKAGE)
    for key in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(links))
    monkeypatch.setenv("PIP_CACHE_DIR", str(tmp_path / "pip-cache"))
    book.root.mkdir(exist_ok=True)
    (book.root / "listing.txt").write_text(git("ls-tree", "-r", sha, cwd=upstream.path), "utf-8")
    for name, text in PAGES.items():
        (book.root / name).write_text(text, "utf-8")
    return book, upstream, sha


def _pin(book: Book, url: str, sha: str, sources: list[str]) -> None:
    book.repos = {
        "up": {
            "url": url,
            "commit": sha,
            "packages": ["pkg"],
            "dist": "demo==1.0",
            "listing": "listing.txt",
            "facts": "facts.json",
            "sources": sources,
            "host": "github",
        }
    }
    book.write_conf(default_repo="up")


def test_the_record_is_made_where_git_is_reachable_and_read_offline(
    offline: tuple[Book, Upstream, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book, upstream, sha = offline
    # Made where git is reachable, with its own cache: the offline build below keeps no copy of the
    # files.
    book.cache, offline_cache = tmp_path / "facts-cache", book.cache
    _pin(book, upstream.url, sha, ["cache", "dist", "git"])
    assert run_cli(book.cli("facts")) == 0
    assert "facts.json: " in capsys.readouterr().out
    record = json.loads((book.root / "facts.json").read_text("utf-8"))
    listing = upstream.ls_tree(sha)
    assert record["commit"] == sha
    assert record["files"]["web/package.lib.json"] == {
        "blob": listing["web/package.lib.json"],
        "declarations": [{"line": 4, "field": '"license"', "value": "MIT"}],
    }
    assert record["files"]["docs/package.json"]["declarations"] == [
        {"line": 3, "field": PRIVATE_FIELD, "value": "true"}
    ]
    assert record["files"]["web/public/workbox-1a2b.js"]["evidence"][0]["kind"] == "bundle"
    assert not any(
        "pkg/" in path or "MIT_TEXT" in json.dumps(entry) for path, entry in record["files"].items()
    )

    # Offline: git unreachable, the distribution without the files; the record speaks for them.
    book.cache = offline_cache
    _pin(book, "https://unreachable.invalid/up", sha, ["cache", "dist"])
    result = book.build()
    text = html.unescape(text_of(result.outdir / "licences.html"))
    assert (
        'web/package.json:L3 — "license": ISC → ISC (from the facts record, blob '
        f"{listing['web/package.json'][:12]})" in text
    )
    assert 'web/package.lib.json:L4 — "license": MIT → MIT' in text
    assert 'docs/package.json:L3 — "private": true → no licence declared' in text
    assert (
        len(re.findall(r'class="sa-licence-disagreement"', result.html("licences"))) == 1
    )  # ISC vs MIT text
    assert "could not be read" not in text and "unreachable.invalid" not in text
    # Known third-party material, each with its evidence.
    third = text.split("Known third-party material", 1)[1].split("await a final rights review", 1)[
        0
    ]
    for path, words in (
        ("web/public/workbox-1a2b.js", "vendored bundle: Workbox 7.0.0"),
        ("web/public/img/github.svg", "third-party logo: named after the GitHub brand"),
        ("evals/README.md", "adapted from elsewhere: an adapted-from notice"),
        ("evals/simple_evals/problems/set.csv", "data set: under evals/simple_evals/"),
        ("evals/results/out.json", "quotes web pages: 1 'Source: <URL>' lines"),
        (
            "web/public/img/news.svg",
            'source named in the file: from SVG Repo, by its marker "Uploaded to: SVG Repo" (L2)',
        ),
        (
            "tests/vector-store.py",
            "adapted from elsewhere: an adapted-from notice pointing at "
            "https://essays.example/persistence.html (L4)",
        ),
    ):
        assert re.sub(r"\s+", "", f"{path} — {words}") in re.sub(r"\s+", "", third), path
    assert "Footer.tsx" not in third  # the project's own copyright line is no third-party material
    # Every licence and copyright the files state of themselves, from the record, with line and
    # words.
    inside = text.split("Licences and copyright notices inside files (2)", 1)[1].split(
        "Known third-party", 1
    )[0]
    assert re.sub(r"\s+", " ", inside).count(" — ") == 2

    def flat(words: str) -> str:
        return re.sub(r"\s+", "", words)

    assert flat(
        "web/public/img/news.svg — credit: its metadata names Ada Example as creator (L8); credit: its "
        "metadata names Ada Example as rights holder (L11); licence named in the file: CC-BY-SA-3.0, a "
        "share-alike licence, named by its <cc:license> metadata "
        "(http://creativecommons.org/licenses/by-sa/3.0/) (L12)"
    ) in flat(inside)
    assert flat(
        'web/components/Footer.tsx — copyright line: the line reads "© {new Date().getFullYear()} Demo Org. '
        'All rights reserved." (L4)'
    ) in flat(inside)
    assert (
        "Licences named inside files, beside the root licence: web/public/img/news.svg:L12 CC-BY-SA-3.0."
        in inside
    )
    assert (
        "Other licence or copyright files, by name (0; 2 files state a licence or copyright inside, listed "
        "above): none" in text
    )
    news = record["files"]["web/public/img/news.svg"]["evidence"]
    assert {
        "kind": "licence",
        "line": 12,
        "what": "{licence}, a share-alike licence, named by its <cc:license> metadata ({url})",
        "args": {
            "licence": "CC-BY-SA-3.0",
            "url": "http://creativecommons.org/licenses/by-sa/3.0/",
        },
    } in news
    assert "m 1,1 z" not in json.dumps(record)  # facts, never the drawing
    # The root licence the build identified is the wheel's .dist-info/licenses/LICENSE, the commit's
    # blob.
    assert (
        f"The build reads it from demo-1.0-py3-none-any.whl of demo==1.0, as demo-1.0.dist-info/licenses/"
        f"LICENSE: blob {listing['LICENSE'][:12]}, the commit's LICENSE." in text
    )


def test_a_record_for_another_blob_is_not_used_and_the_page_says_so_in_one_sentence(
    offline: tuple[Book, Upstream, str],
) -> None:
    book, upstream, sha = offline
    listing = upstream.ls_tree(sha)
    (book.root / "facts.json").write_text(
        json.dumps(
            {
                "commit": sha,
                "url": "",
                "files": {
                    "web/package.json": {
                        "blob": "0" * 40,
                        "declarations": [{"line": 3, "field": '"license"', "value": "ISC"}],
                    },
                    "web/package.lib.json": {
                        "blob": listing["web/package.lib.json"],
                        "declarations": [{"line": 4, "field": '"license"', "value": "MIT"}],
                    },
                },
            }
        ),
        "utf-8",
    )
    _pin(book, "https://unreachable.invalid/up", sha, ["cache", "dist"])
    result = book.build(strict=False)
    assert any(
        "web/package.json: the facts record has blob 000000000000" in w and "unverified" in w
        for w in result.warnings()
    )
    text = text_of(result.outdir / "licences.html")
    assert (
        "2 packaging files could not be read by this build (docs/package.json, web/package.json); "
        "the book draws no conclusion about them." in text
    )
    assert "web/package.lib.json:L4" in text
    # The reasons are in the build log, not on the page.
    assert (
        "does not ship it" not in text
        and "web/package.json of up not read: the dist tree" in result.stdout
    )


def test_a_record_that_the_file_contradicts_is_warned_about(book: Book, tmp_path: Path) -> None:
    upstream = Upstream(tmp_path / "up")
    upstream.write_files({**PACKAGE, **OUTSIDE})
    sha = upstream.commit("demo")
    blob = upstream.ls_tree(sha)["web/package.json"]
    (book.root / "facts.json").parent.mkdir(parents=True, exist_ok=True)
    (book.root / "facts.json").write_text(
        json.dumps(
            {
                "commit": sha,
                "url": "",
                "files": {
                    "web/package.json": {
                        "blob": blob,
                        "declarations": [{"line": 3, "field": '"license"', "value": "MIT"}],
                    }
                },
            }
        ),
        "utf-8",
    )
    for name, text in PAGES.items():
        (book.root / name).write_text(text, "utf-8")
    book.repos = {
        "up": {"url": upstream.url, "commit": sha, "packages": ["pkg"], "facts": "facts.json"}
    }
    book.write_conf(default_repo="up")
    result = book.build(strict=False)
    assert any(
        "web/package.json: the facts record's declarations differ from the file's" in w
        for w in result.warnings()
    )
    # The file, read with git, is what the page shows.
    assert 'web/package.json:L3 — "license": ISC → ISC' in text_of(
        result.outdir / "licences.html"
    ).replace("&quot;", '"')


def test_a_record_that_cannot_be_read_is_one_located_warning_not_a_traceback(
    offline: tuple[Book, Upstream, str],
) -> None:
    book, _upstream, sha = offline
    (book.root / "facts.json").write_text(
        json.dumps(
            {
                "commit": sha,
                "files": {
                    "web/package.json": {
                        "blob": "0" * 40,
                        "evidence": [{"kind": "logo", "line": 0, "what": "made up", "args": {}}],
                    }
                },
            }
        ),
        "utf-8",
    )
    _pin(book, "https://unreachable.invalid/up", sha, ["cache", "dist"])
    result = book.build(strict=False)
    problems = [w for w in result.warnings() if "facts.json" in w]
    assert (
        len(problems) == 1
        and "not a facts record" in problems[0]
        and "'source-anchors facts'" in problems[0]
    )
    assert "Traceback" not in result.stderr
    assert "the build could not read the facts record" in text_of(result.outdir / "licences.html")
