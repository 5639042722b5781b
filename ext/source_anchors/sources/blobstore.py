"""Single blobs of a pinned repository, fetched from git on demand and kept by blob id (no Sphinx).

A file target outside the exported packages (``/pyproject.toml``, ``/LICENSE``) needs one
file of the commit: its blob id is in the tree's listing, and only that blob is fetched,
into a new partial clone that is removed afterwards. The bytes are checked against the blob
id and kept in ``<cache>/blobs/<id[:2]>/<id[2:]>``, written by rename, so readers see a whole
file or none; a stored file is checked again each time it is read.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from ..model.config import RepoPin
from ..model.errors import GitError, SourceError
from ..model.fsio import current_umask
from .gitexport import fetch_blobs, init_partial
from .treefiles import blob_id

_BLOB_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


class BlobStore:
    """Blobs by id below *root* (the cache directory), fetched from a pin's URL when absent."""

    def __init__(self, root: Path, *, timeout: float) -> None:
        self.root = root
        self.timeout = timeout
        #: How many blobs this object fetched from git (for tests and reports).
        self.fetches = 0

    def path(self, blob: str) -> Path:
        """Where blob *blob* is kept."""
        return self.root / "blobs" / blob[:2] / blob[2:]

    def stored(self, blob: str) -> bytes | None:
        """The bytes of blob *blob* if the store holds them intact (never fetched)."""
        try:
            data = self.path(blob).read_bytes()
        except (OSError, ValueError):
            return None
        return data if blob_id(data) == blob else None

    def get(self, pin: RepoPin, blob: str) -> bytes:
        """The bytes of blob *blob* of *pin*'s repository: kept, else fetched from git alone.

        Raises :class:`SourceError` when git cannot fetch it.
        """
        if not _BLOB_ID.fullmatch(blob):
            raise SourceError(f"{blob!r} is not a blob id")
        place = self.path(blob)
        kept = self.stored(blob)
        if kept is not None:
            return kept
        tmp = self.root / "tmp"
        tmp.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f"blob-{blob[:12]}.", dir=tmp))
        try:
            if pin.checkout is not None:  # the docs' own repository: its checkout has every blob
                from .ownrepo import read_blob

                data = read_blob(pin.checkout, blob, timeout=self.timeout)
            else:
                data = _fetch_one(pin, blob, staging / "repo.git", timeout=self.timeout)
            self.fetches += 1
            self._write(place, data, staging)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        return data

    def put(self, data: bytes) -> str:
        """Keep *data* (bytes another source vouched for, such as an sdist's file); its blob id."""
        blob = blob_id(data)
        if self.stored(blob) is None:
            tmp = self.root / "tmp"
            tmp.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f"blob-{blob[:12]}.", dir=tmp))
            try:
                self._write(self.path(blob), data, staging)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        return blob

    @staticmethod
    def _write(place: Path, data: bytes, staging: Path) -> None:
        place.parent.mkdir(parents=True, exist_ok=True)
        written = staging / "blob"
        written.write_bytes(data)
        os.chmod(written, 0o666 & ~current_umask())
        os.replace(written, place)


def _fetch_one(pin: RepoPin, blob: str, repo: Path, *, timeout: float) -> bytes:
    """Blob *blob* of *pin*'s repository, fetched by id into a new partial clone at *repo*."""
    from . import proc  # the subprocess machinery: on-demand fetches only

    repo.mkdir(parents=True)

    def g(*args: str, stdin: bytes | None = None) -> bytes:
        return proc.git(list(args), cwd=repo, stdin=stdin, timeout=timeout)

    try:
        init_partial(g, repo, pin.url)
        found = fetch_blobs(g, {blob})
    except (GitError, ValueError) as error:  # ValueError: cat-file answered "missing"
        raise SourceError(
            f"cannot fetch blob {blob[:12]} of {pin.name}@{pin.short}: {error}"
        ) from error
    if blob not in found:
        raise SourceError(f"git returned no blob {blob[:12]} of {pin.name}@{pin.short}")
    return found[blob]
