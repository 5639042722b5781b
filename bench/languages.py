"""Definition anchors in other languages: a cold resolution of 1,000 definitions beside the grammar's own parse.

For each of TypeScript, Go, Rust and C, 100 files of 10 definitions each are generated into a git
repository (under ``_build/bench``, never committed) and pinned; then, side by side and in turns,

- the floor: each file's bytes parsed by the grammar (``tree_sitter.Parser.parse``), nothing more;
- the cold resolution: a new resolver over the exported tree resolves ``/file#Name`` for every one
  of the 1,000 definitions (each file read, parsed once, its definitions read by the language's
  query).

The figure is the ratio of the medians, cold / floor (the issue's target: at most 1.5).
``python bench/languages.py`` runs it alone.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "ext"))

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


def measure(work: Path, runs: int) -> dict[str, Any]:
    """Per language: the medians of the floor and of the cold resolution, in seconds, and their ratio."""
    commit, targets = generate(work)
    repo = work / "languages-upstream"
    settings = settings_from(
        {
            "repos": {"gen": {"url": repo.as_uri(), "commit": commit, "packages": ["src"]}},
            "cache_dir": str(work / "languages-cache"),
        },
        confdir=work,
        environ={},
    )
    engine = Engine(settings)
    first = engine.resolver("gen")  # the export, once: not measured
    tree, pin = first.tree, first.pin
    results: dict[str, Any] = {}
    for name, wanted in targets.items():
        files = sorted({target[1:].partition("#")[0] for target in wanted})
        data = [tree.read_bytes(path, max_bytes=settings.max_file_bytes) for path in files]
        language = language_for(files[0])
        assert isinstance(language, TreeSitterLanguage)
        parser, _ = language._load()
        floors, colds = [], []
        for _ in range(runs):
            started = time.perf_counter()
            for source in data:
                parser.parse(source)
            floors.append(time.perf_counter() - started)
            language._parsed.clear()  # cold: no parse kept from the run before
            started = time.perf_counter()
            resolver = Resolver(tree, pin, max_file_bytes=settings.max_file_bytes)
            for target in wanted:
                resolver.resolve(target)
            colds.append(time.perf_counter() - started)
        floor, cold = statistics.median(floors), statistics.median(colds)
        results[name] = {
            "definitions": len(wanted),
            "files": len(files),
            "floor_s": round(floor, 4),
            "cold_s": round(cold, 4),
            "cold_over_floor": round(cold / floor, 3),
        }
    return results


def show(results: dict[str, Any]) -> None:
    """One line per language: the two medians and the ratio."""
    for name, figure in results.items():
        print(
            f"{name}: cold resolution of {figure['definitions']} definitions in {figure['files']} files "
            f"{figure['cold_s'] * 1000:.1f} ms / the grammar's parse {figure['floor_s'] * 1000:.1f} ms = "
            f"{figure['cold_over_floor']:.2f} (target 1.5)"
        )


if __name__ == "__main__":
    show(measure(ROOT / "_build" / "bench", int(sys.argv[1]) if len(sys.argv) > 1 else 5))
