"""Plain Markdown at scale: 2,000 line links in 200 Markdown files, a cold ``update`` and a warm ``check``.

A git repository is generated under ``_build/bench/markdown-repo`` (never committed): 100 Python
modules of a package, three TypeScript, two Go and two TOML files, committed; then 200 Markdown
pages holding 2,000 line links (relative links to definitions, methods and single statements, links
titled ``"src: pkg.modNNN.fK"``, permalinks to the code's commit, links into the other languages'
files), committed. Each of these runs in a fresh process, from the repository's folder:

- the cold update: ``source-anchors update docs`` with no lock and an empty cache; the lock it
  writes is then committed (HEAD moves, as it does in CI, where each check is of a new commit);
- the first check: ``source-anchors check docs``, nothing cited changed since the lock, and
  nothing kept in ``.git/source-anchors`` yet (a clone's first check: it reads the lock's JSON and
  every page's links itself);
- the warm check: the same check again, what the first kept of the lock and the pages (by their
  text, ``cli/warmcache.py``) read from there;
- the floor: a tiny Python process that runs ``git ls-files`` and reads every Markdown file.

The figure is warm check / floor (the issue's target: at most 1.2). What each command read and
parsed is counted apart, in a probe process that runs the same command in-process and asks its
engine (:meth:`Engine.work`): the warm check must read no source file, and the cold update parse
each cited file once. ``--instructions`` counts the three processes under valgrind's callgrind
(git's children included) instead of timing them: the machine's load moves a timing, not a count.
Everything is written to ``_build/bench/markdown.json``.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "_build" / "bench"
REPO = WORK / "markdown-repo"
CACHE = WORK / "markdown-cache"
OUT = WORK / "markdown.json"
MODULES, PAGES, PER_PAGE = 100, 200, 10
WEB = "https://github.com/bench/markdown"
#: Bump when the generated repository changes: an older one is made again.
GENERATION = "4"

#: The floor: what any checker of these pages must do at least (list the files, read the pages).
FLOOR = (
    "import subprocess\n"
    "from pathlib import Path\n"
    "names = subprocess.run(['git', 'ls-files', '-z'], capture_output=True, check=True).stdout\n"
    "for name in names.decode().split('\\0'):\n"
    "    if name.endswith('.md'):\n"
    "        Path(name).read_text('utf-8')\n"
)

_TS = (
    "export function {name}(items: number[], limit: number): number {{\n"
    "  let total = 0;\n  for (const item of items) {{\n    if (item > limit) {{\n"
    "      total += item * {n};\n    }}\n  }}\n  return total;\n}}\n\n"
)
_GO = (
    "func {name}(items []int, limit int) int {{\n\ttotal := 0\n\tfor _, item := range items {{\n"
    "\t\tif item > limit {{\n\t\t\ttotal += item * {n}\n\t\t}}\n\t}}\n\treturn total\n}}\n\n"
)


def _env() -> dict[str, str]:
    """Every process's environment: this checkout's extension (bytecode kept), a fixed hash seed, git's identity."""
    return {
        **{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
        "PYTHONPATH": os.environ.get("MARKDOWN_BENCH_EXT", str(ROOT / "ext")),
        "PYTHONHASHSEED": "0",
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.org",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.org",
    }


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=REPO, check=True, capture_output=True, text=True, env=_env()
    ).stdout.strip()


class Spans:
    """A file's text built line by line, with the lines of each definition and statement."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        #: name -> (start, end), 1-based.
        self.spans: dict[str, tuple[int, int]] = {}

    def add(self, text: str, name: str | None = None, *, at: int = 0, length: int = 0) -> None:
        """Append *text*; *name* the span of *length* lines (all of it: 0) starting *at* lines in."""
        new = text.split("\n")
        first = len(self.lines) + 1 + at
        if name is not None:
            self.spans[name] = (first, first + (length or len(new)) - 1)
        self.lines += new

    def text(self) -> str:
        """The file's text."""
        return "\n".join(self.lines) + "\n"


def module(number: int) -> Spans:
    """Module *number*: eight functions, a class of four methods, each statement line unique."""
    out = Spans()
    out.add(f'"""Module {number} of the generated package."""\n\nLIMIT = {number}\n')
    for k in range(8):
        out.add(
            f"\ndef f{k}(items, limit=LIMIT):\n"
            f'    """Sum the items above *limit*, case {k}."""\n'
            "    total = 0\n    for item in items:\n        if item > limit:\n"
            f"            total += item * {k + 1}\n"
            f"    return total + {number * 100 + k}",
            f"f{k}",
            at=1,
            length=7,
        )
        out.spans[f"return{k}"] = (out.spans[f"f{k}"][1],) * 2
    out.add(f'\n\nclass Worker:\n    """Work of module {number}."""\n', "Worker", at=2, length=2)
    out.add("    def __init__(self, size):\n        self.size = size\n")
    for k in range(4):
        out.add(
            f'    def m{k}(self, value):\n        """Step {k}."""\n'
            f"        return value * self.size + {number * 10 + k}\n",
            f"Worker.m{k}",
            length=3,
        )
    end = out.spans["Worker.m3"][1]
    out.spans["Worker"] = (out.spans["Worker"][0], end)
    return out


def others() -> dict[str, Spans]:
    """Three TypeScript, two Go and two TOML files, ten definitions or keys each."""
    files: dict[str, Spans] = {}
    for n in range(3):
        ts = Spans()
        for k in range(10):
            ts.add(_TS.format(name=f"t{n}_{k}", n=k + 1).rstrip("\n") + "\n", f"t{k}", length=9)
        files[f"web/app{n}.ts"] = ts
    for n in range(2):
        go = Spans()
        go.add("package gen\n")
        for k in range(10):
            go.add(_GO.format(name=f"g{n}_{k}", n=k + 1).rstrip("\n") + "\n", f"g{k}", length=9)
        files[f"cmd/main{n}.go"] = go
    for n in range(2):
        toml = Spans()
        toml.add(f"[settings{n}]")
        for k in range(10):
            toml.add(f"key_{k} = {n * 10 + k}", f"key{k}")
        files[f"conf/settings{n}.toml"] = toml
    return files


def _link(n: int, page_dir: str, code: str, mods: list[Spans], other: dict[str, Spans]) -> str:
    """Link number *n* (of all pages), written in a page of *page_dir*, by its kind (n % 20)."""
    up = "../" * (page_dir.count("/") + 1)
    m, k = n % MODULES, (n // MODULES) % 8
    kind = (n // MODULES + m) % 20  # each module cited by links of every kind
    path = f"pkg/mod{m:03}.py"
    spans = mods[m].spans
    if kind < 10:  # a function, relative
        start, end = spans[f"f{k}"]
        return f"[`f{k}`]({up}{path}#L{start}-L{end})"
    if kind < 13:  # a method, relative
        start, end = spans[f"Worker.m{k % 4}"]
        return f"[the step]({up}{path}#L{start}-L{end})"
    if kind < 16:  # an explicit target in the title
        start, end = spans[f"f{k}"]
        return f'[f{k}]({up}{path}#L{start}-L{end} "src: pkg.mod{m:03}.f{k}")'
    if kind < 18:  # a permalink to the code's commit
        start, end = spans[f"f{k}"]
        return f"[at {code[:7]}]({WEB}/blob/{code}/{path}#L{start}-L{end})"
    if kind < 19:  # one statement
        line = spans[f"return{k}"][0]
        return f"[its return]({up}{path}#L{line})"
    name = sorted(other)[(n // 20) % len(other)]
    key = sorted(other[name].spans)[k % len(other[name].spans)]
    start, end = other[name].spans[key]
    lines = f"L{start}" if start == end else f"L{start}-L{end}"
    return f"[{key}]({up}{name}#{lines})"


def generate() -> dict[str, Any]:
    """The repository (made once per :data:`GENERATION`): code committed, then the pages; what it holds."""
    mods = [module(n) for n in range(MODULES)]
    other = others()
    marker = REPO / ".git" / "bench-generation"
    if not (marker.is_file() and marker.read_text() == GENERATION):
        shutil.rmtree(REPO, ignore_errors=True)
        REPO.mkdir(parents=True)
        _git("init", "-q", "-b", "main")
        _git("remote", "add", "origin", "git@github.com:bench/markdown.git")
        files = {f"pkg/mod{n:03}.py": mods[n].text() for n in range(MODULES)}
        files.update({name: spans.text() for name, spans in other.items()})
        files["pkg/__init__.py"] = '"""The generated package."""\n'
        files["pyproject.toml"] = (
            '[project]\nname = "bench"\n\n[tool.source-anchors]\ncache-dir = "../markdown-cache"\n'
        )
        for name, text in files.items():
            (REPO / name).parent.mkdir(parents=True, exist_ok=True)
            (REPO / name).write_text(text, "utf-8")
        _git("add", "-A")
        _git("commit", "-q", "-m", "code")
        code = _git("rev-parse", "HEAD")
        for page in range(PAGES):
            folder = "docs" if page % 2 == 0 else "docs/guide"
            links = [_link(page * PER_PAGE + i, folder, code, mods, other) for i in range(PER_PAGE)]
            body = [f"# Page {page}\n", "How the package works, in prose.\n"]
            for i, link in enumerate(links):
                body.append(
                    f"Step {i}: {link} does its part; see also [the site](https://example.org/{i})."
                )
                if i == 4:
                    body.append("\n```python\n[not a link](pkg/mod000.py#L1-L2)\n```\n")
            (REPO / folder).mkdir(parents=True, exist_ok=True)
            (REPO / folder / f"p{page:03}.md").write_text("\n".join(body) + "\n", "utf-8")
        _git("add", "-A")
        _git("commit", "-q", "-m", "docs")
        marker.write_text(GENERATION)
    return {
        "python_files": MODULES + 1,
        "other_files": len(other),
        "pages": PAGES,
        "links": PAGES * PER_PAGE,
    }


def _cli(command: str) -> list[str]:
    return [sys.executable, "-m", "source_anchors", command, "docs"]


def _floor() -> list[str]:
    return [sys.executable, "-c", FLOOR]


def _reset() -> None:
    """Before a cold update: no lock, an empty cache, HEAD at the pages' commit."""
    shutil.rmtree(CACHE, ignore_errors=True)
    _forget()
    if _git("log", "-1", "--format=%s") == "lock":
        _git("reset", "-q", "--hard", "HEAD~1")
    (REPO / "source-anchors.lock").unlink(missing_ok=True)


def _forget() -> None:
    """No reading kept by a warm check (``cli/warmcache.py``): the next check is a clone's first."""
    shutil.rmtree(REPO / ".git" / "source-anchors", ignore_errors=True)


def _commit_lock() -> None:
    _git("add", "source-anchors.lock")
    _git("commit", "-q", "-m", "lock")


def _timed(argv: list[str], *, ok: tuple[int, ...] = (0,)) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=REPO, env=_env(), capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode not in ok:
        raise SystemExit(
            f"bench: {' '.join(argv[2:])} exited {done.returncode}:\n{done.stderr[-3000:]}"
        )
    return seconds


def counts() -> dict[str, Any]:
    """What the cold update and the warm check read and parsed, each in a probe process (not timed)."""
    _reset()
    update = _probe("update")
    _commit_lock()
    check = _probe("check")
    return {"update": update, "check": check}


def _probe(command: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--probe", command],
        cwd=REPO,
        env=_env(),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"bench: probe {command} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def probe(command: str) -> None:
    """``source-anchors COMMAND docs`` in this process; print its exit status and its engine's work as JSON."""
    import contextlib
    import io

    from source_anchors.cli.main import main
    from source_anchors.engine.engine import Engine

    engines: list[Engine] = []
    made = Engine.__init__

    def keep(self: Engine, *args: Any, **kwargs: Any) -> None:  # the engine the CLI makes
        made(self, *args, **kwargs)
        engines.append(self)

    Engine.__init__ = keep  # type: ignore[method-assign]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = main([command, "docs"])
    if not engines:  # the warm check (cli/warm.py) answered: no engine, so nothing read or parsed
        idle = {"resolved": 0, "cached": 0, "modules_parsed": 0, "ast_parses": 0}
        work = {**idle, "files_read": 0, "parses": 0, "files_parsed": 0, "most_parses_of_a_file": 0}
        print(json.dumps({"status": status, "engine": False, **work}))
        return
    (engine,) = engines
    parses = engine.parses() if hasattr(engine, "parses") else {}  # an older extension: none
    print(
        json.dumps(
            {
                "status": status,
                "engine": True,
                **engine.work(),
                "files_parsed": len(parses),
                "most_parses_of_a_file": max(parses.values(), default=0),
            }
        )
    )


def measure(runs: int) -> dict[str, Any]:
    """Medians of *runs* cold updates, warm checks and floors (the last two interleaved, 2 runs + 1)."""
    colds = []
    for _ in range(runs):
        _reset()
        colds.append(_timed(_cli("update")))
    _commit_lock()
    firsts = []
    for _ in range(runs):  # nothing kept: each check reads the lock and the pages itself
        _forget()
        firsts.append(_timed(_cli("check")))
    warms, floors = [], []
    for _ in range(2 * runs + 1):
        floors.append(_timed(_floor()))
        warms.append(_timed(_cli("check")))
    warm, floor = statistics.median(warms), statistics.median(floors)
    return {
        "cold_update_s": round(statistics.median(colds), 4),
        "first_check_s": round(statistics.median(firsts), 4),
        "warm_check_s": round(warm, 4),
        "floor_s": round(floor, 4),
        "warm_over_floor": round(warm / floor, 3),
        "first_over_floor": round(statistics.median(firsts) / floor, 3),
    }


def instructions() -> dict[str, Any]:
    """Instructions of a cold update, a warm check and the floor (git's processes included)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from callgrind import callgrind

    _reset()
    (cold,) = callgrind(
        {"update": (Path(os.devnull), _cli("update"))}, _env(), cwd=REPO, children=True
    ).values()
    _commit_lock()
    (first,) = callgrind(  # nothing kept yet: the check reads the lock and the pages itself
        {"first": (Path(os.devnull), _cli("check"))}, _env(), cwd=REPO, children=True
    ).values()
    found = callgrind(
        {"check": (Path(os.devnull), _cli("check")), "floor": (Path(os.devnull), _floor())},
        _env(),
        cwd=REPO,
        children=True,
    )
    return {
        "cold_update_instructions": cold,
        "first_check_instructions": first,
        "warm_check_instructions": found["check"],
        "floor_instructions": found["floor"],
        "warm_over_floor": round(found["check"] / found["floor"], 3),
        "first_over_floor": round(first / found["floor"], 3),
    }


def run(runs: int, *, count_instructions: bool = False) -> dict[str, Any]:
    """Generate, count, measure; write :data:`OUT` and return the figures."""
    facts = generate()
    # Bytecode written once, as an installed package has it: no run compiles the extension.
    compileall.compile_dir(_env()["PYTHONPATH"], quiet=1)
    figures = instructions() if count_instructions else measure(runs)
    work = counts()
    results = {
        **facts,
        **figures,
        "runs": runs,
        "update": work["update"],
        "check": work["check"],
        "check_files_read": work["check"].get("files_read"),
        "update_most_parses_of_a_file": work["update"].get("most_parses_of_a_file"),
    }
    OUT.write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    return results


def show(r: dict[str, Any]) -> None:
    """The figures and the targets, each PASS or MISS."""
    unit = "instructions" if "floor_instructions" in r else "s"
    if unit == "s":
        times = (
            f"cold update {r['cold_update_s']:.3f} s, first check {r['first_check_s']:.3f} s, "
            f"warm check {r['warm_check_s']:.3f} s, floor {r['floor_s']:.3f} s "
            f"(median of {r['runs']})"
        )
    else:
        times = (
            f"cold update {r['cold_update_instructions']:,}, first check "
            f"{r['first_check_instructions']:,}, warm check {r['warm_check_instructions']:,}, "
            f"floor {r['floor_instructions']:,} instructions"
        )
    update, check = r["update"], r["check"]
    print(f"markdown: {r['links']} line links in {r['pages']} pages; {times}")
    rows = [
        ("warm check / floor", r["warm_over_floor"], "<= 1.2", r["warm_over_floor"] <= 1.2),
        ("warm check: source files read", check["files_read"], "== 0", check["files_read"] == 0),
        (
            "cold update: most parses of a file",
            update["most_parses_of_a_file"],
            "== 1",
            update["most_parses_of_a_file"] == 1,
        ),
    ]
    for name, value, limit, met in rows:
        print(f"  {name:<36} {limit:<7} {value:>9} {'PASS' if met else 'MISS'}")
    print(f"  first check (nothing kept, a clone's) / floor: {r['first_over_floor']} (no target)")
    print(
        f"  cold update: {update['files_parsed']} files parsed ({update['parses']} parses), "
        f"{update['files_read']} read; warm check: {check['parses']} parses"
    )


def main(argv: list[str] | None = None) -> int:
    """``markdown.py [RUNS]``, ``--instructions``, or one ``--probe COMMAND`` (what the counts run)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="?", type=int, default=5, help="timed runs (default 5)")
    parser.add_argument("--instructions", action="store_true", help="count under callgrind")
    parser.add_argument("--probe", metavar="COMMAND", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        probe(args.probe)
        return 0
    show(run(max(1, args.runs), count_instructions=args.instructions))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
