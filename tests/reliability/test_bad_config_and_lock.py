"""Bad configuration and bad locks: clear errors that name the file (and line), never a rewritten lock.

Each case copies one small book whose lock is valid, breaks ``conf.py`` or the lock in
one way, then runs a real Sphinx build (in-process: the extension's ``SystemExit(2)`` is the
exit status sphinx-build would give) and the CLI's ``check`` (and, for locks, ``update``),
in-process through ``cli.main`` except for one case per kind that runs the entry point
``python -m source_anchors`` in a subprocess, whose stderr is a pipe. A broken
configuration or lock must stop with a message naming the file (``conf.py``, or the lock
with the line of the bad value), without a traceback, and the lock's bytes must be what
they were before. A lock that is valid but edited into disagreement with the code gives
located warnings instead, and is not rewritten either.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers import Upstream, build_env, cli_argv
from helpers import write_conf as write_book_conf

from .figures import Results, Scale
from .support import Run, build_in_process, cli_in_process, run, warnings_of

CATEGORY = "bad_config_and_lock"

MOD = '''\
"""A module."""


def func(value):
    """Double it."""
    return value * 2


def other(value):
    return value + 1
'''
PAGE = "# Page\n\n{src}`pkg.mod.func`\n\n{src}`up2:pkg.mod.func`\n\n{src}`pkg.mod.other`\n"


@dataclass
class Base:
    """A book with two pins of one repository, its pages and a valid lock, built once."""

    root: Path
    cache: Path
    upstream: Upstream
    commit: str
    repos: dict[str, dict[str, Any]]
    lock_text: str


def write_conf(root: Path, repos: Any, cache: Path, **values: Any) -> None:
    values.setdefault("default_repo", "up")
    write_book_conf(root, repos, cache, **values)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Base:
    where = tmp_path_factory.mktemp("config")
    upstream = Upstream(where / "upstream")
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/mod.py", MOD)
    commit = upstream.commit("v1")
    pin = {"url": upstream.url, "commit": commit, "packages": ["pkg"]}
    repos = {"up": dict(pin), "up2": dict(pin)}
    root, cache = where / "book", where / "cache"
    root.mkdir(parents=True)
    (root / "index.md").write_text(PAGE, "utf-8")
    write_conf(root, repos, cache)
    done = build_in_process(root, strict=True)
    assert done.returncode == 0, done.stderr
    lock = (root / "source-anchors.lock").read_text("utf-8")
    assert json.loads(lock)["anchors"].keys() == {"up", "up2"}
    shutil.rmtree(root / "_build")
    return Base(root, cache, upstream, commit, repos, lock)


# -- cases
# ------------------------------------------------------------------------------------------------


@dataclass
class ConfigCase:
    """A change to conf.py and the text the error must hold."""

    name: str
    change: Callable[[dict[str, Any], dict[str, Any], Path], None]  # (repos, values, book root)
    expect: str  # regular expression
    #: Also acceptable: the build completes with located source-anchors warnings that match
    #: *expect*.
    warnings_ok: bool = False


def _set(repo: str, key: str, value: Any) -> Callable[[dict[str, Any], dict[str, Any], Path], None]:
    def change(repos: dict[str, Any], values: dict[str, Any], root: Path) -> None:
        repos[repo][key] = value

    return change


def _drop(repo: str, key: str) -> Callable[[dict[str, Any], dict[str, Any], Path], None]:
    def change(repos: dict[str, Any], values: dict[str, Any], root: Path) -> None:
        del repos[repo][key]

    return change


def _value(name: str, value: Any) -> Callable[[dict[str, Any], dict[str, Any], Path], None]:
    def change(repos: dict[str, Any], values: dict[str, Any], root: Path) -> None:
        values[name] = value

    return change


def _cache_is_a_file(repos: dict[str, Any], values: dict[str, Any], root: Path) -> None:
    (root / "not-a-dir").write_text("a file where the cache should be\n", "utf-8")
    values["cache_dir"] = str(root / "not-a-dir")


def _repos_not_a_dict(repos: dict[str, Any], values: dict[str, Any], root: Path) -> None:
    values["repos"] = [dict(repos["up"])]


def _entry_not_a_dict(repos: dict[str, Any], values: dict[str, Any], root: Path) -> None:
    repos["up"] = "https://github.com/example/demo"


def _bad_name(repos: dict[str, Any], values: dict[str, Any], root: Path) -> None:
    repos["bad name"] = dict(repos["up2"])


_ENTRY = r"source_anchors_repos\['up'\]"
CONFIG_CASES = [
    ConfigCase(
        "commit is a branch name",
        _set("up", "commit", "main"),
        _ENTRY + r"\['commit'\]: 'main' is not a full",
    ),
    ConfigCase("commit is a short SHA", _set("up", "commit", "abc1234"), _ENTRY + r"\['commit'\]"),
    ConfigCase(
        "commit is upper-case hex", _set("up", "commit", "A" * 40), _ENTRY + r"\['commit'\]"
    ),
    ConfigCase("commit has 41 digits", _set("up", "commit", "a" * 41), _ENTRY + r"\['commit'\]"),
    ConfigCase(
        "commit has a non-hex digit", _set("up", "commit", "a" * 39 + "g"), _ENTRY + r"\['commit'\]"
    ),
    ConfigCase("commit is an int", _set("up", "commit", 12345), _ENTRY + r"\['commit'\]"),
    ConfigCase("commit is None", _set("up", "commit", None), _ENTRY + r"\['commit'\]"),
    ConfigCase(
        "unknown host without host/permalink",
        _set("up", "url", "https://example.org/x/y"),
        _ENTRY + r": unknown host 'example.org'",
    ),
    ConfigCase(
        "unknown 'host' value",
        _set("up", "host", "sourcehut"),
        _ENTRY + r": unknown host 'sourcehut'",
    ),
    ConfigCase("'host' is a list", _set("up", "host", ["github"]), _ENTRY + r".*host"),
    ConfigCase(
        "'permalink' is not a string", _set("up", "permalink", 123), _ENTRY + r".*permalink"
    ),
    ConfigCase(
        "'permalink' names an unknown field",
        _set("up", "permalink", "{url}/src/{nope}/{path}#L{start}"),
        _ENTRY + r".*permalink",
    ),
    ConfigCase(
        "'permalink' is malformed",
        _set("up", "permalink", "{url}/src/{commit}/{path#L{start}"),
        _ENTRY + r".*permalink",
    ),
    ConfigCase("missing 'url'", _drop("up", "url"), _ENTRY + r": missing key 'url'"),
    ConfigCase("missing 'commit'", _drop("up", "commit"), _ENTRY + r": missing key 'commit'"),
    ConfigCase("entry is a string", _entry_not_a_dict, _ENTRY + r": expected a dict"),
    ConfigCase("repos is a list", _repos_not_a_dict, r"source_anchors_repos: expected a dict"),
    ConfigCase("'packages' is a string", _set("up", "packages", "pkg"), _ENTRY + r"\['packages'\]"),
    ConfigCase("'packages' is empty", _set("up", "packages", []), _ENTRY + r"\['packages'\]"),
    ConfigCase(
        "'packages' climbs out", _set("up", "packages", ["../pkg"]), _ENTRY + r"\['packages'\]"
    ),
    ConfigCase(
        "'packages' is absolute", _set("up", "packages", ["/etc"]), _ENTRY + r"\['packages'\]"
    ),
    ConfigCase(
        "misspelt key", _set("up", "comit", "a" * 40), _ENTRY + r": unknown key\(s\) \['comit'\]"
    ),
    ConfigCase("'sources' names svn", _set("up", "sources", ["svn"]), _ENTRY + r"\['sources'\]"),
    ConfigCase("'url' is empty", _set("up", "url", ""), _ENTRY + r"\['url'\]"),
    ConfigCase(
        "'url' is an option", _set("up", "url", "--upload-pack=touch /srv/x"), _ENTRY + r"\['url'\]"
    ),
    ConfigCase("'dist' is empty", _set("up", "dist", "  "), _ENTRY + r"\['dist'\]"),
    ConfigCase(
        "'listing' file missing",
        _set("up", "listing", "no-such-listing.txt"),
        _ENTRY + r"\['listing'\]",
    ),
    ConfigCase(
        "invalid repository name",
        _bad_name,
        r"source_anchors_repos\['bad name'\]: invalid repository name",
    ),
    ConfigCase(
        "default_repo unknown",
        _value("default_repo", "nope"),
        r"source_anchors_default_repo: 'nope'",
    ),
    ConfigCase("timeout negative", _value("timeout", -1), r"source_anchors_timeout"),
    ConfigCase(
        "max_file_bytes a string", _value("max_file_bytes", "2MB"), r"source_anchors_max_file_bytes"
    ),
    ConfigCase("cache_dir is a regular file", _cache_is_a_file, r"not-a-dir", warnings_ok=True),
]


@dataclass
class LockCase:
    """A broken lock text (from the valid one) and what the error must say."""

    name: str
    make: Callable[[str], str | bytes]
    expect: str
    #: The line the message must name, computed from the broken text (None: no line to name).
    line: Callable[[str], int] | None = None
    #: For valid-but-inconsistent locks: the build completes with these located warning subtypes.
    warns: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    #: The build's exit status: a locked build that meets anchors off the lock fails, -W or not.
    exit_code: int = 0


def _data(text: str) -> dict[str, Any]:
    return json.loads(text)  # type: ignore[no-any-return]


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def _edit(repo: str, key: str, **fields: Any) -> Callable[[str], str]:
    def make(text: str) -> str:
        data = _data(text)
        _set_fields(data["anchors"][repo][key], fields)
        return _dump(data)

    return make


_DELETE = object()


def _top(**fields: Any) -> Callable[[str], str]:
    def make(text: str) -> str:
        data = _data(text)
        _set_fields(data, fields)
        return _dump(data)

    return make


def _set_fields(mapping: dict[str, Any], fields: dict[str, Any]) -> None:
    """Set each field of *mapping*, or delete it where the value is ``_DELETE``."""
    for name, value in fields.items():
        if value is _DELETE:
            del mapping[name]
        else:
            mapping[name] = value


def _replace_record(text: str, repo: str, key: str, value: Any) -> str:
    data = _data(text)
    data["anchors"][repo][key] = value
    return _dump(data)


def key_line(*keys: str) -> Callable[[str], int]:
    """The line of the last of *keys*, each looked up after the previous (a path into the JSON)."""

    def line(text: str) -> int:
        pos = 0
        for key in keys:
            found = text.find(json.dumps(key), pos)
            assert found >= 0, (key, text[:200])
            pos = found
        return text.count("\n", 0, pos) + 1

    return line


def top_line(key: str) -> Callable[[str], int]:
    """The line of the top-level *key* (two spaces in), not of a nested key of that name."""

    def line(text: str) -> int:
        found = text.find("\n  " + json.dumps(key) + ":")
        assert found >= 0, (key, text[:200])
        return text.count("\n", 0, found + 1) + 1

    return line


def json_error_line(text: str) -> int:
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return error.lineno
    raise AssertionError("valid JSON")


def _double_comma(text: str) -> str:
    return re.sub(r'("end": \d+),', r"\1,,", text, count=1)


FUNC = "pkg.mod.func"
LOCK_CASES = [
    LockCase("invalid JSON (a doubled comma)", _double_comma, r"JSON", json_error_line),
    LockCase("truncated to half", lambda t: t[: len(t) // 2], r"JSON", json_error_line),
    LockCase("empty file", lambda t: "", r"JSON|empty", lambda t: 1),
    LockCase("UTF-8 byte-order mark", lambda t: "\ufeff" + t, r"JSON|BOM", lambda t: 1),
    LockCase("not UTF-8", lambda t: t.encode() + b"\xff\xfe\n", r"read|UTF-8|decode"),
    LockCase("top level is a list", lambda t: "[]\n", r"object", lambda t: 1),
    LockCase("no 'anchors'", _top(anchors=_DELETE), r"anchors", lambda t: 1),
    LockCase("'anchors' is a list", _top(anchors=[]), r"'anchors'", key_line("anchors")),
    LockCase("newer format version", _top(version=2), r"version 2\b", top_line("version")),
    LockCase("version is a string", _top(version="1"), r"version '1'", top_line("version")),
    LockCase("version 0", _top(version=0), r"version 0\b", top_line("version")),
    LockCase(
        "repository entry is a list",
        lambda t: _dump({**_data(t), "anchors": {**_data(t)["anchors"], "up": []}}),
        r"'up'",
        key_line("anchors", "up"),
    ),
    LockCase(
        "record is a string",
        lambda t: _replace_record(t, "up", FUNC, "pkg/mod.py:4"),
        r"up:pkg.mod.func",
        key_line("up", FUNC),
    ),
    LockCase(
        "start is a string", _edit("up", FUNC, start="4"), r"field 'start'", key_line("up", FUNC)
    ),
    LockCase(
        "start is a bool", _edit("up", FUNC, start=True), r"field 'start'", key_line("up", FUNC)
    ),
    LockCase(
        "start is NaN",
        lambda t: _edit("up", FUNC, start=0.5)(t).replace("0.5", "NaN"),
        r"field 'start'",
        key_line("up", FUNC),
    ),
    LockCase(
        "start > end",
        _edit("up", FUNC, start=9, end=4),
        r"up:pkg.mod.func.*(9-4|range)",
        key_line("up", FUNC),
    ),
    LockCase("start 0", _edit("up", FUNC, start=0), r"not a valid range", key_line("up", FUNC)),
    LockCase(
        "commit not hex",
        _edit("up", FUNC, commit="z" * 40),
        r"up:pkg.mod.func.*commit",
        key_line("up", FUNC),
    ),
    LockCase(
        "sha256 too short",
        _edit("up", FUNC, sha256="ab" * 10),
        r"field 'sha256'",
        key_line("up", FUNC),
    ),
    LockCase(
        "blob upper-case", _edit("up", FUNC, blob="A" * 40), r"field 'blob'", key_line("up", FUNC)
    ),
    LockCase(
        "path missing",
        _edit("up", FUNC, path=_DELETE),
        r"up:pkg.mod.func.*path",
        key_line("up", FUNC),
    ),
    LockCase(
        "uses holds a bad blob",
        _edit("up", FUNC, uses={"pkg/__init__.py": "nope"}),
        r"field 'uses'",
        key_line("up", FUNC),
    ),
    LockCase("uses is null", _edit("up", FUNC, uses=None), r"field 'uses'", key_line("up", FUNC)),
    LockCase(
        "uses blobs of 39 and 41 digits",
        _edit("up", FUNC, uses={"pkg/__init__.py": "a" * 39, "pkg/b.py": "b" * 41}),
        r"field 'uses'",
        key_line("up", FUNC),
    ),
    LockCase(
        "bad record under the second pin of a shared key",
        _edit("up2", FUNC, start=9, end=4),
        r"up2:pkg.mod.func",
        key_line("up2", FUNC),
    ),
    LockCase("lock is a directory", lambda t: "", r"read|directory"),
    LockCase("JSON nested 100,000 deep", lambda t: "[" * 100_000 + "]" * 100_000 + "\n", r"lock"),
    # Valid locks edited into disagreement with the code: located warnings, no rewrite.
    LockCase(
        "lines shifted by hand", _edit("up", FUNC, start=5, end=7), r"moved", warns=("moved",)
    ),
    LockCase(
        "sha256 edited by hand", _edit("up", FUNC, sha256="0" * 64), r"changed", warns=("changed",)
    ),
    LockCase(
        "record points past the end of another file",
        _edit("up", FUNC, path="pkg/__init__.py", start=10**9, end=10**9 + 5, sha256="1" * 64),
        r"changed",
        warns=("changed",),
    ),
    LockCase(
        "record at a commit never fetched",
        _edit("up", FUNC, commit="1" * 40, sha256="2" * 64),
        r"changed",
        warns=("changed",),
    ),
    LockCase(
        "compact hand-formatted lock, complete", lambda t: json.dumps(_data(t)), r"", warns=()
    ),
    LockCase(
        "locked build meets an anchor the lock lacks",
        lambda t: _dump(
            {
                **_data(t),
                "anchors": {
                    **_data(t)["anchors"],
                    "up": {
                        k: v for k, v in _data(t)["anchors"]["up"].items() if k != "pkg.mod.other"
                    },
                },
            }
        ),
        r"not in source-anchors.lock and this build is locked",
        warns=("lock", "new"),
        env={"CI": "true"},
        exit_code=1,
    ),
]


# -- running
# ----------------------------------------------------------------------------------------------


def _clean(out: str) -> list[str]:
    problems = []
    if "Traceback" in out or "Exception occurred" in out:
        problems.append(
            "a traceback was printed: " + " | ".join(out.strip().splitlines()[-4:])[:600]
        )
    return problems


def _config_case(base: Base, case: ConfigCase, where: Path, *, cli: bool) -> list[str]:
    root = where / "book"
    shutil.copytree(base.root, root)
    repos = json.loads(json.dumps(base.repos))
    values: dict[str, Any] = {}
    case.change(repos, values, root)
    conf_repos = values.pop("repos", repos)
    cache = Path(values.pop("cache_dir", base.cache))
    write_conf(root, conf_repos, cache, **values)
    lock = root / "source-anchors.lock"
    before = lock.read_bytes()
    conf = str(root / "conf.py")
    problems: list[str] = []
    build = build_in_process(root, fresh=True)
    problems += [f"build: {p}" for p in _clean(build.output)]
    accepted = _names_config(build.stderr, conf, case.expect)
    if case.warnings_ok and build.returncode == 0:
        located, _ = warnings_of(build.stderr)
        ours = [w for w in located if (w.type or "").startswith("source-anchors.")]
        accepted = bool(ours) and all(re.search(case.expect, w.message) and w.line for w in ours)
    if not accepted:
        problems.append(
            f"build (exit {build.returncode}) does not name {conf} with /{case.expect}/: "
            + " | ".join(build.stderr.strip().splitlines()[-4:])[:700]
        )
    elif build.returncode == 0 and not case.warnings_ok:
        problems.append("build exited 0 on a bad configuration")
    check = _cli(root, "check", entry_point=case.name in ENTRY_POINT, where=where) if cli else None
    problems += (
        [f"check: {p}" for p in [*_clean(check.output), *_plain(check.stderr)]] if check else []
    )
    if (
        check
        and not case.warnings_ok
        and (check.returncode != 2 or not _names_config(check.stderr, conf, case.expect))
    ):
        problems.append(
            f"'check' (exit {check.returncode}) does not name {conf} with /{case.expect}/: "
            + " | ".join(check.output.strip().splitlines()[-3:])[:500]
        )
    if lock.read_bytes() != before:
        problems.append("the lock was rewritten")
    return problems


def _plain(stderr: str) -> list[str]:
    """The CLI's errors go to a pipe here: they must not carry terminal colour codes."""
    if "\x1b[" in stderr:
        return [
            f"the error holds terminal colour codes although stderr is a pipe: {stderr.strip()[:160]!r}"
        ]
    return []


def _names_config(text: str, conf: str, expect: str) -> bool:
    return conf in text and re.search(expect, text) is not None


def _lock_case(base: Base, case: LockCase, where: Path, *, cli: bool) -> list[str]:
    root = where / "book"
    shutil.copytree(base.root, root)
    lock = root / "source-anchors.lock"
    made = case.make(base.lock_text)
    if case.name == "lock is a directory":
        lock.unlink()
        lock.mkdir()
        (lock / "inside").write_text("x", "utf-8")
    elif isinstance(made, bytes):
        lock.write_bytes(made)
    else:
        lock.write_text(made, "utf-8")
    snapshot = _lock_state(lock)
    where_text = str(lock) + (f":{case.line(made)}:" if case.line and isinstance(made, str) else "")
    problems: list[str] = []
    build = build_in_process(root, fresh=True, env=case.env)
    problems += [f"build: {p}" for p in _clean(build.output)]
    if case.warns or case.name.startswith("compact"):
        problems += _consistent(build, case, root)
    else:
        if build.returncode == 0:
            problems.append("the build exited 0 with a broken lock")
        if where_text not in build.stderr or not re.search(case.expect, build.stderr):
            problems.append(
                f"build does not name {where_text} with /{case.expect}/: " + _said(build, str(lock))
            )
        for command in ("check", "update") if cli else ():
            done = _cli(
                root, command, env=case.env, entry_point=case.name in ENTRY_POINT, where=where
            )
            problems += [f"{command}: {p}" for p in [*_clean(done.output), *_plain(done.stderr)]]
            if done.returncode != 2 or where_text not in done.stderr:
                problems.append(
                    f"'{command}' (exit {done.returncode}) does not name {where_text}: "
                    + _said(done, str(lock))
                )
    if _lock_state(lock) != snapshot:
        problems.append("the lock was rewritten")
    return problems


def _cli(
    root: Path, command: str, *, entry_point: bool, where: Path, env: dict[str, str] | None = None
) -> Run:
    """The CLI's *command* on the book: ``cli.main`` in-process, or ``python -m source_anchors`` in a subprocess."""
    if entry_point:
        return run(
            cli_argv(root, command), cwd=root, env=build_env(env), stats_dir=where, timeout=300
        )
    return cli_in_process(root, command, env=env)


def _said(done: Run, needle: str) -> str:
    lines = [
        line for line in done.stderr.splitlines() if needle in line
    ] or done.stderr.strip().splitlines()[-3:]
    return " | ".join(lines)[:600]


def _consistent(build: Run, case: LockCase, root: Path) -> list[str]:
    problems = []
    if build.returncode != case.exit_code:
        problems.append(
            f"the build exited {build.returncode}, expected {case.exit_code}: {_said(build, 'ERROR')}"
        )
    located, other = warnings_of(build.stderr)
    subtypes = sorted({(w.type or "").removeprefix("source-anchors.") for w in located})
    if subtypes != sorted(case.warns):
        problems.append(
            f"warning subtypes {subtypes}, expected {sorted(case.warns)}: "
            + " | ".join(f"{w.line}: {w.message[:120]}" for w in located)[:600]
        )
    if any(w.line is None or not w.path.endswith("index.md") for w in located) or other:
        problems.append(f"unlocated warnings: {other[:3]}")
    return problems


def _lock_state(lock: Path) -> object:
    if lock.is_dir():
        return sorted(p.name for p in lock.iterdir())
    return lock.read_bytes()


#: The cases of the bounded run (one or two of each shape the issue names); the full run does all,
#: and runs the CLI ('check', and 'update' for locks) after each build.
BOUNDED = {
    "commit is a branch name",
    "commit is an int",
    "unknown host without host/permalink",
    "missing 'url'",
    "missing 'packages'",
    "entry is a string",
    "'permalink' names an unknown field",
    "'host' is a list",
    "cache_dir is a regular file",
    "invalid JSON (a doubled comma)",
    "truncated to half",
    "newer format version",
    "start is a string",
    "start > end",
    "commit not hex",
    "uses is null",
    "bad record under the second pin of a shared key",
    "JSON nested 100,000 deep",
    "lines shifted by hand",
    "compact hand-formatted lock, complete",
    "locked build meets an anchor the lock lacks",
}

#: The bounded run's cases that also go through the CLI.
CLI_BOUNDED = {"commit is a branch name", "newer format version"}
#: The cases whose CLI runs go through the entry point in a subprocess (exit status, stderr a pipe).
ENTRY_POINT = {"commit is a branch name", "newer format version"}


def test_bad_config_and_lock(base: Base, tmp_path: Path, results: Results, scale: Scale) -> None:
    tally = results.tally(CATEGORY)
    full = scale.name == "full"
    jobs: list[tuple[str, Callable[[], list[str]]]] = []
    for number, config in enumerate(CONFIG_CASES):
        if full or config.name in BOUNDED:
            jobs.append(
                (
                    f"conf.py: {config.name}",
                    functools.partial(
                        _config_case,
                        base,
                        config,
                        tmp_path / f"conf-{number}",
                        cli=full or config.name in CLI_BOUNDED,
                    ),
                )
            )
    for number, lock in enumerate(LOCK_CASES):
        if full or lock.name in BOUNDED:
            jobs.append(
                (
                    f"lock: {lock.name}",
                    functools.partial(
                        _lock_case,
                        base,
                        lock,
                        tmp_path / f"lock-{number}",
                        cli=full or lock.name in CLI_BOUNDED,
                    ),
                )
            )
    for name, job in jobs:  # one after the other: Sphinx apps in one process do not run in threads
        tally.case(name, job())
    tally.check()
