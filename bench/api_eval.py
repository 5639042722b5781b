"""API source links on real projects' own documentation: ``python bench/api_eval.py`` (``make api-eval``).

Each project's sdist is downloaded from PyPI (``pip download --no-binary :all:``), unpacked under
``_build/api-eval/`` and committed to a local git repository whose ``origin`` is the project's
GitHub address. Its own ``docs/`` (its own ``conf.py``, theme and extensions) is built by
``sphinx-build`` with ``source_anchors`` added and ``source_anchors_api_links = "self"``; the
package and its dependencies are found through ``PYTHONPATH`` (the sdists' ``src/`` folders, and a
``.dist-info`` made of each ``PKG-INFO`` for ``importlib.metadata``), never installed.

Then, in a second process that imports the packages (as autodoc does), every object the build
described is looked up by:

* the independent oracle of ``bench/api_oracle.py`` (Python's ``__mro__`` and its own ``ast`` walk);
* a numpy-style importing resolver, written here (import the module, ``getattr`` down the name,
  ``inspect.unwrap``, ``inspect.getsourcelines``), as projects copy into their ``linkcode_resolve``;
* ``sphinx.ext.viewcode``'s own functions (``_get_full_modname`` and ``ModuleAnalyzer.find_tags``),
  which decide the module page and line range viewcode links.

The compiled projects (C API, Cython, pybind11, PyO3) are ``bench/api_eval_compiled.py``'s, their
table printed after this one and their rows in the same results (``"compiled": true``);
``--compiled`` runs them alone, ``--compiled contourpy`` only the projects it names.

Printed per project: objects described, linked, not linked (by reason), links whose range differs
from the oracle's (target 0), and for each of the three the count of wrong files, wrong start lines
and objects without a range, on the objects the oracle places. Results:
``_build/api-eval/results.json``.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_build" / "api-eval"
_GIT = {
    "GIT_AUTHOR_NAME": "e",
    "GIT_AUTHOR_EMAIL": "e@example.invalid",
    "GIT_COMMITTER_NAME": "e",
    "GIT_COMMITTER_EMAIL": "e@example.invalid",
    "GIT_AUTHOR_DATE": "2025-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2025-01-01T00:00:00Z",
}

#: (requirement, GitHub repository) of each project built; they document each other, so all are on
#: the path.
PROJECTS = (
    ("itsdangerous==2.2.0", "pallets/itsdangerous"),
    ("jinja2==3.1.6", "pallets/jinja"),
    ("werkzeug==3.1.9", "pallets/werkzeug"),
    ("flask==3.1.3", "pallets/flask"),
    ("click==8.5.1", "pallets/click"),
)
#: Imported by the projects above, not built: on the path only.
DEPENDENCIES = ("markupsafe==3.0.4", "blinker==1.9.0")


def _run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)


def _unpacked(requirement: str) -> Path:
    """The sdist of *requirement*, downloaded once and unpacked under OUT/src."""
    downloads = OUT / "downloads"
    name, version = requirement.split("==")
    found = [
        p
        for p in downloads.glob("*.tar.gz")
        if p.name.lower().startswith(f"{name.lower()}-{version}")
    ]
    if not found:
        done = _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(downloads),
                requirement,
            ],
            timeout=600,
        )
        if done.returncode:
            raise SystemExit(f"pip download {requirement} failed: {done.stderr.strip()[-400:]}")
        found = [
            p
            for p in downloads.glob("*.tar.gz")
            if p.name.lower().startswith(f"{name.lower()}-{version}")
        ]
    target = OUT / "src" / found[0].name.removesuffix(".tar.gz")
    if not target.is_dir():
        with tarfile.open(found[0]) as tar:
            tar.extractall(OUT / "src", filter="data")
    return target


def _metadata(project: Path, site: Path) -> None:
    """A ``.dist-info`` from the sdist's PKG-INFO, so that ``importlib.metadata.version`` answers."""
    info = (project / "PKG-INFO").read_text("utf-8")
    name = next(
        line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("Name:")
    )
    version = next(
        line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("Version:")
    )
    folder = site / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "METADATA").write_text(info, "utf-8")


def _repository(project: Path, github: str) -> Path:
    """A git repository of the sdist with the extension added to its own conf.py; its folder."""
    repo = OUT / "repos" / project.name
    if repo.is_dir():
        return repo
    shutil.copytree(project, repo)
    conf = repo / "docs" / "conf.py"
    conf.write_text(
        conf.read_text("utf-8")
        + '\n# Added by bench/api_eval.py\nextensions.append("source_anchors")\n'
        'source_anchors_api_links = "self"\n',
        "utf-8",
    )
    env = {**os.environ, **_GIT}
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["commit", "-q", "-m", "sdist"],
        ["remote", "add", "origin", f"git@github.com:{github}.git"],
    ):
        _run(["git", *args], cwd=repo, env=env)
    return repo


def _build(repo: Path, path: str) -> tuple[float, str]:
    """Build the project's docs (HTML); the seconds it took and its summary line."""
    env = {**os.environ, "PYTHONPATH": path, "SOURCE_ANCHORS_CACHE": str(OUT / "cache")}
    env.pop("CI", None)
    began = time.perf_counter()
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
            str(repo / "docs"),
            str(repo / "_build" / "html"),
        ],
        env=env,
        timeout=1800,
    )
    took = time.perf_counter() - began
    if done.returncode:
        raise SystemExit(f"{repo.name}: sphinx-build failed:\n{done.stderr[-2000:]}")
    line = next((ln for ln in done.stdout.splitlines() if "API links:" in ln), "")
    return took, line


def main(argv: list[str]) -> int:
    """Build every project, analyse the links, print the table; exit 1 when a link differs from the oracle."""
    if argv[:1] == ["--analyse"]:
        return _analyse(Path(argv[1]), Path(argv[2]))
    import api_eval_compiled  # bench/ is the script's folder, first on the path

    if argv[:1] == ["--compiled"]:  # the compiled projects only (those named after it, if any)
        compiled = api_eval_compiled.evaluate(argv[1:])
        api_eval_compiled.print_table(compiled)
        return 1 if any(r["links_differing"] for r in compiled.values()) else 0
    OUT.mkdir(parents=True, exist_ok=True)
    site = OUT / "site"
    sources = [_unpacked(req) for req, _ in PROJECTS] + [_unpacked(req) for req in DEPENDENCIES]
    for project in sources:
        _metadata(project, site)
    path = os.pathsep.join([*(str(p / "src") for p in sources), str(site)])
    results = {}
    for (requirement, github), project in zip(PROJECTS, sources, strict=False):
        repo = _repository(project, github)
        took, summary = _build(repo, path)
        analysed = _run(
            [sys.executable, __file__, "--analyse", str(repo / "_build" / "doctrees"), str(repo)],
            env={**os.environ, "PYTHONPATH": path},
            timeout=900,
        )
        if analysed.returncode:
            raise SystemExit(f"{repo.name}: analysis failed:\n{analysed.stderr[-2000:]}")
        results[requirement] = {
            **json.loads(analysed.stdout),
            "build_seconds": round(took, 1),
            "summary": summary,
        }
    compiled = api_eval_compiled.evaluate()
    both = {**results, **{name: {**r, "compiled": True} for name, r in compiled.items()}}
    (OUT / "results.json").write_text(json.dumps(both, indent=1, sort_keys=True) + "\n", "utf-8")
    _print(results)
    print()
    api_eval_compiled.print_table(compiled)
    return 1 if any(r["links_differing"] for r in both.values()) else 0


def _print(results: dict[str, Any]) -> None:
    head = (
        f"{'project':22} {'described':>9} {'linked':>6} {'no link':>7}  {'differ':>6}  | {'placed':>6} "
        f"{'ours: file/start/none':>21} {'numpy: file/start/none':>22} {'viewcode: file/start/none':>25}"
    )
    print(head)
    print("-" * len(head))

    def trio(r: dict[str, Any], key: str) -> str:
        return "/".join(str(r[key][k]) for k in ("wrong_file", "wrong_start", "no_range"))

    for name, r in results.items():
        print(
            f"{name:22} {r['described']:>9} {r['linked']:>6} {r['unlinked']:>7}  {r['links_differing']:>6}  | "
            f"{r['placed']:>6} {trio(r, 'ours'):>21} {trio(r, 'numpy'):>22} {trio(r, 'viewcode'):>25}"
        )
    for name, r in results.items():
        reasons = (
            ", ".join(f"{n} {why}" for why, n in sorted(r["unlinked_by_reason"].items())) or "-"
        )
        print(
            f"{name}: not linked by reason: {reasons}; defined in another project (per the oracle): "
            f"{r['elsewhere']}; linked where the oracle has no answer: {r['oracle_silent']}"
        )
        for example in r["examples"][:5]:
            print(f"    differs: {example}")


# -- the analysis (a process that imports the documented packages)
# -------------------------------------


def _numpy_style(module: str, fullname: str) -> tuple[str, int, int] | None:
    """What a numpy-style ``linkcode_resolve`` links: import, getattr, unwrap, getsourcelines."""
    import importlib
    import inspect

    try:
        obj: Any = importlib.import_module(module)
        for part in fullname.split(".") if fullname else []:
            obj = getattr(obj, part)
        if isinstance(obj, property):
            obj = obj.fget
        obj = inspect.unwrap(obj)
        file = inspect.getsourcefile(obj)
        source, start = inspect.getsourcelines(obj)
    except Exception:  # as the copied resolvers do: any failure is "no link"
        return None
    if not file:
        return None
    start = max(start, 1)  # a module gives 0
    return str(Path(file).resolve()), start, start + len(source) - 1


def _viewcode(module: str, fullname: str) -> tuple[str, int, int] | None:
    """What ``sphinx.ext.viewcode`` links: the module of ``__module__``, the range of ``find_tags``."""
    from sphinx.ext.viewcode import _get_full_modname
    from sphinx.pycode import ModuleAnalyzer

    try:
        modname = _get_full_modname(module, fullname)
        if not modname:
            return None
        analyzer = ModuleAnalyzer.for_module(modname)
        tags = analyzer.find_tags()
    except Exception:  # viewcode skips such objects
        return None
    if fullname not in tags:
        return None
    _, start, end = tags[fullname]
    return str(Path(analyzer.srcname).resolve()), start, end - 1


def _relative(found: tuple[str, int, int] | None, home: Path) -> tuple[str, int, int] | None:
    """*found* with its file relative to the project (a file of another project stays absolute)."""
    if found is None:
        return None
    file = Path(found[0]).resolve()
    try:
        return file.relative_to(home.resolve()).as_posix(), found[1], found[2]
    except ValueError:
        return str(file), found[1], found[2]


def _analyse(doctrees: Path, repo: Path) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from api_oracle import oracle

    with open(doctrees / "environment.pickle", "rb") as handle:
        env = pickle.load(handle)
    rows = [
        row
        for doc in sorted(env.domaindata["source-anchors-api"]["objects"])
        for row in env.domaindata["source-anchors-api"]["objects"][doc]
    ]
    home = (
        OUT / "src" / repo.name
    )  # the files the interpreter imported: the sdist the repository was made of
    seen: set[tuple[str, str]] = set()
    report: dict[str, Any] = {
        "described": 0,
        "linked": 0,
        "unlinked": 0,
        "unlinked_by_reason": {},
        "links_differing": 0,
        "oracle_silent": 0,
        "placed": 0,
        "elsewhere": 0,
        "examples": [],
        "unbound": [],
        "silent": [],
    }
    for key in ("ours", "numpy", "viewcode"):
        report[key] = {"wrong_file": 0, "wrong_start": 0, "no_range": 0}
    for module, fullname, _line, path, start, end, reason, *_ in rows:
        if (module, fullname) in seen:
            continue
        seen.add((module, fullname))
        report["described"] += 1
        if reason:
            report["unlinked"] += 1
            report["unlinked_by_reason"][reason] = report["unlinked_by_reason"].get(reason, 0) + 1
        else:
            report["linked"] += 1
        truth = _relative(oracle(module, fullname), home)
        ours = (path, start, end) if path else None
        if truth is not None and truth[0].startswith("/"):
            report["elsewhere"] += (
                1  # defined in another project (a base class of a dependency): no link to make
            )
            truth = None
        if truth is not None:
            report["placed"] += 1
            for key, answer in (
                ("ours", ours),
                ("numpy", _relative(_numpy_style(module, fullname), home)),
                (
                    "viewcode",
                    None if not fullname else _relative(_viewcode(module, fullname), home),
                ),
            ):
                if answer is None:
                    report[key]["no_range"] += 1
                elif answer[0] != truth[0]:
                    report[key]["wrong_file"] += 1
                elif answer[1] != truth[1]:
                    report[key]["wrong_start"] += 1
        if reason == "not bound statically":
            report["unbound"].append(f"{module}.{fullname}".strip("."))
        if ours is not None and truth is None:
            report["oracle_silent"] += 1
            report["silent"].append(f"{module}.{fullname} -> {path}:{start}-{end}")
        elif ours is not None and truth is not None and ours != truth:
            report["links_differing"] += 1
            report["examples"].append(
                f"{module}.{fullname}: ours {path}:{start}-{end}, oracle {truth[0]}:"
                f"{truth[1]}-{truth[2]}"
            )
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
