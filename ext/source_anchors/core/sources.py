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
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from .config import RepoPin
from .errors import GitError, PinError, SourceError, UnverifiedError, UpstreamFileError
from .lock import current_umask

#: Bump when the exported layout or meta.json changes shape.
CACHE_FORMAT = 1
_REGULAR_MODES = {"100644", "100755"}


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
    #: Whether the vouchers hold the commit's whole listing (a file not in them is not the commit's).
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
            raise UpstreamFileError(f"{path} is not in the exported tree" + (f" ({why})" if why else ""))
        file = self.root.joinpath(*PurePosixPath(path).parts)
        try:
            size = file.lstat().st_size
            if max_bytes is not None and size > max_bytes:
                raise UpstreamFileError(f"{path} is {size:,} bytes, above the {max_bytes:,}-byte limit; not parsed")
            data = file.read_bytes()
        except OSError as error:
            raise UpstreamFileError(f"{path}: the cached tree is damaged ({error.strerror}); "
                                    f"delete {self.root.parent} to export it again") from error
        if blob_id(data) != self.blobs[path]:
            # The cache is shared and writable: never trust a file that changed after export.
            raise UpstreamFileError(f"{path}: the cached copy differs from the exported blob "
                                    f"{self.blobs[path][:12]}; delete {self.root.parent} to export it again")
        if verify and self.method == "dist" and self.vouchers is not None:
            self._verify(path)
        return data

    def _verify(self, path: str) -> None:
        """Check that the distribution's *path* is byte-identical to the pinned commit's."""
        assert self.vouchers is not None
        expected, actual, short = self.vouchers.get(path), self.blobs[path], self.commit[:7]
        if expected is None and self.listed:
            raise UnverifiedError(
                f"{path} from {self.dist} is not a file of {self.pin_name}@{short}: the commit's listing "
                "has no such file (the distribution added or generated it); it is never served")
        if expected is None:
            raise UnverifiedError(
                f"{path} from {self.dist} is not vouched for: neither the lock nor a tree listing "
                f"records its blob at {short}; lock it from git or commit a 'listing'")
        if expected != actual:
            raise UnverifiedError(
                f"{path} from {self.dist} differs from {self.pin_name}@{short}: "
                f"blob {actual[:12]}, the commit has {expected[:12]}; the cached tree {self.root.parent} "
                "is reused until you delete it")

    def has(self, path: str) -> bool:
        """Whether *path* was exported."""
        return path in self.blobs


def blob_id(data: bytes) -> str:
    """The git blob id of *data* (what ``git hash-object`` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def cache_key(url: str, commit: str) -> str:
    """Directory name for (url, commit): readable slug plus a hash of the URL."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", url.rstrip("/").rsplit("/", 1)[-1]).strip("-")[:40] or "repo"
    digest = hashlib.sha256(url.encode()).hexdigest()[:12]
    return f"{slug}-{digest}-{commit}"


def content_key(pin: RepoPin) -> str:
    """What decides an export's content besides (URL, commit): the package directories, the distribution."""
    key: list[Any] = [sorted(pin.packages), pin.dist, pin.dist_file.name if pin.dist_file else None]
    if pin.dist_format != "wheel":  # only then: the keys of trees exported before the option stay valid
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
        return Tree(root=place / "files", url=url, commit=commit, method=meta["method"],
                    dist=meta.get("dist"), blobs=meta["blobs"], listing=meta.get("listing"),
                    refused=meta.get("refused", {}), metadata=meta.get("metadata"))

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
            exporter = _export_git if kind == "git" else _export_dist
            try:
                return self._populate(pin, partial(exporter, pin, timeout=self.timeout))
            except PinError:
                raise  # the pin itself is wrong: another source would only hide it
            except SourceError as error:
                attempts.append(f"{kind}: {error}")
        raise SourceError(f"cannot obtain {pin.name}@{pin.short} ({pin.url}); tried "
                          + "; ".join(attempts))

    def _populate(self, pin: RepoPin, export: Callable[[Path], dict[str, Any]]) -> Tree:
        from filelock import FileLock, Timeout  # only an export takes the lock; a warm build never does

        key = cache_key(pin.url, pin.commit)
        (self.root / "locks").mkdir(parents=True, exist_ok=True)
        try:
            with FileLock(str(self.root / "locks" / f"{key}.lock"), timeout=self.timeout * 2):
                tree = self.cached(pin.url, pin.commit, content=content_key(pin))
                if tree is not None:  # another process exported it while we waited
                    return tree
                self._remove_leftovers(key)
                staging = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=self._tmp()))
                os.chmod(staging, 0o777 & ~current_umask())  # mkdtemp makes it private; the cache is shared
                try:
                    meta = export(staging / "files")
                    meta.update(format=CACHE_FORMAT, url=pin.url, commit=pin.commit, content=content_key(pin))
                    (staging / "meta.json").write_text(json.dumps(meta, sort_keys=True), "utf-8")
                    final = self.root / "trees" / key
                    final.parent.mkdir(parents=True, exist_ok=True)
                    os.rename(staging, final)
                    self.exports += 1
                finally:
                    shutil.rmtree(staging, ignore_errors=True)
        except Timeout as error:
            raise SourceError(f"another build holds the cache lock for {key} for too long") from error
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


def wanted(path: str, pin: RepoPin) -> bool:
    """Whether *path* belongs in the export: under a package, or a root licence file."""
    from .licences import is_root_licence  # exports only: a warm build never needs the rules

    if is_root_licence(path):
        return True
    return any(path == pkg or path.startswith(pkg + "/") for pkg in pin.packages)


#: How git servers refuse a commit they do not have (git's own daemon and file remotes; GitHub, GitLab).
_NO_SUCH_COMMIT = ("not our ref", "unadvertised object", "couldn't find remote ref", "no such remote ref")


def _export_git(pin: RepoPin, files: Path, *, timeout: float) -> dict[str, Any]:
    """Fetch one commit shallowly without blobs, then fetch and write only wanted blobs."""
    from . import proc  # the subprocess machinery is loaded by exports only
    repo = files.parent / "repo.git"
    repo.mkdir(parents=True)

    def g(*args: str, stdin: bytes | None = None) -> bytes:
        return proc.git(list(args), cwd=repo, stdin=stdin, timeout=timeout)

    try:
        init_partial(g, pin.url)
        try:
            g("-c", "http.lowSpeedLimit=1000", "-c", "http.lowSpeedTime=30", "fetch", "--quiet",
              "--depth=1", "--filter=blob:none", "--no-tags", "origin", "--end-of-options", pin.commit)
        except GitError as error:
            said = next((sign for sign in _NO_SUCH_COMMIT if sign in str(error)), None)
            if said is None:
                raise
            raise SourceError(f"the remote has no commit {pin.commit}: a commit of another repository, a typo, or "
                              f"not pushed yet? (git: {said})") from error
        kind = g("cat-file", "-t", pin.commit).decode().strip()
        if kind != "commit":
            peeled = g("rev-parse", "--verify", "--end-of-options", f"{pin.commit}^{{commit}}").decode().strip()
            raise PinError(f"{pin.name}: 'commit' {pin.commit} is an annotated tag object, not a commit; "
                           f"pin the commit it points to: {peeled}")
        listing = _parse_ls_tree(g("ls-tree", "-r", "-z", "--full-tree", pin.commit, "--"))
        need = {path: blob for path, (mode, blob) in listing.items()
                if mode in _REGULAR_MODES and wanted(path, pin)}
        contents = fetch_blobs(g, set(need.values())) if need else {}
    except GitError as error:
        raise SourceError(str(error)) from error
    finally:
        shutil.rmtree(repo, ignore_errors=True)
    # Every link and submodule of the commit, so that a file target outside the packages names it too.
    refused = {path: "symbolic link (never followed)" if mode == "120000" else "submodule (not a file)"
               for path, (mode, _) in listing.items() if mode in ("120000", "160000")}
    for path, blob in need.items():
        target = files.joinpath(*PurePosixPath(path).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(contents[blob])
    return {"method": "git", "dist": None, "blobs": need, "refused": refused,
            "listing": {path: blob for path, (mode, blob) in listing.items() if mode != "040000"}}


def init_partial(g: Callable[..., bytes], url: str) -> None:
    """Make the bare repository *g* runs in a partial clone of *url* (blobs fetched only when asked for)."""
    g("init", "--bare", "--quiet")
    for key, value in (("core.repositoryformatversion", "1"), ("extensions.partialClone", "origin"),
                       ("remote.origin.url", url), ("remote.origin.promisor", "true"),
                       ("remote.origin.partialclonefilter", "blob:none")):
        g("config", key, value)


def fetch_blobs(g: Callable[..., bytes], blobs: set[str]) -> dict[str, bytes]:
    """Fetch exactly the blobs *blobs* by id (no negotiation, no history) and return their checked bytes."""
    oids = "".join(f"{blob}\n" for blob in sorted(blobs)).encode()
    g("-c", "fetch.negotiationAlgorithm=noop", "fetch", "--quiet", "--no-tags",
      "--no-write-fetch-head", "--recurse-submodules=no", "--filter=blob:none", "--stdin",
      "origin", stdin=oids)
    return _cat_blobs(g("cat-file", "--batch", stdin=oids))


def _parse_ls_tree(raw: bytes) -> dict[str, tuple[str, str]]:
    entries: dict[str, tuple[str, str]] = {}
    for record in raw.split(b"\0"):
        if not record:
            continue
        info, _, path = record.decode("utf-8", "surrogateescape").partition("\t")
        mode, _kind, blob = info.split()
        if path.startswith("/") or ".." in path.split("/"):
            continue  # git never records these; refuse them all the same
        entries[path] = (mode, blob)
    return entries


def _cat_blobs(raw: bytes) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    pos = 0
    while pos < len(raw):
        header_end = raw.index(b"\n", pos)
        oid, kind, size = raw[pos:header_end].decode().split()
        start = header_end + 1
        data = raw[start:start + int(size)]
        if kind != "blob" or blob_id(data) != oid:
            raise SourceError(f"git returned unexpected content for blob {oid}")
        out[oid] = data
        pos = start + int(size) + 1
    return out


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
    from .archive import metadata_headers, unpack  # tarfile and zipfile, and pip, are loaded by exports only
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
    metadata = {"name": f"{archives[0].name}: {headers[0]}", "text": headers[1]} if headers else None
    return {"method": "dist", "dist": f"{pin.dist} ({archives[0].name})", "blobs": blobs,
            "refused": unpacked.refused, "listing": None, "metadata": metadata}


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
        moved = {(package + path[len(top):] if path.startswith(top + "/") else path): blob
                 for path, blob in moved.items()}
    return moved

