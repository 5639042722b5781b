"""The lock's JSON checked as :func:`.lockfile.read_lock` checks it, without making its records (pure).

:func:`readable` says whether ``read_lock`` reads a parsed lock without an error, so that the warm
check (:mod:`source_anchors.cli.warm`) can answer from the raw JSON without loading the records'
dataclasses; anything else is left to ``read_lock`` and its located messages.
"""

from __future__ import annotations

import operator

from ..model.version import RESOLVER_VERSION

TYPE_CHECKING = False  # typing itself is not imported: the warm check loads this module
if TYPE_CHECKING:
    from typing import Any

__all__ = ["LOCK_VERSION", "NO_COMMIT", "readable", "well_formed"]

LOCK_VERSION = 1
#: Stands for the commit a ``self`` record does not name while the record is validated.
NO_COMMIT = "0" * 40


def readable(data: Any) -> bool:
    """Whether :func:`.lockfile.read_lock` reads the parsed JSON *data* without an error.

    Only its common case: a record it would read although :func:`well_formed` does not accept it
    is not readable here (``read_lock`` says what it makes of it).
    """
    if not isinstance(data, dict) or not isinstance(data.get("anchors"), dict):
        return False
    version = data.get("version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or version > LOCK_VERSION
        or version < 1
    ):
        return False
    resolver = data.get("resolver")
    if resolver is not None and not (
        isinstance(resolver, dict)
        and isinstance(resolver.get("version"), int)
        and isinstance(resolver.get("python"), str)
    ):
        return False
    if resolver is not None and resolver["version"] > RESOLVER_VERSION:
        return False
    for entries in data["anchors"].values():
        if not isinstance(entries, dict):
            return False
        for raw in entries.values():
            if not well_formed(
                raw, NO_COMMIT if type(raw) is dict and "commit" not in raw else None
            ):
                return False
    return True


def well_formed(raw: Any, commit: str | None = None) -> bool:
    """The common case, checked at once (a lock has thousands of records): :func:`.lockfile._problem` says why not.

    *commit*: the record's commit when it names none (a ``self`` record), as if it did.
    """
    try:
        sha256, blob, start, end, path = FIELDS_OF(raw)
        commit = raw["commit"] if commit is None else commit
        uses = raw.get("uses", NO_USES)
        # join() raises TypeError for anything but strings: the paths and blob ids of 'uses' too.
        hexes = "".join((commit, sha256, blob, *uses.values()))
        "".join(uses)
    except (KeyError, TypeError, AttributeError, ValueError):
        return False
    return (
        type(raw) is dict
        and type(uses) is dict
        and type(raw.get("kind", "")) is str
        and type(path) is str
        and type(start) is int
        and type(end) is int
        and 1 <= start <= end
        and len(commit) == 40
        and len(sha256) == 64
        and len(blob) == 40
        and (not uses or all(len(used) == 40 for used in uses.values()))
        and lower_hex(hexes)
    )


def lower_hex(text: str) -> bool:
    """Whether *text* is an even number of lowercase hexadecimal digits (``[0-9a-f]`` in pairs).

    :meth:`bytes.fromhex` reads either case and skips blanks; written back, the bytes are *text*
    only when it had neither.
    """
    try:
        return bytes.fromhex(text).hex() == text
    except ValueError:
        return False


NO_USES: dict[str, str] = {}
FIELDS_OF = operator.itemgetter("sha256", "blob", "start", "end", "path")
