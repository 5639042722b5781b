"""Classes of change end to end: lock at one commit, change the upstream, build and check at the next.

Each test makes its own upstream with git (commit A, then B) and builds a small book in-process.
"""

from __future__ import annotations

import json
import shutil
from typing import Any

import pytest
from helpers import Book, Upstream, run_cli

#: pkg/mod.py at commit A: one function per class of change, and one that only moves.
MOD_A = '''
from typing import List, Optional


def fmt(x, y):
    return x + y


def com(x):
    """Add one."""
    # one more
    return x + 1


def ann(x: Optional[int]) -> List[str]:
    return [str(x)]


def cod(x):
    a = x * 1
    b = x * 1
    c = x * 1
    d = x * 1
    e = x * 1
    f = x * 1
    g = x * 1
    return a + b + c + d + e + f + g


def stay():
    return 0
'''

#: What commit B does to each function (the class its change is).
EDITS = {
    "formatting": ("    return x + y\n", "    return (\n        x+y\n    )\n"),
    "comments": (
        '    """Add one."""\n    # one more\n',
        '    """Add 1 to *x*."""\n    # plus one\n',
    ),
    "annotations": (
        "def ann(x: Optional[int]) -> List[str]:",
        "def ann(x: int | None) -> list[str]:",
    ),
    "code": ("= x * 1", "= x * 2"),
}
TARGET = {"formatting": "fmt", "comments": "com", "annotations": "ann", "code": "cod"}
PAGE = (
    "# P\n\n"
    + "\n\n".join(f"{{src}}`{name} <pkg.mod.{name}>`" for name in [*TARGET.values(), "stay"])
    + "\n"
)


def mod_b(*classes: str) -> str:
    text = MOD_A
    for kind in classes:
        old, new = EDITS[kind]
        assert old in text
        text = text.replace(old, new)
    return text


@pytest.fixture
def locked_at_a(upstream: Upstream, book: Book) -> tuple[Upstream, Book, str]:
    """The book locked at commit A (its tree then in the cache); the upstream ready for commit B."""
    upstream.write("pkg/__init__.py", "# pkg\n")
    upstream.write("pkg/mod.py", MOD_A)
    sha_a = upstream.commit("A")
    book.repos = {"up": {"url": upstream.url, "commit": sha_a, "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    book.page("index", PAGE)
    assert book.build().returncode == 0
    return upstream, book, sha_a


def bump(upstream: Upstream, book: Book, *classes: str) -> str:
    """Commit B with the edits of *classes*, and pin the book to it, locked."""
    upstream.write("pkg/mod.py", mod_b(*classes))
    sha_b = upstream.commit("B")
    book.repos["up"]["commit"] = sha_b
    book.write_conf(default_repo="up", locked=True)
    return sha_b


def check_json(book: Book, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    assert run_cli(book.cli("check", "--json")) == 1
    return {row["target"]: row for row in json.loads(capsys.readouterr().out)}


def lock_records(book: Book) -> dict[str, dict[str, Any]]:
    records: dict[str, dict[str, Any]] = json.loads(book.lock.read_text("utf-8"))["anchors"]["up"]
    return records


@pytest.mark.parametrize("kind", list(EDITS))
def test_each_class_in_the_warning_check_json_and_report(
    locked_at_a: tuple[Upstream, Book, str], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, book, _ = locked_at_a
    bump(upstream, book, kind)
    result = book.build(assert_pass=False)
    assert result.returncode != 0  # changed still fails a locked build, whatever its class
    name = TARGET[kind]
    [warning] = [w for w in result.warnings() if f"up:pkg.mod.{name} " in w]
    assert f"WARNING: changed ({kind}): up:pkg.mod.{name} pkg/mod.py:L" in warning
    assert "do not match source-anchors.lock in this locked build" in result.stderr
    rows = check_json(book, capsys)
    assert rows[f"up:pkg.mod.{name}"]["status"] == "changed"
    assert rows[f"up:pkg.mod.{name}"]["change"] == kind
    assert rows[f"up:pkg.mod.{name}"]["message"].startswith(f"changed ({kind}): ")
    assert {row["change"] for target, row in rows.items() if target != f"up:pkg.mod.{name}"} == {
        None
    }
    report = {row["target"]: row for row in result.report()}
    assert report[f"up:pkg.mod.{name}"]["change"] == kind
    assert report["up:pkg.mod.stay"]["change"] is None


def test_old_tree_fetched_by_its_commit_when_not_cached(
    locked_at_a: tuple[Upstream, Book, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, book, _ = locked_at_a
    bump(upstream, book, "annotations")
    shutil.rmtree(book.cache)  # a clean clone: the locked commit's tree is exported again, by git
    rows = check_json(book, capsys)
    assert rows["up:pkg.mod.ann"]["change"] == "annotations"
    assert "-def ann(x: Optional[int]) -> List[str]:" in rows["up:pkg.mod.ann"]["message"]


def test_old_tree_not_available_is_code_and_says_so(
    locked_at_a: tuple[Upstream, Book, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, book, _ = locked_at_a
    bump(upstream, book, "formatting")
    lock = json.loads(book.lock.read_text("utf-8"))
    lock["anchors"]["up"]["pkg.mod.fmt"]["commit"] = "0" * 40  # a commit the upstream does not have
    book.lock.write_text(json.dumps(lock), "utf-8")
    rows = check_json(book, capsys)
    fmt = rows["up:pkg.mod.fmt"]
    assert fmt["change"] == "code"
    assert fmt["message"].split("\n")[1].startswith("old tree not available (")
    assert fmt["message"].endswith("): classed as code")


def test_a_diff_longer_than_the_cut(locked_at_a: tuple[Upstream, Book, str]) -> None:
    upstream, book, _ = locked_at_a
    bump(upstream, book, "code")
    result = book.build(assert_pass=False)
    assert (
        "… 3 more diff lines" in result.stderr
    )  # a hunk header, 7 lines out, 7 in: the warning shows 12


def test_update_accept_annotations_relocks_only_those(
    locked_at_a: tuple[Upstream, Book, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, book, sha_a = locked_at_a
    before = lock_records(book)
    sha_b = bump(upstream, book, *EDITS)
    book.page("index", PAGE + "\n{src}`new <pkg.mod.cod::return>`\n")
    assert run_cli(book.cli("update", "--accept", "annotations")) == 0
    out = capsys.readouterr().out
    assert "3 changed target(s) of other classes than annotations keep their record" in out
    after = lock_records(book)
    assert sorted(after) == sorted([*before, "pkg.mod.cod::return"])
    for name in (
        "fmt",
        "com",
        "cod",
    ):  # changed, of other classes: the record of commit A, untouched
        assert after[f"pkg.mod.{name}"] == before[f"pkg.mod.{name}"]
    ann, stay = after["pkg.mod.ann"], after["pkg.mod.stay"]
    assert ann["commit"] == sha_b and ann["sha256"] != before["pkg.mod.ann"]["sha256"]
    # Moved (byte-identical lines) and new anchors are relocked too.
    assert (stay["commit"], stay["sha256"]) == (sha_b, before["pkg.mod.stay"]["sha256"])
    assert after["pkg.mod.stay"]["start"] == before["pkg.mod.stay"]["start"] + 2
    assert after["pkg.mod.cod::return"]["commit"] == sha_b
    assert {before[name]["commit"] for name in before} == {sha_a}
    rows = check_json(book, capsys)
    assert {target: row["change"] for target, row in rows.items() if row["status"] != "ok"} == {
        "up:pkg.mod.fmt": "formatting",
        "up:pkg.mod.com": "comments",
        "up:pkg.mod.cod": "code",
    }
    # Accepting the rest settles the lock; a plain update relocks everything anyway.
    assert run_cli(book.cli("update", "--accept", "formatting,comments,code", "--json")) == 0
    assert json.loads(capsys.readouterr().out)["kept"] == []
    assert {rec["commit"] for rec in lock_records(book).values()} == {sha_b}
    assert run_cli(book.cli("check")) == 0


def test_update_accept_keeps_what_it_does_not_accept_in_json(
    locked_at_a: tuple[Upstream, Book, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, book, _ = locked_at_a
    bump(upstream, book, "code", "formatting")
    assert run_cli(book.cli("update", "--accept", "formatting", "--json")) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kept"] == ["up:pkg.mod.cod"]
    # fmt is accepted; what its new line breaks pushed down moved, and is relocked too.
    assert {c["target"] for c in data["changes"]} == {
        "up:pkg.mod.fmt",
        "up:pkg.mod.com",
        "up:pkg.mod.ann",
        "up:pkg.mod.stay",
    }
    assert {c["change"] for c in data["changes"]} == {"updated"}


@pytest.mark.parametrize("value", ["annotations,typo", "Code", ""])
def test_a_bad_accept_value_is_one_line_and_exit_2(
    locked_at_a: tuple[Upstream, Book, str], value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, book, _ = locked_at_a
    before = book.lock.read_text("utf-8")
    assert run_cli(book.cli("update", "--accept", value)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: --accept {value!r}: ")
    assert err.rstrip("\n").endswith("; valid: formatting, comments, annotations, code")
    assert book.lock.read_text("utf-8") == before


def test_check_groups_changed_targets_by_class_code_first(
    locked_at_a: tuple[Upstream, Book, str], capsys: pytest.CaptureFixture[str]
) -> None:
    upstream, book, _ = locked_at_a
    sha_b = bump(upstream, book, *EDITS)
    assert run_cli(book.cli("check")) == 1
    out = capsys.readouterr().out
    headings = [line for line in out.splitlines() if line.startswith("changed (")]
    assert headings == [
        f"changed ({kind}): 1 target, 1 anchor"
        for kind in ("code", "annotations", "comments", "formatting")
    ]
    assert out.index("moved    up:pkg.mod.stay") < out.index(headings[0])
    assert out.splitlines()[-1].endswith(
        "; changed targets by class: 1 code, 1 annotations, 1 comments, 1 formatting"
    )
    assert "… 3 more diff lines" in out  # the text output keeps the warning's cut
    assert run_cli(book.cli("check", "--markdown")) == 1
    md = capsys.readouterr().out
    sections = [line for line in md.splitlines() if line.startswith("### ")]
    assert sections == [
        "### changed (code): 1 target, 1 anchor",
        "### changed (annotations): 1 target, 1 anchor",
        "### changed (comments): 1 target, 1 anchor",
        "### changed (formatting): 1 target, 1 anchor",
        "### index",
    ]
    code = md.split("### changed (code)")[1].split("###")[0]
    assert (
        code.count("\n  -    ") == 7 and code.count("\n  +    ") == 7
    )  # the whole diff, not cut at 12
    assert "more diff lines" not in md
    assert "- [ ] **changed (annotations)** `up:pkg.mod.ann`: pkg/mod.py:L" in md
    assert "(index line 7 «ann»)" in md
    assert "- [ ] **moved** line 11 «stay»" in md.split("### index")[1]
    assert sha_b[:7] not in md.split("\n", 1)[0]  # no --pin: the title names the current pins
