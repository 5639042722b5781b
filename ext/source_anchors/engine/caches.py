"""What the extension remembers on disk between builds (no Sphinx).

A pinned commit never changes, so neither does what a target resolves to there, where a
missing one's locked lines went, what licence a blob holds, or which lines a pinned tree
has; and a module's index depends only on its text. Five caches, all under the cache
directory and all written atomically:

- ``resolutions/``: (URL, commit, packages, Python read for, resolver version) -> target -> location
  or failure; a warm build reads them and parses no upstream module. Writes merge with what is on
  disk under a file lock, so parallel builds only ever add entries.
- ``suggestions/``: the same key and the suggester's version -> missing target and its lock
  record -> the suggestion, or none; a warm build with a missing anchor parses nothing either.
- ``indexes/``: module indexes by a hash of what decides them (:mod:`.indexcache`).
- ``licences/``: blob id -> the licence askalono identified (it takes ~0.5 s a text).
- ``lines/``: pinned tree -> index of its package source lines (for the reproduction count).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..model.config import RepoPin
from ..model.errors import SourceAnchorsError
from ..model.fsio import FileLock, atomic_write
from ..model.records import (
    RESOLVER_VERSION,
    SUGGESTER_VERSION,
    Location,
    LockRecord,
    Suggestion,
    resolution_from_json,
    resolution_to_json,
)
from ..sources.trees import Tree, cache_key

if TYPE_CHECKING:  # askalono's rules are imported for the generated pages only
    from ..licences.identify import LicenceMatch

#: Bump when an entry of the resolution cache changes shape, or when entries that older releases
#: wrote may be wrong: 3 drops the answers a preview at another commit read from the pinned commit's
#: release.
ENTRY_FORMAT = 3

Entry = dict[str, Any]


class _PinCache:
    """Entries by key, in one JSON file per (URL, commit, packages, versions); see :meth:`flush`."""

    folder = ""

    def __init__(self, root: Path, *, python: str = "") -> None:
        self.root = root / self.folder
        #: The ``source_anchors_python`` setting: resolutions depend on it, so it is part of the
        #: key.
        self.python = python
        self._loaded: dict[str, dict[str, Entry]] = {}
        self._pending: dict[str, dict[str, Entry]] = {}
        self._names: dict[tuple[str, str, tuple[str, ...], str | None], str] = {}

    def _file(self, url: str, commit: str, packages: tuple[str, ...], dist: str | None) -> Path:
        # Resolution depends on which directories are packages, so they are part of the key; and on
        # the files read, so is the distribution that served them (a pin with one and the same
        # commit without it, as a bump's preview has, never share answers).
        parts = (
            *packages,
            *([f"python={self.python}"] if self.python else []),
            *([f"dist={dist}"] if dist else []),
        )
        return self.root / f"{cache_key(url, commit)}-{_salt(parts)}-{self._versions()}.json"

    def _versions(self) -> str:
        return f"r{RESOLVER_VERSION}-f{ENTRY_FORMAT}"

    def _name(self, pin: RepoPin) -> str:
        """The cache file of *pin* (computed once: a lookup should cost a dict access)."""
        key = (pin.url, pin.commit, pin.packages, pin.dist_file.name if pin.dist_file else pin.dist)
        if key not in self._names:
            self._names[key] = str(self._file(*key))
        return self._names[key]

    def _entries(self, pin: RepoPin) -> dict[str, Entry]:
        name = self._name(pin)
        if name not in self._loaded:
            try:
                data = json.loads(Path(name).read_text("utf-8"))
                self._loaded[name] = data if isinstance(data, dict) else {}
            except (OSError, ValueError):
                self._loaded[name] = {}
        return self._loaded[name]

    def _put(self, pin: RepoPin, key: str, entry: Entry) -> None:
        name = self._name(pin)
        if self._entries(pin).get(key) != entry:
            self._pending.setdefault(name, {})[key] = entry
            self._entries(pin)[key] = entry

    def flush(self) -> int:
        """Merge pending entries into the files on disk; return how many were written."""
        if not self._pending:
            return 0
        written = 0
        for name, entries in self._pending.items():
            path = Path(name)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                with FileLock(f"{name}.lock", timeout=60):
                    try:
                        on_disk = json.loads(path.read_text("utf-8"))
                    except (OSError, ValueError):
                        on_disk = {}
                    if not isinstance(on_disk, dict):
                        on_disk = {}
                    on_disk.update(entries)
                    atomic_write(path, json.dumps(on_disk, sort_keys=True, ensure_ascii=False))
                    written += len(entries)
            except OSError:  # LockTimeout too: another build holds it,
                continue  # or the cache is unwritable: recomputed next time
        self._pending.clear()
        return written


class ResolutionCache(_PinCache):
    """Resolved locations and resolution failures of targets at pinned commits."""

    folder = "resolutions"

    def get(self, pin: RepoPin, key: str) -> Location | str | None:
        """A cached location, or the cached failure message, or None when unknown."""
        return resolution_from_json(self._entries(pin).get(key))

    def put(self, pin: RepoPin, key: str, result: Location | str) -> None:
        """Remember *result* (a location, or the message of a resolution failure); see :meth:`flush`."""
        self._put(pin, key, resolution_to_json(result))


class SuggestionCache(_PinCache):
    """Where missing targets' locked lines went at pinned commits, or that nothing was found.

    The suggestions are :mod:`source_anchors.suggest.suggester`'s.

    A suggestion depends on the pinned tree, the target and its lock record (the locked commit and
    lines), and the suggester's rules: all of them are in the key.
    """

    folder = "suggestions"

    def _versions(self) -> str:
        return f"r{RESOLVER_VERSION}-s{SUGGESTER_VERSION}"

    @staticmethod
    def _key(key: str, record: LockRecord) -> str:
        return f"{key}\n{record.commit}\n{record.path}:{record.start}-{record.end}\n{record.sha256}"

    def get(self, pin: RepoPin, key: str, record: LockRecord) -> tuple[bool, Suggestion | None]:
        """(known, suggestion): whether the suggestion for *key* locked as *record* is cached, and it."""
        entry = self._entries(pin).get(self._key(key, record))
        if not isinstance(entry, dict) or "suggestion" not in entry:
            return False, None
        raw = entry["suggestion"]
        if raw is None:
            return True, None
        try:
            return True, Suggestion(
                key=str(raw["target"]),
                similarity=float(raw["similarity"]),
                reason=str(raw["reason"]),
                where=str(raw["where"]),
            )
        except (KeyError, TypeError, ValueError):
            return False, None  # a damaged entry: computed again

    def put(
        self, pin: RepoPin, key: str, record: LockRecord, suggestion: Suggestion | None
    ) -> None:
        """Remember the suggestion (or that there is none) for *key* locked as *record*; see :meth:`flush`."""
        self._put(
            pin,
            self._key(key, record),
            {"suggestion": suggestion.to_json() if suggestion else None},
        )


def _salt(packages: tuple[str, ...]) -> str:
    """Resolution and the line index depend on which directories are packages: part of their keys."""
    return hashlib.sha256("\n".join(packages).encode()).hexdigest()[:8]


def identify_cached(cache_dir: Path, blob: str, data: bytes) -> LicenceMatch | None:
    """The licence of a text, remembered on disk by its blob id."""
    from ..licences.identify import LicenceMatch, identify_licence  # generated pages only

    memo = cache_dir / "licences" / f"{blob}.json"
    try:
        known = json.loads(memo.read_text("utf-8"))
        return LicenceMatch(**known) if known else None
    except (OSError, ValueError, TypeError):
        pass
    match = identify_licence(data.decode("utf-8", "replace"))
    _remember(memo, json.dumps(dataclasses.asdict(match) if match else None))
    return match


def line_index_cached(
    cache_dir: Path, repo: str, pin: RepoPin, tree: Tree, *, max_file_bytes: int
) -> dict[str, tuple[str, int]]:
    """The line index of *repo*'s package sources (:mod:`~source_anchors.licences.reproduce`), kept per pinned tree."""
    from ..licences.reproduce import upstream_line_index  # only books with literal blocks need it
    from ..model.textlines import decode_source

    memo = cache_dir / "lines" / f"{cache_key(pin.url, pin.commit)}-{_salt(pin.packages)}.json"
    try:
        return {
            line: (path, number)
            for line, (path, number) in json.loads(memo.read_text("utf-8")).items()
        }
    except (OSError, ValueError, TypeError):
        pass
    texts: list[tuple[str, str]] = []
    for path in sorted(tree.blobs):
        if path.endswith(".py") and any(path.startswith(p + "/") for p in pin.packages):
            try:
                # Not verified: a distribution's unvouched file still tells whether the book copies
                # it.
                data = tree.read_bytes(path, max_bytes=max_file_bytes, verify=False)
                texts.append((f"{repo}:{path}", decode_source(data)))
            except (SourceAnchorsError, UnicodeDecodeError):
                continue
    index = upstream_line_index(texts)
    _remember(memo, json.dumps(index, ensure_ascii=False))
    return index


def _remember(memo: Path, text: str) -> None:
    """Write a memo; an unwritable cache only means computing it again next time."""
    with contextlib.suppress(OSError):
        atomic_write(memo, text)
