"""The benchmark's report: the table of figures and the targets, each PASS or MISS."""

from __future__ import annotations

import os
from typing import Any

import fixture


def targets(r: dict[str, Any]) -> list[tuple[str, float, str, bool]]:
    """(name, measured, limit text, met) for each target."""
    inc, scale, rss = r["incremental"], r["scale"], r["rss_mb"]
    rows = [
        ("cold_resolve_s / floor_s", r["cold_resolve_s"] / r["floor_s"], "<= 1.5"),
        ("cold_resolve_s / whole_s", r["cold_resolve_s"] / r["whole_s"], "<= 0.2"),
        ("warm_build_s / baseline_build_s", r["warm_build_s"] / r["baseline_build_s"], "<= 1.05"),
        ("incremental modules_parsed", inc["modules_parsed"], "== 0"),
        ("incremental anchors_resolved", inc["anchors_resolved"], f"== {inc['anchors_on_page']}"),
        ("cold ms/anchor 10k / 1k", scale["10000"]["cold_ms"] / scale["1000"]["cold_ms"], "<= 1.5"),
        ("warm ms/anchor 10k / 1k", scale["10000"]["warm_ms"] / scale["1000"]["warm_ms"], "<= 1.5"),
        ("cold build rss - baseline rss (MB)", rss["cold_build"] - rss["baseline"], "<= 64"),
        ("markdown warm check / floor", r["markdown"]["warm_over_floor"], "<= 1.2"),
        ("markdown warm check files_read", r["markdown"]["check_files_read"], "== 0"),
        (
            "markdown cold update parses a file",
            r["markdown"]["update_most_parses_of_a_file"],
            "== 1",
        ),
    ]
    out = []
    for name, value, limit in rows:
        op, bound = limit.split()
        met = value <= float(bound) if op == "<=" else value == float(bound)
        out.append((name, value, limit, met))
    return out


def show(
    r: dict[str, Any], *, info: dict[str, Any], cpu: dict[str, float], runs: int, base: int
) -> None:
    """Print the results table (wall seconds, with CPU seconds beside them) and the targets."""
    inc, scale, rss = r["incremental"], r["scale"], r["rss_mb"]

    def row(name: str, detail: str) -> tuple[str, str, str, str]:
        return name, f"{r[name]:.3f}", f"{cpu[name]:.3f}", detail

    rows = [
        row(
            "floor_s",
            f"read + ast.parse of the {info['floor_files']} files the answers depend on "
            f"({info['modules']} anchored modules, their packages, star-import sources, base classes)",
        ),
        (
            "anchored floor",
            f"{info['anchored_floor_s']:.3f}",
            f"{info['anchored_floor_cpu_s']:.3f}",
            f"only the {info['anchored_files']} files of the anchored modules and their packages "
            f"(cold resolution / it: {r['cold_resolve_s'] / info['anchored_floor_s']:.3f}; not a target)",
        ),
        row("whole_s", f"griffe.load of all {info['whole_modules']} django modules"),
        (
            "export_s",
            f"{info['export_s']:.3f}",
            "",
            "git export into a cold tree cache (not in results.json)",
        ),
        row(
            "cold_resolve_s",
            f"Engine.check x {base}, empty resolution cache; {info['resolver_modules']} "
            f"modules parsed whole, {info['resolver_parses']} ast.parse calls with the heads of "
            "star modules",
        ),
        row("baseline_build_s", "plain links, no extension, -E"),
        row("cold_build_s", "-E, empty cache (export + resolution)"),
        row("warm_build_s", "-E, trees and resolutions cached"),
        (
            "incremental",
            f"{inc['build_s']:.3f}",
            "",
            f"one page edited: modules_parsed={inc['modules_parsed']}, anchors_resolved={inc['anchors_resolved']} "
            f"(re-resolved {inc['re_resolved']}, on the page {inc['anchors_on_page']})",
        ),
        *[
            (
                f"scale {n:>5} cold",
                f"{scale[n]['cold_ms']:.3f}",
                f"{info['scale_cpu'][n]['cold_ms']:.3f}",
                f"ms/anchor, {info['scale_modules'][n]} modules",
            )
            for n in scale
        ],
        *[
            (
                f"scale {n:>5} warm",
                f"{scale[n]['warm_ms']:.3f}",
                f"{info['scale_cpu'][n]['warm_ms']:.3f}",
                f"ms/anchor; the engine's start (settings + lock read) took {info['scale_cpu'][n]['engine_s']:.3f} s",
            )
            for n in scale
        ],
        (
            "rss_mb",
            f"{rss['cold_build']:.1f}",
            "",
            f"cold build peak; baseline {rss['baseline']:.1f}",
        ),
    ]
    print(
        f"\nsource_anchors benchmark: {base} anchors on {base // fixture.PER_PAGE} pages over {fixture.DIST}; "
        f"median of {runs} run(s); floor/cold resolution and baseline/warm builds: {2 * runs + 1}, "
        f"cold builds and exports: {info['cold_builds']}; extension at {info['extension']}"
    )
    print("  scale: per anchor = (engine start with the lock + checks of every target) / anchors")
    print(f"  {'figure':<21} {'wall':>9} {'cpu':>8}  detail (seconds unless said)")
    for name, value, cpu_text, detail in rows:
        print(f"  {name:<21} {value:>9} {cpu_text:>8}  {detail}")
    if info.get("warnings"):
        print(f"  note: the anchored builds printed {info['warnings']} warning(s)")
    print(
        f"  load average before/after: {info['load'][0]:.1f} / {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} CPUs"
    )
    print("\ntargets: PASS or MISS on wall time (results.json), and on CPU time where it applies")
    scale_cpu = info["scale_cpu"]
    cpu_ratio = {
        "cold_resolve_s / floor_s": cpu["cold_resolve_s"] / cpu["floor_s"],
        "cold_resolve_s / whole_s": cpu["cold_resolve_s"] / cpu["whole_s"],
        "warm_build_s / baseline_build_s": cpu["warm_build_s"] / cpu["baseline_build_s"],
        "cold ms/anchor 10k / 1k": scale_cpu["10000"]["cold_ms"] / scale_cpu["1000"]["cold_ms"],
        "warm ms/anchor 10k / 1k": scale_cpu["10000"]["warm_ms"] / scale_cpu["1000"]["warm_ms"],
    }
    print(f"  {'target':<36} {'limit':<8} {'wall':>9}        {'cpu':>9}")
    for name, value, limit, met in targets(r):
        line = f"  {name:<36} {limit:<8} {value:>9.3f} {'PASS' if met else 'MISS'}"
        if name in cpu_ratio:
            bound = float(limit.split()[1])
            line += f"   {cpu_ratio[name]:>9.3f} {'PASS' if cpu_ratio[name] <= bound else 'MISS'}"
        print(line)
