"""Definitions in languages other than Python, read with tree-sitter: one folder per language.

Takes in: a file's bytes and its path (the registry picks the language by the path's suffix).
Gives out: :func:`.registry.language_for` (a path's :class:`~.base.Language`, or None when no
language reads it; :class:`~source_anchors.model.errors.MissingExtraError` naming the extra when
its grammar is not installed); from a ``Language``: the file's :class:`~.base.Definition` records
(a path of names, a kind, the lines from the first attribute line to the last, the name's line),
``find`` (one definition by its dotted path, or the rule that chose among several, or an
:class:`~source_anchors.model.errors.AmbiguousDefinitionError` naming the candidates), ``statement``
(the ``::match`` rule by the grammar's nodes) and ``change_class``; :class:`.parsed.LanguageFiles`
keeps each file parsed once per (path, blob).
May import: :mod:`source_anchors.model`, the standard library and ``tree_sitter`` with the grammar
wheels (the ``languages`` extra), which are imported only when a file of their language is read.
Adding a language touches only its folder and its line in :mod:`.registry`.
"""
