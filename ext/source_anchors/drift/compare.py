"""A ``changed`` anchor's locked lines against its current ones: the class of change and the diff (no Sphinx).

Only ``changed`` anchors come here (they are rare): the locked lines are read from the tree of
the lock record's commit (:meth:`~source_anchors.sources.pinned.PinnedTrees.locked_tree`) and must hash to the
record's sha256; when they cannot be had, the change is classed as ``code`` and the note says why.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..model.changeclass import ChangeClass
from ..model.config import RepoPin
from ..model.errors import SourceAnchorsError
from ..model.records import Location, LockRecord
from ..resolve.factory import Resolvers
from ..sources.pinned import PinnedTrees
from .changes import classify

#: How many diff lines a message shows (``check --markdown`` shows them all).
DIFF_LINES = 12


@dataclass(frozen=True)
class Comparison:
    """What changed in a ``changed`` anchor's lines."""

    kind: ChangeClass
    #: The unified diff's hunks (file headers dropped), empty when the old lines could not be read.
    diff: tuple[str, ...]
    #: Why the old lines were not compared, or "".
    note: str = ""

    def short(self) -> str:
        """What a message shows: the note, or the diff's first :data:`DIFF_LINES` lines."""
        if self.note:
            return self.note
        diff = list(self.diff)
        if len(diff) > DIFF_LINES:
            diff = [*diff[:DIFF_LINES], f"… {len(diff) - DIFF_LINES} more diff lines"]
        return "\n".join(diff)


def compare(resolvers: Resolvers, pin: RepoPin, location: Location, record: LockRecord) -> Comparison:
    """The change from the lines *record* locked to the lines at *location* in *pin*'s tree.

    The current lines come from the pinned commit's resolver, the locked ones from the tree of the
    record's commit (the resolvers' tree provider).
    """
    try:
        new = resolvers.resolver(pin.name).file_lines(location.path)[location.start - 1:location.end]
    except (SourceAnchorsError, UnicodeDecodeError) as error:
        return Comparison(ChangeClass.code, (), f"the current lines cannot be read ({error}): classed as code")
    old = locked_lines(resolvers.trees, pin, record)
    if isinstance(old, str):
        return Comparison(ChangeClass.code, (), f"old tree not available ({old}): classed as code")
    import difflib  # changed anchors only

    diff = tuple(difflib.unified_diff(old, new, lineterm="", n=0))[2:]
    return Comparison(classify(old, new, python=location.path.endswith((".py", ".pyi"))), diff)


def locked_lines(pinned: PinnedTrees, pin: RepoPin, record: LockRecord) -> list[str] | str:
    """The lines *record* locked, read from its commit's tree; or why they cannot be had."""
    try:
        lines = pinned.locked_lines(pin.name, record.commit, record.path, record.blob)
    except (SourceAnchorsError, UnicodeDecodeError) as error:
        return str(error)
    if lines is None:
        return f"{record.path} is not in the tree of {pin.name}@{record.commit[:7]}"
    old = lines[record.start - 1:record.end]
    if hashlib.sha256("\n".join(old).encode("utf-8")).hexdigest() != record.sha256:
        return f"{record.describe()} at {pin.name}@{record.commit[:7]} does not match the lock's sha256"
    return old
