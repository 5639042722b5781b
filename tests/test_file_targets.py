"""Scoped matches (``target::outer::inner``) and file targets (``repo:/path[::match]``), on git repositories
made by the tests, through the Engine and the real ``file://`` fetch.

Expected lines are computed from the text each test wrote, never copied from the resolver's output.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import Book, Upstream
from source_anchors.engine.engine import Engine
from source_anchors.lock.lockfile import read_lock
from source_anchors.model.config import settings_from
from source_anchors.model.errors import TargetError
from source_anchors.model.records import Outcome
from source_anchors.model.target import Target, parse_target
from source_anchors.sources.treefiles import blob_id
from test_resolve import Repo, line_count, line_of, lines_with, make_repo

MAIN = '''\
"""A command line entry point with three identical lines."""


class ClickException(Exception):
    pass


class Abort(Exception):
    pass


def main(standalone_mode=True):
    try:
        run()
    except KeyboardInterrupt:
        if not standalone_mode:
            raise
        echo("interrupted")
    except ClickException as e:
        if not standalone_mode:
            raise
        e.show()
    except Abort:
        if not standalone_mode:
            raise
        echo("aborted")


def run():
    pass


def echo(text):
    print(text)
'''

SETUP = """\
from setuptools import setup

setup(
    name="demo",
    license="MIT",
)
"""

PYPROJECT = """\
[project]
name = "demo"
version = "1.0"
license = "MIT"
"""

LICENCE = "MIT License\n\nPermission is hereby granted, free of charge.\n"

FILES: dict[str, str | bytes] = {
    "pkg/__init__.py": "",
    "pkg/mod.py": MAIN,
    "setup.py": SETUP,
    "pyproject.toml": PYPROJECT,
    "LICENSE": LICENCE,
    "docs/guide.txt": "one\nkey: value\nkey: other\n",
    "data/logo.bin": b"\x89PNG\r\n\x1a\n\x00\x00\x00binary",
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    tmp = tmp_path_factory.mktemp("files")
    return make_repo(Upstream(tmp / "upstream"), tmp, dict(FILES))


def check(repo: Repo, text: str) -> Outcome:
    return repo.engine.check(parse_target(text, default_repo=None))


def second_clause(repo: Repo) -> tuple[int, int]:
    """The ``except ClickException`` clause's ``if`` (the second of three identical lines)."""
    start = lines_with(MAIN, "if not standalone_mode:")[1]
    assert line_of(MAIN, "except ClickException as e:") == start - 1
    return start, start + 1


# -- parsing ---------------------------------------------------------------------------------


def test_scoped_target_keeps_the_full_text_as_its_key() -> None:
    target = parse_target(
        "up:pkg.mod.main::except ClickException as e::  if not standalone_mode:", default_repo=None
    )
    assert target.match == "except ClickException as e::  if not standalone_mode:"
    assert target.matches == ("except ClickException as e", "if not standalone_mode:")
    assert target.key == "pkg.mod.main::except ClickException as e::  if not standalone_mode:"
    assert parse_target("up:pkg.f::x", default_repo=None).matches == ("x",)
    # In a run of three colons the first ends the outer text, as a clause header's colon does.
    assert parse_target("up:pkg.f::try:::x = 1", default_repo=None).matches == ("try:", "x = 1")
    assert parse_target("up:pkg.f", default_repo=None).matches == ()
    assert hash(target) == hash(Target(target.repo, target.path, target.match))


@pytest.mark.parametrize(
    "text",
    [
        "up:pkg.f::a::::b",
        "up:pkg.f::a::",
        "up:pkg.f::a:: ::b",
        "up:/setup.py::x::",
        "up:pkg.f::::b",
    ],
)
def test_empty_match_level_says_a_match_cannot_hold_double_colon(text: str) -> None:
    with pytest.raises(TargetError) as caught:
        parse_target(text, default_repo=None)
    assert "empty match level" in str(caught.value)
    assert "cannot hold '::'" in str(caught.value) and "'x['" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "repo", "path", "match"),
    [
        ("up:/LICENSE", "up", "/LICENSE", None),
        ("/LICENSE", "dflt", "/LICENSE", None),
        ("up:/pyproject.toml::license =", "up", "/pyproject.toml", "license ="),
        ("/setup.py::setup(::license=", "dflt", "/setup.py", "setup(::license="),
        ("up:/a:b/c.txt", "up", "/a:b/c.txt", None),
    ],
)
def test_file_targets_parse(text: str, repo: str, path: str, match: str | None) -> None:
    target = parse_target(text, default_repo="dflt")
    assert (target.repo, target.path, target.match) == (repo, path, match)
    assert target.is_file and target.file == path[1:]
    assert target.key == path + (f"::{match}" if match else "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("up:/../etc/passwd", "holds '..'"),
        ("up:/docs/../LICENSE", "holds '..'"),
        ("up:/", "invalid file path"),
        ("up:/docs//x", "invalid file path"),
        ("up:/docs/./x", "invalid file path"),
        ("up:/docs/", "invalid file path"),
    ],
)
def test_bad_file_paths_are_target_errors(text: str, message: str) -> None:
    with pytest.raises(TargetError, match=message.replace(".", r"\.")):
        parse_target(text, default_repo=None)


# -- scoped matches --------------------------------------------------------------------------


def test_scoped_match_reaches_the_second_of_three_identical_lines(repo: Repo) -> None:
    outcome = check(repo, "up:pkg.mod.main::except ClickException as e::if not standalone_mode:")
    assert outcome.status == "new", outcome.message
    assert outcome.location is not None
    assert (outcome.location.start, outcome.location.end) == second_clause(repo)
    assert outcome.location.kind == "statement"
    start, end = second_clause(repo)
    assert outcome.permalink == f"{repo.upstream.url}/blob/{repo.sha}/pkg/mod.py#L{start}-L{end}"
    # The header's own colon may stay: a run of three colons is 'e:' then the inner text.
    colon = check(repo, "up:pkg.mod.main::except ClickException as e:::if not standalone_mode:")
    assert colon.location is not None and (colon.location.start, colon.location.end) == (start, end)
    # Unscoped, the same text is on three lines of main.
    flat = check(repo, "up:pkg.mod.main::if not standalone_mode:")
    assert flat.status == "missing" and "occurs on 3 lines" in flat.message


def test_three_levels_narrow_in_turn(repo: Repo) -> None:
    raise_line = lines_with(MAIN, "raise")[1]
    location = repo.resolve(
        "pkg.mod.main", "except ClickException as e::if not standalone_mode::raise"
    )
    assert (location.start, location.end) == (raise_line, raise_line)


def test_inner_level_on_no_line_names_the_level_and_the_range(repo: Repo) -> None:
    start = line_of(MAIN, "except ClickException as e:")
    outcome = check(repo, "up:pkg.mod.main::except ClickException as e::echo(")
    assert outcome.status == "missing"
    assert "match level 2 of 2, 'echo('," in outcome.message
    assert (
        f"pkg/mod.py:L{start}–L{start + 3} (the range 'except ClickException as e' gave)"
        in outcome.message
    )
    assert "cannot hold '::'" in outcome.message


def test_inner_level_on_two_lines_of_its_range_lists_them(repo: Repo) -> None:
    outcome = check(repo, "up:pkg.mod.main::def main(::standalone_mode")
    assert outcome.status == "missing"
    assert (
        "match level 2 of 2, 'standalone_mode'," in outcome.message
        and "occurs on 4 lines" in outcome.message
    )


def test_scoped_match_is_locked_under_its_full_text(repo: Repo, tmp_path: Path) -> None:
    settings = settings_from(
        {
            "repos": {"up": {"url": repo.upstream.url, "commit": repo.sha, "packages": ["pkg"]}},
            "cache_dir": str(tmp_path / "cache"),
        },
        confdir=tmp_path,
        environ={},
    )
    engine = Engine(settings)
    texts = [
        "up:pkg.mod.main::except ClickException as e::if not standalone_mode:",
        "up:/LICENSE",
        "up:/pyproject.toml::license =",
    ]
    assert engine.lock_new([engine.check(parse_target(t, default_repo=None)) for t in texts]) == 3
    records = read_lock(settings.lock_path).records["up"]
    assert sorted(records) == sorted(t.removeprefix("up:") for t in texts)
    start, end = second_clause(repo)
    assert (records[texts[0][3:]].start, records[texts[0][3:]].end) == (start, end)
    assert (records["/LICENSE"].path, records["/LICENSE"].blob) == (
        "LICENSE",
        blob_id(LICENCE.encode()),
    )
    again = Engine(settings)
    assert [again.check(parse_target(t, default_repo=None)).status for t in texts] == ["ok"] * 3


# -- file targets ------------------------------------------------------------------------------


def test_whole_file_is_linked_without_a_fragment(repo: Repo) -> None:
    outcome = check(repo, "up:/LICENSE")
    assert outcome.status == "new", outcome.message
    location = outcome.location
    assert location is not None and location.whole_file and location.kind == "file"
    assert (location.path, location.start, location.end) == ("LICENSE", 1, line_count(LICENCE))
    assert location.blob == blob_id(LICENCE.encode())
    assert location.describe() == "LICENSE"
    assert outcome.permalink == f"{repo.upstream.url}/blob/{repo.sha}/LICENSE"


def test_binary_file_whole_is_an_anchor(repo: Repo) -> None:
    outcome = check(repo, "up:/data/logo.bin")
    assert outcome.status == "new", outcome.message
    assert outcome.permalink == f"{repo.upstream.url}/blob/{repo.sha}/data/logo.bin"


def test_match_in_a_file_that_is_not_python_is_its_one_line(repo: Repo) -> None:
    outcome = check(repo, "up:/pyproject.toml::license =")
    number = line_of(PYPROJECT, "license =")
    assert outcome.status == "new", outcome.message
    assert outcome.location is not None and outcome.location.kind == "line"
    assert (outcome.location.start, outcome.location.end) == (number, number)
    assert outcome.permalink == f"{repo.upstream.url}/blob/{repo.sha}/pyproject.toml#L{number}"


def test_inner_level_in_a_file_that_is_not_python_looks_within_the_line(repo: Repo) -> None:
    number = lines_with(FILES["docs/guide.txt"], "key:")[1]  # type: ignore[arg-type]
    assert repo.resolve("/docs/guide.txt", "other::key").start == number
    assert check(repo, "up:/docs/guide.txt::key").status == "missing"  # two lines
    outcome = check(repo, "up:/docs/guide.txt::other::key: value")
    assert (
        outcome.status == "missing"
        and f"docs/guide.txt:L{number} (the range 'other' gave)" in outcome.message
    )


def test_python_file_by_path_keeps_the_statement_rule(repo: Repo) -> None:
    start = line_of(MAIN, "def main(")
    by_path = repo.resolve("/pkg/mod.py", "def main(")
    assert (by_path.start, by_path.end, by_path.kind) == (
        start,
        line_of(MAIN, 'echo("aborted")'),
        "statement",
    )
    scoped = repo.resolve("/pkg/mod.py", "except ClickException as e::if not standalone_mode:")
    dotted = repo.resolve("pkg.mod.main", "except ClickException as e::if not standalone_mode:")
    assert (scoped.path, scoped.start, scoped.end) == (dotted.path, dotted.start, dotted.end)
    assert (scoped.start, scoped.end) == second_clause(repo)
    # setup.py is outside the packages; a line inside the call is held by the call statement.
    call = repo.resolve("/setup.py", "setup(::license=")
    assert (call.start, call.end) == (line_of(SETUP, "setup("), line_of(SETUP, ")"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("up:/pyproject.tml", "no file /pyproject.tml at {short}; did you mean /pyproject.toml?"),
        ("up:/nothing/like/it.zzz", "no file /nothing/like/it.zzz at {short}"),
        ("up:/docs", "/docs is a directory at {short}; name a file in it"),
        ("up:/pkg", "/pkg is a directory at {short}"),
        (
            "up:/data/logo.bin::PNG",
            "/data/logo.bin is binary or not valid text; a match text needs a text file",
        ),
        (
            "up:/pyproject.toml::nope",
            "/pyproject.toml: match text 'nope' occurs on no line of pyproject.toml:L1–L4",
        ),
    ],
)
def test_file_target_errors_are_one_line_and_missing(repo: Repo, text: str, message: str) -> None:
    outcome = check(repo, text)
    assert outcome.status == "missing", outcome.message
    assert message.format(short=repo.sha[:7]) in outcome.message
    assert "\n" not in outcome.message


def test_file_over_the_size_limit_is_refused(repo: Repo, tmp_path: Path) -> None:
    settings = settings_from(
        {
            "repos": {"up": {"url": repo.upstream.url, "commit": repo.sha, "packages": ["pkg"]}},
            "cache_dir": str(tmp_path / "cache"),
            "max_file_bytes": 20,
        },
        confdir=tmp_path,
        environ={},
    )
    outcome = Engine(settings).check(parse_target("up:/LICENSE", default_repo=None))
    assert (outcome.status, outcome.subtype) == ("error", "upstream")
    assert "above the 20-byte limit" in outcome.message


# -- fetched on demand, the export staying partial ------------------------------------------------


def test_file_outside_the_packages_is_fetched_alone(
    tree_upstream: Upstream, tmp_path: Path
) -> None:
    big = os.urandom(2 * 1024 * 1024)
    repo = make_repo(
        tree_upstream,
        tmp_path,
        {
            "pkg/__init__.py": "",
            "README.md": "# Demo\n\nRead me.\n",
            "data/big.bin": big,
            "docs/notes.txt": "notes\n",
        },
    )
    outcome = repo.check("/README.md", "Read me.")
    assert outcome.status == "new", outcome.message
    assert (
        outcome.permalink == f"{tree_upstream.url}/blob/{repo.sha}/README.md?plain=1#L3"
    )  # rendered on GitHub
    cache = tmp_path / "cache"
    stored = sorted(
        p.relative_to(cache / "blobs").as_posix().replace("/", "")
        for p in (cache / "blobs").rglob("*")
        if p.is_file()
    )
    assert stored == [blob_id(b"# Demo\n\nRead me.\n")]
    assert repo.engine._pinned.blobs.fetches == 1
    # Nothing in the cache holds the big file's bytes, nor the other file outside the packages.
    samples = [big[offset : offset + 64] for offset in (0, 1_000_000, len(big) - 64)]
    for path in cache.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert not any(sample in data for sample in samples), path
            assert data != b"notes\n", path
    assert not list((cache / "tmp").iterdir())
    # A second engine (another build) reads the stored blob: no fetch.
    settings = repo.engine.settings
    again = Engine(settings)
    assert again.resolver("up").resolve("/README.md", "Read me.").start == 3
    assert again._pinned.blobs.fetches == 0


# -- drift -------------------------------------------------------------------------------------


def test_file_anchors_drift(upstream: Upstream, tmp_path: Path) -> None:
    upstream.write_files(
        {
            "pkg/__init__.py": "",
            "LICENSE": LICENCE,
            "pyproject.toml": PYPROJECT,
            "NOTICE": "kept\n",
            "gone.txt": "bye\n",
            "notes.txt": "a\nkey = 1\nb\n",
        }
    )
    first = upstream.commit("one")
    upstream.write_files(
        {
            "LICENSE": LICENCE + "More text.\n",
            "pyproject.toml": "# top\n" + PYPROJECT,
            "notes.txt": "a\nkey = 2\nb\n",
        }
    )
    upstream.remove("gone.txt")
    second = upstream.commit("two")
    texts = [
        "up:/LICENSE",
        "up:/pyproject.toml::license =",
        "up:/gone.txt",
        "up:/NOTICE",
        "up:/notes.txt::key =",
    ]

    def engine(commit: str) -> Engine:
        return Engine(
            settings_from(
                {
                    "repos": {"up": {"url": upstream.url, "commit": commit, "packages": ["pkg"]}},
                    "cache_dir": str(tmp_path / "cache"),
                },
                confdir=tmp_path,
                environ={},
            )
        )

    before = engine(first)
    assert before.lock_new(
        [before.check(parse_target(t, default_repo=None)) for t in texts]
    ) == len(texts)
    after = engine(second)
    outcomes = [after.check(parse_target(t, default_repo=None)) for t in texts]
    assert [o.status for o in outcomes] == ["changed", "moved", "missing", "ok", "changed"], [
        o.message for o in outcomes
    ]
    assert "no file /gone.txt at" in outcomes[2].message
    line = line_of(PYPROJECT, "license =")
    assert outcomes[1].change() == f"pyproject.toml:L{line} → pyproject.toml:L{line + 1}"
    # The diff of a changed file outside the packages: its old blob was kept when it was fetched.
    assert outcomes[4].message.splitlines()[1:] == ["@@ -1 +1 @@", "-key = 1", "+key = 2"]
    assert "+More text." in outcomes[0].message


def test_link_in_the_commit_is_not_a_file(tree_upstream: Upstream, tmp_path: Path) -> None:
    tree_upstream.clear()
    tree_upstream.write_files({"pkg/__init__.py": "", "LICENSE": LICENCE})
    os.symlink("LICENSE", tree_upstream.path / "COPYING.txt")
    sha = tree_upstream.commit("link")
    engine = Engine(
        settings_from(
            {
                "repos": {"up": {"url": tree_upstream.url, "commit": sha, "packages": ["pkg"]}},
                "cache_dir": str(tmp_path / "cache"),
            },
            confdir=tmp_path,
            environ={},
        )
    )
    outcome = engine.check(parse_target("up:/COPYING.txt", default_repo=None))
    assert outcome.status == "missing" and "is a symbolic link (never followed)" in outcome.message


# -- in a book -----------------------------------------------------------------------------------


def test_book_links_file_targets_and_scoped_matches(repo: Repo, book: Book) -> None:
    book.repos = {"up": {"url": repo.upstream.url, "commit": repo.sha, "packages": ["pkg"]}}
    book.write_conf()
    book.page(
        "index",
        "---\nsource-repo: up\n---\n# Demo\n\n"
        "{src}`licence </LICENSE>`, {src}`the licence line </pyproject.toml::license =>`, "
        "{src}`re-raised <pkg.mod.main::except ClickException as e:::if not standalone_mode:>`.\n",
    )

    built = book.build()

    assert built.returncode == 0, built.stderr
    rows = built.report()
    start, end = second_clause(repo)
    line = line_of(PYPROJECT, "license =")
    base = f"{repo.upstream.url}/blob/{repo.sha}"
    assert [(row["status"], row["permalink"]) for row in rows] == [
        ("new", f"{base}/LICENSE"),
        ("new", f"{base}/pyproject.toml#L{line}"),
        ("new", f"{base}/pkg/mod.py#L{start}-L{end}"),
    ]
    assert [row["target"] for row in rows] == [
        "up:/LICENSE",
        "up:/pyproject.toml::license =",
        "up:pkg.mod.main::except ClickException as e:::if not standalone_mode:",
    ]
    html = built.html()
    assert (
        f"LICENSE&#64;{repo.sha[:7]}" in html
        and f"pyproject.toml:L{line}&#64;{repo.sha[:7]}" in html
    )
    assert sorted(read_lock(book.lock).records["up"]) == sorted(row["target"][3:] for row in rows)
    again = book.build(fresh=True, out="again")
    assert [row["status"] for row in again.report()] == ["ok"] * 3


def test_file_outside_the_packages_needs_git_among_the_sources(
    tree_upstream: Upstream, tmp_path: Path
) -> None:
    repo = make_repo(tree_upstream, tmp_path, {"pkg/__init__.py": "", "README.md": "# Readme\n"})
    assert (
        repo.check("/pkg/__init__.py").status == "new"
    )  # exports the tree from git into the cache
    cached_only = Engine(
        settings_from(
            {
                "repos": {
                    "up": {
                        "url": tree_upstream.url,
                        "commit": repo.sha,
                        "packages": ["pkg"],
                        "sources": ["cache"],
                    }
                },
                "cache_dir": str(tmp_path / "cache"),
            },
            confdir=tmp_path,
            environ={},
        )
    )
    outcome = cached_only.check(Target("up", "/README.md"))
    assert (outcome.status, outcome.subtype) == ("error", "upstream")
    assert "'sources' leave out git" in outcome.message
    # Once fetched (by a build that may use git), the kept blob serves the cache-only build too.
    assert repo.check("/README.md").status == "new"
    assert Engine(cached_only.settings).check(Target("up", "/README.md")).status == "new"


@pytest.mark.parametrize("text", ["up:setup.py", "up:LICENSE"])
def test_a_file_written_as_a_dotted_path_is_told_to_start_with_a_slash(
    repo: Repo, text: str
) -> None:
    outcome = check(repo, text)
    assert outcome.status == "missing"
    path = text.split(":", 1)[1]
    assert outcome.message.endswith(f"; for the file {path}, write '/{path}'"), outcome.message


# -- the element rule: one entry of a multi-line dict, one item of a list
# ---------------------------

DEFAULTS = '''\
"""Defaults, one long dict."""

DEFAULT_CONFIG: dict = {
    "RETRIEVER": "tavily",
    "SIMILARITY_THRESHOLD": 0.42,
    "CURATE_SOURCES": False,
    "NESTED": {
        "DEPTH": 2,
    },
}


def messages(system, user):
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": user},
    ]
'''


def test_a_match_on_a_dict_entry_anchors_the_entry(tree_upstream: Upstream, tmp_path: Path) -> None:
    repo = make_repo(tree_upstream, tmp_path, {"pkg/__init__.py": "", "pkg/default.py": DEFAULTS})
    whole = repo.resolve("pkg.default.DEFAULT_CONFIG")
    assert (whole.start, whole.end) == (
        line_of(DEFAULTS, "DEFAULT_CONFIG"),
        line_of(DEFAULTS, "    },") + 1,
    )
    for text, match, needle in [
        ("pkg.default.DEFAULT_CONFIG", '"CURATE_SOURCES": False', '"CURATE_SOURCES"'),
        ("pkg.default.DEFAULT_CONFIG", '"DEPTH"', '"DEPTH"'),
        ("pkg.default.DEFAULT_CONFIG", '"NESTED"::"DEPTH": 2', '"DEPTH"'),
        ("pkg.default.messages", '"role": "system"', '"role": "system"'),
    ]:
        outcome = check(repo, f"up:{text}::{match}")
        assert outcome.status == "new", outcome.message
        assert outcome.location is not None and outcome.location.kind == "statement"
        number = line_of(DEFAULTS, needle)
        assert (outcome.location.start, outcome.location.end) == (number, number), match
        assert outcome.permalink is not None and outcome.permalink.endswith(
            f"pkg/default.py#L{number}"
        )
    nested = check(repo, 'up:pkg.default.DEFAULT_CONFIG::"NESTED"')
    assert nested.location is not None
    assert (nested.location.start, nested.location.end) == repo.span(
        "pkg/default.py", '"NESTED"', "    },"
    )
    by_path = check(repo, 'up:/pkg/default.py::"SIMILARITY_THRESHOLD"')
    assert by_path.location is not None
    number = line_of(DEFAULTS, "SIMILARITY_THRESHOLD")
    assert (by_path.location.start, by_path.location.end) == (number, number)
    opening = check(repo, "up:pkg.default.DEFAULT_CONFIG::DEFAULT_CONFIG: dict = {")
    assert opening.location is not None and (opening.location.start, opening.location.end) == (
        whole.start,
        whole.end,
    )


def test_an_entry_anchor_follows_its_entry_and_sees_its_change(
    tree_upstream: Upstream, tmp_path: Path
) -> None:
    # The lock holds the entry's one line: a key added above moves it, a changed value changes it,
    # and a change to another entry of the same dict touches it not.
    target = 'up:pkg.default.DEFAULT_CONFIG::"CURATE_SOURCES"'
    repo = make_repo(tree_upstream, tmp_path, {"pkg/__init__.py": "", "pkg/default.py": DEFAULTS})
    settings = settings_from(
        {
            "repos": {"up": {"url": repo.upstream.url, "commit": repo.sha, "packages": ["pkg"]}},
            "cache_dir": str(tmp_path / "cache"),
        },
        confdir=tmp_path,
        environ={},
    )
    engine = Engine(settings)
    assert engine.lock_new([engine.check(parse_target(target, default_repo=None))]) == 1
    statuses = {}
    for label, text in [
        ("other entry", DEFAULTS.replace("0.42", "0.5")),
        ("moved", DEFAULTS.replace('    "RETRIEVER"', '    "ADDED": 1,\n    "RETRIEVER"')),
        ("changed", DEFAULTS.replace('"CURATE_SOURCES": False', '"CURATE_SOURCES": True')),
    ]:
        tree_upstream.clear()
        tree_upstream.write("pkg/__init__.py", "")
        tree_upstream.write("pkg/default.py", text)
        sha = tree_upstream.commit()
        bumped = settings_from(
            {
                "repos": {"up": {"url": repo.upstream.url, "commit": sha, "packages": ["pkg"]}},
                "cache_dir": str(tmp_path / "cache"),
            },
            confdir=tmp_path,
            environ={},
        )
        statuses[label] = Engine(bumped).check(parse_target(target, default_repo=None)).status
    assert statuses == {"other entry": "ok", "moved": "moved", "changed": "changed"}
