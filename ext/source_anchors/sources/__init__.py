"""Obtaining a pinned tree: git, the package index, archives, the tree cache, single blobs, listings.

Takes in: a :class:`~source_anchors.model.config.RepoPin` (URL, commit, packages, ``dist``,
sources).
Gives out: :class:`~.trees.Tree` (the files of the packages at the commit, each vouched for by blob
id) from :class:`~.pinned.PinnedTrees` (the tree provider: ``tree``, ``locked_tree``, ``listing``,
``blobs``), any other file of the commit from :class:`~.outside.OutsideFiles`, which files an export
keeps (:mod:`.treefiles`), and the commit a tag or branch names (:mod:`.gitrefs`).
May import: :mod:`source_anchors.model`. Not the lock (its blob ids come in as a callable), not the
licence stage (it asks :mod:`.treefiles`, not the other way round).
"""
