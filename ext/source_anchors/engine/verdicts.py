"""An anchor's verdict: its status against the lock, the message and subtype it is reported with (no Sphinx)."""

from __future__ import annotations

import dataclasses
from collections.abc import Set
from typing import TYPE_CHECKING

from ..drift.compare import Comparison, compare
from ..model.changeclass import ChangeClass
from ..model.config import RepoPin
from ..model.errors import SourceAnchorsError, SourceError, TargetError
from ..model.records import Location, LockRecord, Outcome, Status
from ..model.subtypes import Subtype
from ..model.target import Target, parse_target
from .rulemoves import reresolved
from .services import Services

if TYPE_CHECKING:
    from ..lock.lockfile import Lock
    from ..sources.pinned import PinnedTrees

#: The command that relocks, as messages name it.
UPDATE_COMMAND = "source-anchors update"


def _unverified(
    pinned: PinnedTrees, target: Target, error: SourceAnchorsError, locked: LockRecord | None
) -> Outcome:
    """A distribution's file that is not the commit's: the repository's summary, grouped into one warning."""
    pin = pinned.pins[target.repo]
    return Outcome(
        str(target),
        Status.error,
        message=f"{pinned.dist_summary(target.repo)}; here: {error}",
        subtype=error.subtype,
        target=target,
        commit=pin.commit,
        locked=locked,
        group=f"distribution of {pin.name}",
    )


def relockable(outcome: Outcome, accept: Set[ChangeClass] | None = None) -> bool:
    """Whether ``update`` (with ``--accept`` *accept*, when given) writes *outcome*'s current place to the lock.

    Every resolved anchor, except ``changed`` ones of a class not in *accept*: ``ok`` and ``moved``
    anchors hold the locked lines byte for byte, and ``new`` ones have no record to keep.
    """
    if outcome.status in (Status.missing, Status.error):
        return False
    return accept is None or outcome.status is not Status.changed or outcome.change_class in accept


def _status(record: LockRecord | None, location: Location) -> Status:
    if record is None:
        return Status.new
    if record.sha256 != location.sha256:
        return Status.changed
    same = (record.path, record.start, record.end) == (location.path, location.start, location.end)
    return Status.ok if same else Status.moved


def file_hint(engine: Services, error: TargetError, default_repo: str | None) -> str:
    """*error*'s message, its leading-``/`` suggestion checked against the pinned tree.

    A path written from a package (``tomli/_parser.py``) is offered from the repository root
    when the package lives below it (``/src/tomli/_parser.py``); a path that names no file of
    the commit is offered as the form to use, and said to be missing.
    """
    assert error.file is not None
    message = str(error)
    try:
        target = parse_target(error.file, default_repo=default_repo)
        resolver = engine.resolver(target.repo) if target.repo in engine.pins else None
    except (SourceAnchorsError, KeyError):
        return message
    if resolver is None:
        return message
    first, _, rest = target.file.partition("/")
    tried = [
        target.file,
        *(
            f"{folder}/{rest}"
            for folder in engine.pins[target.repo].packages
            if folder.rpartition("/")[2] == first and folder != first
        ),
    ]
    found = next(
        (path for path in tried if path in resolver.listing or resolver.tree.has(path)), None
    )
    if found is None:
        return f"{message} (a path from the repository root; {target.file} is not a file at the pinned commit)"
    return message.replace(
        f"'{error.file}'", f"'{error.file.replace('/' + target.file, '/' + found, 1)}'"
    )


def _verdict(
    engine: Services,
    status: Status,
    target: Target,
    location: Location,
    locked: LockRecord | None,
    change: Comparison | None,
    moved: str | None = None,
) -> tuple[str, Subtype | None]:
    """The message and warning subtype of a resolved target (*moved*: why the resolver moved it)."""
    why = location.explain()  # which binding rule applied, the other bindings' lines
    if status is Status.ok:
        return f"ok: {target} at {location.describe()}{why}", None
    if status is Status.new and engine.settings.locked:
        missing = (
            f": the lock file {engine.settings.lock_path} does not exist;"
            if not engine.lock_exists
            else ";"
        )
        return (
            f"new: {target} at {location.describe()}{why} is not in {engine.settings.lock_path.name} and "
            f"this build is locked{missing} run '{UPDATE_COMMAND}' and commit the lock"
        ), Subtype.new
    old = locked.describe() if locked else "(not locked)"
    head = f"{status} ({change.kind})" if change else f"{status}"
    # Against a lock record a whole module shows its lines too, or "L1–L467 → path" reads as a move.
    text = f"{head}: {target} {old} → {location.span() if locked else location.describe()}" + (
        why if status is Status.new else moved or ""
    )
    detail = change.short() if change else ""
    return text + ("\n" + detail if detail else ""), None if status is Status.new else Subtype(
        status.value
    )


class Judge(Services):
    """The verdict of a location against the lock: one of :class:`~.engine.Engine`'s bases.

    The engine's own targets are located by the resolver (:meth:`.Engine.check`); an API link's
    compiled definition by the compiled bindings (:meth:`check_found`). Both are judged alike.
    """

    lock: Lock

    def check_found(self, target: Target, found: Location | str | SourceError) -> Outcome:
        """Compare *found*, where another reader than the resolver placed *target*, with the lock.

        An API link's compiled definition (:mod:`source_anchors.reading.compiled`) is found so, not by
        resolving the dotted path: it is locked, moved, changed and missing as the anchor would be.
        *found* is the location, why there is none (``missing``), or why the tree could not be
        read (``error``). Never remembered in the resolution cache (``fresh`` is false): an anchor
        of the same text resolves by Python's rules alone.
        """
        pin = self.pins[target.repo]
        locked = self._at_commit(pin, self.lock.get(target.repo, target.key))
        if isinstance(found, Location):
            return self._judged(pin, target, locked, found, fresh=False)
        if isinstance(found, SourceError):
            return Outcome(
                str(target),
                Status.error,
                message=str(found),
                subtype=found.subtype,
                target=target,
                commit=pin.commit,
                locked=locked,
                group=f"repository {pin.name}",
            )
        was = f" (locked at {locked.describe()})" if locked is not None else ""
        return Outcome(
            str(target),
            Status.missing,
            message=f"missing: {target}: {found}{was}",
            subtype=Subtype.missing,
            target=target,
            commit=pin.commit,
            locked=locked,
        )

    def _judged(
        self,
        pin: RepoPin,
        target: Target,
        locked: LockRecord | None,
        location: Location,
        *,
        fresh: bool,
    ) -> Outcome:
        """The outcome of *target* resolved to *location*, against its lock record *locked*."""
        status = _status(locked, location)
        moved = (
            reresolved(self.lock, self.settings, self._resolvers, pin, location, locked)
            if status is not Status.ok and locked
            else None
        )
        # by other rules or for another Python: never silently
        status = Status.moved if moved else status
        change = (
            compare(self._resolvers, pin, location, locked)
            if status is Status.changed and locked
            else None
        )
        message, subtype = _verdict(self, status, target, location, locked, change, moved)
        whole = location.whole_file
        group = (
            "lock"
            if status is Status.new and subtype is not None and not self.lock_exists
            else None
        )
        return Outcome(
            str(target),
            status,
            message=message,
            subtype=subtype,
            target=target,
            commit=pin.commit,
            location=location,
            locked=locked,
            group=group,
            permalink=pin.permalink(
                location.path, None if whole else location.start, None if whole else location.end
            ),
            fresh=fresh,
            change_class=change.kind if change else None,
            diff="\n".join(change.diff) if change else "",
        )

    def _at_commit(self, pin: RepoPin, record: LockRecord | None) -> LockRecord | None:
        """*record* with a commit: a ``self`` record names none, so the newest that holds its blob.

        HEAD when the file is still that blob (nothing is read from history then).
        """
        if record is None or record.commit or pin.checkout is None:
            return record
        commit: str | None = pin.commit
        if self.listing(pin.name).get(record.path) != record.blob:
            from ..sources.ownrepo import holding_commit  # changed anchors only

            commit = holding_commit(
                pin.checkout, pin.commit, record.path, record.blob, timeout=self.settings.timeout
            )
        return dataclasses.replace(record, commit=commit) if commit else record
