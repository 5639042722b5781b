"""The pinned trees of a book's repositories, obtained once each, with their listings and resolvers (no Sphinx)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .blobstore import BlobStore
from .config import RepoPin, Settings
from .declared import Declaration, NotRead
from .errors import SourceAnchorsError, SourceError, UpstreamFileError
from .lock import Lock
from .sources import Tree, TreeCache, parse_listing

if TYPE_CHECKING:
    from .resolve import Resolver
    from .suggest import Suggester


class PinnedTrees:
    """Trees, listings and resolvers by repository name; a failure to obtain a tree is remembered too.

    *lock* is the lock as the build started: its records at a pin's commit vouch for a
    distribution's files, beside the pin's listing.
    """

    def __init__(self, settings: Settings, cache: TreeCache, lock: Lock) -> None:
        self.settings = settings
        self.cache = cache
        self.lock = lock
        #: Single files outside the exported packages, fetched from git when a file target names one.
        self.blobs = BlobStore(cache.root, timeout=cache.timeout)
        self._trees: dict[str, Tree | SourceError] = {}
        self._resolvers: dict[str, Resolver] = {}
        #: Resolvers at other commits than the pinned one (the lock's, for suggestions), or why not.
        self._others: dict[tuple[str, str], Resolver] = {}
        self._suggesters: dict[tuple[str, str], Suggester] = {}
        self._listings: dict[str, dict[str, str]] = {}
        self._locked: dict[tuple[str, str], Tree | SourceError] = {}
        #: The sdist of a pin's ``dist`` by repository: its files outside the packages and its PKG-INFO.
        self._sdists: dict[str, Sdist | SourceError] = {}
        #: A pin whose git source failed once, with the error (not tried again for every file).
        self._git_failed: dict[str, tuple[str, SourceError]] = {}
        self._declared: dict[str, tuple[list[Declaration], list[NotRead]]] = {}

    @property
    def pins(self) -> Mapping[str, RepoPin]:
        """The pinned repositories by name."""
        return self.settings.repos

    def tree(self, repo: str) -> Tree:
        """The pinned tree of *repo*, obtained once (a failure is remembered too).

        A distribution's tree vouches for each file it serves with the blob ids that the
        pin's listing and the lock record for the commit.
        """
        if repo not in self._trees:
            try:
                tree = self.cache.get(self.pins[repo])
                _check_packages(self.pins[repo], tree)
                if tree.method == "dist":
                    pin = self.pins[repo]
                    tree = tree.vouched(pin.name, {**self.lock.blobs_for(repo, pin.commit),
                                                   **self._listing(repo, tree)})
                self._trees[repo] = tree
            except SourceError as error:
                self._trees[repo] = error
        found = self._trees[repo]
        if isinstance(found, SourceError):
            raise found
        return found

    def locked_tree(self, repo: str, commit: str) -> Tree:
        """The tree of *repo* at a lock record's *commit* (to compare a ``changed`` anchor's old lines).

        Any tree exported for that commit, whatever its packages or distribution, else one exported by
        git when the pin lists the ``git`` source (a distribution is of the pinned version only). It is
        not vouched for: the caller checks the lines it reads against the lock's sha256. Obtained once;
        a failure (:class:`SourceError`) is remembered too.
        """
        pin = self.pins[repo]
        if commit == pin.commit:
            return self.tree(repo)
        if (repo, commit) not in self._locked:
            self._locked[repo, commit] = self._locked_export(pin, commit)
        tree = self._locked[repo, commit]
        if isinstance(tree, SourceError):
            raise tree
        return tree

    def _locked_export(self, pin: RepoPin, commit: str) -> Tree | SourceError:
        found = self.cache.cached(pin.url, commit)
        if found is not None:
            return found
        if "git" not in pin.sources:
            return SourceError(f"{pin.name}@{commit[:7]} is not in the cache, and the pin's sources have no 'git'")
        try:
            return self.cache.get(dataclasses.replace(pin.with_commit(commit), sources=("git",)))
        except SourceError as error:
            return error

    def listing(self, repo: str) -> dict[str, str]:
        """Every file of the pinned commit with its blob id, as far as it is known."""
        return self._listing(repo, None)

    def _listing(self, repo: str, tree: Tree | None) -> dict[str, str]:
        if repo not in self._listings:
            pin = self.pins[repo]
            if pin.listing is not None:
                listing = parse_listing(pin.listing.read_text("utf-8"))
            else:
                tree = tree or self.tree(repo)
                listing = dict(tree.listing) if tree.listing is not None else {}
            self._listings[repo] = listing
        return self._listings[repo]

    def commit_file(self, repo: str, path: str) -> tuple[bytes, str]:
        """The bytes of any file *path* of *repo*'s pinned commit, and which source gave them.

        For the licence notes (``pyproject.toml``, every ``package.json``, ...). The sources, each
        checked against the blob id the commit's listing gives *path*: the exported tree (``tree``),
        a kept blob (``cache``), then the pin's ``sources`` in order: the distribution's sdist
        (``sdist``: downloaded as a file, never built, see :func:`.dist.download_sdist`) and a
        one-blob fetch from git (``git``). Raises :class:`UpstreamFileError` saying why each failed.
        """
        pin = self.pins[repo]
        blob = self.listing(repo).get(path)
        if blob is None:
            raise UpstreamFileError(f"{path} is not in the commit's listing")
        why: list[str] = []
        try:
            tree = self.tree(repo)
            if tree.has(path):
                return tree.read_bytes(path), "tree"
            why.append(f"the {tree.method} tree does not hold it")
        except SourceAnchorsError as error:
            why.append(f"tree: {error}")
        kept = self.blobs.stored(blob)
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
                    data = self.blobs.stored(blob)
                    if data is not None:
                        return data, "sdist"
                    why.append("the sdist's kept copy is gone from the cache")
            elif kind == "git":
                if repo in self._git_failed:
                    first, _error = self._git_failed[repo]
                    why.append(f"git: not tried again, it failed for {first}")
                    continue
                try:
                    return self.blobs.get(pin, blob), "git"
                except SourceError as error:
                    self._git_failed[repo] = (path, error)
                    why.append(f"git: {error}")
        if "git" not in pin.sources:
            why.append("the pin's 'sources' leave out git")
        raise UpstreamFileError("; ".join(why))

    def declared(self, repo: str) -> tuple[list[Declaration], list[NotRead]]:
        """The licences *repo*'s pinned commit declares (:mod:`.declared`), and the files not read.

        Every declaring file of the listing is read with :meth:`commit_file`; with a ``dist``, the
        distribution's METADATA too (the wheel's when the tree is the distribution, else the
        sdist's PKG-INFO). Computed once per process.
        """
        if repo not in self._declared:
            from .declared import collect, metadata_declarations

            found, unread = collect(self.listing(repo), lambda path: self.commit_file(repo, path)[0])
            pin = self.pins[repo]
            if pin.dist:
                metadata, why = self._metadata(repo)
                if metadata is not None:
                    found += metadata_declarations(metadata["name"], metadata["text"])
                else:
                    unread.append(NotRead(f"{pin.dist}: METADATA", why))
            self._declared[repo] = (found, unread)
        return self._declared[repo]

    def _metadata(self, repo: str) -> tuple[Mapping[str, str] | None, str]:
        pin = self.pins[repo]
        why = []
        try:
            tree = self.tree(repo)
            if tree.method == "dist":
                if tree.metadata is not None:
                    return tree.metadata, ""
                why.append("the cached distribution tree was exported without it (source-anchors cache clear)")
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
            self._sdists[repo] = self._get_sdist(self.pins[repo])
        return self._sdists[repo]

    def _get_sdist(self, pin: RepoPin) -> Sdist | SourceError:
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

        from .archive import metadata_headers, unpack
        from .dist import download_sdist
        from .errors import ArchiveError
        from .licences import is_package_module

        assert pin.dist is not None
        listing = set(self.listing(pin.name).values())
        key = hashlib.sha256(f"{pin.url}\0{pin.commit}\0{pin.dist}".encode()).hexdigest()[:32]
        record = self.cache.root / "sdists" / f"{key}.json"
        try:
            kept = json.loads(record.read_text("utf-8"))
            if all(self.blobs.stored(blob) is not None for blob in kept["blobs"].values() if blob in listing):
                return Sdist(name=kept["name"], blobs=kept["blobs"], metadata=kept.get("metadata"))
        except (OSError, ValueError, KeyError, TypeError):
            pass
        tmp = self.cache.root / "tmp"
        tmp.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix="sdist.", dir=tmp))
        try:
            if pin.dist_file is not None:
                if pin.dist_file.name.endswith(".whl"):
                    return SourceError(f"the pin's 'dist' is the wheel {pin.dist_file.name}, not an sdist")
                archive = pin.dist_file
            else:
                archive = download_sdist(pin.dist, staging, timeout=self.cache.timeout)
            unpacked = unpack(archive, staging / "files")
            blobs = {path: blob for path, blob in unpacked.blobs.items() if not is_package_module(path, pin.packages)}
            for path, blob in blobs.items():
                if blob in listing:  # only the commit's bytes are ever kept
                    self.blobs.put((staging / "files" / path).read_bytes())
            headers = metadata_headers(archive)
            sdist = Sdist(name=archive.name, blobs=blobs,
                          metadata={"name": f"{archive.name}: {headers[0]}", "text": headers[1]} if headers else None)
            record.parent.mkdir(parents=True, exist_ok=True)
            written = staging / "record.json"
            written.write_text(json.dumps({"name": sdist.name, "blobs": blobs, "metadata": sdist.metadata},
                                          sort_keys=True), "utf-8")
            os.replace(written, record)
            return sdist
        except (SourceError, ArchiveError, OSError) as error:
            return SourceError(str(error))
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def resolver(self, repo: str) -> Resolver:
        """The resolver of *repo*'s pinned tree."""
        if repo not in self._resolvers:
            from .resolve import Resolver  # the resolution machinery: cold builds only

            tree, pin = self.tree(repo), self.pins[repo]
            listing = self._listing(repo, tree)
            fetch = None
            if tree.method == "git":  # a distribution serves the files it ships, no others

                def fetch(path: str) -> bytes:
                    kept = self.blobs.stored(listing[path])
                    if kept is not None:
                        return kept
                    if "git" not in pin.sources:
                        raise UpstreamFileError(f"/{path} is outside the exported packages and {pin.name}'s "
                                                "'sources' leave out git, the one source that fetches it")
                    return self.blobs.get(pin, listing[path])

            self._resolvers[repo] = Resolver(tree, pin, max_file_bytes=self.settings.max_file_bytes,
                                             listing=listing, fetch=fetch)
        return self._resolvers[repo]

    def resolver_at(self, repo: str, commit: str) -> Resolver:
        """A resolver of *repo* at another *commit* (a lock's), on its :meth:`locked_tree`.

        Raises :class:`SourceError` when that tree cannot be had.
        """
        if commit == self.pins[repo].commit:
            return self.resolver(repo)
        key = (repo, commit)
        if key not in self._others:
            from .resolve import Resolver

            tree = self.locked_tree(repo, commit)  # raises SourceError
            self._others[key] = Resolver(tree, self.pins[repo].with_commit(commit),
                                         max_file_bytes=self.settings.max_file_bytes)
        return self._others[key]

    def suggester(self, repo: str, commit: str) -> Suggester:
        """Suggestions for *repo*'s anchors locked at *commit* (:mod:`.suggest`); raises as :meth:`resolver_at`."""
        key = (repo, commit)
        if key not in self._suggesters:
            from .suggest import Suggester  # missing anchors only

            self._suggesters[key] = Suggester(self.resolver_at(repo, commit), self.resolver(repo),
                                             stored=self.blobs.stored)
        return self._suggesters[key]

    def modules_parsed(self) -> int:
        """Upstream modules parsed by this process so far."""
        return sum(resolver.modules_parsed for resolver in self._resolvers.values())

    def ast_parses(self) -> int:
        """``ast.parse`` calls made by this process's resolvers so far."""
        return sum(resolver.ast_parses for resolver in self._resolvers.values())


@dataclasses.dataclass(frozen=True)
class Sdist:
    """A distribution's sdist: its *name*, the blob ids of its files outside the packages, its PKG-INFO headers."""

    name: str
    blobs: Mapping[str, str]
    metadata: Mapping[str, str] | None


def _check_packages(pin: RepoPin, tree: Tree) -> None:
    """Every configured package directory must hold files in the tree; else say where the package is."""
    files = list(tree.blobs) + list(tree.listing or ())
    for package in pin.packages:
        if f"{package}.py" in tree.blobs or any(path.startswith(package + "/") for path in tree.blobs):
            continue
        name = package.rsplit("/", 1)[-1]
        found = sorted({path[: -len("/__init__.py")] for path in files
                        if path.endswith(f"{name}/__init__.py") and path != f"{package}/__init__.py"
                        and (path == f"{name}/__init__.py" or path.endswith(f"/{name}/__init__.py"))})
        hint = f"; the package is at {', '.join(found[:3])}: set 'packages' to {found[:1]}" if found else ""
        raise SourceError(f"{pin.name}@{pin.short}: the configured package directory {package!r} holds no file in "
                          f"the {tree.method} tree{hint} (source_anchors_repos[{pin.name!r}]['packages'])")
