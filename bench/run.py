"""Benchmark source_anchors on a generated book over django: ``python bench/run.py [--quick] [--profile]``.

Run from the repository root. Everything is written under ``_build/bench/``; the figures go to
``_build/bench/results.json``. Each figure is the median of seven runs (``--runs N``; one with
``--quick``), each run in a fresh process; the pairs a target compares (floor and cold resolution,
baseline and warm builds) are run 2N + 1 = 15 times, interleaved; cold builds and exports three
times. Builds run with a fixed hash seed, so every run does the same work and only the machine
varies. Timings are reported, never asserted. ``--instructions`` counts the instructions of a
baseline and a warm build under valgrind instead, then those of the floor and the cold check loop
(``--cold-only``: these alone), for three hash seeds, then the API cases' builds and each language's
cold resolution beside its grammar's parse: ratios that machine noise does not move.
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

import api_bench
import fixture
import languages
import markdown
import report
import scattered
from callgrind import callgrind, fixed_addresses

ROOT = fixture.ROOT
OUT = ROOT / "_build" / "bench"
WORK = OUT / "work"
SCALES = (100, 1000, 10000)
BASE = 1000
#: Cold builds take three times as long as the others and meet no timing target: fewer runs.
COLD_BUILDS = 3


def probe(kind: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement of ``bench/probe.py`` in a fresh interpreter and return its JSON."""
    path = WORK / f"probe-{kind}.json"
    path.write_text(json.dumps(args), "utf-8")
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("probe.py")), kind, str(path)],
        capture_output=True,
        text=True,
        env=snapshot_env(os.environ),
    )
    if done.returncode != 0:
        raise SystemExit(f"bench: probe {kind} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def snapshot_env(env: os._Environ[str] | dict[str, str]) -> dict[str, str]:
    """*env* with the bench's snapshot of ``ext`` first on ``PYTHONPATH``, ahead of the installed package."""
    return {
        **env,
        "PYTHONPATH": os.pathsep.join([str(WORK / "ext"), *filter(None, [env.get("PYTHONPATH")])]),
    }


def build_env() -> dict[str, str]:
    """A build's environment: not locked, the book's own cache, and a fixed hash seed (same work each run).

    The tests' environment builder, without their byte-code prefix (the interpreter behaves as a
    user's does). ``PYTHONPATH`` puts the bench's snapshot of ``ext`` ahead of the installed
    package: a run of several minutes measures one version while others edit.
    """
    return snapshot_env(fixture.helpers.build_env({"PYTHONHASHSEED": "0"}, pycache=False))


def sphinx_argv(book: Path, *options: str, runner: tuple[str, ...] = ()) -> list[str]:
    """The command of one serial, quiet html build of *book* (after *runner*, e.g. cProfile)."""
    return fixture.helpers.sphinx_argv(
        book / "source",
        *options,
        "-q",
        "-b",
        "html",
        outdir=book / "_build" / "html",
        confdir=book,
        runner=runner,
    )


def sphinx(book: Path, *options: str, cprofile: Path | None = None) -> dict[str, Any]:
    """One serial html build of *book* in a fresh wrapper process; fails loudly on a build error."""
    runner = ("-m", "cProfile", "-o", str(cprofile)) if cprofile else ()
    result = probe(
        "build", {"argv": sphinx_argv(book, *options, runner=runner), "env": build_env()}
    )
    if result["returncode"] != 0:
        raise SystemExit(f"bench: sphinx-build of {book.name} failed:\n{result['stderr']}")
    result["warnings"] = result["stderr"].count("WARNING")
    return result


def extension_version() -> str:
    """The commit of the measured extension (read-only git), marked when ext/ has local changes."""

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", "--no-optional-locks", "-C", str(ROOT), *args], capture_output=True, text=True
        )

    head = git("rev-parse", "--short", "HEAD").stdout.strip() or "unknown"
    return head + (
        "" if git("diff", "--quiet", "HEAD", "--", "ext").returncode == 0 else " + local changes"
    )


def rm(path: Path) -> None:
    """Remove a directory tree if present."""
    shutil.rmtree(path, ignore_errors=True)


def med(results: list[dict[str, Any]], key: str = "seconds") -> float:
    """Median of *key* over *results*."""
    return float(statistics.median(r[key] for r in results))


class Bench:
    """The fixture of one benchmark run and the measurements over it."""

    def __init__(self, runs: int) -> None:
        self.runs = runs
        #: Runs of the short figures that a target compares (floor and cold resolution, baseline and
        #: warm builds): more of them, since one build on this machine varies by 10% or more.
        self.compared = 2 * runs + 1
        WORK.mkdir(parents=True, exist_ok=True)
        # Others edit ext/ while a run takes minutes: every build and probe uses one copy taken now.
        self.ext, version = WORK / "ext", extension_version()
        rm(self.ext)
        shutil.copytree(
            fixture.EXT, self.ext, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
        )
        # An installed package has byte code (pip compiles on install), and the builds may run with
        # PYTHONDONTWRITEBYTECODE: compiling the copy once keeps compilation out of every figure.
        compileall.compile_dir(str(self.ext), quiet=1)
        self.up = fixture.upstream(WORK)
        pool = fixture.cached_pool(WORK, self.up)
        self.sets = {n: fixture.select(pool, n) for n in SCALES}
        self.anchors = self.sets[BASE]
        self.repos = {
            "django": {
                "url": self.up.url,
                "commit": self.up.commit,
                "packages": ["django"],
                "sources": ["cache", "git"],
            }
        }
        self.book, self.base = WORK / "book", WORK / "baseline"
        self.book_cache, self.probe_cache = WORK / "cache-book", WORK / "cache-probe"
        self.pages = fixture.write_book(self.book, self.anchors, self.up, cache=self.book_cache)
        fixture.write_book(self.base, self.anchors, self.up, cache=None)
        self.info: dict[str, Any] = {
            "load": os.getloadavg(),
            "extension": version,
            "scale_modules": {str(n): len({a.symbol.module for a in self.sets[n]}) for n in SCALES},
        }
        #: Median CPU seconds of each timed figure (the machine may be shared; wall time is what is
        #: reported).
        self.cpu: dict[str, float] = {}

    def prime(self) -> None:
        """A first cold build: it writes the lock (so later builds see every anchor ``ok``), checks statuses."""
        rm(self.book_cache)
        rm(self.book / "_build")
        sphinx(self.book, "-E")
        report = json.loads(
            (self.book / "_build" / "html" / "source-anchors.json").read_text("utf-8")
        )
        bad = [r for r in report if r["status"] != "new"]
        if len(report) != len(self.anchors) or bad:
            raise SystemExit(
                f"bench: {len(bad)} of {len(report)} anchors did not resolve, e.g. {bad[:3]}"
            )

    def core(self) -> dict[str, float]:
        """``floor_s``, ``whole_s`` and ``cold_resolve_s``.

        ``cold_resolve_s`` is the check loop over the 1,000 targets with an empty
        resolution cache; the export of the tree (three times, into an empty cache)
        is timed apart. Floor and cold resolution, the pair a target compares, are
        measured ``compared`` times, interleaved run by run, with the anchored modules'
        floor beside them (reported, not a target: see :meth:`floor_files`).
        """
        rm(WORK / f"lock-{BASE}")
        files, anchored = self.floor_files(
            self.resolve(BASE, cold=True, write_lock=True)
        )  # writes the lock
        exports = [
            self.resolve(BASE, cold=True, export=True) for _ in range(min(self.runs, COLD_BUILDS))
        ]
        whole = [
            probe("whole", {"package": "django", "search_path": str(self.up.path)})
            for _ in range(self.runs)
        ]
        floor, narrow, cold = [], [], []
        for _ in range(self.compared):
            floor.append(probe("floor", {"root": str(self.up.path), "files": files}))
            narrow.append(probe("floor", {"root": str(self.up.path), "files": anchored}))
            cold.append(self.resolve(BASE, cold=True))
        self.info.update(
            floor_files=len(files),
            anchored_files=len(anchored),
            modules=len({a.symbol.module for a in self.anchors}),
            whole_modules=whole[0]["modules"],
            export_s=med(exports, "export_s"),
            resolver_modules=cold[0]["modules_parsed"],
            resolver_parses=cold[0]["ast_parses"],
            anchored_floor_s=med(narrow),
            anchored_floor_cpu_s=med(narrow, "cpu_s"),
        )
        self.cpu.update(
            floor_s=med(floor, "cpu_s"),
            whole_s=med(whole, "cpu_s"),
            cold_resolve_s=med(cold, "cpu_s"),
        )
        return {"floor_s": med(floor), "whole_s": med(whole), "cold_resolve_s": med(cold)}

    def floor_files(self, first: dict[str, Any]) -> tuple[list[str], list[str]]:
        """The floor's files, and the anchored modules with their packages, from a first cold resolution.

        The floor reads and parses exactly the files the anchors touch: those the answers depend
        on (each anchor's file and the ``uses`` its location records, which the resolution cache
        is invalidated by), with the anchored modules and their packages. Beyond the anchored
        modules, Python's semantics make a resolver read the modules that a package star-imports
        (what ``from m import *`` binds is ``m.__all__``) and the modules of base classes (the
        MRO); a file parsed that no answer depends on would be a hidden dependency, and stops the
        bench. The anchored modules alone are the floor of a resolver without those semantics.
        """
        if first["parsed_untouched"]:
            raise SystemExit(
                f"bench: files parsed that no answer depends on: {first['parsed_untouched'][:5]}"
            )
        anchored = fixture.touched_files(self.anchors)
        return sorted({*first["touched"], *anchored}), anchored

    def resolve(
        self,
        count: int,
        *,
        cold: bool,
        export: bool = False,
        cache: Path | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        """The core on *count* targets with their lock: trees cold (*export*) or warm, resolutions cold or warm.

        *cache* defaults to the probe cache; *extra* goes to the probe (``remember``,
        ``write_lock``, ``profile``).
        """
        cache = cache or self.probe_cache
        if export:
            rm(cache)
        elif cold:
            rm(cache / "resolutions")
        targets = WORK / f"targets-{count}.txt"
        targets.write_text("\n".join(a.target for a in self.sets[count]) + "\n", "utf-8")
        lock = WORK / f"lock-{count}" / "source-anchors.lock"
        lock.parent.mkdir(exist_ok=True)
        result = probe(
            "resolve",
            {
                "ext": str(self.ext),
                "repos": self.repos,
                "cache": str(cache),
                "targets": str(targets),
                "lock": str(lock),
                **{k: str(v) if isinstance(v, Path) else v for k, v in extra.items()},
            },
        )
        status = "new" if extra.get("write_lock") else "ok"
        if (
            result["statuses"] != {status: count}
            or result["resolved" if cold else "cached"] != count
        ):
            raise SystemExit(f"bench: unexpected resolution of {count} targets: {result}")
        return result

    def sized_cache(self, n: int) -> Path:
        """A cache of its own for the resolutions of *n* targets, sharing the probe cache's exported trees."""
        root = WORK / f"cache-scale-{n}"
        rm(root)
        root.mkdir(parents=True)
        (root / "trees").symlink_to(self.probe_cache / "trees", target_is_directory=True)
        return root

    def scale(self) -> dict[str, dict[str, float]]:
        """Milliseconds per anchor by book size, cold (empty resolution cache) and warm, trees cached.

        Per anchor = (engine start with the lock + check loop) / anchors, wall time. The sizes
        are interleaved run by run, so a slow spell of the machine hits all of them alike.
        """
        caches = {n: self.sized_cache(n) for n in SCALES}
        for n in SCALES:
            rm(WORK / f"lock-{n}")
            self.resolve(n, cold=True, write_lock=True, cache=caches[n])
        cold: dict[int, list[dict[str, Any]]] = {n: [] for n in SCALES}
        warm: dict[int, list[dict[str, Any]]] = {n: [] for n in SCALES}
        for i in range(self.runs):
            for n in SCALES:  # the last cold run stores its resolutions, as a build does
                cold[n].append(
                    self.resolve(n, cold=True, cache=caches[n], remember=i == self.runs - 1)
                )
        for _ in range(self.runs):
            for n in SCALES:
                warm[n].append(self.resolve(n, cold=False, cache=caches[n]))

        def per_anchor(results: list[dict[str, Any]], n: int, cpu: bool = False) -> float:
            keys = ("engine_cpu_s", "cpu_s") if cpu else ("engine_s", "seconds")
            return float(statistics.median(r[keys[0]] + r[keys[1]] for r in results)) * 1000 / n

        table: dict[str, dict[str, float]] = {}
        for n in SCALES:
            table[str(n)] = {"cold_ms": per_anchor(cold[n], n), "warm_ms": per_anchor(warm[n], n)}
            self.info.setdefault("scale_cpu", {})[str(n)] = {
                "cold_ms": per_anchor(cold[n], n, cpu=True),
                "warm_ms": per_anchor(warm[n], n, cpu=True),
                "engine_s": med(warm[n], "engine_s"),
            }
        return table

    def builds(self) -> dict[str, Any]:
        """Cold builds, then baseline and warm builds in alternating order, then one incremental build.

        Baseline and warm builds, the pair the target compares, run back to back, in the
        order base-warm, then warm-base, and so on: a build right after another heavy one,
        or a slow spell of the machine, then weighs on both alike.
        """

        def build(book: Path, *, cold: bool = False) -> dict[str, Any]:
            rm(book / "_build")
            if cold:
                rm(self.book_cache)
            return sphinx(book, "-E")

        self.info["cold_builds"] = min(self.runs, COLD_BUILDS)
        colds = [build(self.book, cold=True) for _ in range(self.info["cold_builds"])]
        base: list[dict[str, Any]] = []
        warms: list[dict[str, Any]] = []
        for i in range(self.compared):  # the caches are warm from the last cold build
            if i % 2 == 0:
                base.append(build(self.base))
                warms.append(build(self.book))
            else:
                warms.append(build(self.book))
                base.append(build(self.base))
        self.info["warnings"] = max(r["warnings"] for r in colds + warms)
        self.cpu.update(
            baseline_build_s=med(base, "cpu_s"),
            cold_build_s=med(colds, "cpu_s"),
            warm_build_s=med(warms, "cpu_s"),
        )
        page = self.pages[len(self.pages) // 2]
        original = page.read_text("utf-8")
        page.write_text(
            original + "\nOne more sentence, added for the incremental build.\n", "utf-8"
        )
        try:
            inc = sphinx(self.book)
        finally:
            page.write_text(original, "utf-8")
        stats = json.loads(
            (self.book / "_build" / "html" / "source-anchors.stats.json").read_text("utf-8")
        )
        return {
            "baseline_build_s": med(base),
            "cold_build_s": med(colds),
            "warm_build_s": med(warms),
            "incremental": {
                "modules_parsed": stats["modules_parsed"],
                "anchors_resolved": stats["resolved"] + stats["cached"],
                "re_resolved": stats["resolved"],
                "anchors_on_page": original.count("{src}`"),
                "build_s": inc["seconds"],
            },
            "rss_mb": {"baseline": med(base, "rss_mb"), "cold_build": med(colds, "rss_mb")},
        }

    def instructions(self, seeds: tuple[int, ...] = (0, 1, 2)) -> dict[str, Any]:
        """Instructions of a baseline and a warm build, counted by callgrind (the pair at once), per hash seed.

        A count is repeatable to 0.0001% for one hash seed (with fixed addresses), but the seed
        moves both builds by up to 1% (it orders every set and dict of strings): the figure is the
        median of the ratios over *seeds*.
        """
        if shutil.which("valgrind") is None:
            raise SystemExit("bench: --instructions needs valgrind (apt-get install valgrind)")
        pairs = []
        for seed in seeds:
            env = {**build_env(), "PYTHONHASHSEED": str(seed)}
            for book in (self.base, self.book):
                rm(book / "_build")
            counts = callgrind(
                {
                    name: (OUT / f"callgrind.{name}.out", sphinx_argv(book, "-E"))
                    for name, book in (("baseline", self.base), ("warm", self.book))
                },
                env,
            )
            ratio = counts["warm"] / counts["baseline"]
            pairs.append(
                {
                    "seed": seed,
                    "baseline_instructions": counts["baseline"],
                    "warm_instructions": counts["warm"],
                    "warm_over_baseline": ratio,
                }
            )
            print(
                f"  seed {seed}: baseline {counts['baseline']:,}, warm {counts['warm']:,}, "
                f"ratio {pairs[-1]['warm_over_baseline']:.4f}",
                flush=True,
            )
        return {
            "pairs": pairs,
            "warm_over_baseline": statistics.median(p["warm_over_baseline"] for p in pairs),
            "fixed_addresses": bool(fixed_addresses()),
        }

    def cold_instructions(self, seeds: tuple[int, ...] = (0, 1, 2)) -> dict[str, Any]:
        """Instructions of the floor and of the cold check loop (``core``'s pair), counted by callgrind.

        Each is counted in a whole probe process, then again in one that stops before the measured
        work (``skip``): the difference is the work itself, as the wall-time figures time it.
        """
        rm(WORK / f"lock-{BASE}")
        files, anchored = self.floor_files(
            self.resolve(BASE, cold=True, write_lock=True)
        )  # targets, lock
        resolve = {
            "ext": str(self.ext),
            "repos": self.repos,
            "cache": str(self.probe_cache),
            "targets": str(WORK / f"targets-{BASE}.txt"),
            "lock": str(WORK / f"lock-{BASE}" / "source-anchors.lock"),
        }
        kinds = {
            "floor": ("floor", {"root": str(self.up.path), "files": files}),
            "floor-start": ("floor", {"root": str(self.up.path), "files": files, "skip": True}),
            "anchored": ("floor", {"root": str(self.up.path), "files": anchored}),
            "anchored-start": (
                "floor",
                {"root": str(self.up.path), "files": anchored, "skip": True},
            ),
            "cold": ("resolve", resolve),
            "cold-start": ("resolve", {**resolve, "skip": True}),
        }
        rows = []
        for seed in seeds:
            env = {**snapshot_env(os.environ), "PYTHONHASHSEED": str(seed)}
            counts: dict[str, int] = {}
            for batch in (
                ("floor", "floor-start"),
                ("anchored", "anchored-start"),
                ("cold", "cold-start"),
            ):
                rm(self.probe_cache / "resolutions")
                commands = {}
                for name in batch:
                    kind, args = kinds[name]
                    path = WORK / f"probe-{name}.json"
                    path.write_text(json.dumps(args), "utf-8")
                    commands[name] = (
                        Path(os.devnull),
                        [
                            sys.executable,
                            str(Path(__file__).with_name("probe.py")),
                            kind,
                            str(path),
                        ],
                    )
                counts.update(callgrind(commands, env))
            floor, cold = (
                counts["floor"] - counts["floor-start"],
                counts["cold"] - counts["cold-start"],
            )
            narrow = counts["anchored"] - counts["anchored-start"]
            rows.append(
                {
                    "seed": seed,
                    "floor_instructions": floor,
                    "anchored_floor_instructions": narrow,
                    "cold_resolve_instructions": cold,
                    "cold_over_floor": cold / floor,
                    "cold_over_anchored_floor": cold / narrow,
                }
            )
            print(
                f"  seed {seed}: floor {floor:,} ({len(files)} files), anchored modules' floor {narrow:,} "
                f"({len(anchored)} files), cold resolution {cold:,}, ratio {cold / floor:.4f} "
                f"(over the anchored floor {cold / narrow:.4f})",
                flush=True,
            )
        return {
            "pairs": rows,
            "cold_over_floor": statistics.median(r["cold_over_floor"] for r in rows),
            "cold_over_anchored_floor": statistics.median(
                r["cold_over_anchored_floor"] for r in rows
            ),
        }

    def profile(self) -> None:
        """Profile (cProfile) the cold resolution loop and a warm build; print where the time goes."""
        import pstats

        resolve_prof, build_prof = OUT / "resolve.prof", OUT / "warm-build.prof"
        rm(WORK / f"lock-{BASE}")
        self.resolve(BASE, cold=True, write_lock=True)  # the lock, and warm trees
        self.resolve(BASE, cold=True, profile=resolve_prof)
        rm(self.book / "_build")
        sphinx(self.book, "-E", cprofile=build_prof)
        for title, prof in (
            ("cold resolution loop (1,000 targets)", resolve_prof),
            ("warm build (-E)", build_prof),
        ):
            print(f"\n== profile: {title}: {prof.relative_to(ROOT)}")
            stats = pstats.Stats(str(prof))
            stats.sort_stats("tottime").print_stats(12)
            stats.sort_stats("cumulative").print_stats("source_anchors", 12)


def main(argv: list[str] | None = None) -> int:
    """Set up, measure, print, and write ``_build/bench/results.json``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=7, help="runs per figure, medians reported (default 7)"
    )
    parser.add_argument("--quick", action="store_true", help="one run per figure")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="only profile the cold resolution loop and a warm build (no measurements)",
    )
    parser.add_argument(
        "--seeds", type=int, default=3, help="hash seeds for --instructions (default 3)"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="only count instructions under valgrind, for three hash seeds: a baseline and a warm "
        "build, the floor and the cold check loop, the API cases (the compiled one cold and warm) "
        "and each language's cold resolution beside its parse (about 30 minutes; writes "
        "_build/bench/instructions.json)",
    )
    parser.add_argument(
        "--cold-only",
        action="store_true",
        help="with --instructions: only the floor and the cold check loop (about 3 minutes)",
    )
    args = parser.parse_args(argv)
    runs = 1 if args.quick else max(1, args.runs)
    started = time.perf_counter()
    bench = Bench(runs)
    bench.prime()
    if args.profile:
        bench.profile()
        return 0
    if args.instructions:
        seeds = tuple(range(max(1, args.seeds)))
        counts = (
            {"cold": bench.cold_instructions(seeds)}
            if args.cold_only
            else {
                **bench.instructions(seeds),
                "cold": bench.cold_instructions(seeds),
                "api": api_bench.measure(instructions=True),
                # Definition anchors in TypeScript, Go, Rust and C: cold resolution / the
                # grammar's parse (target 1.5), each printed as it is counted.
                "languages": languages.instructions(WORK),
            }
        )
        (OUT / "instructions.json").write_text(json.dumps(counts, indent=2) + "\n", "utf-8")
        if "warm_over_baseline" in counts:
            print(
                f"instructions (callgrind): warm / baseline = {counts['warm_over_baseline']:.4f}, the median over "
                f"{len(counts['pairs'])} hash seeds"
            )
        print(
            f"instructions (callgrind): cold resolution / floor = {counts['cold']['cold_over_floor']:.4f}, the "
            f"median over {len(seeds)} hash seeds (the wall-time target is 1.5); over the anchored modules' "
            f"floor {counts['cold']['cold_over_anchored_floor']:.4f}"
        )
        return 0
    results: dict[str, Any] = bench.core()
    results["scale"] = bench.scale()
    results.update(bench.builds())
    results["scattered"] = scattered.measure(
        bench
    )  # modules cited in scattered order: parses <= files
    # API links over a large real API: with and without links (instructions with --instructions);
    # the compiled case's builds counted under callgrind where valgrind is (its target is in
    # instructions).
    counting = shutil.which("valgrind") is not None
    results["api"] = api_bench.measure(instructions=False, compiled_instructions=counting)
    # Definition anchors in TypeScript, Go, Rust and C: a cold resolution beside the grammar's own
    # parse, timed, and counted under callgrind where valgrind is (timings on a shared machine move
    # by a third from one run to the next; the counts repeat).
    results["languages"] = languages.measure(WORK, runs)
    if counting:
        results["languages_instructions"] = languages.instructions(WORK)
    # 2,000 Markdown line links: a cold update and a warm check beside git ls-files + reading.
    results["markdown"] = markdown.run(runs)
    order = (
        "floor_s",
        "whole_s",
        "cold_resolve_s",
        "baseline_build_s",
        "cold_build_s",
        "warm_build_s",
        "incremental",
        "scale",
        "rss_mb",
        "scattered",
        "api",
        "languages",
        "languages_instructions",
        "markdown",
    )
    results = {key: results[key] for key in order if key in results}
    (OUT / "results.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    report.show(results, info=bench.info, cpu=bench.cpu, runs=bench.runs, base=BASE)
    languages.show(results["languages"])
    if "languages_instructions" in results:
        languages.show_instructions(results["languages_instructions"])
    compiled = results["api"]["compiled"]
    if "linked_over_plain" in compiled:
        print(
            f"API compiled case ({compiled['package']}): linked / plain = "
            f"{compiled['linked_over_plain']:.3f} in instructions, a first build (target 1.1); "
            f"{compiled['warm_linked_over_plain']:.3f} with the cache filled"
        )
    markdown.show(results["markdown"])
    print(
        f"\nwrote {(OUT / 'results.json').relative_to(ROOT)}; total {time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
