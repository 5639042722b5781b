"""The pinned trees of a book's repositories, obtained once each, with their listings and resolvers (no Sphinx)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .blobstore import BlobStore
from .config import RepoPin, Settings
from .errors import SourceError, UpstreamFileError
from .lock import Lock
from .sources import Tree, TreeCache, parse_listing

if TYPE_CHECKING:
    from .resolve import Resolver


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
        self._listings: dict[str, dict[str, str]] = {}

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

    def modules_parsed(self) -> int:
        """Upstream modules parsed by this process so far."""
        return sum(resolver.modules_parsed for resolver in self._resolvers.values())

    def ast_parses(self) -> int:
        """``ast.parse`` calls made by this process's resolvers so far."""
        return sum(resolver.ast_parses for resolver in self._resolvers.values())


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
