"""Instruction counts under valgrind's callgrind, shared by the bench's scripts.

``run.py``, ``api_bench.py`` and ``drift_instructions.py`` import it, so that no script imports
another (``run.py`` imports ``api_bench``; the runner lived in ``run.py`` and made a cycle).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path


def fixed_addresses() -> list[str]:
    """``setarch <arch> -R`` (no address randomisation) where it exists, else nothing.

    Sets and dicts keyed by object identity iterate in address order, so with randomised
    addresses the same build's count varied by 0.6% from run to run here; without, by 0.0001%.
    """
    setarch = shutil.which("setarch")
    return [setarch, os.uname().machine, "-R"] if setarch else []


def callgrind(
    commands: dict[str, tuple[Path, list[str]]],
    env: dict[str, str],
    *,
    cwd: Path | None = None,
    children: bool = False,
    envs: dict[str, dict[str, str]] | None = None,
) -> dict[str, int]:
    """Run each ``name: (profile file, argv)`` under callgrind, all at once; return their instruction counts.

    With *children*, the processes each starts (git's) are counted too, and a count is their sum.
    *envs* gives a command its own environment instead of *env* (by its name).
    """
    running = {
        name: subprocess.Popen(
            [
                *fixed_addresses(),
                "valgrind",
                "--tool=callgrind",
                *(["--trace-children=yes"] if children else []),
                f"--callgrind-out-file={out}",
                *argv,
            ],
            env=(envs or {}).get(name, env),
            cwd=cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, (out, argv) in commands.items()
    }
    counts = {}
    for name, process in running.items():
        _, stderr = process.communicate()
        found = [line for line in stderr.splitlines() if "Collected :" in line]
        if process.returncode != 0 or not found:
            raise SystemExit(f"bench: {name} under valgrind failed:\n{stderr[-3000:]}")
        totals = [int(line.rsplit(":", 1)[1].strip()) for line in found]
        counts[name] = sum(totals) if children else totals[-1]
    return counts
