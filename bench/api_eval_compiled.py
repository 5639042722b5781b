"""API links of compiled objects on real projects: the compiled part of ``make api-eval``.

Six projects, one to three per binding style, from their PyPI sdists (downloaded, never built):
bitarray (C API), msgpack, PyYAML and frozenlist (Cython), contourpy (pybind11), rpds-py (PyO3). Their own
docs need the built extension to import, so each is described instead by a generated page of
hand-written ``py:`` directives listing every object the project exposes: the classes, functions,
methods, properties and attributes of its ``.pyi`` stubs, or, for a Cython module with no stubs,
the ``def``, ``cpdef`` and ``cdef class`` blocks of its ``.pyx`` files. Each sdist is committed to
a local git repository (``origin`` its GitHub address) and the page built by ``sphinx-build`` with
``source_anchors_api_links = "self"``.

The oracle is a hand-labelled sample, ``bench/compiled_eval_facts.json``: for at least ten objects
of each project, the file and the first and last line of the definition, read off the sdist's
files by a person. Printed per project: objects described, linked, the share linked, the sample
size, how many of it are linked, and links that differ from the sample (target 0: precision 1.0).
``python bench/api_eval_compiled.py contourpy`` (or ``bench/api_eval.py --compiled contourpy``)
evaluates the projects it names only.
"""

from __future__ import annotations

import ast
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_build" / "api-eval" / "compiled"
FACTS = Path(__file__).resolve().parent / "compiled_eval_facts.json"
_GIT = {
    "GIT_AUTHOR_NAME": "e",
    "GIT_AUTHOR_EMAIL": "e@example.invalid",
    "GIT_COMMITTER_NAME": "e",
    "GIT_COMMITTER_EMAIL": "e@example.invalid",
    "GIT_AUTHOR_DATE": "2025-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2025-01-01T00:00:00Z",
}

#: (requirement, GitHub repository, {module: the stub or .pyx files that list its objects}).
PROJECTS: tuple[tuple[str, str, dict[str, tuple[str, ...]]], ...] = (
    (
        "bitarray==3.7.1",
        "ilanschnell/bitarray",
        {"bitarray": ("bitarray/__init__.pyi",), "bitarray.util": ("bitarray/util.pyi",)},
    ),
    (
        "msgpack==1.2.4",
        "msgpack/msgpack-python",
        {"msgpack._cmsgpack": ("msgpack/_packer.pyx", "msgpack/_unpacker.pyx")},
    ),
    ("pyyaml==6.0.2", "yaml/pyyaml", {"yaml._yaml": ("yaml/_yaml.pyx",)}),
    (
        "contourpy==1.3.3",
        "contourpy/contourpy",
        {"contourpy._contourpy": ("lib/contourpy/_contourpy.pyi",)},
    ),
    ("rpds-py==2026.9.1", "crate-py/rpds", {"rpds": ("rpds.pyi",)}),
    # Described as its own docs do, as frozenlist.FrozenList: the Python fallback that
    # frozenlist/__init__.py rebinds to the cdef class of the .pyx.
    ("frozenlist==1.8.0", "aio-libs/frozenlist", {"frozenlist": ("frozenlist/_frozenlist.pyx",)}),
)


def _run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)


def _unpacked(requirement: str) -> Path:
    """The sdist of *requirement*, downloaded once (nothing built or run) and unpacked under OUT/src."""
    from source_anchors.sources.simpleindex import download_sdist

    downloads = OUT / "downloads" / requirement
    if not downloads.is_dir() or not any(downloads.glob("*.tar.gz")):
        downloads.mkdir(parents=True, exist_ok=True)
        download_sdist(requirement, downloads, timeout=600)
    archive = next(downloads.glob("*.tar.gz"))
    target = OUT / "src" / archive.name.removesuffix(".tar.gz")
    if not target.is_dir():
        with tarfile.open(archive) as tar:
            tar.extractall(OUT / "src", filter="data")
    return target


# -- the objects a project exposes ------------------------------------------------------------


def _stub_objects(text: str) -> list[tuple[str, str]]:
    """(directive, dotted name inside the module) of each public definition of a ``.pyi``."""
    found: list[tuple[str, str]] = []

    def public(name: str) -> bool:
        return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))

    def walk(body: list[ast.stmt], owner: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef) and public(node.name):
                found.append(("class", f"{owner}{node.name}"))
                walk(node.body, f"{owner}{node.name}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and public(node.name):
                decorators = {ast.unparse(d) for d in node.decorator_list}
                if decorators & {"property", "cached_property"}:
                    kind = "property"
                elif not owner:
                    kind = "function"
                else:
                    kind = "staticmethod" if "staticmethod" in decorators else "method"
                found.append((kind, f"{owner}{node.name}"))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and public(target.id):
                        found.append(("attribute" if owner else "data", f"{owner}{target.id}"))

    walk(ast.parse(text).body, "")
    return found


_PYX_CLASS = re.compile(r"^(?:cdef\s+)?class\s+(\w+)")
_PYX_DEF = re.compile(r"^(\s*)(?:def|cpdef(?:\s+[\w.\[\]*]+)*?)\s+(\w+)\s*\(")
_PYX_PROPERTY = re.compile(r"^(\s+)property\s+(\w+)\s*:")


def _pyx_objects(text: str) -> list[tuple[str, str]]:
    """(directive, dotted name) of each ``def``, ``cpdef``, ``cdef class`` and property of a ``.pyx``."""
    found: list[tuple[str, str]] = []
    owner = ""
    for line in text.splitlines():
        if line.strip() and not line[0].isspace():
            owner = ""
        if match := _PYX_CLASS.match(line):
            owner = match[1]
            found.append(("class", owner))
        elif match := _PYX_PROPERTY.match(line):
            if owner and len(match[1]) == 4:
                found.append(("property", f"{owner}.{match[2]}"))
        elif match := _PYX_DEF.match(line):
            depth, name = len(match[1]), match[2]
            if depth == 0:
                found.append(("function", name))
            elif owner and depth == 4:
                found.append(("method", f"{owner}.{name}"))
    return [(k, n) for k, n in found if not n.rpartition(".")[2].startswith("_") or "__" in n]


def _page(module: str, objects: list[tuple[str, str]]) -> str:
    title = f"``{module}``"
    parts = [title, "=" * len(title), "", f".. py:module:: {module}", ""]
    seen: set[str] = set()
    for kind, name in objects:
        if name in seen:
            continue
        seen.add(name)
        owner, _, leaf = name.rpartition(".")
        signature = "" if kind in ("class", "property", "attribute", "data") else "()"
        if kind == "class":
            parts += [f".. py:class:: {name}", ""]
        else:
            parts += [f".. py:{kind}:: {owner + '.' if owner else ''}{leaf}{signature}", ""]
    return "\n".join(parts) + "\n"


def _repository(project: Path, github: str, modules: dict[str, tuple[str, ...]]) -> Path:
    """A git repository of the sdist with a ``docs-api/`` of generated pages; its folder."""
    repo = OUT / "repos" / project.name
    if repo.is_dir():
        return repo
    shutil.copytree(project, repo)
    docs = repo / "docs-api"
    docs.mkdir()
    pages = []
    for module, files in modules.items():
        objects: list[tuple[str, str]] = []
        for file in files:
            text = (repo / file).read_text("utf-8")
            objects += _stub_objects(text) if file.endswith(".pyi") else _pyx_objects(text)
        name = module.replace(".", "-")
        (docs / f"{name}.rst").write_text(_page(module, objects), "utf-8")
        pages.append(name)
    (docs / "index.rst").write_text(
        "API\n===\n\n.. toctree::\n\n" + "".join(f"   {p}\n" for p in pages), "utf-8"
    )
    (docs / "conf.py").write_text(
        'extensions = ["source_anchors"]\nhtml_theme = "basic"\n'
        'source_anchors_api_links = "self"\nsource_anchors_api_list_unlinked = True\n',
        "utf-8",
    )
    env = {**os.environ, **_GIT}
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A", "-f"],
        ["commit", "-q", "-m", "sdist"],
        ["remote", "add", "origin", f"git@github.com:{github}.git"],
    ):
        _run(["git", *args], cwd=repo, env=env)
    return repo


def _build(repo: Path) -> str:
    """Build the generated pages (HTML); the build's API links summary line."""
    env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(OUT / "cache")}
    env.pop("CI", None)
    docs = repo / "docs-api"
    done = _run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "html",
            "-E",
            "-d",
            str(repo / "_build" / "doctrees"),
            str(docs),
            str(repo / "_build" / "html"),
        ],
        env=env,
        timeout=1800,
    )
    if done.returncode:
        raise SystemExit(f"{repo.name}: sphinx-build failed:\n{done.stderr[-2000:]}")
    return next((ln for ln in done.stdout.splitlines() if "API links:" in ln), "")


def _analyse(repo: Path, facts: dict[str, list[Any]]) -> dict[str, Any]:
    """The build's links against the hand-labelled sample."""
    with open(repo / "_build" / "doctrees" / "environment.pickle", "rb") as handle:
        env = pickle.load(handle)
    objects = env.domaindata["source-anchors-api"]["objects"]
    links: dict[str, tuple[str, int, int] | None] = {}
    reasons: dict[str, int] = {}
    for doc in sorted(objects):
        for module, fullname, _line, path, start, end, reason, *_ in objects[doc]:
            name = f"{module}.{fullname}".strip(".")
            if name in links:
                continue
            links[name] = (path, start, end) if path else None
            if reason:
                reasons[reason] = reasons.get(reason, 0) + 1
    linked = sum(1 for link in links.values() if link is not None)
    differing = []
    sample_linked = 0
    missing = [name for name in facts if name not in links]
    for name, (path, start, end) in facts.items():
        found = links.get(name)
        if found is None:
            continue
        sample_linked += 1
        if found != (path, start, end):
            differing.append(f"{name}: ours {found[0]}:{found[1]}-{found[2]}, {path}:{start}-{end}")
    return {
        "described": len(links),
        "linked": linked,
        "share_linked": round(linked / len(links), 3) if links else 0.0,
        "unlinked_by_reason": reasons,
        "sampled": len(facts),
        "sample_linked": sample_linked,
        "sample_not_described": missing,
        "links_differing": len(differing),
        "precision": round(1 - len(differing) / sample_linked, 3) if sample_linked else None,
        "examples": differing,
    }


def evaluate(projects: Sequence[str] = ()) -> dict[str, Any]:
    """Build and analyse every compiled project (or those *projects* name); the results by requirement."""
    OUT.mkdir(parents=True, exist_ok=True)
    facts = json.loads(FACTS.read_text("utf-8"))
    known = {requirement.partition("==")[0] for requirement, _, _ in PROJECTS}
    unknown = sorted(set(projects) - known)
    if unknown:
        raise SystemExit(
            f"no compiled project {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    results = {}
    for requirement, github, modules in PROJECTS:
        if projects and requirement.partition("==")[0] not in projects:
            continue
        repo = _repository(_unpacked(requirement), github, modules)
        summary = _build(repo)
        results[requirement] = {**_analyse(repo, facts[requirement]), "summary": summary}
    return results


def print_table(results: dict[str, Any]) -> None:
    """The table of the compiled projects."""
    head = (
        f"{'compiled project':22} {'described':>9} {'linked':>6} {'share':>6}  "
        f"{'sampled':>7} {'linked':>6} {'differ':>6} {'precision':>9}"
    )
    print(head)
    print("-" * len(head))
    for name, r in results.items():
        precision = "-" if r["precision"] is None else f"{r['precision']:.3f}"
        print(
            f"{name:22} {r['described']:>9} {r['linked']:>6} {r['share_linked']:>6.1%}  "
            f"{r['sampled']:>7} {r['sample_linked']:>6} {r['links_differing']:>6} {precision:>9}"
        )
    for name, r in results.items():
        reasons = ", ".join(f"{n} {why}" for why, n in sorted(r["unlinked_by_reason"].items()))
        print(f"{name}: not linked by reason: {reasons or '-'}")
        for missing in r["sample_not_described"]:
            print(f"    sampled but not described: {missing}")
        for example in r["examples"]:
            print(f"    differs: {example}")


if __name__ == "__main__":
    found = evaluate(sys.argv[1:])  # project names (``contourpy``): those only
    print_table(found)
    raise SystemExit(1 if any(r["links_differing"] for r in found.values()) else 0)
