"""An anchor's verdict: its status against the lock, the message and subtype it is reported with (no Sphinx)."""

from __future__ import annotations

from collections.abc import Set
from typing import TYPE_CHECKING

from ..drift.compare import Comparison
from ..model.changeclass import ChangeClass
from ..model.errors import SourceAnchorsError, TargetError
from ..model.records import Location, LockRecord, Outcome, Status
from ..model.subtypes import Subtype
from ..model.target import Target, parse_target

if TYPE_CHECKING:
    from ..sources.pinned import PinnedTrees
    from .services import Services

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
