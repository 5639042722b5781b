"""No network: unreachable remotes and package indexes fail fast and clearly; cached trees still build.

Nothing here leaves the machine: the dead endpoints are port 9 on the loopback, where a
connection is refused at once. pip reads no configuration file (``PIP_CONFIG_FILE`` is the
null device), so the machine's own index settings cannot stand in for the dead one; proxies
are removed from the environment. The builds run in-process with that environment in
``os.environ`` (git and pip, started by the extension, inherit it; ``CI`` is read on config-inited).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from helpers import DEAD, Upstream, git, pip_env, write_conf

from .figures import Results
from .support import Run, build_in_process, warnings_of, wheel_bytes

CATEGORY = "no_network"
LIMIT = 60.0
MOD = "def func(value):\n    return value * 2\n"
#: The package index of the issue: dead, no retries, five-second timeout, no find-links, no "no
#: index".
DEAD_INDEX: dict[str, str | None] = {
    "PIP_INDEX_URL": f"{DEAD}/simple",
    "PIP_RETRIES": "0",
    "PIP_TIMEOUT": "5",
    "PIP_NO_INDEX": None,
    "PIP_FIND_LINKS": None,
    "PIP_DEFAULT_TIMEOUT": None,
    "PIP_EXTRA_INDEX_URL": None,
    "PIP_CONFIG_FILE": os.devnull,
}


def write_book(
    root: Path, cache: Path, repos: dict[str, Any], targets: list[str]
) -> dict[str, int]:
    root.mkdir(parents=True, exist_ok=True)
    write_conf(root, repos, cache)
    lines, where = ["# Offline", ""], {}
    for target in targets:
        where[target] = len(lines) + 1
        lines += [f"{{src}}`{target}`", ""]
    (root / "index.md").write_text("\n".join(lines), "utf-8")
    return where


def _build_problems(result: Run) -> list[str]:
    problems = []
    if result.timed_out or result.seconds >= LIMIT:
        problems.append(f"took {result.seconds:.1f} s (limit {LIMIT:.0f} s)")
    if result.returncode != 0 or result.crashed():
        problems.append(
            f"exit {result.returncode}: "
            + " | ".join(result.output.strip().splitlines()[-4:])[:600]
        )
    return problems


def test_unreachable_remote_and_index_fail_fast_and_clearly(
    tmp_path: Path, results: Results
) -> None:
    tally = results.tally(CATEGORY)
    live = Upstream(tmp_path / "live")
    live.write("pkg/__init__.py", "")
    live.write("pkg/mod.py", MOD)
    live_commit = live.commit()
    repos = {
        "gitdead": {
            "url": f"{DEAD}/x.git",
            "host": "github",
            "commit": "1" * 40,
            "packages": ["pkg"],
        },
        "distdead": {
            "url": f"{DEAD}/y.git",
            "host": "github",
            "commit": "2" * 40,
            "packages": ["pkg"],
            "dist": "sademo==1.0",
        },
        "cacheonly": {
            "url": live.url,
            "commit": live_commit,
            "packages": ["pkg"],
            "sources": ["cache"],
        },
        "live": {"url": live.url, "commit": live_commit, "packages": ["pkg"]},
    }
    targets = [
        "gitdead:pkg.mod.func",
        "gitdead:pkg.mod",
        "distdead:pkg.mod.func",
        "cacheonly:pkg.mod.func",
        "live:pkg.mod.func",
    ]
    book = tmp_path / "book"
    where = write_book(book, tmp_path / "cache", repos, targets)
    result = build_in_process(
        book, env={**DEAD_INDEX, "PIP_CACHE_DIR": str(tmp_path / "pip-cache")}
    )
    tally.case(
        f"one build with dead git, dead index and an empty cache ({result.seconds:.1f} s)",
        _build_problems(result),
    )
    located, _ = warnings_of(result.stderr)
    must = {
        "gitdead": ["tried ", "git: ", "127.0.0.1:9"],
        "distdead": ["tried ", "git: ", "dist: ", "pip download"],
        "cacheonly": ["cache: no exported tree yet"],
        "live": [],
    }
    first_of: dict[str, str] = {}
    for target in targets:
        first_of.setdefault(target.split(":")[0], target)
    for target in targets:
        got = [w for w in located if w.doc == "index" and w.line == where[target]]
        repo = target.split(":")[0]
        problems = []
        if repo == "live" or first_of[repo] != target:
            # A repository that cannot be obtained is reported once, at its first anchor (issue 13).
            if got:
                problems.append(f"warned: {got[0].message[:300]}")
        elif len(got) != 1 or got[0].type != "source-anchors.source":
            problems.append(
                f"expected one [source-anchors.source] warning at index.md:{where[target]}, got "
                f"{[(w.type, w.message[:150]) for w in got]}"
            )
        else:
            count = sum(t.split(":")[0] == repo for t in targets)
            absent = [
                text
                for text in [*must[repo], f"[{count} anchor(s) on 1 page(s) affected"]
                if text not in got[0].message
            ]
            if absent:
                problems.append(f"the message does not say {absent}: {got[0].message[:600]}")
            dist_part = got[0].message.partition("dist: ")[2]
            if repo == "distdead" and f"{DEAD}/simple".removeprefix("http://") not in dist_part:
                problems.append(
                    "the 'dist:' part does not name the package index it tried (or that it was "
                    f"unreachable): {dist_part[:400]!r}"
                )
        tally.case(f"{target}: a clear error naming what was tried", problems)
    tally.check()


def test_cached_trees_build_without_network(tmp_path: Path, results: Results) -> None:
    tally = results.tally(CATEGORY)
    gitup = Upstream(tmp_path / "git-upstream")
    gitup.write("pkg/__init__.py", "")
    gitup.write("pkg/mod.py", MOD)
    git_commit = gitup.commit()
    distup = Upstream(tmp_path / "dist-upstream")
    distup.write("pkg/__init__.py", "")
    distup.write("pkg/mod.py", MOD.replace("* 2", "* 3"))
    dist_commit = distup.commit()
    links = tmp_path / "links"
    links.mkdir()
    (links / "sademo-1.0-py3-none-any.whl").write_bytes(
        wheel_bytes(
            "sademo",
            "1.0",
            {"pkg/__init__.py": b"", "pkg/mod.py": MOD.replace("* 2", "* 3").encode()},
        )
    )
    book, cache = tmp_path / "book", tmp_path / "cache"
    repos = {
        "gitpin": {"url": gitup.url, "commit": git_commit, "packages": ["pkg"]},
        "distpin": {
            "url": f"{DEAD}/sademo.git",
            "host": "github",
            "commit": dist_commit,
            "packages": ["pkg"],
            "dist": "sademo==1.0",
            "sources": ["dist"],
            "listing": "dist.listing",
        },
    }
    (book).mkdir()
    (book / "dist.listing").write_text(git("ls-tree", "-r", dist_commit, cwd=distup.path), "utf-8")
    write_book(
        book, cache, repos, ["gitpin:pkg.mod.func", "gitpin:pkg.mod", "distpin:pkg.mod.func"]
    )
    warm = build_in_process(book, strict=True, env=pip_env(links, tmp_path / "pip-cache"))
    tally.case("warm the cache (git and a verified wheel)", _build_problems(warm))
    # Break everything: the git remote is gone, the index is dead, http goes to a dead proxy.
    gitup.path.rename(tmp_path / "git-upstream-gone")
    broken = {
        **DEAD_INDEX,
        "PIP_CACHE_DIR": str(tmp_path / "pip-cache-2"),
        "CI": "true",
        "http_proxy": f"{DEAD}",
        "https_proxy": f"{DEAD}",
        "ALL_PROXY": f"{DEAD}",
    }
    start = time.monotonic()
    again = build_in_process(book, strict=True, fresh=True, out="offline", env=broken)
    problems = _build_problems(again)
    report = book / "_build" / "offline" / "source-anchors.json"
    if report.is_file():
        statuses = [row["status"] for row in json.loads(report.read_text("utf-8"))]
        if statuses != ["ok", "ok", "ok"]:
            problems.append(f"statuses {statuses}, expected ok ×3")
    else:
        problems.append("no report")
    tally.case(
        f"cached trees build strictly (-W, locked) with the network broken ({time.monotonic() - start:.1f} s)",
        problems,
    )
    tally.check()
