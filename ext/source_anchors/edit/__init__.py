"""Edits of the author's files: anchor targets in a page's source, one string literal of ``conf.py``.

Takes in: a page's text and its markup (:mod:`source_anchors.markup`), target rewrites; a
``conf.py`` text and the entry to change.
Gives out: the rewritten page text, every other byte as it was (:mod:`.pages`, for ``fix``); the
edited ``conf.py`` text (:mod:`.confpy`, for ``bump`` and ``pin``).
May import: :mod:`source_anchors.markup` and :mod:`source_anchors.model` (``ast``, to find the
literal in ``conf.py``). Not drift, suggestions or licences (independent).
"""
