"""Per-document records of API source links in a Sphinx Domain, merged for parallel builds."""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from sphinx.domains import Domain
from sphinx.environment import BuildEnvironment

from ..model.records import AnchorRecord

#: One documented object: (module, name in it, line, file, start, end, reason without a link or "",
#: note): the note is the binding rules that chose a linked object's definition, or what serves an
#: unlinked one.
ApiRow = tuple[str, str, int, str, int, int, str, str]


_PER_DOC = ("objects", "outcomes", "found")


class ApiLinksDomain(Domain):
    """Holds what each document's object descriptions were linked to, and the commit they were read at."""

    name = "source-anchors-api"
    label = "Source anchors: API links"
    initial_data = {  # noqa: RUF012  # Sphinx's own attribute, copied per env
        "objects": {},  # docname -> [ApiRow, ...] in reading order
        "outcomes": {},  # docname -> [Outcome, ...]: a pinned repository's links, for its lock
        "source": "",  # the repository and commit the pages were linked at
        "found": {},  # docname -> {optional module: found?}: what its "self" links were decided by
    }

    def add(self, docname: str, row: ApiRow) -> None:
        """Record one documented object of *docname*."""
        self.data["objects"].setdefault(docname, []).append(row)

    def rows(self) -> list[tuple[str, ApiRow]]:
        """Every object, by document then reading order."""
        return [
            (doc, row) for doc in sorted(self.data["objects"]) for row in self.data["objects"][doc]
        ]

    def clear_doc(self, docname: str) -> None:
        """Forget everything *docname* contributed."""
        for key in _PER_DOC:
            self.data[key].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        """Take the records of *docnames* from a parallel reader."""
        for key in _PER_DOC:
            for docname in docnames:
                if docname in otherdata[key]:
                    self.data[key][docname] = otherdata[key][docname]

    def resolve_any_xref(self, *args: Any, **kwargs: Any) -> list[Any]:
        """No cross-references: the domain only collects."""
        return []


def api_records(env: BuildEnvironment) -> list[AnchorRecord]:
    """A pinned repository's API links as anchor records, so that ``check`` and ``update`` see them too."""
    outcomes = get_api_domain(env).data["outcomes"]
    return [
        AnchorRecord(doc, line, outcome.text, outcome, seq=n)
        for doc in sorted(outcomes)
        for n, (line, outcome) in enumerate(outcomes[doc], 1)
    ]


def get_api_domain(env: BuildEnvironment) -> ApiLinksDomain:
    """The domain instance of *env*."""
    domain = env.get_domain(ApiLinksDomain.name)
    assert isinstance(domain, ApiLinksDomain)
    return domain
