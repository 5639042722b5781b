"""An anchor answered from the lock alone, when resolving it again must give the record's lines (no Sphinx).

Two cases. :func:`unchanged`: a ``self`` record keeps the blob id of the file its lines are in and
of every other file its resolution read (``uses``). When HEAD's tree holds each of those files at the same blob, and the
lock was written by this resolver (its version and Python), resolving the target again would read
the same bytes by the same rules and give the record's lines: the answer is ``ok`` without reading
or parsing a file. HEAD's blob ids come from one ``git ls-tree`` (:meth:`.Services.own_listing`).

:func:`from_lock`: a file target of a pinned commit whose file no source here has (a front end's
``.tsx`` that the distribution does not ship, with git out of reach). Its record was resolved at that
same commit by this resolver, and the commit's listing still gives the record's blob ids, so the
record is the answer; the record keeps the location's kind for the pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..model.config import SELF
from ..model.records import Location, LockRecord, Outcome, Status
from .rulemoves import resolver_settings

if TYPE_CHECKING:
    from ..lock.lockfile import Lock
    from ..model.config import RepoPin, Settings
    from ..model.target import Target

__all__ = ["from_lock", "same_blobs", "unchanged"]


def same_blobs(record: LockRecord, listing: Mapping[str, str]) -> bool:
    """Whether *listing* (path to blob id) holds *record*'s file and the files its resolution read unchanged."""
    return bool(record.blob) and (
        listing.get(record.path) == record.blob
        and all(listing.get(path) == blob for path, blob in record.uses)
    )


def unchanged(
    target: Target,
    *,
    lock: Lock,
    settings: Settings,
    pin: RepoPin | str,
    listing: Mapping[str, str],
) -> Outcome | None:
    """*target*'s ``ok`` outcome at HEAD from its lock record alone, or None when it must be resolved.

    Only for the docs' own repository (``self``): a pinned commit's anchors are answered by the
    resolution cache. The location's ``kind`` is ``locked`` (the lock does not record the kind),
    and it names no binding rule. *pin* is ``self``'s (or why there is none), *listing* HEAD's
    files with their blob ids.
    """
    if target.repo != SELF or isinstance(pin, str) or pin.checkout is None:
        return None
    record = lock.get(SELF, target.key)
    if record is None or lock.resolver != resolver_settings(settings):
        return None
    if not same_blobs(record, listing):
        return None
    locked = LockRecord(  # as dataclasses.replace gives it, without its cost per anchor
        pin.commit, record.path, record.start, record.end, record.sha256, record.blob, record.uses
    )
    return _ok(target, pin, locked, "locked", "its files unchanged since the lock")


def from_lock(
    target: Target,
    *,
    lock: Lock,
    settings: Settings,
    pin: RepoPin,
    listing: Mapping[str, str],
    why: str,
) -> Outcome | None:
    """*target*'s ``ok`` outcome from its lock record, when no source has its file (*why*); else None.

    Only a file target's record at the pinned commit itself, with its kind, written by this resolver
    (its version and Python), whose blob ids the commit's *listing* gives. Never remembered in the
    resolution cache (``fresh`` is false): the next build with the file at hand resolves it.
    """
    record = lock.get(target.repo, target.key)
    if (
        not target.is_file
        or record is None
        or not record.kind
        or record.commit != pin.commit
        or lock.resolver != resolver_settings(settings)
        or not same_blobs(record, listing)
    ):
        return None
    return _ok(target, pin, record, record.kind, f"from the lock: {why}")


def _ok(target: Target, pin: RepoPin, record: LockRecord, kind: str, why: str) -> Outcome:
    """The ``ok`` outcome of *target* at *record*'s lines, of kind *kind*, answered so (*why*)."""
    location = Location(
        path=record.path,
        start=record.start,
        end=record.end,
        kind=kind,
        sha256=record.sha256,
        blob=record.blob,
        uses=record.uses,
    )
    whole = location.whole_file
    return Outcome(
        str(target),
        Status.ok,
        message=f"ok: {target} at {location.describe()} ({why})",
        target=target,
        commit=pin.commit,
        location=location,
        locked=record,
        permalink=pin.permalink(
            location.path, None if whole else location.start, None if whole else location.end
        ),
        fresh=False,
    )
