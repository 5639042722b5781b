"""Real Sphinx builds of small books against git repositories made by the tests."""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from pathlib import Path

import pytest
from helpers import ROOTS, Book, SharedUpstream, Upstream, run_cli

#: The session upstream's trees (tests/roots/upstream/build-*): v1; v2, where alpha moved down by
#: three lines (same text) and beta's elif changed; "pushed", v1 one line further down.
ROOTS_UP = ROOTS / "upstream"
MOD_V1 = (ROOTS_UP / "build-v1" / "pkg" / "mod.py").read_text("utf-8")
MOD_V2 = (ROOTS_UP / "build-v2" / "pkg" / "mod.py").read_text("utf-8")
PAGE = (ROOTS / "test-build" / "index.md").read_text("utf-8")


def line(text: str, needle: str) -> int:
    """1-based line of *needle* in *text* as written to disk (dedented, leading newline dropped)."""
    for number, content in enumerate(text.lstrip("\n").splitlines(), start=1):
        if needle in content:
            return number
    raise AssertionError(needle)


Project = tuple[SharedUpstream, Book, str]


@pytest.fixture
def project(shared_upstream: SharedUpstream, book: Book) -> Project:
    """The book of tests/roots/test-build pinned to the session upstream's build-v1 (read-only)."""
    sha = shared_upstream.commits["build-v1"]
    book.repos = {"up": {"url": shared_upstream.url, "commit": sha, "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    book.from_root("build")
    return shared_upstream, book, sha


def test_first_build_links_locks_and_reports(project: Project) -> None:
    _, book, sha = project
    result = book.build()
    assert result.returncode == 0, result.stderr
    assert result.warnings() == []
    report = result.report()
    assert [(r["label"], r["line"], r["status"]) for r in report] == [
        ("alpha", 3, "new"),
        ("elif", 5, "new"),
        ("delta", 5, "new"),
        ("beta as a card", 7, "new"),
    ]
    alpha = report[0]
    start, end = line(MOD_V1, "def alpha"), line(MOD_V1, "return x + 1")
    assert (alpha["path"], alpha["start"], alpha["end"]) == ("pkg/mod.py", start, end)
    assert alpha["permalink"] == f"{book.repos['up']['url']}/blob/{sha}/pkg/mod.py#L{start}-L{end}"
    elif_ = report[1]
    assert (elif_["start"], elif_["end"]) == (
        line(MOD_V1, "elif y == 1"),
        line(MOD_V1, 'return "one"'),
    )
    card = report[3]
    assert card["start"] == line(MOD_V1, "@functools.lru_cache")  # decorators included
    lock = json.loads(book.lock.read_text("utf-8"))
    assert sorted(lock["anchors"]["up"]) == [
        "pkg.mod.Gamma.delta",
        "pkg.mod.alpha",
        "pkg.mod.beta",
        "pkg.mod.beta::elif y ==",
    ]
    # A plain definition is parsed from its own module alone; the package's __init__ is read (not
    # parsed) to know that no member 'mod' shadows the submodule, so the record names it ('uses').
    assert set(lock["anchors"]["up"]["pkg.mod.alpha"]) == {
        "commit",
        "path",
        "start",
        "end",
        "sha256",
        "blob",
        "uses",
    }
    assert set(lock["anchors"]["up"]["pkg.mod.alpha"]["uses"]) == {"pkg/__init__.py"}
    html = (result.outdir / "index.html").read_text("utf-8")
    assert f'href="{alpha["permalink"]}"' in html
    assert f"up · pkg/mod.py:L{start}–L{end} &#64; {sha[:7]}" in html  # tooltip
    assert "return x + 1" not in html  # links, never reproduces


def test_pin_bump_fails_naming_moved_and_changed_then_relock_passes(project: Project) -> None:
    upstream, book, _ = project
    assert book.build().returncode == 0
    sha2 = upstream.commits["build-v2"]  # pkg/mod.py is MOD_V2 there
    book.repos["up"]["commit"] = sha2
    book.write_conf(default_repo="up")
    result = book.build(assert_pass=False)
    assert result.returncode != 0
    a1, a2 = line(MOD_V1, "def alpha"), line(MOD_V1, "return x + 1")
    b1, b2 = line(MOD_V2, "def alpha"), line(MOD_V2, "return x + 1")
    e1, e2 = line(MOD_V1, "elif y == 1"), line(MOD_V1, 'return "one"')
    f1, f2 = line(MOD_V2, "elif y == 2"), line(MOD_V2, 'return "two"')
    warnings = result.warnings()
    assert warnings[0] == (
        f"index.md:3: WARNING: moved: up:pkg.mod.alpha pkg/mod.py:L{a1}–L{a2} → "
        f"pkg/mod.py:L{b1}–L{b2} [source-anchors.moved]"
    )
    assert warnings[1] == (
        f"index.md:5: WARNING: changed (code): up:pkg.mod.beta::elif y == pkg/mod.py:L{e1}–L{e2} → "
        f"pkg/mod.py:L{f1}–L{f2}"
    )
    # The previously pinned tree is in the cache, so the message carries a short diff.
    assert "-    elif y == 1:" in result.stderr and "+    elif y == 2:" in result.stderr
    # beta (the card) changed too: it holds the elif; delta only moved.
    moved_or_changed = {w.split("WARNING: ")[1].split(":")[0] for w in warnings}
    assert moved_or_changed == {"moved", "changed (code)"}
    assert sum("up:pkg.mod.alpha " in w for w in warnings) == 1
    assert run_cli(book.cli("update")) == 0
    lock = json.loads(book.lock.read_text("utf-8"))
    assert {rec["commit"] for rec in lock["anchors"]["up"].values()} == {sha2}
    again = book.build(fresh=True)
    assert again.returncode == 0, again.stderr
    assert {r["status"] for r in again.report()} == {"ok"}


def test_missing_names_closest_and_beats_new(project: Project) -> None:
    _, book, _ = project
    book.page(
        "index", "# P\n\nSee {src}`typo <pkg.mod.alpah>` and {src}`many <pkg.mod.beta::return>`.\n"
    )
    result = book.build(strict=False)
    warnings = result.warnings()
    assert warnings[0] == (
        "index.md:3: WARNING: missing: up:pkg.mod.alpah: pkg.mod has no member 'alpah'; "
        "closest: pkg.mod.alpha [source-anchors.missing]"
    )
    assert "occurs on 3 lines" in warnings[1] and "[source-anchors.missing]" in warnings[1]
    assert {r["status"] for r in result.report()} == {"missing"}
    assert not book.lock.exists()  # nothing to lock


def test_locked_mode_treats_new_as_error(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    _, book, _ = project
    monkeypatch.setenv("CI", "true")  # read on config-inited, as in a new sphinx-build process
    result = book.build(assert_pass=False)
    monkeypatch.delenv("CI")
    assert result.returncode != 0
    assert "not in source-anchors.lock and this build is locked" in result.stderr
    assert "[source-anchors.new]" in result.stderr
    assert not book.lock.exists()
    book.write_conf(default_repo="up", locked=True)
    assert book.build(assert_pass=False).returncode != 0
    book.write_conf(default_repo="up")
    assert book.build().returncode == 0
    monkeypatch.setenv("CI", "true")
    assert book.build(fresh=True).returncode == 0


def test_suppress_warnings_selects_one_subtype(project: Project) -> None:
    upstream, book, _ = project
    assert book.build().returncode == 0
    assert upstream.text("build-pushed", "pkg/mod.py") == "# pushed\n" + MOD_V1.lstrip("\n")
    book.repos["up"]["commit"] = upstream.commits["build-pushed"]
    book.settings["suppress_warnings"] = ["source-anchors.moved"]
    book.write_conf(default_repo="up")
    result = book.build()
    assert result.returncode == 0, result.stderr
    assert {r["status"] for r in result.report()} == {"moved"}


def test_two_repositories_on_two_pages_and_two_pins_of_one(tmp_path: Path, book: Book) -> None:
    one, two = Upstream(tmp_path / "one"), Upstream(tmp_path / "two")
    one.write("alpha/__init__.py", "def f():\n    return 1\n")
    two.write("src/beta/__init__.py", "X = 1\n\ndef g():\n    return 2\n")
    sha_one_a = one.commit()
    one.write("alpha/__init__.py", "# moved\n\ndef f():\n    return 1\n")
    sha_one_b = one.commit()
    sha_two = two.commit()
    book.repos = {
        "one": {"url": one.url, "commit": sha_one_a, "packages": ["alpha"]},
        "one-next": {"url": one.url, "commit": sha_one_b, "packages": ["alpha"]},
        "two": {"url": two.url, "commit": sha_two, "packages": ["src/beta"]},
    }
    book.write_conf(default_repo="one")
    book.page(
        "index",
        "# A\n\n{src}`f <alpha.f>` {src}`f next <one-next:alpha.f>`\n\n```{toctree}\nb\n```\n",
    )
    book.page("b", "---\nsource-repo: two\n---\n# B\n\n{src}`g <beta.g>`\n")
    result = book.build()
    assert result.returncode == 0, result.stderr
    rows = {r["label"]: r for r in result.report()}
    assert (rows["f"]["start"], rows["f next"]["start"]) == (1, 3)
    assert rows["f next"]["commit"] == sha_one_b
    assert (rows["g"]["repo"], rows["g"]["path"], rows["g"]["start"]) == (
        "two",
        "src/beta/__init__.py",
        3,
    )


def _seven_pages(book: Book) -> None:
    """The index and six pages that cite pkg.mod, with the lock recorded by a first (in-process) build.

    sphinx.testing builds in-process with the theme 'basic' where alabaster is the default: every
    build here uses it, so that the in-process build can be compared with sphinx-build's.
    """
    book.settings = {"html_theme": "basic"}
    book.write_conf(default_repo="up")
    for index in range(6):
        book.page(
            f"p{index}",
            f"# P{index}\n\n{{src}}`a{index} <pkg.mod.alpha>` {{src}}`d <pkg.mod.Gamma.delta>`\n",
        )
    toc = "\n".join(f"p{index}" for index in range(6))
    book.page("index", PAGE + f"\n```{{toctree}}\n{toc}\n```\n")
    assert book.build(out="settle").returncode == 0  # the first build records the lock


def test_parallel_build_matches_serial(project: Project) -> None:
    _, book, _ = project
    _seven_pages(book)
    # -j 2 forks Sphinx's reader processes: both builds run as sphinx-build does, in a subprocess.
    serial = book.build_subprocess("-W", "-j", "1", out="serial")
    parallel = book.build_subprocess("-W", "-j", "2", out="parallel")
    assert serial.returncode == 0 and parallel.returncode == 0, parallel.stderr
    assert serial.report() == parallel.report()
    assert len(serial.report()) == 16
    for name in ["index", *[f"p{i}" for i in range(6)]]:
        body = [
            (out / f"{name}.html").read_text("utf-8").split('<div class="body"', 1)[-1]
            for out in (serial.outdir, parallel.outdir)
        ]
        assert body[0] == body[1]
    # The in-process builds of the tests share compiled templates (helpers._SharedTemplates): what
    # they write must be what sphinx-build writes, page for page and static file for static file.
    assert book.build(out="again").returncode == 0
    in_process = book.build(out="in-process")
    written = {
        path.relative_to(serial.outdir): path
        for path in serial.outdir.rglob("*")
        if path.is_file() and path.relative_to(serial.outdir).parts[0] != ".doctrees"
    }  # sphinx-build's -d
    got = {p.relative_to(in_process.outdir) for p in in_process.outdir.rglob("*") if p.is_file()}
    assert got == set(written), (
        sorted(map(str, got - set(written))),
        sorted(map(str, set(written) - got)),
    )
    differ = [
        str(rel)
        for rel, path in written.items()
        if path.read_bytes() != (in_process.outdir / rel).read_bytes()
    ]
    if differ:  # say how: the first lines that differ of .buildinfo and of one page
        import difflib

        shown = [
            rel for rel in (".buildinfo", next((d for d in differ if d.endswith(".html")), ""))
        ]
        detail = [
            "\n".join(
                difflib.unified_diff(
                    written[Path(rel)].read_text("utf-8", "replace").splitlines(),
                    (in_process.outdir / rel).read_text("utf-8", "replace").splitlines(),
                    "sphinx-build/" + rel,
                    "in-process/" + rel,
                    lineterm="",
                    n=0,
                )
            )[:3000]
            for rel in shown
            if rel in differ
        ]
        raise AssertionError(f"{differ}\n" + "\n".join(detail))


def test_incremental_rereads_only_the_edited_page_but_rechecks_on_lock_change(
    project: Project,
) -> None:
    _, book, _ = project
    book.page("other", "# O\n\n{src}`d <pkg.mod.Gamma.delta>`\n")
    book.page("index", PAGE + "\n```{toctree}\nother\n```\n")
    assert book.build().returncode == 0
    assert book.build().returncode == 0  # lock now complete: a settled state
    book.page("other", "# O\n\nEdited. {src}`d <pkg.mod.Gamma.delta>`\n")
    result = book.build()
    assert result.returncode == 0
    read = re.findall(r"reading sources\.\.\. \[\s*\d+%\] (\S+)", result.stdout)
    assert read == ["other"]
    # A hand-edited lock must re-check every page: an incremental build never passes where a full
    # one fails.
    lock = json.loads(book.lock.read_text("utf-8"))
    lock["anchors"]["up"]["pkg.mod.alpha"]["start"] += 1
    lock["anchors"]["up"]["pkg.mod.alpha"]["end"] += 1
    book.lock.write_text(json.dumps(lock), "utf-8")
    result = book.build(assert_pass=False)
    assert result.returncode != 0
    assert "moved: up:pkg.mod.alpha" in result.stderr


def test_bad_targets_give_one_located_warning_each(project: Project) -> None:
    _, book, _ = project
    book.page(
        "index",
        "# P\n\nA {src}`x <pkg..mod>`.\n\nB {src}`y <pkg.mod.alpha::>`.\n\nC {src}`z <nope:pkg.mod>`.\n",
    )
    result = book.build(strict=False)
    warnings = result.warnings()
    assert len(warnings) == 3, result.stderr
    assert warnings[0].startswith("index.md:3: WARNING: invalid dotted path 'pkg..mod'")
    assert warnings[1].startswith("index.md:5: WARNING: nothing after '::'")
    assert warnings[2].startswith("index.md:7: WARNING: unknown repository 'nope'")
    assert all(w.endswith("[source-anchors.target]") for w in warnings)
    assert "Traceback" not in result.stderr


def test_an_anchor_in_the_other_markup_is_one_located_warning_that_says_how_to_write_it(
    project: Project,
) -> None:
    """Neither MyST nor docutils warns about the other one's role syntax: the page would build green unlinked."""
    _, book, _ = project
    myst = """\
        # P

        The rST role by mistake: :src:`alpha <pkg.mod.alpha>`, and
        on the next line of the paragraph (:src:`delta <pkg.mod.Gamma.delta>`).

        .. source-anchor:: pkg.mod.beta
           :caption: beta

        Quoted as code, no warning: `:src:` and ``:src:`x <y>` ``; a real one: {src}`alpha <pkg.mod.alpha>`.

        ```{toctree}
        other
        ```
        """
    book.page("index", myst)
    rst = (
        "Other\n=====\n\nThe MyST role by mistake: {src}`alpha <pkg.mod.alpha>`.\n\n"
        "Quoted: ``{src}`x <y>```; a real one: :src:`delta <pkg.mod.Gamma.delta>`.\n"
    )
    (book.root / "other.rst").write_text(rst, "utf-8")
    result = book.build(strict=False)
    warnings = result.warnings()
    text = textwrap.dedent(myst)
    assert warnings == [
        f"index.md:{line(text, ':src:`alpha')}: WARNING: ':src:`alpha <pkg.mod.alpha>`' is the reStructuredText form "
        "of an anchor, which this Markdown (MyST) page shows as text: write {src}`alpha <pkg.mod.alpha>` "
        "[source-anchors.target]",
        f"index.md:{line(text, ':src:`delta')}: WARNING: ':src:`delta <pkg.mod.Gamma.delta>`' is the reStructuredText "
        "form of an anchor, which this Markdown (MyST) page shows as text: write {src}`delta <pkg.mod.Gamma.delta>` "
        "[source-anchors.target]",
        f"index.md:{line(text, '.. source-anchor::')}: WARNING: '.. source-anchor:: pkg.mod.beta' is the "
        "reStructuredText form of the block anchor, which this Markdown (MyST) page shows as text: open a fence "
        "with ```{source-anchor} pkg.mod.beta, put its options (:caption: …) below and close it with ``` "
        "[source-anchors.target]",
        "other.rst:4: WARNING: '{src}`alpha <pkg.mod.alpha>`' is the MyST form of an anchor, which this "
        "reStructuredText page shows as text: write :src:`alpha <pkg.mod.alpha>` [source-anchors.target]",
    ], result.stderr
    # The anchors written in each page's own syntax still link; the others are not anchors.
    assert result.html("index").count('class="sa-anchor') == 1
    assert result.html("other").count('class="sa-anchor') == 1
    assert book.build(assert_pass=False).returncode == 1  # -W fails on them


def test_a_commit_the_remote_does_not_have_is_named_as_such(project: Project) -> None:
    _, book, _ = project
    absent = "1234567890abcdef1234567890abcdef12345678"
    book.repos["up"]["commit"] = absent
    book.write_conf(default_repo="up")
    result = book.build(strict=False)
    [warning] = result.warnings()
    assert (
        f"git: the remote has no commit {absent}: a commit of another repository, a typo, or not pushed yet? "
        "(git: not our ref)" in warning
    ), warning
    assert warning.endswith("[source-anchors.source]") and "Traceback" not in result.stderr


def test_bad_config_and_bad_lock_are_clear_errors(project: Project) -> None:
    _, book, _ = project
    book.repos["up"]["commit"] = "main"
    book.write_conf(default_repo="up")
    # The extension logs the error and stops with SystemExit(2) on config-inited (sphinx-build's
    # exit 2).
    with pytest.raises(SystemExit) as stopped:
        book.build(strict=False)
    stderr = book.last_warnings.getvalue()
    assert stopped.value.code != 0
    assert "source_anchors_repos['up']['commit']: 'main' is not a full 40-hex" in stderr
    assert "Traceback" not in stderr
    book.repos["up"]["commit"] = project[2]
    book.write_conf(default_repo="up")
    book.lock.write_text('{\n  "version": 1,\n  "anchors": {\n', "utf-8")
    with pytest.raises(SystemExit) as stopped:
        book.build(strict=False)
    stderr = book.last_warnings.getvalue()
    assert stopped.value.code != 0
    assert "source-anchors.lock:4: the lock is not valid JSON" in stderr
    assert "Traceback" not in stderr
    assert (
        book.lock.read_text("utf-8") == '{\n  "version": 1,\n  "anchors": {\n'
    )  # never overwritten


def test_cli_check_and_update(project: Project, capsys: pytest.CaptureFixture[str]) -> None:
    upstream, book, _ = project
    assert run_cli(book.cli("check")) == 0
    out = capsys.readouterr().out
    assert "4 anchors: 4 new" in out
    assert run_cli(book.cli("update")) == 0
    out = capsys.readouterr().out
    assert "added    up:pkg.mod.alpha" in out
    assert run_cli(book.cli("check", "--json")) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {row["status"] for row in rows} == {"ok"}
    sha2 = upstream.commits["build-v2"]  # pkg/mod.py is MOD_V2 there
    before = book.lock.read_text("utf-8")
    conf_before = (book.root / "conf.py").read_text("utf-8")
    assert run_cli(book.cli("check", "--pin", f"up={sha2}", "--markdown")) == 1
    md = capsys.readouterr().out
    assert f"## Source anchors at up → {sha2[:7]}" in md
    assert "- [ ] **moved** line 3 «alpha»" in md
    # Changed targets come first, by class of change, each with its whole diff.
    assert md.index("### changed (code): 2 targets, 2 anchors") < md.index("### index")
    e1, e2 = line(MOD_V1, "elif y == 1"), line(MOD_V1, 'return "one"')
    f1, f2 = line(MOD_V2, "elif y == 2"), line(MOD_V2, 'return "two"')
    assert (
        f"- [ ] **changed (code)** `up:pkg.mod.beta::elif y ==`: pkg/mod.py:L{e1}–L{e2} → "
        f"pkg/mod.py:L{f1}–L{f2} (index line 5 «elif»)\n  ```diff\n"
    ) in md
    assert "+    elif y == 2:" in md
    assert "**changed** line" not in md  # not listed again under its page
    assert "- [ ] **moved** line 5 «delta»" in md  # pushed down with the rest of the file
    assert book.lock.read_text("utf-8") == before
    assert (book.root / "conf.py").read_text("utf-8") == conf_before
    # update prunes records that no page cites.
    book.page("index", "# P\n\n{src}`alpha <pkg.mod.alpha>`\n")
    assert run_cli(book.cli("update")) == 0
    assert "pruned   up:pkg.mod.beta" in capsys.readouterr().out
    assert list(json.loads(book.lock.read_text("utf-8"))["anchors"]["up"]) == ["pkg.mod.alpha"]


def test_cli_update_locks_the_rest_and_fails_on_missing(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    _, book, _ = project
    book.page("index", "# P\n\n{src}`a <pkg.mod.alpha>` {src}`gone <pkg.mod.nothing>`\n")
    assert run_cli(book.cli("update")) == 1
    out = capsys.readouterr().out
    assert "missing  up:pkg.mod.nothing" in out
    assert list(json.loads(book.lock.read_text("utf-8"))["anchors"]["up"]) == ["pkg.mod.alpha"]


def test_cli_without_conf_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["--confdir", str(tmp_path), "check"]) == 2
    assert "no conf.py" in capsys.readouterr().err


def test_clean_clone_has_no_cache_dependency(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, book, _ = project
    assert book.build().returncode == 0
    shutil.rmtree(book.cache)
    monkeypatch.setenv("CI", "true")
    assert book.build(fresh=True).returncode == 0


def test_warm_build_parses_no_upstream_module(project: Project) -> None:
    _, book, _ = project
    cold = book.build()
    assert cold.returncode == 0, cold.stderr
    stats = json.loads((cold.outdir / "source-anchors.stats.json").read_text("utf-8"))
    assert stats == {
        "ast_parses": 1,
        "cached": 0,
        "files_read": 2,
        "modules_parsed": 1,
        "parses": 1,
        "resolved": 4,
    }  # pkg/mod.py parsed alone; pkg/__init__.py read too (what 'pkg' binds)
    warm = book.build(fresh=True)
    assert warm.returncode == 0, warm.stderr
    stats = json.loads((warm.outdir / "source-anchors.stats.json").read_text("utf-8"))
    assert stats == {
        "ast_parses": 0,
        "cached": 4,
        "files_read": 0,
        "modules_parsed": 0,
        "parses": 0,
        "resolved": 0,
    }
    assert [r["status"] for r in warm.report()] == ["ok"] * 4
    # Editing one page re-resolves only its anchors; a new target is resolved, the rest come from
    # the cache, and so does the index of pkg/mod.py, stored by the first build: nothing is parsed.
    book.page("index", PAGE + "\nAnd {src}`gamma <pkg.mod.Gamma>`.\n")
    edited = book.build()
    stats = json.loads((edited.outdir / "source-anchors.stats.json").read_text("utf-8"))
    assert stats == {
        "ast_parses": 0,
        "cached": 4,
        "files_read": 2,  # the new target's lines are read and hashed; no file is parsed
        "modules_parsed": 0,
        "parses": 0,
        "resolved": 1,
    }


def test_a_parallel_builds_readers_store_the_modules_they_parse(project: Project) -> None:
    """Readers are processes of their own: each stores its module indexes, and the next build parses none."""
    _, book, _ = project
    _seven_pages(book)
    for folder in ("indexes", "resolutions"):
        shutil.rmtree(book.cache / folder)
    parallel = book.build_subprocess("-W", "-j", "2", out="parallel")
    assert parallel.returncode == 0, parallel.stderr
    assert (
        json.loads((parallel.outdir / "source-anchors.stats.json").read_text("utf-8"))[
            "modules_parsed"
        ]
        >= 1
    )
    assert [
        line
        for pack in (book.cache / "indexes").glob("*.jsonl")
        for line in pack.read_text("utf-8").splitlines()
    ]
    shutil.rmtree(book.cache / "resolutions")
    again = book.build_subprocess("-W", "-j", "2", "-E", out="again")
    assert again.returncode == 0, again.stderr
    stats = json.loads((again.outdir / "source-anchors.stats.json").read_text("utf-8"))
    assert stats["resolved"] >= 2 and (stats["modules_parsed"], stats["ast_parses"]) == (0, 0)
    assert again.report() == parallel.report()


def test_preview_marks_drift_in_place(project: Project) -> None:
    upstream, book, _ = project
    assert book.build().returncode == 0
    book.repos["up"]["commit"] = upstream.commits["build-v2"]  # pkg/mod.py is MOD_V2 there
    book.write_conf(default_repo="up")
    result = book.build(
        strict=False
    )  # the preview: not strict, so it completes and shows what drifted
    assert result.returncode == 0
    html = (result.outdir / "index.html").read_text("utf-8")
    alpha = re.search(r'<a class="sa-anchor sa-moved[^"]*"[^>]*title="([^"]*)"', html)
    assert alpha is not None and alpha.group(1).endswith(" · moved")
    assert re.search(r'<a class="sa-anchor sa-changed[^"]*"[^>]*title="[^"]* · changed"', html)
    assert 'class="sa-card sa-changed' in html  # the card holds the changed elif


def test_rendered_chip_and_card_snapshot(project: Project) -> None:
    _, book, sha = project
    result = book.build()
    html = (
        (result.outdir / "index.html")
        .read_text("utf-8")
        .replace(sha, "<SHA>")
        .replace(sha[:7], "<SHORT>")
    )
    url = str(book.repos["up"]["url"])
    html = html.replace(url, "<URL>")
    start, end = line(MOD_V1, "def alpha"), line(MOD_V1, "return x + 1")
    chip = re.search(r'<a class="sa-anchor.*?</a>', html)
    assert chip is not None
    assert chip.group(0) == (
        f'<a class="sa-anchor sa-new reference external" href="<URL>/blob/<SHA>/pkg/mod.py#L{start}-L{end}" '
        f'id="sa-1" title="up · pkg/mod.py:L{start}–L{end} &#64; <SHORT>"><span class="sa-label">alpha</span>'
        f'<span class="sa-where">pkg/mod.py:L{start}–L{end}&#64;<SHORT></span></a>'
    )
    card = re.search(r'<div class="sa-card.*?</div>', html, re.S)
    assert card is not None
    b1, b2 = line(MOD_V1, "@functools.lru_cache"), line(MOD_V1, 'return "small"')
    assert card.group(0) == (
        '<div class="sa-card sa-new docutils container" id="sa-4">\n'
        f'<p class="sa-card-title"><a class="reference external" href="<URL>/blob/<SHA>/pkg/mod.py#L{b1}-L{b2}" '
        f'title="up · pkg/mod.py:L{b1}–L{b2} &#64; <SHORT>">beta as a card</a></p>\n'
        '<p class="sa-card-meta"><code class="docutils literal notranslate"><span class="pre">up&#64;<SHORT></span>'
        '</code> · <code class="docutils literal notranslate"><span class="pre">'
        f"pkg/mod.py:L{b1}–L{b2}</span></code></p>\n</div>"
    )
