"""Declared licences: what a pinned tree's packaging metadata says its licence is (no Sphinx).

A licence text (``LICENSE``) is identified offline by :mod:`source_anchors.licences.identify`; the
packaging files *declare* a licence too, and the two often disagree (a project relicensed, one file
left behind). This module reads those declarations from file bytes the caller supplies, statically:
``pyproject.toml`` with :mod:`tomllib`, ``setup.py`` with :mod:`ast` (never executed), ``setup.cfg``
line by line, ``package.json`` (and its variants such as ``package.lib.json``) and ``composer.json``
with :mod:`json`, ``Cargo.toml`` with :mod:`tomllib`, and a distribution's ``METADATA`` as e-mail
headers. Each declaration keeps the line it is on and its value normalised to SPDX licence
identifiers where the value is recognised; :func:`disagreements` compares them with the identified
licence texts, as sets.
"""

from __future__ import annotations

import ast
import json
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from .spdx import normalise

__all__ = [
    "DECLARING_NAMES",
    "Declaration",
    "Disagreement",
    "NotRead",
    "declaring_files",
    "disagreements",
    "is_declaring",
    "metadata_declarations",
    "normalise",
]

#: File names that may declare a licence, anywhere in the tree outside vendored directories.
DECLARING_NAMES = frozenset(
    {"pyproject.toml", "setup.py", "setup.cfg", "package.json", "Cargo.toml", "composer.json"}
)

#: ``package.json`` and its variants (``package.lib.json``, ``package.dev.json``): a manifest that a
#: build script copies into place is a manifest too. ``package-lock.json`` is not one (a lock file).
_PACKAGE_VARIANT = re.compile(r"package(?:\.[A-Za-z0-9_-]+)*\.json")

_VENDORED = frozenset(
    {
        "node_modules",
        "vendor",
        "vendored",
        "_vendor",
        "third_party",
        "third-party",
        "bower_components",
    }
)


@dataclass(frozen=True)
class Declaration:
    """One licence declaration, where it is and what it names.

    *path* is the file (for a distribution's METADATA, ``"<archive>: <member>"``), *line* 1-based,
    *field* the place in it (``"[project] license"``, ``"classifier"``), the *value* as written, and
    *spdx*, the SPDX identifiers it names (empty when the value is not recognised).

    ``group`` ties the classifiers of one file together: a dual-licensed project lists one
    classifier per licence, and together they are one declaration.
    """

    path: str
    line: int
    field: str
    value: str
    spdx: frozenset[str]
    group: str = ""

    @property
    def recognised(self) -> bool:
        """Whether the value was normalised to SPDX identifiers."""
        return bool(self.spdx)


@dataclass(frozen=True)
class NotRead:
    """A declaring file that could not be read, and why."""

    path: str
    why: str


@dataclass(frozen=True)
class Disagreement:
    """Declarations whose SPDX identifiers are not the *expected* set (the identified texts')."""

    declarations: tuple[Declaration, ...]
    expected: frozenset[str]

    @property
    def declared(self) -> frozenset[str]:
        """The identifiers these declarations name together."""
        return frozenset().union(*(d.spdx for d in self.declarations))


# --- reading declarations
# ---------------------------------------------------------------------------


def _reader_name(name: str) -> str | None:
    """The manifest kind of file name *name* (a key of the readers), or ``None``."""
    if name in DECLARING_NAMES:
        return name
    return "package.json" if _PACKAGE_VARIANT.fullmatch(name) else None


def is_declaring(path: str) -> bool:
    """Whether *path* is a manifest that may declare a licence, outside vendored directories.

    :data:`DECLARING_NAMES`, and the variants of ``package.json`` (``package.lib.json``).
    """
    pure = PurePosixPath(path)
    return _reader_name(pure.name) is not None and not _VENDORED.intersection(pure.parent.parts)


def declaring_files(paths: Iterable[str]) -> list[str]:
    """The paths among *paths* that may declare a licence (:func:`is_declaring`), sorted."""
    return sorted((path for path in paths if is_declaring(path)), key=lambda p: (p.count("/"), p))


def _decl(path: str, line: int, field: str, value: str, group: str = "") -> Declaration:
    return Declaration(
        path=path,
        line=line,
        field=field,
        value=value,
        spdx=normalise(value),
        group=group or f"{path}:{line}:{field}",
    )


def _table_lines(lines: list[str]) -> list[str]:
    """The TOML table each line belongs to (``""`` before the first header)."""
    current, tables = "", []
    for line in lines:
        match = re.match(r"\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$", line)
        if match:
            current = re.sub(r"\s*\.\s*", ".", match.group(1)).replace('"', "").replace("'", "")
        tables.append(current)
    return tables


def _line_of(
    lines: list[str], tables: list[str], table: str, pattern: str, default: int = 1
) -> int:
    regex = re.compile(pattern)
    for number, (line, where) in enumerate(zip(lines, tables, strict=True), 1):
        if where == table and regex.search(line):
            return number
    for number, (line, where) in enumerate(zip(lines, tables, strict=True), 1):
        if where == table and re.match(r"\s*\[", line):
            return number
    return default


def _pyproject(path: str, text: str) -> list[Declaration]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"not valid TOML: {error}") from error
    lines = text.splitlines()
    tables = _table_lines(lines)
    found: list[Declaration] = []
    for table, section in (
        ("project", doc.get("project")),
        ("tool.poetry", (doc.get("tool") or {}).get("poetry")),
    ):
        if not isinstance(section, dict):
            continue
        licence = section.get("license")
        if isinstance(licence, str):
            line = _line_of(lines, tables, table, r"^\s*license\s*=")
            found.append(_decl(path, line, f"[{table}] license", licence))
        elif isinstance(licence, dict):
            if isinstance(licence.get("text"), str):
                line = (
                    _line_of(lines, tables, table, r"^\s*license\s*=")
                    if any(
                        t == table and re.match(r"\s*license\s*=", ln)
                        for ln, t in zip(lines, tables, strict=True)
                    )
                    else _line_of(lines, tables, f"{table}.license", r"^\s*text\s*=")
                )
                found.append(_decl(path, line, f"[{table}] license.text", licence["text"]))
            elif isinstance(licence.get("file"), str):
                line = _line_of(lines, tables, table, r"^\s*license\s*=")
                found.append(
                    Declaration(path, line, f"[{table}] license.file", licence["file"], frozenset())
                )
        files = section.get("license-files")
        if isinstance(files, list):
            line = _line_of(lines, tables, table, r"^\s*license-files\s*=")
            found.append(
                Declaration(
                    path,
                    line,
                    f"[{table}] license-files",
                    ", ".join(str(f) for f in files),
                    frozenset(),
                )
            )
        for classifier in section.get("classifiers") or ():
            if isinstance(classifier, str) and classifier.startswith("License ::"):
                line = _line_of(lines, tables, table, re.escape(classifier))
                found.append(
                    _decl(path, line, "classifier", classifier, group=f"{path}:classifiers")
                )
    return found


def _setup_py(path: str, text: str) -> list[Declaration]:
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        raise ValueError(f"not valid Python: {error.msg} (line {error.lineno})") from error
    found: list[Declaration] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = (
            func.id
            if isinstance(func, ast.Name)
            else func.attr
            if isinstance(func, ast.Attribute)
            else ""
        )
        if name != "setup":
            continue
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg == "license":
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found.append(_decl(path, value.lineno, "setup(license=)", value.value))
                else:
                    found.append(
                        Declaration(
                            path, value.lineno, "setup(license=)", ast.unparse(value), frozenset()
                        )
                    )
            elif keyword.arg == "classifiers" and isinstance(value, (ast.List, ast.Tuple)):
                for element in value.elts:
                    if (
                        isinstance(element, ast.Constant)
                        and isinstance(element.value, str)
                        and element.value.startswith("License ::")
                    ):
                        found.append(
                            _decl(
                                path,
                                element.lineno,
                                "classifier",
                                element.value,
                                group=f"{path}:classifiers",
                            )
                        )
    return found


def _setup_cfg(path: str, text: str) -> list[Declaration]:
    found: list[Declaration] = []
    section, key = "", ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith(("#", ";")):
            continue
        header = re.match(r"\[\s*([^\]]+?)\s*\]", line)
        if header:
            section, key = header.group(1), ""
            continue
        if section != "metadata":
            continue
        if raw[:1] in (" ", "\t") and key == "classifiers":
            value = line.strip()
            if value.startswith("License ::"):
                found.append(_decl(path, number, "classifier", value, group=f"{path}:classifiers"))
            continue
        match = re.match(r"([A-Za-z_-]+)\s*[=:]\s*(.*)$", line)
        if not match:
            continue
        key, value = match.group(1).lower().replace("-", "_"), match.group(2).strip()
        if key == "license" and value:
            found.append(_decl(path, number, "[metadata] license", value))
        elif key == "classifiers" and value.startswith("License ::"):
            found.append(_decl(path, number, "classifier", value, group=f"{path}:classifiers"))
    return found


#: The field of a manifest that says its package is private and declares no licence (npm's
#: ``private``).
PRIVATE_FIELD = '"private"'


def _json_doc(text: str) -> dict[str, Any] | None:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON: {error}") from error
    return doc if isinstance(doc, dict) else None


def _json_line_of(text: str) -> Callable[[str], int]:
    """The line of a top-level key of a JSON text (the first line that opens it; 1 when none does)."""
    lines = text.splitlines()

    def line_of(key: str) -> int:
        for number, line in enumerate(lines, 1):
            if re.match(rf'\s*"{re.escape(key)}"\s*:', line):
                return number
        return 1

    return line_of


def _package_json(path: str, text: str) -> list[Declaration]:
    """``license`` (a string or the old ``{type}`` object), the deprecated ``licenses`` array; else ``private``.

    A package marked ``"private": true`` with no licence is recorded as such (a fact worth saying:
    npm will not publish it, and it grants nothing), never compared.
    """
    doc = _json_doc(text)
    if doc is None:
        return []
    line_of = _json_line_of(text)

    found: list[Declaration] = []
    licence = doc.get("license")
    if isinstance(licence, dict):
        licence = licence.get("type")
    if isinstance(licence, str):
        found.append(_decl(path, line_of("license"), '"license"', licence))
    for entry in doc.get("licenses") or ():  # the deprecated array form
        value = entry.get("type") if isinstance(entry, dict) else entry
        if isinstance(value, str):
            found.append(
                _decl(path, line_of("licenses"), '"licenses"', value, group=f"{path}:licenses")
            )
    if not found and doc.get("private") is True:
        found.append(Declaration(path, line_of("private"), PRIVATE_FIELD, "true", frozenset()))
    return found


def metadata_declarations(where: str, text: str) -> list[Declaration]:
    """The declarations in a distribution's ``METADATA`` (or ``PKG-INFO``) *text*, named *where*.

    ``License-Expression`` and ``License`` (its first line: some projects put the whole
    licence text there) and every ``Classifier: License ::``; the headers end at the first
    blank line.
    """
    found: list[Declaration] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            break
        name, sep, value = line.partition(":")
        if not sep or line[:1] in (" ", "\t"):
            continue
        value = value.strip()
        if name == "License-Expression" and value:
            found.append(_decl(where, number, "License-Expression", value))
        elif name == "License" and value and value.upper() != "UNKNOWN":
            found.append(_decl(where, number, "License", value))
        elif name == "Classifier" and value.startswith("License ::"):
            found.append(_decl(where, number, "Classifier", value, group=f"{where}:classifiers"))
    return found


# --- comparing
# ---------------------------------------------------------------------------------------


def disagreements(identified: Iterable[str], found: Iterable[Declaration]) -> list[Disagreement]:
    """Every declaration (a file's classifiers together) whose SPDX identifiers are not *identified*.

    *identified* is the set of identifiers of the root licence texts. When it is empty, the
    declarations are compared with each other instead: each group that differs from the most
    common set is a disagreement. Declarations that were not recognised are never compared.
    """
    groups: dict[str, list[Declaration]] = {}
    for declaration in found:
        if declaration.recognised:
            groups.setdefault(declaration.group, []).append(declaration)
    sets: Mapping[str, frozenset[str]] = {
        g: frozenset().union(*(d.spdx for d in ds)) for g, ds in groups.items()
    }
    expected = frozenset(identified)
    if not expected:
        counts: dict[frozenset[str], int] = {}
        for value in sets.values():
            counts[value] = counts.get(value, 0) + 1
        if len(counts) < 2:
            return []
        expected = max(counts, key=lambda s: (counts[s], sorted(s)))
    return [
        Disagreement(declarations=tuple(groups[g]), expected=expected)
        for g in groups
        if sets[g] != expected
    ]
