"""Reading a tree: its files decoded once, module indexes, statements, binding rules and the C3 MRO.

Takes in: a :class:`~source_anchors.sources.trees.Tree` and its pin.
Gives out: :class:`~.files.SourceFiles` (each file read, vouched for, decoded and parsed at most
once) and the :class:`~.modindex.ModuleIndex` of a module (bindings, bases, imports, statement
spans); :mod:`.statements` (the ``::match`` statement rule), :mod:`.rules` (which of several
bindings of a name is its definition: docs/binding-rules.md), :mod:`.mro` (C3 linearisation).
May import: :mod:`source_anchors.sources` (the ``Tree`` type) and :mod:`source_anchors.model`.
Nothing here imports or executes upstream code.
"""
