"""An anchor of the docs' own repository answered from the lock alone when its files are unchanged (no Sphinx).

A ``self`` record keeps the blob id of the file its lines are in and of every other file its
resolution read (``uses``). When HEAD's tree holds each of those files at the same blob, and the
lock was written by this resolver (its version and Python), resolving the target again would read
the same bytes by the same rules and give the record's lines: the answer is ``ok`` without reading
or parsing a file. HEAD's blob ids come from one ``git ls-tree`` (:meth:`.Services.own_listing`).
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

__all__ = ["same_blobs", "unchanged"]


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
    location = Location(
        path=record.path,
        start=record.start,
        end=record.end,
        kind="locked",
        sha256=record.sha256,
        blob=record.blob,
        uses=record.uses,
    )
    return Outcome(
        str(target),
        Status.ok,
        message=f"ok: {target} at {location.describe()} (its files unchanged since the lock)",
        target=target,
        commit=pin.commit,
        location=location,
        locked=LockRecord(  # as dataclasses.replace gives it, without its cost per anchor
            pin.commit,
            record.path,
            record.start,
            record.end,
            record.sha256,
            record.blob,
            record.uses,
        ),
        permalink=pin.permalink(location.path, location.start, location.end),
        fresh=False,
    )
