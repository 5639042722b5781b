"""The shared vocabulary: records, statuses and subtypes, errors, config, the target grammar (pure).

Takes in: nothing of ours; the author's text (targets, ``conf.py`` values, page sources).
Gives out: :class:`~.target.Target` (``parse_target``), :class:`~.config.Settings` and
:class:`~.config.RepoPin` (``settings_from``), the records (:mod:`.records`: ``Location``,
``LockRecord``, ``Outcome``, ``AnchorRecord``, ``Status``), ``ChangeClass``, ``Subtype`` and the
errors (:mod:`.errors`: every one carries its subtype), the pin field grammar
(:mod:`.config.pinfields`), atomic writes (:mod:`.fsio`), decoded lines (:mod:`.textlines`). A
page's source is read by :mod:`source_anchors.markup`.
May import: the standard library and PyYAML / platformdirs only; no other stage (the bottom layer).
"""
