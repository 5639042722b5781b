"""``source-anchors fix``: missing targets in the pages rewritten to their suggestions.

The rewriting itself is :mod:`source_anchors.edit.pages`, in the markup of each page.
"""

from __future__ import annotations

import difflib
import sys
from collections import defaultdict
from pathlib import Path

from ..edit.pages import rewrite
from ..engine.engine import UPDATE_COMMAND
from ..markup.registry import markup_for
from ..model.fsio import atomic_write
from ..model.records import AnchorRecord, Status


def fix(
    records: list[AnchorRecord], paths: dict[str, Path], confdir: Path, *, write: bool, floor: float
) -> int:
    """Print (or apply) the rewrite of every missing target with a suggestion at least *floor* similar."""
    by_doc: dict[str, dict[str, str]] = defaultdict(dict)
    unsure: dict[str, str] = {}
    for record in records:
        out = record.outcome
        if out.status is not Status.missing or out.target is None:
            continue
        if out.suggestion is None or out.suggestion.similarity < floor:
            unsure[out.name] = (
                f"suggestion {out.suggestion.describe()} is below {floor}"
                if out.suggestion
                else "no suggestion"
            )
            continue
        # As the author wrote it: with the repository prefix, or without it when it came from a
        # default.
        prefix = "" if out.target.defaulted else f"{out.target.repo}:"
        by_doc[record.page][prefix + out.target.key] = prefix + out.suggestion.key
    pages = changed = 0
    for doc in sorted(by_doc):
        path = paths[doc]
        old = path.read_text("utf-8")
        new = rewrite(old, by_doc[doc], markup_for(path))
        for target in sorted(set(new.skipped)):
            print(
                f"{_shown(path, confdir)}: {target}: written with escapes; not rewritten, edit it by hand",
                file=sys.stderr,
            )
        for target in sorted(by_doc[doc].keys() - new.applied - set(new.skipped)):
            print(
                f"{_shown(path, confdir)}: {target}: not found as written (spaces inside the target?); "
                f"edit it by hand to {by_doc[doc][target]}",
                file=sys.stderr,
            )
        if not new.changed:
            continue
        pages += 1
        changed += new.changed
        shown = _shown(path, confdir)
        sys.stdout.writelines(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                new.text.splitlines(keepends=True),
                f"a/{shown}",
                f"b/{shown}",
            )
        )
        if write:
            try:
                atomic_write(path, new.text)
            except OSError as error:
                print(
                    f"error: {shown}: cannot write it ({error.strerror or error}); it is unchanged; make it "
                    "writable and run again",
                    file=sys.stderr,
                )
                return 2
    for name, why in sorted(unsure.items()):
        print(f"not fixed: {name}: {why}", file=sys.stderr)
    verb = "rewrote" if write else "would rewrite"
    tail = (
        f"; run '{UPDATE_COMMAND}' to lock them"
        if write and changed
        else ("; run again with --write to apply" if changed else "")
    )
    print(
        f"{verb} {changed} target(s) in {pages} page(s); {len(unsure)} missing target(s) without a suggestion "
        f"to apply{tail}",
        file=sys.stderr,
    )
    return 0


def _shown(path: Path, confdir: Path) -> str:
    """*path* relative to the book (as diff headers and messages show it)."""
    try:
        return path.relative_to(confdir).as_posix()
    except ValueError:
        return path.as_posix()
