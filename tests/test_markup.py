"""The markup package: the anchors a page writes, found without Sphinx, are the ones Sphinx finds.

Each page is read twice: by Sphinx (the CLI's quiet read, the parser the build uses) and by
:func:`source_anchors.markup.collect.anchors` from the page's text alone. The two must agree on
every anchor: its page, line, label and target.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from helpers import ROOT, Book, BuildResult, SharedUpstream
from source_anchors.cli.book import read_book
from source_anchors.markup.collect import anchors
from source_anchors.markup.page import PageSource
from source_anchors.markup.registry import markup_for
from source_anchors.markup.rst import ReST
from source_anchors.model.errors import TargetError
from source_anchors.model.target import parse_target

Row = tuple[str, int, str, str]

#: A MyST page with the forms the role and the directive take, and the places they are not read.
MYST_PAGE = """\
---
source-repo: up
---
# Forms

Two on one line: {src}`pkg.mod.alpha` and {src}`second <pkg.mod.Gamma.delta>`, then
{src}`pkg.mod.alpha` again, {src}``ticks `in` label <pkg.mod.beta>`` and a label
{src}`over two
lines <pkg.mod.alpha>` with ``{src}`code <pkg.mod.beta>` `` as code.

```python
{src}`in a fence <pkg.mod.beta>`
```

```{source-anchor} pkg.mod.beta
:caption: beta as a card
```

:::{source-anchor} pkg.mod.alpha
:::

~~~{source-anchor} pkg.mod.Gamma.delta
~~~

- a list item with {src}`alpha <up:pkg.mod.alpha>`

> a quote with {src}`an escaped \\<label <pkg.mod.beta>`
"""

#: The same in reStructuredText.
RST_PAGE = """\
:source-repo: up

Forms
=====

Two on one line: :src:`pkg.mod.alpha` and :src:`second <pkg.mod.Gamma.delta>`, then
`pkg.mod.alpha`:src: again and a label :src:`over two
lines <pkg.mod.alpha>` with ``:src:`code <pkg.mod.beta>``` as code.

Example::

   :src:`in a literal block <pkg.mod.beta>`

.. code-block:: rst

   :src:`in a code block <pkg.mod.beta>`

.. source-anchor:: pkg.mod.beta
   :caption: beta as a card

.. source-anchor:: pkg.mod.alpha

* a list item with :src:`alpha <up:pkg.mod.alpha>`
"""


def _name(text: str, page: PageSource, default: str) -> str:
    """The target as the outcome names it (``repo:key``), or the text when it does not parse."""
    repo = page.front_matter.get("source-repo")
    try:
        return str(
            parse_target(text, default_repo=repo.strip() if isinstance(repo, str) else default)
        )
    except TargetError:
        return text.strip()


def collected(srcdir: Path, pages: list[Path], default: str) -> list[Row]:
    """(page, line, label, target) of every anchor :func:`anchors` finds on *pages*."""
    rows = []
    for path in pages:
        text = path.read_text("utf-8")
        markup = markup_for(path)
        page = PageSource(text, markup)
        doc = path.relative_to(srcdir).with_suffix("").as_posix()
        rows += [
            (doc, found.line, found.label, _name(found.target, page, default))
            for found in anchors(text, markup)
        ]
    return sorted(rows)


@pytest.fixture
def forms_book(shared_upstream: SharedUpstream, book: Book) -> Book:
    """tests/roots/test-build and two pages of every form, pinned to the session upstream's build-v1."""
    book.repos = {
        "up": {
            "url": shared_upstream.url,
            "commit": shared_upstream.commits["build-v1"],
            "packages": ["pkg"],
        }
    }
    book.write_conf(default_repo="up")
    book.from_root("build")
    (book.root / "forms.md").write_text(MYST_PAGE, "utf-8")
    (book.root / "plain.rst").write_text(RST_PAGE, "utf-8")
    (book.root / "index.md").write_text(
        (book.root / "index.md").read_text("utf-8") + "\n```{toctree}\nforms\nplain\n```\n", "utf-8"
    )
    return book


def test_the_collector_finds_what_sphinx_finds_in_myst_and_rst(forms_book: Book) -> None:
    root = forms_book.root
    records, _ = read_book(root, root, pins={})
    read = sorted((r.page, r.line, r.label, r.outcome.name) for r in records)
    pages = [root / "index.md", root / "forms.md", root / "plain.rst"]
    found = collected(root, pages, "up")
    assert found == read
    assert {doc for doc, *_ in found} == {"index", "forms", "plain"}
    assert (
        len([row for row in found if row[0] == "forms"]) == 10
    )  # not the code span, not the fence
    assert (
        len([row for row in found if row[0] == "plain"]) == 7
    )  # not the literal, the literal block, the code


def test_the_collector_finds_what_the_books_build_reports(the_book: BuildResult) -> None:
    """This repository's book: every page's anchors as the strict build's report lists them."""
    srcdir = ROOT / "source"
    report = json.loads((the_book.outdir / "source-anchors.json").read_text("utf-8"))
    pages = sorted(path for path in srcdir.rglob("*") if path.suffix in (".md", ".rst"))
    found = collected(srcdir, pages, "gpt-researcher")
    assert found == sorted((row["doc"], row["line"], row["label"], row["target"]) for row in report)
    assert len(found) > 50


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("a.rst", "reStructuredText"),
        ("a.md", "MyST Markdown"),
        ("a.ipynb", "MyST Markdown"),
        ("a.txt", "MyST Markdown"),
    ],
)
def test_one_function_chooses_the_markup_by_suffix(name: str, kind: str) -> None:
    assert markup_for(name).name == kind
    assert (
        markup_for("a.txt", {".txt": "restructuredtext"}).name == "reStructuredText"
    )  # a book's source_suffix


def test_front_matter_is_each_markups_own() -> None:
    assert PageSource("---\nsource-repo: up\n---\n# T\n", markup_for("p.md")).front_matter == {
        "source-repo": "up"
    }
    rst = PageSource(".. a comment\n\n:source-repo: up\n:other: long\n  value\n\nTitle\n", ReST())
    assert rst.front_matter == {"source-repo": "up", "other": "long value"}
    assert PageSource("Title\n=====\n\n:source-repo: up\n", ReST()).front_matter == {}


def test_lines_count_as_readers_see_them() -> None:
    text = textwrap.dedent("""\
        a\r
        b\rc {src}`pkg.f`\u2028 {src}`pkg.g`
        """)
    assert [(found.line, found.target) for found in anchors(text, markup_for("p.md"))] == [
        (3, "pkg.f"),
        (3, "pkg.g"),
    ]
