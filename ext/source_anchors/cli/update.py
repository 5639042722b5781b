"""``source-anchors update``: relock every anchor (``--accept``: only changed ones of some classes)."""

from __future__ import annotations

import json
import sys
from collections.abc import Set

from ..engine.engine import Engine, relockable
from ..model.changeclass import ChangeClass
from ..model.errors import LockError
from ..model.records import AnchorRecord, Status
from .output import lines


def update(
    records: list[AnchorRecord], engine: Engine, *, as_json: bool, accept: Set[ChangeClass] | None
) -> int:
    """Relock from *records*, print the changes; 1 when an anchor could not be locked, else 0."""
    try:
        changes = engine.relock((record.outcome for record in records), accept=accept)
    except LockError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    missing = [r for r in records if r.status in (Status.missing, Status.error)]
    kept = {r.outcome.name for r in missing if r.outcome.locked is not None}
    unlocked = {r.outcome.name for r in missing} - kept
    # With --accept: the changed targets of other classes, which keep their record.
    refused = sorted(
        {
            r.outcome.name
            for r in records
            if r.status is Status.changed and not relockable(r.outcome, accept)
        }
    )
    accepted = ", ".join(kind for kind in ChangeClass if kind in (accept or ()))
    if as_json:
        print(
            json.dumps(
                {
                    "changes": [{"change": c, "target": f"{k[0]}:{k[1]}"} for c, k in changes],
                    "kept": refused,
                    "anchors": [r.to_check_json() for r in records],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        for line in lines(records):
            print(line)
        for change, (repo, key) in changes:
            print(f"{change:<8} {repo}:{key}")
        total = sum(len(recs) for recs in engine.lock.records.values())
        print(
            f"{engine.settings.lock_path.name}: {len(changes)} change(s), {total} record(s); "
            f"{len(unlocked)} target(s) not locked"
            + (f", {len(kept)} that could not be checked keep their record" if kept else "")
            + (
                f"; {len(refused)} changed target(s) of other classes than {accepted} keep their record"
                if refused
                else ""
            )
        )
    return 1 if missing else 0
