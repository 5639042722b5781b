"""Module indexes as JSON, keyed by what decides them, to reuse across commits and runs (pure).

A :class:`~.modindex.ModuleIndex` is a function of the module's text, its dotted name, whether
it is a package's ``__init__``, the Python its tests are decided for, the code that builds it and
the interpreter that parses it. :func:`index_key` hashes all six, so an index stored under the key
is the index a parse would build: a file unchanged between two commits is parsed once, whichever
commit comes next. The code is hashed from its own source files, so a release that indexes
differently never reads another's entries.

:func:`to_json` and :func:`from_json` turn an index into lists of strings and ints and back;
:func:`from_json` returns None for an entry of another shape (a damaged one is parsed again).
JSON rather than pickle: a cache restored in CI from an untrusted branch must not be able to run
code. Like the other caches' entries, the values are trusted as written.
"""

from __future__ import annotations

import hashlib
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

from ...model.version import __version__
from .availability import Optional
from .conditions import Python, running
from .modindex import ClassInfo, Exports, ModuleIndex
from .rules import Bind

#: The modules whose code decides an index (the reading stage's, and the text and Python types it
#: reads with).
_BUILDERS = (
    "reading/python/modindex.py",
    "reading/python/rules.py",
    "reading/python/statements.py",
    "reading/python/conditions.py",
    "reading/python/allscan.py",
    "reading/python/displays.py",
    "reading/python/files.py",
    "reading/python/indexcodec.py",
    "reading/python/availability.py",
    "model/textlines.py",
    "model/python.py",
)


@cache
def builder_digest() -> str:
    """sha256 of the code that builds and encodes an index, and of the Python that parses (read once a process).

    The interpreter is part of it: :mod:`ast` places some nodes differently from one version to the
    next (f-strings in 3.12), and the cache is shared by every environment of the user.
    """
    digest = hashlib.sha256(f"{sys.implementation.name} {sys.version}\0".encode())
    package = Path(__file__).resolve().parents[2]  # source_anchors/
    for name in _BUILDERS:
        try:
            code = (package / name).read_bytes()
        except OSError:  # installed without its sources (byte code only): the release must say
            code = f"release {__version__}".encode()
        digest.update(name.encode() + b"\0" + code + b"\0")
    return digest.hexdigest()


def index_key(text: str, module: str, *, package: bool, python: Python | None) -> str:
    """The key of the index of *text*, module *module*, read for *python* (None: the running one's)."""
    chosen = python or running()
    head = (
        f"{builder_digest()}\0{module}\0{int(package)}\0{chosen.version[0]}.{chosen.version[1]}\0"
        f"{chosen.platform}\0"
    )
    return hashlib.sha256(head.encode() + text.encode("utf-8", "surrogatepass")).hexdigest()


def to_json(index: ModuleIndex) -> list[Any]:
    """*index* as JSON values (see :func:`from_json`): its tuples are written as they are, as lists.

    The statements come first, so that :func:`statements_of` reads them alone.
    """
    return [
        index.statements,
        index.bindings,
        [[line, info.qual, info.bases, info.owner] for line, info in index.classes.items()],
        index.stars,
        index.exports,
        index.conditions,
        index.optional,
    ]


def from_json(data: Any) -> ModuleIndex | None:
    """The index :func:`to_json` made, or None when *data* has another shape."""
    try:
        statements, bindings, classes, stars, exports, conditions, optional = data
        return ModuleIndex(
            bindings={path: tuple(map(_bind, binds)) for path, binds in bindings.items()},
            classes={
                line: ClassInfo(qual, tuple(bases), owner) for line, qual, bases, owner in classes
            },
            stars=tuple(stars),
            exports=None if exports is None else Exports(tuple(exports[0]), exports[1]),
            statements=_statements(statements),
            conditions=tuple(map(tuple, conditions)),
            optional=tuple(
                Optional(start, end, tuple(modules), found, test, tuple(direct))
                for start, end, modules, found, test, direct in optional
            ),
        )
    except (TypeError, ValueError, AttributeError, RecursionError):
        return None


def statements_of(text: str) -> list[Any] | None:
    """The statements of the index whose JSON text (:func:`to_json`, written without blanks) is *text*.

    Only they are decoded, as the nested lists they are written as (a :data:`~.statements.Compact`
    is read by place: lists serve as its tuples do); None when *text* does not open with them.
    """
    try:
        found = _DECODER.raw_decode(text, 1)[0] if text.startswith("[") else None
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, list) else None


_DECODER = json.JSONDecoder()
_bind = Bind._make


def _statements(items: Any) -> tuple[Any, ...]:
    """Compact statements (:data:`~.statements.Compact`) from nested lists."""
    return tuple(
        (
            start,
            end,
            tuple(map(tuple, spans)),
            _statements(children),
            line,
            column,
            end_line,
            end_column,
        )
        for start, end, spans, children, line, column, end_line, end_column in items
    )
