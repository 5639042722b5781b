"""Command line ``source-anchors`` (or ``python -m source_anchors``): check, update, fix, bump, cache.

Run it where you run ``sphinx-build``: the book is found as Sphinx projects are laid out (see
:func:`find_book`); ``--confdir`` and ``--srcdir`` say it outright.

The book is read with Sphinx's ``dummy`` builder into a temporary directory, so
anchors are found by the same parser, with the same lines, as in a real build.
What the CLI changes is passed in as configuration overrides, the same path a
``conf.py`` value takes: ``source_anchors_quiet`` (no warnings, no lock writes)
and ``source_anchors_pin_commits`` (``--pin``). The engine relocks; this module
prints.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import tempfile
from collections.abc import Sequence, Set
from pathlib import Path

from ..drift.changes import ChangeClass, parse_classes, valid_classes
from ..drift.linesuggest import THRESHOLD
from ..engine.engine import Engine, relockable
from ..model.config import PREFIX
from ..model.errors import LockError
from ..model.records import AnchorRecord, Status
from . import cache as cachecmd
from .fix import fix
from .output import lines, markdown, summary


def get_parser() -> argparse.ArgumentParser:
    """The argument parser of ``source-anchors``."""
    parser = argparse.ArgumentParser(prog="source-anchors",
                                     description="Check or update the source-anchors lock of a Sphinx book.")
    parser.add_argument("--confdir", default=None,
                        help="directory holding conf.py (default: ., else source/, docs/ or doc/ if it has one)")
    parser.add_argument("--srcdir", default=None,
                        help="directory of the pages (default: CONFDIR/source when it holds the root page "
                             "and no conf.py of its own, else CONFDIR)")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="report every anchor's status; exit 1 on any drift")
    check.add_argument("--pin", action="append", default=[], metavar="NAME=REF",
                       help="preview the anchors at another commit of NAME, given as a 40-hex SHA, a tag or a "
                            "branch (resolved with git ls-remote; conf.py and lock untouched)")
    check.add_argument("--markdown", action="store_true", help="print a review checklist for a pull request")
    update = sub.add_parser("update", help="re-resolve every anchor and rewrite the lock")
    update.add_argument("--accept", default=None, metavar="CLASSES",
                        help="relock only the changed anchors of these classes of change (comma-separated: "
                             f"{valid_classes().replace(', ', ',')}); moved and new anchors are relocked too, "
                             "other changed and missing ones keep their record")
    fix = sub.add_parser("fix", help="rewrite missing targets in the pages to their suggestions (a diff; "
                                     "--write applies it)")
    fix.add_argument("--write", action="store_true", help="apply the rewrite to the page files")
    fix.add_argument("--min-similarity", type=_similarity, default=None, metavar="S",
                     help=f"only suggestions at least this similar (default and floor: {THRESHOLD})")
    for command in (check, update):
        command.add_argument("--json", action="store_true", help="print the results as JSON")
    bump = sub.add_parser("bump", help="preview the anchors at another commit, tag or branch of a pin; "
                                       "--write moves the pin in conf.py")
    bump.add_argument("name", metavar="NAME", help="the repository, a key of source_anchors_repos")
    bump.add_argument("ref", metavar="REF", help="a 40-hex commit SHA, a tag or a branch of its URL")
    bump.add_argument("--write", action="store_true",
                      help="replace the old commit (and 'ref') in conf.py where each is written once as a "
                           "string literal; then run 'source-anchors update' to relock")
    cache = sub.add_parser("cache", help="show where the caches are and how big (info), or empty them (clear)")
    cache.add_argument("action", choices=("info", "clear"))
    return parser


_PAGES = (".rst", ".md", ".txt", ".ipynb")


def find_book(cwd: Path, confdir: str | None, srcdir: str | None) -> tuple[Path, Path]:
    """(confdir, srcdir) of the book, as ``sphinx-build`` would be told them.

    Without ``--confdir``: the current directory when it holds ``conf.py``, else the first of
    ``source/``, ``docs/``, ``doc/`` that does (``sphinx-quickstart --sep`` puts it in
    ``source/``). Without ``--srcdir``: the conf directory itself (``sphinx-quickstart``'s
    layouts), unless it has a ``source/`` folder holding an ``index`` page and no ``conf.py`` of its
    own (``sphinx-build -c . source``, as this project's own book is built).
    """
    if confdir is not None:
        conf = (cwd / confdir).resolve()
    else:
        conf = next((d for d in (cwd, cwd / "source", cwd / "docs", cwd / "doc") if (d / "conf.py").is_file()),
                    cwd).resolve()
    if srcdir is not None:
        return conf, (cwd / srcdir).resolve()
    pages = conf / "source"
    if not (pages / "conf.py").exists() and any((pages / f"index{suffix}").is_file() for suffix in _PAGES):
        return conf, pages
    return conf, conf


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status."""
    args = get_parser().parse_args(argv)
    confdir, srcdir = find_book(Path.cwd(), args.confdir, args.srcdir)
    if args.command == "cache":
        try:
            root = cachecmd.cache_dir(confdir)
        except Exception as error:  # conf.py is the author's code: any error is theirs to see
            print(f"error: cannot read {confdir / 'conf.py'}: {error}", file=sys.stderr)
            return 2
        print(cachecmd.info(root) if args.action == "info" else cachecmd.clear(root))
        return 0
    accept: Set[ChangeClass] | None = None
    if getattr(args, "accept", None) is not None:
        try:
            accept = parse_classes(args.accept)
        except ValueError as error:
            print(f"error: --accept {args.accept!r}: {error}; valid: {valid_classes()}", file=sys.stderr)
            return 2
    from . import bump  # tags and branches: resolved with git, only when asked for

    if args.command == "bump":
        return bump.bump(confdir, srcdir, args.name, args.ref, write=args.write)
    try:
        pins, refs = bump.resolve_pins(confdir, getattr(args, "pin", []))
        paths: dict[str, Path] = {}
        records, engine = read_book(confdir, srcdir, pins=pins, paths=paths)
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.command == "update":
        return _update(records, engine, as_json=args.json, accept=accept)
    if args.command == "fix":
        return fix(records, paths, confdir, write=args.write, floor=args.min_similarity or THRESHOLD)
    if args.json:
        print(json.dumps([r.to_check_json() for r in records], indent=2, ensure_ascii=False))
    elif args.markdown:
        print(markdown(records, pins, refs))
    else:
        report(records)
    bump.note_moved_refs(engine, skip=pins)
    return 1 if any(record.status.failed for record in records) else 0


def report(records: list[AnchorRecord]) -> int:
    """Print one line per target and the summary; 1 when any anchor drifted, else 0."""
    for line in lines(records):
        print(line)
    print(summary(records))
    return 1 if any(record.status.failed for record in records) else 0


class BookError(Exception):
    """The book could not be read (bad config, bad lock, unknown --pin name)."""


def read_book(confdir: Path, srcdir: Path, *, pins: dict[str, str],
              paths: dict[str, Path] | None = None) -> tuple[list[AnchorRecord], Engine]:
    """Read the book quietly, with *pins* replacing pinned commits; every anchor record and the engine.

    *paths*, when given, receives each page's source file by document name.
    """
    if not (confdir / "conf.py").is_file():
        raise BookError(f"no conf.py in {confdir}; run in the folder of conf.py or just above its source/, "
                        "docs/ or doc/ folder, or pass --confdir")
    from sphinx.application import Sphinx
    from sphinx.errors import SphinxError
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    from ..sphinx_ext.domain import get_domain
    from ..sphinx_ext.state import get_state

    # As sphinx-build does: roles, directives and nodes registered by this read are undone after it,
    # so a caller's own Sphinx application in the same process starts clean.
    with tempfile.TemporaryDirectory(prefix="source-anchors-cli.") as tmp, patch_docutils(confdir), \
            docutils_namespace():
        warnings = io.StringIO()
        try:
            overrides = {f"{PREFIX}quiet": True, f"{PREFIX}pin_commits": pins}
            app = Sphinx(str(srcdir), str(confdir), os.path.join(tmp, "out"), os.path.join(tmp, "doctrees"),
                         "dummy", confoverrides=overrides, status=None, warning=warnings, freshenv=True)
            app.build(force_all=True)
        except SphinxError as error:
            raise BookError(str(error)) from None
        except SystemExit:
            text = re.sub(r"\x1b\[[0-9;]*m", "", warnings.getvalue()).strip()  # Sphinx colours its errors
            raise BookError(text or "the book's configuration is invalid") from None
        records = list(get_domain(app.env).all_anchors())
        if paths is not None:
            paths.update({doc: Path(app.env.doc2path(doc)) for doc in app.env.found_docs})
        engine = get_state(str(app.srcdir)).engine
    return sorted(records, key=lambda r: r.order), engine


def _update(records: list[AnchorRecord], engine: Engine, *, as_json: bool, accept: Set[ChangeClass] | None) -> int:
    try:
        changes = engine.relock((record.outcome for record in records), accept=accept)
    except LockError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    missing = [r for r in records if r.status in (Status.missing, Status.error)]
    kept = {r.outcome.name for r in missing if r.outcome.locked is not None}
    unlocked = {r.outcome.name for r in missing} - kept
    # With --accept: the changed targets of other classes, which keep their record.
    refused = sorted({r.outcome.name for r in records
                      if r.status is Status.changed and not relockable(r.outcome, accept)})
    accepted = ", ".join(kind for kind in ChangeClass if kind in (accept or ()))
    if as_json:
        print(json.dumps({"changes": [{"change": c, "target": f"{k[0]}:{k[1]}"} for c, k in changes],
                          "kept": refused, "anchors": [r.to_check_json() for r in records]},
                         indent=2, ensure_ascii=False))
    else:
        for line in lines(records):
            print(line)
        for change, (repo, key) in changes:
            print(f"{change:<8} {repo}:{key}")
        total = sum(len(recs) for recs in engine.lock.records.values())
        print(f"{engine.settings.lock_path.name}: {len(changes)} change(s), {total} record(s); "
              f"{len(unlocked)} target(s) not locked" + (f", {len(kept)} that could not be checked keep their "
                                                         "record" if kept else "")
              + (f"; {len(refused)} changed target(s) of other classes than {accepted} keep their record"
                 if refused else ""))
    return 1 if missing else 0


def _similarity(text: str) -> float:
    """``--min-similarity``: a number from the threshold to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not THRESHOLD <= value <= 1:
        raise argparse.ArgumentTypeError(f"{value} is not between {THRESHOLD} and 1")
    return value

