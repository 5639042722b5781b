"""Tests for ``source_anchors.licences.identify`` (Sphinx-free, offline)."""

from __future__ import annotations

import pytest
from source_anchors.licences.identify import (
    LICENCE_SCORE_THRESHOLD,
    Survey,
    classify_asset,
    identify_licence,
    is_licence_file,
    survey,
)

# Standard licence texts with an invented copyright holder, written out here
# so the tests exercise real askalono matching without any upstream file.
MIT_TEXT = """\
MIT License

Copyright (c) 2031 Example Widgets Ltd

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
"""

BSD_3_TEXT = """\
BSD 3-Clause License

Copyright (c) 2031, Example Widgets Ltd
All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this
   list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.

3. Neither the name of the copyright holder nor the names of its
   contributors may be used to endorse or promote products derived from
   this software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""

PROSE = """\
The harbour was quiet that morning. Gulls circled above the fishing boats
while the baker on the corner set out loaves still warm from the oven, and a
child chased a dog along the sea wall until both of them were out of breath.
"""


# --- identify_licence --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "spdx_id"),
    [(MIT_TEXT, "MIT"), (BSD_3_TEXT, "BSD-3-Clause")],
    ids=["mit", "bsd-3-clause"],
)
def test_identify_licence_recognises_standard_texts(text: str, spdx_id: str) -> None:
    match = identify_licence(text)
    assert match is not None
    assert match.spdx_id == spdx_id
    assert LICENCE_SCORE_THRESHOLD <= match.score <= 1.0


def test_identify_licence_survives_unwrapped_paragraphs() -> None:
    # Many LICENSE.md files keep each paragraph on one long line.
    paragraphs = MIT_TEXT.split("\n\n")
    unwrapped = "\n\n".join(" ".join(p.split()) for p in paragraphs)
    match = identify_licence(unwrapped)
    assert match is not None
    assert match.spdx_id == "MIT"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t\n",
        PROSE,
        # A fragment of a licence is not a licence.
        MIT_TEXT[:300],
        "This project is licensed under the MIT licence.",
    ],
    ids=["empty", "blank", "prose", "truncated-mit", "one-line-mention"],
)
def test_identify_licence_rejects_non_licences(text: str) -> None:
    assert identify_licence(text) is None


# --- is_licence_file ---------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("LICENSE", True),
        ("LICENCE", True),
        ("license", True),
        ("License.md", True),
        ("LICENSE.txt", True),
        ("LICENSE.rst", True),
        ("LICENSE-MIT", True),
        ("LICENSE_APACHE", True),
        ("LICENSE.APACHE2", True),
        ("LICENSES.txt", True),
        ("MIT-LICENSE", True),
        ("COPYING", True),
        ("COPYING.LESSER", True),
        ("copying.txt", True),
        ("NOTICE", True),
        ("NOTICE.md", True),
        ("THIRD_PARTY_NOTICES.txt", True),
        ("COPYRIGHT", True),
        ("UNLICENSE", True),
        ("PATENTS", True),
        ("vendor/jquery/LICENSE.txt", True),
        ("pkg-1.0.dist-info/licenses/LICENSE", True),
        ("LICENSES/Apache-2.0.txt", True),
        ("licences/fonts/OFL.txt", True),
        ("docs/THIRD_PARTY_LICENSES.json", True),
        # Code about licences, not licence texts.
        ("src/pkg/license.py", False),
        ("ext/source_anchors/licences.py", False),
        ("licenses/__init__.py", False),
        ("web/copyright.js", False),
        # The keyword must end at a separator.
        ("noticeable.md", False),
        ("licensing_model.md", False),
        ("README.md", False),
        ("CONTRIBUTING.md", False),
        ("pyproject.toml", False),
    ],
)
def test_is_licence_file(path: str, expected: bool) -> None:
    assert is_licence_file(path) is expected


# --- classify_asset ----------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        # Vendored trees win over any suffix.
        ("static/vendor/jquery.js", "vendored"),
        ("node_modules/left-pad/index.js", "vendored"),
        ("src/third_party/lib/mod.py", "vendored"),
        ("pip/_vendor/six.py", "vendored"),
        ("web/bower_components/x/package.json", "vendored"),
        # Minified bundles beat plain JavaScript.
        ("web/app.min.js", "minified"),
        ("web/theme.min.css", "minified"),
        ("web/app.js.map", "minified"),
        ("frontend/scripts.js", "javascript"),
        ("docs/conf.mjs", "javascript"),
        ("frontend/styles.css", "stylesheet"),
        ("theme/main.scss", "stylesheet"),
        ("fonts/Inter.woff2", "font"),
        ("fonts/Mono.TTF", "font"),
        ("docs/img/logo.png", "image"),
        ("docs/img/photo.JPG", "image"),
        ("icons/x.svg", "image"),
        ("favicon.ico", "image"),
        ("media/intro.mp3", "audio"),
        ("demo.mp4", "video"),
        ("data/train.csv", "data"),
        ("evals/records.jsonl", "data"),
        ("data/table.parquet", "data"),
        ("data/sheet.xlsx", "data"),
        ("results.json", "data"),
        ("tests/docs/doc.pdf", "document"),
        ("examples/tour.ipynb", "notebook"),
        ("dist/pkg.whl", "archive"),
        ("model/weights.safetensors", "model weights"),
        # Files in a static directory with no better category.
        ("docs/static/CNAME", "static"),
        ("site/public/robots.txt", "static"),
        ("docs/_static/notes.md", "static"),
        # Tooling config with an asset suffix is not an asset.
        ("frontend/package.json", None),
        ("frontend/package-lock.json", None),
        ("frontend/tsconfig.json", None),
        ("frontend/.eslintrc.json", None),
        ("frontend/next.config.mjs", None),
        ("docs/babel.config.js", None),
        # Ordinary code, docs and config.
        ("pkg/module.py", None),
        ("README.md", None),
        ("pyproject.toml", None),
        ("setup.cfg", None),
        (".github/workflows/ci.yml", None),
        ("frontend/app/page.tsx", None),
        ("frontend/lib/api.ts", None),
        ("Dockerfile", None),
        ("requirements.txt", None),
        ("docs/index.rst", None),
    ],
)
def test_classify_asset(path: str, expected: str | None) -> None:
    assert classify_asset(path) == expected


# --- survey ------------------------------------------------------------------

TREE = [
    ("README.md", "b01"),
    ("LICENSE", "b02"),
    ("pkg/__init__.py", "b03"),
    ("pkg/license.py", "b04"),
    ("web/vendor/lib/LICENSE.txt", "b05"),
    ("web/vendor/lib/lib.js", "b06"),
    ("web/app.min.js", "b07"),
    ("docs/logo.png", "b08"),
    ("docs/diagram.svg", "b09"),
    ("data/sample.csv", "b10"),
    ("COPYING.LESSER", "b11"),
]


def test_survey_splits_root_and_other_licences() -> None:
    result = survey(TREE, root_licence="LICENSE")
    assert result.root_licence_path == "LICENSE"
    assert result.other_licence_files == (
        "COPYING.LESSER",
        "web/vendor/lib/LICENSE.txt",
    )
    assert result.licence_blobs == (
        ("COPYING.LESSER", "b11"),
        ("LICENSE", "b02"),
        ("web/vendor/lib/LICENSE.txt", "b05"),
    )


def test_survey_lists_assets_sorted_without_licence_files() -> None:
    result = survey(reversed(TREE), root_licence="LICENSE")
    assert result.assets == (
        ("data/sample.csv", "data"),
        ("docs/diagram.svg", "image"),
        ("docs/logo.png", "image"),
        ("web/app.min.js", "minified"),
        ("web/vendor/lib/lib.js", "vendored"),
    )


def test_survey_groups_assets_by_category() -> None:
    result = survey(TREE, root_licence="LICENSE")
    grouped = result.assets_by_category()
    assert list(grouped) == ["data", "image", "minified", "vendored"]
    assert grouped["image"] == ["docs/diagram.svg", "docs/logo.png"]


def test_survey_without_root_licence_reports_every_licence_file() -> None:
    result = survey(TREE, root_licence=None)
    assert result.root_licence_path is None
    assert "LICENSE" in result.other_licence_files


def test_survey_honours_an_unusually_named_root_licence() -> None:
    tree = [("LEGAL.rst", "b1"), ("pkg/mod.py", "b2")]
    result = survey(tree, root_licence="LEGAL.rst")
    assert result.root_licence_path == "LEGAL.rst"
    assert result.other_licence_files == ()
    assert result.licence_blobs == (("LEGAL.rst", "b1"),)
    assert result.assets == ()


def test_survey_of_empty_tree() -> None:
    assert survey([], root_licence=None) == Survey(
        root_licence_path=None, other_licence_files=(), assets=()
    )


# --- the review covers every file ----------------------------------------------------------------

FULL_TREE = [
    ("LICENSE", "a01"),
    ("README.md", "a02"),
    ("pkg/__init__.py", "a03"),
    ("pkg/mod.py", "a04"),
    ("pkg/prompts.json", "a05"),
    ("pkg/py.typed", "a06"),
    ("frontend/index.html", "a07"),
    ("frontend/nextjs/app/page.tsx", "a08"),
    ("frontend/nextjs/lib/api.ts", "a09"),
    ("frontend/nextjs/next.config.mjs", "a10"),
    ("frontend/nextjs/postcss.config.mjs", "a11"),
    ("docs/docusaurus.config.mjs", "a12"),
    ("frontend/nextjs/rollup.config.js", "a13"),
    ("docs/babel.config.js", "a14"),
    ("evals/logs/SimpleQA Eval 100 Problems.txt", "a15"),
    ("Dockerfile", "a16"),
    ("requirements.txt", "a17"),
    ("docs/CNAME", "a18"),
    ("backend/server.py", "a19"),
    ("web/vendor/LICENSE.txt", "a20"),
    ("docs/logo.png", "a21"),
    (".gitignore", "a22"),
    ("main.tf", "a23"),
    ("scripts/run.sh", "a24"),
    ("mystery.xyz", "a25"),
]


def test_review_categories_cover_every_file_but_the_packages_modules() -> None:
    result = survey(FULL_TREE, root_licence="LICENSE", packages=["pkg"])
    grouped = result.review_by_category()
    outside = [p for p, _ in FULL_TREE if p not in ("pkg/__init__.py", "pkg/mod.py")]
    assert sum(len(paths) for paths in grouped.values()) == len(outside)
    assert sorted(p for paths in grouped.values() for p in paths) == sorted(outside)
    assert list(grouped)[:2] == [
        "root licence",
        "licence or copyright file",
    ]  # licences, then assets, then the rest
    assert grouped["typescript"] == ["frontend/nextjs/app/page.tsx", "frontend/nextjs/lib/api.ts"]
    assert grouped["html"] == ["frontend/index.html"]
    assert (
        "frontend/nextjs/next.config.mjs" in grouped["config"]
        and "docs/babel.config.js" in grouped["config"]
    )
    assert grouped["text"] == ["evals/logs/SimpleQA Eval 100 Problems.txt"]
    assert grouped["python (outside the packages)"] == ["backend/server.py"]
    assert grouped["data"] == ["pkg/prompts.json"] and grouped["other"] == [
        "docs/CNAME",
        "mystery.xyz",
        "pkg/py.typed",
    ]
    assert (
        result.assets == survey(FULL_TREE, root_licence="LICENSE").assets
    )  # the asset list is unchanged


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("frontend/app/page.tsx", "typescript"),
        ("lib/api.ts", "typescript"),
        ("next.config.mjs", "config"),
        ("index.html", "html"),
        ("babel.config.js", "config"),
        ("log.txt", "text"),
        ("requirements-dev.txt", "config"),
        ("Dockerfile", "config"),
        ("docs/index.md", "documentation"),
        ("app.min.js", "minified"),
        ("x.py", "python (outside the packages)"),
    ],
)
def test_categorise_never_drops_a_file(path: str, expected: str) -> None:
    from source_anchors.licences.identify import categorise

    assert categorise(path) == expected
