"""Suggesters for missing anchors, one per (repository, lock commit), made from two resolvers (no Sphinx).

A :class:`~.suggest.Suggester` compares the tree of the lock record's commit with the pinned one;
the resolvers come from the resolver factory (:class:`~source_anchors.resolve.factory.Resolvers`).
When both trees came from git, git's history between the two commits (:mod:`.history`) is told too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from ..lock.lockfile import Lock
from ..resolve.factory import Resolvers

if TYPE_CHECKING:  # the suggestion machinery is imported for missing anchors only
    from .suggester import Suggester


class Suggesters:
    """Makes and keeps a suggester per (repository, commit); *stored* reads a kept blob by id, or None.

    *lock* is the lock as the build started: the files its records cite at a commit are the ones
    whose history is asked for.
    """

    def __init__(
        self,
        resolvers: Resolvers,
        stored: Callable[[str], bytes | None],
        *,
        lock: Lock,
        timeout: float,
    ) -> None:
        self.resolvers = resolvers
        self.stored = stored
        self.lock = lock
        self.timeout = timeout
        #: Whether suggestions also use git's history between the lock's commit and the pin (the
        #: drift evaluation turns it off to compare).
        self.use_history = True
        self._suggesters: dict[tuple[str, str], Suggester] = {}

    def suggester(self, repo: str, commit: str) -> Suggester:
        """Suggestions for *repo*'s anchors locked at *commit*; raises as :meth:`.Resolvers.resolver_at`."""
        key = (repo, commit)
        if key not in self._suggesters:
            from .history import between, suggest_from
            from .suggester import Suggester  # missing anchors only

            old = self.resolvers.resolver_at(repo, commit)
            trees = self.resolvers.trees
            history = None
            if self.use_history:
                cited = {
                    record.path
                    for record in self.lock.records.get(repo, {}).values()
                    if record.commit == commit
                }
                history = between(
                    trees.locked_tree(repo, commit),
                    trees.tree(repo),
                    trees.pins[repo].url,
                    cited,
                    timeout=self.timeout,
                )
            self._suggesters[key] = Suggester(
                old,
                self.resolvers.resolver(repo),
                stored=self.stored,
                told=partial(suggest_from, history) if history is not None else None,
            )
        return self._suggesters[key]
