"""Licence declarations in the manifests of other languages' packages: Cargo and Composer (no Sphinx).

Read as :mod:`.declared` reads Python's and npm's: statically, each declaration with its line.
"""

from __future__ import annotations

import tomllib

from .declared import Declaration, _decl, _json_doc, _json_line_of, _line_of, _table_lines

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
        found.append(Declaration(path, line, "[package] license-file", package["license-file"], frozenset()))
    return found
