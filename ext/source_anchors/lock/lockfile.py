"""The lock file: read, compare, write atomically (pure).

Format (JSON, keys sorted, two-space indent)::

    {"version": 1,
     "resolver": {"version": 10, "python": "3.11"},
     "anchors": {"<repo>": {"<dotted.path[::match]>": {
         "commit": ..., "path": ..., "start": ..., "end": ..., "sha256": ..., "blob": ...}}}}

A record of the docs' own repository (``self``, read at HEAD) has no ``commit``, and ``update``
keeps its old blob ids while its lines and text stay the same: the lock's diff changes only when
the cited code does, not with every commit or every edit elsewhere in the file.

``resolver`` records what the records were resolved with: the resolver's version (its rules) and the
``source_anchors_python`` setting. A lock without it was written before it was recorded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..model.errors import LockError
from ..model.fsio import atomic_write
from ..model.records import RESOLVER_VERSION, LockRecord
from .lockform import LOCK_VERSION, NO_COMMIT, well_formed

#: What a lock written by a newer release asks for.
_UPGRADE = "upgrade sphinx-source-anchors (pip install -U sphinx-source-anchors) to read it"
_FIELDS = {"commit": str, "path": str, "start": int, "end": int, "sha256": str, "blob": str}
_HEX_LEN = {"commit": 40, "sha256": 64, "blob": 40}
_HEX = {name: re.compile(f"[0-9a-f]{{{length}}}") for name, length in _HEX_LEN.items()}


@dataclass(frozen=True)
class Lock:
    """All records, by repository name and target key."""

    path: Path
    records: Mapping[str, Mapping[str, LockRecord]]
    #: What the records were resolved with (``version``, ``python``), or None in a lock written
    #: before that.
    resolver: Mapping[str, Any] | None = None

    def get(self, repo: str, key: str) -> LockRecord | None:
        """The record of (repo, key), if any."""
        return self.records.get(repo, {}).get(key)

    def commits(self, repo: str) -> set[str]:
        """The commits the records of *repo* were locked at (a ``self`` record names none)."""
        return {record.commit for record in self.records.get(repo, {}).values() if record.commit}

    def blobs_for(self, repo: str, commit: str) -> dict[str, str]:
        """{path: blob} from records made at *commit* (they vouch for distribution files)."""
        blobs: dict[str, str] = {}
        for record in self.records.get(repo, {}).values():
            if record.commit == commit:
                blobs.update(record.uses)
                blobs[record.path] = record.blob
        return blobs

    def with_new(
        self,
        additions: Iterable[tuple[str, str, LockRecord]],
        resolver: Mapping[str, Any] | None = None,
    ) -> Lock:
        """A new lock with *additions* whose (repo, key) it does not record yet (others are kept).

        The other records were resolved with the lock's own resolver settings, which it keeps; a
        lock that records nothing yet takes *resolver*.
        """
        merged = {repo: dict(recs) for repo, recs in self.records.items()}
        for repo, key, record in additions:
            merged.setdefault(repo, {}).setdefault(key, record)
        kept = self.resolver if any(self.records.values()) else resolver
        return Lock(path=self.path, records=merged, resolver=kept)

    def relocked(
        self,
        fresh: Mapping[tuple[str, str], LockRecord],
        cited: Set[tuple[str, str]],
        resolver: Mapping[str, Any] | None = None,
    ) -> tuple[Lock, list[tuple[str, tuple[str, str]]]]:
        """The lock ``update`` writes, and its changes (``added``, ``pruned``, ``updated``) by key.

        *fresh* holds the records of every cited anchor that resolves now; a cited anchor that does
        not resolve keeps its old record; a record no anchor cites is pruned. The lock then records
        *resolver*, what every anchor was re-resolved with.
        """
        before = {
            (repo, key): rec for repo, recs in self.records.items() for key, rec in recs.items()
        }
        after = {k: rec for k, rec in before.items() if k in cited}
        after.update((k, _kept(before.get(k), rec)) for k, rec in fresh.items())
        records: dict[str, dict[str, LockRecord]] = {}
        for (repo, key), rec in after.items():
            records.setdefault(repo, {})[key] = rec
        changes = [("added", k) for k in sorted(after.keys() - before.keys())]
        changes += [("pruned", k) for k in sorted(before.keys() - after.keys())]
        changes += [
            ("updated", k) for k in sorted(after.keys() & before.keys()) if after[k] != before[k]
        ]
        return Lock(path=self.path, records=records, resolver=resolver or self.resolver), changes

    def dumps(self) -> str:
        """The lock as stable JSON text."""
        data: dict[str, Any] = {
            "version": LOCK_VERSION,
            "anchors": {
                repo: {key: rec.to_json() for key, rec in sorted(recs.items())}
                for repo, recs in sorted(self.records.items())
                if recs
            },
        }
        if self.resolver is not None:
            data["resolver"] = dict(self.resolver)
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


#: The first line git writes into a conflicted file.
_CONFLICT = re.compile(r"^<{7}(?: |$)", re.MULTILINE)


def read_lock(path: Path) -> Lock:
    """Read and validate the lock at *path*; an absent file is an empty lock."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return Lock(path=path, records={})
    except (OSError, UnicodeDecodeError) as error:
        raise LockError(f"{path}: cannot read the lock: {error}") from error
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        conflict = _CONFLICT.search(text)
        if conflict:
            line = text.count("\n", 0, conflict.start()) + 1
            raise LockError(
                f"{path}:{line}: the lock holds git merge-conflict markers ('<<<<<<<', '=======', "
                "'>>>>>>>'); take either side whole (git checkout --ours or --theirs -- "
                f"{path.name}), then run 'source-anchors update', which relocks every anchor "
                "the pages hold"
            ) from error
        raise LockError(
            f"{path}:{error.lineno}: the lock is not valid JSON ({error.msg}); "
            "restore it from version control or delete it and run update"
        ) from error
    except RecursionError as error:
        raise LockError(f"{path}:1: the lock is nested too deeply to be a lock file") from error
    if not isinstance(data, dict):
        raise LockError(f"{path}:1: the lock must be an object with 'version' and 'anchors'")
    if not isinstance(data.get("anchors"), dict):
        raise LockError(
            f"{path}:{_line_of(text, 'anchors')}: 'anchors' must be an object of repositories"
        )
    version = data.get("version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or version > LOCK_VERSION
        or version < 1
    ):
        newer = isinstance(version, int) and not isinstance(version, bool) and version > 0
        raise LockError(
            f"{path}:{_top_line(text, 'version')}: lock format version {version!r} is not "
            f"supported by this extension (it reads version {LOCK_VERSION})"
            + (f"; the lock was written by a newer release: {_UPGRADE}" if newer else "")
        )
    resolver = data.get("resolver")
    if resolver is not None and not (
        isinstance(resolver, dict)
        and isinstance(resolver.get("version"), int)
        and isinstance(resolver.get("python"), str)
    ):
        raise LockError(
            f"{path}:{_line_of(text, 'resolver')}: 'resolver' must be an object with 'version' (an "
            "integer) and 'python' (a string); restore it from version control or run update"
        )
    if resolver is not None and resolver["version"] > RESOLVER_VERSION:
        # An older resolver would report drift the newer one does not see, and relock downwards.
        raise LockError(
            f"{path}:{_line_of(text, 'resolver')}: the lock was resolved by a newer release "
            f"(resolver version {resolver['version']}; this one has {RESOLVER_VERSION}): {_UPGRADE}"
        )
    records: dict[str, dict[str, LockRecord]] = {}
    for repo, entries in data["anchors"].items():
        repo_at = text.find(json.dumps(repo, ensure_ascii=False) + ":")
        if not isinstance(entries, dict):
            raise LockError(f"{path}:{_line_of(text, repo)}: anchors of {repo!r} must be an object")
        for key, raw in entries.items():
            records.setdefault(repo, {})[key] = _record(raw, path, text, repo, key, after=repo_at)
    return Lock(path=path, records=records, resolver=resolver)


def _record(raw: Any, path: Path, text: str, repo: str, key: str, *, after: int) -> LockRecord:
    if type(raw) is dict and "commit" not in raw:
        # The docs' own repository (``self``): its records name no commit, which would change with
        # every commit; the blob id says where the locked text is.
        raw = {**raw, "commit": NO_COMMIT}
    problem = None if well_formed(raw) else _problem(raw)
    if problem is not None:
        # Located only on error: finding a key's line scans the text, and a lock holds thousands of
        # records.
        raise LockError(f"{path}:{_line_of(text, key, after=after)}: record {repo}:{key}{problem}")
    record = LockRecord.from_json(raw)
    return replace(record, commit="") if record.commit == NO_COMMIT else record


def _kept(old: LockRecord | None, new: LockRecord) -> LockRecord:
    """*new*, or *old* when both lock the docs' own code at the same lines with the same text.

    A ``self`` record's blob ids change with any edit of the file (or of a file it used); the old
    ones still name the locked text, so keeping them makes the lock's diff change only when the
    cited code does.
    """
    if (
        old is not None
        and not old.commit
        and not new.commit
        and (old.path, old.start, old.end, old.sha256) == (new.path, new.start, new.end, new.sha256)
    ):
        return old
    return new


def _problem(raw: Any) -> str | None:
    """What is wrong with a raw record (the message's tail), or None."""
    if not isinstance(raw, dict):
        return " must be an object"
    for name, kind in _FIELDS.items():
        value = raw.get(name)
        if not isinstance(value, kind) or isinstance(value, bool):
            return f": field {name!r} is missing or not a {kind.__name__}"
        if name in _HEX and not _HEX[name].fullmatch(str(value)):
            return f": field {name!r} is not a {_HEX_LEN[name]}-digit hex id"
    if not 1 <= raw["start"] <= raw["end"]:
        return f": lines {raw['start']}-{raw['end']} are not a valid range"
    uses = raw.get("uses", {})
    if not isinstance(uses, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and _HEX["blob"].fullmatch(v)
        for k, v in uses.items()
    ):
        return ": field 'uses' must map paths to 40-digit blob ids"
    if not isinstance(raw.get("kind", ""), str):
        return ": field 'kind' must be a string"
    return None


def _top_line(text: str, key: str) -> int:
    """Line of *key* among the keys of the valid JSON object *text* itself, not of one inside it."""
    decoder, at = json.JSONDecoder(), text.find("{") + 1
    while True:
        at = _skip(text, at, " \t\r\n,")
        if at >= len(text) or text[at] != '"':
            return 1
        name, end = decoder.raw_decode(text, at)
        if name == key:
            return text.count("\n", 0, at) + 1
        _, at = decoder.raw_decode(text, _skip(text, end, " \t\r\n:"))


def _skip(text: str, at: int, chars: str) -> int:
    while at < len(text) and text[at] in chars:
        at += 1
    return at


def _line_of(text: str, key: str, *, after: int = 0) -> int:
    """Line of the first ``"key":`` at or after offset *after* (1 when not found)."""
    index = text.find(json.dumps(key, ensure_ascii=False) + ":", max(after, 0))
    if index < 0:  # written without the usual spacing
        index = text.find(json.dumps(key, ensure_ascii=False), max(after, 0))
    return text.count("\n", 0, index) + 1 if index >= 0 else 1


def write_lock(lock: Lock, *, fix: str = "") -> bool:
    """Write *lock* atomically (temp file renamed over the old); False when unchanged.

    An unwritable file (a read-only checkout) is a :class:`LockError` ending with *fix*; the old
    lock is intact.
    """
    text = lock.dumps()
    try:
        if lock.path.read_text("utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    try:
        atomic_write(lock.path, text)
    except OSError as error:
        raise LockError(
            f"cannot write {lock.path.name} ({error.strerror or error}){fix}"
        ) from error
    return True
