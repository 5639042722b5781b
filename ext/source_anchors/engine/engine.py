"""Check targets against their pins and the lock: the core's one entry point (no Sphinx).

The engine owns what a build changes on disk: it adds new anchors to the lock
(:meth:`Engine.lock_new`) and stores fresh resolutions (:meth:`Engine.remember`).
The Sphinx glue and the CLI only pass it target texts and the outcomes it gave.
"""

from __future__ import annotations

from ..licences.declarations import Declarations
from ..lock.lockfile import Lock, read_lock
from ..model.config import SELF, RepoPin, Settings
from ..model.errors import (
    ResolveError,
    SourceAnchorsError,
    SourceError,
    TargetError,
    UpstreamFileError,
)
from ..model.records import Location, LockRecord, Outcome, Status, Suggestion
from ..model.subtypes import Subtype
from ..model.target import Target, parse_target
from ..resolve.factory import Resolvers
from ..sources.outside import OutsideFiles
from ..sources.pinned import PinnedTrees
from ..sources.trees import TreeCache
from ..suggest.factory import Suggesters
from .caches import ResolutionCache, SuggestionCache
from .indexcache import IndexCache
from .verdicts import UPDATE_COMMAND, Judge, _unverified, file_hint, relockable
from .writes import LockWrites

__all__ = ["UPDATE_COMMAND", "Engine", "file_hint", "relockable"]


class Engine(Judge, LockWrites):
    """Resolves and checks targets; trees and parsed modules are reused across calls.

    What it serves the front ends besides is :class:`~.services.Services`' (:class:`~.verdicts.Judge`'s
    base); the verdict of a location against the lock, :class:`~.verdicts.Judge`'s; what a build
    writes, :class:`~.writes.LockWrites`'.
    """

    def __init__(self, settings: Settings, *, lock: Lock | None = None) -> None:
        self.settings = settings
        self.lock = lock if lock is not None else read_lock(settings.lock_path)
        #: Whether the lock file existed when the engine started (a locked build without one says so
        #: once).
        self.lock_exists = lock is not None or settings.lock_path.exists()
        self._cache = TreeCache(settings.cache_dir, timeout=settings.timeout)
        self._resolutions = ResolutionCache(settings.cache_dir, python=str(settings.python))
        self._suggestions = SuggestionCache(settings.cache_dir, python=str(settings.python))
        # The stages, wired once: trees (with the lock as the build started vouching for a
        # distribution's files), files outside the packages, resolvers at a commit, suggesters,
        # declared licences.
        self._pinned = PinnedTrees(settings, self._cache, self.lock.blobs_for)
        self._outside = OutsideFiles(self._pinned)
        # A resolver reads the module indexes of its commit and of the lock's commits
        # (:mod:`.indexcache`).
        self._indexes = IndexCache(settings.cache_dir)
        self._resolvers = Resolvers(
            self._pinned,
            self._outside,
            max_file_bytes=settings.max_file_bytes,
            python=settings.python,
            stores=lambda pin: self._indexes.store(pin, self.lock.commits(pin.name)),
        )
        self._suggesters = Suggesters(
            self._resolvers, self._pinned.blobs.stored, lock=self.lock, timeout=settings.timeout
        )
        self._declarations = Declarations(self._outside)
        #: Why ``self`` names no repository, once asked (:meth:`own_pin`).
        self._own_problem: str | None = None
        self._own_listings: dict[str, dict[str, str]] = {}
        #: Anchors resolved by parsing, anchors answered by the resolution cache, and ``ast.parse``
        #: calls (at most one per upstream file), in this process.
        self.stats = {"resolved": 0, "cached": 0, "ast_parses": 0}

    # -- checking ------------------------------------------------------------

    def check_text(
        self, text: str, *, default_repo: str | None, default_from: str | None = None
    ) -> Outcome:
        """Parse a target as an author wrote it, then :meth:`check` it.

        *default_from* says where *default_repo* came from (for the message when it is unknown).
        """
        try:
            target = parse_target(text, default_repo=default_repo)
        except TargetError as error:
            message = file_hint(self, error, default_repo) if error.file else str(error)
            return Outcome(text.strip(), Status.error, message=message, subtype=error.subtype)
        if target.defaulted and default_from and target.repo not in (*self.pins, SELF):
            return Outcome(
                str(target),
                Status.error,
                target=target,
                subtype=Subtype.target,
                message=f"unknown repository {target.repo!r} named by {default_from}, for {target}; "
                f"configured: {', '.join(sorted(self.pins)) or 'none'}",
            )
        return self.check(target)

    def check(self, target: Target, *, suggest: bool = True) -> Outcome:
        """Resolve *target* and compare it with the lock.

        *suggest*: whether a missing target with a lock record is given a suggestion (not when the
        record is an API link's compiled definition, which Python's suggestions cannot find).
        """
        pin = self.pins.get(target.repo)
        if pin is None and target.repo == SELF:
            own = self.own_pin()
            if isinstance(own, str):
                return Outcome(
                    str(target), Status.error, target=target, subtype=Subtype.source, message=own
                )
            pin = own
        if pin is None:
            return Outcome(
                str(target),
                Status.error,
                target=target,
                subtype=Subtype.target,
                message=f"unknown repository {target.repo!r} in {target}; "
                f"configured: {', '.join(sorted(self.pins)) or 'none'}",
            )
        name, recorded = str(target), self.lock.get(target.repo, target.key)
        locked = self._at_commit(pin, recorded)
        cached_before = self.stats["cached"]
        try:
            location = self._locate(pin, target)
        except ResolveError as error:
            fresh = self.stats["cached"] == cached_before
            suggestion = self.suggest(target, locked) if locked is not None and suggest else None
            hint = f"; suggestion: {suggestion.describe()}" if suggestion else ""
            return Outcome(
                name,
                Status.missing,
                message=f"missing: {target}: {error}{hint}",
                subtype=error.subtype,
                target=target,
                commit=pin.commit,
                locked=locked,
                resolve_error=str(error),
                fresh=fresh,
                suggestion=suggestion,
            )
        except SourceError as error:
            return Outcome(
                name,
                Status.error,
                message=str(error),
                subtype=error.subtype,
                target=target,
                commit=pin.commit,
                locked=locked,
                group=f"repository {pin.name}",
            )
        except SourceAnchorsError as error:
            fix = ""
            if isinstance(error, UpstreamFileError):
                # No source here has the file: the lock answers when it locked it at this commit.
                known = self._from_lock(pin, target, str(error))
                if known is not None:
                    return known
                fix = (
                    f"; run '{UPDATE_COMMAND}' once where git reaches {pin.url} and commit the "
                    "lock: a file target locked at the pinned commit by this release is answered "
                    "from the lock where its file cannot be had"
                )
            # one cause for the whole repository: one warning
            if error.subtype is Subtype.unverified:
                return _unverified(self._pinned, target, error, locked)
            return Outcome(
                name,
                Status.error,
                message=f"{target}: {error}{fix}",
                subtype=error.subtype,
                target=target,
                commit=pin.commit,
                locked=locked,
            )
        return self._judged(
            pin, target, locked, location, fresh=self.stats["cached"] == cached_before
        )

    def _from_lock(self, pin: RepoPin, target: Target, why: str) -> Outcome | None:
        """*target*'s outcome from the lock where no source has its file (:func:`.unchanged.from_lock`)."""
        from .unchanged import from_lock

        try:
            listing = self.listing(target.repo)
        except SourceAnchorsError:
            return None
        return from_lock(
            target, lock=self.lock, settings=self.settings, pin=pin, listing=listing, why=why
        )

    def suggest(self, target: Target, locked: LockRecord) -> Suggestion | None:
        """Where the locked lines of *target*, missing now, probably went (see :mod:`source_anchors.suggest.suggester`).

        None when there is no suggestion or no tree of the lock's commit
        (:meth:`.Resolvers.resolver_at`). Both answers are remembered (:class:`.SuggestionCache`); a
        tree that could not be had is not.
        """
        pin = self.pins[target.repo]
        known, suggestion = self._suggestions.get(pin, target.key, locked)
        if known:
            return suggestion
        try:
            suggestion = self._suggesters.suggester(target.repo, locked.commit).suggest(
                target, locked
            )
        except SourceAnchorsError:
            return None
        self._suggestions.put(pin, target.key, locked, suggestion)
        return suggestion

    def _locate(self, pin: RepoPin, target: Target) -> Location:
        """The location of *target*, from the resolution cache when it knows it."""
        cached = self._resolutions.get(pin, target.key)
        if isinstance(cached, Location):
            self.stats["cached"] += 1
            return cached
        if isinstance(cached, str):
            self.stats["cached"] += 1
            raise ResolveError(cached)
        resolver = self.resolver(target.repo)  # a tree that cannot be obtained resolves nothing
        self.stats["resolved"] += 1
        try:
            return resolver.resolve(target.path, target.matches)
        finally:
            self.stats["ast_parses"] = self._resolvers.ast_parses()
