"""The C API reader on files the test writes: tables seen from their own file, positional types.

Pure: :class:`~source_anchors.reading.compiled.CompiledIndex` over texts in memory; each expected
line is found in the text by its words, not by this code.
"""

from __future__ import annotations

from source_anchors.reading.compiled import Binding, CompiledIndex

SETUP = """\
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("pkg._one", sources=["src/one.c"]),
    Extension("pkg._two", sources=["src/two.c"]),
])
"""
ONE = """\
#include <Python.h>

static PyObject *
first(PyObject *self, PyObject *arg)
{
    Py_RETURN_NONE;
}

static PyObject *
Thing_grow(PyObject *self, PyObject *arg)
{
    Py_RETURN_NONE;
}

static PyMethodDef Thing_methods[] = {
    {"grow", (PyCFunction) Thing_grow, METH_O, NULL},
    {NULL, NULL, 0, NULL}
};

static PyTypeObject Thing_Type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    "pkg.Thing",                              /* tp_name */
    sizeof(PyObject),                         /* tp_basicsize */
    0,                                        /* tp_itemsize */
    Thing_methods,                            /* tp_methods, here out of place */
};

static PyMethodDef module_functions[] = {
    {"first", (PyCFunction) first, METH_O, NULL},
    {NULL, NULL, 0, NULL}
};

static PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_one", 0, -1, module_functions,
};

PyMODINIT_FUNC PyInit__one(void) { return PyModule_Create(&moduledef); }
"""
TWO = """\
#include <Python.h>

static PyObject *
second(PyObject *self, PyObject *arg)
{
    Py_RETURN_NONE;
}

static PyMethodDef module_functions[] = {
    {"second", (PyCFunction) second, METH_O, NULL},
    {NULL, NULL, 0, NULL}
};

static PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_two", 0, -1, module_functions,
};

PyMODINIT_FUNC PyInit__two(void) { return PyModule_Create(&moduledef); }
"""
FILES = {"setup.py": SETUP, "src/one.c": ONE, "src/two.c": TWO}


def _lines(text: str, first: str, last: str) -> tuple[int, int]:
    at = text.index(first)
    end = text.index(last, at) + len(last)
    return text.count("\n", 0, at) + 1, text.count("\n", 0, end - 1) + 1


def _index() -> CompiledIndex:
    return CompiledIndex(FILES, lambda path: FILES[path].encode())


def test_each_module_reads_the_table_of_its_own_file() -> None:
    index = _index()
    two = index.lookup("pkg._two.second")
    assert isinstance(two, Binding)
    assert (two.path, two.start, two.end) == (
        "src/two.c",
        *_lines(TWO, "static PyObject *\nsecond", "Py_RETURN_NONE;\n}"),
    )
    one = index.lookup("pkg._one.first")
    assert isinstance(one, Binding) and one.path == "src/one.c"
    assert index.lookup("pkg._two.first") is None
    assert index.lookup("pkg._one.second") is None


def test_a_positional_type_initializer_gives_its_name_and_tables() -> None:
    index = _index()
    thing = index.lookup("pkg.Thing")
    assert isinstance(thing, Binding)
    assert (thing.start, thing.end) == _lines(ONE, "static PyTypeObject Thing_Type", "};")
    grow = index.lookup("pkg.Thing.grow")
    assert isinstance(grow, Binding)
    assert (grow.path, grow.start, grow.end) == (
        "src/one.c",
        *_lines(ONE, "static PyObject *\nThing_grow", "Py_RETURN_NONE;\n}"),
    )
