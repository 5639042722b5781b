"""Drift: what a ``changed`` anchor's lines went through (no Sphinx).

Takes in: a Location and the LockRecord it is compared with; the resolvers of two commits.
Gives out: :class:`~.compare.Comparison` from :func:`~.compare.compare`: the
:class:`~source_anchors.model.changeclass.ChangeClass` the file's language gives
(:meth:`~source_anchors.reading.language.Language.classify`) and the diff.
May import: :mod:`source_anchors.resolve` and below (:mod:`source_anchors.reading.python` through
its facade). Not suggestions (:mod:`source_anchors.suggest`), the licence stage or the edits of
pages (independent).
"""
