"""Edit one string literal of a ``conf.py`` in place, leaving every other byte as it was (no Sphinx).

``source-anchors bump --write`` replaces the old commit (and the pin's ``ref``) where it is written
as a plain string literal, and only when that place is unambiguous: the file is parsed with
:mod:`ast`, never executed, and anything else is left for the author to edit by hand.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from ..model.errors import ConfigError

_QUOTES = ('"""', "'''", '"', "'")


@dataclass(frozen=True)
class Literal:
    """A plain string literal: where its text lies in the file's bytes, and its line."""

    start: int
    end: int
    line: int


def _offsets(data: bytes) -> list[int]:
    """The byte offset at which each line starts (ast counts lines as ``bytes.splitlines`` does)."""
    starts, pos = [], 0
    for line in data.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    return [*starts, pos]


def _parse(data: bytes, name: str) -> ast.Module:
    try:
        return ast.parse(data, filename=name)
    except (SyntaxError, ValueError) as error:
        raise ConfigError(f"{name}: cannot be parsed ({error})") from error


def _strings(tree: ast.Module) -> Iterator[ast.Constant]:
    """Every string constant outside f-strings (whose parts have no reliable positions)."""
    inside = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in ast.walk(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in inside:
            yield node


def _literal(node: ast.Constant, data: bytes, starts: list[int]) -> Literal | None:
    """The span of *node*'s text between its quotes, when it is one plain literal (no escapes, no concatenation)."""
    assert node.end_lineno is not None and node.end_col_offset is not None
    begin = starts[node.lineno - 1] + node.col_offset
    end = starts[node.end_lineno - 1] + node.end_col_offset
    source = data[begin:end].decode("utf-8", "replace")
    body = source.lstrip("rRuU")
    for quote in _QUOTES:
        if body.startswith(quote) and body.endswith(quote) and body[len(quote):-len(quote)] == node.value:
            inner = end - len(quote.encode())
            return Literal(start=inner - len(node.value.encode()), end=inner, line=node.lineno)
    return None


def find_literals(data: bytes, value: str, *, name: str = "conf.py") -> tuple[list[Literal], list[int]]:
    """(plain literals, lines of other string forms) whose value is *value*."""
    tree, starts = _parse(data, name), _offsets(data)
    plain, other = [], []
    for node in _strings(tree):
        if node.value == value:
            found = _literal(node, data, starts)
            if found is None:
                other.append(node.lineno)
            else:
                plain.append(found)
    return plain, other


def find_key_literals(data: bytes, key: str, value: str, *, within: int | None = None,
                      name: str = "conf.py") -> list[Literal]:
    """Plain literals equal to *value* that are the value of *key* in a dict display (``{"ref": "v1"}``).

    When several are found, those in a dict that spans the byte offset *within* (the pin's commit).
    """
    tree, starts = _parse(data, name), _offsets(data)
    found, near = [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        for k, v in zip(node.keys, node.values, strict=True):
            if isinstance(k, ast.Constant) and k.value == key and isinstance(v, ast.Constant) and v.value == value:
                literal = _literal(v, data, starts)
                if literal is not None:
                    found.append(literal)
                    if within is not None and _span(node, starts)[0] <= within < _span(node, starts)[1]:
                        near.append(literal)
    return near if len(found) > 1 and near else found


def _span(node: ast.expr, starts: list[int]) -> tuple[int, int]:
    assert node.end_lineno is not None and node.end_col_offset is not None
    return starts[node.lineno - 1] + node.col_offset, starts[node.end_lineno - 1] + node.end_col_offset


def replace(data: bytes, edits: list[tuple[Literal, str]]) -> bytes:
    """*data* with each literal's text replaced (the quotes and every other byte kept)."""
    out = data
    for literal, text in sorted(edits, key=lambda e: e[0].start, reverse=True):
        out = out[:literal.start] + text.encode("utf-8") + out[literal.end:]
    return out


def lines(numbers: list[int]) -> str:
    """Line numbers for a message."""
    return ", ".join(str(n) for n in sorted(numbers))
