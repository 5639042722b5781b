"""``fix``'s rewriter: every syntax the role and directive allow, and nothing but the target changes."""

from __future__ import annotations

import pytest
from source_anchors.edit.pages import rewrite
from source_anchors.markup.labels import split_label
from source_anchors.markup.registry import markup_for

MARKDOWN = markup_for("page.md")
OLD, NEW = "pkg.mod.f::if a > b:", "pkg.mod.g::if a >= b:"

#: (page text, how many anchors with target OLD it holds) in MyST.
MYST = [
    ("{src}`" + OLD + "`", 1),
    ("{src}`label <" + OLD + ">`", 1),
    ("{src}`<" + OLD + ">`", 1),
    ("{src}`" + OLD + " <" + OLD + ">`", 1),  # the label is text: it stays
    ("{src}``a `tick` label <" + OLD + ">``", 1),
    ("{src}```three <" + OLD + ">```", 1),
    ("{src}`a label\nover two lines <" + OLD + ">`", 1),
    ("{src}`  spaced label   <  " + OLD + "  >`", 1),
    ("{src}`x \\<y <" + OLD + ">`", 1),  # an escaped '<' in the label
    ("```{source-anchor} " + OLD + "\n:caption: c\n```", 1),
    ("::::{source-anchor} " + OLD + "\n::::", 1),
    ("~~~{source-anchor} " + OLD + "   \n~~~", 1),
    ("``{src}`label <" + OLD + ">` ``", 0),  # an inline code span
    ("```md\n{src}`label <" + OLD + ">`\n```", 0),  # a code block
    ("{src}`label <up:" + OLD + ">`", 0),  # another written form: not this target
]

RST = [
    (":src:`label <" + OLD + ">`", 1),
    ("`label <" + OLD + ">`:src:", 1),
    (":src:`<" + OLD + ">`", 1),
    (":src:`a label\n   over lines <" + OLD + ">`", 1),
    (".. source-anchor:: " + OLD + "\n   :caption: c", 1),
    ("``:src:`label <" + OLD + ">```", 0),
    ("Example::\n\n   :src:`label <" + OLD + ">`\n\nAfter.", 0),
    (".. code-block:: rst\n\n   :src:`label <" + OLD + ">`\n\nAfter.", 0),
]


def _page(snippets: list[tuple[str, int]]) -> str:
    return (
        "# Page\n\n"
        + "\n\n".join(
            f"Before {n}. {text} After {n}."
            if "\n" not in text and not text.startswith(("```", "~~~", "::", ".."))
            else text
            for n, (text, _) in enumerate(snippets)
        )
        + "\n"
    )


@pytest.mark.parametrize(("syntax", "cases"), [("myst", MYST), ("rst", RST)])
def test_every_syntax_rewrites_only_the_target_and_round_trips(
    syntax: str, cases: list[tuple[str, int]]
) -> None:
    page = _page(cases)
    forward = rewrite(page, {OLD: NEW}, markup_for("page." + syntax))
    assert forward.changed == sum(count for _, count in cases)
    back = rewrite(forward.text, {NEW: OLD}, markup_for("page." + syntax))
    assert back.text == page  # byte for byte: labels, backticks, spacing and the text around stayed
    assert forward.text.replace(NEW, OLD) == page


@pytest.mark.parametrize(("text", "count"), MYST)
def test_each_myst_syntax_alone(text: str, count: int) -> None:
    done = rewrite(text, {OLD: NEW}, MARKDOWN)
    assert done.changed == count, text
    if count and text.startswith("{src}"):
        content = done.text[done.text.index("`") :].strip("`")
        assert split_label(content)[1] == NEW  # the role reads the new target


@pytest.mark.parametrize(
    "text", ["{src}`<pkg.mod.f::if a < b:>`", "{src}`pkg.mod.f::if a < b: <x>`"]
)
def test_a_target_is_read_as_the_role_reads_it(text: str) -> None:
    """Sphinx's rule: the label ends at the first '<' after the first character, so these name other targets."""
    content = text[len("{src}`") : -1]
    target = split_label(content)[1]
    assert target != "pkg.mod.f::if a < b:"
    assert rewrite(text, {"pkg.mod.f::if a < b:": NEW}, MARKDOWN).changed == 0
    assert rewrite(text, {target: NEW}, MARKDOWN).text == text.replace(target, NEW)


def test_a_target_written_with_escapes_is_reported_not_rewritten() -> None:
    text = "{src}`pkg.mod.f::if a \\< b:`"
    done = rewrite(text, {"pkg.mod.f::if a < b:": NEW}, MARKDOWN)
    assert (done.text, done.changed, done.skipped) == (text, 0, ["pkg.mod.f::if a < b:"])


def test_nothing_to_replace_is_the_same_text() -> None:
    assert rewrite("{src}`pkg.f`", {}, MARKDOWN).text == "{src}`pkg.f`"
    assert rewrite("{src}`pkg.f`", {"pkg.g": "pkg.h"}, MARKDOWN).changed == 0
