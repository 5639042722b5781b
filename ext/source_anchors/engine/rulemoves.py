"""Anchors that the resolver itself moved: the same commit, read by other rules or for another Python (no Sphinx).

The lock records what its records were resolved with (:attr:`.Lock.resolver`: the resolver's version
and ``source_anchors_python``). When that differs from what resolves now, an anchor whose record
holds its locked lines at the pinned commit but that resolves elsewhere was moved by the resolver,
not by the code: it is reported ``moved``, naming the rule that moved it, and ``update`` relocks it.
Nothing silently changes meaning.
"""

from __future__ import annotations

from typing import Any

from ..lock.lockfile import Lock
from ..model.config import RepoPin, Settings
from ..model.errors import SourceAnchorsError
from ..model.records import RESOLVER_VERSION, Location, LockRecord
from ..resolve.factory import Resolvers

#: The command that relocks, as messages name it (the engine's own).
_UPDATE = "source-anchors update"


def resolver_settings(settings: Settings) -> dict[str, Any]:
    """What anchors are resolved with, as the lock records it."""
    return {"version": RESOLVER_VERSION, "python": str(settings.python)}


def reresolved(
    lock: Lock,
    settings: Settings,
    resolvers: Resolvers,
    pin: RepoPin,
    location: Location,
    locked: LockRecord,
) -> str | None:
    """The message's tail (after ``moved: target old → new``) when the resolver moved the anchor, else None.

    *lock* says what its records were resolved with; *resolvers* read the pinned commit's lines.
    """
    was, now = lock.resolver or {}, resolver_settings(settings)
    if locked.commit != pin.commit or was == now or not _genuine(resolvers, pin.name, locked):
        return None
    why = (
        [f"resolver version {was.get('version', 'before 10')} → {now['version']}"]
        if was.get("version") != now["version"]
        else []
    )
    if "python" in was and was["python"] != now["python"]:
        why.append(f"source_anchors_python {was['python']} → {now['python']}")
    return (
        f"{location.explain()}: the same commit, resolved anew ({', '.join(why)}); check the new lines "
        f"and run '{_UPDATE}'"
    )


def _genuine(resolvers: Resolvers, repo: str, locked: LockRecord) -> bool:
    """Whether *locked* holds the lines it names at the pinned commit (resolved there, not edited by hand)."""
    # the resolution machinery: anchors the resolver moved only
    from ..resolve.resolver import lines_hash

    try:
        lines = resolvers.resolver(repo).file_lines(locked.path)
    except SourceAnchorsError:
        return False
    return locked.end <= len(lines) and lines_hash(lines, locked.start, locked.end) == locked.sha256
