"""Suggestions: where a missing anchor's locked lines probably went (no Sphinx).

Takes in: a missing anchor's target and :class:`~source_anchors.model.records.LockRecord`; the
resolvers of the lock's commit and of the pin.
Gives out: :class:`~source_anchors.model.records.Suggestion` s from :class:`~.factory.Suggesters`
(one :class:`~.suggester.Suggester` per repository and lock commit), which look among the tree's
definitions (:mod:`.catalog`), at another name or level (:mod:`.elsewhere`), in git's history
(:mod:`.history`), among lines by similarity (:mod:`.lines`), and among the definitions of the other
languages (:mod:`.definitions`).
May import: :mod:`source_anchors.resolve` and below (:mod:`source_anchors.reading.python` through
its facade). Not the classifying of changed anchors (:mod:`source_anchors.drift`), the licence stage
or the edits of pages (independent).
"""
