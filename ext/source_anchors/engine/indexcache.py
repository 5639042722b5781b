"""Module indexes kept on disk between runs, one pack per commit (no Sphinx).

A module's index (:mod:`~source_anchors.reading.python.modindex`) depends only on what
:func:`~source_anchors.reading.python.indexcodec.index_key` hashes, so an index stored by a build at
one commit serves every commit where the file is unchanged. A resolver at a commit reads the
pack of that commit and the packs of the commits the lock records: after a bump, ``check --pin``
and the first build at the new commit parse only the files that changed.

A pack is ``indexes/<url and commit>-<builder code>.jsonl``: a line per module, its key, a space
and the index as JSON (:func:`~source_anchors.reading.python.indexcodec.to_json`). Lines are read as
text and each entry decoded only when asked for: the packs of a large package hold about a
million small lists, which would otherwise stay in the heap for the garbage collector to walk.
A line that does not decode is parsed again; a pack is rewritten whole (atomically, under a
file lock) with the new lines after the old ones.

A tree's compiled bindings (:mod:`~source_anchors.reading.compiled.stored`) are kept beside the
packs, one file per key, ``indexes/compiled/<key>.json``: the key hashes the compiled files' blob
ids, the tree's paths and the reading code, so the file serves every commit where they are the same.
It is encoded and written (atomically) at :meth:`IndexCache.flush`, once with every name decided so
far; one that cannot be written is built again next time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..model.config import RepoPin
from ..model.fsio import FileLock, atomic_write
from ..reading.collector import collector_paused
from ..reading.python import (
    IndexStore,
    ModuleIndex,
    builder_digest,
    from_json,
    statements_of,
    to_json,
)
from ..sources.trees import cache_key


class IndexCache:
    """Module indexes by key, one pack per (URL, commit, builder code); see :meth:`store`."""

    folder = "indexes"

    def __init__(self, root: Path) -> None:
        self.root = root / self.folder
        #: Each pack's entries (key -> JSON text), read when a store first needs them (unreadable:
        #: none).
        self._packs: dict[Path, dict[str, str]] = {}
        #: Entries to write by pack: indexes parsed in this process, or JSON texts of another
        #: commit's pack.
        self._pending: dict[Path, dict[str, ModuleIndex | str]] = {}
        #: Compiled bindings to write by key: each gives its JSON text when called.
        self._compiled: dict[str, Callable[[], str]] = {}

    def pack(self, url: str, commit: str) -> Path:
        """The pack of the indexes of the files of *url* at *commit*."""
        return self.root / f"{cache_key(url, commit)}-{builder_digest()[:12]}.jsonl"

    def store(self, pin: RepoPin, also: Iterable[str] = ()) -> IndexStore:
        """The indexes a resolver at *pin* may use: its commit's, and those of the commits *also*.

        What it parses, and what it takes from another commit's pack, goes into its own commit's
        pack at :meth:`flush`, so that pack serves the commit alone once the lock moves to it.
        """
        own = self.pack(pin.url, pin.commit)
        others = [
            self.pack(pin.url, commit) for commit in sorted(set(also)) if commit != pin.commit
        ]
        return _PackStore(self, own, others)

    def entries(self, pack: Path) -> dict[str, str]:
        """The entries of *pack* (key -> JSON text), read once."""
        found = self._packs.get(pack)
        if found is None:
            try:
                found = _entries_of(pack.read_text("utf-8"))
            except (OSError, UnicodeDecodeError):
                found = {}
            self._packs[pack] = found
        return found

    def pending(self, pack: Path) -> dict[str, ModuleIndex | str]:
        """What :meth:`flush` adds to *pack*."""
        return self._pending.setdefault(pack, {})

    def compiled(self, key: str) -> str | None:
        """The compiled bindings stored under *key* (JSON text), or None."""
        try:
            return (self.root / "compiled" / f"{key}.json").read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def put_compiled(self, key: str, text: Callable[[], str]) -> None:
        """Store compiled bindings under *key* at :meth:`flush`, as *text* then gives them."""
        self._compiled[key] = text

    def flush(self) -> int:
        """Write the pending compiled bindings and add the pending entries to the packs on disk.

        Returns how many pack entries were written.
        """
        for key, encoded in self._compiled.items():
            path = self.root / "compiled" / f"{key}.json"
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write(path, encoded())
            except OSError:
                continue  # an unwritable cache keeps nothing: built again next time
        self._compiled.clear()
        if not self._pending:
            return 0
        written = 0
        for pack, entries in self._pending.items():
            try:
                pack.parent.mkdir(parents=True, exist_ok=True)
                with FileLock(f"{pack}.lock", timeout=60):
                    try:
                        text = pack.read_text("utf-8")
                    except (OSError, UnicodeDecodeError):
                        text = ""
                    known = _entries_of(text)
                    lines = [
                        f"{key} {_encoded(entry)}\n"
                        for key, entry in entries.items()
                        if key not in known
                    ]
                    if lines:
                        kept = (
                            text
                            if not text or text.endswith("\n")
                            else text[: text.rfind("\n") + 1]
                        )
                        atomic_write(pack, kept + "".join(lines))
                    written += len(lines)
            except OSError:  # LockTimeout too: another build holds it,
                continue  # or the cache is unwritable: parsed again next time
        self._pending.clear()
        return written


class _PackStore:
    """An :class:`~source_anchors.reading.python.files.IndexStore` over one commit's pack and others'."""

    def __init__(self, cache: IndexCache, own: Path, others: list[Path]) -> None:
        self._cache, self._own, self._others = cache, own, others

    def get(self, key: str) -> ModuleIndex | None:
        raw = self._raw(key)
        if raw is None:
            return None
        try:
            with collector_paused():  # thousands of small lists and tuples, none of them in a cycle
                return from_json(json.loads(raw))
        except (ValueError, RecursionError):
            return None

    def statements(self, key: str) -> Sequence[Any] | None:
        raw = self._raw(key)
        if raw is None:
            return None
        with collector_paused():  # nested lists of numbers, none of them in a cycle
            return statements_of(raw)

    def _raw(self, key: str) -> str | None:
        """The JSON text stored under *key*: in the own pack, else in another (then added to the own)."""
        raw = self._cache.entries(self._own).get(key)
        if raw is None:
            for other in self._others:
                raw = self._cache.entries(other).get(key)
                if raw is not None:
                    self._cache.pending(self._own)[key] = raw  # the own pack has it next time
                    break
        return raw

    def put(self, key: str, index: ModuleIndex) -> None:
        self._cache.pending(self._own)[key] = index  # encoded when written


def _entries_of(text: str) -> dict[str, str]:
    """Key -> JSON text of each line of a pack (a line without a space is skipped).

    Split at newlines alone: JSON escapes them in strings, but not U+2028 and the like, which
    :meth:`str.splitlines` would split at too.
    """
    entries = {}
    for line in text.split("\n"):
        key, space, raw = line.partition(" ")
        if space:
            entries[key] = raw
    return entries


def _encoded(entry: ModuleIndex | str) -> str:
    return (
        entry
        if isinstance(entry, str)
        else json.dumps(to_json(entry), separators=(",", ":"), ensure_ascii=False)
    )
