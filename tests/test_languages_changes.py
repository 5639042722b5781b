"""Change classes by the grammar's tokens, on two-commit histories the tests make with git, per language.

Each repository has a first commit, then one that only reformats a definition, one that only changes
its comment, and one that changes its code; the definition's lines at each commit are read from git
and classed against the first commit's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import git
from source_anchors.model.changeclass import ChangeClass
from source_anchors.reading.registry import language_for

#: Per language: the file, the definition, its first text, then (reformatted, comment changed, code
#: changed).
CASES: dict[str, tuple[str, str, str, tuple[str, str, str]]] = {
    "typescript": (
        "src/page.tsx",
        "choose",
        (
            "export function choose(mode: string): string {\n  // the hybrid source\n"
            "  const label = `mode: ${mode}`;\n  return <b>{label}</b>;\n}\n"
        ),
        (
            "export function choose(mode: string): string\n{\n    // the hybrid source\n"
            "    const label = `mode: ${mode}`;\n    return <b>{ label }</b>;\n}\n",
            "export function choose(mode: string): string {\n  // the web source\n"
            "  const label = `mode: ${mode}`;\n  return <b>{label}</b>;\n}\n",
            "export function choose(mode: string): string {\n  // the hybrid source\n"
            "  const label = `mode:  ${mode}`;\n  return <b>{label}</b>;\n}\n",
        ),
    ),
    "javascript": (
        "lib/send.js",
        "send",
        (
            "const send = (payload) => {\n  /* post it */\n  return fetch('/api', { body: payload });\n};\n"
        ),
        (
            "const send = (payload) => {\n  /* post it */\n  return fetch('/api', {body: payload});\n};\n",
            "const send = (payload) => {\n  /* post it now */\n  return fetch('/api', { body: payload });\n};\n",
            "const send = (payload) => {\n  /* post it */\n  return fetch('/api/v2', { body: payload });\n};\n",
        ),
    ),
    "go": (
        "cmd/command.go",
        "Command.AddCommand",
        ("package cmd\n\nfunc (c *Command) AddCommand(x int) {\n\t// add one\n\tc.n += x\n}\n"),
        (
            "package cmd\n\nfunc (c *Command) AddCommand(x int) {\n\t// add one\n\n\tc.n +=   x\n}\n",
            "package cmd\n\nfunc (c *Command) AddCommand(x int) {\n\t// add several\n\tc.n += x\n}\n",
            "package cmd\n\nfunc (c *Command) AddCommand(x int) {\n\t// add one\n\tc.n -= x\n}\n",
        ),
    ),
    "rust": (
        "src/lib.rs",
        "HashTrieMap.insert",
        (
            "impl HashTrieMap {\n    #[inline]\n    pub fn insert(&mut self) {\n        // grow\n"
            "        self.size += 1;\n    }\n}\n"
        ),
        (
            "impl HashTrieMap {\n    #[inline]\n    pub fn insert(&mut self)\n    {\n        // grow\n"
            "        self.size+=1;\n    }\n}\n",
            "impl HashTrieMap {\n    #[inline]\n    pub fn insert(&mut self) {\n        // grow by one\n"
            "        self.size += 1;\n    }\n}\n",
            "impl HashTrieMap {\n    #[inline(always)]\n    pub fn insert(&mut self) {\n        // grow\n"
            "        self.size += 1;\n    }\n}\n",
        ),
    ),
    "c": (
        "src/speedups.c",
        "escape",
        ("static PyObject *\nescape(PyObject *s)\n{\n    /* fast path */\n    return s;\n}\n"),
        (
            "static PyObject *\nescape(PyObject *s) {\n    /* fast path */\n    return  s;\n}\n",
            "static PyObject *\nescape(PyObject *s)\n{\n    /* the fast path */\n    return s;\n}\n",
            'static PyObject *\nescape(PyObject *s)\n{\n    /* fast path */\n    return "s";\n}\n',
        ),
    ),
    "cpp": (
        "src/module.cpp",
        "ns.Class.run",
        ("namespace ns {\nvoid Class::run() {\n  // go\n  step(1);\n}\n}\n"),
        (
            "namespace ns {\nvoid Class::run()\n{\n  // go\n  step( 1 );\n}\n}\n",
            "namespace ns {\nvoid Class::run() {\n  // go on\n  step(1);\n}\n}\n",
            "namespace ns {\nvoid Class::run() {\n  // go\n  step(2);\n}\n}\n",
        ),
    ),
    "java": (
        "src/Outer.java",
        "Outer.run",
        ('class Outer {\n  void run() {\n    // go\n    step("a b");\n  }\n}\n'),
        (
            'class Outer {\n  void run()\n  {\n    // go\n    step( "a b" );\n  }\n}\n',
            'class Outer {\n  void run() {\n    /* go */\n    step("a b");\n  }\n}\n',
            'class Outer {\n  void run() {\n    // go\n    step("a  b");\n  }\n}\n',
        ),
    ),
}


def _lines(text: bytes, start: int, end: int) -> bytes:
    return b"".join(text.splitlines(keepends=True)[start - 1 : end])


@pytest.mark.parametrize("name", sorted(CASES))
def test_change_classes_on_a_history_of_one_reformat_one_comment_and_one_code_change(
    tmp_path: Path, name: str
) -> None:
    path, dotted, first, changes = CASES[name]
    repo = tmp_path / name
    repo.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    commits = []
    for text in (first, *changes):
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text, "utf-8")
        git("add", "-A", cwd=repo)
        git("commit", "-q", "-m", "change", cwd=repo)
        commits.append(git("rev-parse", "HEAD", cwd=repo).strip())
    language = language_for(path)
    assert language is not None

    def excerpt(commit: str) -> bytes:
        source = git("show", f"{commit}:{path}", cwd=repo).encode()
        found = language.find(source, dotted)
        return _lines(source, found.start, found.end)

    old = excerpt(commits[0])
    classes = [language.change_class(old, excerpt(commit)) for commit in commits[1:]]
    assert classes == [ChangeClass.formatting, ChangeClass.comments, ChangeClass.code]
    assert language.change_class(old, old) == ChangeClass.formatting
