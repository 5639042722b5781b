"""Compiled API links into a pinned repository are locked and checked as anchors are.

A git repository the test makes holds a small C extension (a ``PyMethodDef`` table and its
function), a pybind11 module, a Cython module and a PyO3 module; a book documents one function of each with
hand-written ``py:function`` directives (nothing is imported or compiled) and links them into the
pin. Each pin bump is a commit of that repository: the functions move down (lines inserted above
them), then their bodies change, then one is removed. A locked build (``CI=true``) fails on each,
naming the object and the status (and the class of a change); ``source-anchors update`` relocks, and
the build passes with the new lines linked.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from html import unescape
from pathlib import Path

from helpers import Upstream

SETUP = """\
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("pkg._speedups", sources=["src/speedups.c"]),
    Extension("pkg._fast", ["pkg/_fast.pyx"]),
])
"""
C_SOURCE = """\
#include <Python.h>

/* escape(s) -> str */
static PyObject *
escape(PyObject *self, PyObject *s)
{
    Py_INCREF(s);
    return s;
}

static PyMethodDef module_methods[] = {
    {"escape", (PyCFunction)escape, METH_O, "Escape."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, module_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module_definition);
}
"""
CPP = """\
#include <pybind11/pybind11.h>
namespace py = pybind11;

int add(int a, int b) {
    return a + b;
}

PYBIND11_MODULE(_bind, m) {
    m.def("add", &add, "Add two numbers");
}
"""
PYX = """\
# cython: language_level=3
def total(values):
    return sum(values)
"""
RUST = """\
use pyo3::prelude::*;

/// Adds.
#[pyfunction]
#[pyo3(name = "plus")]
fn add_numbers(a: i64, b: i64) -> i64 {
    a + b
}

#[pymodule]
fn _rs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(add_numbers, m)?)?;
    Ok(())
}
"""
PYPROJECT = """\
[tool.maturin]
module-name = "pkg._rs"
"""
#: Documented object -> (file, first words of its first line, first words of its last line).
OBJECTS = {
    "pkg._speedups.escape": ("src/speedups.c", "static PyObject *\nescape(", "    return s;\n}"),
    "pkg._bind.add": ("pkg/_bind.cpp", "int add(int a", ";\n}"),
    "pkg._fast.total": ("pkg/_fast.pyx", "def total(", "    return sum(values"),
    "pkg._rs.plus": ("src/lib.rs", "#[pyfunction]", "    a + b\n}"),
}
PAGE = "\n".join(
    [
        "API",
        "===",
        "",
        *(
            line
            for name in OBJECTS
            for line in (
                f".. py:function:: {name.rpartition('.')[2]}(a, b)",
                f"   :module: {name.rpartition('.')[0]}",
                "",
                "   Described by hand.",
                "",
            )
        ),
    ]
)
HTML_LINK = re.compile(r'<a class="reference external sa-api-source" href="([^"]+)"')
#: Lines inserted above each definition in the second commit (comments and a helper).
ABOVE = {
    "pkg/_fast.pyx": ("language_level=3\n", "cdef int two = 2\n\n"),
    "src/speedups.c": ("#include <Python.h>\n", "/* a helper first */\nstatic int two = 2;\n\n"),
    "pkg/_bind.cpp": (
        "namespace py = pybind11;\n",
        "\n// a helper first\nint two() { return 2; }\n",
    ),
    "src/lib.rs": (
        "use pyo3::prelude::*;\n",
        "\n/// A helper first.\nfn two() -> i64 {\n    2\n}\n",
    ),
}


class Project:
    """The upstream repository and the book that pins it (in one temporary folder)."""

    def __init__(self, root: Path, *, packages: bool = True) -> None:
        self.up = Upstream(root / "up")
        #: The pin's ``packages`` key: without it, every documented module is a compiled one.
        self.packages = ', "packages": ["pkg"]' if packages else ""
        self.files = {
            "setup.py": SETUP,
            "pyproject.toml": PYPROJECT,
            "pkg/__init__.py": "",
            "src/speedups.c": C_SOURCE,
            "pkg/_bind.cpp": CPP,
            "pkg/_fast.pyx": PYX,
            "src/lib.rs": RUST,
        }
        self.book = root / "book"
        self.book.mkdir()
        (self.book / "index.rst").write_text(PAGE, "utf-8")
        self.cache = root / "cache"
        self.commit = ""

    def release(self, message: str, edits: dict[str, str] | None = None) -> str:
        """Commit the files with *edits* (file -> text), pin the book to it; the commit."""
        self.files.update(edits or {})
        self.up.write_files(self.files)
        self.commit = self.up.commit(message)
        (self.book / "conf.py").write_text(
            textwrap.dedent(f"""\
            extensions = ["source_anchors"]
            source_anchors_repos = {{"up": {{"url": {self.up.url!r}, "commit": {self.commit!r}{self.packages}}}}}
            source_anchors_api_links = "up"
            """),
            "utf-8",
        )
        return self.commit

    def env(self, *, locked: bool) -> dict[str, str]:
        env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(self.cache)}
        env.pop("CI", None)
        return {**env, "CI": "true"} if locked else env

    def build(self, *, locked: bool) -> subprocess.CompletedProcess[str]:
        """A Sphinx build of the book (``CI=true`` when *locked*), every page read again."""
        return subprocess.run(
            [sys.executable, "-m", "sphinx", "-E", "-b", "html", str(self.book), str(self.out)],
            capture_output=True,
            text=True,
            env=self.env(locked=locked),
            timeout=600,
        )

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``source-anchors ARGS`` on the book (not locked)."""
        return subprocess.run(
            [sys.executable, "-m", "source_anchors", "--confdir", str(self.book), *args],
            capture_output=True,
            text=True,
            env=self.env(locked=False),
            timeout=600,
        )

    @property
    def out(self) -> Path:
        return self.book / "_build"

    def links(self) -> dict[str, str]:
        """Each documented object's ``[source]`` link."""
        html = (self.out / "index.html").read_text("utf-8")
        found = {}
        for ident, block in re.findall(
            r'<dt class="sig sig-object py" id="([^"]+)">(.*?)</dt>', html, re.S
        ):
            match = HTML_LINK.search(block)
            if match:
                found[ident] = unescape(match[1])
        return found

    def expected(self, name: str) -> str:
        """The permalink of *name*'s definition in the files as committed last."""
        path, first, last = OBJECTS[name]
        text = self.files[path]
        at = text.index(first)
        end = text.index(last, at) + len(last)
        start, stop = text.count("\n", 0, at) + 1, text.count("\n", 0, end - 1) + 1
        return f"{self.up.url.removesuffix('.git')}/blob/{self.commit}/{path}#L{start}-L{stop}"

    def lock(self) -> dict[str, dict[str, object]]:
        data = json.loads((self.book / "source-anchors.lock").read_text("utf-8"))
        records = data["anchors"]["up"]
        assert isinstance(records, dict)
        return records


def _drift(done: subprocess.CompletedProcess[str], status: str) -> dict[str, str]:
    """The warnings of *status* (``source-anchors.<status>``) at the page: object -> the warning's text."""
    plain = re.sub(r"\x1b\[[0-9;]*m", "", done.stderr)
    found = {}
    for text, subtype in re.findall(
        r"index\.rst:\d+: WARNING: (.*?) \[source-anchors\.(\w+)\]", plain, re.S
    ):
        named = [name for name in OBJECTS if re.search(rf"up:{re.escape(name)}\b", text)]
        if subtype == status and named:
            found[named[0]] = text
    return found


def _above(project: Project, *paths: str) -> dict[str, str]:
    """*paths* with the lines of :data:`ABOVE` inserted above their definitions."""
    return {
        path: project.files[path].replace(ABOVE[path][0], "".join(ABOVE[path]), 1) for path in paths
    }


def _relock_and_pass(project: Project) -> None:
    """``update`` relocks; the locked build passes and links the new lines."""
    update = project.cli("update")
    assert update.returncode == 0, update.stdout + update.stderr
    done = project.build(locked=True)
    assert done.returncode == 0, done.stderr
    links = project.links()
    for name in OBJECTS:
        assert links.get(name) == project.expected(name), name
        assert project.lock()[name]["commit"] == project.commit


def test_compiled_links_are_locked_and_a_pin_bump_is_checked(tmp_path: Path) -> None:
    project = Project(tmp_path)
    project.release("one")
    done = project.build(locked=False)
    assert done.returncode == 0, done.stderr
    links = project.links()
    for name in OBJECTS:
        assert links.get(name) == project.expected(name), name
    # The lock records each definition: its file, lines and the hash of its text.
    lock = project.lock()
    for name, (path, _, _) in OBJECTS.items():
        record = lock[name]
        start, end = (int(n) for n in project.expected(name).rpartition("#L")[2].split("-L"))
        assert (record["path"], record["start"], record["end"]) == (path, start, end), name
        assert record["commit"] == project.commit and len(str(record["sha256"])) == 64
    assert project.build(locked=True).returncode == 0

    # Moved: lines inserted above each definition.
    project.release("two", _above(project, *ABOVE))
    done = project.build(locked=True)
    assert done.returncode != 0
    moved = _drift(done, "moved")
    assert set(moved) == set(OBJECTS), done.stderr
    # `check` says the same (exit 1), and `bump` would have previewed it at the new commit.
    check = project.cli("check")
    assert check.returncode == 1 and "moved" in check.stdout, check.stdout + check.stderr
    assert all(name in check.stdout for name in OBJECTS)
    _relock_and_pass(project)

    # Changed: each body edited, code in two, a comment in the third.
    files = project.files
    project.release(
        "three",
        {
            "src/speedups.c": files["src/speedups.c"].replace(
                "    Py_INCREF(s);\n", "    Py_INCREF(s);\n    Py_INCREF(s);\n"
            ),
            "pkg/_bind.cpp": files["pkg/_bind.cpp"].replace("a + b;", "b + a;"),
            "src/lib.rs": files["src/lib.rs"].replace("    a + b\n", "    // sum\n    a + b\n"),
            "pkg/_fast.pyx": files["pkg/_fast.pyx"].replace("sum(values)", "sum(values, 0)"),
        },
    )
    done = project.build(locked=True)
    assert done.returncode != 0
    changed = _drift(done, "changed")
    assert set(changed) == set(OBJECTS), done.stderr
    assert "changed (code)" in changed["pkg._speedups.escape"]
    assert "changed (code)" in changed["pkg._bind.add"]
    assert "changed (comments)" in changed["pkg._rs.plus"]
    assert "changed (code)" in changed["pkg._fast.total"]  # Cython: by its words
    _relock_and_pass(project)


def test_removed_and_undecided_compiled_links_are_missing_at_a_bump(tmp_path: Path) -> None:
    project = Project(tmp_path, packages=False)  # no Python package: the compiled modules alone
    first = project.release("one")
    assert project.build(locked=False).returncode == 0
    assert set(OBJECTS) <= set(project.lock())
    # The C function and its table entry are removed; the C++ function gets an overload, which is
    # not decided statically; the Rust function moves down.
    gone = C_SOURCE[C_SOURCE.index("/* escape") : C_SOURCE.index("static PyMethodDef")]
    second = project.release(
        "two",
        {
            **_above(project, "src/lib.rs"),
            "src/speedups.c": C_SOURCE.replace(gone, "").replace(
                '    {"escape", (PyCFunction)escape, METH_O, "Escape."},\n', ""
            ),
            "pkg/_bind.cpp": CPP.replace(
                '"Add two numbers");\n', '"Add two numbers");\n    m.def("add", &add_floats);\n'
            ).replace(
                "PYBIND11_MODULE",
                "double add_floats(double a, double b) { return a + b; }\n\nPYBIND11_MODULE",
            ),
        },
    )
    # The pin back at the first commit: `bump` previews the second as a check at it.
    (project.book / "conf.py").write_text(
        (project.book / "conf.py").read_text("utf-8").replace(second, first), "utf-8"
    )
    bump = project.cli("bump", "up", second)
    assert bump.returncode == 1, bump.stdout + bump.stderr
    assert re.search(r"missing.*up:pkg\._speedups\.escape", bump.stdout), bump.stdout
    assert re.search(r"missing.*up:pkg\._bind\.add", bump.stdout), bump.stdout
    assert re.search(r"moved.*up:pkg\._rs\.plus", bump.stdout), bump.stdout
    (project.book / "conf.py").write_text(
        (project.book / "conf.py").read_text("utf-8").replace(first, second), "utf-8"
    )
    done = project.build(locked=True)
    assert done.returncode != 0
    missing = _drift(done, "missing")
    assert set(missing) == {"pkg._speedups.escape", "pkg._bind.add"}, done.stderr
    assert "no compiled binding names it" in missing["pkg._speedups.escape"]
    assert "locked at src/speedups.c:L" in missing["pkg._speedups.escape"]
    assert "not decided statically: bound 2 times (overloads)" in missing["pkg._bind.add"]
    # A record no page cites (autodoc could not import it, say) is checked from the lock alone,
    # as the compiled link it is: moved, not missing.
    (project.book / "index.rst").write_text(PAGE.split(".. py:function:: plus")[0], "utf-8")
    check = project.cli("check")
    assert check.returncode == 1, check.stdout + check.stderr
    assert re.search(r"^moved +up:pkg\._rs\.plus .*source-anchors\.lock", check.stdout, re.M)
    (project.book / "index.rst").write_text(PAGE, "utf-8")
    update = project.cli("update")  # 1: a target could not be locked; it keeps its record
    assert update.returncode == 1 and "keep their record" in update.stdout, update.stdout
    assert "pkg._speedups.escape" in project.lock()
    assert project.lock()["pkg._rs.plus"]["commit"] == second
