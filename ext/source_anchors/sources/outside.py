"""Any file of a pinned commit, outside the exported packages too, and its distribution's metadata (no Sphinx).

The licence notes read ``pyproject.toml``, ``setup.py``, every ``package.json``... of the commit
(:mod:`source_anchors.licences.declarations`).
The exported tree holds the packages only, so each file comes from the first source that has the
commit's bytes (checked against the blob id of the commit's listing): the tree, a kept blob, the
distribution's sdist (downloaded as a file, never built), git (one blob).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping

from ..model.config import RepoPin
from ..model.errors import SourceAnchorsError, SourceError, UpstreamFileError
from .pinned import PinnedTrees


@dataclasses.dataclass(frozen=True)
class Sdist:
    """A distribution's sdist: its *name*, the blob ids of its files outside the packages, its PKG-INFO headers."""

    name: str
    blobs: Mapping[str, str]
    metadata: Mapping[str, str] | None


class OutsideFiles:
    """Files of the pins of *trees*, outside the packages too, and their sdists; each remembered for the process."""

    def __init__(self, trees: PinnedTrees) -> None:
        self.trees = trees
        #: The sdist of a pin's ``dist`` by repository: the blob ids of its files and its PKG-INFO.
        self._sdists: dict[str, Sdist | SourceError] = {}
        #: A pin whose git source failed once: the file and the error (not tried again for every
        #: file).
        self._git_failed: dict[str, tuple[str, SourceError]] = {}

    def commit_file(self, repo: str, path: str) -> tuple[bytes, str]:
        """The bytes of any file *path* of *repo*'s pinned commit, and which source gave them.

        For the licence notes (``pyproject.toml``, every ``package.json``, ...). The sources, each
        checked against the blob id the commit's listing gives *path*: the exported tree (``tree``),
        a kept blob (``cache``), then the pin's ``sources`` in order: the distribution's sdist
        (``sdist``: downloaded as a file, never built, see :func:`.simpleindex.download_sdist`) and
        a one-blob fetch from git (``git``). Raises :class:`UpstreamFileError` saying why each
        failed.
        """
        pin = self.trees.pins[repo]
        blob = self.trees.listing(repo).get(path)
        if blob is None:
            raise UpstreamFileError(f"{path} is not in the commit's listing")
        why: list[str] = []
        try:
            tree = self.trees.tree(repo)
            if tree.has(path):
                return tree.read_bytes(path), "tree"
            why.append(f"the {tree.method} tree does not hold it")
        except SourceAnchorsError as error:
            why.append(f"tree: {error}")
        kept = self.trees.blobs.stored(blob)
        if kept is not None:
            return kept, "cache"
        for kind in pin.sources:
            if kind == "dist" and pin.dist:
                sdist = self.sdist(repo)
                if isinstance(sdist, SourceError):
                    why.append(f"sdist: {sdist}")
                elif path not in sdist.blobs:
                    why.append(f"the sdist {sdist.name} does not ship it")
                elif sdist.blobs[path] != blob:
                    why.append(f"the sdist's copy differs from the commit's blob {blob[:12]}")
                else:
                    data = self.trees.blobs.stored(blob)
                    if data is not None:
                        return data, "sdist"
                    why.append("the sdist's kept copy is gone from the cache")
            elif kind == "git":
                if repo in self._git_failed:
                    first, _error = self._git_failed[repo]
                    why.append(f"git: not tried again, it failed for {first}")
                    continue
                try:
                    return self.trees.blobs.get(pin, blob), "git"
                except SourceError as error:
                    self._git_failed[repo] = (path, error)
                    why.append(f"git: {error}")
        if "git" not in pin.sources:
            why.append(
                "the pin's 'sources' leave out git (add 'git' to take it from the git source)"
            )
        raise UpstreamFileError("; ".join(why))

    def metadata(self, repo: str) -> tuple[Mapping[str, str] | None, str]:
        """The distribution's METADATA (``name`` and ``text``), or None and why not.

        The wheel's when the tree is the distribution, else the sdist's PKG-INFO.
        """
        pin = self.trees.pins[repo]
        why = []
        try:
            tree = self.trees.tree(repo)
            if tree.method == "dist":
                if tree.metadata is not None:
                    return tree.metadata, ""
                why.append(
                    "the cached distribution tree was exported without it (source-anchors cache clear)"
                )
            else:
                why.append("the tree was exported by git")
        except SourceError as error:
            why.append(f"tree: {error}")
        if "dist" in pin.sources:
            sdist = self.sdist(repo)
            if isinstance(sdist, SourceError):
                why.append(f"sdist: {sdist}")
            elif sdist.metadata is not None:
                return sdist.metadata, ""
            else:
                why.append(f"the sdist {sdist.name} has no PKG-INFO")
        else:
            why.append("the pin's 'sources' leave out dist")
        return None, "; ".join(why)

    def sdist(self, repo: str) -> Sdist | SourceError:
        """The sdist of *repo*'s ``dist`` (downloaded once per process), or why it cannot be had."""
        if repo not in self._sdists:
            self._sdists[repo] = _get_sdist(self.trees, self.trees.pins[repo])
        return self._sdists[repo]


def _get_sdist(trees: PinnedTrees, pin: RepoPin) -> Sdist | SourceError:
    """The sdist, from its record in the cache (``sdists/``) when every file it vouches for is kept.

    A download keeps each file outside the packages whose blob id is in the commit's listing
    (:class:`.blobstore.BlobStore`) and records every such file's blob id, so that later builds
    neither download it again nor ask for a file it does not ship.
    """
    import hashlib
    import json
    import shutil
    import tempfile
    from pathlib import Path

    from ..model.errors import ArchiveError
    from .archive import metadata_headers, unpack
    from .simpleindex import download_sdist
    from .treefiles import is_package_module

    assert pin.dist is not None
    listing = set(trees.listing(pin.name).values())
    key = hashlib.sha256(f"{pin.url}\0{pin.commit}\0{pin.dist}".encode()).hexdigest()[:32]
    record = trees.cache.root / "sdists" / f"{key}.json"
    try:
        kept = json.loads(record.read_text("utf-8"))
        if all(
            trees.blobs.stored(blob) is not None
            for blob in kept["blobs"].values()
            if blob in listing
        ):
            return Sdist(name=kept["name"], blobs=kept["blobs"], metadata=kept.get("metadata"))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    tmp = trees.cache.root / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix="sdist.", dir=tmp))
    try:
        if pin.dist_file is not None:
            if pin.dist_file.name.endswith(".whl"):
                return SourceError(
                    f"the pin's 'dist' is the wheel {pin.dist_file.name}, not an sdist"
                )
            archive = pin.dist_file
        else:
            archive = download_sdist(pin.dist, staging, timeout=trees.cache.timeout)
        unpacked = unpack(archive, staging / "files")
        blobs = {
            path: blob
            for path, blob in unpacked.blobs.items()
            if not is_package_module(path, pin.packages)
        }
        for path, blob in blobs.items():
            if blob in listing:  # only the commit's bytes are ever kept
                trees.blobs.put((staging / "files" / path).read_bytes())
        headers = metadata_headers(archive)
        sdist = Sdist(
            name=archive.name,
            blobs=blobs,
            metadata={"name": f"{archive.name}: {headers[0]}", "text": headers[1]}
            if headers
            else None,
        )
        record.parent.mkdir(parents=True, exist_ok=True)
        written = staging / "record.json"
        written.write_text(
            json.dumps(
                {"name": sdist.name, "blobs": blobs, "metadata": sdist.metadata}, sort_keys=True
            ),
            "utf-8",
        )
        os.replace(written, record)
        return sdist
    except (SourceError, ArchiveError, OSError) as error:
        return SourceError(str(error))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
