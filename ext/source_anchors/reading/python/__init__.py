"""Python, read by the standard library's ``ast``: the one folder that knows Python (nothing upstream is run).

Takes in: a :class:`~source_anchors.sources.trees.Tree`, its pin and the Python the anchors are read
for. Gives out, through this facade only (its modules are the reading stage's own: an import-linter
contract keeps the other stages out of them): :data:`PYTHON`, the
:class:`~source_anchors.reading.language.Language` the registry maps ``.py`` and ``.pyi`` files to;
:class:`SourceFiles` (each file read, decoded and parsed at most once into a :class:`ModuleIndex`,
stored between runs through an :class:`IndexStore`), the :class:`Walker` (dotted paths through
modules, imports, star imports, C3 orders, descriptors, binding rules: docs/binding-rules.md) with
the :class:`Ref` it gives and the :class:`OutsideError` of a path that leaves the pinned packages;
:func:`statement_at` (the ``::match`` statement rule on a module's index); :func:`classify` and
:class:`Parts` (the class of change of two excerpts); :func:`module_of` and :func:`candidates`
(modules and definitions, where suggestions look); the index cache's codec (:func:`builder_digest`,
:func:`to_json`, :func:`from_json`, :func:`statements_of`); :func:`importable` (whether the docs'
environment has a module, for API links).
May import: :mod:`source_anchors.reading` (the language interface, the collector),
:mod:`source_anchors.sources` (the ``Tree`` type) and :mod:`source_anchors.model`.
"""

from __future__ import annotations

from .changes import Parts, classify
from .environment import importable
from .files import IndexStore, SourceFiles, is_namespace, known_statements
from .indexcodec import builder_digest, from_json, statements_of, to_json
from .language import KINDS, PYTHON, PythonLanguage, candidates, statement_at
from .modindex import ModuleIndex
from .modules import module_name, module_of
from .refs import Entry, OutsideError, Ref
from .statements import Compact
from .walker import Walker

__all__ = [
    "KINDS",
    "PYTHON",
    "Compact",
    "Entry",
    "IndexStore",
    "ModuleIndex",
    "OutsideError",
    "Parts",
    "PythonLanguage",
    "Ref",
    "SourceFiles",
    "Walker",
    "builder_digest",
    "candidates",
    "classify",
    "from_json",
    "importable",
    "is_namespace",
    "known_statements",
    "module_name",
    "module_of",
    "statement_at",
    "statements_of",
    "to_json",
]
