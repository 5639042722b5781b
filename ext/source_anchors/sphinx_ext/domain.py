"""Per-document anchor records in a Sphinx Domain, merged for parallel builds."""

from __future__ import annotations

from collections.abc import Iterator, Set
from typing import Any

from sphinx.domains import Domain
from sphinx.environment import BuildEnvironment

from ..model.records import AnchorRecord, Status
from .envform import (
    EnvForm,
    env_order,
    env_pending,
    env_report,
    env_status,
    env_stored,
    from_env,
    to_env,
)


class SourceAnchorsDomain(Domain):
    """Holds the :class:`AnchorRecord` of every anchor, and the literal blocks and ledger pages."""

    name = "source-anchors"
    label = "Source anchors"
    initial_data = {  # noqa: RUF012  # Sphinx's own attribute, copied per env
        "anchors": {},  # docname -> [record, ...] in reading order
        "literals": {},  # docname -> [(line, text), ...]
        "ledgers": {},  # docname -> True: pages that render the ledger (rewritten on every build)
        "fingerprint": "",  # pins + lock + resolver version at the last full check
        "stats": {},  # docname -> the work its last read did (see count())
        "reading": [],  # the documents this build reads
        "reproduced": 0,  # upstream lines the book's literal blocks reproduce (checked on env-updated)
        "feedback": {},  # docname -> line of its first feedback directive (channel check, re-reads)
    }

    @property
    def anchors(self) -> dict[str, list[EnvForm]]:
        """Records by document, in the environment's form (:func:`.envform.to_env`)."""
        return self.data["anchors"]  # type: ignore[no-any-return]

    def add_anchor(self, docname: str, record: AnchorRecord) -> None:
        """Record one anchor occurrence of *docname*."""
        self.anchors.setdefault(docname, []).append(to_env(record))

    def add_literal(self, docname: str, line: int, text: str) -> None:
        """Record one literal block of *docname* (for the reproduction count)."""
        self.data["literals"].setdefault(docname, []).append((line, text))

    def add_ledger(self, docname: str) -> None:
        """Mark *docname* as a page that renders generated ledger content."""
        self.data["ledgers"][docname] = True

    def add_feedback(self, docname: str, line: int) -> None:
        """Mark *docname* as a page that offers feedback (its first directive's *line*)."""
        self.data.setdefault("feedback", {}).setdefault(docname, line)

    def pending_anchors(self) -> list[AnchorRecord]:
        """The records the end of reading has work for (see :func:`.envform.env_pending`)."""
        return [
            from_env(form)
            for docname in sorted(self.anchors)
            for form in self.anchors[docname]
            if env_pending(form)
        ]

    def report(self) -> list[dict[str, Any]]:
        """The report's rows (:meth:`AnchorRecord.to_json`), by page, line and reading order."""
        forms = [form for forms in self.anchors.values() for form in forms]
        return [env_report(form) for form in sorted(forms, key=env_order)]

    def all_anchors(self) -> Iterator[AnchorRecord]:
        """Every record, ordered by document then reading order."""
        for docname in sorted(self.anchors):
            for form in self.anchors[docname]:
                yield from_env(form)

    def next_seq(self, docname: str) -> int:
        """The reading order of the next anchor of *docname* (1 for the first; its node id is ``sa-<n>``)."""
        return len(self.anchors.get(docname, [])) + 1

    def unsettled_docs(self) -> set[str]:
        """Pages with an anchor whose status is not ``ok`` (re-read on the next build)."""
        return {
            doc
            for doc, forms in self.anchors.items()
            if any(env_status(f) is not Status.ok for f in forms)
        }

    def mark_stored(self) -> None:
        """Mark every fresh resolution as stored in the persistent cache (so it is not stored again)."""
        for forms in self.anchors.values():
            forms[:] = [env_stored(form) for form in forms]

    def count(self, docname: str, **work: int) -> None:
        """Add to the work reading *docname* did (``resolved``, ``cached``, ``modules_parsed``, ``ast_parses``)."""
        stats = self.data["stats"].setdefault(docname, {})
        for key, value in work.items():
            stats[key] = stats.get(key, 0) + value

    def figures(self) -> dict[str, int]:
        """The work of this build's reads, summed over its documents (and so over parallel readers)."""
        total = {"resolved": 0, "cached": 0, "modules_parsed": 0, "ast_parses": 0}
        for docname in self.data["reading"]:
            for key, value in self.data["stats"].get(docname, {}).items():
                total[key] = total.get(key, 0) + value
        return total

    def clear_doc(self, docname: str) -> None:
        """Forget everything *docname* contributed."""
        for key in ("anchors", "literals", "ledgers", "stats", "feedback"):
            self.data.setdefault(key, {}).pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        """Take the records of *docnames* from a parallel reader."""
        for key in ("anchors", "literals", "ledgers", "stats", "feedback"):
            for docname in docnames:
                if docname in otherdata.get(key, {}):
                    self.data.setdefault(key, {})[docname] = otherdata[key][docname]

    def resolve_any_xref(self, *args: Any, **kwargs: Any) -> list[Any]:
        """No cross-references: the domain only collects."""
        return []


def get_domain(env: BuildEnvironment) -> SourceAnchorsDomain:
    """The domain instance of *env*."""
    domain = env.get_domain(SourceAnchorsDomain.name)
    assert isinstance(domain, SourceAnchorsDomain)
    return domain
