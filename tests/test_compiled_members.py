"""pybind11 classes and methods in C++ headers, and members a class inherits (C++'s member lookup).

Pure: :class:`~source_anchors.reading.compiled.CompiledIndex` over texts the test writes; each
expected range is found in the text by its words and its braces, not by this code.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from source_anchors.reading.compiled import Binding, CompiledIndex, Undecided

MESON = "py.extension_module('_core', 'src/wrap.cpp', subdir: 'pkg')\n"

COMMON = textwrap.dedent("""\
    #pragma once
    #include <pybind11/pybind11.h>
    namespace py = pybind11;
""")

# The interface: a pure virtual member and one with a body in a .cpp file.
GENERATOR_H = textwrap.dedent("""\
    #ifndef GENERATOR_H
    #define GENERATOR_H
    #include "common.h"

    namespace shapes {

    class Generator
    {
    public:
        virtual ~Generator() = default;
        virtual py::sequence lines(double level) = 0;
        virtual py::list many(const py::list levels);
        int declared_only() const;
    };

    } // namespace shapes

    #endif
""")

GENERATOR_CPP = textwrap.dedent("""\
    #include "generator.h"

    namespace shapes {

    py::list Generator::many(const py::list levels)
    {
        return levels;
    }

    } // namespace shapes
""")

# A template base (CRTP) whose members are defined outside the class, in another header.
BASE_H = textwrap.dedent("""\
    #ifndef BASE_H
    #define BASE_H
    #include "generator.h"

    namespace shapes {

    template <typename Derived>
    class Base : public Generator
    {
    public:
        py::sequence lines(double level) override;
        py::tuple chunk_count() const;
        int inline_size() const { return 3; }
    };

    class Mixin
    {
    public:
        int both() const { return 1; }
    };

    class Other
    {
    public:
        int both() const { return 2; }
    };

    } // namespace shapes

    #endif
""")

BASE_IMPL_H = textwrap.dedent("""\
    #include "base.h"

    namespace shapes {

    template <typename Derived>
    py::sequence Base<Derived>::lines(double level)
    {
        return py::list();
    }

    template <typename Derived>
    py::tuple Base<Derived>::chunk_count() const
    {
        return py::make_tuple(1, 1);
    }

    } // namespace shapes
""")

SERIAL_H = textwrap.dedent("""\
    #ifndef SERIAL_H
    #define SERIAL_H
    #include "base_impl.h"

    namespace shapes {

    class Serial : public Base<Serial>
    {
    public:
        explicit Serial(int n) : _n(n) {}
        py::tuple chunk_count() const;
    private:
        int _n;
    };

    class Twice : public Mixin, public Other
    {
    };

    class Ordered : private Serial, public Mixin
    {
    };

    } // namespace shapes

    #endif
""")

SERIAL_CPP = textwrap.dedent("""\
    #include "serial.h"

    namespace shapes {

    py::tuple Serial::chunk_count() const
    {
        return py::make_tuple(2, 2);
    }

    } // namespace shapes
""")

WRAP = textwrap.dedent("""\
    #include "serial.h"

    PYBIND11_MODULE(_core, m) {
        py::class_<shapes::Generator>(m, "Generator")
            .def("lines", &shapes::Generator::lines)
            .def("many", &shapes::Generator::many)
            .def("declared_only", &shapes::Generator::declared_only);
        py::class_<shapes::Serial, shapes::Generator>(m, "Serial")
            .def(py::init<int>())
            .def("lines", &shapes::Serial::lines)
            .def("chunk_count", &shapes::Serial::chunk_count)
            .def("inline_size", &shapes::Serial::inline_size);
        py::class_<shapes::Twice>(m, "Twice")
            .def("both", &shapes::Twice::both);
        py::class_<shapes::Ordered>(m, "Ordered")
            .def("lines", &shapes::Ordered::lines);
    }
""")

FILES = {
    "meson.build": MESON,
    "src/common.h": COMMON,
    "src/generator.h": GENERATOR_H,
    "src/generator.cpp": GENERATOR_CPP,
    "src/base.h": BASE_H,
    "src/base_impl.h": BASE_IMPL_H,
    "src/serial.h": SERIAL_H,
    "src/serial.cpp": SERIAL_CPP,
    "src/wrap.cpp": WRAP,
}


def line_of(text: str, needle: str, nth: int = 1) -> int:
    found = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(found) >= nth, needle
    return found[nth - 1]


def braces(text: str, first: str) -> tuple[int, int]:
    """From the line holding *first* to the line of the brace closing the next ``{``."""
    start = line_of(text, first)
    lines = text.splitlines()
    depth = 0
    for number in range(start, len(lines) + 1):
        for char in lines[number - 1]:
            depth += (char == "{") - (char == "}")
            if char == "}" and depth == 0:
                return start, number
    raise AssertionError(first)


def index(files: dict[str, str] = FILES) -> CompiledIndex:
    return CompiledIndex(files, lambda path: files[path].encode())


def where(name: str, found: CompiledIndex | None = None) -> tuple[str, int, int]:
    binding = (found or index()).lookup(f"pkg._core.{name}")
    assert isinstance(binding, Binding), (name, binding)
    return binding.path, binding.start, binding.end


def test_classes_declared_in_headers_link_to_the_class() -> None:
    assert where("Generator") == ("src/generator.h", *braces(GENERATOR_H, "class Generator"))
    assert where("Serial") == ("src/serial.h", *braces(SERIAL_H, "class Serial :"))


def test_a_member_the_class_defines_is_its_own_definition() -> None:
    # Serial declares chunk_count and defines it in serial.cpp: the base's is hidden, as in C++.
    assert where("Serial.chunk_count") == ("src/serial.cpp", *braces(SERIAL_CPP, "Serial::chunk"))
    assert where("Generator.many") == ("src/generator.cpp", *braces(GENERATOR_CPP, "::many"))


def test_an_inherited_member_links_to_the_template_bases_out_of_class_definition() -> None:
    found = index()
    start, end = braces(BASE_IMPL_H, "Base<Derived>::lines")
    assert where("Serial.lines", found) == ("src/base_impl.h", start - 1, end)  # its template line
    binding = found.lookup("pkg._core.Serial.lines")
    assert isinstance(binding, Binding) and "inherited from Base" in binding.form
    assert where("Serial.inline_size", found) == (
        "src/base.h",
        line_of(BASE_H, "inline_size"),
        line_of(BASE_H, "inline_size"),
    )


def test_a_pure_virtual_member_links_to_its_declaration() -> None:
    line = line_of(GENERATOR_H, "lines(double level) = 0")
    assert where("Generator.lines") == ("src/generator.h", line, line)


def test_a_member_declared_but_defined_nowhere_in_the_tree_is_not_decided() -> None:
    found = index().lookup("pkg._core.Generator.declared_only")
    assert isinstance(found, Undecided)
    assert "shapes::Generator::declared_only is declared at src/generator.h:" in found.why


def test_a_member_two_bases_define_is_ambiguous_and_not_linked() -> None:
    found = index().lookup("pkg._core.Twice.both")
    assert isinstance(found, Undecided)
    assert "both is a member of 2 bases of shapes::Twice (ambiguous in C++)" in found.why
    assert "Mixin at src/base.h:" in found.why and "Other at src/base.h:" in found.why


def test_bases_are_searched_in_order_and_through_their_own_bases() -> None:
    # Ordered : Serial, Mixin: lines is found through Serial, then Base<Serial>; Mixin has none.
    start, end = braces(BASE_IMPL_H, "Base<Derived>::lines")
    assert where("Ordered.lines") == ("src/base_impl.h", start - 1, end)


def test_a_base_is_the_one_of_the_derived_class_namespace() -> None:
    other_ns = "namespace elsewhere {\nclass Base\n{\npublic:\n    int lines() const { return 0; }\n};\n}\n"
    files = {**FILES, "src/elsewhere.h": "#pragma once\n" + other_ns}
    start, end = braces(BASE_IMPL_H, "Base<Derived>::lines")
    assert where("Serial.lines", index(files)) == ("src/base_impl.h", start - 1, end)


def test_a_c_header_still_reads_as_c_for_a_bound_function() -> None:
    helper = "#ifndef HELP_H\n#define HELP_H\nstatic inline int helper(int a)\n{\n    return a;\n}\n#endif\n"
    wrap = (
        '#include "help.h"\n#include <pybind11/pybind11.h>\n'
        'PYBIND11_MODULE(_core, m) {\n    m.def("helper", &helper);\n}\n'
    )
    files = {"meson.build": MESON, "src/help.h": helper, "src/wrap.cpp": wrap}
    assert where("helper", index(files)) == ("src/help.h", *braces(helper, "static inline"))


def test_a_class_with_an_inline_constructor_links_to_the_class_not_the_constructor() -> None:
    pet = (
        "#pragma once\nclass Pet\n{\npublic:\n    Pet() {}\n    int age() const { return 1; }\n};\n"
    )
    wrap = (
        '#include "pet.h"\n#include <pybind11/pybind11.h>\nnamespace py = pybind11;\n'
        'PYBIND11_MODULE(_core, m) {\n    py::class_<Pet>(m, "Pet").def("age", &Pet::age);\n}\n'
    )
    files = {"meson.build": MESON, "src/pet.h": pet, "src/wrap.cpp": wrap}
    found = index(files)
    assert where("Pet", found) == ("src/pet.h", *braces(pet, "class Pet"))
    age = line_of(pet, "int age()")
    assert where("Pet.age", found) == ("src/pet.h", age, age)


class DictStore:
    """A compiled store in memory (the engine's keeps files in the cache folder)."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.writes = 0

    def compiled(self, key: str) -> str | None:
        return self.texts.get(key)

    def put_compiled(self, key: str, text: Callable[[], str]) -> None:
        self.texts[key] = text()
        self.writes += 1


def stored_index(store: DictStore, files: dict[str, str] = FILES) -> CompiledIndex:
    blobs = {path: f"blob-{len(text)}-{hash(text)}" for path, text in files.items()}
    return CompiledIndex(files, lambda path: files[path].encode(), blobs=blobs, store=store)


def test_only_the_asked_names_are_decided_and_the_store_keeps_them() -> None:
    every = index()
    names = every.names()
    assert "pkg._core.Serial.lines" in names and "pkg._core.Generator.many" in names
    store = DictStore()
    first = stored_index(store)
    # The class alone: its header is parsed; the bases' files, the .cpp files are not.
    assert where("Serial", first) == ("src/serial.h", *braces(SERIAL_H, "class Serial :"))
    assert not first.stored and 1 <= first.parses < every.parses
    # A second build takes the decision from the store: nothing read or parsed.
    second = stored_index(store)
    assert where("Serial", second) == where("Serial", every)
    assert second.stored and second.parses == 0
    # A name not decided before is decided from the stored claims, then kept too.
    assert where("Serial.lines", second) == where("Serial.lines", every)
    assert second.parses >= 1
    third = stored_index(store)
    assert where("Serial.lines", third) == where("Serial.lines", every)
    assert third.parses == 0
    # Every answer is the one an index deciding every name gives.
    assert third.names() == names
    for name in names:
        assert third.lookup(name) == every.lookup(name)
    assert third.modules() == every.modules()
