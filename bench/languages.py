"""Definition anchors in other languages: a cold resolution of 1,000 definitions beside the grammar's own parse.

For each of TypeScript, Go, Rust and C, 100 files of 10 definitions each are generated into a git
repository (under ``_build/bench``, never committed) and pinned; then, side by side and in turns,

- the floor: each file's bytes parsed by the grammar (``tree_sitter.Parser.parse``), nothing more;
- the cold resolution: a new resolver over the exported tree resolves ``/file#Name`` for every one
  of the 1,000 definitions (each file read, parsed once, its definitions read by the language's
  query).

The figure is the ratio of the medians, cold / floor (the issue's target: at most 1.5).
``python bench/languages.py`` runs it alone; ``--instructions`` counts both under valgrind's
callgrind instead of timing them (each in a probe process, less the same process stopped before the
work: the count repeats to a few instructions, where the machine's load moves a timing by half).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "ext"))

from callgrind import callgrind  # noqa: E402
from source_anchors.engine.engine import Engine  # noqa: E402 (the extension's copy in this checkout)
from source_anchors.model.config import settings_from  # noqa: E402
from source_anchors.reading.languages.grammar import TreeSitterLanguage  # noqa: E402
from source_anchors.reading.registry import language_for  # noqa: E402
from source_anchors.resolve.resolver import Resolver  # noqa: E402

FILES, DEFINITIONS = 100, 10

#: Per language: its suffix and one definition named ``{name}`` (a body of a few statements).
TEMPLATES = {
    "TypeScript": (
        ".ts",
        "export function {name}(items: number[], limit: number): number {{\n"
        "  let total = 0;\n  for (const item of items) {{\n    if (item > limit) {{\n"
        "      total += item * {n};\n    }} else {{\n      total -= {n};\n    }}\n  }}\n"
        "  return total;\n}}\n\n",
    ),
    "Go": (
        ".go",
        "func {name}(items []int, limit int) int {{\n\ttotal := 0\n\tfor _, item := range items {{\n"
        "\t\tif item > limit {{\n\t\t\ttotal += item * {n}\n\t\t}} else {{\n\t\t\ttotal -= {n}\n"
        "\t\t}}\n\t}}\n\treturn total\n}}\n\n",
    ),
    "Rust": (
        ".rs",
        "pub fn {name}(items: &[i64], limit: i64) -> i64 {{\n    let mut total = 0;\n"
        "    for item in items {{\n        if *item > limit {{\n            total += item * {n};\n"
        "        }} else {{\n            total -= {n};\n        }}\n    }}\n    total\n}}\n\n",
    ),
    "C": (
        ".c",
        "static long\n{name}(const long *items, int n, long limit)\n{{\n    long total = 0;\n"
        "    for (int i = 0; i < n; i++) {{\n        if (items[i] > limit) {{\n"
        "            total += items[i] * {n};\n        }} else {{\n            total -= {n};\n"
        "        }}\n    }}\n    return total;\n}}\n\n",
    ),
}
_HEAD = {"Go": "package gen\n\n", "C": "#include <stddef.h>\n\n"}


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        env={
            "GIT_AUTHOR_NAME": "bench",
            "GIT_AUTHOR_EMAIL": "bench@example.org",
            "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "bench@example.org",
            "PATH": "/usr/bin:/bin",
            "HOME": str(cwd),
        },
    ).stdout.strip()


def generate(work: Path) -> tuple[str, dict[str, list[str]]]:
    """The repository of generated files (made once) and its commit; per language, the targets of its definitions."""
    repo = work / "languages-upstream"
    targets: dict[str, list[str]] = {}
    texts: dict[str, str] = {}
    for language, (suffix, template) in TEMPLATES.items():
        for number in range(FILES):
            names = [f"f{number}_{index}" for index in range(DEFINITIONS)]
            path = f"src/{language.lower()}/file{number}{suffix}"
            texts[path] = _HEAD.get(language, "") + "".join(
                template.format(name=name, n=index + 1) for index, name in enumerate(names)
            )
            targets.setdefault(language, []).extend(f"/{path}#{name}" for name in names)
    if not (repo / ".git").is_dir():
        repo.mkdir(parents=True, exist_ok=True)
        _git("init", "-q", "-b", "main", cwd=repo)
        for path, text in texts.items():
            (repo / path).parent.mkdir(parents=True, exist_ok=True)
            (repo / path).write_text(text, "utf-8")
        _git("add", "-A", cwd=repo)
        _git("commit", "-q", "-m", "generated", cwd=repo)
    return _git("rev-parse", "HEAD", cwd=repo), targets


class Setup:
    """The generated repository exported and pinned (not measured); per language its targets and its files' bytes."""

    def __init__(self, work: Path) -> None:
        commit, self.targets = generate(work)
        repo = work / "languages-upstream"
        self.settings = settings_from(
            {
                "repos": {"gen": {"url": repo.as_uri(), "commit": commit, "packages": ["src"]}},
                "cache_dir": str(work / "languages-cache"),
            },
            confdir=work,
            environ={},
        )
        first = Engine(self.settings).resolver("gen")  # the export, once
        self.tree, self.pin = first.tree, first.pin

    def files(self, name: str) -> tuple[TreeSitterLanguage, list[bytes]]:
        """The language *name* (its grammar loaded) and the bytes of its files."""
        files = sorted({target[1:].partition("#")[0] for target in self.targets[name]})
        language = language_for(files[0])
        assert isinstance(language, TreeSitterLanguage)
        language._load()
        limit = self.settings.max_file_bytes
        return language, [self.tree.read_bytes(path, max_bytes=limit) for path in files]

    def floor(self, language: TreeSitterLanguage, data: list[bytes]) -> None:
        """The grammar's own parse of every file."""
        parser, _ = language._load()
        for source in data:
            parser.parse(source)

    def cold(self, name: str) -> None:
        """Every definition of language *name* resolved by a new resolver (clear the language's parses first)."""
        resolver = Resolver(self.tree, self.pin, max_file_bytes=self.settings.max_file_bytes)
        for target in self.targets[name]:
            resolver.resolve(target)


def measure(work: Path, runs: int) -> dict[str, Any]:
    """Per language: the medians of the floor and of the cold resolution, in seconds, and their ratio."""
    setup = Setup(work)
    results: dict[str, Any] = {}
    for name, wanted in setup.targets.items():
        language, data = setup.files(name)
        floors, colds = [], []
        for _ in range(runs):
            started = time.perf_counter()
            setup.floor(language, data)
            floors.append(time.perf_counter() - started)
            language.forget()  # cold: no parse kept from the run before
            started = time.perf_counter()
            setup.cold(name)
            colds.append(time.perf_counter() - started)
        floor, cold = statistics.median(floors), statistics.median(colds)
        results[name] = {
            "definitions": len(wanted),
            "files": len(data),
            "floor_s": round(floor, 4),
            "cold_s": round(cold, 4),
            "cold_over_floor": round(cold / floor, 3),
        }
    return results


def show(results: dict[str, Any]) -> None:
    """One line per language: the two medians of wall time and the ratio."""
    for name, figure in results.items():
        print(
            f"{name}: cold resolution of {figure['definitions']} definitions in {figure['files']} files "
            f"{figure['cold_s'] * 1000:.1f} ms / the grammar's parse {figure['floor_s'] * 1000:.1f} ms = "
            f"{figure['cold_over_floor']:.2f} in wall time (target 1.5)"
        )


def show_instructions(results: dict[str, Any]) -> None:
    """One line per language: the instructions of both and their ratio (what :func:`instructions` printed)."""
    for name, figure in results.items():
        print(
            f"{name}: cold resolution of {figure['definitions']} definitions in {figure['files']} files "
            f"{figure['cold_instructions']:,} instructions / the grammar's parse "
            f"{figure['floor_instructions']:,} = {figure['cold_over_floor']:.2f} (target 1.5)"
        )


def probe(work: Path, name: str, kind: str, *, skip: bool) -> None:
    """One process's work under callgrind: the floor or the cold resolution of *name*, or (*skip*) all before it."""
    setup = Setup(work)
    language, data = setup.files(name)
    if skip:
        return
    if kind == "floor":
        setup.floor(language, data)
    else:
        setup.cold(name)


def instructions(work: Path) -> dict[str, Any]:
    """Per language: the instructions of the floor and of the cold resolution, and their ratio (hash seed 0)."""
    Setup(work)  # the repository and its export made before any count
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    results: dict[str, Any] = {}
    for name in TEMPLATES:
        commands = {
            f"{kind}{'-start' if skip else ''}": (
                Path(os.devnull),
                [sys.executable, __file__, "--probe", name, kind, *(["--skip"] if skip else [])],
            )
            for kind in ("floor", "cold")
            for skip in (False, True)
        }
        counts = callgrind(commands, env)
        floor = counts["floor"] - counts["floor-start"]
        cold = counts["cold"] - counts["cold-start"]
        results[name] = {
            "definitions": FILES * DEFINITIONS,
            "files": FILES,
            "floor_instructions": floor,
            "cold_instructions": cold,
            "cold_over_floor": round(cold / floor, 3),
        }
        show_instructions({name: results[name]})
    return results


def main(argv: list[str] | None = None) -> int:
    """``languages.py [RUNS]``, ``--instructions``, or one ``--probe`` (what ``--instructions`` runs)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=5, help="timed runs (default 5)")
    parser.add_argument("--instructions", action="store_true", help="count under callgrind")
    parser.add_argument("--probe", nargs=2, metavar=("LANGUAGE", "KIND"), help=argparse.SUPPRESS)
    parser.add_argument("--skip", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    work = ROOT / "_build" / "bench"
    if args.probe:
        probe(work, args.probe[0], args.probe[1], skip=args.skip)
    elif args.instructions:
        instructions(work)
    else:
        show(measure(work, args.runs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
