"""Every builder shows an anchor's label and its location; LaTeX lists the permalink in the chapter's table.

The page anchors a Python function and a Go method (``/server/handler.go#Handler.ServeHTTP``, a
definition by its path of names in a file of another language), each in every builder.

linkcheck checks each permalink's page, not its line fragment, and keeps the user's own rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import Book, SharedUpstream

PAGE = """\
# Builders

The entry point is {src}`the alpha function <pkg.mod.alpha>`.
The server's {src}`ServeHTTP method <web:/server/handler.go#Handler.ServeHTTP>` queues it.
"""
LABELS = ("the alpha function", "ServeHTTP method")


@pytest.fixture
def anchored(
    shared_upstream: SharedUpstream, book: Book
) -> tuple[Book, list[tuple[str, str, str]]]:
    """The book and, per anchor, its label, its location text (``path:Lx–Ly@sha``) and its permalink,
    from an HTML build."""
    commits = shared_upstream.commits
    book.repos = {
        "up": {
            "url": shared_upstream.url,
            "commit": commits["build-v1"],
            "packages": ["pkg"],
            "host": "github",
        },
        "web": {"url": shared_upstream.url, "commit": commits["languages"], "host": "github"},
    }
    book.settings = {"project": "Demo", "version": "1.0", "epub_copyright": "2026, Tester"}
    book.write_conf(default_repo="up")
    book.page("index", PAGE)
    html = book.build(out="html")
    records = json.loads((html.outdir / "source-anchors.json").read_text("utf-8"))
    assert [record["label"] for record in records] == list(LABELS)
    return book, [
        (
            record["label"],
            f"{record['path']}:L{record['start']}–L{record['end']}@{record['commit'][:7]}",
            record["permalink"],
        )
        for record in records
    ]


def only(outdir: Path, pattern: str) -> str:
    (found,) = outdir.glob(pattern)
    return found.read_text("utf-8")


@pytest.mark.parametrize(
    ("builder", "output"),
    [
        ("text", "index.txt"),
        ("man", "*.1"),
        ("texinfo", "*.texi"),
        ("singlehtml", "index.html"),
        ("epub", "index.xhtml"),
    ],
)
def test_the_label_and_the_location_show_in_every_builder(
    anchored: tuple[Book, list[tuple[str, str, str]]], builder: str, output: str
) -> None:
    book, anchors = anchored
    result = book.build(builder=builder, out=builder, strict=builder != "epub")
    text = only(result.outdir, output)
    for label, where, permalink in anchors:
        assert label in text
        # roff and texinfo escape some characters of the location; the path and lines stay readable.
        path, _, lines = where.partition(":")
        readable = text.replace("\\(en", "–").replace("\\-", "-")
        assert path in text and lines.split("@")[0] in readable, (builder, label)
        if builder == "text":
            assert f"{label} ({where})" in text
        if builder == "epub":
            assert (
                permalink.replace("&", "&amp;") in text
            )  # epub_show_urls = "inline", Sphinx's default
            # No hover in an e-book reader: the location is written after the label, in a shown span.
            assert f'<span class="sa-at"> ({where.replace("@", "&#64;")})</span>' in text
    if builder == "singlehtml":
        assert "sa-at" not in text  # the web pages show the location on hover and in print


def test_latex_gives_the_compact_location_and_the_permalink_in_the_source_table(
    anchored: tuple[Book, list[tuple[str, str, str]]],
) -> None:
    book, anchors = anchored
    tex = only(book.build(builder="latex", out="latex").outdir, "*.tex")
    assert "\\footnote" not in tex
    for label, where, permalink in anchors:
        path, lines = where.split("@")[0].split(":")
        dash = lines.replace("–L", "\\textendash{}")  # "L4–L6" printed as L4–6
        compact = rf"(\mbox{{{path.rsplit('/', 1)[-1]}}}\allowbreak{{}}\mbox{{:{dash}}})"
        assert label + "}" + " " + compact in tex
        assert (
            tex.count("\\sphinxhref{" + permalink.replace("#", "\\#") + "}") == 2
        )  # the label, the table entry


def test_latex_show_urls_is_not_doubled(
    anchored: tuple[Book, list[tuple[str, str, str]]],
) -> None:
    book, _ = anchored
    book.settings["latex_show_urls"] = "footnote"  # Sphinx's own footnotes, for http(s) links only
    book.repos["up"]["permalink"] = "https://example.org/blob/{commit}/{path}#L{start}-L{end}"
    book.write_conf(default_repo="up")
    tex = only(book.build(builder="latex", out="latex-urls", fresh=True).outdir, "*.tex")
    assert (
        "\\sphinxnolinkurl" in tex
        and tex.count("\\footnote") + tex.count("\\sphinxfootnotemark") <= 2
    )
    assert (
        tex.count("\\begin{footnote}") + tex.count("\\footnote{") == 1
    )  # Sphinx's own, once: no table


def test_linkcheck_skips_only_the_permalinks_line_fragments(
    anchored: tuple[Book, list[tuple[str, str, str]]],
) -> None:
    book, anchors = anchored
    book.settings["linkcheck_anchors_ignore_for_url"] = ["^https://example\\.org/"]
    book.write_conf(default_repo="up")
    assert book.make_app is not None
    app = book.make_app("linkcheck", srcdir=book.root, builddir=book.root / "_build" / "linkcheck")
    rules = list(app.config.linkcheck_anchors_ignore_for_url)
    assert rules[0] == "^https://example\\.org/"  # the user's rule is kept, first
    import re

    for _, _, permalink in anchors:
        assert any(re.match(rule, permalink) for rule in rules[1:])
    assert not any(
        re.match(rule, "https://github.com/other/repo/blob/main/x.py#L1") for rule in rules
    )
