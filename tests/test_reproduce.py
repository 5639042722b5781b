"""Tests for ``source_anchors.licences.reproduce`` (Sphinx-free)."""

from __future__ import annotations

import pytest
from source_anchors.licences.reproduce import (
    Hit,
    Reproduction,
    count_reproduced,
    is_real_content,
    normalise,
    upstream_line_index,
)

# Invented "upstream" files; no real project's code appears in the tests.
UPSTREAM_A = """\
from typing import Any, Optional


class Planner:
    def __init__(self, config, websocket=None):
        self.config = config
        self.websocket = websocket

    def plan(self, query):
        outline = draft_outline(query, depth=self.config.depth)
        return None
"""

UPSTREAM_B = """\
# A comment that is long enough to be counted if comments counted.
def plan(self, query):
    outline = draft_outline(query, depth=self.config.depth)
    return rank_sections(outline, limit=5)
"""


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # Real content: two or more informative names, 12+ characters.
        ("result = compute_score(docs, query)", True),
        ("    outline = draft_outline(query, depth=3)", True),
        ("def __init__(self, config, websocket=None):", True),
        ("logger = logging.getLogger(__name__)", True),
        ("Gulls circled above the fishing boats.", True),
        ('raise ValueError(f"bad value {value!r} for {name}")', True),
        ("import the data into the store", True),  # prose, not an import
        # Too short.
        ("", False),
        ("pass", False),
        ("else:", False),
        ("return None", False),
        ("return []", False),
        ("x = foo(bar)", False),
        # Only punctuation or brackets.
        ("})]);", False),
        ("]]]]]]]]]]]]]]]]]]]]", False),
        ('"""""""""""""', False),
        # Comment-only lines.
        ("# Copyright the project authors", False),
        ("    // a JavaScript comment here", False),
        ("/* a C-style block comment */", False),
        ("<!-- an HTML comment block -->", False),
        # Imports only name things.
        ("from typing import Any, Optional", False),
        ("from . import utils as helpers", False),
        ("import numpy as np, pandas as pd", False),
        # Trivial statements: fewer than two informative names.
        ("self.name = name", False),
        ("self.websocket = websocket", False),
        ("return self._cache", False),
        ("raise NotImplementedError()", False),
        ("super().__init__(**kwargs)", False),
        ('if __name__ == "__main__":', False),
        ("return isinstance(value, str)", False),
    ],
)
def test_is_real_content(line: str, expected: bool) -> None:
    assert is_real_content(line) is expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("  x  =\t1 ", "x = 1"),
        ("\tdef  f( a ,  b ):\n", "def f( a , b ):"),
        ("", ""),
    ],
)
def test_normalise(line: str, expected: str) -> None:
    assert normalise(line) == expected


def test_upstream_line_index_keeps_first_occurrence() -> None:
    index = upstream_line_index([("pkg/a.py", UPSTREAM_A), ("pkg/b.py", UPSTREAM_B)])
    assert index == {
        "def __init__(self, config, websocket=None):": ("pkg/a.py", 5),
        "def plan(self, query):": ("pkg/a.py", 9),
        "outline = draft_outline(query, depth=self.config.depth)": ("pkg/a.py", 10),
        "return rank_sections(outline, limit=5)": ("pkg/b.py", 4),
    }


def test_upstream_line_index_of_nothing_is_empty() -> None:
    assert upstream_line_index([]) == {}


INDEX = upstream_line_index([("pkg/a.py", UPSTREAM_A), ("pkg/b.py", UPSTREAM_B)])


def test_count_reproduced_finds_normalised_lines() -> None:
    blocks = [
        (
            "chapter2",
            40,
            (
                "def plan(self, query):\n"
                "      outline  =  draft_outline(query,  depth=self.config.depth)\n"
                "      return None\n"
            ),
        ),
    ]
    result = count_reproduced(blocks, INDEX)
    assert result == Reproduction(
        total=2,
        hits=(
            Hit("chapter2", 40, "pkg/a.py", 9),
            Hit("chapter2", 40, "pkg/a.py", 10),
        ),
    )


def test_count_reproduced_counts_distinct_upstream_lines() -> None:
    quoted = "return rank_sections(outline, limit=5)"
    blocks = [
        ("chapter3", 12, quoted),
        ("chapter1", 80, f"{quoted}\n{quoted}"),  # repeated within a block
        ("chapter1", 7, "def __init__(self, config, websocket=None):"),
    ]
    result = count_reproduced(blocks, INDEX)
    assert result.total == 2
    assert result.hits == (
        Hit("chapter1", 7, "pkg/a.py", 5),
        Hit("chapter1", 80, "pkg/b.py", 4),
        Hit("chapter3", 12, "pkg/b.py", 4),
    )


def test_count_reproduced_ignores_boilerplate_and_new_code() -> None:
    blocks = [
        ("intro", 1, "self.config = config\nreturn None\n"),
        ("intro", 9, "report = writer.compose(outline, style=house_style)"),
    ]
    assert count_reproduced(blocks, INDEX) == Reproduction(total=0, hits=())


def test_count_reproduced_is_order_independent() -> None:
    blocks = [
        ("b", 2, "return rank_sections(outline, limit=5)"),
        ("a", 5, "def __init__(self, config, websocket=None):"),
    ]
    forward = count_reproduced(blocks, INDEX)
    backward = count_reproduced(list(reversed(blocks)), INDEX)
    assert forward == backward
    assert [hit.docname for hit in forward.hits] == ["a", "b"]
