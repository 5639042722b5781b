"""Per-document anchor records in a Sphinx Domain, merged for parallel builds."""

from __future__ import annotations

from collections.abc import Iterator, Set
from typing import Any

from sphinx.domains import Domain
from sphinx.environment import BuildEnvironment

#: Keys of one anchor occurrence in the report (``source-anchors.json``).
REPORT_KEYS = ("doc", "line", "label", "target", "repo", "commit", "path", "start", "end",
               "permalink", "status")


class SourceAnchorsDomain(Domain):
    """Holds plain records (dicts of str/int) of every anchor, literal block and ledger page."""

    name = "source-anchors"
    label = "Source anchors"
    initial_data = {  # noqa: RUF012  # Sphinx's own attribute, copied per env
        "anchors": {},      # docname -> [record, ...] in reading order
        "literals": {},     # docname -> [(line, text), ...]
        "ledgers": {},      # docname -> True: pages that render the ledger (rewritten on every build)
        "fingerprint": "",  # pins + lock + resolver version at the last full check
    }

    @property
    def anchors(self) -> dict[str, list[dict[str, Any]]]:
        """Records by document."""
        return self.data["anchors"]  # type: ignore[no-any-return]

    def add_anchor(self, docname: str, record: dict[str, Any]) -> None:
        """Record one anchor occurrence of *docname*."""
        self.anchors.setdefault(docname, []).append(record)

    def add_literal(self, docname: str, line: int, text: str) -> None:
        """Record one literal block of *docname* (for the reproduction count)."""
        self.data["literals"].setdefault(docname, []).append((line, text))

    def add_ledger(self, docname: str) -> None:
        """Mark *docname* as a page that renders generated ledger content."""
        self.data["ledgers"][docname] = True

    def all_anchors(self) -> Iterator[dict[str, Any]]:
        """Every record, ordered by document then reading order."""
        for docname in sorted(self.anchors):
            yield from self.anchors[docname]

    def clear_doc(self, docname: str) -> None:
        """Forget everything *docname* contributed."""
        for key in ("anchors", "literals", "ledgers"):
            self.data[key].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        """Take the records of *docnames* from a parallel reader."""
        for key in ("anchors", "literals", "ledgers"):
            for docname in docnames:
                if docname in otherdata[key]:
                    self.data[key][docname] = otherdata[key][docname]

    def resolve_any_xref(self, *args: Any, **kwargs: Any) -> list[Any]:
        """No cross-references: the domain only collects."""
        return []


def get_domain(env: BuildEnvironment) -> SourceAnchorsDomain:
    """The domain instance of *env*."""
    domain = env.get_domain(SourceAnchorsDomain.name)
    assert isinstance(domain, SourceAnchorsDomain)
    return domain
