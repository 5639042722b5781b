"""Compiled bindings of real sdists from PyPI, downloaded at test time, against hand-labelled facts.

The facts (``bench/compiled_facts.json``) were read off the files by a person: for one object of
each binding style (C API, Cython, nanobind, PyO3), the file and the first and last line of its
definition; for pybind11 (contourpy), a class declared in a ``.h`` header and members its classes
inherit from a template base; for iminuit (pybind11), bindings in functions that take the module
by value and an ``operator()``; for tiktoken (PyO3), a class marked through ``#[cfg_attr(…)]``;
for jiter (PyO3), functions of a declarative ``#[pymodule] mod``, one of which has a namesake in
another file of the crate.
"""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

import pytest
from helpers import ROOT
from source_anchors.reading.compiled import Binding, CompiledIndex
from source_anchors.sources.simpleindex import download_sdist

FACTS = json.loads((ROOT / "bench" / "compiled_facts.json").read_text("utf-8"))


@pytest.mark.parametrize("requirement", sorted(k for k in FACTS if not k.startswith("_")))
def test_each_binding_gives_the_hand_labelled_lines(requirement: str, tmp_path: Path) -> None:
    download_sdist(requirement, tmp_path, timeout=300)
    archive = next(tmp_path.glob("*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path / "x", filter="data")
    root = next((tmp_path / "x").iterdir())
    paths = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    index = CompiledIndex(paths, lambda path: (root / path).read_bytes())
    for name, (path, start, end) in FACTS[requirement].items():
        found = index.lookup(name)
        assert isinstance(found, Binding), (name, found)
        assert (found.path, found.start, found.end) == (path, start, end), name
    assert index.parses <= len([p for p in paths if p.endswith((".c", ".h", ".cpp", ".rs"))])
