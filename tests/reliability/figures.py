"""The reliability suite's figures: cases tried, survived and failed, per category (a pytest plugin).

``tests/conftest.py`` loads this module as a plugin (``pytest_plugins``), so that its hooks
run in every pytest process: under pytest-xdist each worker sends its figures to the
controller (``workeroutput``), which merges them, prints the table and writes the file.

Every test module here names its ``CATEGORY``; tests record each case through the
session-scoped ``results`` fixture (``results.tally(CATEGORY)``). At the end of the
session the figures are printed as a table and written to
``_build/reliability/results.json`` (relative to the repository root), one record per
category: ``{"tried": N, "survived": N, "failed": [{"case": ..., "problems": [...]}, ...]}``.

``RELIABILITY_SCALE`` chooses how many cases run: ``bounded`` (the default, used by a
plain ``pytest tests/``: a few minutes on two cores) or ``full`` (``make reliability``:
at least 2,000 generated author inputs, 20 kill trials of each kind and a 50 MiB upstream module).
``RELIABILITY_SEED`` changes the seed of every random choice (default 20260501).
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "_build" / "reliability" / "results.json"
CATEGORIES = (
    "bad_author_input",
    "bad_config_and_lock",
    "hostile_upstream",
    "faults",
    "concurrency",
    "no_network",
)


@dataclass(frozen=True)
class Scale:
    """How much each category runs."""

    name: str
    author_cases: int
    anchors_per_page: int
    pages_per_build: int
    kill_builds: int
    kill_updates: int
    concurrency_rounds: int
    cycle_timeout: float
    #: The hostile git upstream's one huge module, in MiB: either size is far over the extension's
    #: 2 MB ``max_file_bytes``, so both show it refused with a warning and the book built; the full
    #: form also pushes 50 MiB through git and the export (about 4 s of CPU more, mostly zlib).
    big_module_mib: int


SCALES = {
    "bounded": Scale(
        "bounded",
        author_cases=300,
        anchors_per_page=50,
        pages_per_build=20,
        kill_builds=5,
        kill_updates=5,
        concurrency_rounds=1,
        cycle_timeout=15.0,
        big_module_mib=8,
    ),
    "full": Scale(
        "full",
        author_cases=2400,
        anchors_per_page=50,
        pages_per_build=20,
        kill_builds=20,
        kill_updates=20,
        concurrency_rounds=3,
        cycle_timeout=40.0,
        big_module_mib=50,
    ),
}


def current_scale() -> Scale:
    """The scale named by ``RELIABILITY_SCALE`` (default: bounded)."""
    name = os.environ.get("RELIABILITY_SCALE", "bounded").strip().lower() or "bounded"
    if name not in SCALES:
        raise pytest.UsageError(f"RELIABILITY_SCALE={name!r}: expected one of {sorted(SCALES)}")
    return SCALES[name]


def current_seed() -> int:
    """The seed of every random choice in the suite (``RELIABILITY_SEED``)."""
    return int(os.environ.get("RELIABILITY_SEED", "20260501"))


class CategoryFailed(AssertionError):
    """Raised by :meth:`Tally.check` when cases of a category failed."""


@dataclass
class Category:
    """The figures of one category."""

    tried: int = 0
    survived: int = 0
    failed: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"tried": self.tried, "survived": self.survived, "failed": self.failed}

    def merge(self, data: dict[str, Any]) -> None:
        """Add the figures of another process (the dict of :meth:`Results.dump`)."""
        self.tried += data["tried"]
        self.survived += data["survived"]
        self.failed.extend(data["failed"])
        self.notes.extend(data["notes"])


@dataclass
class Tally:
    """The cases one test records into its category."""

    category: Category
    name: str
    mine: list[dict[str, Any]] = field(default_factory=list)

    def case(self, case: str, problems: list[str]) -> bool:
        """Record one case; *problems* empty means it survived. Returns whether it survived."""
        self.category.tried += 1
        if not problems:
            self.category.survived += 1
            return True
        entry = {"case": case, "problems": [_clip(p) for p in problems]}
        self.category.failed.append(entry)
        self.mine.append(entry)
        return False

    def note(self, text: str) -> None:
        """A line printed under the table (not a failure)."""
        self.category.notes.append(text)

    def check(self) -> None:
        """Fail the calling test if any of its cases failed."""
        if self.mine:
            shown = "\n".join(f"- {e['case']}: {'; '.join(e['problems'])}" for e in self.mine[:25])
            more = f"\n… and {len(self.mine) - 25} more" if len(self.mine) > 25 else ""
            raise CategoryFailed(f"{self.name}: {len(self.mine)} case(s) failed\n{shown}{more}")


def _clip(text: str, limit: int = 1500) -> str:
    return (
        text if len(text) <= limit else text[:limit] + f" … ({len(text) - limit} more characters)"
    )


class Results:
    """All categories of this session."""

    def __init__(self) -> None:
        self.categories: dict[str, Category] = {}

    def tally(self, name: str) -> Tally:
        if name not in CATEGORIES:
            raise KeyError(name)
        return Tally(self.categories.setdefault(name, Category()), name)

    def dump(self) -> dict[str, dict[str, Any]]:
        """Every category's figures and notes, as plain data (sent from an xdist worker)."""
        return {
            name: {**cat.as_json(), "notes": cat.notes} for name, cat in self.categories.items()
        }

    def merge(self, data: dict[str, dict[str, Any]]) -> None:
        """Add the figures of another process."""
        for name, figures in data.items():
            self.categories.setdefault(name, Category()).merge(figures)

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            name: self.categories[name].as_json() for name in CATEGORIES if name in self.categories
        }
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")


_RESULTS = Results()


@pytest.fixture(scope="session")
def results() -> Results:
    """The session's results collector."""
    return _RESULTS


@pytest.fixture(scope="session")
def scale() -> Scale:
    """The scale of this run."""
    return current_scale()


@pytest.fixture(scope="session")
def seed() -> int:
    """The seed of this run."""
    return current_seed()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    """A test that stops on an unexpected exception still leaves a failed case in its category."""
    outcome = yield
    report = outcome.get_result()
    category = getattr(getattr(item, "module", None), "CATEGORY", None)
    if category not in CATEGORIES or report.when not in ("setup", "call") or not report.failed:
        return
    if call.excinfo is not None and call.excinfo.errisinstance(CategoryFailed):
        return
    reason = call.excinfo.exconly() if call.excinfo is not None else "failed"
    _RESULTS.tally(category).case(f"{item.name} ({report.when})", [f"the test stopped: {reason}"])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Write the results file (only categories that ran appear in it); an xdist worker sends them instead."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["reliability"] = _RESULTS.dump()
    elif _RESULTS.categories:
        _RESULTS.write(RESULTS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist's controller: merge the figures of a worker that finished."""
    _RESULTS.merge(getattr(node, "workeroutput", {}).get("reliability", {}))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Print the figures table."""
    if not _RESULTS.categories:
        return
    tr = terminalreporter
    tr.section(f"reliability figures (scale: {current_scale().name}, seed: {current_seed()})")
    tr.write_line(f"{'category':<22}{'tried':>8}{'survived':>10}{'failed':>8}")
    total = Category()
    for name in CATEGORIES:
        cat = _RESULTS.categories.get(name)
        if cat is None:
            continue
        total.tried += cat.tried
        total.survived += cat.survived
        tr.write_line(f"{name:<22}{cat.tried:>8}{cat.survived:>10}{len(cat.failed):>8}")
        total.failed.extend(cat.failed)
    tr.write_line(f"{'total':<22}{total.tried:>8}{total.survived:>10}{len(total.failed):>8}")
    for name in CATEGORIES:
        cat = _RESULTS.categories.get(name)
        if cat is None:
            continue
        for note in cat.notes:
            tr.write_line(f"  note [{name}] {note}")
        for entry in cat.failed[:8]:
            tr.write_line(
                f"  FAILED [{name}] {entry['case']}: {_clip('; '.join(entry['problems']), 300)}"
            )
        if len(cat.failed) > 8:
            tr.write_line(f"  … {len(cat.failed) - 8} more failures of {name} in {RESULTS}")
    tr.write_line(f"results written to {RESULTS}")
