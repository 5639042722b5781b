"""The licences a book's pinned commits declare, and the third-party evidence of their files (no Sphinx).

Every declaring file of the commit's listing (:func:`.declared.declaring_files`) comes from
:class:`~source_anchors.sources.outside.OutsideFiles`; a file that cannot be had is taken from the
pin's facts record (:mod:`.facts`) while the record's blob id is the listing's. With a ``dist``,
the distribution's METADATA too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..model.errors import SourceAnchorsError
from ..sources.outside import OutsideFiles
from .declared import Declaration, NotRead, declaring_files, metadata_declarations
from .manifests import declarations

if TYPE_CHECKING:  # the facts record and the third-party rules are read for the licence notes only
    from .facts import Facts
    from .thirdparty import Evidence


class Declarations:
    """What each pinned commit of *outside*'s trees declares, and its third-party files; computed once per process."""

    def __init__(self, outside: OutsideFiles) -> None:
        self.outside = outside
        self._declared: dict[str, tuple[list[Declaration], list[NotRead]]] = {}
        self._facts: dict[str, Facts | None] = {}
        self._evidence: dict[str, dict[str, list[Evidence]]] = {}
        #: Per repository: what the facts record says that the files contradict (warned by the
        #: glue).
        self.stale: dict[str, list[str]] = {}
        #: Per repository: the paths whose declarations came from the facts record.
        self.from_record: dict[str, set[str]] = {}

    def facts(self, repo: str) -> Facts | None:
        """The pin's committed facts record (:mod:`.facts`), or ``None`` when it has none.

        Raises :class:`~source_anchors.model.errors.ConfigError` when the record cannot be read; an
        entry made at another commit is used only where its blob id is the listing's (checked per
        file).
        """
        if repo not in self._facts:
            from .facts import read_facts

            pin = self.outside.trees.pins[repo]
            self._facts[repo] = (
                read_facts(pin.facts) if pin.facts is not None and pin.facts.is_file() else None
            )
        return self._facts[repo]

    def declared(self, repo: str) -> tuple[list[Declaration], list[NotRead]]:
        """The licences *repo*'s pinned commit declares (:mod:`.declared`), and the files not read.

        Every declaring file of the listing is read with :meth:`.OutsideFiles.commit_file`; a file
        that cannot be had is taken from the pin's facts record while the record's blob id is the
        listing's, and a file that can be had is checked against its entry (a difference goes to
        :attr:`stale`). With a ``dist``, the distribution's METADATA too (the wheel's when the tree
        is the distribution, else the sdist's PKG-INFO).
        """
        if repo not in self._declared:
            trees = self.outside.trees
            listing = trees.listing(repo)
            facts = self.facts(repo)
            found: list[Declaration] = []
            unread: list[NotRead] = []
            stale = self.stale.setdefault(repo, [])
            recorded = self.from_record.setdefault(repo, set())
            for path in declaring_files(listing):
                entry = facts.usable(path, listing[path]) if facts is not None else None
                if facts is not None and path in facts.files and entry is None:
                    stale.append(
                        f"{path}: the facts record has blob {facts.files[path].blob[:12]}, the listing "
                        f"{listing[path][:12]} (run 'source-anchors facts' again)"
                    )
                try:
                    read = declarations(path, self.outside.commit_file(repo, path)[0])
                except (
                    Exception
                ) as error:  # any reason a file could not be read or parsed is reported
                    if entry is not None:
                        found += entry.declarations
                        recorded.add(path)
                    else:
                        unread.append(NotRead(path, str(error) or type(error).__name__))
                    continue
                if entry is not None and _facts_of(read) != _facts_of(entry.declarations):
                    stale.append(
                        f"{path}: the facts record's declarations differ from the file's "
                        "(run 'source-anchors facts' again)"
                    )
                found += read
            pin = trees.pins[repo]
            if pin.dist:
                metadata, why = self.outside.metadata(repo)
                if metadata is not None:
                    found += metadata_declarations(metadata["name"], metadata["text"])
                else:
                    unread.append(NotRead(f"{pin.dist}: METADATA", why))
            self._declared[repo] = (found, unread)
        return self._declared[repo]

    def third_party(self, repo: str) -> dict[str, list[Evidence]]:
        """Evidence of third-party material by path (:mod:`.thirdparty`), from the files or the facts record.

        A file's name is evidence in itself; its bytes are read where they can be had, else the
        record's entry speaks for it while its blob id is the listing's (a file that can be had is
        checked against the entry, as :meth:`declared` does).
        """
        if repo not in self._evidence:
            from .thirdparty import evidence, path_evidence, reads_content, spread

            listing = self.outside.trees.listing(repo)
            facts = self.facts(repo)
            stale = self.stale.setdefault(repo, [])
            found: dict[str, list[Evidence]] = {}
            for path in sorted(listing):
                entry = facts.usable(path, listing[path]) if facts is not None else None
                items = path_evidence(path)
                if reads_content(path):
                    try:
                        items = evidence(path, self.outside.commit_file(repo, path)[0])
                    except SourceAnchorsError:
                        items = list(entry.evidence) if entry is not None else items
                    else:
                        if entry is not None and set(items) != set(entry.evidence):
                            stale.append(
                                f"{path}: the facts record's evidence differs from the file's "
                                "(run 'source-anchors facts' again)"
                            )
                if items:
                    found[path] = items
            self._evidence[repo] = spread(listing, found)
        return self._evidence[repo]


def _facts_of(found: tuple[Declaration, ...] | list[Declaration]) -> set[tuple[int, str, str]]:
    """What a facts record keeps of declarations: line, field and value."""
    return {(d.line, d.field, d.value) for d in found}
