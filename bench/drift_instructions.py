"""``check --pin`` against a cold resolution in instructions, not seconds (``make drift-instructions``).

``python bench/drift_instructions.py [--only NAME] [--limit N]``. The wall and processor times of
``make drift-eval`` move by a third from run to run on a shared machine; instruction counts do not.
The same two passes as :mod:`drift_eval` (the same anchors, chosen the same way), each in a fresh
process under callgrind with its children (git's exports too), and a floor process that only starts,
imports the extension and reads the anchors:

* **cold**: an empty cache; the old tree exported, every anchor checked, what a build stores stored;
* **check**: that cache and the lock written from the cold pass's outcomes (not counted); the new tree
  exported, every anchor checked against the lock (classes, suggestions, history), stored.

Printed and written to ``_build/drift/instructions.json``: each count, and
``(check - floor) / (cold - floor)``, the ratio issue 31 bounds by 1.5. Needs valgrind; takes minutes.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import drift_eval  # beside this file, which Python puts first on the path


def main(argv: list[str] | None = None) -> int:
    """Measure one bump (or, with ``--phase``, run one pass of it in this process)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=sorted(drift_eval.BUMPS), default="django", help="the bump (django)")
    parser.add_argument("--limit", type=int, default=None, help="at most N anchors")
    parser.add_argument("--phase", choices=("floor", "cold", "lock", "check"), help=argparse.SUPPRESS)
    parser.add_argument("spec", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phase:
        return phase(args.phase, json.loads(Path(args.spec).read_text("utf-8")))
    if shutil.which("valgrind") is None:
        raise SystemExit("drift_instructions: needs valgrind (apt-get install valgrind)")
    result = measure(args.only, args.limit)
    out = drift_eval.OUT / "instructions.json"
    out.write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    print(f"{result['bump']}: {result['anchors']} anchors; instructions (callgrind, git's included): floor "
          f"{result['floor']:,}, cold resolution {result['cold']:,}, check --pin {result['check']:,}; "
          f"check --pin / cold resolution, the floor taken from both: {result['check_to_cold']}")
    print(f"results: {out.relative_to(drift_eval.ROOT)}")
    return 0


def measure(name: str, limit: int | None) -> dict[str, Any]:
    """The instruction counts of the floor, the cold pass and the check pass of bump *name*."""
    spec = drift_eval.BUMPS[name]
    got = drift_eval.releases(spec.get("repo", name), spec["dists"]) if "dists" in spec \
        else drift_eval.history(spec["refs"])
    if isinstance(got, str):
        raise SystemExit(f"drift_instructions: {name}: {got}")
    url, old, new = got
    work = Path(tempfile.mkdtemp(prefix="instructions-", dir=drift_eval.OUT))
    try:
        picker = _engine(url, old, spec["packages"], drift_eval.OUT / "cache", work / "unused.lock", work)
        pairs = drift_eval.targets(picker.resolver("up"), limit, spec.get("exclude"))
        texts = [f"up:{path}" + (f"::{match}" if match else "") for path, match in pairs]
        plan = {"url": url, "old": old, "new": new, "packages": spec["packages"], "texts": texts,
                "cache": str(work / "cache"), "lock": str(work / "source-anchors.lock"), "work": str(work)}
        (work / "plan.json").write_text(json.dumps(plan), "utf-8")
        counts = _counted({"floor": "floor", "cold": "cold"}, work)
        _run("lock", work)  # the lock from a cold pass's outcomes, with the cache it left: not counted
        counts.update(_counted({"check": "check"}, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    floor = counts["floor"]
    return {"bump": name, "old": old, "new": new, "anchors": len(texts), **counts,
            "check_to_cold": round((counts["check"] - floor) / (counts["cold"] - floor), 3)}


def _engine(url: str, commit: str, packages: list[str], cache: Path, lock: Path, work: Path) -> Any:
    from source_anchors.engine.engine import Engine
    from source_anchors.model.config import settings_from

    return Engine(settings_from({"repos": {"up": {"url": url, "commit": commit, "packages": packages}},
                                 "cache_dir": str(cache), "lock_file": str(lock)}, confdir=work, environ={}))


def phase(name: str, plan: dict[str, Any]) -> int:
    """One pass in this process (run under callgrind by :func:`measure`)."""
    from source_anchors.engine.engine import Engine  # noqa: F401  (the floor imports what the passes import)
    from source_anchors.model.records import Status

    texts, work = plan["texts"], Path(plan["work"])
    if name == "floor":
        return 0
    commit = plan["new"] if name == "check" else plan["old"]
    cache = Path(plan["cache"]) if name != "lock" else work / "lock-cache"
    engine = _engine(plan["url"], commit, plan["packages"], cache, Path(plan["lock"]), work)
    engine.tree("up")
    outcomes = [engine.check_text(text, default_repo=None) for text in texts]
    if name == "lock":
        engine.relock(o for o in outcomes if o.status is not Status.error)
        shutil.rmtree(cache, ignore_errors=True)
        return 0
    engine.remember(outcomes)
    return 0


def _run(name: str, work: Path) -> None:
    subprocess.run([sys.executable, __file__, "--phase", name, str(work / "plan.json")], check=True,
                   stdout=subprocess.DEVNULL)


def _counted(phases: dict[str, str], work: Path) -> dict[str, int]:
    """Each phase in its own process under callgrind (children too), all at once; their instruction counts."""
    from run import fixed_addresses

    running = {name: subprocess.Popen(
        [*fixed_addresses(), "valgrind", "--tool=callgrind", "--trace-children=yes",
         f"--callgrind-out-file={work}/callgrind.{name}.%p", sys.executable, __file__, "--phase", phase_name,
         str(work / "plan.json")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for name, phase_name in phases.items()}
    counts = {}
    for name, process in running.items():
        _, stderr = process.communicate()
        found = [int(line.rsplit(":", 1)[1].strip().replace(",", "")) for line in stderr.splitlines()
                 if "Collected :" in line]
        if process.returncode != 0 or not found:
            raise SystemExit(f"drift_instructions: {name} under valgrind failed:\n{stderr[-3000:]}")
        counts[name] = sum(found)
    return counts


if __name__ == "__main__":
    raise SystemExit(main())
