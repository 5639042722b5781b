"""Edit one string literal of a ``conf.py`` in place, leaving every other byte as it was (no Sphinx).

``source-anchors bump --write`` replaces the old commit (and the pin's ``ref``) where it is written
as a plain string literal, and only when that place is unambiguous: the file is parsed with
:mod:`ast`, never executed, and anything else is left for the author to edit by hand.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator, Mapping
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
    inside = {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in ast.walk(node)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in inside
        ):
            yield node


def _literal(node: ast.Constant, data: bytes, starts: list[int]) -> Literal | None:
    """The span of *node*'s text between its quotes, when it is one plain literal (no escapes, no concatenation)."""
    assert node.end_lineno is not None and node.end_col_offset is not None
    begin = starts[node.lineno - 1] + node.col_offset
    end = starts[node.end_lineno - 1] + node.end_col_offset
    source = data[begin:end].decode("utf-8", "replace")
    body = source.lstrip("rRuU")
    for quote in _QUOTES:
        if (
            body.startswith(quote)
            and body.endswith(quote)
            and body[len(quote) : -len(quote)] == node.value
        ):
            inner = end - len(quote.encode())
            return Literal(start=inner - len(node.value.encode()), end=inner, line=node.lineno)
    return None


def find_literals(
    data: bytes, value: str, *, name: str = "conf.py"
) -> tuple[list[Literal], list[int]]:
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


def find_key_literals(
    data: bytes, key: str, value: str, *, within: int | None = None, name: str = "conf.py"
) -> list[Literal]:
    """Plain literals equal to *value* that are the value of *key* in a dict display (``{"ref": "v1"}``).

    When several are found, those in a dict that spans the byte offset *within* (the pin's commit).
    """
    tree, starts = _parse(data, name), _offsets(data)
    found, near = [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        for k, v in zip(node.keys, node.values, strict=True):
            if (
                isinstance(k, ast.Constant)
                and k.value == key
                and isinstance(v, ast.Constant)
                and v.value == value
            ):
                literal = _literal(v, data, starts)
                if literal is not None:
                    found.append(literal)
                    if (
                        within is not None
                        and _span(node, starts)[0] <= within < _span(node, starts)[1]
                    ):
                        near.append(literal)
    return near if len(found) > 1 and near else found


def _span(node: ast.expr, starts: list[int]) -> tuple[int, int]:
    assert node.end_lineno is not None and node.end_col_offset is not None
    return starts[node.lineno - 1] + node.col_offset, starts[
        node.end_lineno - 1
    ] + node.end_col_offset


def replace(data: bytes, edits: list[tuple[Literal, str]]) -> bytes:
    """*data* with each literal's text replaced (the quotes and every other byte kept)."""
    out = data
    for literal, text in sorted(edits, key=lambda e: e[0].start, reverse=True):
        out = out[: literal.start] + text.encode("utf-8") + out[literal.end :]
    return out


def lines(numbers: list[int]) -> str:
    """Line numbers for a message."""
    return ", ".join(str(n) for n in sorted(numbers))


def set_entry(
    data: bytes, name: str, values: Mapping[str, str], *, where: str, conf: str = "conf.py"
) -> tuple[bytes, list[str]]:
    """*data* with each key of *values* set in the dict display that is the value of key *name*.

    A key written as a plain string literal gets the new text; an absent key is inserted before the
    first key (on its own line when the entry is written one key a line). Returns the new bytes and
    a note per change; raises :class:`ConfigError` when the entry is not one dict display, or a key
    holds anything but a plain string (nothing is changed: the caller says what to set by hand).
    """
    tree, starts = _parse(data, conf), _offsets(data)
    entries = [
        v
        for node in ast.walk(tree)
        if isinstance(node, ast.Dict)
        for k, v in zip(node.keys, node.values, strict=True)
        if isinstance(k, ast.Constant) and k.value == name and isinstance(v, ast.Dict)
    ]
    if len(entries) != 1:
        raise ConfigError(
            f"{conf}: {where} is written {len(entries)} times as a dict display {{...}}, not once"
        )
    entry = entries[0]
    edits: list[tuple[Literal, str]] = []
    inserted: list[str] = []
    notes: list[str] = []
    for key, value in values.items():
        found = [
            v
            for k, v in zip(entry.keys, entry.values, strict=True)
            if isinstance(k, ast.Constant) and k.value == key
        ]
        if not found:
            inserted.append(f"{json.dumps(key)}: {json.dumps(value)}")
            notes.append(f"{where}[{key!r}] = {value!r} (added)")
            continue
        node = found[-1]
        literal = _literal(node, data, starts) if isinstance(node, ast.Constant) else None
        if literal is None or any(char in value for char in "\\'\"\n"):
            raise ConfigError(
                f"{conf}:{node.lineno}: {where}[{key!r}] is not a plain string literal"
            )
        old = node.value if isinstance(node, ast.Constant) else None
        if old != value:
            edits.append((literal, value))
            notes.append(f"{where}[{key!r}] {old!r} → {value!r} (line {node.lineno})")
    if inserted:
        after = next(
            (
                v
                for k, v in zip(entry.keys, entry.values, strict=True)
                if isinstance(k, ast.Constant) and k.value in values
            ),
            None,
        )
        edits.append(_insertion(entry, data, starts, inserted, after=after))
    return replace(data, edits), notes


def _insertion(
    entry: ast.Dict, data: bytes, starts: list[int], items: list[str], *, after: ast.expr | None
) -> tuple[Literal, str]:
    """Where and what to insert so that *items* follow the value *after* (else lead the keys of *entry*)."""
    begin = _span(entry, starts)[0] + 1  # just after the brace
    first = entry.keys[0] if entry.keys else None
    if first is None:
        return Literal(begin, begin, entry.lineno), ", ".join(items)
    at = starts[first.lineno - 1] + first.col_offset
    indent = data[starts[first.lineno - 1] : at]
    # One key a line: the new keys get lines of their own, indented as the first key.
    sep = (
        ",\n" + indent.decode("utf-8")
        if first.lineno > entry.lineno and not indent.strip()
        else ", "
    )
    if after is not None:
        end = _span(after, starts)[1]
        return Literal(end, end, after.lineno), sep + sep.join(items)
    return Literal(at, at, first.lineno), sep.join(items) + sep
