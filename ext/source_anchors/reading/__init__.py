"""Reading a tree's files: every language the extension knows, one folder each, and one registry of them.

Takes in: a :class:`~source_anchors.sources.trees.Tree` and its pin; a file's path and bytes.
Gives out: :func:`.registry.language_for` and :func:`.registry.wired_language` (a path's
:class:`~.language.Language`: definitions by their path of names, the statement a match names, the
class of change of two texts); :mod:`.python`, Python's reading behind its facade (files decoded and
parsed once into module indexes, the :class:`~.python.Walker` of dotted paths with the binding rules
of docs/binding-rules.md and the C3 MRO, the change classes, the index cache's codec);
:mod:`.languages`, the tree-sitter languages; :func:`.collector.collector_paused`.
May import: :mod:`source_anchors.sources` (the ``Tree`` type) and :mod:`source_anchors.model`.
Nothing here imports or executes upstream code. Other stages import :mod:`.python` only through its
``__init__`` (the ``python-private`` contract), and ask the registry, never a suffix, which language
reads a file.
"""
