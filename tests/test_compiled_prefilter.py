"""Which compiled files a lookup parses: only those whose text may hold the definition asked for.

Pure: :class:`~source_anchors.reading.compiled.CompiledIndex` and its files over texts the test
writes; each expected range is found in the text by its words and braces, not by this code. A file
is ruled out only where its text cannot hold the definition, so every answer stays the one a
parse of every file spelling the name gives.
"""

from __future__ import annotations

import textwrap

from source_anchors.reading.compiled import Binding, CompiledIndex
from source_anchors.reading.compiled.files import CompiledFiles

MESON = "py.extension_module('_core', 'src/wrap.cpp', subdir: 'pkg')\n"

WIDGET_H = textwrap.dedent("""\
    #pragma once
    namespace shapes {
    class Widget
    {
    public:
        Widget(int size);
        int size() const;
    private:
        int size_;
    };
    }
""")

# Only the constructor and a method of Widget: no type named Widget can be defined here.
WIDGET_CPP = textwrap.dedent("""\
    #include "widget.h"
    namespace shapes {
    // class Widget { is only written in this comment
    Widget::Widget(int size) : size_(size) {}
    int Widget
        ::size() const { return Widget (*this).size_; }
    }
""")

# Gadget is defined in a .cpp file, next to its constructor: it is found there.
GADGET_CPP = textwrap.dedent("""\
    namespace shapes {
    struct Base {};
    struct Gadget final : Base
    {
        Gadget();
    };
    Gadget::Gadget() {}
    }
""")

WRAP = textwrap.dedent("""\
    #include <pybind11/pybind11.h>
    #include "widget.h"
    namespace py = pybind11;
    PYBIND11_MODULE(_core, m) {
        py::class_<shapes::Widget>(m, "Widget");
        py::class_<shapes::Gadget>(m, "Gadget");
    }
""")

FILES = {
    "meson.build": MESON,
    "src/widget.h": WIDGET_H,
    "src/widget.cpp": WIDGET_CPP,
    "src/gadget.cpp": GADGET_CPP,
    "src/wrap.cpp": WRAP,
}


def lines_of(text: str, first: str) -> tuple[int, int]:
    """From the line holding *first* to the line of the brace closing the next ``{``."""
    lines = text.splitlines()
    start = next(n for n, line in enumerate(lines, 1) if first in line)
    depth = 0
    for number in range(start, len(lines) + 1):
        for char in lines[number - 1]:
            depth += (char == "{") - (char == "}")
            if char == "}" and depth == 0:
                return start, number
    raise AssertionError(first)


def files_of(texts: dict[str, str]) -> CompiledFiles:
    return CompiledFiles(lambda path: texts[path].encode())


def test_a_class_is_not_looked_for_in_a_file_defining_only_its_members() -> None:
    index = CompiledIndex(FILES, lambda path: FILES[path].encode())
    widget = index.lookup("pkg._core.Widget")
    assert isinstance(widget, Binding)
    assert (widget.path, widget.start, widget.end) == (
        "src/widget.h",
        *lines_of(WIDGET_H, "class Widget"),
    )
    # The header alone: widget.cpp writes Widget only before :: and (, the binding's file only in
    # py::class_<shapes::Widget> and a string.
    assert index.parses == 1


def test_a_class_defined_beside_its_constructor_is_still_found() -> None:
    index = CompiledIndex(FILES, lambda path: FILES[path].encode())
    gadget = index.lookup("pkg._core.Gadget")
    assert isinstance(gadget, Binding)
    assert (gadget.path, gadget.start, gadget.end) == (
        "src/gadget.cpp",
        *lines_of(GADGET_CPP, "struct Gadget final"),
    )


def test_a_name_may_name_a_type_wherever_it_is_followed_by_neither_a_call_nor_a_scope() -> None:
    texts = {
        "members.cpp": WIDGET_CPP,
        "class.h": "class Widget final : Base {};\n",
        "template.h": "template <> struct Widget<int> { };\n",
        "alias.h": "using Widget = int;\n",
        "typedef.h": "typedef struct { int x; } Widget;\n",
        "namespace.cpp": "namespace Widget::inner { int x; }\n",
        "nested.cpp": "namespace outer { int Widget::size() const { return 1; } }\n",
        "spliced.cpp": "Widget \\\n  (1);\n",
    }
    texts.update(
        {
            "binding.cpp": 'py::class_<shapes::Widget, Base>(m, "Widget"); // class Widget {\n',
            "docstring.cpp": 'const char *doc = "Widget {, a class";\n',
            "pointer.h": "typedef int (*Widget)(void);\n",
            "pair.h": "typedef struct { int x; } Widget, *PWidget;\n",
            "qualified.cpp": "class shapes::Widget : public Base {};\n",
            "qualified_final.cpp": "class shapes :: Widget final {};\n",
        }
    )
    files = files_of(texts)
    may = {path for path in texts if files.may_name_type(path, "Widget")}
    assert may == {
        "class.h",
        "template.h",
        "alias.h",
        "typedef.h",
        "namespace.cpp",
        "pointer.h",
        "pair.h",
        "qualified.cpp",
        "qualified_final.cpp",
    }


def test_a_name_may_name_a_function_only_where_parameters_or_template_arguments_follow_it() -> None:
    texts = {
        "function.c": "static int\nsize (void)\n{ return 1; }\n",
        "method.cpp": "int Widget::size() const { return 1; }\n",
        "spliced.c": "int size \\\n  (void);\n",
        "commented.c": "int size /* the size */ (void);\n",
        "macro.h": "#define size(x) ((x) + 1)\n",
        "specialized.cpp": "template <> int size<int>(int x) { return x; }\n",
        "binding.cpp": 'm.def("size", &size, "size(x) gives the size");\n',
        "address.cpp": 'cls.def_property_readonly("size", &Widget::size);\n',
        "comment.c": "// size(x) is defined elsewhere\nint other;\n",
        "field.h": "struct Widget { int size; };\n",
    }
    files = files_of(texts)
    may = {path for path in texts if files.may_name_callable(path, "size")}
    assert may == {
        "function.c",
        "method.cpp",
        "spliced.c",
        "commented.c",
        "macro.h",
        "specialized.cpp",
    }
    assert files.may_name_callable("binding.cpp", "operator()")  # not a plain name: not ruled out


def test_a_function_is_not_looked_for_in_the_file_that_only_binds_it() -> None:
    wrap = textwrap.dedent("""\
        #include <pybind11/pybind11.h>
        #include "widget.h"
        namespace py = pybind11;
        PYBIND11_MODULE(_core, m) {
            py::class_<shapes::Widget>(m, "Widget")
                .def("size", &shapes::Widget::size, "size() of the widget");
        }
    """)
    files = {**FILES, "src/wrap.cpp": wrap}
    index = CompiledIndex(files, lambda path: files[path].encode())
    size = index.lookup("pkg._core.Widget.size")
    assert isinstance(size, Binding)
    assert (size.path, size.start, size.end) == (
        "src/widget.cpp",
        *lines_of(WIDGET_CPP, "int Widget"),
    )
    # wrap.cpp takes its address and writes size( only in a string: not parsed. widget.h declares
    # it (a prototype, written before a parenthesis) and widget.cpp defines it.
    assert index.parses == 2


def test_a_file_spells_a_name_only_as_a_whole_word_outside_comments() -> None:
    texts = {
        "comment.cpp": "// Widget\nint x; /* Widget */\n",
        "longer.cpp": "int Widgets; int MyWidget;\n",
        "word.cpp": "int x = Widget;\n",
        # A character no ASCII identifier has is a boundary: the name is never missed.
        "dollar.cpp": "int $Widget$ = 1;\n",
        "unicode.cpp": "int éWidget = 1;\n",
    }
    files = files_of(texts)
    spelling = {path for path in texts if files.spells(path, ("Widget",))}
    assert spelling == {"word.cpp", "dollar.cpp", "unicode.cpp"}
    # Every name of the path is spelled, and the operator by its word.
    files = files_of({"a.cpp": "struct Widget { bool operator==(int) const; };\n"})
    assert files.spells("a.cpp", ("Widget", "operator=="))
    assert not files.spells("a.cpp", ("Widget", "size"))
