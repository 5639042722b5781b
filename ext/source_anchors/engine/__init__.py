"""The engine: the one place that wires the stages together, for one build or one CLI run (no Sphinx).

Takes in: :class:`~source_anchors.model.config.Settings` and target texts.
Gives out: :class:`~source_anchors.model.records.Outcome` s from :meth:`.engine.Engine.check_text`;
it locks new anchors (``lock_new``), relocks (``relock``) and stores fresh resolutions and
suggestions (``remember``, :mod:`.caches`). It builds the tree provider, the outside files, the
resolver factory, the suggester factory and the declared licences once each, and keeps them private:
front ends ask its methods (``tree``, ``listing``, ``commit_file``, ``blob``, ``sdist``,
``licences``, ``own_source``, ``flush_indexes``).
May import: every core stage (model, sources, reading, resolve, lock, drift, licences); never
Sphinx.
"""
