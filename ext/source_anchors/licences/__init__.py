"""Licences: identification of licence texts, declared licences, the rights review, reproduced lines.

Takes in: a tree's file names and texts, any file of a commit
(:class:`~source_anchors.sources.outside.OutsideFiles`), the book's literal blocks.
Gives out: :func:`~.identify.identify_licence` (askalono, offline) and :func:`~.identify.survey`
(the rights review); :class:`~.declarations.Declarations` (what a commit's packaging metadata
declares: :mod:`.declared`, :mod:`.spdx`); :mod:`.reproduce` (upstream lines a page copies).
May import: :mod:`source_anchors.sources` and :mod:`source_anchors.model`. Not drift (independent).
"""
