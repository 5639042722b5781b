"""Resolvers for a book's repositories: one at each pinned commit, one at each lock commit asked for (no Sphinx).

The resolver factory turns a tree of the provider
(:class:`~source_anchors.sources.pinned.PinnedTrees`) into a :class:`~.resolver.Resolver`; a file
the pinned tree does not hold comes from :class:`~source_anchors.sources.outside.OutsideFiles`. Each
resolver is made once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..model.config import RepoPin
from ..model.errors import UpstreamFileError
from ..model.python import Python
from ..reading.python import Compact, IndexStore, known_statements
from ..sources.outside import OutsideFiles
from ..sources.pinned import PinnedTrees

if TYPE_CHECKING:  # the resolution machinery is imported when a resolver is made (cold builds only)
    from .resolver import Resolver


#: How many files' statements :meth:`Resolvers.statements_at` keeps.
STATEMENTS_KEPT = 8


class Resolvers:
    """Makes and keeps the resolvers of *trees*' repositories; counts the parsing they did."""

    def __init__(
        self,
        trees: PinnedTrees,
        outside: OutsideFiles,
        *,
        max_file_bytes: int,
        python: Python | None = None,
        stores: Callable[[RepoPin], IndexStore] | None = None,
    ) -> None:
        self.trees = trees
        #: The module indexes of earlier runs that a resolver at a pin may use (the engine's cache).
        self.stores = stores
        self.outside = outside
        self.max_file_bytes = max_file_bytes
        #: The Python version and platform the anchors are read for (``source_anchors_python``).
        self.python = python
        self._resolvers: dict[str, Resolver] = {}
        #: Resolvers at other commits than the pinned one (the lock's, for suggestions).
        self._others: dict[tuple[str, str], Resolver] = {}
        self._statements: dict[tuple[str, str, str], Sequence[Compact] | None] = {}

    def resolver(self, repo: str) -> Resolver:
        """The resolver of *repo*'s pinned tree; raises :class:`SourceError` when the tree cannot be had."""
        if repo not in self._resolvers:
            from .resolver import Resolver  # the resolution machinery: cold builds only

            tree, pin = self.trees.tree(repo), self.trees.pins[repo]
            listing = self.trees.listing(repo)

            def fetch(path: str) -> bytes:
                """A file the tree does not hold (outside the packages): see :meth:`.OutsideFiles.commit_file`."""
                try:
                    return self.outside.commit_file(repo, path)[0]
                except UpstreamFileError as error:
                    where = (
                        f"{tree.dist} does not ship /{path}, which {pin.name}@{pin.short} has"
                        if tree.method == "dist"
                        else f"/{path} is outside the exported packages of {pin.name}@{pin.short}"
                    )
                    raise UpstreamFileError(
                        f"{where}, and no other source gave it: {error}"
                    ) from None

            self._resolvers[repo] = Resolver(
                tree,
                pin,
                max_file_bytes=self.max_file_bytes,
                listing=listing,
                fetch=fetch,
                python=self.python,
                store=self.stores(pin) if self.stores else None,
            )
        return self._resolvers[repo]

    def resolver_at(self, repo: str, commit: str) -> Resolver:
        """A resolver of *repo* at another *commit* (a lock's), on the provider's ``locked_tree``.

        Raises :class:`SourceError` when that tree cannot be had.
        """
        if commit == self.trees.pins[repo].commit:
            return self.resolver(repo)
        key = (repo, commit)
        if key not in self._others:
            from .resolver import Resolver

            tree = self.trees.locked_tree(repo, commit)  # raises SourceError
            pin = self.trees.pins[repo].with_commit(commit)
            self._others[key] = Resolver(
                tree,
                pin,
                max_file_bytes=self.max_file_bytes,
                python=self.python,
                store=self.stores(pin) if self.stores else None,
            )
        return self._others[key]

    def statements_at(
        self, repo: str, commit: str, path: str, module: str
    ) -> Sequence[Compact] | None:
        """The statements of *path* (module *module*) at *commit*, from a module index at hand; never a parse.

        None when no index of the file was made or stored before. Those read from the store alone
        (:func:`~source_anchors.reading.python.known_statements`) are nested lists, tens of
        thousands in a large module: the last :data:`STATEMENTS_KEPT` files' are kept (the anchors
        of a file come together), so that the collector does not walk every file's again and again.
        """
        key = (repo, commit, path)
        if key in self._statements:
            found = self._statements.pop(key)
        else:
            found = known_statements(self.resolver_at(repo, commit).files, path, module)
            if len(self._statements) >= STATEMENTS_KEPT:
                del self._statements[next(iter(self._statements))]  # the least recently asked
        self._statements[key] = found
        return found

    def modules_parsed(self) -> int:
        """Upstream modules parsed by this process so far (a lock's older trees, for drift and suggestions, too)."""
        return sum(resolver.modules_parsed for resolver in self._all())

    def ast_parses(self) -> int:
        """``ast.parse`` calls made by this process's resolvers so far (older trees' too)."""
        return sum(resolver.ast_parses for resolver in self._all())

    def parses(self) -> dict[tuple[str, str], int]:
        """The parses of each file by this process's resolvers so far, by (commit, path)."""
        return {
            (resolver.pin.commit, path): count
            for resolver in self._all()
            for path, count in resolver.parses().items()
        }

    def files_read(self) -> int:
        """How many times this process's resolvers read a file's bytes so far."""
        return sum(resolver.files_read for resolver in self._all())

    def _all(self) -> list[Resolver]:
        return [*self._resolvers.values(), *self._others.values()]
