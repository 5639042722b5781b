"""The pinned trees of a book's repositories, obtained once each, with their listings and resolvers (no Sphinx)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..lock.lockfile import Lock
from ..model.config import RepoPin, Settings
from ..model.errors import SourceError, UpstreamFileError
from .blobstore import BlobStore
from .outside import OutsideFiles
from .trees import Tree, TreeCache, parse_listing

if TYPE_CHECKING:
    from ..drift.suggest import Suggester
    from ..resolve.resolver import Resolver


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
        #: Any file of a pinned commit, and the licences it declares (the licence notes).
        self.outside = OutsideFiles(self)

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
                    listing = self._listing(repo, tree)
                    tree = tree.vouched(pin.name, {**self.lock.blobs_for(repo, pin.commit), **listing},
                                        listed=bool(listing))
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

    def resolver(self, repo: str) -> Resolver:
        """The resolver of *repo*'s pinned tree."""
        if repo not in self._resolvers:
            from ..resolve.resolver import Resolver  # the resolution machinery: cold builds only

            tree, pin = self.tree(repo), self.pins[repo]
            listing = self._listing(repo, tree)

            def fetch(path: str) -> bytes:
                """A file the tree does not hold (outside the packages): see :meth:`.OutsideFiles.commit_file`."""
                try:
                    return self.outside.commit_file(repo, path)[0]
                except UpstreamFileError as error:
                    where = (f"{tree.dist} does not ship /{path}, which {pin.name}@{pin.short} has"
                             if tree.method == "dist" else f"/{path} is outside the exported packages of "
                             f"{pin.name}@{pin.short}")
                    raise UpstreamFileError(f"{where}, and no other source gave it: {error}") from None

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
            from ..resolve.resolver import Resolver

            tree = self.locked_tree(repo, commit)  # raises SourceError
            self._others[key] = Resolver(tree, self.pins[repo].with_commit(commit),
                                         max_file_bytes=self.settings.max_file_bytes)
        return self._others[key]

    def suggester(self, repo: str, commit: str) -> Suggester:
        """Suggestions for *repo*'s anchors locked at *commit* (:mod:`.suggest`); raises as :meth:`resolver_at`."""
        key = (repo, commit)
        if key not in self._suggesters:
            from ..drift.suggest import Suggester  # missing anchors only

            self._suggesters[key] = Suggester(self.resolver_at(repo, commit), self.resolver(repo),
                                             stored=self.blobs.stored)
        return self._suggesters[key]

    def modules_parsed(self) -> int:
        """Upstream modules parsed by this process so far (a lock's older trees, for drift and suggestions, too)."""
        return sum(resolver.modules_parsed for resolver in self._all_resolvers())

    def ast_parses(self) -> int:
        """``ast.parse`` calls made by this process's resolvers so far (older trees' too)."""
        return sum(resolver.ast_parses for resolver in self._all_resolvers())

    def _all_resolvers(self) -> list[Resolver]:
        return [*self._resolvers.values(), *self._others.values()]


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
