"""CI annotations (``check --format``) and the bump bot (``bump NAME --latest``), issue 31.

The upstream is a git repository made here with release tags; the book pins its first release and
locks it. Release 2.0.0 moves every definition down, reformats one, changes one's code and another's
comment, renames one and removes one. Nothing of git or Sphinx is mocked.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest
from helpers import ROOT, Book, Upstream, git, run_cli

V1 = """\
def alpha(x):
    return x + 1


def beta(items):
    total = 0
    for item in items:
        total += item * 2
    return total


def gamma(z):
    return z * 2


def delta(w):
    # the identity
    return w


def epsilon():
    return "gone soon"


def zeta(a, b):
    return a + b
"""
V2 = """\
# release 2


def alpha(x):
    return x + 1


def beta2(items):
    total = 0
    for item in items:
        total += item * 2
    return total


def gamma(z):
    return z * 3


def delta(w):
    # the identity, unchanged
    return w


def zeta(a,
         b):
    return a + b
"""
PAGE = """\
# Page

Line three.

{src}`alpha <pkg.mod.alpha>`, {src}`beta <pkg.mod.beta>`,
{src}`gamma <pkg.mod.gamma>`, {src}`delta <pkg.mod.delta>`,
{src}`epsilon <pkg.mod.epsilon>` and {src}`zeta <pkg.mod.zeta>`.
"""
SARIF_SCHEMA = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"


class Released:
    """An upstream with tags v1.0.0 (pinned), 'nightly' (no version), v2.0.0 and v3.0.0rc1 (a pre-release)."""

    def __init__(self, upstream: Upstream, book: Book) -> None:
        self.upstream, self.book = upstream, book
        upstream.write("pkg/__init__.py", '"""Pkg."""\n')
        upstream.write("pkg/mod.py", V1)
        self.v1 = upstream.commit("v1", tag="v1.0.0")
        upstream.write("pkg/mod.py", V2)
        self.v2 = upstream.commit("v2")
        git("tag", "-a", "v2.0.0", "-m", "release 2.0.0", cwd=upstream.path)
        upstream.write("pkg/extra.py", "X = 1\n")
        self.rc = upstream.commit("rc", tag="v3.0.0rc1")
        self.nightly = upstream.commit("nightly", tag="nightly")
        book.page("index", PAGE)
        book.repos = {
            "up": {"url": upstream.url, "commit": self.v1, "ref": "v1.0.0", "packages": ["pkg"]}
        }
        book.write_conf(default_repo="up")


@pytest.fixture
def released(upstream: Upstream, book: Book, monkeypatch: pytest.MonkeyPatch) -> Released:
    made = Released(upstream, book)
    assert run_cli(book.cli("update")) == 0
    monkeypatch.chdir(
        book.root
    )  # CI runs the check at the repository's root: paths are relative to it
    return made


def _check(released: Released, capsys: pytest.CaptureFixture[str], fmt: str) -> str:
    capsys.readouterr()
    assert run_cli(released.book.cli("check", "--pin", "up=v2.0.0", "--format", fmt)) == 1
    return capsys.readouterr().out


# -- annotations
# -------------------------------------------------------------------------------------


def test_github_commands_sit_on_the_page_lines(
    released: Released, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _check(released, capsys, "github").splitlines()
    titles = [
        re.search(r"title=source-anchors%3A \S+(?: \(\w+\))? (up%3Apkg\.mod\.\w+)", line)
        for line in out
    ]
    by_target = {match[1]: line for match, line in zip(titles, out, strict=True) if match}
    assert len(by_target) == len(out)
    assert set(by_target) == {
        f"up%3Apkg.mod.{name}" for name in ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")
    }
    assert by_target["up%3Apkg.mod.alpha"].startswith(
        "::warning file=index.md,line=5,title=source-anchors%3A moved "
    )
    assert by_target["up%3Apkg.mod.gamma"].startswith(
        "::error file=index.md,line=6,title=source-anchors%3A changed (code) "
    )
    assert by_target["up%3Apkg.mod.delta"].startswith("::warning file=index.md,line=6,")
    assert by_target["up%3Apkg.mod.epsilon"].startswith(
        "::error file=index.md,line=7,title=source-anchors%3A missing"
    )
    # The message is one line for the runner: newlines escaped; the suggestion and the diff in it.
    assert "pkg.mod.beta2" in by_target["up%3Apkg.mod.beta"]
    gamma = by_target["up%3Apkg.mod.gamma"]
    assert "%0A-    return z * 2%0A+    return z * 3%0A(written as «gamma»)" in gamma


def test_a_clean_check_prints_no_annotation(
    released: Released, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert run_cli(released.book.cli("check", "--format", "github")) == 0
    assert capsys.readouterr().out == ""


def test_gitlab_code_quality_report(released: Released, capsys: pytest.CaptureFixture[str]) -> None:
    issues = json.loads(_check(released, capsys, "gitlab"))
    assert len(issues) == 6
    assert {i["location"]["path"] for i in issues} == {"index.md"}
    assert sorted(i["location"]["lines"]["begin"] for i in issues) == [5, 5, 6, 6, 7, 7]
    assert {i["check_name"] for i in issues} == {
        "source-anchors/moved",
        "source-anchors/changed",
        "source-anchors/missing",
    }
    assert {i["severity"] for i in issues} == {"major", "minor"}
    assert len({i["fingerprint"] for i in issues}) == 6  # GitLab deduplicates issues by fingerprint
    again = json.loads(_check(released, capsys, "gitlab"))
    assert [i["fingerprint"] for i in again] == [i["fingerprint"] for i in issues]


def test_sarif_validates_against_the_sarif_2_1_0_schema(
    released: Released, capsys: pytest.CaptureFixture[str]
) -> None:
    log = json.loads(_check(released, capsys, "sarif"))
    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    jsonschema.validate(log, schema, cls=jsonschema.Draft7Validator)
    results = log["runs"][0]["results"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert len(results) == 6
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "index.md"
    missing = [r for r in results if r["ruleId"] == "source-anchors/missing"]
    assert {r["properties"]["target"] for r in missing} == {"up:pkg.mod.beta", "up:pkg.mod.epsilon"}
    # The schema is strict: a result without its message is refused (the validation can fail).
    del results[0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(log, schema, cls=jsonschema.Draft7Validator)


def test_paths_are_relative_to_the_current_directory(
    released: Released, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(released.book.root.parent)
    out = _check(released, capsys, "github")
    assert f"file={released.book.root.name}/index.md,line=5," in out


def test_check_json_format_is_the_json_listing(
    released: Released, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = json.loads(_check(released, capsys, "json"))
    assert len(rows) == 6 and {r["status"] for r in rows} == {"moved", "changed", "missing"}


def test_check_of_some_pages_reports_only_theirs(
    released: Released, capsys: pytest.CaptureFixture[str]
) -> None:
    released.book.page("other", "# Other\n\n{src}`gamma <pkg.mod.gamma>`\n")
    (released.book.root / "index.md").write_text(PAGE + "\n```{toctree}\nother\n```\n", "utf-8")
    assert run_cli(released.book.cli("update")) == 0
    capsys.readouterr()
    assert (
        run_cli(released.book.cli("check", "--pin", "up=v2.0.0", "--format", "github", "other.md"))
        == 1
    )
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("::error file=other.md,line=3,")
    assert (
        run_cli(released.book.cli("check", "--pin", "up=v2.0.0", "README.md")) == 0
    )  # no page of the book


# -- the bump bot
# ------------------------------------------------------------------------------------


def test_latest_picks_the_newest_release_not_the_pre_release(
    released: Released, capsys: pytest.CaptureFixture[str]
) -> None:
    conf = (released.book.root / "conf.py").read_text("utf-8")
    assert run_cli(released.book.cli("bump", "up", "--latest")) == 1
    out = capsys.readouterr().out
    assert f"up: newest release v2.0.0 is {released.v2}" in out
    assert (released.book.root / "conf.py").read_text("utf-8") == conf  # a preview writes nothing
    assert run_cli(released.book.cli("bump", "up", "--latest", "--pre")) == 1
    assert f"up: newest release v3.0.0rc1 is {released.rc}" in capsys.readouterr().out


def test_latest_write_moves_the_pin_fixes_relocks_and_explains(
    released: Released, capsys: pytest.CaptureFixture[str]
) -> None:
    body = released.book.root / "pr.md"
    lock_before = released.book.lock.read_text("utf-8")
    assert run_cli(released.book.cli("bump", "up", "--latest", "--write", "--body", str(body))) == 1
    conf = (released.book.root / "conf.py").read_text("utf-8")
    assert released.v2 in conf and released.v1 not in conf and "'ref': 'v2.0.0'" in conf
    page = (released.book.root / "index.md").read_text("utf-8")
    assert "{src}`beta <pkg.mod.beta2>`" in page  # fixed to its suggestion
    assert "pkg.mod.epsilon" in page  # no suggestion: left for a human
    lock = json.loads(released.book.lock.read_text("utf-8"))
    assert released.book.lock.read_text("utf-8") != lock_before
    text = json.dumps(lock)
    assert "pkg.mod.beta2" in text
    text = body.read_text("utf-8")
    assert text.startswith("## Bump `up` to v2.0.0\n")
    assert re.search(
        r"### Moved \(1\): relocked by the bump\n\n- \[x\] `up:pkg.mod.alpha` pkg/mod.py:L1–L2 → "
        r"pkg/mod.py:L4–L5",
        text,
    ), text
    assert "### Changed in code (1): needs a human" in text and "-    return z * 2" in text
    assert "### Changed in comments (1): relocked by the bump" in text
    assert "### Changed in formatting (1): relocked by the bump" in text
    assert "- [x] `up:pkg.mod.beta` rewritten to pkg.mod.beta2" in text
    assert "- [ ] `up:pkg.mod.epsilon` is gone (no suggestion" in text
    needs = text.split("### Needs a human", 1)[1]
    assert (
        "`up:pkg.mod.gamma`: changed (code)" in needs and "`up:pkg.mod.epsilon`: missing" in needs
    )
    assert (
        "alpha" not in needs
        and "delta" not in needs
        and "zeta" not in needs
        and "beta" not in needs
    )
    # What is left is exactly what a strict check still fails on.
    capsys.readouterr()
    assert run_cli(released.book.cli("check", "--format", "json")) == 1
    failing = {r["target"] for r in json.loads(capsys.readouterr().out) if r["status"] != "ok"}
    assert failing == {"up:pkg.mod.gamma", "up:pkg.mod.epsilon"}


def test_latest_when_already_there_and_without_releases(
    released: Released, upstream: Upstream, capsys: pytest.CaptureFixture[str]
) -> None:
    git("tag", "-d", "v2.0.0", cwd=upstream.path)
    git("tag", "-d", "v3.0.0rc1", cwd=upstream.path)
    assert run_cli(released.book.cli("bump", "up", "--latest", "--write", "--body", "-")) == 0
    assert "up is already at v1.0.0; nothing to do" in capsys.readouterr().out
    git("tag", "-d", "v1.0.0", cwd=upstream.path)
    assert run_cli(released.book.cli("bump", "up", "--latest")) == 2
    err = capsys.readouterr().err
    assert (
        f"error: up: no release tags (add --pre to count pre-releases) at {upstream.url} (1 tag(s) in all)"
        in err
    )
    assert run_cli(released.book.cli("bump", "up", "v1.0.0", "--latest")) == 2
    assert "give REF or --latest, not both" in capsys.readouterr().err


def test_the_schema_is_the_oasis_one() -> None:
    schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert os.path.relpath(SARIF_SCHEMA, ROOT) == os.path.join(
        "tests", "schemas", "sarif-schema-2.1.0.json"
    )


# -- the same formats from the build
# --------------------------------------------------------------------


def test_the_build_writes_sarif_and_gitlab_reports(released: Released) -> None:
    book = released.book
    for fmt, name in (
        ("sarif", "source-anchors.sarif"),
        ("gitlab", "source-anchors.codequality.json"),
    ):
        book.write_conf(default_repo="up", annotations=fmt, pin_commits={"up": released.v2})
        result = book.build(strict=False, fresh=True, out=fmt)
        data = json.loads((result.outdir / name).read_text("utf-8"))
        if fmt == "sarif":
            jsonschema.validate(
                data, json.loads(SARIF_SCHEMA.read_text("utf-8")), cls=jsonschema.Draft7Validator
            )
            assert len(data["runs"][0]["results"]) == 6
        else:
            assert sorted(i["location"]["lines"]["begin"] for i in data) == [5, 5, 6, 6, 7, 7]


def test_the_build_prints_github_commands(released: Released) -> None:
    book = released.book
    book.write_conf(default_repo="up", annotations="github", pin_commits={"up": released.v2})
    result = book.build_subprocess("-q", out="gh")
    commands = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert len(commands) == 6, result.stdout + result.stderr
    assert any(
        c.startswith(
            "::error file=index.md,line=7,title=source-anchors%3A missing up%3Apkg.mod.epsilon::"
        )
        for c in commands
    )
    book.write_conf(default_repo="up", annotations="")
    assert not [
        line
        for line in book.build_subprocess("-q", out="none").stdout.splitlines()
        if line.startswith("::")
    ]


def test_a_bad_annotations_value_is_one_located_error(released: Released) -> None:
    released.book.write_conf(default_repo="up", annotations="junit")
    result = released.book.build_subprocess("-q", out="bad")
    assert result.returncode == 2
    assert (
        "source_anchors_annotations: expected one of '', 'github', 'gitlab', 'sarif', got 'junit'"
        in result.stderr
    )
    assert "Traceback" not in result.stderr
