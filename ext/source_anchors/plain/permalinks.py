"""Permalinks of Markdown files: what their lines showed at their commit, looked up at HEAD (no Sphinx).

A permalink is never locked: its lines never change. One whose file is the same blob at HEAD is
``ok`` without reading it (:func:`same_file`); else what it showed is resolved at its commit and
at HEAD (:func:`permalink_outcome`).
"""

from __future__ import annotations

import re

from ..engine.engine import Engine
from ..engine.unchanged import same_blobs
from ..model.config import SELF
from ..model.errors import SourceAnchorsError
from ..model.records import Location, LockRecord, Outcome, Status
from ..model.subtypes import Subtype
from ..model.target import parse_target
from .lines import Found, shown

__all__ = ["permalink_outcome", "same_file"]

_FULL_SHA = re.compile(r"[0-9a-f]{40}")


def same_file(engine: Engine, found: Found, head: str) -> Outcome | None:
    """An old permalink whose file is the same blob at HEAD: ``ok`` without reading it; else None.

    Its lines show at HEAD what they showed at its commit. A permalink with an explicit target
    qualifies when the lock's record of the target vouches for every file its resolution
    read, at both commits.
    """
    says = found.says
    assert says.rev is not None
    try:
        old, new = engine.own_listing(says.rev), engine.own_listing(head)
    except SourceAnchorsError:
        return None  # not a commit of this repository: the slow path says so
    blob = old.get(says.path)
    if not blob or new.get(says.path) != blob:
        return None
    name = found.link.url
    if says.explicit is not None:
        try:
            target = parse_target(says.explicit, default_repo=SELF)
        except SourceAnchorsError:
            return None
        record = engine.lock.get(SELF, target.key)
        if record is None or not (same_blobs(record, old) and same_blobs(record, new)):
            return None
        name = str(target)
    location = Location(
        path=says.path, start=says.start, end=says.end, kind="lines", sha256="", blob=blob
    )
    return Outcome(
        name,
        Status.ok,
        location=location,
        commit=head,
        message=f"ok: {says.path} is the same at {says.rev[:7]} and HEAD",
    )


def permalink_outcome(engine: Engine, found: Found, head: str) -> Outcome:
    """A permalink: what its lines showed at its commit, looked up at HEAD (no lock needed).

    A permalink's lines never change; one to HEAD is ``ok``, one to an older commit is only
    old (:meth:`.MarkdownLinks._old`) when its code moved or changed since.
    """
    says = found.says
    assert says.rev is not None
    same = same_file(engine, found, head)
    if same is not None:
        return same
    try:
        if says.explicit is not None:
            key = parse_target(says.explicit, default_repo=SELF).key
            old = engine.resolve_at(SELF, says.rev, key)
        else:
            key, old = shown(engine, says.rev, says.path, says.start, says.end)
    except SourceAnchorsError as error:
        return Outcome(
            found.link.url,
            Status.error,
            message=f"{found.link.url}: {error}",
            subtype=Subtype.target,
        )
    target = parse_target(f"{SELF}:{key}", default_repo=None)
    try:
        new = engine.resolve_at(SELF, head, key)
    except SourceAnchorsError as error:
        # what the link showed at its commit, as a lock record would: where it probably went
        suggestion = (
            engine.suggest(target, LockRecord.at(says.rev, old))
            if _FULL_SHA.fullmatch(says.rev)
            else None
        )
        hint = f"; suggestion: {suggestion.describe()}" if suggestion else ""
        return Outcome(
            str(target),
            Status.missing,
            target=target,
            subtype=Subtype.missing,
            message=f"missing: {target} at HEAD: {error}{hint}",
            suggestion=suggestion,
        )
    if new.sha256 != old.sha256:
        status = Status.changed
    elif (new.path, new.start, new.end) != (old.path, old.start, old.end):
        status = Status.moved
    else:
        status = Status.ok
    message = f"{status}: {target} {old.describe()} at {says.rev[:7]} → {new.describe()} at HEAD"
    return Outcome(
        str(target),
        status,
        target=target,
        location=new,
        commit=head,
        message=message,
        subtype=None if status is Status.ok else Subtype(status.value),
    )
