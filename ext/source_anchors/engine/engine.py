"""Check targets against their pins and the lock: the core's one entry point (no Sphinx).

The engine owns what a build changes on disk: it adds new anchors to the lock
(:meth:`Engine.lock_new`) and stores fresh resolutions (:meth:`Engine.remember`).
The Sphinx glue and the CLI only pass it target texts and the outcomes it gave.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Set
from typing import TYPE_CHECKING

from ..drift.compare import Comparison, compare
from ..licences.declarations import Declarations
from ..lock.lockfile import Lock, read_lock, write_lock
from ..model.changeclass import ChangeClass
from ..model.config import SELF, ApiSettings, RepoPin, Settings
from ..model.errors import ResolveError, SourceAnchorsError, SourceError, TargetError
from ..model.records import Location, LockRecord, Outcome, Status, Suggestion
from ..model.subtypes import Subtype
from ..model.target import Target, parse_target
from ..resolve.factory import Resolvers
from ..sources.outside import OutsideFiles, Sdist
from ..sources.pinned import PinnedTrees
from ..sources.trees import Tree, TreeCache
from ..suggest.factory import Suggesters
from .caches import ResolutionCache, SuggestionCache
from .indexcache import IndexCache
from .rulemoves import reresolved, resolver_settings

if (
    TYPE_CHECKING
):  # the resolution machinery is imported by the resolver factory, for cold builds only
    from pathlib import Path

    from ..resolve.resolver import Resolver
    from ..sources.apiself import OwnSource

#: The command that relocks, as messages name it.
UPDATE_COMMAND = "source-anchors update"
#: The end of the message when ``update`` cannot write the lock.
_UNCHANGED = (
    f"; it is unchanged: make {{folder}} writable, or run '{UPDATE_COMMAND}' in a writable checkout, and "
    "commit the lock"
)


class Engine:
    """Resolves and checks targets; trees and parsed modules are reused across calls."""

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
        #: Anchors resolved by parsing, anchors answered by the resolution cache, and ``ast.parse``
        #: calls (at most one per upstream file), in this process.
        self.stats = {"resolved": 0, "cached": 0, "ast_parses": 0}

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
        )
        if isinstance(found, str):
            self._own_problem = found
            return found
        self.settings = dataclasses.replace(
            self.settings, repos={**self.settings.repos, SELF: found}
        )
        self._pinned.settings = self.settings
        return found

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

    def flush_indexes(self) -> None:
        """Store the module indexes parsed so far (a parallel build's reader, before it ends)."""
        self._indexes.flush()

    def resolve_at(self, repo: str, commit: str, key: str) -> Location:
        """Where target *key* of *repo* is at *commit* (raises :class:`ResolveError`, :class:`SourceError`)."""
        target = parse_target(f"{repo}:{key}", default_repo=None)
        return self._resolvers.resolver_at(repo, commit).resolve(target.path, target.matches)

    def lines_at(self, repo: str, commit: str, path: str) -> tuple[bytes, list[str]]:
        """The bytes and lines of *path* at *repo*'s *commit* (raises :class:`ResolveError`, :class:`SourceError`)."""
        resolver = self._resolvers.resolver_at(repo, commit)
        return resolver.files.data(path), resolver.file_lines(path)

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
        """The work of this process so far: anchors resolved and answered by the cache, modules and ast parses."""
        return {
            "resolved": self.stats["resolved"],
            "cached": self.stats["cached"],
            "modules_parsed": self._resolvers.modules_parsed(),
            "ast_parses": self._resolvers.ast_parses(),
        }

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

    def check(self, target: Target) -> Outcome:
        """Resolve *target* and compare it with the lock."""
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
            suggestion = self.suggest(target, locked) if locked is not None else None
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
            if (
                error.subtype is Subtype.unverified
            ):  # one cause for the whole repository: one warning
                return _unverified(self._pinned, target, error, locked)
            return Outcome(
                name,
                Status.error,
                message=f"{target}: {error}",
                subtype=error.subtype,
                target=target,
                commit=pin.commit,
                locked=locked,
            )
        status = _status(locked, location)
        moved = (
            reresolved(self.lock, self.settings, self._resolvers, pin, location, locked)
            if status is not Status.ok and locked
            else None
        )
        status = (
            Status.moved if moved else status
        )  # by other rules or for another Python: never silently
        change = (
            compare(self._resolvers, pin, location, locked)
            if status is Status.changed and locked
            else None
        )
        message, subtype = _verdict(self, status, target, location, locked, change, moved)
        whole = location.whole_file
        group = (
            "lock"
            if status is Status.new and subtype is not None and not self.lock_exists
            else None
        )
        return Outcome(
            name,
            status,
            message=message,
            subtype=subtype,
            target=target,
            commit=pin.commit,
            location=location,
            locked=locked,
            group=group,
            permalink=pin.permalink(
                location.path, None if whole else location.start, None if whole else location.end
            ),
            fresh=self.stats["cached"] == cached_before,
            change_class=change.kind if change else None,
            diff="\n".join(change.diff) if change else "",
        )

    def _at_commit(self, pin: RepoPin, record: LockRecord | None) -> LockRecord | None:
        """*record* with a commit: a ``self`` record names none, so the newest that holds its blob.

        HEAD when the file is still that blob (nothing is read from history then).
        """
        if record is None or record.commit or pin.checkout is None:
            return record
        commit: str | None = pin.commit
        if self.listing(pin.name).get(record.path) != record.blob:
            from ..sources.ownrepo import holding_commit  # changed anchors only

            commit = holding_commit(
                pin.checkout, pin.commit, record.path, record.blob, timeout=self.settings.timeout
            )
        return dataclasses.replace(record, commit=commit) if commit else record

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

    # -- what a build writes -------------------------------------------------

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
        """The lock record of a resolved *outcome*: no commit for the docs' own repository."""
        assert outcome.target and outcome.commit and outcome.location
        pin = self.pins.get(outcome.target.repo)
        own = pin is not None and pin.checkout is not None
        return LockRecord.at("" if own else outcome.commit, outcome.location)

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
            if target is None or target.repo not in self.pins:
                continue
            pin = self.pins[target.repo]
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


def _unverified(
    pinned: PinnedTrees, target: Target, error: SourceAnchorsError, locked: LockRecord | None
) -> Outcome:
    """A distribution's file that is not the commit's: the repository's summary, grouped into one warning."""
    pin = pinned.pins[target.repo]
    return Outcome(
        str(target),
        Status.error,
        message=f"{pinned.dist_summary(target.repo)}; here: {error}",
        subtype=error.subtype,
        target=target,
        commit=pin.commit,
        locked=locked,
        group=f"distribution of {pin.name}",
    )


def relockable(outcome: Outcome, accept: Set[ChangeClass] | None = None) -> bool:
    """Whether ``update`` (with ``--accept`` *accept*, when given) writes *outcome*'s current place to the lock.

    Every resolved anchor, except ``changed`` ones of a class not in *accept*: ``ok`` and ``moved``
    anchors hold the locked lines byte for byte, and ``new`` ones have no record to keep.
    """
    if outcome.status in (Status.missing, Status.error):
        return False
    return accept is None or outcome.status is not Status.changed or outcome.change_class in accept


def _status(record: LockRecord | None, location: Location) -> Status:
    if record is None:
        return Status.new
    if record.sha256 != location.sha256:
        return Status.changed
    same = (record.path, record.start, record.end) == (location.path, location.start, location.end)
    return Status.ok if same else Status.moved


def file_hint(engine: Engine, error: TargetError, default_repo: str | None) -> str:
    """*error*'s message, its leading-``/`` suggestion checked against the pinned tree.

    A path written from a package (``tomli/_parser.py``) is offered from the repository root
    when the package lives below it (``/src/tomli/_parser.py``); a path that names no file of
    the commit is offered as the form to use, and said to be missing.
    """
    assert error.file is not None
    message = str(error)
    try:
        target = parse_target(error.file, default_repo=default_repo)
        resolver = engine.resolver(target.repo) if target.repo in engine.pins else None
    except (SourceAnchorsError, KeyError):
        return message
    if resolver is None:
        return message
    first, _, rest = target.file.partition("/")
    tried = [
        target.file,
        *(
            f"{folder}/{rest}"
            for folder in engine.pins[target.repo].packages
            if folder.rpartition("/")[2] == first and folder != first
        ),
    ]
    found = next(
        (path for path in tried if path in resolver.listing or resolver.tree.has(path)), None
    )
    if found is None:
        return f"{message} (a path from the repository root; {target.file} is not a file at the pinned commit)"
    return message.replace(
        f"'{error.file}'", f"'{error.file.replace('/' + target.file, '/' + found, 1)}'"
    )


def _verdict(
    engine: Engine,
    status: Status,
    target: Target,
    location: Location,
    locked: LockRecord | None,
    change: Comparison | None,
    moved: str | None = None,
) -> tuple[str, Subtype | None]:
    """The message and warning subtype of a resolved target (*moved*: why the resolver moved it)."""
    why = location.explain()  # which binding rule applied, the other bindings' lines
    if status is Status.ok:
        return f"ok: {target} at {location.describe()}{why}", None
    if status is Status.new and engine.settings.locked:
        missing = (
            f": the lock file {engine.settings.lock_path} does not exist;"
            if not engine.lock_exists
            else ";"
        )
        return (
            f"new: {target} at {location.describe()}{why} is not in {engine.settings.lock_path.name} and "
            f"this build is locked{missing} run '{UPDATE_COMMAND}' and commit the lock"
        ), Subtype.new
    old = locked.describe() if locked else "(not locked)"
    head = f"{status} ({change.kind})" if change else f"{status}"
    # Against a lock record a whole module shows its lines too, or "L1–L467 → path" reads as a move.
    text = f"{head}: {target} {old} → {location.span() if locked else location.describe()}" + (
        why if status is Status.new else moved or ""
    )
    detail = change.short() if change else ""
    return text + ("\n" + detail if detail else ""), None if status is Status.new else Subtype(
        status.value
    )
