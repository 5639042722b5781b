"""Anchors into TypeScript, Go, Rust and C files (``/path/file.ext#Symbol.path``), through real Sphinx builds.

An upstream made with git holds one file per language and no Python package (its pin has no
``packages``). A book anchors a definition of each file to be moved, reformatted, given another
comment, rewritten and renamed (or moved to another file), locks at the first commit, and is then
pinned to a second one: ``check`` reports each as moved / changed (formatting, comments, code) /
missing with a suggestion, and ``fix --write`` heals the missing ones. Expected lines are computed
from the texts the test wrote, never copied from the resolver's output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers import Book, Upstream, run_cli
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.errors import TargetError
from source_anchors.model.target import parse_target
from source_anchors.reading.languages.go import Go
from source_anchors.reading.registry import register, unregister

TS = """\
import { api } from "./api";

export class Home {
  @memo
  moved(a: number): number {
    return a * 2;
  }
}

export const fmtFn = (a: number): number => {
  return a+1;
};

/** Adds one. */
export function commentFn(a: number): number {
  // add one
  return a + 1;
}

export function codeFn(a: number): number {
  if (a > 0) {
    return a + 1;
  }
  return 0;
}

export function oldName(items: number[]): number {
  let total = 0;
  for (const item of items) {
    total += item;
  }
  return total;
}
"""

GO = """\
package cmd

// Command is one command.
type Command struct {
\tName string
}

// Moved doubles.
func (c *Command) Moved(a int) int {
\treturn a * 2
}

func (c *Command) Fmt(a int) int {
\treturn a+1
}

func Comment(a int) int {
\t// add one
\treturn a + 1
}

func Code(a int) int {
\tswitch a {
\tcase 0:
\t\treturn 1
\tdefault:
\t\treturn a + 1
\t}
}

func Total(items []int) int {
\ttotal := 0
\tfor _, item := range items {
\t\ttotal += item
\t}
\treturn total
}
"""

RUST = """\
pub struct HashTrieMap {
    size: usize,
}

impl HashTrieMap {
    /// Twice the size.
    #[inline]
    pub fn moved(&self) -> usize {
        self.size * 2
    }

    pub fn fmt_me(&self) -> usize {
        self.size+1
    }
}

pub fn comment(a: usize) -> usize {
    // add one
    a + 1
}

pub fn code(a: usize) -> usize {
    match a {
        0 => 1,
        _ => a + 1,
    }
}

pub fn old_name(items: &[usize]) -> usize {
    let mut total = 0;
    for item in items {
        total += item;
    }
    total
}
"""

C = """\
#include <stddef.h>

/* Twice a. */
static int
moved(int a)
{
    return a * 2;
}

int fmt_me(int a)
{
    return a+1;
}

int comment(int a)
{
    /* add one */
    return a + 1;
}

int code(int a)
{
    if (a > 0) {
        return a + 1;
    }
    return 0;
}

size_t old_name(const size_t *items, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += items[i];
    }
    return total;
}
"""

FILES = {"web/app.ts": TS, "cmd/command.go": GO, "src/map.rs": RUST, "lib/buf.c": C}

#: Per file: the anchors moved, reformatted, commented, rewritten and renamed, by their #paths.
NAMES = {
    "web/app.ts": ("Home.moved", "fmtFn", "commentFn", "codeFn", "oldName"),
    "cmd/command.go": ("Command.Moved", "Command.Fmt", "Comment", "Code", "Total"),
    "src/map.rs": ("HashTrieMap.moved", "HashTrieMap.fmt_me", "comment", "code", "old_name"),
    "lib/buf.c": ("moved", "fmt_me", "comment", "code", "old_name"),
}
#: What the second commit puts at the top of each file (every definition below moves down).
INSERTED = {
    "web/app.ts": ('import { api } from "./api";\n', "export const first = 1;\n"),
    "cmd/command.go": ("package cmd\n", "\nfunc First() {}\n"),
    "src/map.rs": ("", "pub const FIRST: usize = 1;\n\n"),
    "lib/buf.c": ("#include <stddef.h>\n", "\nint first(void) { return 1; }\n"),
}


def second(path: str, text: str) -> str:
    """The file at the second commit: a definition added at the top, one reformatted, commented, rewritten, renamed."""
    before, added = INSERTED[path]
    text = text.replace(before, before + added, 1) if before else added + text
    text = text.replace("+1", " + 1", 1).replace("add one", "add one, then return", 1)
    if path == "web/app.ts":
        return text.replace(
            "    return a + 1;\n  }\n  return 0;", "    return a + 2;\n  }\n  return 0;"
        ).replace("oldName", "sumOf")
    if path == "cmd/command.go":
        return text.replace("\t\treturn a + 1\n\t}", "\t\treturn a + 2\n\t}")
    if path == "src/map.rs":
        return text.replace("_ => a + 1,", "_ => a + 2,").replace("old_name", "sum_of")
    branch = "        return a + 1;\n    }\n    return 0;"
    return text.replace(branch, branch.replace("a + 1", "a + 2")).replace("old_name", "sum_of")


GO_MOVED = GO[GO.index("func Total") :]


def line_of(text: str, needle: str) -> int:
    (number,) = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return number


def block(text: str, first: str, closing: str) -> tuple[int, int]:
    """From the line holding *first* to the next line that is *closing* exactly."""
    start, lines = line_of(text, first), text.splitlines()
    return start, next(n for n in range(start, len(lines) + 1) if lines[n - 1] == closing)


def page() -> str:
    anchors = [
        f"{{src}}`{name} </{path}#{name}>`" for path, names in NAMES.items() for name in names
    ]
    matches = [
        "{src}`the positive branch </web/app.ts#codeFn::if (a > 0)>`",
        "{src}`the default case </cmd/command.go#Code::default:>`",
    ]
    return (
        "# Languages\n\n" + ",\n".join(anchors + matches) + ".\n\n"
        "```{source-anchor} /src/map.rs#HashTrieMap.moved\n:caption: moved\n```\n"
    )


@pytest.fixture
def locked(upstream: Upstream, book: Book) -> tuple[Book, Upstream, str, str]:
    """The book locked at commit A (a strict build), then pinned to B."""
    upstream.write_files(FILES)
    a = upstream.commit("A")
    upstream.write_files({path: second(path, text) for path, text in FILES.items()})
    upstream.write_files(
        {
            "cmd/command.go": second("cmd/command.go", GO).replace(GO_MOVED, ""),
            "cmd/sum.go": "package cmd\n\n" + GO_MOVED,
        }
    )
    b = upstream.commit("B")
    book.repos = {"up": {"url": upstream.url, "commit": a}}  # no 'packages': no Python here
    book.write_conf(default_repo="up")
    book.page("index", page())
    assert book.build().returncode == 0
    book.repos["up"]["commit"] = b
    book.write_conf(default_repo="up")
    return book, upstream, a, b


def check_json(
    book: Book, capsys: pytest.CaptureFixture[str], code: int = 1
) -> dict[str, dict[str, Any]]:
    capsys.readouterr()
    assert run_cli(book.cli("check", "--json")) == code
    return {row["target"]: row for row in json.loads(capsys.readouterr().out)}


def test_the_lock_holds_each_definition_at_its_range(
    locked: tuple[Book, Upstream, str, str],
) -> None:
    book, _, a, _ = locked
    records = json.loads(book.lock.read_text("utf-8"))["anchors"]["up"]
    expected = {
        "/web/app.ts#Home.moved": (block(TS, "@memo", "  }"), "method"),
        "/web/app.ts#fmtFn": (block(TS, "export const fmtFn", "};"), "function"),
        "/web/app.ts#commentFn": (block(TS, "export function commentFn", "}"), "function"),
        "/cmd/command.go#Command.Moved": (block(GO, "func (c *Command) Moved", "}"), "method"),
        "/cmd/command.go#Total": (block(GO, "func Total", "}"), "function"),
        "/src/map.rs#HashTrieMap.moved": (block(RUST, "#[inline]", "    }"), "method"),
        "/src/map.rs#old_name": (block(RUST, "pub fn old_name", "}"), "function"),
        "/lib/buf.c#moved": (block(C, "static int", "}"), "function"),
        "/lib/buf.c#code": (block(C, "int code(", "}"), "function"),
        "/web/app.ts#codeFn::if (a > 0)": (block(TS, "if (a > 0)", "  }"), "statement"),
        "/cmd/command.go#Code::default:": (
            (line_of(GO, "default:"), line_of(GO, "\t\treturn a + 1")),
            "statement",
        ),
    }
    for key, ((start, end), _kind) in expected.items():
        record = records[key]
        assert (record["start"], record["end"]) == (start, end), key
        assert record["commit"] == a
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
    for key, (_, kind) in expected.items():
        outcome = engine.check(parse_target(key, default_repo="up"))
        assert outcome.location is not None and outcome.location.kind == kind, key


def test_check_reports_moved_changed_by_class_and_missing_with_suggestions(
    locked: tuple[Book, Upstream, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    book, _, _, _ = locked
    rows = check_json(book, capsys)
    got = {
        target.removeprefix("up:"): (
            row["status"],
            row.get("change"),
            (row.get("suggestion") or {}).get("target"),
        )
        for target, row in rows.items()
    }
    for path, (moved, fmt, comment, code, renamed) in NAMES.items():
        assert got[f"/{path}#{moved}"] == ("moved", None, None), path
        assert got[f"/{path}#{fmt}"] == ("changed", "formatting", None), path
        assert got[f"/{path}#{comment}"] == ("changed", "comments", None), path
        assert got[f"/{path}#{code}"] == ("changed", "code", None), path
        status, _, suggestion = got[f"/{path}#{renamed}"]
        assert status == "missing", path
        new_name = {
            "web/app.ts": "/web/app.ts#sumOf",
            "cmd/command.go": "/cmd/sum.go#Total",
            "src/map.rs": "/src/map.rs#sum_of",
            "lib/buf.c": "/lib/buf.c#sum_of",
        }[path]
        assert suggestion == new_name, path
    assert got["/web/app.ts#codeFn::if (a > 0)"][:2] == ("changed", "code")
    assert got["/cmd/command.go#Code::default:"][:2] == ("changed", "code")
    # The same lines moved to another file: similarity 1.0.
    moved_row = rows["up:/cmd/command.go#Total"]["suggestion"]
    assert moved_row["similarity"] == 1.0 and moved_row["reason"] == "same lines"
    start = line_of(GO_MOVED, "func Total") + 2
    assert moved_row["where"] == f"cmd/sum.go:L{start}–L{start + len(GO_MOVED.splitlines()) - 1}"


def test_fix_write_heals_the_missing_definitions(
    locked: tuple[Book, Upstream, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    book, _, _, _ = locked
    before = (book.root / "index.md").read_text("utf-8")
    capsys.readouterr()
    assert run_cli(book.cli("fix", "--write")) == 0
    assert "rewrote 4 target(s) in 1 page(s)" in capsys.readouterr().err
    text = (book.root / "index.md").read_text("utf-8")
    assert text == before.replace("</web/app.ts#oldName>", "</web/app.ts#sumOf>").replace(
        "</cmd/command.go#Total>", "</cmd/sum.go#Total>"
    ).replace("</src/map.rs#old_name>", "</src/map.rs#sum_of>").replace(
        "</lib/buf.c#old_name>", "</lib/buf.c#sum_of>"
    )
    assert run_cli(book.cli("update")) == 0
    rows = check_json(book, capsys, code=0)
    assert {row["status"] for row in rows.values()} == {"ok"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("up:/web/app.ts#", "nothing after '#'"),
        ("up:/web/app.ts#Home..moved", "invalid definition path 'Home..moved'"),
        ("up:/web/app.ts#Home moved", "invalid definition path"),
        ("up:/cmd/command.go#.Moved", "invalid definition path"),
    ],
)
def test_a_bad_definition_path_is_a_target_error(text: str, message: str) -> None:
    with pytest.raises(TargetError, match=message):
        parse_target(text, default_repo=None)


def test_a_definition_path_parses_beside_the_file_and_the_match() -> None:
    target = parse_target("up:/src/lib.rs#Display.for.Point.fmt::write!(", default_repo=None)
    assert (target.file, target.symbol, target.matches) == (
        "src/lib.rs",
        "Display.for.Point.fmt",
        ("write!(",),
    )
    assert target.key == "/src/lib.rs#Display.for.Point.fmt::write!("
    assert (
        parse_target("up:/c#/x.cs", default_repo=None).symbol is None
    )  # a '#' in a folder is the path's
    assert (
        parse_target("up:/x.cc#ns.Buffer.~Buffer", default_repo=None).symbol == "ns.Buffer.~Buffer"
    )


class NotInstalled(Go):
    """Go by another suffix, its grammar wheel not installed."""

    name = "Go (not installed)"
    suffixes = (".notinstalled",)
    grammar = ("tree_sitter_go_not_installed", "language")


def test_unknown_names_and_files_of_no_language_say_what_to_write(
    upstream: Upstream, tmp_path: Path
) -> None:
    upstream.write_files(
        {**FILES, "README.md": "# Read me\n", "cmd/x.notinstalled": "package cmd\n"}
    )
    sha = upstream.commit()
    engine = Engine(
        settings_from(
            {
                "repos": {"up": {"url": upstream.url, "commit": sha}},
                "cache_dir": str(tmp_path / "cache"),
            },
            confdir=tmp_path,
            environ={},
        )
    )
    typo = engine.check(parse_target("up:/src/map.rs#HashTrieMap.movd", default_repo=None))
    assert (
        typo.status == "missing"
        and "no Rust definition HashTrieMap.movd; did you mean HashTrieMap.moved or" in typo.message
    )
    readme = engine.check(parse_target("up:/README.md#Intro", default_repo=None))
    assert readme.status == "missing" and "no language reads .md files" in readme.message
    assert "anchor a line with '/README.md::text of the line'" in readme.message
    language = NotInstalled()
    register(language)
    try:
        extra = engine.check(parse_target("up:/cmd/x.notinstalled#Run", default_repo=None))
    finally:
        unregister(language)
    assert extra.status == "error" and extra.subtype is not None
    assert 'not installed: pip install "sphinx-source-anchors[languages]"' in extra.message
