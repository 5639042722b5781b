"""``source-anchors check``: every anchor's status, as lines, JSON or a review checklist; 1 on any drift.

With ``CI`` set, also 1 when autodoc could not import what the pages document (see :mod:`.unread`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..engine.engine import Engine
from ..model.config import PREFIX, SELF
from ..model.config.values import ci_locked
from ..model.errors import GitError, RefError
from ..model.records import AnchorRecord
from ..sphinx_ext import annotate
from .output import markdown, report
from .unread import Unimported, lock_only, notice


def check(
    records: list[AnchorRecord],
    engine: Engine,
    *,
    pins: dict[str, str],
    refs: dict[str, str],
    paths: dict[str, Path],
    pages: list[str],
    as_json: bool,
    fmt: str,
    as_markdown: bool,
    unimported: Sequence[Unimported] = (),
) -> int:
    """Print the check of *records* (read with *pins*, given as *refs*); 1 when any anchor drifted, else 0.

    *pages*: only the anchors of these page files (*paths* gives each document's file); *fmt*: text,
    json, or a CI annotation format (:mod:`source_anchors.sphinx_ext.annotate`). *unimported*: what
    autodoc could not import while the book was read; the book's whole check adds the locked API
    links no page gave (:func:`.unread.lock_only`). Either way what was not checked is named, and in
    CI (``CI`` set) it fails the check.
    """
    from_lock: list[AnchorRecord] = []
    if pages:
        records = annotate.on_pages(records, paths, pages)
        docs = annotate.docs_of(paths, pages)
        unimported = [item for item in unimported if item.doc in docs]
    else:
        from_lock = lock_only(records, engine)
        records = [*records, *from_lock]
    lock = engine.settings.lock_path
    files = annotate.page_paths({**paths, lock.name: lock}, Path.cwd())
    if as_json or fmt != "text":
        text = annotate.render("json" if as_json else fmt, records, files)
        print(text, end="\n" if text else "")
    elif as_markdown:
        print(markdown(records, pins, refs))
    else:
        report(records)
    if not pages:  # a hook's check stays offline: whether a pin's ref moved is asked of the remote
        note_moved_refs(engine, skip=pins)
    api = engine.settings.api
    if api is not None and api.links == SELF and fmt == "text" and not as_json:
        print(
            'note: API links to "self" are not locked and not checked here: they follow the commit being '
            "built; the strict build (sphinx-build -W) checks them",
            file=sys.stderr,
        )
    if unimported:
        text = notice(
            list(unimported),
            files,
            "their API links are not checked on these pages"
            if pages
            else f"their API links were not read from the pages: {len(from_lock)} locked record(s) no page "
            "gave were checked from the lock alone, at its lines, and an object the lock does not "
            "record is not checked",
        )
        if ci_locked(os.environ):
            print(f"error: {text}", file=sys.stderr)
            return 1
        print(f"warning: {text} (CI fails on this)", file=sys.stderr)
    return 1 if any(record.status.failed for record in records) else 0


def note_moved_refs(engine: Engine, *, skip: Mapping[str, str]) -> None:
    """For ``check``: a note on stderr for each pin whose ``ref`` now names another commit (or is unreachable)."""
    from ..sources.gitrefs import mismatch, moved_ref

    for name, pin in sorted(engine.pins.items()):
        if name in skip or pin.ref is None or "git" not in pin.sources:
            continue
        try:
            now = moved_ref(pin, timeout=engine.settings.timeout)
        except (RefError, GitError) as error:
            print(
                f"note: {PREFIX}repos[{name!r}]['ref'] {pin.ref!r} not checked: {error}",
                file=sys.stderr,
            )
            continue
        if now is not None:
            print(f"note: {mismatch(pin, now, timeout=engine.settings.timeout)}", file=sys.stderr)
