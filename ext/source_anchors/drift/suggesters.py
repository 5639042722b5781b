"""Suggesters for missing anchors, one per (repository, lock commit), made from two resolvers (no Sphinx).

A :class:`~.suggest.Suggester` compares the tree of the lock record's commit with the pinned one;
the resolvers come from the resolver factory (:class:`~source_anchors.resolve.factory.Resolvers`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..resolve.factory import Resolvers

if TYPE_CHECKING:  # the suggestion machinery is imported for missing anchors only
    from .suggest import Suggester


class Suggesters:
    """Makes and keeps a suggester per (repository, commit); *stored* reads a kept blob by id, or None."""

    def __init__(self, resolvers: Resolvers, stored: Callable[[str], bytes | None]) -> None:
        self.resolvers = resolvers
        self.stored = stored
        self._suggesters: dict[tuple[str, str], Suggester] = {}

    def suggester(self, repo: str, commit: str) -> Suggester:
        """Suggestions for *repo*'s anchors locked at *commit*; raises as :meth:`.Resolvers.resolver_at`."""
        key = (repo, commit)
        if key not in self._suggesters:
            from .suggest import Suggester  # missing anchors only

            self._suggesters[key] = Suggester(self.resolvers.resolver_at(repo, commit),
                                             self.resolvers.resolver(repo), stored=self.stored)
        return self._suggesters[key]
