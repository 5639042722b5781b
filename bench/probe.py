"""One measurement in a fresh process: ``python bench/probe.py <kind> <args.json>``.

Each kind prints one JSON object on stdout. Only the measured work is timed;
interpreter start-up and imports are not.
"""

from __future__ import annotations

import ast
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def floor(args: dict[str, Any]) -> dict[str, Any]:
    """Read, decode and ``ast.parse`` the given files: the least any static resolver must do."""
    root = Path(args["root"])
    start, cpu = time.perf_counter(), time.process_time()
    for rel in [] if args.get("skip") else args["files"]:
        ast.parse(root.joinpath(rel).read_bytes().decode("utf-8-sig"), filename=rel)
    return {
        "seconds": time.perf_counter() - start,
        "cpu_s": time.process_time() - cpu,
        "files": len(args["files"]),
    }


def whole(args: dict[str, Any]) -> dict[str, Any]:
    """One static griffe load of the whole package."""
    import logging

    import griffe

    logging.disable(logging.WARNING)
    start, cpu = time.perf_counter(), time.process_time()
    package = griffe.load(
        args["package"],
        search_paths=[args["search_path"]],
        allow_inspection=False,
        try_relative_path=False,
    )
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    count, stack = 0, [package]
    while stack:  # count modules, outside the timing
        module = stack.pop()
        count += 1
        stack.extend(m for m in module.members.values() if not m.is_alias and m.is_module)
    return {"seconds": seconds, "cpu_s": cpu, "modules": count}


def resolve(args: dict[str, Any]) -> dict[str, Any]:
    """The extension's core on a list of targets, as a build's ``config-inited`` and roles drive it.

    Times apart: the engine's start (settings and the lock, when one is given), the tree (an export
    when the tree cache is cold), and ``Engine.check`` of every target. Untimed afterwards (and
    reported: ``touched``, the files the answers depend on, and ``parsed_untouched``, files parsed
    that no answer depends on): with ``remember`` the results go into the resolution cache, with
    ``write_lock`` into the lock, as a build would store them; with ``profile`` the check loop runs
    under cProfile; with ``skip`` it does not run (nor does the floor's parsing): the rest of the
    process, which an instruction count subtracts.
    """
    from source_anchors.engine.engine import Engine
    from source_anchors.model.config import settings_from
    from source_anchors.model.target import parse_target

    lock = Path(args["lock"])
    targets = Path(args["targets"]).read_text("utf-8").splitlines()
    start, cpu = time.perf_counter(), time.process_time()
    settings = settings_from(
        {
            "repos": args["repos"],
            "default_repo": "django",
            "cache_dir": args["cache"],
            "lock_file": lock.name,
        },
        confdir=lock.parent,
        environ={},
    )
    engine = Engine(settings)
    engine_s, engine_cpu = time.perf_counter() - start, time.process_time() - cpu
    start = time.perf_counter()
    engine.tree("django")
    export_s = time.perf_counter() - start
    if args.get("skip"):  # the start only: what an instruction count of the check loop subtracts
        return {"engine_s": engine_s, "export_s": export_s}
    profiler = None
    if args.get("profile"):
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    start, cpu = time.perf_counter(), time.process_time()
    outcomes = [engine.check(parse_target(text, default_repo="django")) for text in targets]
    resolve_s, cpu = time.perf_counter() - start, time.process_time() - cpu
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args["profile"])
    if args.get("remember"):
        engine.remember(outcomes)
    if args.get("write_lock"):
        engine.lock_new(outcomes)
    statuses: dict[str, int] = {}
    touched: set[str] = (
        set()
    )  # the files the answers depend on: each anchor's own file and its ``uses``
    for outcome in outcomes:
        statuses[outcome.status.value] = statuses.get(outcome.status.value, 0) + 1
        if outcome.location is not None:
            touched |= {outcome.location.path, *dict(outcome.location.uses)}
    parsed = engine.resolver("django").files.parsed
    return {
        "engine_s": engine_s,
        "engine_cpu_s": engine_cpu,
        "export_s": export_s,
        "seconds": resolve_s,
        "cpu_s": cpu,
        "modules_parsed": engine.modules_parsed(),
        "statuses": statuses,
        **engine.stats,
        "touched": sorted(touched),
        "parsed_untouched": sorted(parsed - touched),
    }


def build(args: dict[str, Any]) -> dict[str, Any]:
    """Run one command (a sphinx-build) as this process's only child: wall time and peak memory."""
    start = time.perf_counter()
    done = subprocess.run(args["argv"], env=args["env"], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # ru_maxrss is in kilobytes on Linux
    return {
        "seconds": seconds,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "rss_mb": usage.ru_maxrss / 1024,
        "returncode": done.returncode,
        "stderr": done.stderr[-4000:],
    }


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    result = {"floor": floor, "whole": whole, "resolve": resolve, "build": build}[kind](
        json.loads(Path(path).read_text("utf-8"))
    )
    print(json.dumps(result))
