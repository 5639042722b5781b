"""Resolving targets: a dotted path or a file path (and ``::match`` levels) in a tree -> a Location.

Takes in: a :class:`~source_anchors.model.target.Target`'s path and matches, and a tree.
Gives out: :class:`~source_anchors.model.records.Location` from :class:`~.resolver.Resolver` (dotted
paths walked by Python's :class:`~source_anchors.reading.python.Walker`; file targets by
:mod:`.filetargets`, their matches by the file's language from the registry), :mod:`.apilinks`
(where a documented object is defined, for ``[source]`` links), and :class:`~.factory.Resolvers`,
the factory that makes one resolver per pinned commit and per lock commit asked for, from the tree
provider.
May import: :mod:`source_anchors.reading` (:mod:`~source_anchors.reading.python` through its facade,
and the registry), :mod:`source_anchors.sources`, :mod:`source_anchors.model`.
"""
