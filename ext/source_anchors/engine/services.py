"""What the engine serves the front ends beside checking: trees, files, blobs, licences, resolvers (no Sphinx).

:class:`Services` is one of :class:`~.engine.Engine`'s bases: the methods by which the Sphinx glue, the
CLI and the generated pages reach the stages the engine wires, so that none of them holds a
collaborator of the engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..model.config import SELF, ApiSettings, RepoPin, Settings
from ..model.errors import SourceError
from ..model.records import Location, Outcome
from ..model.target import Target, parse_target

if TYPE_CHECKING:
    from pathlib import Path

    from ..licences.declarations import Declarations
    from ..lock.lockfile import Lock
    from ..reading.compiled import CompiledStore
    from ..reading.language import Definition
    from ..resolve.factory import Resolvers
    from ..resolve.resolver import Resolver
    from ..sources.apiself import OwnSource
    from ..sources.outside import OutsideFiles, Sdist
    from ..sources.pinned import PinnedTrees
    from ..sources.trees import Tree, TreeCache
    from .indexcache import IndexCache


class Services:
    """Trees, files and resolvers of the pinned repositories, for the front ends."""

    settings: Settings
    lock: Lock
    #: Whether the lock file existed when the engine started.
    lock_exists: bool
    stats: dict[str, int]
    _cache: TreeCache
    _pinned: PinnedTrees
    _outside: OutsideFiles
    _resolvers: Resolvers
    _declarations: Declarations
    _indexes: IndexCache
    #: Why ``self`` names no repository, once asked (:meth:`own_pin`).
    _own_problem: str | None
    #: The own repository's files and blob ids, by commit (:meth:`own_listing`).
    _own_listings: dict[str, dict[str, str]]

    @property
    def pins(self) -> Mapping[str, RepoPin]:
        """The pinned repositories by name (the settings', overrides applied; ``self`` once named)."""
        return self.settings.repos

    def own_pin(self) -> RepoPin | str:
        """The pin ``self``, the git checkout holding the docs at HEAD, added to :attr:`pins`; or the problem.

        Made the first time a target names ``self`` (a repository configured under that name is
        the configuration's).
        """
        if SELF in self.pins:
            return self.pins[SELF]
        if self._own_problem is not None:
            return self._own_problem
        if self.settings.own is None:
            self._own_problem = "'self' names no repository here"
            return self._own_problem
        from ..sources.ownrepo import own_pin  # prose anchors into the docs' own repository only

        api = self.settings.api
        found = own_pin(
            self.settings.own,
            timeout=self.settings.timeout,
            url=api.url if api else None,
            host=api.host if api and api.host and "{" not in api.host else None,
            staged=self.settings.own_staged,
        )
        if isinstance(found, str):
            self._own_problem = found
            return found
        pin, self._own_listings[pin.commit] = found
        self.settings = dataclasses.replace(self.settings, repos={**self.settings.repos, SELF: pin})
        self._pinned.settings = self.settings
        return pin

    def own_listing(self, commit: str | None = None) -> dict[str, str]:
        """Every file of the docs' own repository at *commit* (HEAD: None) with its blob id; one ``git ls-tree``.

        Raises :class:`SourceError`; empty when ``self`` names no repository.
        """
        pin = self.own_pin()
        if isinstance(pin, str) or pin.checkout is None:
            return {}
        commit = commit or pin.commit
        if commit not in self._own_listings:
            from ..sources.ownrepo import listing_at

            self._own_listings[commit] = listing_at(
                pin.checkout, commit, timeout=self.settings.timeout
            )
        return self._own_listings[commit]

    def unchanged(self, target: Target) -> Outcome | None:
        """*target*'s ``ok`` from the lock alone when none of its files changed (``self`` only; :mod:`.unchanged`)."""
        from .unchanged import unchanged

        if target.repo != SELF:
            return None
        pin = self.own_pin()
        listing = self.own_listing() if not isinstance(pin, str) else {}
        return unchanged(target, lock=self.lock, settings=self.settings, pin=pin, listing=listing)

    def uncommitted(self, paths: Iterable[str]) -> list[str]:
        """Which of *paths*, files of ``self`` at HEAD, have uncommitted edits (staged or not), sorted.

        ``self`` is read at HEAD from git's objects, so what a page says of these files is checked
        against their committed text, not the one being edited. Empty where ``self`` is no checkout.
        """
        pin = self.pins.get(SELF)
        if pin is None or pin.checkout is None:
            return []
        from ..sources.apigit import changed_files  # git status, for the docs' own repository only

        return changed_files(pin.checkout, sorted(set(paths)), timeout=self.settings.timeout)

    def tree(self, repo: str) -> Tree:
        """The pinned tree of *repo* (see :meth:`PinnedTrees.tree`)."""
        return self._pinned.tree(repo)

    def listing(self, repo: str) -> dict[str, str]:
        """Every file of *repo*'s pinned commit with its blob id, as far as it is known."""
        return self._pinned.listing(repo)

    def commit_file(self, repo: str, path: str) -> tuple[bytes, str]:
        """The bytes of *path* at *repo*'s pinned commit, and where they came from (see :class:`OutsideFiles`)."""
        return self._outside.commit_file(repo, path)

    def blob(self, repo: str, path: str) -> bytes:
        """The bytes of *path* at *repo*'s pinned commit, asked of git alone (one blob)."""
        return self._pinned.blobs.get(self.pins[repo], self.listing(repo)[path])

    def sdist(self, repo: str) -> Sdist | SourceError:
        """*repo*'s source distribution, or why it cannot be had (see :meth:`OutsideFiles.sdist`)."""
        return self._outside.sdist(repo)

    @property
    def licences(self) -> Declarations:
        """The licences *repo*'s files declare and the third-party material they show (for the generated pages)."""
        return self._declarations

    def own_source(self, api: ApiSettings, *, confdir: Path) -> OwnSource | str:
        """The own repository's tree for ``"self"`` API links, or the problem (:func:`.apiself.own_source`)."""
        from ..sources.apiself import own_source

        return own_source(api, confdir=confdir, cache=self._cache)

    def compiled_store(self) -> CompiledStore:
        """Where the compiled bindings of a tree are kept between builds (:mod:`.indexcache`)."""
        return self._indexes

    def flush_indexes(self) -> None:
        """Store the module indexes parsed so far (a parallel build's reader, before it ends)."""
        self._indexes.flush()

    def resolve_at(self, repo: str, commit: str, key: str) -> Location:
        """Where target *key* of *repo* is at *commit* (raises :class:`ResolveError`, :class:`SourceError`)."""
        target = parse_target(f"{repo}:{key}", default_repo=None)
        return self._resolvers.resolver_at(repo, commit).resolve(target.path, target.matches)

    def lines_at(self, repo: str, commit: str, path: str) -> list[str]:
        """The lines of *path* at *repo*'s *commit*, read once (raises :class:`ResolveError`, :class:`SourceError`)."""
        return self._resolvers.resolver_at(repo, commit).file_lines(path)

    def definitions_at(self, repo: str, commit: str, path: str) -> list[Definition]:
        """The definitions of *path* at *repo*'s *commit* in its language, the file parsed once.

        Raises :class:`ResolveError`, :class:`SourceError` and
        :class:`~source_anchors.model.errors.MissingExtraError` (see :meth:`Resolver.definitions`).
        """
        return self._resolvers.resolver_at(repo, commit).definitions(path)

    def blob_at(self, repo: str, commit: str, path: str) -> str:
        """The blob id of *path* at *repo*'s *commit* (``""`` when the tree does not hold it)."""
        return self._resolvers.resolver_at(repo, commit).tree.blobs.get(path, "")

    def resolver(self, repo: str) -> Resolver:
        """The resolver of *repo*'s pinned tree."""
        return self._resolvers.resolver(repo)

    def modules_parsed(self) -> int:
        """Upstream modules parsed by this process so far."""
        return self._resolvers.modules_parsed()

    def work(self) -> dict[str, int]:
        """The work of this process so far: anchors resolved and answered by the cache, modules and parses.

        ``files_read`` counts the reads of source files' bytes, ``parses`` every parse of one
        (``ast.parse`` or a language's grammar; :meth:`parses` says of which files).
        """
        parses = self._resolvers.parses()
        return {
            "resolved": self.stats["resolved"],
            "cached": self.stats["cached"],
            "modules_parsed": self._resolvers.modules_parsed(),
            "ast_parses": self._resolvers.ast_parses(),
            "files_read": self._resolvers.files_read(),
            "parses": sum(parses.values()),
        }

    def parses(self) -> dict[tuple[str, str], int]:
        """The parses of each source file by this process so far, by (commit, path)."""
        return self._resolvers.parses()
