"""The language core (reading/languages/) on files the tests write: names, ranges, rules, statements.

Each expected range is computed from the text by :func:`line_of`, not by tree-sitter.
"""

from __future__ import annotations

import textwrap

import pytest
from source_anchors.model.errors import AmbiguousDefinitionError, MissingExtraError, ResolveError
from source_anchors.reading.language import Language
from source_anchors.reading.languages.go import Go
from source_anchors.reading.languages.parsed import LanguageFiles
from source_anchors.reading.registry import LANGUAGES, language_for, wired_language


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """The 1-based line of the *nth* line of *text* holding *needle*."""
    found = [number for number, line in enumerate(text.splitlines(), 1) if needle in line]
    assert len(found) >= nth, f"{needle!r} is on {len(found)} lines"
    return found[nth - 1]


def last_line(text: str, needle: str) -> int:
    return line_of(text, needle, sum(needle in line for line in text.splitlines()))


def lang(path: str) -> Language:
    language = language_for(path)
    assert language is not None
    return language


def ranges(path: str, text: str) -> dict[str, tuple[str, int, int, int]]:
    return {
        d.dotted: (d.kind, d.start, d.end, d.name_line)
        for d in lang(path).definitions(text.encode())
    }


TS = textwrap.dedent("""\
    import { Component } from "x";

    /** The outer class: its doc comment is not part of its range. */
    @Component({ selector: "app" })
    export class Outer {
      @Input() label: string;

      /** A method. */
      @HostListener("click")
      method(a: number): void {
        return;
      }

      pick(a: string): string;
      pick(a: number): number;
      pick(a: any): any {
        return a;
      }

      handler = (event: Event) => {
        console.log(event);
      };
    }

    export const hybrid = async (query: string): Promise<void> => {
      await send(query);
    };

    export function Home(): string {
      return "home";
    }

    namespace Shapes {
      export class Inner {
        area(): number {
          return 0;
        }
      }
    }

    export type Mode = "hybrid" | "web";

    export interface Options {
      mode: Mode;
      run(): void;
    }

    enum Color {
      Red,
    }
    """)


def test_typescript_definitions_names_and_ranges() -> None:
    found = ranges("/ui/page.ts", TS)
    assert found["Outer"] == (
        "class",
        line_of(TS, "@Component"),
        line_of(TS, "};") + 1,
        line_of(TS, "export class Outer"),
    )
    assert found["Outer.method"] == (
        "method",
        line_of(TS, "@HostListener"),
        line_of(TS, "return;") + 1,
        line_of(TS, "method(a"),
    )
    assert found["Outer.handler"] == (
        "method",
        line_of(TS, "handler ="),
        line_of(TS, "};"),
        line_of(TS, "handler ="),
    )
    assert found["hybrid"] == (
        "function",
        line_of(TS, "export const hybrid"),
        line_of(TS, "await send") + 1,
        line_of(TS, "export const hybrid"),
    )
    assert found["Home"][1:3] == (
        line_of(TS, "export function Home"),
        line_of(TS, 'return "home"') + 1,
    )
    assert found["Shapes.Inner.area"][1:3] == (line_of(TS, "area()"), line_of(TS, "return 0;") + 1)
    assert found["Mode"] == (
        "type",
        line_of(TS, "export type Mode"),
        line_of(TS, "export type Mode"),
        line_of(TS, "export type Mode"),
    )
    assert found["Options"][:3] == (
        "interface",
        line_of(TS, "export interface"),
        line_of(TS, "run(): void") + 1,
    )
    assert found["Options.run"][0] == "method"
    assert found["Color"][:3] == ("enum", line_of(TS, "enum Color"), line_of(TS, "Red,") + 1)


def test_typescript_overloads_are_the_implementation_and_the_rule_says_so() -> None:
    chosen = lang("/a.ts").find(TS.encode(), "Outer.pick")
    assert (chosen.start, chosen.end) == (line_of(TS, "pick(a: any)"), line_of(TS, "return a;") + 1)
    assert chosen.rule == "overloads: the implementation"
    assert lang("/a.ts").find(TS.encode(), "Home").rule == ""


def test_tsx_is_its_own_grammar_and_reads_jsx() -> None:
    text = (
        'export default function Hero() {\n  return (\n    <div className="hero">\n      <h1>Hi</h1>\n'
        "    </div>\n  );\n}\n\nconst Card = ({ title }: { title: string }) => <p>{title}</p>;\n"
    )
    assert lang("/Hero.tsx").name == "TSX"
    found = ranges("/Hero.tsx", text)
    assert found["Hero"][1:3] == (1, line_of(text, "  );") + 1)
    assert found["Card"][1:3] == (line_of(text, "const Card"), line_of(text, "const Card"))


JS = textwrap.dedent("""\
    class Store {
      static create() {
        return new Store();
      }
      onChange = () => {
        this.save();
      };
    }

    const send = function (payload) {
      return fetch("/api", { body: payload });
    };

    export function* ids() {
      yield 1;
    }
    """)


def test_javascript_definitions() -> None:
    found = ranges("/store.mjs", JS)
    assert found == {
        "Store": ("class", 1, line_of(JS, "};") + 1, 1),
        "Store.create": ("method", 2, 4, 2),
        "Store.onChange": (
            "method",
            line_of(JS, "onChange"),
            line_of(JS, "};"),
            line_of(JS, "onChange"),
        ),
        "send": (
            "function",
            line_of(JS, "const send"),
            line_of(JS, "};", 2),
            line_of(JS, "const send"),
        ),
        "ids": ("function", line_of(JS, "function*"), last_line(JS, "}"), line_of(JS, "function*")),
    }


GO = textwrap.dedent("""\
    package cmd

    // Command is a command.
    type Command struct {
    \tName string
    }

    type (
    \tMode int
    \tRunner interface {
    \t\tRun() error
    \t}
    )

    // AddCommand adds one.
    func (c *Command) AddCommand(cmds ...*Command) {
    \tfor _, x := range cmds {
    \t\tc.add(x)
    \t}
    }

    func (c Command) Name2() string { return c.Name }

    func (l *List[T]) Len() int {
    \treturn 0
    }

    func Execute() error {
    \treturn nil
    }
    """)


def test_go_methods_are_named_by_their_receiver_type_pointer_or_not() -> None:
    found = ranges("/cmd/command.go", GO)
    assert found["Command"] == (
        "struct",
        line_of(GO, "type Command"),
        line_of(GO, "Name string") + 1,
        line_of(GO, "type Command"),
    )
    assert found["Mode"] == (
        "type",
        line_of(GO, "Mode int"),
        line_of(GO, "Mode int"),
        line_of(GO, "Mode int"),
    )
    assert found["Runner"][:3] == (
        "interface",
        line_of(GO, "Runner interface"),
        line_of(GO, "Run() error") + 1,
    )
    assert found["Runner.Run"][0] == "method"
    assert found["Command.AddCommand"] == (
        "method",
        line_of(GO, "func (c *Command)"),
        line_of(GO, "c.add(x)") + 2,
        line_of(GO, "func (c *Command)"),
    )
    assert found["Command.Name2"][1:3] == (line_of(GO, "Name2"), line_of(GO, "Name2"))
    assert found["List.Len"][1:3] == (line_of(GO, "List[T]"), line_of(GO, "List[T]") + 2)
    assert found["Execute"][1:3] == (line_of(GO, "func Execute"), line_of(GO, "func Execute") + 2)


RUST = textwrap.dedent("""\
    use std::fmt;

    /// A persistent map.
    #[derive(Debug, Clone)]
    #[repr(C)]
    pub struct HashTrieMap<K, V> {
        size: usize,
        root: Option<(K, V)>,
    }

    impl<K, V> HashTrieMap<K, V> {
        /// Insert a pair.
        #[inline]
        pub fn insert(&mut self, key: K) {
            self.size += 1;
        }

        pub fn fmt(&self) -> usize {
            self.size
        }
    }

    impl<K, V> fmt::Display for HashTrieMap<K, V> {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "map")
        }
    }

    impl<K, V> fmt::Debug for Pair<K, V> {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            Ok(())
        }
    }

    impl<K, V> fmt::Display for Pair<K, V> {
        fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
            Ok(())
        }
    }

    pub trait Shape {
        fn area(&self) -> f64;
    }
    """)


def test_rust_impls_attributes_and_trait_impls() -> None:
    found = ranges("/src/lib.rs", RUST)
    assert found["HashTrieMap"] == (
        "struct",
        line_of(RUST, "#[derive"),
        line_of(RUST, "root:") + 1,
        line_of(RUST, "pub struct"),
    )
    assert found["HashTrieMap.insert"] == (
        "method",
        line_of(RUST, "#[inline]"),
        line_of(RUST, "size += 1") + 1,
        line_of(RUST, "pub fn insert"),
    )
    assert found["Shape"][0] == "trait"
    assert found["Shape.area"][0] == "method"
    rust = lang("/src/lib.rs")
    inherent = rust.find(RUST.encode(), "HashTrieMap.fmt")
    assert (inherent.start, inherent.rule) == (
        line_of(RUST, "pub fn fmt"),
        "an inherent impl's method before trait impls' methods",
    )
    display = rust.find(RUST.encode(), "Display.for.HashTrieMap.fmt")
    assert display.start == line_of(RUST, "fn fmt(&self, f")
    with pytest.raises(AmbiguousDefinitionError) as caught:
        rust.find(RUST.encode(), "Pair.fmt")
    assert "Debug.for.Pair.fmt, Display.for.Pair.fmt" in str(caught.value)
    assert len(caught.value.candidates) == 2
    assert rust.find(RUST.encode(), "Debug.for.Pair.fmt").start == line_of(
        RUST, "fn fmt(&self, f", 2
    )


C = textwrap.dedent("""\
    #include <Python.h>

    /* Escape a string. */
    static PyObject *
    escape_unicode(PyObject *self, PyObject *text)
    {
        switch (PyUnicode_KIND(text)) {
        case PyUnicode_1BYTE_KIND:
            return escape_1(text);
        default:
            return NULL;
        }
    }

    static int helper(int);

    #ifdef MS_WINDOWS
    static int
    helper(int x)
    {
        return x;
    }
    #else
    static int
    helper(int x)
    {
        return -x;
    }
    #endif

    typedef struct Node {
        int value;
    } Node;

    enum Kind {
        KIND_A,
    };

    static const char *names[] = {
        "first",
        "second",
    };
    """)


def test_c_specifiers_above_the_name_prototypes_and_ifdef_branches() -> None:
    c = lang("/src/_speedups.c")
    found = ranges("/src/_speedups.c", C)
    assert found["escape_unicode"] == (
        "function",
        line_of(C, "static PyObject *"),
        line_of(C, "return NULL") + 2,
        line_of(C, "escape_unicode("),
    )
    assert found["Kind"][:3] == ("enum", line_of(C, "enum Kind"), line_of(C, "KIND_A") + 1)
    helper = c.find(C.encode(), "helper")
    assert (helper.start, helper.end) == (line_of(C, "static int", 2), line_of(C, "return x;") + 1)
    assert helper.rule == "of definitions in branches of #if/#ifdef, the first"
    node = c.find(C.encode(), "Node")
    assert (node.start, node.end) == (line_of(C, "typedef struct Node"), line_of(C, "} Node;"))
    assert "typedef" in node.rule


CPP = textwrap.dedent("""\
    namespace ns {

    class Class {
     public:
      void inline_method() { run(); }
      void later();
    };

    template <typename T>
    [[nodiscard]] T twice(T x) {
      return x + x;
    }

    }  // namespace ns

    void ns::Class::later() {
      step();
    }

    int overloaded(int x) { return x; }
    int overloaded(double x) { return 0; }
    """)


def test_cpp_namespaces_qualified_names_templates_and_overloads() -> None:
    cpp = lang("/src/module.cpp")
    found = ranges("/src/module.cpp", CPP)
    assert found["ns"][:3] == ("namespace", 1, line_of(CPP, "}  // namespace ns"))
    assert found["ns.Class"][:3] == ("class", line_of(CPP, "class Class"), line_of(CPP, "};"))
    inline = line_of(CPP, "inline_method")
    assert found["ns.Class.inline_method"][:3] == ("method", inline, inline)
    assert found["ns.twice"][:3] == (
        "function",
        line_of(CPP, "template <"),
        line_of(CPP, "return x + x") + 1,
    )
    later = cpp.find(CPP.encode(), "ns.Class.later")
    assert (later.start, later.end, later.body) == (
        line_of(CPP, "void ns::Class::later"),
        line_of(CPP, "step()") + 1,
        True,
    )
    with pytest.raises(
        AmbiguousDefinitionError, match="anchor one by its file and a match on its first line"
    ):
        cpp.find(CPP.encode(), "overloaded")


JAVA = textwrap.dedent("""\
    package p;

    /** Outer. */
    @Deprecated
    public class Outer {
        /** Docs. */
        @Override
        public String toString() {
            return "x";
        }

        static class Inner {
            void method() {
                work();
            }
        }

        interface Visitor {
            void visit(int x);
        }
    }
    """)


def test_java_annotations_nested_classes_and_interfaces() -> None:
    found = ranges("/src/p/Outer.java", JAVA)
    assert found["Outer"] == (
        "class",
        line_of(JAVA, "@Deprecated"),
        last_line(JAVA, "}"),
        line_of(JAVA, "public class Outer"),
    )
    assert found["Outer.toString"] == (
        "method",
        line_of(JAVA, "@Override"),
        line_of(JAVA, 'return "x"') + 1,
        line_of(JAVA, "public String toString"),
    )
    assert found["Outer.Inner.method"][1:3] == (
        line_of(JAVA, "void method"),
        line_of(JAVA, "work()") + 1,
    )
    assert found["Outer.Visitor.visit"][0] == "method"


def test_a_missing_name_names_the_closest() -> None:
    with pytest.raises(
        ResolveError, match=r"no Go definition Command.AddComand; did you mean Command.AddCommand"
    ):
        lang("/x.go").find(GO.encode(), "Command.AddComand")


STATEMENTS = textwrap.dedent("""\
    export function run(
      a: number,
      b: string,
    ): void {
      const x = 1;
      if (a) {
        one();
      } else if (b) {
        two();
      } else {
        three();
      }
      // a comment
      switch (a) {
        case 1:
          f();
          break;
        default:
          g();
      }
      try {
        t();
      } catch (e) {
        c();
      } finally {
        z();
      }
      const config = {
        timeout: 30,
        nested: {
          depth: 2,
        },
      };
      call({
        inArgument: 1,
      });
    }
    """)


@pytest.mark.parametrize(
    ("match", "first", "last"),
    [
        ("b: string", "b: string", "b: string"),  # a parameter's own line
        ("const x", "const x", "const x"),
        ("if (a)", "if (a)", "} else if"),  # the if clause, not the chain
        ("else if", "} else if", "} else {"),  # an else-if clause: to the end of its own body
        ("} else {", "} else {", "three();+1"),
        ("one()", "one()", "one()"),
        ("// a comment", "// a comment", "// a comment"),
        ("case 1", "case 1", "break;"),
        ("break", "break;", "break;"),
        ("try {", "try {", "} catch"),
        ("catch (e)", "} catch", "} finally"),
        ("timeout", "timeout", "timeout"),  # an element of a multi-line literal
        ("nested:", "nested:", "    },"),
        ("depth", "depth", "depth"),
        ("inArgument", "call({", "});"),  # a literal inside a call keeps the statement
    ],
)
def test_the_statement_rule_in_typescript(match: str, first: str, last: str) -> None:
    ts = lang("/a.ts")
    run = ts.find(STATEMENTS.encode(), "run")

    def where(text: str) -> int:
        base, plus, _ = text.partition("+1")
        return line_of(STATEMENTS, base) + (1 if plus else 0)

    assert ts.statement(STATEMENTS.encode(), run.start, run.end, match) == (
        where(first),
        where(last),
    )


FORM = textwrap.dedent("""\
    export default function Form({ source }: { source: string }) {
      const onChange = (value: string) => save(value);
      return (
        <form method="POST">
          <select
            name="report_source"
            value={source}
          >
            <option value="web">The Internet</option>
            <option value="hybrid">Hybrid</option>
          </select>
          {source === "hybrid" ? (
            <Upload />
          ) : null}
          <Tone tone="formal" />
        </form>
      );
    }
    """)


@pytest.mark.parametrize(
    ("path", "match", "first", "last"),
    [
        # A child element is an element of the JSX literal: its own lines.
        ("/Form.tsx", 'value="hybrid"', 'value="hybrid"', 'value="hybrid"'),
        ("/Form.jsx", 'value="hybrid"', 'value="hybrid"', 'value="hybrid"'),
        # A line of an element's opening tag gives the element, to its closing tag.
        ("/Form.tsx", 'name="report_source"', "<select", "</select>"),
        ("/Form.tsx", "<select", "<select", "</select>"),
        # A {…} child is an element too; a self-closing element on its own line is one.
        ("/Form.tsx", '{source === "hybrid"', '{source === "hybrid"', ") : null}"),
        ("/Form.tsx", "<Tone", "<Tone", "<Tone"),
        # The root element's tag is a part of the root: the whole return statement.
        ("/Form.tsx", "<form", "return (", "  );"),
        ("/Form.tsx", "const onChange", "const onChange", "const onChange"),
    ],
)
def test_the_element_rule_reads_jsx_children(path: str, match: str, first: str, last: str) -> None:
    text = FORM if path.endswith(".tsx") else FORM.replace(": { source: string }", "")
    language = lang(path)
    form = language.find(text.encode(), "Form")
    assert language.statement(text.encode(), form.start, form.end, match) == (
        line_of(text, first),
        line_of(text, last),
    )


def test_the_statement_rule_in_go_rust_c_and_java() -> None:
    go, rust, c, java = lang("/a.go"), lang("/a.rs"), lang("/a.c"), lang("/A.java")
    add = go.find(GO.encode(), "Command.AddCommand")
    assert go.statement(GO.encode(), add.start, add.end, "range cmds") == (
        line_of(GO, "range cmds"),
        line_of(GO, "c.add(x)") + 1,
    )
    insert = rust.find(RUST.encode(), "HashTrieMap.insert")
    assert rust.statement(RUST.encode(), insert.start, insert.end, "#[inline]") == (
        insert.start,
        insert.end,
    )
    escape = c.find(C.encode(), "escape_unicode")
    assert c.statement(C.encode(), escape.start, escape.end, "case PyUnicode_1BYTE") == (
        line_of(C, "case PyUnicode_1BYTE"),
        line_of(C, "return escape_1"),
    )
    names = c.definitions(C.encode())
    assert not any(d.dotted == "names" for d in names)
    assert (
        c.statement(C.encode(), 1, len(C.splitlines()), '"second"') == (line_of(C, '"second"'),) * 2
    )
    to_string = java.find(JAVA.encode(), "Outer.toString")
    assert (
        java.statement(JAVA.encode(), to_string.start, to_string.end, "return")
        == (line_of(JAVA, "return"),) * 2
    )


def test_a_match_on_no_line_or_on_several_is_an_error_naming_the_range() -> None:
    ts = lang("/a.ts")
    with pytest.raises(ResolveError, match=r"match text 'absent' is on no line of lines 1-37"):
        ts.statement(STATEMENTS.encode(), 1, 37, "absent")
    with pytest.raises(ResolveError, match=r"is on 2 lines \(7, 11\).*outer level first"):
        ts.statement(STATEMENTS.encode(), 1, 37, "e();")


def test_every_language_is_registered_by_its_suffixes_and_unknown_files_are_none() -> None:
    names = {language.name for language in LANGUAGES}
    assert names == {
        "Python",
        "TypeScript",
        "TSX",
        "JavaScript",
        "Go",
        "Rust",
        "C",
        "C++",
        "C/C++",
        "Java",
    }
    assert lang("/x.mts").name == "TypeScript"
    assert lang("/x.hpp").name == "C++"
    assert lang("/x.c").name == "C"
    # A header is C or C++ by its text: the header language decides per file, or, given the bytes,
    # the registry gives the language that reads them.
    assert lang("/x.h").name == "C/C++"
    assert language_for("/x.h", b"int f(void);\n") is lang("/x.c")
    assert language_for("/x.h", b"namespace ns { int f(); }\n") is lang("/x.hpp")
    assert language_for("/x.go", b"package x\n") is lang("/x.go")
    assert lang("/X.JAVA").name == "Java"
    assert language_for("/README.md") is None
    assert lang("/pkg/mod.py").name == lang("/pkg/mod.pyi").name == "Python"
    # Every language is wired into anchors: the resolver and the drift stage follow its rules; other
    # files are text.
    assert wired_language("/pkg/mod.py") is lang("/pkg/mod.py")
    assert wired_language("/x.ts") is lang("/x.ts")
    assert wired_language("/src/lib.rs") is lang("/src/lib.rs")
    assert wired_language("/README.md") is None


def test_a_grammar_not_installed_names_the_extra_to_install() -> None:
    class Missing(Go):
        name = "Go"
        grammar = ("tree_sitter_go_not_installed", "language")

    missing = Missing()
    assert not missing.installed()
    with pytest.raises(
        MissingExtraError, match=r'pip install "sphinx-source-anchors\[languages\]"'
    ):
        missing.definitions(b"package a\n")


def test_each_file_is_parsed_once_per_path_and_blob() -> None:
    files = LanguageFiles()
    go = lang("/a.go")
    first = files.definitions(go, "cmd/a.go", "blob1", GO.encode())
    (again,) = files.candidates(go, "cmd/a.go", "blob1", GO.encode(), "Execute")
    assert again in first
    parsed = go.parse(GO.encode())  # type: ignore[attr-defined]
    assert go.parse(GO.encode()) is parsed  # type: ignore[attr-defined]
