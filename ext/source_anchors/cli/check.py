"""``source-anchors check``: every anchor's status, as lines, JSON or a review checklist; 1 on any drift."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from ..engine.engine import Engine
from ..model.config import PREFIX
from ..model.errors import GitError, RefError
from ..model.records import AnchorRecord
from ..sphinx_ext import annotate
from .output import markdown, report


def check(records: list[AnchorRecord], engine: Engine, *, pins: dict[str, str], refs: dict[str, str],
          paths: dict[str, Path], pages: list[str], as_json: bool, fmt: str, as_markdown: bool) -> int:
    """Print the check of *records* (read with *pins*, given as *refs*); 1 when any anchor drifted, else 0.

    *pages*: only the anchors of these page files (*paths* gives each document's file); *fmt*: text,
    json, or a CI annotation format (:mod:`source_anchors.sphinx_ext.annotate`).
    """
    if pages:
        records = annotate.on_pages(records, paths, pages)
    if as_json or fmt != "text":
        text = annotate.render("json" if as_json else fmt, records, annotate.page_paths(paths, Path.cwd()))
        print(text, end="\n" if text else "")
    elif as_markdown:
        print(markdown(records, pins, refs))
    else:
        report(records)
    if not pages:  # a hook's check stays offline: whether a pin's ref moved is asked of the remote
        note_moved_refs(engine, skip=pins)
    return 1 if any(record.status.failed for record in records) else 0


def note_moved_refs(engine: Engine, *, skip: Mapping[str, str]) -> None:
    """For ``check``: a note on stderr for each pin whose ``ref`` now names another commit (or is unreachable)."""
    from ..sources.refs import mismatch, moved_ref

    for name, pin in sorted(engine.pins.items()):
        if name in skip or pin.ref is None or "git" not in pin.sources:
            continue
        try:
            now = moved_ref(pin, timeout=engine.settings.timeout)
        except (RefError, GitError) as error:
            print(f"note: {PREFIX}repos[{name!r}]['ref'] {pin.ref!r} not checked: {error}", file=sys.stderr)
            continue
        if now is not None:
            print(f"note: {mismatch(pin, now, timeout=engine.settings.timeout)}", file=sys.stderr)
