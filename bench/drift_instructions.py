"""``check --pin`` against a cold resolution in instructions, not seconds (``make drift-instructions``).

``python bench/drift_instructions.py [--only NAME] [--limit N]``. The wall and processor times of
``make drift-eval`` move by a third from run to run on a shared machine; instruction counts do not.
The same two passes as :mod:`drift_eval` (the same anchors, chosen the same way), each in a fresh
process under callgrind with its children (git's exports too), and a floor process that only starts,
imports the extension and reads the anchors:

* **cold**: an empty cache; the old tree exported, every anchor checked, what a build stores stored;
* **check**: that cache and the lock written from the cold pass's outcomes (not counted); the new
  tree exported, every anchor checked against the lock (classes, suggestions, history), stored.

Printed and written to ``_build/drift/instructions.json``: each count, and ``(check - floor) / (cold
- floor)``, the ratio issue 31 bounds by 1.5. Needs valgrind; takes minutes.

``--stages`` also counts where each pass spends them: the pass again in a process per stage, with
callgrind collecting only inside that stage's entry point (:data:`STAGES`; a client request of
callgrind's, made through a helper compiled with ``cc`` against valgrind's ``callgrind.h``), and
once whole. These count this process alone (git's children are not in them); about 25 minutes more.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import drift_eval  # beside this file, which Python puts first on the path

#: What ``--stages`` counts alone: (module, class or None, function) of each stage's entry point,
#: counted with all it calls. ``suggestions`` holds ``catalog``, the index of the new tree's
#: definitions.
STAGES: dict[str, tuple[str, str | None, str]] = {
    "export": ("source_anchors.engine.engine", "Engine", "tree"),
    "resolution": ("source_anchors.engine.engine", "Engine", "_locate"),
    "classes": ("source_anchors.engine.engine", None, "compare"),
    "suggestions": ("source_anchors.engine.engine", "Engine", "suggest"),
    "catalog": ("source_anchors.suggest.catalog", "Catalog", "__init__"),
    "store": ("source_anchors.engine.engine", "Engine", "remember"),
}
#: The stages a cold pass has (nothing is compared with a lock, nothing is missing).
_COLD_STAGES = ("export", "resolution", "store")
_TOGGLE = "#include <valgrind/callgrind.h>\nvoid toggle(void) { CALLGRIND_TOGGLE_COLLECT; }\n"


def main(argv: list[str] | None = None) -> int:
    """Measure one bump (or, with ``--phase``, run one pass of it in this process)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--only", choices=sorted(drift_eval.BUMPS), default="django", help="the bump (django)"
    )
    parser.add_argument("--limit", type=int, default=None, help="at most N anchors")
    parser.add_argument(
        "--stages",
        action="store_true",
        help="also count each stage of both passes alone (this process only; ~25 minutes more)",
    )
    parser.add_argument(
        "--phase", choices=("floor", "cold", "lock", "check"), help=argparse.SUPPRESS
    )
    parser.add_argument("--stage", help=argparse.SUPPRESS)
    parser.add_argument("spec", nargs="?", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phase:
        if args.stage:
            _count_only(args.stage, Path(args.spec).parent / "toggle.so")
        return phase(args.phase, json.loads(Path(args.spec).read_text("utf-8")))
    if shutil.which("valgrind") is None:
        raise SystemExit("drift_instructions: needs valgrind (apt-get install valgrind)")
    if args.stages and not (
        shutil.which("cc") and Path("/usr/include/valgrind/callgrind.h").exists()
    ):
        raise SystemExit(
            "drift_instructions: --stages needs a C compiler (cc) and valgrind's headers "
            "(/usr/include/valgrind/callgrind.h)"
        )
    result = measure(args.only, args.limit, stages=args.stages)
    out = drift_eval.OUT / "instructions.json"
    out.write_text(json.dumps(result, indent=1) + "\n", "utf-8")
    print(
        f"{result['bump']}: {result['anchors']} anchors; instructions (callgrind, git's included): floor "
        f"{result['floor']:,}, cold resolution {result['cold']:,}, check --pin {result['check']:,}; "
        f"check --pin / cold resolution, the floor taken from both: {result['check_to_cold']}"
    )
    if "stages" in result:
        _print_stages(result["stages"])
    print(f"results: {out.relative_to(drift_eval.ROOT)}")
    return 0


def _print_stages(stages: dict[str, dict[str, int]]) -> None:
    """The stage counts as a table, each with its share of its pass."""
    print("instructions by stage, this process alone (git's children not counted):")
    print(f"  {'stage':<12} {'cold resolution':>24} {'check --pin':>24}")
    for stage in (*STAGES, "whole pass"):
        cells = []
        for name in ("cold", "check"):
            count, whole = stages[name].get(stage), stages[name]["whole pass"]
            cells.append(
                f"{count:>15,} ({count / whole:4.0%})" if count is not None else f"{'-':>22}"
            )
        print(f"  {stage:<12} {cells[0]:>24} {cells[1]:>24}")


def measure(name: str, limit: int | None, *, stages: bool = False) -> dict[str, Any]:
    """The instruction counts of the floor, the cold pass and the check pass of bump *name*."""
    spec = drift_eval.BUMPS[name]
    got = (
        drift_eval.releases(spec.get("repo", name), spec["dists"])
        if "dists" in spec
        else drift_eval.history(spec["refs"])
    )
    if isinstance(got, str):
        raise SystemExit(f"drift_instructions: {name}: {got}")
    url, old, new = got
    work = Path(tempfile.mkdtemp(prefix="instructions-", dir=drift_eval.OUT))
    try:
        picker = _engine(
            url, old, spec["packages"], drift_eval.OUT / "cache", work / "unused.lock", work
        )
        pairs = drift_eval.targets(picker.resolver("up"), limit, spec.get("exclude"))
        texts = [f"up:{path}" + (f"::{match}" if match else "") for path, match in pairs]
        plan = {
            "url": url,
            "old": old,
            "new": new,
            "packages": spec["packages"],
            "texts": texts,
            "cache": str(work / "cache"),
            "lock": str(work / "source-anchors.lock"),
            "work": str(work),
        }
        (work / "plan.json").write_text(json.dumps(plan), "utf-8")
        counts = _counted({"floor": "floor", "cold": "cold"}, work)
        _run(
            "lock", work
        )  # the lock from a cold pass's outcomes, with the cache it left: not counted
        if stages:
            shutil.copytree(
                work / "cache", work / "cache.cold"
            )  # what the check pass finds, for _stages
        counts.update(_counted({"check": "check"}, work))
        by_stage = _stages(work) if stages else None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    floor = counts["floor"]
    return {
        "bump": name,
        "old": old,
        "new": new,
        "anchors": len(texts),
        **counts,
        "check_to_cold": round((counts["check"] - floor) / (counts["cold"] - floor), 3),
        **({"stages": by_stage} if by_stage else {}),
    }


def _engine(url: str, commit: str, packages: list[str], cache: Path, lock: Path, work: Path) -> Any:
    from source_anchors.engine.engine import Engine
    from source_anchors.model.config import settings_from

    return Engine(
        settings_from(
            {
                "repos": {"up": {"url": url, "commit": commit, "packages": packages}},
                "cache_dir": str(cache),
                "lock_file": str(lock),
            },
            confdir=work,
            environ={},
        )
    )


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


def _stages(work: Path) -> dict[str, dict[str, int]]:
    """Each stage of both passes counted alone, and each pass whole: a process each, two at a time."""
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-O1", "-o", str(work / "toggle.so"), "-x", "c", "-"],
        input=_TOGGLE,
        text=True,
        check=True,
    )
    plan = json.loads((work / "plan.json").read_text("utf-8"))
    runs = [
        (name, stage)
        for name in ("cold", "check")
        for stage in (*STAGES, "whole pass")
        if name == "check" or stage in (*_COLD_STAGES, "whole pass")
    ]
    counts: dict[str, dict[str, int]] = {"cold": {}, "check": {}}
    for at in range(0, len(runs), 2):
        running = []
        for number, (name, stage) in enumerate(runs[at : at + 2]):
            folder = work / f"stage-{at + number}"
            folder.mkdir()
            # The cold pass starts from nothing and no lock, the check pass from the cache the cold
            # pass left and the lock made from its outcomes, as the counted passes did.
            spec = {**plan, "cache": str(folder / "cache"), "work": str(folder)}
            if name == "cold":
                spec["lock"] = str(folder / "none.lock")
            else:
                shutil.copytree(work / "cache.cold", folder / "cache")
            shutil.copy(work / "toggle.so", folder / "toggle.so")
            (folder / "plan.json").write_text(json.dumps(spec), "utf-8")
            whole = stage == "whole pass"
            argv = [
                *(["--collect-atstart=no"] if not whole else []),
                sys.executable,
                __file__,
                "--phase",
                name,
                *(["--stage", stage] if not whole else []),
                str(folder / "plan.json"),
            ]
            running.append(
                (
                    name,
                    stage,
                    folder,
                    subprocess.Popen(
                        [
                            "valgrind",
                            "--tool=callgrind",
                            f"--callgrind-out-file={folder}/callgrind.out",
                            *argv,
                        ],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.PIPE,
                        text=True,
                    ),
                )
            )
        for name, stage, folder, process in running:
            _, stderr = process.communicate()
            found = [
                int(line.rsplit(":", 1)[1].strip().replace(",", ""))
                for line in stderr.splitlines()
                if "Collected :" in line
            ]
            if process.returncode != 0 or not found:
                raise SystemExit(
                    f"drift_instructions: {name} {stage} under valgrind failed:\n{stderr[-3000:]}"
                )
            counts[name][stage] = found[0]
            shutil.rmtree(folder, ignore_errors=True)
    return counts


def _count_only(stage: str, helper: Path) -> None:
    """Make callgrind collect only while *stage*'s entry point runs (the outermost call of it)."""
    import importlib

    toggle = ctypes.CDLL(str(helper)).toggle
    module_name, class_name, function_name = STAGES[stage]
    module = importlib.import_module(module_name)
    owner = getattr(module, class_name) if class_name else module
    function: Callable[..., Any] = getattr(owner, function_name)
    depth = [0]

    def counted(*args: Any, **kwargs: Any) -> Any:
        depth[0] += 1
        if depth[0] == 1:
            toggle()
        try:
            return function(*args, **kwargs)
        finally:
            depth[0] -= 1
            if depth[0] == 0:
                toggle()

    setattr(owner, function_name, counted)


def _run(name: str, work: Path) -> None:
    subprocess.run(
        [sys.executable, __file__, "--phase", name, str(work / "plan.json")],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def _counted(phases: dict[str, str], work: Path) -> dict[str, int]:
    """Each phase in its own process under callgrind (children too), all at once; their instruction counts."""
    from callgrind import fixed_addresses

    running = {
        name: subprocess.Popen(
            [
                *fixed_addresses(),
                "valgrind",
                "--tool=callgrind",
                "--trace-children=yes",
                f"--callgrind-out-file={work}/callgrind.{name}.%p",
                sys.executable,
                __file__,
                "--phase",
                phase_name,
                str(work / "plan.json"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, phase_name in phases.items()
    }
    counts = {}
    for name, process in running.items():
        _, stderr = process.communicate()
        found = [
            int(line.rsplit(":", 1)[1].strip().replace(",", ""))
            for line in stderr.splitlines()
            if "Collected :" in line
        ]
        if process.returncode != 0 or not found:
            raise SystemExit(f"drift_instructions: {name} under valgrind failed:\n{stderr[-3000:]}")
        counts[name] = sum(found)
    return counts


if __name__ == "__main__":
    raise SystemExit(main())
