"""A ``.h`` header read as C or C++ by its text (GitHub linguist's rule), on headers the tests write.

The ranges are compared with oracles that are not tree-sitter: Universal Ctags (``--fields=+ne``, the
name's line and the end line, ``+i`` a class's bases) where it is installed, and brace matching on
the text, always.
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from source_anchors.reading.language import Definition
from source_anchors.reading.languages.header import CONSIDER, shows_cpp
from source_anchors.reading.registry import language_for

C_HEADER = textwrap.dedent("""\
    #ifndef BUF_H
    #define BUF_H

    #include <stddef.h>

    /* A growable buffer (the word class in a comment is not C++). */
    struct buffer {
        char *data;
        size_t size;
    };

    typedef struct buffer buffer_t;

    int buffer_grow(struct buffer *buf, size_t by);

    static inline size_t
    buffer_size(const struct buffer *buf)
    {
        return buf->size;
    }

    #define BUFFER_EMPTY(b) ((b)->size == 0)

    #endif
""")

CPP_HEADER = textwrap.dedent("""\
    #pragma once

    #include "common.h"

    namespace geo {

    /// The base of every shape.
    class Shape
    {
    public:
        virtual double area() const = 0;
        int sides() const { return _sides; }
    protected:
        int _sides = 0;
    };

    template <typename Derived>
    class Polygon : public Shape
    {
    public:
        double area() const override;
    };

    class Square : public Polygon<Square>
    {
    public:
        explicit Square(double side) : _side(side) {}
    private:
        double _side;
    };

    template <typename Derived>
    double Polygon<Derived>::area() const
    {
        return 0.0;
    }

    template <typename T>
    T twice(T value)
    {
        return value + value;
    }

    }  // namespace geo
""")


def line_of(text: str, needle: str) -> int:
    (number,) = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return number


def brace_end(text: str, line: int) -> int:
    """The line of the brace that closes the first ``{`` at or after *line* (no braces in strings here)."""
    lines = text.splitlines()
    depth, opened = 0, False
    for number in range(line, len(lines) + 1):
        for char in lines[number - 1]:
            if char == "{":
                depth, opened = depth + 1, True
            elif char == "}":
                depth -= 1
                if opened and depth == 0:
                    return number
    raise AssertionError(f"no brace closes after line {line}")


def header(text: str) -> list[Definition]:
    language = language_for("/src/x.h")
    assert language is not None and language.name == "C/C++"
    return language.definitions(text.encode())


def ctags(tmp_path: Path, text: str, language: str) -> dict[tuple[str, ...], tuple[str, int, int]]:
    """Universal Ctags' tags of *text*: path of names -> (kind, name line, end line); skip without it."""
    program = shutil.which("ctags")
    if program is None:
        pytest.skip("Universal Ctags is not installed (the brace-matching oracle still ran)")
    version = subprocess.run([program, "--version"], capture_output=True, text=True, check=False)
    if "Universal Ctags" not in version.stdout:
        pytest.skip("ctags is not Universal Ctags")
    source = tmp_path / "x.h"
    source.write_text(text, "utf-8")
    done = subprocess.run(
        [program, "--fields=+neiZK", "-o", "-", f"--language-force={language}", str(source)],
        capture_output=True,
        text=True,
        check=True,
    )
    tags: dict[tuple[str, ...], tuple[str, int, int]] = {}
    for row in done.stdout.splitlines():
        name, _, _, *rest = row.split("\t")
        fields = dict(field.split(":", 1) for field in rest[1:] if ":" in field)
        scope = fields.get("scope", "").partition(":")[2]
        path = (*(scope.split("::") if scope else ()), name)
        tags[path] = (rest[0], int(fields["line"]), int(fields.get("end", fields["line"])))
        if "inherits" in fields:
            tags[(*path, ":bases")] = ("bases", 0, 0)
            tags[(*path, ":bases", fields["inherits"])] = ("bases", 0, 0)
    return tags


def test_a_c_header_stays_c_with_the_ranges_c_gives(tmp_path: Path) -> None:
    found = {d.path: d for d in header(C_HEADER)}
    assert shows_cpp(C_HEADER.encode()) == 0
    assert language_for("/src/x.h", C_HEADER.encode()) is language_for("/src/x.c")
    # The same definitions, ranges and rules as the C language gives (what a .h was read as before).
    c = language_for("/src/x.c")
    assert c is not None
    assert list(found.values()) == c.definitions(C_HEADER.encode())
    assert all(d.rule == "" for d in found.values())
    size = line_of(C_HEADER, "buffer_size(")
    assert (found[("buffer_size",)].start, found[("buffer_size",)].end) == (
        size - 1,
        brace_end(C_HEADER, size),
    )
    struct = line_of(C_HEADER, "struct buffer {")
    assert (found[("buffer",)].start, found[("buffer",)].end) == (
        struct,
        brace_end(C_HEADER, struct),
    )
    assert not found[("buffer_grow",)].body
    tags = ctags(tmp_path, C_HEADER, "C")
    compared = [path for path, (kind, _, _) in tags.items() if kind in ("function", "struct")]
    assert sorted(compared) == [("buffer",), ("buffer_size",)]
    for path in compared:
        assert (found[path].name_line, found[path].end) == tags[path][1:], path


def test_a_cpp_header_gives_the_cpp_ranges_and_says_which_line_showed_cpp(tmp_path: Path) -> None:
    found = [d for d in header(CPP_HEADER) if d.body]
    by_path = {d.path: d for d in found}
    shows = line_of(CPP_HEADER, "namespace geo {")
    assert shows_cpp(CPP_HEADER.encode()) == shows
    assert all(
        d.rule == f".h read as C++, by GitHub linguist's rule: line {shows} shows C++"
        for d in found
    )
    cpp = language_for("/src/x.hpp")
    assert cpp is not None
    assert [d._replace(rule="") for d in found] == [
        d for d in cpp.definitions(CPP_HEADER.encode()) if d.body
    ]
    expected = {
        ("geo",): ("namespace", "namespace geo {"),
        ("geo", "Shape"): ("class", "class Shape"),
        ("geo", "Polygon"): ("class", "class Polygon"),
        ("geo", "Square"): ("class", "class Square"),
        ("geo", "Shape", "sides"): ("method", "int sides()"),
        ("geo", "Polygon", "area"): ("function", "Polygon<Derived>::area"),
        ("geo", "twice"): ("function", "T twice("),
    }
    for path, (kind, first) in expected.items():
        name_line = line_of(CPP_HEADER, first)
        definition = by_path[path]
        assert definition.kind == kind, path
        assert (definition.name_line, definition.end) == (
            name_line,
            brace_end(CPP_HEADER, name_line),
        ), path
    # A template's range starts at its template <…> line.
    assert by_path[("geo", "twice")].start == by_path[("geo", "twice")].name_line - 1
    assert by_path[("geo", "Polygon")].start == line_of(CPP_HEADER, "class Polygon") - 1
    tags = ctags(tmp_path, CPP_HEADER, "C++")
    compared = 0
    for path, (kind, line, end) in tags.items():
        if kind in ("namespace", "class", "function") and path in by_path:
            assert (by_path[path].name_line, by_path[path].end) == (line, end), path
            compared += 1
    assert compared >= len(expected)


def test_a_class_bases_in_order_as_ctags_reads_them(tmp_path: Path) -> None:
    cpp = language_for("/src/x.hpp")
    assert cpp is not None
    source = CPP_HEADER.encode()
    by_path = {d.path: d for d in cpp.definitions(source)}
    bases = {
        path: cpp.bases(source, by_path[path])  # type: ignore[attr-defined]
        for path in (("geo", "Shape"), ("geo", "Polygon"), ("geo", "Square"))
    }
    assert bases == {
        ("geo", "Shape"): (),
        ("geo", "Polygon"): (("Shape",),),
        ("geo", "Square"): (("Polygon",),),  # a template base by its name, arguments left out
    }
    tags = ctags(tmp_path, CPP_HEADER, "C++")
    inherits = {path[:-2]: path[-1] for path in tags if len(path) > 2 and path[-2] == ":bases"}
    assert {path: written.split("<")[0] for path, written in inherits.items()} == {
        path: "::".join(found[0]) for path, found in bases.items() if found
    }


@pytest.mark.parametrize(
    "line",
    [
        "#include <vector>",
        "  # include <iostream>",
        "template <typename T> struct box;",
        "constexpr int n = 3;",
        "try {",
        "catch (...) {",
        "class widget;",
        "using namespace std;",
        "namespace detail",
        "public:",
        "#if __cplusplus > 201103L",
        "typedef std::size_t size;",
    ],
)
def test_each_of_linguists_cpp_patterns_makes_a_header_cpp(line: str) -> None:
    text = f"/* head */\nint f(void);\n{line}\nint g(void);\n"
    assert shows_cpp(text.encode()) == 3
    assert language_for("/x.h", text.encode()) is language_for("/x.cpp")


@pytest.mark.parametrize(
    "text",
    [
        "struct s { int class_count; };\n",  # a word that starts with "class", not a line
        "#include <stdio.h>\nint public_api(void);\n",
        "@interface Widget : NSObject\n@end\nclass Hidden;\n",  # Objective-C first: not C++ here
        '#import "widget.h"\nnamespace n {}\n',
    ],
)
def test_c_and_objective_c_headers_stay_c(text: str) -> None:
    assert shows_cpp(text.encode()) == 0
    assert language_for("/x.h", text.encode()) is language_for("/x.c")


def test_only_the_first_50_kib_are_read_as_linguist_reads_them() -> None:
    filler = b"int x;\n" * (CONSIDER // 7 + 1)
    assert shows_cpp(filler + b"namespace late {}\n") == 0
    assert shows_cpp(b"namespace early {}\n" + filler) == 1


def test_a_header_change_is_classed_by_the_grammar_its_text_shows() -> None:
    header_language = language_for("/x.h")
    assert header_language is not None
    old = b"namespace n {\nint f() { return 1; }\n}\n"
    new = b"namespace n {\nint f() { return 1; }  // one\n}\n"
    assert header_language.change_class(old, new).value == "comments"
    assert header_language.change_class(old, old.replace(b"1", b"2")).value == "code"
