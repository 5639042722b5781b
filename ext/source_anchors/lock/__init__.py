"""The lock: ``source-anchors.lock`` read, merged, pruned and written atomically.

Takes in: the lock file's path, and :class:`~source_anchors.model.records.LockRecord` s to add or
replace.
Gives out: :class:`~.lockfile.Lock` (``get``, ``blobs_for``, ``with_new``, ``relocked``) from
:func:`~.lockfile.read_lock`; :func:`~.lockfile.write_lock`.
May import: :mod:`source_anchors.model` only.
"""
