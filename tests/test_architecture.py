"""The package's shape, where the import contracts (``make lint``: lint-imports) cannot see it.

The contracts themselves live in pyproject.toml: the stages import only downward, the core never
imports Sphinx or docutils, no folder has an import cycle. Here: what a static import graph does
not show (what importing the core loads at run time, status words, sizes, the packages' own
docstrings), that docs/architecture.md draws the linter's layers, and that the contracts do fail
on an upward import and on a cycle.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ext" / "source_anchors"
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
CONTRACTS = {contract["id"]: contract for contract in CONFIG["contracts"]}
LAYERS: list[str] = CONTRACTS["stages"]["layers"]
STAGES = [name.strip() for layer in LAYERS for name in layer.split("|")]
CORE = [
    name.removeprefix("source_anchors.")
    for name in CONTRACTS["core-without-sphinx"]["source_modules"]
]
STATUS_WORDS = {"ok", "moved", "changed", "missing", "new", "error"}
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_every_folder_of_the_package_is_a_stage_and_the_core_is_the_stages_below_the_glue() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert folders == set(STAGES)
    assert STAGES[:2] == ["cli", "sphinx_ext"]
    assert set(CORE) == set(STAGES[2:])


def test_importing_the_whole_core_loads_no_sphinx_or_docutils() -> None:
    """At run time too: a function-level or dynamic import is checked here, not only the static graph."""
    names = [
        ".".join(("source_anchors", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(
            ".__init__"
        )
        for stage in CORE
        for p in _modules(PACKAGE / stage)
    ]
    code = (
        "import importlib, json, sys\n"
        f"for name in {names!r}: importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(PACKAGE.parent)},
    )
    assert len(names) >= 40
    assert json.loads(done.stdout) == []


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_says_what_it_takes_gives_and_may_import(stage: str) -> None:
    doc = ast.get_docstring(ast.parse((PACKAGE / stage / "__init__.py").read_text("utf-8"))) or ""
    for part in ("Takes in:", "Gives out:", "May import:"):
        assert part in doc, f"{stage}/__init__.py: no {part!r}"


def test_the_architecture_page_draws_the_linters_layers() -> None:
    """docs/architecture.md's stage diagram, first column, top to bottom, is the layers contract."""
    page = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    section = page.split("## The stages", 1)[1]
    block = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert block is not None
    drawn = [
        re.split(r"\s{2,}", line.strip())[0] for line in block.group(1).splitlines() if line.strip()
    ]
    assert drawn == LAYERS
    assert "architecture" in (ROOT / "docs" / "index.md").read_text("utf-8")


def test_status_words_appear_only_in_the_records_module() -> None:
    allowed = {PACKAGE / "model" / "records.py", PACKAGE / "model" / "subtypes.py"}
    found = []
    for path in _modules(PACKAGE):
        if path in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and node.value in STATUS_WORDS:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value!r}")
    assert found == []


@pytest.mark.parametrize("path", _modules(PACKAGE), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_and_classes_stay_small(path: Path) -> None:
    # Soft limits (docs/architecture.md): a module of about 500 lines, a class of about 250, so that
    # a concept is never cut in two only to fit; past them, split by meaning.
    text = path.read_text("utf-8")
    assert len(text.splitlines()) <= 500
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            assert (node.end_lineno or node.lineno) - node.lineno + 1 <= 250, f"class {node.name}"


def _lint(tmp_path: Path, edits: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """lint-imports with the project's contracts over a copy of the package, *edits* appended to its modules."""
    shutil.copytree(
        PACKAGE, tmp_path / "ext" / "source_anchors", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    for module, line in edits.items():
        with (tmp_path / "ext" / "source_anchors" / module).open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    env = {"PYTHONPATH": str(tmp_path / "ext"), "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.skipif(
    not LINT_IMPORTS.exists(), reason="import-linter is not installed (requirements-dev.txt)"
)
def test_the_contracts_hold_and_fail_on_an_upward_import_a_cycle_and_sphinx_in_the_core(
    tmp_path: Path,
) -> None:
    kept = _lint(tmp_path / "kept", {})
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "4 kept, 0 broken" in kept.stdout
    broken = _lint(
        tmp_path / "broken",
        {
            "model/target.py": "from ..engine.engine import Engine as _Upward  # an upward import",
            "sources/treefiles.py": "from . import trees as _cycle  # trees imports treefiles: a cycle",
            "lock/lockfile.py": "import docutils as _glue  # Sphinx's docutils in the core",
            "drift/compare.py": "from ..reading.python import walker as _inside  # past the facade",
            "suggest/catalog.py": "from ..reading.python import Walker as _facade  # the facade: allowed",
        },
    )
    assert broken.returncode == 1
    assert "source_anchors.model.target -> source_anchors.engine.engine" in broken.stdout
    assert ".treefiles -> .trees" in broken.stdout
    assert "source_anchors.lock.lockfile -> docutils" in broken.stdout
    assert "source_anchors.drift.compare -> source_anchors.reading.python.walker" in broken.stdout
    assert "source_anchors.suggest.catalog ->" not in broken.stdout
    assert "0 kept, 4 broken" in broken.stdout


def test_only_python_folders_and_two_readers_of_python_configuration_import_ast() -> None:
    """Python's syntax is read in reading/python; elsewhere only conf.py's edits and setup.py's licence fields."""
    readers = sorted(
        str(path.relative_to(PACKAGE))
        for path in _modules(PACKAGE)
        if "python" not in path.parts
        and any(
            isinstance(node, ast.Import) and any(alias.name == "ast" for alias in node.names)
            for node in ast.walk(ast.parse(path.read_text("utf-8")))
        )
    )
    assert readers == ["edit/confpy.py", "licences/declared.py"]


def test_the_architecture_page_names_each_contract() -> None:
    """Each import-linter contract is described on docs/architecture.md by its id."""
    page = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    assert [name for name in CONTRACTS if f"**{name}**" not in page] == []


def _script_imports(folder: Path) -> dict[str, set[str]]:
    """Each script of *folder* and the sibling scripts it imports (anywhere in it, functions included)."""
    names = {path.stem for path in folder.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
        graph[path.stem] = found & names - {path.stem}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of *graph* (the names in order, the first repeated last), or []."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str]:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return []
        for other in sorted(graph[name]):
            if found := visit(other, [*path, name]):
                return found
        done.add(name)
        return []

    return next((found for name in sorted(graph) if (found := visit(name, []))), [])


def test_the_bench_scripts_import_one_another_without_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [
        "a",
        "b",
        "c",
        "a",
    ]  # the check can fail
    assert _cycle(_script_imports(ROOT / "bench")) == []


def test_every_module_the_architecture_page_names_exists() -> None:
    """A module renamed or moved without the page following it fails here (issue 41: true documents)."""
    page = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    named = set(re.findall(r"`([a-z_]+(?:/[a-z_]+)*\.py)`", page))
    assert len(named) > 30  # the page names the modules it walks through
    missing = [
        name
        for name in sorted(named)
        if not (PACKAGE / name).is_file()
        and not (ROOT / name).is_file()
        and not any(PACKAGE.rglob(name))
    ]
    assert missing == []
