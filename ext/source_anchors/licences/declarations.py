"""The licences a book's pinned commits declare, read from any file of the commit (no Sphinx).

Every declaring file of the commit's listing (:func:`.declared.collect`) comes from
:class:`~source_anchors.sources.outside.OutsideFiles`; with a ``dist``, the distribution's METADATA too.
"""

from __future__ import annotations

from ..sources.outside import OutsideFiles
from .declared import Declaration, NotRead, collect, metadata_declarations


class Declarations:
    """What each pinned commit of *outside*'s trees declares, computed once per process."""

    def __init__(self, outside: OutsideFiles) -> None:
        self.outside = outside
        self._declared: dict[str, tuple[list[Declaration], list[NotRead]]] = {}

    def declared(self, repo: str) -> tuple[list[Declaration], list[NotRead]]:
        """The licences *repo*'s pinned commit declares (:mod:`.declared`), and the files not read.

        Every declaring file of the listing is read with :meth:`.OutsideFiles.commit_file`; with a
        ``dist``, the distribution's METADATA too (the wheel's when the tree is the distribution, else
        the sdist's PKG-INFO).
        """
        if repo not in self._declared:
            trees = self.outside.trees
            found, unread = collect(trees.listing(repo), lambda path: self.outside.commit_file(repo, path)[0])
            pin = trees.pins[repo]
            if pin.dist:
                metadata, why = self.outside.metadata(repo)
                if metadata is not None:
                    found += metadata_declarations(metadata["name"], metadata["text"])
                else:
                    unread.append(NotRead(f"{pin.dist}: METADATA", why))
            self._declared[repo] = (found, unread)
        return self._declared[repo]
