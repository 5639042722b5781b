"""Cython: ``def``, ``cpdef``, ``cdef class``, ``class`` and their methods and properties in ``.pyx`` files (pure).

A careful line reader (no tree-sitter grammar of Cython is published): strings, comments and
bracketed continuation lines are followed, and a definition runs from its first decorator to the
last line indented under it. A ``cdef`` function is not visible from Python, and a ``.pxd`` holds
declarations, not definitions: neither is a link. ``include "file.pxi"`` at the top of a module puts
the included file's definitions in that module, at their own lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .records import Claim

_DEF = re.compile(r"(?:async\s+)?def\s+(\w+)\s*\(")
_CPDEF = re.compile(r"cpdef\s+[^(=:]*?\b(\w+)\s*\(")
_CLASS = re.compile(r"(?:cdef\s+(?:(?:public|api|final|readonly)\s+)*)?class\s+(\w+)")
_PROPERTY = re.compile(r"property\s+(\w+)\s*:")
_INCLUDE = re.compile(r"include\s+[\"']([^\"']+)[\"']")
_STRING_START = re.compile(r"[rRbBuUfF]{0,2}(\"\"\"|'''|\"|')")


@dataclass(frozen=True)
class Logical:
    """One logical line: its first and last physical lines, its indent and its first line's text."""

    first: int
    last: int
    indent: int
    text: str


def logical_lines(text: str) -> list[Logical]:
    """The logical lines of *text*: multi-line strings and bracketed continuations joined, blank and comments out."""
    result: list[Logical] = []
    triple: str | None = None
    depth = 0
    start: tuple[int, int, str] | None = None
    for number, line in enumerate(text.splitlines(), 1):
        if start is None:
            stripped = line.strip()
            if triple is None and (not stripped or stripped.startswith("#")):
                continue
            start = (number, len(line) - len(line.lstrip()), stripped)
        pos, n = 0, len(line)
        while pos < n:
            if triple is not None:
                close = line.find(triple, pos)
                if close < 0:
                    pos = n
                    break
                triple, pos = None, close + 3
                continue
            char = line[pos]
            if char == "#":
                break
            match = _STRING_START.match(line, pos) if char in "\"'rRbBuUfF" else None
            if match and (pos == 0 or not (line[pos - 1].isalnum() or line[pos - 1] == "_")):
                quote = match.group(1)
                pos = match.end()
                if len(quote) == 3:
                    triple = quote
                    continue
                while pos < n and line[pos] != quote:
                    pos += 2 if line[pos] == "\\" else 1
                pos += 1
                continue
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth = max(depth - 1, 0)
            pos += 1
        if triple is None and depth == 0 and not line.rstrip().endswith("\\"):
            result.append(Logical(start[0], number, start[1], start[2]))
            start = None
    return result


def includes(text: str) -> list[str]:
    """The files a module includes at its top level (``include "x.pxi"``), as written."""
    return [
        m.group(1)
        for line in logical_lines(text)
        if line.indent == 0 and (m := _INCLUDE.match(line.text))
    ]


def claims(path: str, text: str, module: str) -> list[Claim]:
    """The Python-visible definitions of the Cython file *path*, in *module*."""
    lines = logical_lines(text)
    found: list[Claim] = []
    scopes: list[tuple[int, str | None]] = []  # (indent, class name or None for a function's body)
    decorators: list[int] = []
    for at, line in enumerate(lines):
        while scopes and line.indent <= scopes[-1][0]:
            scopes.pop()
        if line.text.startswith("@"):
            decorators.append(line.first)
            continue
        head = _header(line.text)
        first = decorators[0] if decorators else line.first
        prop = any(lines[n].text.startswith("@property") for n in range(at - len(decorators), at))
        decorators = []
        if head is None:
            if line.text.endswith(":"):
                scopes.append((line.indent, None))
            continue
        kind, name = head
        inside = [scope for _, scope in scopes]
        end = _block_end(lines, at)
        if all(inside) and kind != "cdef":
            qual = ".".join([*(s for s in inside if s), name])
            what = (
                "class"
                if kind == "class"
                else "property"
                if prop or kind == "property"
                else "method"
                if inside
                else "function"
            )
            found.append(
                Claim(f"{module}.{qual}", path, f"Cython {kind}", what, lines=(first, end))
            )
        scopes.append((line.indent, name if kind == "class" and all(inside) else None))
    return found


def _header(text: str) -> tuple[str, str] | None:
    """The kind and the name a logical line defines: ``def``, ``cpdef``, ``class``, ``property``, ``cdef``."""
    for kind, pattern in (
        ("def", _DEF),
        ("cpdef", _CPDEF),
        ("class", _CLASS),
        ("property", _PROPERTY),
    ):
        match = pattern.match(text)
        if match:
            return kind, match.group(1)
    if text.startswith("cdef ") and text.endswith(":") and "(" in text:
        return "cdef", ""
    return None


def _block_end(lines: list[Logical], at: int) -> int:
    """The last physical line of the block the header *at* opens (the header's own, for a one-line block)."""
    end = lines[at].last
    for line in lines[at + 1 :]:
        if line.indent <= lines[at].indent:
            break
        end = line.last
    return end
