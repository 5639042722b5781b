"""Concurrency: four copies of one book built at once on one cold cache, plus a ``-j 2`` build.

All five builds start together (the fifth with ``-j 2``, so Sphinx reads the pages in
parallel worker processes). Every build must succeed with ``-W``; the cache must hold
exactly one exported tree for the one pin, whole (meta.json, blob ids) and without
staging leftovers; the five ``source-anchors.json`` reports must be identical, and so
must the five locks. The full run repeats this on a fresh cold cache several times.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import Upstream, build_env, sphinx_argv, write_conf

from .figures import Results, Scale
from .support import cache_problems, copy_book, tmp_entries, tree_dirs

CATEGORY = "concurrency"
COPIES = 4
PAGES = 12
MOD = '''\
"""Cited module."""


def alpha(x):
    return x + 1


class Gamma:
    def delta(self):
        if self:
            return 4
        return 5
'''
KEYS = ("doc", "line", "target", "status", "path", "start", "end", "permalink")


@pytest.fixture(scope="module")
def upstream(tmp_path_factory: pytest.TempPathFactory) -> tuple[Upstream, str]:
    up = Upstream(tmp_path_factory.mktemp("concurrency") / "upstream")
    up.write("pkg/__init__.py", "")
    up.write("pkg/mod.py", MOD)
    for index in range(300):
        folder = up.path / "pkg" / f"g{index % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "__init__.py").write_text("", "utf-8")
        (folder / f"m{index}.py").write_text(f"VALUE_{index} = {os.urandom(48).hex()!r}\n", "utf-8")
    return up, up.commit("many modules")


def make_book(root: Path, url: str, commit: str, cache: Path) -> None:
    root.mkdir(parents=True)
    repos = {"up": {"url": url, "commit": commit, "packages": ["pkg"]}}
    write_conf(root, repos, cache, default_repo="up")
    toc = "\n".join(f"p{i}" for i in range(PAGES))
    (root / "index.md").write_text(
        f"# Book\n\n{{src}}`pkg.mod`\n\n```{{toctree}}\n{toc}\n```\n", "utf-8"
    )
    for i in range(PAGES):
        (root / f"p{i}.md").write_text(
            f"# Page {i}\n\nSee {{src}}`alpha <pkg.mod.alpha>` and {{src}}`pkg.g{i % 10}.m{i}.VALUE_{i}`,\n"
            f"then {{src}}`the branch <pkg.mod.Gamma.delta::if self>`.\n\n"
            f"```{{source-anchor}} pkg.mod.Gamma\n:caption: card {i}\n```\n",
            "utf-8",
        )


def _fields(report: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(row.get(key) for key in KEYS) for row in report]


def test_concurrent_builds_share_one_cold_cache(
    upstream: tuple[Upstream, str], tmp_path: Path, results: Results, scale: Scale
) -> None:
    tally = results.tally(CATEGORY)
    up, commit = upstream
    for round_ in range(scale.concurrency_rounds):
        place = tmp_path / f"round-{round_}"
        cache = place / "cache"
        first = place / "book-0"
        make_book(first, up.url, commit, cache)
        books = [first] + [place / f"book-{i}" for i in range(1, COPIES + 1)]
        for book in books[1:]:
            copy_book(first, book)
        argvs = [sphinx_argv(book, "-W") for book in books[:COPIES]] + [
            sphinx_argv(books[COPIES], "-W", "-j", "2")
        ]
        procs = [
            subprocess.Popen(
                argv,
                cwd=book,
                env=build_env(),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for argv, book in zip(argvs, books, strict=True)
        ]
        outputs = [proc.communicate(timeout=600) for proc in procs]
        reports: list[list[dict[str, Any]] | None] = []
        for number, (book, proc, (out, err)) in enumerate(zip(books, procs, outputs, strict=True)):
            how = "-j 2" if number == COPIES else "serial"
            problems = []
            if proc.returncode != 0 or "Traceback" in out + err:
                problems.append(
                    f"exit {proc.returncode}: " + " | ".join(err.strip().splitlines()[-4:])[:600]
                )
            report_file = book / "_build" / "html" / "source-anchors.json"
            report = json.loads(report_file.read_text("utf-8")) if report_file.is_file() else None
            reports.append(report)
            if report is None:
                problems.append("no source-anchors.json")
            elif {row["status"] for row in report} != {"new"}:
                problems.append(
                    f"statuses {sorted({row['status'] for row in report})}, expected all 'new'"
                )
            tally.case(f"round {round_}: build {number} ({how}) of {len(books)} at once", problems)
        problems = []
        if (
            tree_dirs(cache) != [t for t in tree_dirs(cache) if commit in t]
            or len(tree_dirs(cache)) != 1
        ):
            problems.append(
                f"exports under trees/: {tree_dirs(cache)} (expected one, for {commit[:12]})"
            )
        problems += cache_problems(cache)
        if tmp_entries(cache):
            problems.append(f"staging leftovers: {tmp_entries(cache)}")
        tally.case(f"round {round_}: one whole export for the one pin", problems)
        problems = []
        present = [r for r in reports if r is not None]
        if len(present) == len(books):
            if any(r != present[0] for r in present):
                differ = [i for i, r in enumerate(present) if _fields(r) != _fields(present[0])]
                problems.append(
                    f"reports differ from build 0: builds {differ}"
                    if differ
                    else "reports differ in fields other than doc/line/target/status/path/lines/permalink"
                )
            locks = [(book / "source-anchors.lock").read_bytes() for book in books]
            if any(lock != locks[0] for lock in locks):
                problems.append("the locks differ")
            if len(present[0]) != 1 + PAGES * 4:
                problems.append(f"{len(present[0])} anchors reported, expected {1 + PAGES * 4}")
        else:
            problems.append("not every build wrote a report")
        tally.case(
            f"round {round_}: identical reports and locks from all {len(books)} builds", problems
        )
    tally.check()
