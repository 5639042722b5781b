"""Command line: ``check`` and ``update`` (run from the directory holding conf.py).

The book is read with Sphinx's ``dummy`` builder into a temporary directory, so
anchors are found by the same parser, with the same lines, as in a real build;
the extension runs quietly (no warnings, no lock writes) and this module
compares and prints.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.config import SHA_RE
from ..core.errors import LockError
from ..core.lock import Record, read_lock, write_lock

_BAD = ("moved", "changed", "missing", "error")


def get_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m source_anchors``."""
    parser = argparse.ArgumentParser(prog="python -m source_anchors",
                                     description="Check or update the source-anchors lock of a book.")
    parser.add_argument("--confdir", default=".", help="directory holding conf.py (default: .)")
    parser.add_argument("--srcdir", default=None, help="directory of the pages (default: CONFDIR/source)")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="report every anchor's status; exit 1 on any drift")
    check.add_argument("--pin", action="append", default=[], metavar="NAME=SHA",
                       help="preview the anchors at another commit of NAME (conf.py and lock untouched)")
    check.add_argument("--markdown", action="store_true", help="print a review checklist for a pull request")
    update = sub.add_parser("update", help="re-resolve every anchor and rewrite the lock")
    for command in (check, update):
        command.add_argument("--json", action="store_true", help="print the results as JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status."""
    args = get_parser().parse_args(argv)
    confdir = Path(args.confdir).resolve()
    srcdir = Path(args.srcdir).resolve() if args.srcdir else confdir / "source"
    pins: dict[str, str] = {}
    for item in getattr(args, "pin", []):
        name, _, sha = item.partition("=")
        if not SHA_RE.match(sha):
            print(f"error: --pin {item!r}: expected NAME=<40-hex commit SHA>", file=sys.stderr)
            return 2
        pins[name] = sha
    try:
        records, state = collect(confdir, srcdir, pins=pins)
    except CollectError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.command == "update":
        return _update(records, state, as_json=args.json)
    rows = [_row(r) for r in records]
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
    elif args.markdown:
        print(markdown(rows, pins))
    else:
        for row in rows:
            print(_line(row))
        print(_summary(rows))
    return 1 if any(row["status"] in _BAD for row in rows) else 0


class CollectError(Exception):
    """The book could not be read (bad config, bad lock, unknown --pin name)."""


def collect(confdir: Path, srcdir: Path, *, pins: dict[str, str]) -> tuple[list[dict[str, Any]], Any]:
    """Read the book quietly and return every anchor record and the build state."""
    if not (confdir / "conf.py").is_file():
        raise CollectError(f"no conf.py in {confdir}; run from the book root or pass --confdir")
    from sphinx.application import Sphinx
    from sphinx.errors import SphinxError

    from .domain import get_domain
    from .state import get_state

    with tempfile.TemporaryDirectory(prefix="source-anchors-cli.") as tmp:
        warnings = io.StringIO()
        try:
            app = Sphinx(str(srcdir), str(confdir), os.path.join(tmp, "out"), os.path.join(tmp, "doctrees"),
                         "dummy", status=None, warning=warnings, freshenv=True)
            state = get_state(str(app.srcdir))
            unknown = sorted(set(pins) - set(state.engine.pins))
            if unknown:
                raise CollectError(f"--pin names unknown repositories {unknown}; known: {sorted(state.engine.pins)}")
            for name, sha in pins.items():
                state.engine.pins[name] = state.engine.pins[name].with_commit(sha)
            state.quiet = True
            app.build(force_all=True)
        except SphinxError as error:
            raise CollectError(str(error)) from None
        except SystemExit:
            text = re.sub(r"\x1b\[[0-9;]*m", "", warnings.getvalue()).strip()  # Sphinx colours its errors
            raise CollectError(text or "the book's configuration is invalid") from None
        records = [dict(r) for r in get_domain(app.env).all_anchors()]
    return sorted(records, key=lambda r: (r["doc"], r["line"], r["id"])), state


def _row(record: dict[str, Any]) -> dict[str, Any]:
    locked = record.get("locked")
    old = _where(locked) if locked else None
    new = _where(record) if record.get("path") else None
    return {"status": record["status"], "doc": record["doc"], "line": record["line"], "label": record["label"],
            "target": record["target"], "old": old, "new": new, "permalink": record.get("permalink"),
            "message": record.get("message", "")}


def _where(r: dict[str, Any]) -> str:
    return f"{r['path']}:L{r['start']}" + (f"-L{r['end']}" if r["end"] != r["start"] else "")


def _line(row: dict[str, Any]) -> str:
    change = f"{row['old'] or '(not locked)'} → {row['new'] or '(gone)'}"
    text = f"{row['status']:<8} {row['target']}  {change}  [{row['doc']}:{row['line']}]"
    if row["status"] in ("changed", "missing", "error") and row["message"]:
        detail = row["message"].split("\n", 1)
        if row["status"] != "changed":
            text += f"\n         {detail[0]}"
        if len(detail) > 1:
            text += "\n" + "\n".join("         " + line for line in detail[1].splitlines())
    return text


def _summary(rows: list[dict[str, Any]]) -> str:
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[row["status"]] += 1
    return f"{len(rows)} anchors: " + ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))


def markdown(rows: list[dict[str, Any]], pins: dict[str, str]) -> str:
    """A review checklist, grouped by page, for a pull request."""
    title = ", ".join(f"{name} → {sha[:7]}" for name, sha in pins.items()) or "current pins"
    out = [f"## Source anchors at {title}", "", _summary(rows), ""]
    by_doc: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_doc[row["doc"]].append(row)
    for doc in sorted(by_doc):
        out.append(f"### {doc}")
        for row in by_doc[doc]:
            box = "x" if row["status"] == "ok" else " "
            out.append(f"- [{box}] **{row['status']}** line {row['line']} «{row['label']}» `{row['target']}`: "
                       f"{row['old'] or '(not locked)'} → {row['new'] or '(gone)'}")
            if row["status"] == "changed" and "\n" in row["message"]:
                out.append("  ```diff")
                out.extend("  " + line for line in row["message"].split("\n", 1)[1].splitlines())
                out.append("  ```")
            elif row["status"] in ("missing", "error"):
                out.append(f"  - {row['message']}")
        out.append("")
    return "\n".join(out)


def _update(records: list[dict[str, Any]], state: Any, *, as_json: bool) -> int:
    from .extension import record_of

    lock_path = state.settings.lock_path
    try:
        old = read_lock(lock_path)
    except LockError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    fresh: dict[tuple[str, str], Record] = {}
    for r in records:
        if r.get("path") and r["status"] not in ("missing", "error"):
            fresh[(r["repo"], r["key"])] = record_of(r)
    cited = {(r.get("repo"), r.get("key")) for r in records}
    # A cited anchor that does not resolve now keeps its old record; records nobody cites are pruned.
    kept = {(repo, key): rec for repo, recs in old.records.items() for key, rec in recs.items()
            if (repo, key) not in fresh and (repo, key) in cited}
    new_lock = old.with_records([(repo, key, rec) for (repo, key), rec in {**kept, **fresh}.items()], replace=True)
    before = {(repo, key): rec for repo, recs in old.records.items() for key, rec in recs.items()}
    after = {(repo, key): rec for repo, recs in new_lock.records.items() for key, rec in recs.items()}
    changes = [("added", k) for k in sorted(after.keys() - before.keys())]
    changes += [("pruned", k) for k in sorted(before.keys() - after.keys())]
    changes += [("updated", k) for k in sorted(after.keys() & before.keys()) if after[k] != before[k]]
    write_lock(new_lock)
    missing = [r for r in records if r["status"] in ("missing", "error")]
    if as_json:
        print(json.dumps({"changes": [{"change": c, "target": f"{k[0]}:{k[1]}"} for c, k in changes],
                          "anchors": [_row(r) for r in records]}, indent=2, ensure_ascii=False))
    else:
        for row in (_row(r) for r in records):
            print(_line(row))
        for change, (repo, key) in changes:
            print(f"{change:<8} {repo}:{key}")
        print(f"{lock_path.name}: {len(changes)} change(s), {len(after)} record(s); "
              f"{len(missing)} anchor(s) not locked")
    return 1 if missing else 0
