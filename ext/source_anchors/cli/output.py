"""What ``source-anchors check`` and ``update`` print: lines per target, the summary, the review checklist.

``changed`` targets come last, in a section per class of change
(:mod:`source_anchors.reading.python.changes`), the most significant first, so that a pin bump's
real code changes stand apart from its reformatting.
"""

from __future__ import annotations

from collections import defaultdict

from ..model.changeclass import ChangeClass
from ..model.records import AnchorRecord, Outcome, Status

_INDENT = " " * 9


def by_target(records: list[AnchorRecord]) -> dict[str, list[AnchorRecord]]:
    """The records of each distinct target, in reading order."""
    targets: dict[str, list[AnchorRecord]] = {}
    for record in records:
        targets.setdefault(record.outcome.name, []).append(record)
    return targets


def by_class(
    records: list[AnchorRecord],
) -> list[tuple[ChangeClass, dict[str, list[AnchorRecord]]]]:
    """The ``changed`` targets by class of change, ``code`` first; classes without any left out."""
    classes: dict[ChangeClass, list[AnchorRecord]] = defaultdict(list)
    for record in records:
        if record.status is Status.changed:
            classes[record.outcome.change_class or ChangeClass.code].append(record)
    return [(kind, by_target(classes[kind])) for kind in ChangeClass if kind in classes]


def heading(kind: ChangeClass, targets: dict[str, list[AnchorRecord]]) -> str:
    """``changed (code): 2 targets, 3 anchors``."""
    anchors = sum(len(cites) for cites in targets.values())
    return (
        f"{Status.changed} ({kind}): {len(targets)} target{'s' if len(targets) != 1 else ''}, "
        f"{anchors} anchor{'s' if anchors != 1 else ''}"
    )


def lines(records: list[AnchorRecord]) -> list[str]:
    """One line per distinct target: status, target, where it is (``old → new`` when that changed), citations.

    The ``changed`` ones follow the rest, under a heading per class of change.
    """
    out = [
        _line(name, cites)
        for name, cites in by_target(records).items()
        if cites[0].status is not Status.changed
    ]
    for kind, targets in by_class(records):
        out.append(heading(kind, targets))
        out += [_line(name, cites) for name, cites in targets.items()]
    return out


def _line(name: str, cites: list[AnchorRecord]) -> str:
    out = cites[0].outcome
    settled = out.status is Status.ok and out.location is not None
    # An ok anchor says which binding rule chose it, the other bindings' lines and any caveat, as
    # the build's report does: "ok  up:pkg.Thing.area  pkg/core.py:L60–L62 (rule
    # getter-over-accessors; other bindings …)".
    where = (
        out.location.describe() + out.location.explain()
        if settled and out.location
        else out.change()
    )
    places = ", ".join(f"{r.page}:{r.line}" for r in cites[:5]) + (", …" if len(cites) > 5 else "")
    # "[cited 2 times: async:7, async:12]": a bare "2×" before the first place read as "twice at
    # line 7".
    text = f"{out.status:<8} {name}  {where}  [{f'cited {len(cites)} times: ' if len(cites) > 1 else ''}{places}]"
    if out.status in (Status.changed, Status.missing, Status.error) and out.message:
        detail = out.message.split("\n", 1)
        if out.status is not Status.changed:
            text += f"\n{_INDENT}{detail[0]}"
        if len(detail) > 1:
            text += "\n" + "\n".join(_INDENT + line for line in detail[1].splitlines())
    return text


def summary(records: list[AnchorRecord]) -> str:
    """``4 anchors: 1 changed, 3 ok (4 distinct targets)``, and the changed targets' classes when any."""
    if not records:
        return "0 anchors: nothing to check"
    counts: dict[str, int] = defaultdict(int)
    for record in records:
        counts[record.status.value] += 1
    targets = len({record.outcome.name for record in records})
    classes = ", ".join(f"{len(names)} {kind}" for kind, names in by_class(records))
    return (
        f"{len(records)} anchors: "
        + ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        + f" ({targets} distinct target{'s' if targets != 1 else ''})"
        + (f"; changed targets by class: {classes}" if classes else "")
    )


def markdown(
    records: list[AnchorRecord], pins: dict[str, str], refs: dict[str, str] | None = None
) -> str:
    """A review checklist for a pull request: changed targets by class with their whole diff, then the rest by page.

    *refs* are the tags or branches the pins were given as (shown beside the short commit).
    """
    named = refs or {}
    title = (
        ", ".join(
            f"{name} → {named[name] + ' (' + sha[:7] + ')' if name in named else sha[:7]}"
            for name, sha in pins.items()
        )
        or "current pins"
    )
    out = [f"## Source anchors at {title}", "", summary(records), ""]
    for kind, targets in by_class(records):
        out.append(f"### {heading(kind, targets)}")
        for name, cites in targets.items():
            places = ", ".join(f"{r.page} line {r.line} «{r.label}»" for r in cites)
            out.append(
                f"- [ ] **{Status.changed} ({kind})** `{name}`: {cites[0].outcome.change()} ({places})"
            )
            out += _diff_block(cites[0].outcome)
        out.append("")
    by_doc: dict[str, list[AnchorRecord]] = defaultdict(list)
    for record in records:
        if record.status is not Status.changed:
            by_doc[record.page].append(record)
    for doc in sorted(by_doc):
        out.append(f"### {doc}")
        for record in by_doc[doc]:
            outcome = record.outcome
            box = "x" if outcome.status is Status.ok else " "
            out.append(
                f"- [{box}] **{outcome.status}** line {record.line} «{record.label}» `{outcome.name}`: "
                f"{outcome.change()}"
            )
            if outcome.status in (Status.missing, Status.error):
                out.append(f"  - {outcome.message}")
        out.append("")
    return "\n".join(out)


def _diff_block(outcome: Outcome) -> list[str]:
    """The whole diff of a changed target as a fenced block, or the note saying why there is none."""
    if outcome.diff:
        return ["  ```diff", *("  " + line for line in outcome.diff.splitlines()), "  ```"]
    detail = outcome.message.split("\n", 1)
    return [f"  - {detail[1]}"] if len(detail) > 1 else []


def report(records: list[AnchorRecord]) -> int:
    """Print one line per target and the summary; 1 when any anchor drifted, else 0."""
    for line in lines(records):
        print(line)
    print(summary(records))
    return 1 if any(record.status.failed for record in records) else 0
