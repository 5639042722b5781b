"""Anchors into ``.h`` headers, C and C++, through real Sphinx builds of a book over a git upstream.

The C header keeps the C ranges; the C++ header (its ``namespace`` line shows C++, GitHub
linguist's rule) gives the C++ ranges and says why in its rule. At a second commit, the C++
header's class moved down and a method of it gained a comment, and a C function moved from its
``.c`` file into the header: ``check`` reports changed (comments) and missing with the header as
the suggestion. Expected lines are computed from the texts the test wrote.
"""

from __future__ import annotations

import json

import pytest
from helpers import Book, Upstream, run_cli
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.target import parse_target

BUF_C = """\
#include "buf.h"

int keep(void)
{
    return 1;
}

static int
helper(int a)
{
    return a + 1;
}
"""

BUF_H = """\
#ifndef BUF_H
#define BUF_H

struct buffer {
    char *data;
    int size;
};

#endif
"""

GEO_H = """\
#pragma once

namespace geo {

class Box
{
public:
    int size() const
    {
        return n;
    }
private:
    int n = 0;
};

}  // namespace geo
"""

HELPER = BUF_C[BUF_C.index("static int") :]
FILES = {"lib/buf.c": BUF_C, "lib/buf.h": BUF_H, "src/geo.h": GEO_H}
SECOND = {
    "lib/buf.c": BUF_C.replace("\n" + HELPER, ""),
    "lib/buf.h": BUF_H.replace("#endif\n", HELPER + "\n#endif\n"),
    "src/geo.h": GEO_H.replace("namespace geo {\n", "namespace geo {\n\nclass Box;\n", 1).replace(
        "        return n;", "        return n;  // the count"
    ),
}
TARGETS = (
    "/lib/buf.h#buffer",
    "/lib/buf.c#helper",
    "/src/geo.h#geo.Box",
    "/src/geo.h#geo.Box.size",
)


def span(text: str, first: str, last: str) -> tuple[int, int]:
    """From the line holding *first* to the next line that is *last* exactly."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines, 1) if first in line)
    return start, next(n for n in range(start, len(lines) + 1) if lines[n - 1] == last)


@pytest.fixture
def locked(upstream: Upstream, book: Book) -> tuple[Book, str]:
    upstream.write_files(FILES)
    a = upstream.commit("A")
    upstream.write_files(SECOND)
    b = upstream.commit("B")
    book.repos = {"up": {"url": upstream.url, "commit": a}}
    book.write_conf(default_repo="up")
    book.page("index", "# Headers\n\n" + ",\n".join(f"{{src}}`{t} <{t}>`" for t in TARGETS) + ".\n")
    assert book.build().returncode == 0
    book.repos["up"]["commit"] = b
    book.write_conf(default_repo="up")
    return book, a


def test_headers_lock_the_c_and_the_cpp_ranges_and_drift_by_their_grammar(
    locked: tuple[Book, str], capsys: pytest.CaptureFixture[str]
) -> None:
    book, a = locked
    records = json.loads(book.lock.read_text("utf-8"))["anchors"]["up"]
    expected = {
        "/lib/buf.h#buffer": span(BUF_H, "struct buffer", "};"),
        "/lib/buf.c#helper": span(BUF_C, "static int", "}"),
        "/src/geo.h#geo.Box": span(GEO_H, "class Box", "};"),
        "/src/geo.h#geo.Box.size": span(GEO_H, "int size()", "    }"),
    }
    assert {key: (records[key]["start"], records[key]["end"]) for key in expected} == expected
    engine = Engine(
        settings_from(
            {
                "repos": {"up": {"url": book.repos["up"]["url"], "commit": a}},
                "cache_dir": str(book.cache),
            },
            confdir=book.root,
            environ={},
        )
    )
    shows = GEO_H.splitlines().index("namespace geo {") + 1
    rules = {t: engine.check(parse_target(t, default_repo="up")).location for t in expected}
    assert rules["/src/geo.h#geo.Box"] is not None and rules["/lib/buf.h#buffer"] is not None
    assert rules["/src/geo.h#geo.Box"].rule == (
        f".h read as C++, by GitHub linguist's rule: line {shows} shows C++"
    )
    assert rules["/lib/buf.h#buffer"].rule == ""  # a C header, as before

    capsys.readouterr()
    assert run_cli(book.cli("check", "--json")) == 1
    rows = {row["target"]: row for row in json.loads(capsys.readouterr().out)}
    got = {
        t: (
            rows[f"up:{t}"]["status"],
            rows[f"up:{t}"].get("change"),
            rows[f"up:{t}"].get("suggestion"),
        )
        for t in TARGETS
    }
    assert got["/lib/buf.h#buffer"] == ("ok", None, None)
    # The class moved down and its method gained a comment: both changed, in their comments only.
    assert got["/src/geo.h#geo.Box"] == ("changed", "comments", None)
    assert got["/src/geo.h#geo.Box.size"] == ("changed", "comments", None)
    status, _, suggestion = got["/lib/buf.c#helper"]
    # The C function moved into its header: C, C++ and .h files are one family for suggestions.
    assert status == "missing"
    assert suggestion is not None and suggestion["target"] == "/lib/buf.h#helper"
    assert suggestion["reason"] == "same lines"
