"""Definitions in languages other than Python, read with tree-sitter: one folder per language.

Takes in: a file's bytes (the registry, :mod:`source_anchors.reading.registry`, picks the language
by the path's suffix).
Gives out: one :class:`~source_anchors.reading.language.Language` object per folder (a
:class:`~.grammar.TreeSitterLanguage`): the file's
:class:`~source_anchors.reading.language.Definition` records (a path of names, a kind, the lines
from the first attribute line to the last, the name's line), ``find`` (one definition by its dotted
path, or the rule that chose among several, or an
:class:`~source_anchors.model.errors.AmbiguousDefinitionError` naming the candidates), ``statement``
(the ``::match`` rule by the grammar's nodes) and ``change_class``; :class:`.parsed.LanguageFiles`
keeps each file's definitions read once per (path, blob). Wired into anchors
(:attr:`~source_anchors.reading.language.Language.wired`): ``/file.ts#Symbol.path`` targets,
``::match`` statements and change classes follow them.
May import: :mod:`source_anchors.reading.language`, :mod:`source_anchors.model`, the standard
library and ``tree_sitter`` with the grammar wheels (the ``languages`` extra), imported only when a
file of their language is read. Adding a language touches only its folder and its line in the
registry.
"""
