"""Licence declarations in the manifests of other languages' packages (Cargo, Composer), and every reader.

Read as :mod:`.declared` reads Python's and npm's: statically, each declaration with its line.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterable
from pathlib import PurePosixPath

from .declared import (
    Declaration,
    NotRead,
    _decl,
    _json_doc,
    _json_line_of,
    _line_of,
    _package_json,
    _pyproject,
    _reader_name,
    _setup_cfg,
    _setup_py,
    _table_lines,
    declaring_files,
)

__all__ = ["cargo_toml", "composer_json"]


def composer_json(path: str, text: str) -> list[Declaration]:
    """Composer's ``license``: one identifier, or an array meaning a choice among them (one declaration)."""
    doc = _json_doc(text)
    if doc is None:
        return []
    licence = doc.get("license")
    line = _json_line_of(text)("license")
    if isinstance(licence, str):
        return [_decl(path, line, '"license"', licence)]
    if isinstance(licence, list) and all(isinstance(item, str) for item in licence) and licence:
        return [_decl(path, line, '"license"', " OR ".join(licence))]
    return []


def cargo_toml(path: str, text: str) -> list[Declaration]:
    """Cargo's ``[package] license`` (an SPDX expression) and ``license-file``."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"not valid TOML: {error}") from error
    package = doc.get("package")
    if not isinstance(package, dict):
        return []
    lines = text.splitlines()
    tables = _table_lines(lines)
    found: list[Declaration] = []
    if isinstance(package.get("license"), str):
        line = _line_of(lines, tables, "package", r"^\s*license\s*=")
        found.append(_decl(path, line, "[package] license", package["license"]))
    if isinstance(package.get("license-file"), str):
        line = _line_of(lines, tables, "package", r"^\s*license-file\s*=")
        found.append(
            Declaration(path, line, "[package] license-file", package["license-file"], frozenset())
        )
    return found


def declarations(path: str, data: bytes) -> list[Declaration]:
    """The licence declarations in file *path* with bytes *data*.

    Raises :class:`ValueError` when the file cannot be parsed (the caller reports it as not read).
    """
    text = data.decode("utf-8-sig")
    readers = {
        "pyproject.toml": _pyproject,
        "setup.py": _setup_py,
        "setup.cfg": _setup_cfg,
        "package.json": _package_json,
        "Cargo.toml": cargo_toml,
        "composer.json": composer_json,
    }
    reader = readers.get(_reader_name(PurePosixPath(path).name) or "")
    return sorted(reader(path, text), key=lambda d: d.line) if reader else []


def collect(
    paths: Iterable[str], read: Callable[[str], bytes]
) -> tuple[list[Declaration], list[NotRead]]:
    """Declarations of every file of *paths* (:func:`declaring_files`), read with *read*.

    *read* raises any exception with a message saying why a file cannot be had; that file and
    any it cannot parse are reported as :class:`NotRead`, never skipped silently.
    """
    found: list[Declaration] = []
    unread: list[NotRead] = []
    for path in declaring_files(paths):
        try:
            found += declarations(path, read(path))
        except Exception as error:  # any reason a file could not be read or parsed is reported
            unread.append(NotRead(path, str(error) or type(error).__name__))
    return found, unread
