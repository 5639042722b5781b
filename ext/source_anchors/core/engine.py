"""Check targets against their pins and the lock: the core's one entry point (no Sphinx)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from .config import RepoPin, Settings
from .errors import ResolveError, SourceAnchorsError, SourceError, UnverifiedError, UpstreamFileError
from .lock import Lock, Record, read_lock
from .rescache import ResolutionCache
from .resolve import Location, Resolver
from .sources import Tree, TreeCache, parse_listing
from .target import Target
from .textlines import decode_source, split_lines

#: Statuses of an anchor compared with the lock, plus ``error`` for anchors that cannot be checked.
STATUSES = ("ok", "moved", "changed", "missing", "new", "error")
_DIFF_LINES = 12


@dataclass(frozen=True)
class Outcome:
    """The result of checking one target: status, location now, record in the lock, message."""

    target: Target
    status: str
    location: Location | None = None
    record: Record | None = None
    message: str = ""
    permalink: str | None = None
    #: For ``error``: which kind (``target``, ``source``, ``upstream``, ``unverified``).
    error_kind: str | None = None
    #: For ``missing``: why the target did not resolve (cached with the resolution).
    resolve_error: str | None = None
    #: Whether the location (or the failure) was computed now, not read from the resolution cache.
    fresh: bool = False

    def change(self) -> str:
        """``old → new`` location text for messages."""
        old = self.record.describe() if self.record else "(not locked)"
        new = self.location.describe() if self.location else "(gone)"
        return f"{old} → {new}"


class Engine:
    """Resolves and checks targets; trees and parsed modules are reused across calls."""

    def __init__(self, settings: Settings, *, lock: Lock | None = None,
                 pins: Mapping[str, RepoPin] | None = None) -> None:
        self.settings = settings
        self.pins = dict(pins if pins is not None else settings.repos)
        self.lock = lock if lock is not None else read_lock(settings.lock_path)
        self.cache = TreeCache(settings.cache_dir, timeout=settings.timeout)
        self._trees: dict[str, Tree | SourceError] = {}
        self._resolvers: dict[str, Resolver] = {}
        self._listings: dict[str, dict[str, str]] = {}
        self.resolutions = ResolutionCache(settings.cache_dir)
        #: Anchors resolved by parsing, and anchors answered by the resolution cache, in this process.
        self.stats = {"resolved": 0, "cached": 0}

    def tree(self, repo: str) -> Tree:
        """The pinned tree of *repo*, obtained once (a failure is remembered too)."""
        if repo not in self._trees:
            try:
                self._trees[repo] = self.cache.get(self.pins[repo])
            except SourceError as error:
                self._trees[repo] = error
        found = self._trees[repo]
        if isinstance(found, SourceError):
            raise found
        return found

    def listing(self, repo: str) -> dict[str, str]:
        """Every file of the pinned commit with its blob id, as far as it is known."""
        if repo not in self._listings:
            pin = self.pins[repo]
            listing: dict[str, str] = {}
            if pin.listing is not None:
                listing = parse_listing(pin.listing.read_text("utf-8"))
            else:
                tree = self.tree(repo)
                listing = dict(tree.listing) if tree.listing is not None else {}
            self._listings[repo] = listing
        return self._listings[repo]

    def resolver(self, repo: str) -> Resolver:
        """The resolver of *repo*'s pinned tree."""
        if repo not in self._resolvers:
            tree = self.tree(repo)
            self._resolvers[repo] = Resolver(
                tree, self.pins[repo], max_file_bytes=self.settings.max_file_bytes,
                on_read=partial(self.verify, repo))
        return self._resolvers[repo]

    def verify(self, repo: str, path: str) -> None:
        """Check that a distribution's *path* is byte-identical to the pinned commit."""
        tree = self.tree(repo)
        if tree.method != "dist":
            return
        pin = self.pins[repo]
        expected = self.listing(repo).get(path) or self.lock.blobs_for(repo, pin.commit).get(path)
        actual = tree.blobs[path]
        if expected is None:
            raise UnverifiedError(
                f"{path} from {tree.dist} is not vouched for: neither the lock nor a tree listing "
                f"records its blob at {pin.short}; lock it from git or commit a 'listing'")
        if expected != actual:
            raise UnverifiedError(
                f"{path} from {tree.dist} differs from {pin.name}@{pin.short}: "
                f"blob {actual[:12]}, the commit has {expected[:12]}; the cached tree {tree.root.parent.name} "
                "is reused until you delete it")

    def check(self, target: Target) -> Outcome:
        """Resolve *target* and compare it with the lock."""
        pin = self.pins.get(target.repo)
        if pin is None:
            return Outcome(target, "error", error_kind="target",
                           message=f"unknown repository {target.repo!r} in {target}; "
                                   f"configured: {', '.join(sorted(self.pins)) or 'none'}")
        cached_before = self.stats["cached"]
        try:
            location = self._locate(pin, target)
        except ResolveError as error:
            record = self.lock.get(target.repo, target.key)
            return Outcome(target, "missing", record=record, message=f"missing: {target}: {error}",
                           resolve_error=str(error), fresh=self.stats["cached"] == cached_before)
        except SourceError as error:
            return Outcome(target, "error", error_kind="source", message=str(error))
        except UnverifiedError as error:
            return Outcome(target, "error", error_kind="unverified", message=str(error))
        except UpstreamFileError as error:
            return Outcome(target, "error", error_kind="upstream", message=f"{target}: {error}")
        link = pin.permalink(location.path, None if location.whole_file else location.start,
                             None if location.whole_file else location.end)
        record = self.lock.get(target.repo, target.key)
        if record is None:
            status = "new"
        elif record.sha256 == location.sha256:
            same = (record.path, record.start, record.end) == (location.path, location.start, location.end)
            status = "ok" if same else "moved"
        else:
            status = "changed"
        outcome = Outcome(target, status, location=location, record=record, permalink=link,
                          fresh=self.stats["cached"] == cached_before)
        return _with_message(outcome, self._diff(outcome) if status == "changed" else "")

    def _locate(self, pin: RepoPin, target: Target) -> Location:
        """The location of *target*, from the resolution cache when it knows it."""
        cached = self.resolutions.get(pin, target.key)
        if isinstance(cached, Location):
            self.stats["cached"] += 1
            return cached
        if isinstance(cached, str):
            self.stats["cached"] += 1
            raise ResolveError(cached)
        self.stats["resolved"] += 1
        return self.resolver(target.repo).resolve(target.path, target.match)

    def modules_parsed(self) -> int:
        """Upstream modules parsed by this process so far."""
        return sum(resolver.modules_parsed for resolver in self._resolvers.values())

    def remember(self, repo: str, key: str, result: Location | str) -> None:
        """Add a resolution (or a resolution failure's text) to the persistent cache."""
        pin = self.pins.get(repo)
        if pin is not None:
            self.resolutions.put(pin, key, result)

    def _diff(self, outcome: Outcome) -> str:
        """A short diff from the previously locked lines, when that tree is cached."""
        record, location = outcome.record, outcome.location
        assert record is not None and location is not None
        pin = self.pins[outcome.target.repo]
        old_tree = self.cache.cached(pin.url, record.commit)
        if old_tree is None or not old_tree.has(record.path):
            return ""
        try:
            old = split_lines(decode_source(old_tree.read_bytes(record.path)))[record.start - 1:record.end]
            new = self.resolver(pin.name).file_lines(location.path)[location.start - 1:location.end]
        except (SourceAnchorsError, UnicodeDecodeError):
            return ""
        diff = [line for line in difflib.unified_diff(old, new, lineterm="", n=0)][2:]
        if len(diff) > _DIFF_LINES:
            diff = [*diff[:_DIFF_LINES], f"… {len(diff) - _DIFF_LINES} more diff lines"]
        return "\n".join(diff)


def _with_message(outcome: Outcome, diff: str) -> Outcome:
    target, status = outcome.target, outcome.status
    if status == "ok":
        text = f"ok: {target} at {outcome.location.describe() if outcome.location else ''}"
    else:
        text = f"{status}: {target} {outcome.change()}"
    if diff:
        text += "\n" + diff
    return Outcome(target, status, location=outcome.location, record=outcome.record,
                   message=text, permalink=outcome.permalink, fresh=outcome.fresh)
