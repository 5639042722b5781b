"""API links of compiled objects: a project the test writes (C API, Cython, pybind11, PyO3), built with Sphinx.

Nothing is compiled: the links are read from the binding forms in the sources. Each object is
described by a hand-written ``py:`` directive; each link's lines are asserted against the lines
computed from the text the test wrote (the first and last line of the definition, found by their
words).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from html import unescape
from pathlib import Path

from helpers import commit_all, git

SETUP = """\
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("pkg._speedups", sources=["src/speedups.c"]),
    Extension("pkg._fast", ["pkg/_fast.pyx"]),
])
"""
C_SOURCE = """\
#include <Python.h>
#include <structmember.h>

typedef struct { PyObject_HEAD long count; } Counter;

/* escape(s) -> str */
static PyObject *
escape(PyObject *self, PyObject *s)
{
    Py_INCREF(s);
    return s;
}

static PyObject *
Counter_bump(Counter *self, PyObject *Py_UNUSED(ignored))
{
    self->count++;
    Py_RETURN_NONE;
}

static PyObject *
Counter_get_double(Counter *self, void *closure)
{
    return PyLong_FromLong(self->count * 2);
}

static PyMethodDef Counter_methods[] = {
    {"bump", (PyCFunction)Counter_bump, METH_NOARGS, "Add one."},
    {NULL}
};

static PyGetSetDef Counter_getset[] = {
    {"double", (getter)Counter_get_double, NULL, "Twice the count.", NULL},
    {NULL}
};

static PyMemberDef Counter_members[] = {
    {"count", T_LONG, offsetof(Counter, count), 0, "The count."},
    {NULL}
};

static PyTypeObject CounterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "pkg._speedups.Counter",
    .tp_basicsize = sizeof(Counter),
    .tp_methods = Counter_methods,
    .tp_getset = Counter_getset,
    .tp_members = Counter_members,
};

static PyMethodDef module_methods[] = {
    {"escape", (PyCFunction)escape, METH_O, "Escape."},
    MADE_BY_A_MACRO
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "_speedups", NULL, -1, module_methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    PyObject *m = PyModule_Create(&module_definition);
    PyModule_AddIntConstant(m, "LIMIT", 10);
    return m;
}
"""
PYX = """\
# cython: language_level=3
cdef int _helper(int x):
    return x + 1


def total(values):
    \"\"\"Sum, with a docstring
    over two lines.\"\"\"
    return sum(values)


cpdef int twice(int x):
    return x * 2


cdef class Box:
    cdef object value

    def __init__(self, value):
        self.value = value

    @property
    def size(self):
        return 1

    cpdef get(self):
        return self.value
"""
CPP = """\
#include <pybind11/pybind11.h>
namespace py = pybind11;

int add(int a, int b) {
    return a + b;
}

struct Pet {
    std::string name_;
    std::string name() const { return name_; }
};

PYBIND11_MODULE(_bind, m) {
    m.def("add", &add, "Add two numbers");
    py::class_<Pet>(m, "Pet")
        .def(py::init<>())
        .def("name", &Pet::name)
        .def("bark", [](const Pet &p) {
            return std::string("woof");
        })
        .def_readwrite("name_", &Pet::name_);
    m.attr("VERSION") = "1.0";
}
"""
RUST = """\
use pyo3::prelude::*;

/// Adds.
#[pyfunction]
#[pyo3(name = "plus")]
fn add_numbers(a: i64, b: i64) -> i64 {
    a + b
}

#[pyclass(name = "Tree")]
struct RustTree {
    #[pyo3(get)]
    size: usize,
}

#[pymethods]
impl RustTree {
    #[new]
    fn new() -> Self {
        RustTree { size: 0 }
    }

    #[getter]
    fn get_depth(&self) -> usize {
        0
    }

    fn insert(&mut self, value: i64) {
        self.size += 1;
    }
}

#[pymodule]
fn _rs(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(add_numbers, m)?)?;
    m.add_class::<RustTree>()?;
    m.add("ANSWER", 42)?;
    Ok(())
}
"""
PYPROJECT = """\
[tool.maturin]
module-name = "pkg._rs"
"""
#: Documented object -> (file, first words of its first line, first words of its last line) of the
#: expected range.
EXPECTED = {
    "pkg._speedups.escape": ("src/speedups.c", "static PyObject *\nescape(", "    return s;\n}"),
    "pkg._speedups.Counter": (
        "src/speedups.c",
        "static PyTypeObject CounterType",
        ".tp_members = Counter_members,\n};",
    ),
    "pkg._speedups.Counter.bump": (
        "src/speedups.c",
        "static PyObject *\nCounter_bump",
        "    Py_RETURN_NONE;\n}",
    ),
    "pkg._speedups.Counter.double": (
        "src/speedups.c",
        "static PyObject *\nCounter_get_double",
        "count * 2);\n}",
    ),
    "pkg._speedups.Counter.count": (
        "src/speedups.c",
        '    {"count", T_LONG',
        '    {"count", T_LONG',
    ),
    "pkg._fast.total": ("pkg/_fast.pyx", "def total(", "    return sum(values)"),
    "pkg._fast.twice": ("pkg/_fast.pyx", "cpdef int twice", "    return x * 2"),
    "pkg._fast.Box": ("pkg/_fast.pyx", "cdef class Box", "        return self.value"),
    "pkg._fast.Box.size": ("pkg/_fast.pyx", "    @property", "        return 1"),
    "pkg._fast.Box.get": ("pkg/_fast.pyx", "    cpdef get(self)", "        return self.value"),
    "pkg._bind.add": ("pkg/_bind.cpp", "int add(int a", "    return a + b;\n}"),
    "pkg._bind.Pet": ("pkg/_bind.cpp", "struct Pet", "name_; }\n};"),
    "pkg._bind.Pet.name": (
        "pkg/_bind.cpp",
        "    std::string name() const",
        "    std::string name() const",
    ),
    "pkg._bind.Pet.bark": ("pkg/_bind.cpp", '        .def("bark"', "        })"),
    "pkg._rs.plus": ("src/lib.rs", "#[pyfunction]", "    a + b\n}"),
    "pkg._rs.Tree": ("src/lib.rs", '#[pyclass(name = "Tree")]', "    size: usize,\n}"),
    "pkg._rs.Tree.insert": ("src/lib.rs", "    fn insert(", "        self.size += 1;\n    }"),
    "pkg._rs.Tree.depth": ("src/lib.rs", "    #[getter]", "        0\n    }"),
    "pkg._rs.Tree.__new__": ("src/lib.rs", "    #[new]", "        RustTree { size: 0 }\n    }"),
}
#: Documented object -> the words of the reason it has no link.
UNLINKED = {
    "pkg._speedups.LIMIT": "added at run time by PyModule_AddIntConstant",
    "pkg._speedups.made": "the macro MADE_BY_A_MACRO builds an entry of module_methods",
    "pkg._bind.VERSION": 'a value set at run time by .attr("VERSION")',
    "pkg._rs.ANSWER": "added at run time by m.add",
}
HTML_LINK = re.compile(
    r'<a class="reference external sa-api-source" href="([^"]+)" title="([^"]+)">'
)


def lines_of(text: str, first: str, last: str) -> tuple[int, int]:
    """The 1-based lines where *first* starts and where *last* ends (the first *last* after *first*)."""
    at = text.index(first)
    end = text.index(last, at) + len(last)
    return text.count("\n", 0, at) + 1, text.count("\n", 0, end - 1) + 1


def _page() -> str:
    parts = ["API", "===", ""]
    for name in [*EXPECTED, *UNLINKED]:
        module, _, rest = name.partition("._")
        module = f"{module}._{rest.split('.')[0]}"
        inner = name[len(module) + 1 :]
        kind = "class" if inner in ("Counter", "Box", "Pet", "Tree") else "function"
        parts += [
            f".. py:{kind}:: {inner}",
            f"   :module: {module}",
            "",
            "   Described by hand.",
            "",
        ]
    return "\n".join(parts)


def self_project(root: Path, files: dict[str, str], page: str) -> tuple[Path, str]:
    """A git repository of *files* at *root* with ``docs/`` linking its own API (``"self"``) on *page*.

    Returns the docs folder and the commit (its origin is GitHub's ``org/proj``).
    """
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")
    docs = root / "docs"
    docs.mkdir()
    (docs / "conf.py").write_text(
        textwrap.dedent("""\
        extensions = ["source_anchors"]
        source_anchors_api_links = "self"
        source_anchors_api_list_unlinked = True
        """),
        "utf-8",
    )
    (docs / "index.rst").write_text(page, "utf-8")
    git("init", "-q", "-b", "main", cwd=root)
    git("remote", "add", "origin", "https://github.com/org/proj.git", cwd=root)
    return docs, commit_all(root, "release")


def _project(root: Path) -> tuple[Path, str]:
    files = {
        "setup.py": SETUP,
        "pyproject.toml": PYPROJECT,
        "pkg/__init__.py": "",
        "src/speedups.c": C_SOURCE,
        "pkg/_fast.pyx": PYX,
        "pkg/_bind.cpp": CPP,
        "src/lib.rs": RUST,
    }
    return self_project(root, files, _page())


def _build(docs: Path, builder: str = "html") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(docs.parent.parent / "cache")}
    env.pop("CI", None)
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-b", builder, str(docs), str(docs / "_build" / builder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )


def test_compiled_objects_link_to_their_definitionslines_of(tmp_path: Path) -> None:
    docs, commit = _project(tmp_path / "proj")
    done = _build(docs)
    assert done.returncode == 0, done.stderr
    html = (docs / "_build" / "html" / "index.html").read_text("utf-8")
    links = {}
    for ident, block in re.findall(
        r'<dt class="sig sig-object py" id="([^"]+)">(.*?)</dt>', html, re.S
    ):
        match = HTML_LINK.search(block)
        if match:
            links[ident] = unescape(match[1])
    for name, (file, first, last) in EXPECTED.items():
        start, end = lines_of((tmp_path / "proj" / file).read_text("utf-8"), first, last)
        fragment = f"#L{start}" if start == end else f"#L{start}-L{end}"
        assert links.get(name) == f"https://github.com/org/proj/blob/{commit}/{file}{fragment}", (
            name
        )
    assert not set(links) & set(UNLINKED)
    out = done.stdout + done.stderr
    for name, why in UNLINKED.items():
        assert re.search(rf"index\.rst:\d+: {re.escape(name)}: no link: .*{re.escape(why)}", out), (
            name,
            out,
        )
    assert (
        f"{len(EXPECTED)} linked, {len(UNLINKED)} without a link (1 compiled, not decided statically"
        not in out
    )
    assert re.search(
        rf"{len(EXPECTED) + len(UNLINKED)} objects described, {len(EXPECTED)} linked, "
        rf"{len(UNLINKED)} without a link \({len(UNLINKED)} compiled, not decided statically\)",
        out,
    ), out


def test_the_text_builder_prints_the_compiled_location(tmp_path: Path) -> None:
    docs, _ = _project(tmp_path / "proj")
    done = _build(docs, "text")
    assert done.returncode == 0, done.stderr
    text = (docs / "_build" / "text" / "index.txt").read_text("utf-8")
    start, end = lines_of(RUST, "#[pyfunction]", "    a + b\n}")
    assert f"(src/lib.rs:L{start}–L{end}@" in text


def _links(docs: Path) -> dict[str, str]:
    html = (docs / "_build" / "html" / "index.html").read_text("utf-8")
    links = {}
    for ident, block in re.findall(
        r'<dt class="sig sig-object py" id="([^"]+)">(.*?)</dt>', html, re.S
    ):
        match = HTML_LINK.search(block)
        if match:
            links[ident] = unescape(match[1])
    return links


def test_compiled_bindings_are_kept_by_blob_and_read_again_when_a_file_changes(
    tmp_path: Path,
) -> None:
    docs, commit = _project(tmp_path / "proj")
    root = tmp_path / "proj"
    first = _build(docs)
    assert first.returncode == 0, first.stderr
    parsed = re.search(
        r"compiled bindings read, (\d+) files parsed by a language core", first.stdout
    )
    assert parsed and int(parsed[1]) >= 1, first.stdout
    links = _links(docs)
    assert links["pkg._bind.add"].startswith(f"https://github.com/org/proj/blob/{commit}/")

    shutil.rmtree(docs / "_build")
    again = _build(docs)
    assert again.returncode == 0, again.stderr
    assert "compiled bindings taken from the cache" in again.stdout, again.stdout
    assert "compiled bindings read" not in again.stdout
    assert _links(docs) == links

    bind = root / "pkg" / "_bind.cpp"
    bind.write_text("// moved down\n\n" + CPP, "utf-8")
    git("commit", "-q", "-am", "two lines more", cwd=root)
    moved = git("rev-parse", "HEAD", cwd=root).strip()
    shutil.rmtree(docs / "_build")
    changed = _build(docs)
    assert changed.returncode == 0, changed.stderr
    assert "compiled bindings read" in changed.stdout, changed.stdout
    start, end = lines_of(bind.read_text("utf-8"), "int add(int a", "    return a + b;\n}")
    assert _links(docs)["pkg._bind.add"] == (
        f"https://github.com/org/proj/blob/{moved}/pkg/_bind.cpp#L{start}-L{end}"
    )
    assert start == lines_of(CPP, "int add(int a", "    return a + b;\n}")[0] + 2
