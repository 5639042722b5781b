"""The chapter reads as prose: few anchors to a paragraph, short labels, one label per target.

The chapter's MyST source is parsed with MyST-Parser's own markdown-it set-up (the book's
extensions), and the body of every colon fence (the inference boxes, the notes) is parsed the same
way, so a paragraph inside a box is a paragraph too. What a ``{src}`` role writes is its label and
its target, split as Sphinx splits a reference role: the label ends at the last ``<``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from helpers import ROOT
from markdown_it import MarkdownIt
from markdown_it.token import Token
from myst_parser.config.main import MdParserConfig
from myst_parser.mdit_to_docutils.base import DocutilsRenderer
from myst_parser.parsers.mdit import create_md_parser

CHAPTER = ROOT / "source" / "gpt-researcher" / "hybrid.md"
MAX_ANCHORS = 4
MAX_LABEL = 20
#: A label that is only a code name (``ResearchConductor.conduct_research()``) may be longer.
IDENTIFIER = re.compile(r"[A-Za-z_][\w.]*(\(\))?")


@dataclass(frozen=True)
class Anchor:
    label: str
    target: str
    line: int


def _parser() -> MarkdownIt:
    config = MdParserConfig(enable_extensions={"colon_fence", "deflist", "fieldlist"})
    return create_md_parser(config, DocutilsRenderer)


def _fence_body(content: str) -> str:
    """A colon fence's body with its ``:key: value`` option lines blanked (so lines keep their numbers)."""
    lines = content.splitlines()
    for index, line in enumerate(lines):
        if not re.match(r":\w[\w-]*:", line):
            break
        lines[index] = ""
    return "\n".join(lines)


def paragraphs(
    text: str, offset: int = 0, *, prose: bool = True
) -> Iterator[tuple[int, list[Anchor], bool]]:
    """Each paragraph of ``text``, boxes included: its first line (1-based), its anchors, and whether
    it is prose (a row of anchors under a step, ``:::{container} src-anchor-row``, is a list)."""
    tokens: list[Token] = _parser().parse(text)
    for index, token in enumerate(tokens):
        if token.type == "colon_fence":
            start = offset + (token.map or [0])[0] + 1  # the body starts below the opening line
            yield from paragraphs(
                _fence_body(token.content),
                start,
                prose=prose and "src-anchor-row" not in token.info,
            )
        elif token.type == "paragraph_open":
            line = offset + (token.map or [0])[0] + 1
            inline = tokens[index + 1]
            yield (
                line,
                [
                    _anchor(child.content, line)
                    for child in inline.children or []
                    if child.type == "myst_role" and child.meta.get("name") == "src"
                ],
                prose,
            )


def _anchor(content: str, line: int) -> Anchor:
    match = re.fullmatch(r"(?s)(.*?)\s*(?<!\\)<(.*)>", content)
    if match is None:
        return Anchor(label="", target=content, line=line)
    return Anchor(label=match[1], target=match[2], line=line)


def crowded(text: str) -> list[tuple[int, int]]:
    """(line, count) of every paragraph with more anchors than :data:`MAX_ANCHORS`."""
    return [
        (line, len(anchors))
        for line, anchors, prose in paragraphs(text)
        if prose and len(anchors) > MAX_ANCHORS
    ]


def long_labels(text: str) -> list[Anchor]:
    """Labels over :data:`MAX_LABEL` characters that are not a code name."""
    return [
        anchor
        for _, anchors, _ in paragraphs(text)
        for anchor in anchors
        if len(anchor.label) > MAX_LABEL and not IDENTIFIER.fullmatch(anchor.label)
    ]


def labels_by_target(text: str) -> dict[str, set[str]]:
    """Every target written under more than one label."""
    labels: dict[str, set[str]] = defaultdict(set)
    for _, anchors, _ in paragraphs(text):
        for anchor in anchors:
            labels[anchor.target].add(anchor.label)
    return {target: found for target, found in labels.items() if len(found) > 1}


@pytest.fixture(scope="module")
def chapter() -> str:
    return CHAPTER.read_text("utf-8")


def test_the_parser_sees_the_anchors_of_the_text_and_of_the_boxes(chapter: str) -> None:
    anchors = [anchor for _, found, _ in paragraphs(chapter) for anchor in found]
    assert len(anchors) == chapter.count("{src}`")
    boxed = "a\n\n:::{admonition} 静态推断\n:class: inference\nb {src}`x <m.f>` c\n:::\n"
    assert list(paragraphs(boxed)) == [(1, [], True), (5, [Anchor("x", "m.f", 5)], True)]


def test_no_paragraph_carries_more_than_four_anchors(chapter: str) -> None:
    assert crowded(chapter) == []


def test_no_label_is_longer_than_twenty_characters_unless_it_is_a_code_name(chapter: str) -> None:
    assert [anchor.label for anchor in long_labels(chapter)] == []


def test_each_target_has_one_label_across_the_chapter(chapter: str) -> None:
    assert labels_by_target(chapter) == {}


def test_the_rules_catch_what_they_are_for() -> None:
    many = "".join(f"{{src}}`第 {n} 处 <m.f{n}>` " for n in range(5))
    long = "{src}`一个说得太多太多太多太多的标签，超过了二十个字 <m.g>`"
    text = f"{many}\n\n{long} 与 {{src}}`ResearchConductor.conduct_research() <m.h>`\n\n{{src}}`另一个名字 <m.g>`\n"
    assert crowded(text) == [(1, 5)]
    assert [anchor.target for anchor in long_labels(text)] == ["m.g"]
    assert labels_by_target(text) == {
        "m.g": {"一个说得太多太多太多太多的标签，超过了二十个字", "另一个名字"}
    }
