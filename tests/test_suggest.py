"""Suggestions for missing anchors after a pin bump, on git repositories the tests make."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import Book, Upstream, run_cli
from source_anchors.suggest.suggester import THRESHOLD, similarity

MOD_A = '''\
class BaseCommand:
    """A command."""

    def main(self, args):
        """Run it."""
        rv = self.invoke(args)
        if rv is None:
            return 0
        return rv

    def invoke(self, args):
        return len(args)


def old_name(items):
    total = 0
    for item in items:
        total += item
    return total


def flag(value):
    if value is _flag_needs_value:
        return True
    return False


def gone_for_good(a, b, c):
    return {"alpha": a, "beta": b, "gamma": c}


_flag_needs_value = object()
'''

MOD_B = '''\
FLAG_NEEDS_VALUE = object()


class Command:
    """A command."""

    def main(self, args):
        """Run it."""
        rv = self.invoke(args)
        if rv is None:
            return 0
        return int(rv)

    def invoke(self, args):
        return len(args)


def new_name(items):
    total = 0
    for item in items:
        total += item
    return total


def flag(value):
    if value is FLAG_NEEDS_VALUE:
        return True
    return False
'''

UTIL = """\
def helper(path, *, strict=False):
    parts = path.split("/")
    if strict and not all(parts):
        raise ValueError(path)
    return parts
"""

PAGE = """\
# Drift

{src}`the class <pkg.mod.BaseCommand>`, {src}`its main <pkg.mod.BaseCommand.main>`,
{src}`a function <pkg.mod.old_name>`, {src}`the flag test <pkg.mod.flag::if value is _flag_needs_value:>`,
{src}`a helper <pkg.util.helper>` and {src}`nothing like it <pkg.mod.gone_for_good>`.
"""


@pytest.fixture
def bumped(upstream: Upstream, book: Book) -> tuple[Book, Upstream, str, str]:
    """A book locked at commit A, then pinned to B, where names were renamed, moved or removed."""
    upstream.write_files({"pkg/__init__.py": "", "pkg/mod.py": MOD_A, "pkg/util.py": UTIL})
    a = upstream.commit("A")
    upstream.remove("pkg/util.py")
    upstream.write_files({"pkg/mod.py": MOD_B, "pkg/core.py": UTIL})
    b = upstream.commit("B")
    _lock_then_pin(book, upstream, a, b, PAGE)
    return book, upstream, a, b


def _lock_then_pin(book: Book, upstream: Upstream, first: str, second: str, page: str) -> None:
    """Build *page* locked at *first* (strictly: every anchor resolves), then pin the book to *second*."""
    book.repos = {"up": {"url": upstream.url, "commit": first, "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    book.page("index", page)
    assert book.build().returncode == 0
    book.repos["up"]["commit"] = second
    book.write_conf(default_repo="up")


def check_json(book: Book, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    capsys.readouterr()
    assert run_cli(book.cli("check", "--json")) == 1
    return {row["target"]: row for row in json.loads(capsys.readouterr().out)}


def test_missing_anchors_get_suggestions_with_similarity(
    bumped: tuple[Book, Upstream, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    book, _, _, _ = bumped
    rows = check_json(book, capsys)
    got = {target: (row["suggestion"] or {}).get("target") for target, row in rows.items()}
    assert got == {
        "up:pkg.mod.BaseCommand": "pkg.mod.Command",
        "up:pkg.mod.BaseCommand.main": "pkg.mod.Command.main",
        "up:pkg.mod.old_name": "pkg.mod.new_name",
        "up:pkg.mod.flag::if value is _flag_needs_value:": "pkg.mod.flag::if value is FLAG_NEEDS_VALUE:",
        "up:pkg.util.helper": "pkg.core.helper",
        "up:pkg.mod.gone_for_good": None,
    }
    helper = rows["up:pkg.util.helper"]["suggestion"]
    assert helper == {
        "target": "pkg.core.helper",
        "similarity": 1.0,
        "reason": "same lines",
        "where": "pkg/core.py:L1–L5",
    }
    for row in rows.values():
        if row["suggestion"]:
            assert THRESHOLD <= row["suggestion"]["similarity"] <= 1.0
            assert "suggestion: " + row["suggestion"]["target"] in row["message"]
    assert rows["up:pkg.mod.old_name"]["suggestion"]["similarity"] < 1.0


def test_the_old_tree_is_fetched_by_the_locked_commit_when_not_cached(
    bumped: tuple[Book, Upstream, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    book, _, _, _ = bumped
    shutil.rmtree(book.cache)
    rows = check_json(book, capsys)
    assert (rows["up:pkg.mod.old_name"]["suggestion"] or {}).get("target") == "pkg.mod.new_name"


def test_a_build_warning_names_the_suggestion(bumped: tuple[Book, Upstream, str, str]) -> None:
    book, _, _, _ = bumped
    result = book.build(strict=False)
    warning = next(w for w in result.warnings() if "up:pkg.mod.old_name" in w)
    assert (
        "suggestion: pkg.mod.new_name at pkg/mod.py:L18–L22 (similar definition, similarity"
        in warning
    )


def test_similarity_is_difflibs_ratio_over_tokens() -> None:
    assert similarity("a.b(c)", "A.b(c)") == 1.0  # case-folded
    assert similarity("x = f(a, b)", "x = f(a, c)") == 0.875  # 8 tokens each, 7 shared: 2·7 / 16
    assert similarity("", "x") == 0.0
    assert similarity("if value is _flag_needs_value:", "if value is FLAG_NEEDS_VALUE:") == 0.8


RST_PAGE = """\
Drift in rST
============

:src:`a function <pkg.mod.old_name>` and `up:pkg.util.helper`:src: and ``:src:`pkg.mod.old_name``` (code).

.. source-anchor:: pkg.mod.old_name
   :caption: a card
"""


def test_fix_prints_a_diff_then_writes_only_the_targets(
    bumped: tuple[Book, Upstream, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    book, _, _, _ = bumped
    (book.root / "other.rst").write_text(RST_PAGE, "utf-8")
    book.page("index", PAGE + "\n```{toctree}\nother\n```\n")
    md_before, rst_before = (book.root / "index.md").read_text("utf-8"), RST_PAGE
    capsys.readouterr()
    assert run_cli(book.cli("fix")) == 0
    out, err = capsys.readouterr()
    assert "--- a/index.md\n+++ b/index.md\n" in out and "--- a/other.rst\n+++ b/other.rst\n" in out
    assert "+{src}`the class <pkg.mod.Command>`, {src}`its main <pkg.mod.Command.main>`," in out
    assert (
        "would rewrite 8 target(s) in 2 page(s); 1 missing target(s) without a suggestion to apply"
        in err
    )
    assert "not fixed: up:pkg.mod.gone_for_good: no suggestion" in err
    assert (book.root / "index.md").read_text("utf-8") == md_before  # a dry run writes nothing

    assert run_cli(book.cli("fix", "--write")) == 0
    md, rst = (
        (book.root / "index.md").read_text("utf-8"),
        (book.root / "other.rst").read_text("utf-8"),
    )
    assert "rewrote 8 target(s) in 2 page(s)" in capsys.readouterr().err
    assert rst == rst_before.replace("<pkg.mod.old_name>", "<pkg.mod.new_name>").replace(
        "`up:pkg.util.helper`", "`up:pkg.core.helper`"
    ).replace(
        "source-anchor:: pkg.mod.old_name", "source-anchor:: pkg.mod.new_name"
    )  # the literal stays
    for old, new in (
        ("pkg.mod.BaseCommand.main", "pkg.mod.Command.main"),
        ("pkg.mod.BaseCommand>", "pkg.mod.Command>"),
        ("pkg.mod.old_name", "pkg.mod.new_name"),
        ("pkg.util.helper", "pkg.core.helper"),
        ("_flag_needs_value:", "FLAG_NEEDS_VALUE:"),
    ):
        md = md.replace(new, old)
    assert md == md_before  # nothing but the targets changed

    assert run_cli(book.cli("update")) == 1  # gone_for_good stays missing
    rows = check_json(book, capsys)
    assert {row["status"] for target, row in rows.items() if "gone_for_good" not in target} == {
        "ok"
    }


def test_fix_min_similarity_leaves_the_less_similar(
    bumped: tuple[Book, Upstream, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    book, _, _, _ = bumped
    capsys.readouterr()
    assert run_cli(book.cli("fix", "--min-similarity", "1")) == 0
    out, err = capsys.readouterr()
    assert "pkg.core.helper" in out and "pkg.mod.new_name" not in out  # only the same lines
    assert "would rewrite 1 target(s) in 1 page(s)" in err
    with pytest.raises(SystemExit):
        run_cli(book.cli("fix", "--min-similarity", "0.1"))
    assert "is not between 0.6 and 1" in capsys.readouterr().err


def test_file_targets_and_scoped_matches_get_suggestions(
    upstream: Upstream, book: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    main_a = (
        "def main(standalone_mode):\n    try:\n        run()\n    except ClickException as e:\n"
        "        if not standalone_mode:\n            raise\n        e.show()\n    except Abort:\n"
        "        if not standalone_mode:\n            raise\n"
    )
    main_b = main_a.replace("        e.show()\n", "        e.show(file=None)\n").replace(
        "    except ClickException as e:\n        if not standalone_mode:",
        "    except ClickException as e:\n        if not standalone_mode_on:",
    )
    upstream.write_files(
        {
            "pkg/__init__.py": "",
            "pkg/mod.py": main_a,
            "NOTICE.txt": "Copyright the authors.\nLicensed under MIT.\n",
        }
    )
    a = upstream.commit("A")
    upstream.remove("NOTICE.txt")
    upstream.write_files(
        {"pkg/mod.py": main_b, "docs/NOTICE.txt": "Copyright the authors.\nLicensed under MIT.\n"}
    )
    b = upstream.commit("B")
    _lock_then_pin(
        book,
        upstream,
        a,
        b,
        "# P\n\n{src}`scoped <pkg.mod.main::except ClickException as e::if not standalone_mode:>` "
        "{src}`notice </NOTICE.txt>` {src}`licence line </NOTICE.txt::Licensed under MIT.>`\n",
    )
    rows = check_json(book, capsys)
    got = {target: (row["suggestion"] or {}).get("target") for target, row in rows.items()}
    assert got == {
        "up:pkg.mod.main::except ClickException as e::if not standalone_mode:": (
            "pkg.mod.main::except ClickException as e::if not standalone_mode_on:"
        ),
        "up:/NOTICE.txt": "/docs/NOTICE.txt",
        "up:/NOTICE.txt::Licensed under MIT.": "/docs/NOTICE.txt::Licensed under MIT.",
    }


def test_a_match_text_now_found_twice_is_scoped_by_its_clause(
    upstream: Upstream, book: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    a = (
        "def convert(args, value):\n    for arg in args:\n        try:\n            return arg(value)\n"
        "        except ValueError:\n            continue\n    raise ValueError(value)\n"
    )
    b = a.replace(
        "    for arg in args:\n",
        "    for arg in args:\n        if arg is None:\n            continue\n",
    )
    row = _bump_one_page(
        upstream, book, capsys, a, b, "# P\n\n{src}`skip <pkg.mod.convert::continue>`\n"
    )["up:pkg.mod.convert::continue"]
    assert "occurs on 2 lines" in row["message"]
    assert row["suggestion"] == {
        "target": "pkg.mod.convert::except ValueError:::continue",
        "similarity": 1.0,
        "reason": "similar line",
        "where": "pkg/mod.py:L8",
    }


def _bump_one_page(
    upstream: Upstream, book: Book, capsys: pytest.CaptureFixture[str], a: str, b: str, page: str
) -> dict[str, Any]:
    """Lock *page* at a commit of pkg/mod.py = *a*, then check it at one with *b*; the rows by target."""
    upstream.write_files({"pkg/__init__.py": "", "pkg/mod.py": a})
    first = upstream.commit("A")
    upstream.write_files({"pkg/mod.py": b})
    _lock_then_pin(book, upstream, first, upstream.commit("B"), page)
    return check_json(book, capsys)


BRANCHES = """\
def research(self, source):
    self.seen.clear()
    if source == "web":
        data = self.search(self.query, [])
    elif source == "local":
        docs = self.load()
        data = self.search(self.query, docs)
    elif source == "hybrid":
        docs = self.load()
        local = self.search(self.query, docs)
        web = self.search(self.query, [])
    return data
"""


def test_a_rewritten_branch_is_not_matched_in_its_sibling(
    upstream: Upstream, book: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    # The hybrid branch now runs both searches at once; the web branch still has a line much like
    # the old one, but it is another branch, so it is not suggested.
    b = BRANCHES.replace(
        "        local = self.search(self.query, docs)\n        web = self.search(self.query, [])\n",
        "        local, web = gather(self.search(self.query, docs), self.search(self.query, []))\n",
    )
    rows = _bump_one_page(
        upstream,
        book,
        capsys,
        BRANCHES,
        b,
        "# P\n\n{src}`web half <pkg.mod.research::web = self.search(self.query, [])>`\n",
    )
    row = rows["up:pkg.mod.research::web = self.search(self.query, [])"]
    assert row["status"] == "missing"
    suggestion = row["suggestion"]
    # No suggestion at all: the web branch's line (L4) is the closest text but another clause, and
    # the hybrid clause's one line now binds two names through a call, which is no longer the same
    # statement.
    assert suggestion is None, suggestion


def test_a_line_of_another_kind_is_never_suggested(
    upstream: Upstream, book: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    # The clear() call is gone; an `if` naming a similar attribute is no answer, however alike the
    # text.
    a = BRANCHES.replace("self.seen.clear()", "self.researcher.visited_urls.clear()")
    b = BRANCHES.replace(
        "    self.seen.clear()\n", "    if self.researcher.source_urls:\n        pass\n"
    )
    rows = _bump_one_page(
        upstream,
        book,
        capsys,
        a,
        b,
        "# P\n\n{src}`clear <pkg.mod.research::self.researcher.visited_urls.clear()>`\n",
    )
    row = rows["up:pkg.mod.research::self.researcher.visited_urls.clear()"]
    assert row["status"] == "missing" and row["suggestion"] is None, row


def test_a_value_kept_then_returned_may_become_a_return(
    upstream: Upstream, book: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    # `cursor = …` then `return` rewritten as one `return …`: a close line of another value-giving
    # kind.
    a = "def do_query(self, using):\n    cursor = self.get_compiler(using).execute_sql(CURSOR)\n    return cursor\n"
    b = "def do_query(self, using):\n    return self.get_compiler(using).execute_sql(ROW_COUNT)\n"
    rows = _bump_one_page(
        upstream, book, capsys, a, b, "# P\n\n{src}`run <pkg.mod.do_query::cursor = self>`\n"
    )
    suggestion = rows["up:pkg.mod.do_query::cursor = self"]["suggestion"]
    assert suggestion is not None and suggestion["where"] == "pkg/mod.py:L2", suggestion


def test_lines_compare_by_characters() -> None:
    from source_anchors.suggest.lines import line_similarity

    old = 'case "chrome":'
    assert line_similarity(old, 'case "chrome" | "edge":') > line_similarity(old, 'case "firefox":')
    assert (
        round(line_similarity("if value is _flag_needs_value:", "if value is FLAG_NEEDS_VALUE:"), 3)
        == 0.983
    )


def test_a_second_build_takes_the_suggestions_from_the_cache(
    bumped: tuple[Book, Upstream, str, str],
) -> None:
    # Suggesting reads both trees (every module of the packages, for a definition that moved); a
    # rebuild of the same pages at the same pin finds the same suggestions in the cache, parsing
    # nothing.
    book, _, _, _ = bumped
    for folder in ("resolutions", "suggestions"):
        shutil.rmtree(book.cache / folder, ignore_errors=True)
    first = book.build(strict=False, fresh=True)
    first_stats = first.stats()  # the files of one output directory: read before the next build
    second = book.build(strict=False, fresh=True)
    hints = [
        [w.split("suggestion: ", 1)[1] for w in r.warnings() if "suggestion: " in w]
        for r in (first, second)
    ]
    assert len(hints[0]) == 5 and hints[1] == hints[0]
    assert first_stats["ast_parses"] > 0
    assert (second.stats()["ast_parses"], second.stats()["resolved"]) == (0, 0)
    files = list((book.cache / "suggestions").glob("*.json"))
    assert (
        len(files) == 1 and len(json.loads(files[0].read_text("utf-8"))) == 6
    )  # five found, one "none"


def test_likeness_bounds_are_never_below_the_score() -> None:
    """The bounds that spare scoring a candidate: never below the similarity, the shared one difflib's quick_ratio."""
    import difflib
    import random

    from source_anchors.suggest.lines import _TOKENS, Likeness

    rng = random.Random(31)
    vocabulary = [
        "self",
        "x",
        "(",
        ")",
        "return",
        "=",
        "value",
        "name",
        ".",
        ",",
        "if",
        ":",
        "None",
        "1",
    ]
    likeness = Likeness()
    for _ in range(300):
        a, b = (" ".join(rng.choices(vocabulary, k=rng.randint(0, 40))) for _ in range(2))
        score = likeness.similarity(a, b)
        upper, shared = likeness.bounds(a, b)
        assert score == similarity(a, b)
        assert upper >= shared >= score
        matcher = difflib.SequenceMatcher(
            None, _TOKENS.findall(a.casefold()), _TOKENS.findall(b.casefold())
        )
        assert shared == (matcher.quick_ratio() if a.casefold() != b.casefold() or a else 1.0)


def test_nearest_answers_as_scoring_every_holder_for_each_question_does(
    upstream: Upstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A text's scores are kept and filtered by the definitions each question allows: the very answers.

    The oracle scores each question alone: every holder of every word of the text, of the kind and
    allowed, its weight added in the words' order; ties to the one scored first. Asked in two
    orders, with one text's scores kept and with many.
    """
    import heapq
    import math
    import re

    from source_anchors.engine.engine import Engine
    from source_anchors.model.config import settings_from
    from source_anchors.suggest import catalog as catalogs

    def oracle(
        catalog: catalogs.Catalog, text: str, kind: str, module: str | None, among: Any
    ) -> list[int]:
        allowed = (
            among
            if module is None
            else {n for n in catalog._by_module.get(module, ()) if n in among}
        )
        scores: dict[int, float] = {}
        for word in set(re.findall(r"[^\W\d]\w*", text.casefold())):
            holders = catalog.words.get(word, ())
            for number in holders:
                if catalog.defs[number].kind == kind and number in allowed:
                    scores[number] = (
                        scores.get(number, 0.0) + math.log(catalog.worded / len(holders)) + 1e-3
                    )
        return heapq.nlargest(catalogs.CANDIDATES, scores, key=scores.__getitem__)

    functions = "\n\n".join(
        f"def f{n}(value, other):\n    total = value + other * {n % 7}\n"
        f"    return total if value else helper_{n % 5}(other)\n"
        for n in range(120)
    )
    classes = "\n\n".join(
        f"class C{n}:\n    def f{n}(self, value):\n        return helper_{n % 3}(value)\n"
        for n in range(6)
    )
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/many.py", functions)
    upstream.write("pkg/few.py", classes)
    sha = upstream.commit()
    engine = Engine(
        settings_from(
            {
                "repos": {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}},
                "cache_dir": str(tmp_path / "cache"),
            },
            confdir=tmp_path,
            environ={},
        )
    )
    catalog = catalogs.Catalog(engine.resolver("up"))
    queries = [catalog.texts[n] for n in range(len(catalog.defs))]
    asked = [
        (text, kind, module, among)
        for text in queries
        for kind in ("function", "class")
        for module, among in (
            ("pkg.few", catalog.everything),
            (None, catalog.members(catalog.defs[-1])),
            (None, catalog.top_level),
            (None, catalog.everything),
            ("pkg.many", frozenset(range(0, len(catalog.defs), 3))),
        )
    ]
    expected = [oracle(catalog, *question) for question in asked]
    assert [catalog.nearest(*question) for question in asked] == expected
    assert [catalog.nearest(*question) for question in reversed(asked)] == expected[::-1]
    monkeypatch.setattr(catalogs, "_TEXTS_KEPT", 1)
    fresh = catalogs.Catalog(engine.resolver("up"))
    assert [fresh.nearest(*question) for question in reversed(asked)] == expected[::-1]
    assert any(0 < len(answer) < catalogs.CANDIDATES for answer in expected)
    assert sum(len(answer) == catalogs.CANDIDATES for answer in expected) > 100


def test_the_rarities_and_candidates_are_the_changed_files_and_lookups_see_every_file(
    upstream: Upstream, tmp_path: Path
) -> None:
    """A file with the same blob at the lock's commit defined what it defines before the bump: never a candidate.

    On trees made with git: its definitions are left out of the word index (the rarities and the
    nearest candidates), and still found by name and by lines, which the rules of a copy kept and of
    members moved read.
    """
    from source_anchors.engine.engine import Engine
    from source_anchors.model.config import settings_from
    from source_anchors.suggest import catalog as catalogs

    def engine(sha: str) -> Engine:
        return Engine(
            settings_from(
                {
                    "repos": {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}},
                    "cache_dir": str(tmp_path / "cache"),
                },
                confdir=tmp_path,
                environ={},
            )
        )

    kept = "def merge_totals(values, other):\n    total = sum(values) + other\n    return total\n"
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/kept.py", kept)
    upstream.write("pkg/moved.py", "def old_name(values):\n    return values\n")
    old = upstream.commit()
    upstream.write("pkg/moved.py", kept.replace("merge_totals", "merge_all_totals"))
    new = upstream.commit()
    before = engine(old).tree("up")
    catalog = catalogs.Catalog(engine(new).resolver("up"), before.listing or before.blobs)
    assert {d.file for d in catalog.defs} == {
        "pkg/moved.py"
    } and catalog.worded == 1  # the rest when asked
    text = catalogs.normal(kept.splitlines())
    assert [
        catalog.defs[n].path for n in catalog.nearest(text, "function", None, catalog.everything)
    ] == ["pkg.moved.merge_all_totals"]
    assert catalog.named("merge") == [] and {d.file for d in catalog.defs} == {
        "pkg/moved.py"
    }  # a part of a word
    assert [catalog.defs[n].path for n in catalog.named("merge_totals")] == [
        "pkg.kept.merge_totals"
    ]
    assert [d.path for d in catalog.same_lines("function", kept.rstrip("\n"))] == [
        "pkg.kept.merge_totals"
    ]
    whole = catalogs.Catalog(engine(new).resolver("up"))  # without the lock's commit: every file
    assert whole.worded == 2
    assert {
        whole.defs[n].path for n in whole.nearest(text, "function", None, whole.everything)
    } == {"pkg.moved.merge_all_totals", "pkg.kept.merge_totals"}


def test_a_catalog_that_reads_unchanged_files_when_asked_answers_as_one_that_read_every_file(
    upstream: Upstream, tmp_path: Path
) -> None:
    """The oracle is the catalog that reads every file at once: by name, by lines, by place, by class, the same.

    On a tree made with git from standard-library modules (read as text), a third of them changed
    between the two commits, one not ASCII (an NFKC spelling of a name) and one with CRLF line ends.
    Each question is asked of the catalog that reads unchanged files only when asked, while it has
    read few of them.
    """
    import sysconfig

    from source_anchors.engine.engine import Engine
    from source_anchors.model.config import settings_from
    from source_anchors.suggest import catalog as catalogs

    def engine(sha: str) -> Engine:
        return Engine(
            settings_from(
                {
                    "repos": {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}},
                    "cache_dir": str(tmp_path / "cache"),
                },
                confdir=tmp_path,
                environ={},
            )
        )

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    names = (
        "argparse.py",
        "textwrap.py",
        "json/decoder.py",
        "json/encoder.py",
        "difflib.py",
        "csv.py",
        "dataclasses.py",
        "tokenize.py",
        "shlex.py",
        "string.py",
        "fractions.py",
        "calendar.py",
    )
    texts = {f"pkg/m{n}.py": (stdlib / name).read_text("utf-8") for n, name in enumerate(names)}
    texts["pkg/spelled.py"] = (
        "ﬁeld = 1\n\n\nclass Café:\n    ﬁeld = 2\n\n    def get(self):\n        return 1\n"
    )
    texts["pkg/crlf.py"] = (
        "def get(value):\r\n    return value\r\n\r\nclass Kept:\r\n    def get(self):\r\n"
        "        return 1\r\n"
    )
    upstream.write("pkg/__init__.py", "")
    for path, text in texts.items():
        (upstream.path / path).parent.mkdir(parents=True, exist_ok=True)
        (upstream.path / path).write_bytes(text.encode("utf-8"))
    old = upstream.commit()
    for n in range(
        0, len(names), 3
    ):  # every third module changed: a method copied, a function added
        upstream.write(f"pkg/m{n}.py", texts[f"pkg/m{n}.py"] + "\n\ndef get(self):\n    return 1\n")
    new = upstream.commit()
    before = engine(old).tree("up")
    eager = catalogs.Catalog(engine(new).resolver("up"))
    lazy = catalogs.Catalog(engine(new).resolver("up"), before.listing or before.blobs)
    assert {d.file for d in lazy.defs} == {f"pkg/m{n}.py" for n in range(0, len(names), 3)}
    assert lazy.worded < eager.worded == len(eager.defs) > 900

    def paths(catalog: catalogs.Catalog, numbers: list[int]) -> list[str]:
        return [catalog.defs[n].path for n in numbers]

    by_lines = catalogs.Catalog(engine(new).resolver("up"), before.listing or before.blobs)
    every = [
        (d.kind, catalogs.lines_of(eager._resolver.file_lines(d.file), d.start, d.end))
        for d in eager.defs
    ]
    for found, (kind, text) in zip(
        eager.defs, every, strict=True
    ):  # by lines alone first: nothing else read
        # The other oracle: every definition of the kind whose lines are the text, in the catalog's
        # order.
        assert (
            by_lines.same_lines(kind, text)
            == eager.same_lines(kind, text)
            == [d for d, (k, t) in zip(eager.defs, every, strict=True) if (k, t) == (kind, text)]
            != []
        )
        for edited in (
            text + " ",
            text[:-1],
            text.replace("\n", "\n ", 1),
        ):  # the same first line and length
            assert (
                by_lines.same_lines(found.kind, edited)
                == eager.same_lines(found.kind, edited)
                == [
                    d
                    for d, (k, t) in zip(eager.defs, every, strict=True)
                    if (k, t) == (kind, edited)
                ]
            )
    for asked, found in enumerate(eager.defs):
        name = found.qual.rpartition(".")[2]
        for key in (name, "_" + name, name[:-1] or name):
            assert paths(lazy, lazy.named(key)) == paths(eager, eager.named(key)), key
        if asked % 7 == 0:  # by place: its file read only now
            assert lazy.at(found.file, found.start) == eager.at(found.file, found.start) is not None
            assert {lazy.defs[n] for n in lazy.in_file(found.file)} == {
                eager.defs[n] for n in eager.in_file(found.file)
            }
            owner = lazy.owner(found)
            assert owner == eager.owner(found)
            if owner is not None:
                assert paths(lazy, lazy.members(owner)) == paths(eager, eager.members(owner))
    assert lazy.named("field") and paths(lazy, lazy.named("field")) == paths(
        eager, eager.named("field")
    )
    assert sorted(d.path for d in lazy.defs) == sorted(
        d.path for d in eager.defs
    )  # all read in the end


def test_the_catalogs_words_are_the_patterns_on_random_texts_and_real_modules() -> None:
    r"""The words the catalog indexes (without a pattern, on ASCII text) against ``[^\W\d]\w*`` line by line."""
    import random
    import re
    import sysconfig

    from source_anchors.suggest import catalog as catalogs

    def oracle(lines: list[str]) -> tuple[list[str], list[int]]:
        words, starts = [], [0]
        for line in "\n".join(lines).casefold().split("\n"):
            words += re.findall(r"[^\W\d]\w*", line)
            starts.append(len(words))
        return words, starts

    rng = random.Random(7)
    pieces = (
        "a",
        "Z",
        "_",
        "9",
        "0x1F",
        "1_000",
        " ",
        "\t",
        "\x0c",
        ".",
        "(",
        "#",
        "é",
        "ß",
        "٣",
        "\n",
    )
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(20000)]
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    texts += [
        (stdlib / name).read_text("utf-8")
        for name in ("argparse.py", "_pydecimal.py", "fractions.py")
    ]
    differ = [
        text for text in texts if catalogs._words_of(text.split("\n")) != oracle(text.split("\n"))
    ]
    assert not differ[:3]
    assert sum(len(catalogs._words_of(text.split("\n"))[0]) for text in texts[-3:]) > 10000
