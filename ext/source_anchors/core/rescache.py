"""Persistent resolution cache: (repo URL, commit, target, resolver version) -> location (no Sphinx).

A pinned commit never changes, so neither does what a target resolves to there.
Results live in one JSON file per (URL, commit, resolver version) under
``<cache>/resolutions/``; a warm build reads them and parses no upstream module.
Writes merge with what is on disk under a file lock and replace the file
atomically, so parallel builds only ever add entries.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from .config import RepoPin
from .lock import atomic_write
from .resolve import RESOLVER_VERSION, Location
from .sources import cache_key

Entry = dict[str, Any]


class ResolutionCache:
    """Resolved locations and resolution failures of targets at pinned commits."""

    def __init__(self, root: Path) -> None:
        self.root = root / "resolutions"
        self._loaded: dict[str, dict[str, Entry]] = {}
        self._pending: dict[str, dict[str, Entry]] = {}
        self._names: dict[tuple[str, str, tuple[str, ...]], str] = {}

    def _file(self, url: str, commit: str, packages: tuple[str, ...]) -> Path:
        # Resolution depends on which directories are packages, so they are part of the key.
        salt = hashlib.sha256("\n".join(packages).encode()).hexdigest()[:8]
        return self.root / f"{cache_key(url, commit)}-{salt}-r{RESOLVER_VERSION}.json"

    def _name(self, pin: RepoPin) -> str:
        """The cache file of *pin* (computed once: a lookup should cost a dict access)."""
        key = (pin.url, pin.commit, pin.packages)
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

    def get(self, pin: RepoPin, key: str) -> Location | str | None:
        """A cached location, or the cached failure message, or None when unknown."""
        entry = self._entries(pin).get(key)
        if not isinstance(entry, dict):
            return None
        if "missing" in entry:
            return str(entry["missing"])
        try:
            return Location(path=entry["path"], start=entry["start"], end=entry["end"], kind=entry["kind"],
                            sha256=entry["sha256"], blob=entry["blob"],
                            uses=tuple((str(path), str(blob)) for path, blob in entry.get("uses", ())))
        except (KeyError, TypeError):
            return None

    def put(self, pin: RepoPin, key: str, result: Location | str) -> None:
        """Remember *result* (a location, or the message of a resolution failure); see :meth:`flush`."""
        if isinstance(result, str):
            entry: Entry = {"missing": result}
        else:
            entry = {"path": result.path, "start": result.start, "end": result.end, "kind": result.kind,
                     "sha256": result.sha256, "blob": result.blob, "uses": [list(p) for p in result.uses]}
        name = self._name(pin)
        if self._entries(pin).get(key) != entry:
            self._pending.setdefault(name, {})[key] = entry
            self._entries(pin)[key] = entry

    def flush(self) -> int:
        """Merge pending entries into the files on disk; return how many were written."""
        if not self._pending:
            return 0
        from filelock import FileLock, Timeout  # imported only when there is something to write

        written = 0
        for name, entries in self._pending.items():
            path = Path(name)
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
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
            except Timeout:
                continue  # another build holds it; the entries are recomputed next time
        self._pending.clear()
        return written
