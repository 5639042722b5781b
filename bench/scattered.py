"""The bench's scattered case: targets that cite modules in scattered order, cold, in a fresh interpreter.

Consecutive targets cite different modules (round robin over the modules, each module's
targets in turn), the order in which a cache of a few syntax trees parsed the same file
again and again. The figure is ``ast_parses`` against the files the resolutions touched
(their own files and the ``uses``): each file must be parsed at most once.
``measure`` is called by ``bench/run.py``; ``python bench/scattered.py ARGS.json`` is the probe.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def scattered_order(targets: Sequence[tuple[str, str]]) -> list[str]:
    """*targets* as (module, target) pairs, reordered round robin over modules (no two neighbours share one)."""
    by_module: dict[str, list[str]] = {}
    for module, target in targets:
        by_module.setdefault(module, []).append(target)
    queues = [by_module[m] for m in sorted(by_module, key=lambda m: (zlib.crc32(m.encode()), m))]
    order: list[str] = []
    while any(queues):
        for queue in queues:
            if queue:
                order.append(queue.pop(0))
    return order


def measure(bench: Any) -> dict[str, Any]:
    """Resolve the base set of targets in scattered order with a cold resolution cache; check the parse count."""
    work = Path(bench.probe_cache).parent
    cache = work / "cache-scattered"
    if cache.exists():
        shutil.rmtree(cache / "resolutions", ignore_errors=True)
    else:
        shutil.copytree(bench.probe_cache, cache, ignore=shutil.ignore_patterns("resolutions"))
    order = scattered_order([(a.symbol.module, a.target) for a in bench.anchors])
    args = {"ext": str(bench.ext), "repos": bench.repos, "cache": str(cache), "targets": order}
    path = work / "probe-scattered.json"
    path.write_text(json.dumps(args), "utf-8")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            [str(bench.ext), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    }
    done = subprocess.run(
        [sys.executable, __file__, str(path)], capture_output=True, text=True, env=env
    )
    if done.returncode != 0:
        raise SystemExit(f"bench: scattered probe failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["modules"] = len({a.symbol.module for a in bench.anchors})
    print(
        f"scattered order: {result['targets']} targets over {result['modules']} modules, "
        f"{result['ast_parses']} ast.parse calls for {result['files_touched']} files touched, "
        f"{result['seconds']:.2f} s"
    )
    if result["ast_parses"] > result["files_touched"]:
        raise SystemExit(
            f"bench: scattered order parsed {result['ast_parses']} times for "
            f"{result['files_touched']} files: some file was parsed twice"
        )
    return result


def probe(args: dict[str, Any]) -> dict[str, Any]:
    """In a fresh interpreter: check every target in the given order, count parses and files touched."""
    from source_anchors.engine.engine import Engine
    from source_anchors.model.config import settings_from
    from source_anchors.model.target import parse_target

    settings = settings_from(
        {"repos": args["repos"], "default_repo": "django", "cache_dir": args["cache"]},
        confdir=Path(args["cache"]),
        environ={},
    )
    engine = Engine(settings)
    engine.tree("django")
    touched: set[str] = set()
    start = time.perf_counter()
    for text in args["targets"]:
        location = engine.check(parse_target(text, default_repo="django")).location
        if location is not None:
            touched |= {location.path, *dict(location.uses)}
    return {
        "targets": len(args["targets"]),
        "seconds": time.perf_counter() - start,
        "ast_parses": engine.stats["ast_parses"],
        "modules_parsed": engine.modules_parsed(),
        "files_touched": len(touched),
    }


if __name__ == "__main__":
    print(json.dumps(probe(json.loads(Path(sys.argv[1]).read_text("utf-8")))))
