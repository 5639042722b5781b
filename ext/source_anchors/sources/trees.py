"""Obtain the files of a pinned commit: cache, git, or a verified distribution (no Sphinx).

A tree is exported once per (repository URL, commit) into the cache:
``<cache>/trees/<key>/files/`` plus ``meta.json``. It is built in a temporary
directory and renamed into place under a file lock, so readers see a whole tree
or none; leftovers of a killed export are removed before the next attempt.

A file outside the exported packages (a file target, ``/pyproject.toml``) is fetched
from git on demand, one blob at a time (:mod:`.blobstore`): the export itself stays partial.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, partial
from pathlib import Path, PurePosixPath
from typing import Any

from ..model.config import RepoPin
from ..model.errors import PinError, SourceError, UnverifiedError, UpstreamFileError
from ..model.fsio import FileLock, LockTimeout, current_umask
from .treefiles import blob_id

#: How a cached file is opened: to read, as bytes (``O_BINARY`` where the system has it).
_READ = os.O_RDONLY | getattr(os, "O_BINARY", 0)

#: Bump when the exported layout or meta.json changes shape.
CACHE_FORMAT = 1


@dataclass(frozen=True)
class Tree:
    """An exported pinned tree.

    ``blobs`` maps each exported file to the git blob id of its bytes; for a
    distribution these are computed from the unpacked files and must be vouched
    for: :meth:`vouched` gives a tree whose :meth:`read_bytes` checks each file
    against the blob ids that the pin's listing and the lock record for the
    commit. ``listing`` is the full ``git ls-tree`` of the commit when git
    produced the tree. ``refused`` names archive entries that were not
    unpacked, with the reason.
    """

    root: Path
    url: str
    commit: str
    method: str
    dist: str | None
    blobs: Mapping[str, str]
    listing: Mapping[str, str] | None
    refused: Mapping[str, str]
    #: For a distribution: {path: blob id} known for the commit, and the pin's name for messages.
    vouchers: Mapping[str, str] | None = None
    pin_name: str = ""
    #: For a distribution: ``{"name": "<archive>: <member>", "text": headers}`` of its METADATA
    #: (``None`` for git, and for a tree exported before the metadata was kept).
    metadata: Mapping[str, str] | None = None
    #: Whether the vouchers hold the commit's whole listing (a file not in them is not the
    #: commit's).
    listed: bool = False

    def vouched(self, pin_name: str, blobs: Mapping[str, str], *, listed: bool = False) -> Tree:
        """The same tree, checking every file it serves against *blobs* when it is a distribution."""
        return dataclasses.replace(self, vouchers=blobs, pin_name=pin_name, listed=listed)

    def read_bytes(self, path: str, *, max_bytes: int | None = None, verify: bool = True) -> bytes:
        """Bytes of *path*, vouched for when the tree is a distribution (unless not *verify*).

        Raises :class:`UpstreamFileError` if absent, too large or damaged, and
        :class:`UnverifiedError` if a distribution's file is not the commit's.
        """
        if path not in self.blobs:
            why = self.refused.get(path)
            raise UpstreamFileError(
                f"{path} is not in the exported tree" + (f" ({why})" if why else "")
            )
        # A blob's path is git's (``/``-separated, no ``.`` or ``..`` part): the folder's name
        # and the path, joined as strings (pathlib, or os.path.join of each part, cost more than
        # the read itself: bench/languages.py).
        file = self._folder + path
        try:
            # The descriptor's own calls (a file object's open, and its size asked apart, cost
            # twice as much: bench/languages.py): its size, then one read of it all.
            fd = os.open(file, _READ)
            try:
                size = os.fstat(fd).st_size
                if max_bytes is not None and size > max_bytes:
                    raise UpstreamFileError(
                        f"{path} is {size:,} bytes, above the {max_bytes:,}-byte limit; not parsed"
                    )
                data = os.read(fd, size + 1)
                if len(data) > size:  # it grew since: read to its end (the check below refuses it)
                    data += b"".join(iter(partial(os.read, fd, 1 << 20), b""))
            finally:
                os.close(fd)
        except OSError as error:
            raise UpstreamFileError(
                f"{path}: the cached tree is damaged ({error.strerror}); "
                f"delete {self.root.parent} to export it again"
            ) from error
        if blob_id(data) != self.blobs[path]:
            # The cache is shared and writable: never trust a file that changed after export.
            raise UpstreamFileError(
                f"{path}: the cached copy differs from the exported blob "
                f"{self.blobs[path][:12]}; delete {self.root.parent} to export it again"
            )
        if verify and self.method == "dist" and self.vouchers is not None:
            self._verify(path)
        return data

    @cached_property
    def _folder(self) -> str:
        """The tree's folder with a separator after it, which a file's path follows."""
        return os.path.join(self.root, "")

    def _verify(self, path: str) -> None:
        """Check that the distribution's *path* is byte-identical to the pinned commit's."""
        assert self.vouchers is not None
        expected, actual, short = self.vouchers.get(path), self.blobs[path], self.commit[:7]
        if expected is None and self.listed:
            raise UnverifiedError(
                f"{path} from {self.dist} is not a file of {self.pin_name}@{short}: the commit's listing "
                "has no such file (the distribution added or generated it); it is never served"
            )
        if expected is None:
            raise UnverifiedError(
                f"{path} from {self.dist} is not vouched for: neither the lock nor a tree listing "
                f"records its blob at {short}; lock it from git or commit a 'listing'"
            )
        if expected != actual:
            raise UnverifiedError(
                f"{path} from {self.dist} differs from {self.pin_name}@{short}: "
                f"blob {actual[:12]}, the commit has {expected[:12]}; the cached tree {self.root.parent} "
                "is reused until you delete it"
            )

    def has(self, path: str) -> bool:
        """Whether *path* was exported."""
        return path in self.blobs


def cache_key(url: str, commit: str) -> str:
    """Directory name for (url, commit): readable slug plus a hash of the URL."""
    slug = (
        re.sub(r"[^A-Za-z0-9]+", "-", url.rstrip("/").rsplit("/", 1)[-1]).strip("-")[:40] or "repo"
    )
    digest = hashlib.sha256(url.encode()).hexdigest()[:12]
    return f"{slug}-{digest}-{commit}"


def content_key(pin: RepoPin) -> str:
    """What decides an export's content besides (URL, commit): the package directories, the distribution."""
    key: list[Any] = [sorted(pin.packages), pin.dist, pin.dist_file.name if pin.dist_file else None]
    # only then: the keys of trees exported before the option stay valid
    if pin.dist_format != "wheel":
        key.append(pin.dist_format)
    return json.dumps(key)


class TreeCache:
    """Pinned trees in a cache directory shared by processes and builds."""

    def __init__(self, root: Path, *, timeout: float) -> None:
        self.root = root
        self.timeout = timeout
        #: How many exports this object performed (for tests and reports).
        self.exports = 0

    def cached(self, url: str, commit: str, *, content: str | None = None) -> Tree | None:
        """The complete cached tree for (url, commit), without any git or network call.

        With *content* (see :func:`content_key`), only a tree exported for the same packages
        and distribution: a tree exported for another configuration is not this pin's.
        """
        place = self.root / "trees" / cache_key(url, commit)
        try:
            meta = json.loads((place / "meta.json").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        if meta.get("format") != CACHE_FORMAT or meta.get("commit") != commit:
            return None
        if content is not None and meta.get("content") != content:
            return None
        return Tree(
            root=place / "files",
            url=url,
            commit=commit,
            method=meta["method"],
            dist=meta.get("dist"),
            blobs=meta["blobs"],
            listing=meta.get("listing"),
            refused=meta.get("refused", {}),
            metadata=meta.get("metadata"),
        )

    def get(self, pin: RepoPin) -> Tree:
        """The tree of *pin*, trying its sources in order; one error names every attempt."""
        attempts: list[str] = []
        for kind in pin.sources:
            if kind == "cache":
                tree = self.cached(pin.url, pin.commit, content=content_key(pin))
                if tree is not None:
                    return tree
                attempts.append("cache: no exported tree yet")
                continue
            if kind == "dist" and not pin.dist:
                attempts.append("dist: no 'dist' configured")
                continue
            if kind == "git":
                from .gitexport import export_git as exporter  # git's machinery: cold exports only
            else:
                exporter = _export_dist
            try:
                return self._populate(pin, partial(exporter, pin, timeout=self.timeout))
            except PinError:
                raise  # the pin itself is wrong: another source would only hide it
            except SourceError as error:
                attempts.append(f"{kind}: {error}")
        raise SourceError(
            f"cannot obtain {pin.name}@{pin.short} ({pin.shown_url}); tried " + "; ".join(attempts)
        )

    def populate(self, pin: RepoPin, export: Callable[[Path], dict[str, Any]]) -> Tree:
        """Export *pin*'s tree with *export* (writing its files into the folder given) into the cache, once."""
        return self._populate(pin, export)

    def _populate(self, pin: RepoPin, export: Callable[[Path], dict[str, Any]]) -> Tree:
        key = cache_key(pin.url, pin.commit)
        (self.root / "locks").mkdir(parents=True, exist_ok=True)
        try:
            with FileLock(str(self.root / "locks" / f"{key}.lock"), timeout=self.timeout * 2):
                tree = self.cached(pin.url, pin.commit, content=content_key(pin))
                if tree is not None:  # another process exported it while we waited
                    return tree
                self._remove_leftovers(key)
                staging = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=self._tmp()))
                # mkdtemp makes it private; the cache is shared
                os.chmod(staging, 0o777 & ~current_umask())
                try:
                    meta = export(staging / "files")
                    meta.update(
                        format=CACHE_FORMAT,
                        url=pin.url,
                        commit=pin.commit,
                        content=content_key(pin),
                    )
                    (staging / "meta.json").write_text(json.dumps(meta, sort_keys=True), "utf-8")
                    final = self.root / "trees" / key
                    final.parent.mkdir(parents=True, exist_ok=True)
                    os.rename(staging, final)
                    self.exports += 1
                finally:
                    shutil.rmtree(staging, ignore_errors=True)
        except LockTimeout as error:
            raise SourceError(
                f"another build holds the cache lock for {key} for too long"
            ) from error
        except OSError as error:  # the cache became unwritable after the build checked it
            raise SourceError(
                f"cannot write the cache {self.root} ({error.strerror or error}); set "
                "SOURCE_ANCHORS_CACHE, or source_anchors_cache_dir in conf.py, to a writable "
                "directory"
            ) from error
        tree = self.cached(pin.url, pin.commit, content=content_key(pin))
        if tree is None:
            raise SourceError(f"the export of {key} did not produce a readable tree")
        return tree

    def _tmp(self) -> Path:
        place = self.root / "tmp"
        place.mkdir(parents=True, exist_ok=True)
        return place

    def _remove_leftovers(self, key: str) -> None:
        """Remove half-written exports of *key*; safe because we hold its lock."""
        # A tree here is unreadable (cached() said so): half-written, or of another format.
        shutil.rmtree(self.root / "trees" / key, ignore_errors=True)
        for leftover in self._tmp().glob(f"{key}.*"):
            shutil.rmtree(leftover, ignore_errors=True)


def parse_listing(text: str) -> dict[str, str]:
    """Parse ``git ls-tree -r`` output into {path: blob id} for regular files."""
    result: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        info, _, path = line.partition("\t")
        fields = info.split()
        if len(fields) == 3 and fields[1] == "blob":
            result[path] = fields[2]
    return result


def _export_dist(pin: RepoPin, files: Path, *, timeout: float) -> dict[str, Any]:
    """Get the pinned distribution (pip, wheels only; an sdist from the index, unbuilt; or a local archive).

    It is unpacked safely: an sdist's top folder (``name-version/``) is the repository root.
    """
    from .archive import (
        metadata_headers,
        unpack,
    )  # tarfile and zipfile, and pip, are loaded by exports only
    from .dist import download_wheel
    from .simpleindex import download_sdist

    assert pin.dist is not None
    download = files.parent / "download"
    download.mkdir(parents=True)
    if pin.dist_file is not None:
        shutil.copyfile(pin.dist_file, download / pin.dist_file.name)
    elif pin.dist_format == "sdist":
        download_sdist(pin.dist, download, timeout=timeout)
    else:
        download_wheel(pin.dist, download, timeout=timeout)
    archives = sorted(download.iterdir())
    if len(archives) != 1:
        raise SourceError(f"the download of {pin.dist} gave {len(archives)} files, expected one")
    files.mkdir(parents=True)
    unpacked = unpack(archives[0], files)
    headers = metadata_headers(archives[0])
    shutil.rmtree(download, ignore_errors=True)
    blobs = _onto_package_dirs(unpacked.blobs, files, pin)
    metadata = (
        {"name": f"{archives[0].name}: {headers[0]}", "text": headers[1]} if headers else None
    )
    return {
        "method": "dist",
        "dist": f"{pin.dist} ({archives[0].name})",
        "blobs": blobs,
        "refused": unpacked.refused,
        "listing": None,
        "metadata": metadata,
    }


def _onto_package_dirs(blobs: Mapping[str, str], files: Path, pin: RepoPin) -> dict[str, str]:
    """Move a wheel's top-level packages to the configured package directories (``click/`` to ``src/click/``).

    A wheel holds ``pkg/`` at its root whatever the repository's layout; the paths must be the
    repository's for links and for the blob ids of the commit to vouch for them.
    """
    moved = dict(blobs)
    for package in pin.packages:
        top = package.rsplit("/", 1)[-1]
        if package == top or not any(path.startswith(top + "/") for path in blobs):
            continue
        target = files.joinpath(*PurePosixPath(package).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(files / top, target)
        moved = {
            (package + path[len(top) :] if path.startswith(top + "/") else path): blob
            for path, blob in moved.items()
        }
    return moved
