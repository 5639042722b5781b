"""Which Markdown links cite some code files, and the code lines a drifted link is annotated on (pure).

A commit that moves a function cited by README.md breaks README.md's link though README.md is not
in the commit. :func:`citing` finds, among the links of some pages, the *locked* ones whose lines
are in the given code files (by the link's file, or by the lock record's file for an explicit
target): the pre-commit hook checks them beside the staged Markdown. A link the lock does not know
is left to the check of its own page. :func:`code_records` gives, for each link that drifted, the
same problem on the code's lines (new or old place), for CI annotations of the code that broke it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace

from ..model.config import SELF
from ..model.errors import SourceAnchorsError
from ..model.records import AnchorRecord, LockRecord, Status
from ..model.target import parse_target
from .anchors import Found

__all__ = ["cited_paths", "citing", "code_records"]


def cited_paths(records: Mapping[str, LockRecord]) -> set[str]:
    """The files the lock's ``self`` *records* hold lines of."""
    return {record.path for record in records.values()}


def citing(
    found: list[Found], records: Mapping[str, LockRecord], code: Collection[str], *, head: str
) -> list[Found]:
    """The links of *found* locked in *records* (the lock's ``self`` ones) whose lines are in *code*.

    A permalink to another commit than *head* is not locked (it is compared with HEAD, never
    relocked) and is left out.
    """
    by_lines = {(r.path, r.start, r.end): r for r in records.values()}
    kept = []
    for item in found:
        says = item.says
        if says.rev is not None and not head.startswith(says.rev):
            continue
        if says.explicit is not None:
            try:
                record = records.get(parse_target(says.explicit, default_repo=SELF).key)
            except SourceAnchorsError:
                record = None
        else:
            record = by_lines.get((says.path, says.start, says.end))
        if record is not None and (record.path in code or says.path in code):
            kept.append(item)
    return kept


def code_records(records: list[AnchorRecord]) -> list[AnchorRecord]:
    """Each drifted link's problem again, on the code's lines: where they are now, else where they were.

    ``moved`` and ``changed`` links point at the lines' new place, ``missing`` ones at the locked
    place; a link that could not be checked, or an old permalink (a note, not a failure), has none.
    Links with the same problem on the same lines are one record, naming every page line.
    """
    by_place: dict[tuple[str, int, str, Status], list[AnchorRecord]] = {}
    for record in records:
        outcome = record.outcome
        if (
            outcome.status not in (Status.moved, Status.changed, Status.missing)
            or outcome.group == "old permalink"
        ):
            continue
        place = outcome.location if outcome.status is not Status.missing else outcome.locked
        if place is not None:
            key = (place.path, place.start, outcome.name, outcome.status)
            by_place.setdefault(key, []).append(record)
    out = []
    for (path, line, _, _), cites in by_place.items():
        first = cites[0]
        where = ", ".join(f"{r.page}:{r.line}" for r in cites)
        verb = "cites" if len(cites) == 1 else "cite"
        message = f"{where} {verb} these lines: {first.outcome.message}"
        out.append(
            replace(first, page=path, line=line, outcome=replace(first.outcome, message=message))
        )
    return out
