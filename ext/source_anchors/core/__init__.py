"""The Sphinx-free core: targets, pins, trees, resolution, the lock and the caches.

Nothing here imports Sphinx or docutils (a test enforces it); every problem is raised as a
:class:`~source_anchors.core.errors.SourceAnchorsError` carrying its diagnostic subtype.
"""
