"""Anchors that the resolver itself moved: the same commit, read by other rules or for another Python (no Sphinx).

The lock records what its records were resolved with (:attr:`.Lock.resolver`: the resolver's version
and ``source_anchors_python``). When that differs from what resolves now, an anchor whose record holds
its locked lines at the pinned commit but that resolves elsewhere was moved by the resolver, not by the
code: it is reported ``moved``, naming the rule that moved it, and ``update`` relocks it. Nothing
silently changes meaning.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import SourceAnchorsError
from .records import RESOLVER_VERSION

if TYPE_CHECKING:
    from .config import RepoPin, Settings
    from .engine import Engine
    from .records import Location, LockRecord

#: The command that relocks, as messages name it (the engine's own).
_UPDATE = "source-anchors update"


def resolver_settings(settings: Settings) -> dict[str, Any]:
    """What anchors are resolved with, as the lock records it."""
    return {"version": RESOLVER_VERSION, "python": str(settings.python)}


def reresolved(engine: Engine, pin: RepoPin, location: Location, locked: LockRecord) -> str | None:
    """The message's tail (after ``moved: target old → new``) when the resolver moved the anchor, else None."""
    was, now = engine.lock.resolver or {}, resolver_settings(engine.settings)
    if locked.commit != pin.commit or was == now or not _genuine(engine, pin.name, locked):
        return None
    why = [f"resolver version {was.get('version', 'before 10')} → {now['version']}"] \
        if was.get("version") != now["version"] else []
    if "python" in was and was["python"] != now["python"]:
        why.append(f"source_anchors_python {was['python']} → {now['python']}")
    return (f"{location.explain()}: the same commit, resolved anew ({', '.join(why)}); check the new lines "
            f"and run '{_UPDATE}'")


def _genuine(engine: Engine, repo: str, locked: LockRecord) -> bool:
    """Whether *locked* holds the lines it names at the pinned commit (resolved there, not edited by hand)."""
    from .resolve import lines_hash

    try:
        lines = engine.resolver(repo).file_lines(locked.path)
    except SourceAnchorsError:
        return False
    return locked.end <= len(lines) and lines_hash(lines, locked.start, locked.end) == locked.sha256


