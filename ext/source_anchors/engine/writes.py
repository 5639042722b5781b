"""What a build writes: new anchors into the lock, the lock rewritten, resolutions remembered (no Sphinx).

:class:`LockWrites` is one of :class:`~.engine.Engine`'s bases: the engine owns what a build changes
on disk, and these are the methods that change it.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import TYPE_CHECKING

from ..lock.lockfile import Lock, read_lock, write_lock
from ..model.changeclass import ChangeClass
from ..model.config import Settings
from ..model.records import LockRecord, Outcome, Status
from .rulemoves import resolver_settings
from .verdicts import UPDATE_COMMAND, relockable

if TYPE_CHECKING:
    from .caches import ResolutionCache, SuggestionCache
    from .indexcache import IndexCache

#: The end of the message when ``update`` cannot write the lock.
_UNCHANGED = (
    f"; it is unchanged: make {{folder}} writable, or run '{UPDATE_COMMAND}' in a writable checkout, and "
    "commit the lock"
)


class LockWrites:
    """Adds to, rewrites and remembers: the lock file and the caches a build leaves on disk."""

    settings: Settings
    lock: Lock
    _resolutions: ResolutionCache
    _suggestions: SuggestionCache
    _indexes: IndexCache

    def lock_new(self, outcomes: Iterable[Outcome]) -> int:
        """Add the ``new`` anchors among *outcomes* to the lock file; return how many were added.

        Nothing is written in a locked or quiet build: a locked build reports them instead.
        """
        if self.settings.locked or self.settings.quiet:
            return 0
        additions = {
            (o.target.repo, o.target.key): self._record(o)
            for o in outcomes
            if o.status is Status.new and o.target and o.commit and o.location
        }
        if not additions:
            return 0
        lock = self.lock.with_new(
            ((r, k, rec) for (r, k), rec in additions.items()), resolver_settings(self.settings)
        )
        if not write_lock(
            lock,
            fix=f", so {len(additions)} new anchor(s) are checked but not recorded; run the build "
            f"or '{UPDATE_COMMAND}' where the lock is writable, and commit the lock",
        ):
            return 0
        self.lock = lock
        return len(additions)

    def _record(self, outcome: Outcome) -> LockRecord:
        """The lock record of a resolved *outcome*: no commit for the docs' own repository.

        A file target of a pinned commit keeps its location's kind, so that the lock can answer for
        it where no source has the file (:func:`.unchanged.from_lock`).
        """
        assert outcome.target and outcome.commit and outcome.location
        pin = self.settings.repos.get(outcome.target.repo)
        own = pin is not None and pin.checkout is not None
        return LockRecord.at(
            "" if own else outcome.commit,
            outcome.location,
            kind=not own and outcome.target.is_file,
        )

    def relock(
        self,
        outcomes: Iterable[Outcome],
        *,
        accept: Set[ChangeClass] | None = None,
        kept: Set[tuple[str, str]] = frozenset(),
    ) -> list[tuple[str, tuple[str, str]]]:
        """Rewrite the lock from *outcomes* of every anchor of the book (``update``); return the changes.

        With *accept*, only the ``changed`` anchors of those classes are relocked (see
        :func:`relockable`); the others keep their record, as anchors that cannot be checked do.
        The records of *kept* (repository, key) are kept too (another front end's).
        """
        outcomes = list(outcomes)
        fresh = {
            (o.target.repo, o.target.key): self._record(o)
            for o in outcomes
            if o.target and o.commit and o.location and relockable(o, accept)
        }
        cited = {(o.target.repo, o.target.key) for o in outcomes if o.target} | set(kept)
        lock, changes = read_lock(self.settings.lock_path).relocked(
            fresh, cited, resolver_settings(self.settings)
        )
        write_lock(lock, fix=_UNCHANGED.format(folder=lock.path.parent))
        self.lock = lock
        return changes

    def remember(self, outcomes: Iterable[Outcome]) -> None:
        """Store this build's fresh resolutions and its suggestions (a parallel build's workers' too) on disk."""
        for outcome in outcomes:
            target = outcome.target
            if target is None or target.repo not in self.settings.repos:
                continue
            pin = self.settings.repos[target.repo]
            if outcome.suggestion is not None and outcome.locked is not None:
                self._suggestions.put(pin, target.key, outcome.locked, outcome.suggestion)
            if not outcome.fresh:
                continue
            if outcome.resolve_error is not None:
                self._resolutions.put(pin, target.key, outcome.resolve_error)
            elif (
                outcome.location is not None
                and outcome.status is not Status.error
                and outcome.commit == pin.commit
            ):
                self._resolutions.put(pin, target.key, outcome.location)
        self._resolutions.flush()
        self._suggestions.flush()
        self._indexes.flush()
