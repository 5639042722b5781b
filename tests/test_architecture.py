"""The package's shape: a core that never imports Sphinx, statuses only in their enum, small modules."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ext" / "source_anchors"
CORE = PACKAGE / "core"
STATUS_WORDS = {"ok", "moved", "changed", "missing", "new", "error"}


def _modules(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_importing_the_whole_core_loads_no_sphinx_or_docutils() -> None:
    names = [f"source_anchors.core.{p.stem}" for p in _modules(CORE) if p.stem != "__init__"]
    code = ("import importlib, json, sys\n"
            f"for name in {names!r}: importlib.import_module(name)\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(PACKAGE.parent)})
    assert len(names) >= 20
    assert json.loads(done.stdout) == []


@pytest.mark.parametrize("path", _modules(CORE), ids=lambda p: p.name)
def test_core_module_imports_neither_sphinx_nor_the_glue(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            heads = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            heads = [(node.module or "").split(".")[0]] if node.level == 0 else []
            # Relative imports stay inside core/: two dots would reach the glue (nothing calls back up).
            assert node.level <= 1, f"{path.name}:{node.lineno} imports from outside core/"
        else:
            continue
        assert not {"sphinx", "docutils", "source_anchors"} & set(heads), f"{path.name}:{node.lineno}"


def test_status_words_appear_only_in_the_records_module() -> None:
    allowed = {CORE / "records.py", CORE / "subtypes.py"}
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
    text = path.read_text("utf-8")
    assert len(text.splitlines()) <= 400
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            assert (node.end_lineno or node.lineno) - node.lineno + 1 <= 200, f"class {node.name}"
