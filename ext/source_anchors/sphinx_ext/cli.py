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
from typing import Any

from ..core.changes import ChangeClass, parse_classes, valid_classes
from ..core.config import PREFIX
from ..core.engine import Engine, relockable
from ..core.errors import LockError
from ..core.linesuggest import THRESHOLD
from ..core.records import AnchorRecord, Status
from . import annotate, cachecmd
from .apidomain import api_records
from .cliout import lines, markdown, summary
from .fixcmd import fix


def get_parser() -> argparse.ArgumentParser:
    """The argument parser of ``source-anchors``."""
    parser = argparse.ArgumentParser(prog="source-anchors",
                                     description="Check or update the source-anchors lock of a Sphinx book.")
    _book_options(parser, default=None)
    # The same options after the command ('source-anchors check --confdir docs'); SUPPRESS keeps a
    # value given before the command when none is given after it.
    book = argparse.ArgumentParser(add_help=False)
    _book_options(book, default=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_parser_with(book))
    check = sub.add_parser("check", help="report every anchor's status; exit 1 on any drift")
    check.add_argument("--pin", action="append", default=[], metavar="NAME=REF",
                       help="preview the anchors at another commit of NAME, given as a 40-hex SHA, a tag or a "
                            "branch (resolved with git ls-remote; conf.py and lock untouched)")
    check.add_argument("--markdown", action="store_true", help="print a review checklist for a pull request")
    check.add_argument("pages", nargs="*", metavar="PAGE",
                       help="report only the anchors written in these page files (as pre-commit passes them); "
                            "files that are no page of the book are ignored")
    check.add_argument("--format", choices=annotate.FORMATS, default="text",
                       help="text (default); json (as --json); github (workflow commands on the page lines); "
                            "gitlab (a Code Quality report); sarif (SARIF 2.1.0). Paths are relative to the "
                            "current directory")
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
    bump.add_argument("ref", metavar="REF", nargs="?", help="a 40-hex commit SHA, a tag or a branch of its URL")
    bump.add_argument("--latest", action="store_true",
                      help="instead of REF, the newest release tag at its URL (PEP 440 / semantic version order); "
                           "with --write also fix the pages and relock what only moved or was reformatted")
    bump.add_argument("--pre", action="store_true", help="with --latest, count pre-releases too")
    bump.add_argument("--body", default=None, metavar="FILE",
                      help="with --latest, write a pull-request body there ('-': print it)")
    bump.add_argument("--write", action="store_true",
                      help="replace the old commit (and 'ref') in conf.py where each is written once as a "
                           "string literal; then run 'source-anchors update' to relock")
    pin = sub.add_parser("pin", help="write a first pin: the commit a tag or branch names (git ls-remote), and "
                                     "the tag or branch as 'ref', into the entry NAME of conf.py")
    pin.add_argument("name", metavar="NAME", help="the repository, a key of source_anchors_repos")
    pin.add_argument("ref", metavar="REF", nargs="?", default=None,
                     help="a tag or branch of its URL (default: the entry's 'commit' when it is not a SHA, "
                          "else its 'ref')")
    record = sub.add_parser("facts", help="record the licences the pinned commit's manifests declare and the "
                                          "evidence of third-party files, in the file each pin's 'facts' "
                                          "key names (needs the files: run where git is reachable)")
    record.add_argument("names", nargs="*", metavar="NAME", help="the repositories (default: every pin with 'facts')")
    ci = sub.add_parser("init-ci", help="write a CI workflow: the strict build on pull requests and a scheduled "
                                         "bump to the newest releases that opens one pull request")
    ci.add_argument("kind", choices=("github", "gitlab"))
    ci.add_argument("--output", default=None, metavar="FILE",
                    help="where to write it (default: .github/workflows/source-anchors.yml or .gitlab-ci.yml at the "
                         "root of the git repository)")
    ci.add_argument("--force", action="store_true", help="replace an existing file")
    cache = sub.add_parser("cache", help="show where the caches are and how big (info), or empty them (clear)")
    cache.add_argument("action", choices=("info", "clear"))
    return parser


def _book_options(parser: argparse.ArgumentParser, *, default: object) -> None:
    parser.add_argument("--confdir", default=default,
                        help="directory holding conf.py (default: ., else source/, docs/ or doc/ if it has one)")
    parser.add_argument("--srcdir", default=default,
                        help="directory of the pages (default: CONFDIR/source when it holds the root page "
                             "and no conf.py of its own, else CONFDIR)")


def _parser_with(parent: argparse.ArgumentParser) -> type[argparse.ArgumentParser]:
    """A parser class whose instances (the subcommands) also take *parent*'s options."""

    class Subcommand(argparse.ArgumentParser):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["parents"] = [*kwargs.get("parents", []), parent]
            super().__init__(*args, **kwargs)

    return Subcommand


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
    if args.command == "facts":
        from .factscmd import facts

        return facts(confdir, args.names)
    if args.command == "init-ci":
        from .initci import init_ci

        return init_ci(args.kind, confdir, srcdir, output=args.output, force=args.force)
    accept: Set[ChangeClass] | None = None
    if getattr(args, "accept", None) is not None:
        try:
            accept = parse_classes(args.accept)
        except ValueError as error:
            print(f"error: --accept {args.accept!r}: {error}; valid: {valid_classes()}", file=sys.stderr)
            return 2
    from . import bump  # tags and branches: resolved with git, only when asked for

    if args.command == "bump" and (args.latest or args.ref is None):
        from .bumpbot import latest

        if args.ref is not None or not args.latest:
            print("error: bump: give REF or --latest, not both" if args.ref else "error: bump: give REF or --latest",
                  file=sys.stderr)
            return 2
        return latest(confdir, srcdir, args.name, write=args.write, pre=args.pre, body=args.body)
    if args.command == "bump":
        return bump.bump(confdir, srcdir, args.name, args.ref, write=args.write)
    if args.command == "pin":
        from .pincmd import pin

        return pin(confdir, args.name, args.ref)
    try:
        pins, refs = bump.resolve_pins(confdir, getattr(args, "pin", []))
        paths: dict[str, Path] = {}
        records, engine = read_book(confdir, srcdir, pins=pins, paths=paths)
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if engine.settings.cache_note:
        print(f"warning: {engine.settings.cache_note}", file=sys.stderr)
    if args.command == "update":
        return _update(records, engine, as_json=args.json, accept=accept)
    if args.command == "fix":
        return fix(records, paths, confdir, write=args.write, floor=args.min_similarity or THRESHOLD)
    if args.pages:
        records = annotate.on_pages(records, paths, args.pages)
    if args.json or args.format != "text":
        text = annotate.render("json" if args.json else args.format, records, annotate.page_paths(paths, Path.cwd()))
        print(text, end="\n" if text else "")
    elif args.markdown:
        print(markdown(records, pins, refs))
    else:
        report(records)
    if not args.pages:  # a hook's check stays offline: whether a pin's ref moved is asked of the remote
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

    from .domain import get_domain
    from .state import get_state

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
            text = re.sub(r"^(?:ERROR|WARNING): ", "", text, flags=re.MULTILINE)  # printed after our "error: "
            raise BookError(text or "the book's configuration is invalid") from None
        records = [*get_domain(app.env).all_anchors(), *api_records(app.env)]  # API links into a pin, too
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

