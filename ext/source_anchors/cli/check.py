"""``source-anchors check``: every anchor's status, as lines, JSON or a review checklist; 1 on any drift."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping

from ..engine.engine import Engine
from ..model.config import PREFIX
from ..model.errors import GitError, RefError
from ..model.records import AnchorRecord
from .output import markdown, report


def check(records: list[AnchorRecord], engine: Engine, *, pins: dict[str, str], refs: dict[str, str],
          as_json: bool, as_markdown: bool) -> int:
    """Print the check of *records* (read with *pins*, given as *refs*); 1 when any anchor drifted, else 0."""
    if as_json:
        print(json.dumps([r.to_check_json() for r in records], indent=2, ensure_ascii=False))
    elif as_markdown:
        print(markdown(records, pins, refs))
    else:
        report(records)
    note_moved_refs(engine, skip=pins)
    return 1 if any(record.status.failed for record in records) else 0


def note_moved_refs(engine: Engine, *, skip: Mapping[str, str]) -> None:
    """For ``check``: a note on stderr for each pin whose ``ref`` now names another commit (or is unreachable)."""
    from ..sources.refs import moved_ref

    for name, pin in sorted(engine.pins.items()):
        if name in skip or pin.ref is None or "git" not in pin.sources:
            continue
        try:
            now = moved_ref(pin, timeout=engine.settings.timeout)
        except (RefError, GitError) as error:
            print(f"note: {PREFIX}repos[{name!r}]['ref'] {pin.ref!r} not checked: {error}", file=sys.stderr)
            continue
        if now is not None:
            print(f"note: {PREFIX}repos[{name!r}]['ref'] {pin.ref!r} now points at {now[:7]}, not the pinned "
                  f"{pin.short}; preview with 'source-anchors bump {name} {pin.ref}'", file=sys.stderr)
