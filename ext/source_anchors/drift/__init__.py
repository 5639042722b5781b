"""Drift: what a ``changed`` anchor's lines went through, where a missing one went, ``conf.py`` edited.

Takes in: a Location and the LockRecord it is compared with; the resolvers of two commits. Gives
out: :class:`~.compare.Comparison` (the :class:`~source_anchors.model.changeclass.ChangeClass` the
file's language gives, :meth:`~source_anchors.reading.language.Language.classify`, and the diff)
from :func:`~.compare.compare`; :class:`~source_anchors.model.records.Suggestion` s from
:class:`~.suggesters.Suggesters` (one :class:`~.suggest.Suggester` per repository and lock commit:
:mod:`.catalog`, :mod:`.elsewhere`, :mod:`.history`, :mod:`.linesuggest`); ``conf.py`` edits
(:mod:`.confedit`); pages are rewritten by :mod:`source_anchors.markup.rewrite`. May import:
:mod:`source_anchors.resolve` and below (:mod:`source_anchors.reading.python` through its facade).
Not the licence stage (independent).
"""
