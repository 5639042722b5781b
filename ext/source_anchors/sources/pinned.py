"""The pinned trees of a book's repositories and their listings, each obtained once (no Sphinx).

A tree provider and nothing more: resolvers are made from its trees by
:mod:`source_anchors.resolve.factory`, suggesters by :mod:`source_anchors.suggest.factory`, files
outside the packages come from :mod:`.outside`; the engine wires them together.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from functools import partial

from ..model.config import RepoPin, Settings
from ..model.errors import SourceError
from ..model.textlines import decode_source, split_lines
from .blobstore import BlobStore
from .trees import Tree, TreeCache, content_key, parse_listing


class PinnedTrees:
    """Trees and listings by repository name; a failure to obtain a tree is remembered too.

    *vouched* gives the blob ids that the lock (as the build started) records for a repository at a
    commit: with the pin's listing, they vouch for a distribution's files.
    """

    def __init__(
        self, settings: Settings, cache: TreeCache, vouched: Callable[[str, str], Mapping[str, str]]
    ) -> None:
        self.settings = settings
        self.cache = cache
        self.vouched = vouched
        #: Single files outside the exported packages, fetched from git when a file target names
        #: one.
        self.blobs = BlobStore(cache.root, timeout=cache.timeout)
        self._trees: dict[str, Tree | SourceError] = {}
        self._listings: dict[str, dict[str, str]] = {}
        #: Trees at other commits than the pinned one (a lock record's), or why not.
        self._locked: dict[tuple[str, str], Tree | SourceError] = {}
        #: The lines of files at a lock record's commit, by (repository, commit, path, blob).
        self._old_lines: dict[tuple[str, str, str, str], list[str] | None] = {}

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
                tree = self._get(self.pins[repo])
                _check_packages(self.pins[repo], tree)
                if tree.method == "dist":
                    pin = self.pins[repo]
                    listing = self._listing(repo, tree)
                    tree = tree.vouched(
                        pin.name,
                        {**self.vouched(repo, pin.commit), **listing},
                        listed=bool(listing),
                    )
                self._trees[repo] = tree
            except SourceError as error:
                self._trees[repo] = error
        found = self._trees[repo]
        if isinstance(found, SourceError):
            raise found
        return found

    def dist_summary(self, repo: str) -> str:
        """What is wrong with *repo*'s distribution as a whole: how many of its files the commit's blob ids refute.

        One message per repository (a release of another version differs in most files), naming the
        fix.
        """
        tree, pin = self.tree(repo), self.pins[repo]
        vouchers = tree.vouchers or {}
        differ = sorted(
            path for path, blob in tree.blobs.items() if vouchers.get(path, blob) != blob
        )
        unknown = sorted(path for path in tree.blobs if path not in vouchers)
        where = f"source_anchors_repos[{pin.name!r}]"
        if not differ:
            what = (
                "not in the commit's listing"
                if tree.listed
                else "not vouched for by the lock or a listing"
            )
            fix = "" if tree.listed else "; lock the anchors from git once, or commit a 'listing'"
            return (
                f"{pin.name}: {len(unknown)} of the {len(tree.blobs)} files of {pin.dist} are {what} "
                f"of {pin.name}@{pin.short} ({_some(unknown)}); anchors into them are not served{fix}"
            )
        compared = len(tree.blobs) - len(unknown)
        return (
            f"{pin.name}: {len(differ)} of the {compared} files of {pin.dist} that the listing of "
            f"{pin.name}@{pin.short} also has differ from it ({_some(differ)}): it is not the release of this "
            f"commit, and anchors into those files are not served; set {where}['dist'] to the release built "
            f"from {pin.short}, or pin the commit that release was built from ('source-anchors pin "
            f"{pin.name} TAG'); 'source-anchors update' cannot fix this"
        )

    def locked_tree(self, repo: str, commit: str) -> Tree:
        """The tree of *repo* at a lock record's *commit* (to compare a ``changed`` anchor's old lines).

        Any tree exported for that commit, whatever its packages or distribution, else one exported
        by git when the pin lists the ``git`` source (a distribution is of the pinned version only).
        It is not vouched for: the caller checks the lines it reads against the lock's sha256.
        Obtained once; a failure (:class:`SourceError`) is remembered too.
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

    def locked_lines(self, repo: str, commit: str, path: str, blob: str) -> list[str] | None:
        """The lines of *path* (blob *blob*) at *repo*'s *commit*, read once; None when neither tree nor store has it.

        From :meth:`locked_tree`, not vouched for; a file outside its packages from the blob store
        when it was fetched before. Raises :class:`SourceError` when the tree cannot be had, and
        :class:`UnicodeDecodeError` when the text is not Python source.
        """
        key = (repo, commit, path, blob)
        if key not in self._old_lines:
            tree = self.locked_tree(repo, commit)
            data = (
                tree.read_bytes(path, verify=False) if tree.has(path) else self.blobs.stored(blob)
            )
            self._old_lines[key] = None if data is None else split_lines(decode_source(data))
        return self._old_lines[key]

    def _locked_export(self, pin: RepoPin, commit: str) -> Tree | SourceError:
        found = self.cache.cached(pin.url, commit)
        if found is not None:
            return found
        if "git" not in pin.sources:
            return SourceError(
                f"{pin.name}@{commit[:7]} is not in the cache, and the pin's sources have no 'git'"
            )
        try:
            return self._get(dataclasses.replace(pin.with_commit(commit), sources=("git",)))
        except SourceError as error:
            return error

    def _get(self, pin: RepoPin) -> Tree:
        """*pin*'s tree from the cache's sources; the docs' own repository's from its checkout's objects."""
        if pin.checkout is None:
            return self.cache.get(pin)
        from .ownrepo import export_local  # the docs' own repository only

        found = self.cache.cached(pin.url, pin.commit, content=content_key(pin))
        return found or self.cache.populate(
            pin, partial(export_local, pin, timeout=self.cache.timeout)
        )

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


def _some(paths: list[str]) -> str:
    """The first few *paths*, for a message."""
    return ", ".join(paths[:3]) + (", …" if len(paths) > 3 else "")


def _check_packages(pin: RepoPin, tree: Tree) -> None:
    """Every configured package directory must hold files in the tree; else say where the package is."""
    files = list(tree.blobs) + list(tree.listing or ())
    for package in pin.packages:
        if f"{package}.py" in tree.blobs or any(
            path.startswith(package + "/") for path in tree.blobs
        ):
            continue
        name = package.rsplit("/", 1)[-1]
        found = sorted(
            {
                path[: -len("/__init__.py")]
                for path in files
                if path.endswith(f"{name}/__init__.py")
                and path != f"{package}/__init__.py"
                and (path == f"{name}/__init__.py" or path.endswith(f"/{name}/__init__.py"))
            }
        )
        hint = (
            f"; the package is at {', '.join(found[:3])}: set 'packages' to {found[:1]}"
            if found
            else ""
        )
        raise SourceError(
            f"{pin.name}@{pin.short}: the configured package directory {package!r} holds no file in "
            f"the {tree.method} tree{hint} (source_anchors_repos[{pin.name!r}]['packages'])"
        )
