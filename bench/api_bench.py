"""The API case of ``make bench``: a large real API built with and without source links.

``python bench/api_bench.py``, or from ``bench/run.py``.

The package is werkzeug 3.1.9 (its sdist from PyPI, as ``bench/api_eval.py`` fetches it, committed
to a local git repository). One page per module (``automodule`` with ``:members:``,
``:undoc-members:``, ``:show-inheritance:``), theme ``basic``. Both builds load the extension; the
linked one sets ``source_anchors_api_links = "self"``. Reported: objects described and linked,
modules parsed and ``ast.parse`` calls (each module once), build seconds, and with valgrind the
instruction counts of both builds under callgrind (the target: linked / plain <= 1.05). Written to
``_build/bench/api.json``.

The compiled case (``--compiled``, and in ``measure``): contourpy 1.3.3's generated ``py:`` pages of
``bench/api_eval_compiled.py`` (pybind11, its C++ read by the language core), built with and
without ``source_anchors_api_links``; target linked / plain <= 1.1 in instructions, for a first
build: ``linked_over_plain`` is the linked build's with an empty cache folder (CI, a fresh clone),
``warm_linked_over_plain`` beside it the one with the cache the timed builds filled (the tree and
the compiled bindings kept); the timed builds are the plain one, ``linked_cold_build_s`` and
``linked_build_s`` (warm). Written to ``_build/bench/api-compiled.json``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import api_eval  # the same download and repository set-up (bench/ is the script's folder, first on the path)
import api_eval_compiled

OUT = api_eval.ROOT / "_build" / "bench" / "api"
REQUIREMENT = "werkzeug==3.1.9"
#: The compiled project of the compiled case (one of ``api_eval_compiled.PROJECTS``).
COMPILED = "contourpy==1.3.3"


def _book(linked: bool, repo: Path) -> Path:
    """The docs folder of one build (inside the package's repository, so its git is the one linked)."""
    docs = repo / ("docs-linked" if linked else "docs-plain")
    if docs.is_dir():
        return docs
    docs.mkdir()
    package = repo / "src" / "werkzeug"
    modules = sorted(
        ".".join(p.relative_to(repo / "src").with_suffix("").parts).removesuffix(".__init__")
        for p in package.rglob("*.py")
        if not any(
            part.startswith("_") and part != "__init__.py" for part in p.relative_to(package).parts
        )
    )
    pages = []
    for module in modules:
        name = module.replace(".", "-")
        (docs / f"{name}.rst").write_text(
            f"{module}\n{'=' * len(module)}\n\n.. automodule:: {module}\n"
            "   :members:\n   :undoc-members:\n   :show-inheritance:\n",
            "utf-8",
        )
        pages.append(name)
    (docs / "index.rst").write_text(
        "API\n===\n\n.. toctree::\n\n" + "".join(f"   {p}\n" for p in pages), "utf-8"
    )
    (docs / "conf.py").write_text(
        'extensions = ["sphinx.ext.autodoc", "source_anchors"]\nhtml_theme = "basic"\n'
        'suppress_warnings = ["autodoc", "ref", "toc", "docutils", "misc"]\n'
        + (
            'source_anchors_api_links = "self"\nsource_anchors_api_packages = ["src/werkzeug"]\n'
            if linked
            else ""
        ),
        "utf-8",
    )
    return docs


def _argv(docs: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-b",
        "html",
        "-E",
        "-q",
        "-d",
        str(docs / "_build" / "doctrees"),
        str(docs),
        str(docs / "_build" / "html"),
    ]


def _env(path: str) -> dict[str, str]:
    env = {
        **os.environ,
        "PYTHONPATH": path,
        "SOURCE_ANCHORS_CACHE": str(OUT / "cache"),
        "PYTHONHASHSEED": "0",
    }
    env.pop("CI", None)
    return env


def measure(
    *, instructions: bool = True, compiled_instructions: bool | None = None
) -> dict[str, Any]:
    """Build both, return the figures (and print them); the compiled case counted as *compiled_instructions* says.

    *compiled_instructions* None: as *instructions*.
    """
    OUT.mkdir(parents=True, exist_ok=True)
    api_eval.OUT.mkdir(parents=True, exist_ok=True)
    sources = [api_eval._unpacked(REQUIREMENT), api_eval._unpacked("markupsafe==3.0.4")]
    site = api_eval.OUT / "site"
    for project in sources:
        api_eval._metadata(project, site)
    path = os.pathsep.join([*(str(p / "src") for p in sources), str(site)])
    repo = OUT / "werkzeug"
    if not repo.is_dir():
        shutil.copytree(sources[0], repo)
        for linked in (False, True):
            _book(linked, repo)
        env = {**os.environ, **api_eval._GIT}
        for args in (
            ["init", "-q", "-b", "main"],
            ["add", "-A"],
            ["commit", "-q", "-m", "sdist"],
            ["remote", "add", "origin", "git@github.com:pallets/werkzeug.git"],
        ):
            subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    plain, linked = _book(False, repo), _book(True, repo)
    figures: dict[str, Any] = {"package": REQUIREMENT, "pages": len(list(plain.glob("*.rst"))) - 1}
    for name, docs in (("plain", plain), ("linked", linked)):
        began = time.perf_counter()
        argv = [a for a in _argv(docs) if a != "-q"]  # the summary lines are info lines
        done = subprocess.run(argv, capture_output=True, text=True, env=_env(path))
        figures[f"{name}_build_s"] = round(time.perf_counter() - began, 2)
        if done.returncode:
            raise SystemExit(f"bench: the {name} API build failed:\n{done.stderr[-2000:]}")
        if name == "linked":
            summary = re.search(r"(\d+) objects described, (\d+) linked", done.stdout)
            parses = re.search(
                r"(\d+) modules parsed by this process \((\d+) ast parses\)", done.stdout
            )
            assert summary and parses, done.stdout[-2000:]
            figures.update(
                objects=int(summary[1]),
                linked=int(summary[2]),
                modules_parsed=int(parses[1]),
                ast_parses=int(parses[2]),
            )
            figures["each_module_parsed_once"] = figures["ast_parses"] == figures["modules_parsed"]
    if instructions and shutil.which("valgrind"):
        from callgrind import callgrind  # fixed addresses, all at once

        counts = callgrind(
            {
                name: (OUT / f"callgrind.{name}.out", _argv(docs))
                for name, docs in (("plain", plain), ("linked", linked))
            },
            _env(path),
        )
        figures.update(
            plain_instructions=counts["plain"],
            linked_instructions=counts["linked"],
            linked_over_plain=round(counts["linked"] / counts["plain"], 4),
        )
    (OUT.parent / "api.json").write_text(json.dumps(figures, indent=2) + "\n", "utf-8")
    print("API case:", json.dumps(figures))
    figures["compiled"] = measure_compiled(
        instructions=instructions if compiled_instructions is None else compiled_instructions
    )
    return figures


def measure_compiled(*, instructions: bool = True) -> dict[str, Any]:
    """The compiled case: one compiled project's pages with and without links (and print them)."""
    OUT.mkdir(parents=True, exist_ok=True)
    requirement, github, modules = next(p for p in api_eval_compiled.PROJECTS if p[0] == COMPILED)
    repo = api_eval_compiled._repository(api_eval_compiled._unpacked(requirement), github, modules)
    linked = repo / "docs-api"
    plain = repo / "docs-plain"  # outside the commit: it links nothing
    if not plain.is_dir():
        shutil.copytree(linked, plain, ignore=shutil.ignore_patterns("_build"))
        conf = plain / "conf.py"
        conf.write_text(
            "".join(
                line
                for line in conf.read_text("utf-8").splitlines(keepends=True)
                if not line.startswith("source_anchors_api")
            ),
            "utf-8",
        )
    env = _env("")
    cold = OUT / "cold-cache"  # a first build's: an empty cache folder (CI, a fresh clone)
    figures: dict[str, Any] = {"package": requirement}
    for name, docs in (("plain", plain), ("linked_cold", linked), ("linked", linked)):
        shutil.rmtree(cold, ignore_errors=True)
        began = time.perf_counter()
        done = subprocess.run(
            [a for a in _argv(docs) if a != "-q"],
            capture_output=True,
            text=True,
            env={**env, "SOURCE_ANCHORS_CACHE": str(cold)} if name == "linked_cold" else env,
        )
        figures[f"{name}_build_s"] = round(time.perf_counter() - began, 2)
        if done.returncode:
            raise SystemExit(f"bench: the compiled {name} build failed:\n{done.stderr[-2000:]}")
        if name == "linked":
            summary = re.search(r"(\d+) objects described, (\d+) linked", done.stdout)
            assert summary, done.stdout[-2000:]
            figures.update(objects=int(summary[1]), linked=int(summary[2]))
    if instructions and shutil.which("valgrind"):
        from callgrind import callgrind

        # The cold build's cache is an empty folder again; the warm one's holds what the timed
        # builds kept (the tree, the compiled bindings).
        shutil.rmtree(cold, ignore_errors=True)
        builds = (("plain", plain), ("linked", linked), ("linked_cold", linked))
        counts = callgrind(
            {name: (OUT / f"callgrind.compiled-{name}.out", _argv(docs)) for name, docs in builds},
            env,
            envs={"linked_cold": {**env, "SOURCE_ANCHORS_CACHE": str(cold)}},
        )
        figures.update(
            plain_instructions=counts["plain"],
            linked_instructions=counts["linked_cold"],
            linked_over_plain=round(counts["linked_cold"] / counts["plain"], 4),
            warm_linked_instructions=counts["linked"],
            warm_linked_over_plain=round(counts["linked"] / counts["plain"], 4),
        )
    (OUT.parent / "api-compiled.json").write_text(json.dumps(figures, indent=2) + "\n", "utf-8")
    print("API compiled case:", json.dumps(figures))
    return figures


if __name__ == "__main__":
    if "--compiled" in sys.argv:
        measure_compiled(instructions="--no-instructions" not in sys.argv)
    else:
        measure(instructions="--no-instructions" not in sys.argv)
