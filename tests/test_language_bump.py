"""``bump`` over anchors into Go, Rust and TypeScript definitions (``/file.ext#Symbol.path``).

The upstream is a git repository made here, with no Python package (so its pin has no ``packages``):
at v1 the book is locked; at v2 a Go function has moved down, a Rust method's code changed, and a
TypeScript function was renamed. ``bump`` previews each anchor's status at the new commit, class
and suggestion included, writes the pin with ``--write``, and the relocked book checks clean.
"""

from __future__ import annotations

import pytest
from helpers import Book, Upstream, run_cli

GO_V1 = "package cmd\n\nfunc Run(n int) int {\n\treturn n + 1\n}\n"
GO_V2 = "package cmd\n\n// Helper comes first now.\nfunc Helper() {}\n\n" + GO_V1.removeprefix(
    "package cmd\n\n"
)
RUST_V1 = (
    "pub struct Map;\n\nimpl Map {\n    pub fn insert(&mut self, k: u32) -> u32 {\n"
    "        k + 1\n    }\n}\n"
)
RUST_V2 = RUST_V1.replace("k + 1", "k * 2")
TS_V1 = "export function renderHero(title: string): string {\n  return `<h1>${title}</h1>`;\n}\n"
TS_V2 = TS_V1.replace("renderHero", "renderBanner")
PAGE = (
    "# P\n\n{src}`Run <up:/cmd/run.go#Run>`, {src}`insert <up:/src/map.rs#Map.insert>` and "
    "{src}`hero <up:/web/hero.ts#renderHero>`\n"
)


@pytest.fixture
def bumped(upstream: Upstream, book: Book) -> tuple[Book, str, str]:
    upstream.write_files({"cmd/run.go": GO_V1, "src/map.rs": RUST_V1, "web/hero.ts": TS_V1})
    v1 = upstream.commit("v1")
    upstream.write_files({"cmd/run.go": GO_V2, "src/map.rs": RUST_V2, "web/hero.ts": TS_V2})
    v2 = upstream.commit("v2", tag="v2")
    book.repos = {"up": {"url": upstream.url, "commit": v1}}
    book.write_conf(default_repo="up")
    book.page("index", PAGE)
    assert run_cli(book.cli("update")) == 0
    return book, v1, v2


def test_bump_previews_moved_changed_and_missing_definitions(
    bumped: tuple[Book, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    book, v1, v2 = bumped
    conf = (book.root / "conf.py").read_bytes()
    capsys.readouterr()
    assert run_cli(book.cli("bump", "up", "v2")) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"up: 'v2' is {v2} (pinned: {v1})"
    assert "moved    up:/cmd/run.go#Run" in out
    assert "changed  up:/src/map.rs#Map.insert  src/map.rs:L4–L6 → src/map.rs:L4–L6" in out
    assert "cmd/run.go:L3–L5 → cmd/run.go:L6–L8" in out
    assert "missing  up:/web/hero.ts#renderHero" in out
    assert "suggestion: /web/hero.ts#renderBanner at web/hero.ts:L1–L3" in out  # renamed
    assert "3 anchors: 1 changed, 1 missing, 1 moved (3 distinct targets)" in out
    assert "changed targets by class: 1 code" in out
    assert (book.root / "conf.py").read_bytes() == conf


def test_bump_write_then_fix_and_relock_check_clean(
    bumped: tuple[Book, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    book, v1, v2 = bumped
    assert run_cli(book.cli("bump", "up", "v2", "--write")) == 1
    assert v2 in (book.root / "conf.py").read_text("utf-8")
    assert v1 not in (book.root / "conf.py").read_text("utf-8")
    capsys.readouterr()
    assert run_cli(book.cli("fix", "--write")) in (0, 1)
    page = (book.root / "index.md").read_text("utf-8")
    assert "up:/web/hero.ts#renderBanner" in page and "#renderHero" not in page
    assert run_cli(book.cli("update")) == 0
    assert run_cli(book.cli("check")) == 0
