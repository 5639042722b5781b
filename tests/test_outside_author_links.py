"""What an outside author hit (issue 28, second half): the links and the messages of a build.

Each test failed before its fix. Books are built in-process (``make_app``); upstream repositories
are made here with git (:mod:`outside_author`). What ``check`` and the other builders print:
``test_outside_author_output.py``.
"""

from __future__ import annotations

import pytest
from helpers import Book, Upstream, write_conf
from outside_author import configure, make_up
from source_anchors.model.hosts import template_for


@pytest.fixture
def up(upstream: Upstream) -> tuple[Upstream, str]:
    return make_up(upstream)


def _book(book: Book, up: tuple[Upstream, str], **values: object) -> Book:
    return configure(book, up, **values)


# 3 -- line links into files the host renders
# ----------------------------------------------------------


def test_line_links_into_rendered_files_ask_for_the_source_view(
    book: Book, up: tuple[Upstream, str]
) -> None:
    upstream, sha = up
    _book(book, up)
    book.page(
        "index",
        "# Book\n\n{src}`/docs/index.md::The line we link` {src}`/data/table.csv::3,4` "
        "{src}`/setup.cfg::name =` {src}`/docs/index.md`\n",
    )
    html = book.build().html()
    base = f"{upstream.url}/blob/{sha}"
    assert f'href="{base}/docs/index.md?plain=1#L5"' in html
    assert f'href="{base}/data/table.csv?plain=1#L3"' in html
    assert f'href="{base}/setup.cfg#L2"' in html  # not rendered: the plain link
    assert f'href="{base}/docs/index.md"' in html  # the whole file: rendered is what a reader wants


@pytest.mark.parametrize(
    ("url", "host", "permalink", "expected"),
    [
        (
            "https://github.com/o/r",
            None,
            None,
            "https://github.com/o/r/blob/c/docs/a.md?plain=1#L3-L4",
        ),
        (
            "https://gitlab.com/o/r",
            None,
            None,
            "https://gitlab.com/o/r/-/blob/c/docs/a.md?plain=1#L3-4",
        ),
        # A user's template has no known source-view form: it is used as written (docs/sources.md
        # says so).
        (
            "https://codeberg.org/o/r",
            None,
            "{url}/src/commit/{commit}/{path}#L{start}-L{end}",
            "https://codeberg.org/o/r/src/commit/c/docs/a.md#L3-L4",
        ),
    ],
)
def test_each_host_links_rendered_files_to_their_source_view(
    url: str, host: str | None, permalink: str | None, expected: str
) -> None:
    template = template_for(url=url, host=host, permalink=permalink, where="t")
    assert template.render(url=url, commit="c", path="docs/a.md", start=3, end=4) == expected
    assert "plain" not in template.render(url=url, commit="c", path="docs/a.py", start=3, end=4)
    assert "plain" not in template.render(
        url=url, commit="c", path="docs/a.md", start=None, end=None
    )


# 4 -- every name offered as closest resolves
# ------------------------------------------------------------


def test_closest_offers_only_names_that_resolve(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n{src}`httpx.BaseClient`\n")
    warnings = book.build(strict=False).warnings()
    assert len(warnings) == 1, warnings
    # BaseClient is bound in httpx._client, which httpx star-imports, but its __all__ leaves it out.
    offered = warnings[0].split("closest: ")[1].split(" [")[0].split("; ")[0].split(", ")
    assert offered == ["httpx.Client"], warnings
    book.page("index", "# Book\n\n" + " ".join(f"{{src}}`{name}`" for name in offered) + "\n")
    book.build()


# 7 -- role typos that the parser shows as text
# ------------------------------------------------------------


def test_a_space_after_the_role_name_is_a_located_warning_with_the_fix(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    book.page("index", "# Book\n\n```{toctree}\nguide\n```\n\nA {src} `httpx.Client` here.\n")
    (book.root / "guide.rst").write_text(
        "Guide\n=====\n\nText.\n\nA :src: `httpx.Client` there.\n", "utf-8"
    )
    warnings = sorted(book.build(strict=False).warnings())
    assert warnings == [
        "guide.rst:6: WARNING: ':src: `httpx.Client`' has a space after the role name, so this reStructuredText "
        "page shows it as text: write :src:`httpx.Client` (no space between the role and the backtick) "
        "[source-anchors.target]",
        "index.md:7: WARNING: '{src} `httpx.Client`' has a space after the role name, so this Markdown (MyST) "
        "page shows it as text: write {src}`httpx.Client` (no space between the role and the backtick) "
        "[source-anchors.target]",
    ], warnings
    book.page("index", "# Book\n\n```{toctree}\nguide\n```\n\nA {src}`httpx.Client` here.\n")
    (book.root / "guide.rst").write_text(
        "Guide\n=====\n\nText.\n\nA :src:`httpx.Client` there.\n", "utf-8"
    )
    book.build()


def test_a_colon_fence_without_colon_fence_names_the_setting(
    book: Book, up: tuple[Upstream, str]
) -> None:
    upstream, sha = up
    book.repos = {"httpx": {"url": upstream.url, "commit": sha, "packages": ["httpx"]}}
    write_conf(book.root, book.repos, book.cache, myst_extensions=(), default_repo="httpx")
    book.page(
        "index", "# Book\n\nText.\n\n:::{source-anchor} httpx.Client\n:caption: The client\n:::\n"
    )
    warnings = book.build(strict=False).warnings()
    assert warnings == [
        "index.md:5: WARNING: ':::{source-anchor}' is a colon fence, which MyST reads as text unless its "
        "'colon_fence' extension is enabled: add \"colon_fence\" to myst_enable_extensions in conf.py, or fence "
        "the block with ``` instead of ::: [source-anchors.target]"
    ], warnings
    book.write_conf(default_repo="httpx")  # colon_fence enabled
    book.build()


# 8 -- an unknown source-repo in the front matter
# ------------------------------------------------------------


@pytest.mark.parametrize("syntax", ["myst", "rst"])
def test_an_unknown_source_repo_is_one_warning_at_the_front_matter(
    book: Book, up: tuple[Upstream, str], syntax: str
) -> None:
    _book(book, up)
    anchors = " ".join(
        ["{src}`httpx.Client`", "{src}`httpx.Client.send`", "{src}`/setup.cfg::name`"]
    )
    if syntax == "myst":
        book.page(
            "index", f"---\ntitle: x\nsource-repo: htpx\n---\n# Book\n\n{anchors}\n\n{anchors}\n"
        )
        where = "index.md:3"
    else:
        (book.root / "index.rst").write_text(
            ":orphan:\n:source-repo: htpx\n\nBook\n====\n\n"
            + anchors.replace("{src}", ":src:")
            + "\n",
            "utf-8",
        )
        where = "index.rst:2"
    warnings = book.build(strict=False).warnings()
    assert warnings == [
        f"{where}: WARNING: the page's front matter sets 'source-repo: htpx', which is not a key of "
        "source_anchors_repos (configured: httpx); its anchors without a 'repo:' prefix link nothing until it "
        "names one of them [source-anchors.target]"
    ], warnings


# 13 -- feedback-line without a feedback page
# -------------------------------------------------------------


def test_feedback_line_links_a_feedback_page_only_where_there_is_one(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up, feedback_email="book@example.org")
    book.page("index", "# Book\n\n```{toctree}\nchapter\n```\n")
    book.page("chapter", "# Chapter\n\nText.\n\n```{feedback-line}\n:chapter: One\n```\n")
    html = book.build().html("chapter")  # -W: no page named 'feedback', and no warning
    assert (
        "mailto:" in html
        and "how to give feedback" not in html
        and "(page and pin filled in)." in html
    )
    book.page("feedback", "# Feedback\n\nWrite to us.\n")
    book.page("index", "# Book\n\n```{toctree}\nchapter\nfeedback\n```\n")
    html = book.build().html("chapter")  # incremental: the chapter is read again for the new page
    assert 'href="feedback.html"' in html and "how to give feedback" in html
    (book.root / "feedback.md").unlink()
    book.page("index", "# Book\n\n```{toctree}\nchapter\n```\n")
    html = book.build().html("chapter")  # and again when it is gone
    assert "how to give feedback" not in html
    book.page("chapter", "# Chapter\n\nText.\n\n```{feedback-line}\n:page: about/contact\n```\n")
    warnings = book.build(strict=False, fresh=True).warnings()
    assert len(warnings) == 1 and "about/contact" in warnings[0], (
        warnings
    )  # a page named and missing


# 14 -- target-syntax errors name the fix
# ---------------------------------------------------------------------


def test_target_syntax_errors_name_the_fix(book: Book, up: tuple[Upstream, str]) -> None:
    _book(book, up)
    book.page(
        "index",
        "# Book\n\n{src}`httpx/_client.py`\n\n{src}`httpx.Client.send()`\n\n{src}`~httpx.Client`\n\n"
        "{src}`Client.send`\n\n{src}`httpx:httpx/_client.py::def send`\n",
    )
    warnings = book.build(strict=False).warnings()
    assert [w.split(" [source-anchors.")[0] for w in warnings] == [
        "index.md:3: WARNING: invalid dotted path 'httpx/_client.py': 'httpx/_client' is not a Python identifier; "
        "a file path starts with '/': write '/httpx/_client.py'",
        "index.md:5: WARNING: invalid dotted path 'httpx.Client.send()': 'send()' is not a Python identifier; "
        "a target names the function, not a call: drop the '(...)' and write 'httpx.Client.send'",
        "index.md:7: WARNING: invalid dotted path '~httpx.Client': '~httpx' is not a Python identifier; '~' is "
        "Sphinx's cross-reference shorthand, not target syntax: write 'httpx.Client' (a label such as "
        "'Client <...>' sets the text shown)",
        "index.md:9: WARNING: missing: httpx:Client.send: Client.send: 'Client' is not a package of httpx "
        "(packages: httpx); did you mean httpx.Client.send?",
        "index.md:11: WARNING: invalid dotted path 'httpx/_client.py': 'httpx/_client' is not a Python identifier; "
        "a file path starts with '/': write 'httpx:/httpx/_client.py::def send'",
    ], warnings
    # Each fix, written as offered, builds green.
    book.page(
        "index",
        "# Book\n\n{src}`/httpx/_client.py`\n\n{src}`httpx.Client.send`\n\n{src}`httpx.Client`\n\n"
        "{src}`httpx:/httpx/_client.py::def send`\n",
    )
    book.build()


def test_did_you_mean_offers_nothing_that_does_not_resolve(
    book: Book, up: tuple[Upstream, str]
) -> None:
    _book(book, up)
    book.page(
        "index", "# Book\n\n{src}`BaseClient`\n"
    )  # httpx.BaseClient does not resolve (see __all__)
    [warning] = book.build(strict=False).warnings()
    assert "did you mean" not in warning and "'BaseClient' is not a package of httpx" in warning


def test_a_file_path_fix_is_checked_against_the_pinned_tree(book: Book, upstream: Upstream) -> None:
    upstream.write("src/tomli/__init__.py", "from ._parser import loads\n")
    upstream.write("src/tomli/_parser.py", "def loads(s):\n    return {}\n")
    sha = upstream.commit("src layout")
    book.repos = {"tomli": {"url": upstream.url, "commit": sha, "packages": ["src/tomli"]}}
    book.write_conf(default_repo="tomli")
    book.page("index", "# Book\n\n{src}`tomli/_parser.py`\n\n{src}`tomli/_nothing.py`\n")
    warnings = [w.split(" [source-anchors.")[0] for w in book.build(strict=False).warnings()]
    assert warnings == [
        "index.md:3: WARNING: invalid dotted path 'tomli/_parser.py': 'tomli/_parser' is not a Python identifier; "
        "a file path starts with '/': write '/src/tomli/_parser.py'",
        "index.md:5: WARNING: invalid dotted path 'tomli/_nothing.py': 'tomli/_nothing' is not a Python identifier; "
        "a file path starts with '/': write '/tomli/_nothing.py' (a path from the repository root; "
        "tomli/_nothing.py is not a file at the pinned commit)",
    ], warnings
    book.page("index", "# Book\n\n{src}`/src/tomli/_parser.py`\n")
    book.build()


def test_closest_stops_at_names_that_do_not_resolve_either(book: Book, upstream: Upstream) -> None:
    # Two similar names that the star import leaves out: trying one must not try the other forever.
    upstream.write("pkg/__init__.py", "from ._impl import *\n")
    upstream.write(
        "pkg/_impl.py",
        '__all__ = ["Reader"]\n\n\nclass Reader:\n    pass\n\n\n'
        "class BaseClient:\n    pass\n\n\nclass BaseClients:\n    pass\n",
    )
    sha = upstream.commit("hidden names")
    book.repos = {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    book.page("index", "# Book\n\n{src}`pkg.BaseClientz`\n")
    [warning] = book.build(strict=False).warnings()
    assert "pkg has no member 'BaseClientz'" in warning and "BaseClient," not in warning, warning
