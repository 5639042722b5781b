"""Faults: builds and ``update`` killed with SIGKILL at random points (seeded).

Builds start on a cold cache and are killed at a random delay, half of them drawn over
the whole build and half over the export window measured in a calibration run (while
git fetches and writes the tree). ``python -m source_anchors update`` is killed at a
random delay, half over its whole run and half around the moment the calibration run
replaced the lock. After each kill: the lock is the old or the new one, valid JSON that
``source_anchors.lock.lockfile.read_lock`` reads; every ``<cache>/trees/*/`` has its meta.json and
files whose blob ids match it; the next build succeeds and leaves a whole tree, no
staging leftovers and the expected lock.

Only the runs that are killed (and the calibration runs that time them) are subprocesses; the
builds that set a book up or check it after a kill run in-process.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import Upstream, build_env, cli_argv, sphinx_argv
from helpers import write_conf as write_book_conf

from .figures import Results, Scale
from .support import (
    build_in_process,
    cache_problems,
    cli_in_process,
    kill_group,
    tmp_entries,
    tree_dirs,
)

CATEGORY = "faults"
FILLER = 400  # modules, so that the export takes a moment

MOD_V1 = '''\
"""The module the book cites."""


def alpha(x):
    return x + 1


def beta(y):
    if y > 1:
        return "big"
    return "small"
'''
MOD_V2 = "# pushed down\n# by two lines\n" + MOD_V1.replace('return "small"', 'return "tiny"')
INDEX = "# Index\n\n{src}`pkg.mod.alpha`\n\n{src}`pkg.g3.m3.VALUE_3`\n\n```{toctree}\nmore\n```\n"
MORE = '# More\n\n{src}`pkg.mod.beta`\n\n{src}`pkg.mod.beta::return "big"`\n\n{src}`pkg.g7.m27.VALUE_27`\n'


@dataclass
class Project:
    """An upstream at two commits, a book, and the locks it goes through."""

    upstream: Upstream
    v1: str
    v2: str
    root: Path
    old_lock: bytes  # v1, index.md's anchors only
    new_lock: bytes  # v1, every anchor (what a build adds)
    v2_lock: bytes  # v2, every anchor (what update writes after the pin bump)


def write_conf(root: Path, url: str, commit: str, cache: Path) -> None:
    repos = {"up": {"url": url, "commit": commit, "packages": ["pkg"]}}
    write_book_conf(root, repos, cache, default_repo="up")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    where = tmp_path_factory.mktemp("faults")
    up = Upstream(where / "upstream")
    up.write("pkg/__init__.py", "")
    up.write("pkg/mod.py", MOD_V1)
    for index in range(FILLER):
        folder = up.path / "pkg" / f"g{index % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "__init__.py").write_text("", "utf-8")
        (folder / f"m{index}.py").write_text(f"VALUE_{index} = {os.urandom(64).hex()!r}\n", "utf-8")
    v1 = up.commit("v1")
    up.write("pkg/mod.py", MOD_V2)
    v2 = up.commit("v2")
    root = where / "book"
    root.mkdir(parents=True)
    cache = where / "warm-cache"
    write_conf(root, up.url, v1, cache)
    (root / "index.md").write_text(INDEX.replace("```{toctree}\nmore\n```\n", ""), "utf-8")
    first = build_in_process(root, strict=True)
    assert first.returncode == 0, first.stderr
    old_lock = (root / "source-anchors.lock").read_bytes()
    (root / "index.md").write_text(INDEX, "utf-8")
    (root / "more.md").write_text(MORE, "utf-8")
    probe = where / "probe"
    shutil.copytree(root, probe)
    second = build_in_process(probe, strict=True)
    assert second.returncode == 0, second.stderr
    new_lock = (probe / "source-anchors.lock").read_bytes()
    write_conf(probe, up.url, v2, cache)
    bumped = cli_in_process(probe, "update")
    assert bumped.returncode == 0, bumped.output
    v2_lock = (probe / "source-anchors.lock").read_bytes()
    assert len({old_lock, new_lock, v2_lock}) == 3
    shutil.rmtree(root / "_build")
    return Project(up, v1, v2, root, old_lock, new_lock, v2_lock)


def lock_problems(lock: Path, allowed: dict[bytes, str]) -> tuple[str, list[str]]:
    """Which allowed lock the file is, and problems (not one of them, or not readable)."""
    from source_anchors.lock.lockfile import read_lock
    from source_anchors.model.errors import LockError

    problems = []
    data = lock.read_bytes() if lock.is_file() else b""
    which = allowed.get(data, "neither")
    if which == "neither":
        problems.append(
            f"the lock is neither the old nor the new one ({len(data)} bytes: {data[:80]!r}…)"
        )
    try:
        read_lock(lock)
    except LockError as error:
        problems.append(f"read_lock fails: {error}")
    return which, problems


def _popen(argv: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    # The process's temporary folder is the trial's: a process killed with SIGKILL cannot remove its
    # own (the CLI's ``source-anchors-cli.*``), and nothing of a test may stay in the system's.
    tmp = cwd.parent / "tmp"
    tmp.mkdir(exist_ok=True)
    return subprocess.Popen(
        argv,
        cwd=cwd,
        env=build_env({"TMPDIR": str(tmp)}),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _phase(cache: Path) -> str:
    trees, tmp = cache / "trees", cache / "tmp"
    if trees.is_dir() and any(trees.iterdir()):
        return "after the export"
    if tmp.is_dir() and any(tmp.iterdir()):
        return "during the export"
    return "before the export"


def calibrate_build(project: Project, place: Path) -> tuple[float, float, float]:
    """(export start, export end, build end) in seconds from start, for a cold build."""
    book = place / "book"
    shutil.copytree(project.root, book)
    cache = place / "cache"
    write_conf(book, project.upstream.url, project.v1, cache)
    start = time.monotonic()
    proc = _popen(sphinx_argv(book), book)
    export_start = export_end = None
    while proc.poll() is None:
        phase = _phase(cache)
        now = time.monotonic() - start
        if phase == "during the export" and export_start is None:
            export_start = now
        if phase == "after the export" and export_end is None:
            export_end = now
        time.sleep(0.002)
    total = time.monotonic() - start
    assert proc.returncode == 0
    export_end = export_end or total
    return (export_start if export_start is not None else export_end * 0.8), export_end, total


def test_builds_killed_at_random_points(
    project: Project, tmp_path: Path, results: Results, scale: Scale, seed: int
) -> None:
    tally = results.tally(CATEGORY)
    t0, t1, total = calibrate_build(project, tmp_path / "calibration")
    tally.note(f"cold build: export from {t0:.2f} s to {t1:.2f} s, done at {total:.2f} s")
    rng = random.Random(seed)
    phases: dict[str, int] = {}
    allowed = {project.old_lock: "old", project.new_lock: "new"}
    for trial in range(scale.kill_builds):
        place = tmp_path / f"trial-{trial}"
        book, cache = place / "book", place / "cache"
        shutil.copytree(project.root, book)
        write_conf(book, project.upstream.url, project.v1, cache)
        (book / "source-anchors.lock").write_bytes(project.old_lock)
        delay = (
            rng.uniform(0.05, 0.95 * total)
            if trial % 2 == 0
            else rng.uniform(t0, max(t1, t0 + 0.01))
        )
        proc = _popen(sphinx_argv(book), book)
        deadline = time.monotonic() + delay
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
        phase = _phase(cache) if proc.poll() is None else "after the build ended"
        kill_group(proc)
        phases[phase] = phases.get(phase, 0) + 1
        which, problems = lock_problems(book / "source-anchors.lock", allowed)
        problems += [f"after the kill: {p}" for p in cache_problems(cache)]
        after = build_in_process(book, strict=True)
        if after.returncode != 0 or after.crashed():
            problems.append(
                f"the next build failed (exit {after.returncode}): "
                + " | ".join(after.stderr.strip().splitlines()[-3:])[:500]
            )
        problems += [f"after the next build: {p}" for p in cache_problems(cache)]
        if len(tree_dirs(cache)) != 1:
            problems.append(f"trees after the next build: {tree_dirs(cache)}")
        if tmp_entries(cache):
            problems.append(f"staging leftovers after the next build: {tmp_entries(cache)}")
        final, lock_after = lock_problems(book / "source-anchors.lock", allowed)
        problems += lock_after
        if final != "new":
            problems.append(
                f"after the next build the lock is the {final} one, expected the new one"
            )
        tally.case(f"build killed at {delay:.2f} s ({phase}; lock then: {which})", problems)
    tally.note(f"build kills by phase: {phases}")
    tally.check()


def calibrate_update(project: Project, place: Path, cache: Path) -> tuple[float, float]:
    """(time the lock was replaced, total) for one update, in seconds from start."""
    book = place / "book"
    shutil.copytree(project.root, book)
    write_conf(book, project.upstream.url, project.v2, cache)
    lock = book / "source-anchors.lock"
    lock.write_bytes(project.new_lock)
    before = lock.stat().st_ino
    start = time.monotonic()
    proc = _popen(cli_argv(book, "update"), book)
    replaced = None
    while proc.poll() is None:
        if replaced is None and lock.exists() and lock.stat().st_ino != before:
            replaced = time.monotonic() - start
        time.sleep(0.001)
    total = time.monotonic() - start
    assert lock.read_bytes() == project.v2_lock
    return (replaced if replaced is not None else total * 0.95), total


def test_update_killed_while_writing_the_lock(
    project: Project, tmp_path: Path, results: Results, scale: Scale, seed: int
) -> None:
    tally = results.tally(CATEGORY)
    cache = tmp_path / "warm-cache"
    write_conf(project.root, project.upstream.url, project.v1, cache)
    warm = build_in_process(project.root, builder="dummy", out="warm-v1")
    assert warm.returncode == 0, warm.stderr
    (project.root / "source-anchors.lock").write_bytes(project.new_lock)
    written, total = calibrate_update(project, tmp_path / "calibration", cache)
    tally.note(f"update: lock replaced at {written:.2f} s, done at {total:.2f} s")
    rng = random.Random(seed + 1)
    allowed = {project.new_lock: "old", project.v2_lock: "new"}
    outcomes: dict[str, int] = {}
    leftovers = 0
    for trial in range(scale.kill_updates):
        place = tmp_path / f"trial-{trial}"
        book = place / "book"
        shutil.copytree(project.root, book, ignore=shutil.ignore_patterns("_build"))
        write_conf(book, project.upstream.url, project.v2, cache)
        lock = book / "source-anchors.lock"
        lock.write_bytes(project.new_lock)
        delay = (
            rng.uniform(0.05, total)
            if trial % 2 == 0
            else max(0.0, rng.uniform(written - 0.15, written + 0.02))
        )
        proc = _popen(cli_argv(book, "update"), book)
        deadline = time.monotonic() + delay
        while proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.0005)
        ended = proc.poll() is not None
        kill_group(proc)
        which, problems = lock_problems(lock, allowed)
        outcomes[which] = outcomes.get(which, 0) + 1
        leftovers += len(list(book.glob(".source-anchors.lock.*.tmp")))
        after = build_in_process(book)
        if (
            after.returncode != 0
            or after.crashed()
            or not (book / "_build/html/source-anchors.json").is_file()
        ):
            problems.append(
                f"the next build failed (exit {after.returncode}): "
                + " | ".join(after.stderr.strip().splitlines()[-3:])[:500]
            )
        problems += cache_problems(cache)
        _, lock_after = lock_problems(lock, allowed)
        problems += [f"after the next build: {p}" for p in lock_after]
        tally.case(
            f"update killed at {delay:.3f} s ({'after it ended' if ended else 'running'}; lock: {which})",
            problems,
        )
    tally.note(
        f"update kills left the lock: {outcomes}; leftover .source-anchors.lock.*.tmp files: {leftovers}"
    )
    tally.check()


def test_build_after_a_kill_left_an_empty_buildinfo(
    project: Project, tmp_path: Path, results: Results
) -> None:
    """The random kills once left ``_build/html/.buildinfo`` empty: Sphinx writes it with ``Path.write_text``.

    Sphinx 9 cannot read an empty ``.buildinfo`` (``IndexError`` in ``BuildInfo.load``), so every
    later build of that output directory crashes, ``-E`` included, until someone deletes the file.
    This is the state such a kill leaves, made on purpose so that it is checked on every run.
    """
    tally = results.tally(CATEGORY)
    book = tmp_path / "book"
    shutil.copytree(project.root, book, ignore=shutil.ignore_patterns("_build"))
    write_conf(book, project.upstream.url, project.v1, tmp_path / "cache")
    first = build_in_process(book)
    assert first.returncode == 0, first.stderr
    (book / "_build" / "html" / ".buildinfo").write_text("", "utf-8")
    problems = []
    for fresh in (False, True):
        again = build_in_process(book, fresh=fresh)
        if again.returncode != 0 or again.crashed():
            problems.append(
                f"the next build{' with -E' if fresh else ''} failed (exit {again.returncode}): "
                + " | ".join(line.strip() for line in again.output.splitlines() if "Error" in line)[
                    -300:
                ]
            )
    tally.case("the next build after a kill left _build/html/.buildinfo empty", problems)
    tally.check()
