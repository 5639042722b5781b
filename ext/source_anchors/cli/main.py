"""Command line ``source-anchors`` (or ``python -m source_anchors``), one module per command.

Run it where you run ``sphinx-build``: the book is found as Sphinx projects are laid out (see
:func:`.book.find_book`); ``--confdir`` and ``--srcdir`` say it outright. This module holds the
argument parser and, from the table :data:`COMMANDS`, sends each command to its own module
(:mod:`.check`, :mod:`.update`, :mod:`.fix`, :mod:`.bump` and :mod:`.bumpbot`, :mod:`.pin`,
:mod:`.facts`, :mod:`.initci`, :mod:`.cache`); the book is read by :mod:`.book`.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # nothing is imported here that a warm check does not need (see main)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence, Set
    from pathlib import Path
    from typing import Any

    from ..model.changeclass import ChangeClass
    from .unread import Unimported

__all__ = ["find_book", "get_parser", "main"]


def get_parser() -> argparse.ArgumentParser:
    """The argument parser of ``source-anchors``."""
    import argparse

    from ..model.changeclass import valid_classes
    from ..sphinx_ext import annotate
    from ..suggest.lines import THRESHOLD

    parser = argparse.ArgumentParser(
        prog="source-anchors",
        description="Check or update the source-anchors lock of a Sphinx book, or of the line "
        "links in Markdown files: 'source-anchors check|update|fix README.md docs/' where no "
        "conf.py is found (or with --lock FILE).",
    )
    _book_options(parser, default=None)
    # The same options after the command ('source-anchors check --confdir docs'); SUPPRESS keeps a
    # value given before the command when none is given after it.
    book = argparse.ArgumentParser(add_help=False)
    _book_options(book, default=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_parser_with(book))
    check = sub.add_parser("check", help="report every anchor's status; exit 1 on any drift")
    check.add_argument(
        "--pin",
        action="append",
        default=[],
        metavar="NAME=REF",
        help="preview the anchors at another commit of NAME, given as a 40-hex SHA, a tag or a "
        "branch (resolved with git ls-remote; conf.py and lock untouched)",
    )
    check.add_argument(
        "--markdown", action="store_true", help="print a review checklist for a pull request"
    )
    check.add_argument(
        "pages",
        nargs="*",
        metavar="PAGE",
        help="report only the anchors written in these page files (as pre-commit passes them); "
        "files that are no page of the book are ignored. Without conf.py (or with --lock or "
        "--staged): Markdown files and folders, whose line links are checked, and code files, "
        "whose locked citing links in any tracked Markdown file are checked",
    )
    check.add_argument(
        "--format",
        choices=annotate.FORMATS,
        default="text",
        help="text (default); json (as --json); github (workflow commands on the page lines); "
        "gitlab (a Code Quality report); sarif (SARIF 2.1.0). Paths are relative to the "
        "current directory",
    )
    update = sub.add_parser("update", help="re-resolve every anchor and rewrite the lock")
    update.add_argument(
        "--accept",
        default=None,
        metavar="CLASSES",
        help="relock only the changed anchors of these classes of change (comma-separated: "
        f"{valid_classes().replace(', ', ',')}); moved and new anchors are relocked too, "
        "other changed and missing ones keep their record",
    )
    fix = sub.add_parser(
        "fix",
        help="rewrite missing targets in the pages to their suggestions (a diff; "
        "--write applies it)",
    )
    fix.add_argument("--write", action="store_true", help="apply the rewrite to the page files")
    fix.add_argument(
        "--min-similarity",
        type=_similarity,
        default=None,
        metavar="S",
        help=f"only suggestions at least this similar (default and floor: {THRESHOLD})",
    )
    for command in (check, update):
        command.add_argument("--json", action="store_true", help="print the results as JSON")
    for command in (update, fix):
        command.add_argument(
            "pages",
            nargs="*",
            metavar="PATH",
            help="Markdown files or folders outside the book: check their line links without "
            "Sphinx (docs: 'Docs that cite their own code'); fix also takes code files, as "
            "check does",
        )
    for command in (check, update, fix):
        command.add_argument(
            "--lock",
            default=None,
            metavar="FILE",
            help="with Markdown PATHs: the lock file (default: source-anchors.lock at the "
            "repository root, or 'lock' in pyproject.toml's [tool.source-anchors])",
        )
    for command in (check, update, fix):
        command.add_argument(
            "--staged",
            action="store_true",
            help="with Markdown PATHs: read the repository's code from git's index, as it will be "
            "committed, not from HEAD (the pre-commit hook's mode); without PATHs, the staged "
            "files",
        )
    fix.add_argument(
        "--to",
        choices=("HEAD",),
        default=None,
        help="with Markdown PATHs: also move permalinks to HEAD's commit and lines",
    )
    bump = sub.add_parser(
        "bump",
        help="preview the anchors at another commit, tag or branch of a pin; "
        "--write moves the pin in conf.py",
    )
    bump.add_argument("name", metavar="NAME", help="the repository, a key of source_anchors_repos")
    bump.add_argument(
        "ref", metavar="REF", nargs="?", help="a 40-hex commit SHA, a tag or a branch of its URL"
    )
    bump.add_argument(
        "--latest",
        action="store_true",
        help="instead of REF, the newest release tag at its URL (PEP 440 / semantic version order); "
        "with --write also fix the pages and relock what only moved or was reformatted",
    )
    bump.add_argument("--pre", action="store_true", help="with --latest, count pre-releases too")
    bump.add_argument(
        "--body",
        default=None,
        metavar="FILE",
        help="with --latest, write a pull-request body there ('-': print it)",
    )
    bump.add_argument(
        "--write",
        action="store_true",
        help="replace the old commit (and 'ref') in conf.py where each is written once as a "
        "string literal; then run 'source-anchors update' to relock",
    )
    pin = sub.add_parser(
        "pin",
        help="write a first pin: the commit a tag or branch names (git ls-remote), and "
        "the tag or branch as 'ref', into the entry NAME of conf.py",
    )
    pin.add_argument("name", metavar="NAME", help="the repository, a key of source_anchors_repos")
    pin.add_argument(
        "ref",
        metavar="REF",
        nargs="?",
        default=None,
        help="a tag or branch of its URL (default: the entry's 'commit' when it is not a SHA, "
        "else its 'ref')",
    )
    record = sub.add_parser(
        "facts",
        help="record the licences the pinned commit's manifests declare and the "
        "evidence of third-party files, in the file each pin's 'facts' "
        "key names (needs the files: run where git is reachable)",
    )
    record.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="the repositories (default: every pin with 'facts')",
    )
    ci = sub.add_parser(
        "init-ci",
        help="write a CI workflow: the strict build on pull requests and a scheduled "
        "bump to the newest releases that opens one pull request; without conf.py, a job that "
        "checks the Markdown line links on pull requests",
    )
    ci.add_argument("kind", choices=("github", "gitlab"))
    ci.add_argument(
        "--output",
        default=None,
        metavar="FILE",
        help="where to write it (default: .github/workflows/source-anchors.yml or .gitlab-ci.yml at the "
        "root of the git repository)",
    )
    ci.add_argument("--force", action="store_true", help="replace an existing file")
    cache = sub.add_parser(
        "cache", help="show where the caches are and how big (info), or empty them (clear)"
    )
    cache.add_argument("action", choices=("info", "clear"))
    return parser


def _book_options(parser: argparse.ArgumentParser, *, default: object) -> None:
    parser.add_argument(
        "--confdir",
        default=default,
        help="directory holding conf.py (default: ., else source/, docs/ or doc/ if it has one)",
    )
    parser.add_argument(
        "--srcdir",
        default=default,
        help="directory of the pages (default: CONFDIR/source when it holds the root page "
        "and no conf.py of its own, else CONFDIR)",
    )


def _parser_with(parent: argparse.ArgumentParser) -> type[argparse.ArgumentParser]:
    """A parser class whose instances (the subcommands) also take *parent*'s options."""
    import argparse

    class Subcommand(argparse.ArgumentParser):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["parents"] = [*kwargs.get("parents", []), parent]
            super().__init__(*args, **kwargs)

    return Subcommand


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit status.

    A ``check`` of Markdown whose every link the lock answers is :mod:`.warm`'s, which loads
    neither the engine nor argparse; every other command is parsed and sent to its runner.
    """
    given = list(sys.argv[1:] if argv is None else argv)
    from .warm import warm_check

    status = warm_check(given)
    if status is not None:
        return status
    from pathlib import Path

    args = get_parser().parse_args(given)
    if _plain(args):
        from .plain import run

        args.paths = args.pages
        return run(args)
    confdir, srcdir = find_book(Path.cwd(), args.confdir, args.srcdir)
    pages = getattr(args, "pages", None) or []
    if args.command in ("check", "update", "fix") and pages:
        from .plain import beside_book, outside_book

        outside = outside_book(pages, srcdir)
        if outside:  # README.md beside docs/conf.py: its line links are the plain front end's
            args.pages = [page for page in pages if page not in outside]
            status = COMMANDS[args.command](args, confdir, srcdir) if args.pages else 0
            return max(status, beside_book(args, outside, confdir))
    return COMMANDS[args.command](args, confdir, srcdir)


def _plain(args: argparse.Namespace) -> bool:
    """Whether ``check``, ``update`` or ``fix`` of Markdown paths is the plain front end's.

    It is where no book is found (no ``conf.py``), or where ``--lock`` names the lock of the plain
    front end, or ``--staged`` reads the repository from the index (:mod:`.plaincode`). Beside a
    book, the Markdown files given that are no page of it go to the plain front end too
    (:func:`.plain.beside_book`), the pages to the book's.
    """
    pages = getattr(args, "pages", None) or []
    if args.command not in ("check", "update", "fix"):
        return False
    if args.staged:
        return True
    if not pages:
        return False
    if args.lock is not None:
        return True
    from pathlib import Path

    confdir, _ = find_book(Path.cwd(), args.confdir, args.srcdir)
    return not (confdir / "conf.py").is_file()


if TYPE_CHECKING:
    #: What a command runs: its parsed arguments and the book's conf and page folders in, the exit
    #: status out.
    Runner = Callable[[argparse.Namespace, Path, Path], int]


def find_book(cwd: Path, confdir: str | None, srcdir: str | None) -> tuple[Path, Path]:
    """(confdir, srcdir) of the book, as ``sphinx-build`` would be told them (:func:`.book.find_book`)."""
    from .book import find_book as found

    return found(cwd, confdir, srcdir)


def _cache(args: argparse.Namespace, confdir: Path, srcdir: Path) -> int:
    from . import cache as cachecmd

    try:
        root = cachecmd.cache_dir(confdir)
    except Exception as error:  # conf.py is the author's code: any error is theirs to see
        print(f"error: cannot read {confdir / 'conf.py'}: {error}", file=sys.stderr)
        return 2
    from pathlib import Path

    cwd = Path.cwd()
    if args.action == "info":
        warm = cachecmd.warm_info(cwd)
        print(cachecmd.info(root) + (f"\n{warm}" if warm else ""))
    else:
        print(cachecmd.clear(root, cwd))
    return 0


def _facts(args: argparse.Namespace, confdir: Path, srcdir: Path) -> int:
    from .facts import facts

    return facts(confdir, args.names)


def _init_ci(args: argparse.Namespace, confdir: Path, srcdir: Path) -> int:
    if not (confdir / "conf.py").is_file():  # no book: Markdown that cites the repository's code
        from .initplain import init_plain_ci

        return init_plain_ci(args.kind, output=args.output, force=args.force)
    from .initci import init_ci

    return init_ci(args.kind, confdir, srcdir, output=args.output, force=args.force)


def _bump(args: argparse.Namespace, confdir: Path, srcdir: Path) -> int:
    if args.latest or args.ref is None:
        if args.ref is not None or not args.latest:
            print(
                "error: bump: give REF or --latest, not both"
                if args.ref
                else "error: bump: give REF or --latest",
                file=sys.stderr,
            )
            return 2
        from .bumpbot import latest

        return latest(confdir, srcdir, args.name, write=args.write, pre=args.pre, body=args.body)
    from . import bump  # tags and branches: resolved with git, only when asked for

    return bump.bump(confdir, srcdir, args.name, args.ref, write=args.write)


def _pin(args: argparse.Namespace, confdir: Path, srcdir: Path) -> int:
    from .pin import pin

    return pin(confdir, args.name, args.ref)


class _Read:
    """The book read for ``check``, ``update`` and ``fix``: its records, engine and what went with them."""

    def __init__(self, args: argparse.Namespace, confdir: Path, srcdir: Path) -> None:
        from . import bump  # --pin NAME=REF: resolved with git, only when asked for
        from .book import read_book

        self.pins, self.refs = bump.resolve_pins(confdir, getattr(args, "pin", []))
        self.paths: dict[str, Path] = {}
        self.unimported: list[Unimported] = []
        self.records, self.engine = read_book(
            confdir, srcdir, pins=self.pins, paths=self.paths, unimported=self.unimported
        )
        if self.engine.settings.cache_note:
            print(f"warning: {self.engine.settings.cache_note}", file=sys.stderr)


def _reading(action: Callable[[argparse.Namespace, _Read, Path], int]) -> Runner:
    """A command that reads the book first; a book that cannot be read is one error, exit 2."""

    def run(args: argparse.Namespace, confdir: Path, srcdir: Path) -> int:
        from .book import BookError

        try:
            read = _Read(args, confdir, srcdir)
        except BookError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        return action(args, read, confdir)

    return run


def _check(args: argparse.Namespace, read: _Read, confdir: Path) -> int:
    from .check import check

    return check(
        read.records,
        read.engine,
        pins=read.pins,
        refs=read.refs,
        paths=read.paths,
        pages=args.pages,
        as_json=args.json,
        fmt=args.format,
        as_markdown=args.markdown,
        unimported=read.unimported,
    )


def _update(args: argparse.Namespace, confdir: Path, srcdir: Path) -> int:
    from pathlib import Path

    from ..model.changeclass import parse_classes, valid_classes
    from ..sphinx_ext import annotate
    from .unread import lock_only, notice
    from .update import update

    accept: Set[ChangeClass] | None = None
    if args.accept is not None:
        try:
            accept = parse_classes(args.accept)
        except ValueError as error:
            print(
                f"error: --accept {args.accept!r}: {error}; valid: {valid_classes()}",
                file=sys.stderr,
            )
            return 2

    def relock(args: argparse.Namespace, read: _Read, confdir: Path) -> int:
        records = read.records
        # the API links autodoc could not give are relocked from the lock, never pruned
        if read.unimported:
            records = [*records, *lock_only(records, read.engine)]
            print(
                "warning: "
                + notice(
                    read.unimported,
                    annotate.page_paths(read.paths, Path.cwd()),
                    "their API links were not read from the pages: their locked records are "
                    "relocked by their keys, not pruned, and an object the lock does not "
                    "record is not locked",
                ),
                file=sys.stderr,
            )
        return update(records, read.engine, as_json=args.json, accept=accept)

    return _reading(relock)(args, confdir, srcdir)


def _fix(args: argparse.Namespace, read: _Read, confdir: Path) -> int:
    from ..suggest.lines import THRESHOLD
    from .fix import fix

    return fix(
        read.records, read.paths, confdir, write=args.write, floor=args.min_similarity or THRESHOLD
    )


#: Each command's runner: a new command is its module, its subparser in :func:`get_parser` and one
#: row here.
COMMANDS: dict[str, Runner] = {
    "check": _reading(_check),
    "update": _update,
    "fix": _reading(_fix),
    "bump": _bump,
    "pin": _pin,
    "facts": _facts,
    "init-ci": _init_ci,
    "cache": _cache,
}


def _similarity(text: str) -> float:
    """``--min-similarity``: a number from the threshold to 1."""
    import argparse

    from ..suggest.lines import THRESHOLD

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not THRESHOLD <= value <= 1:
        raise argparse.ArgumentTypeError(f"{value} is not between {THRESHOLD} and 1")
    return value
