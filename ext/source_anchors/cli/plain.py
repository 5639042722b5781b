"""``source-anchors check|update|fix PATH…`` on plain Markdown files, without conf.py (:mod:`source_anchors.plain`).

The repository is the git checkout holding the paths; the lock is ``source-anchors.lock`` at its
root, or ``--lock FILE``, or ``lock`` in ``pyproject.toml``'s ``[tool.source-anchors]`` (where
``cache-dir`` may be set too).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from ..engine.engine import Engine
from ..model.errors import SourceAnchorsError
from ..model.records import Status
from ..plain.anchors import Found, MarkdownLinks, left_alone, uncommitted
from ..plain.citing import code_records
from ..plain.heal import plan, relock, relock_edits, write_pages
from ..plain.wording import check_summary
from ..sources.apigit import find_repo
from ..sphinx_ext import annotate
from ..suggest.lines import THRESHOLD
from . import plaincode
from .plainconf import settings_values

__all__ = ["beside_book", "markdown_files", "outside_book", "run"]

_SUFFIXES = (".md", ".markdown")
_DRIFT = (Status.moved, Status.changed, Status.missing, Status.new, Status.error)


def markdown_files(paths: list[str]) -> list[Path]:
    """The Markdown files named by *paths*: files as given, folders searched (``_build`` and dot folders left out)."""
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files += sorted(
                p
                for p in path.rglob("*")
                if p.suffix.lower() in _SUFFIXES
                and p.is_file()
                and not any(
                    part.startswith((".", "_build")) or part == "node_modules" for part in p.parts
                )
            )
        else:
            files.append(path)
    return files


def run(args: argparse.Namespace) -> int:
    """Run ``check``, ``update`` or ``fix`` on the Markdown files of *args*; the exit status."""
    from ..model.config import settings_from

    problem = plaincode.usage_problem(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    staged = bool(getattr(args, "staged", False))
    pages, code = plaincode.split_paths(args.paths)
    if code and args.command == "update":
        print(
            f"error: {code[0]}: not a Markdown file or folder; 'update' relocks the links of the "
            "Markdown it is given (and prunes the rest): give it your Markdown files and folders",
            file=sys.stderr,
        )
        return 2
    files = markdown_files(pages)
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        print(f"error: {missing[0]}: no such Markdown file", file=sys.stderr)
        return 2
    start = files[0].resolve().parent if files else Path.cwd()
    if staged:
        from ..sources.staged import staged_repo  # --staged runs only

        made = staged_repo(start, timeout=60)
        repo = None if isinstance(made, str) else made
    else:
        repo = find_repo(start, timeout=60)
    if repo is None:
        print(
            f"error: {files[0] if files else '.'}: not in a git checkout with a commit; "
            "commit the files first",
            file=sys.stderr,
        )
        return 2
    deleted: list[str] = []
    if staged and not args.paths:  # the staged files themselves
        changed, deleted = plaincode.staged_paths(repo.root, timeout=60)
        pages, code = plaincode.split_paths(changed)
        files = markdown_files(pages)
    elif staged:
        deleted = plaincode.staged_paths(repo.root, timeout=60)[1]
    outside = [str(f) for f in files if not f.resolve().is_relative_to(repo.root)]
    if outside:
        print(f"error: {outside[0]}: not in the repository {repo.root.name}", file=sys.stderr)
        return 2
    try:
        settings = settings_from(
            settings_values(str(repo.root), getattr(args, "lock", None)), confdir=repo.root
        )
        engine = Engine(dataclasses.replace(settings, own_staged=staged))
    except SourceAnchorsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    links = MarkdownLinks(engine, repo.root)
    found = links.links(files)
    if code or deleted:
        cited = plaincode.repo_paths(code, repo.root) | set(deleted)
        found += plaincode.citing_links(links, cited, files, timeout=60)
    for _, message in links.unread:
        print(f"error: {message}", file=sys.stderr)
    note = uncommitted(links, found) if args.command == "check" and not staged else None
    if note:
        print(note, file=sys.stderr)
    if args.command == "update":
        return _update(links, found, files)
    if args.command == "fix":
        floor = getattr(args, "min_similarity", None) or THRESHOLD
        return _fix(links, found, write=args.write, to_head=args.to == "HEAD", floor=floor)
    return _check(links, found, args)


def _check(links: MarkdownLinks, found: list[Found], args: argparse.Namespace) -> int:
    records = [links.record(item) for item in found]
    failing = [r for r in records if r.status in _DRIFT and r.outcome.group != "old permalink"]
    fmt = "json" if getattr(args, "json", False) else getattr(args, "format", "text")
    if fmt == "text":
        broken = sum(r.status is Status.error for r in failing)
        for record in records:
            if record.status is not Status.ok:
                print(f"{record.page}:{record.line}: {record.outcome.message}")
        print(
            check_summary(len(records), len(failing) - broken, broken, links.others),
            file=sys.stderr,
        )
    elif fmt == "json":
        print(json.dumps([r.to_check_json() for r in records], indent=2))
    else:  # the Markdown lines, and the code lines that broke them; old permalinks are notes
        failed = [r for r in annotate.problems(records) if r.outcome.group != "old permalink"]
        shown = failed + code_records(records)
        print(annotate.render(fmt, shown, {r.page: r.page for r in shown}))
    return 1 if failing or links.unread else 0


def _update(links: MarkdownLinks, found: list[Found], files: list[Path]) -> int:
    elsewhere = plaincode.cited_elsewhere(links, files, timeout=60)
    if isinstance(elsewhere, str):  # the lock is left as it was: pruning needs the other files
        print(f"error: {elsewhere}", file=sys.stderr)
        return 2
    try:
        changes, problems = relock(links, found, cited_elsewhere=elsewhere)
    except SourceAnchorsError as error:  # an unwritable lock: said once, the lock unchanged
        print(f"error: {error}", file=sys.stderr)
        return 2
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    for kind, (repo, key) in changes:
        print(f"{kind}: {repo}:{key}")
    permalinks = sum(1 for item in found if item.says.rev is not None)
    print(
        f"{len(found) - permalinks - len(problems)} of {len(found) - permalinks} line link(s) "
        f"locked in {links.engine.settings.lock_path.name} ({len(changes)} change(s))"
        + (f"; {permalinks} permalink(s) need no record" if permalinks else "")
        + left_alone(links),
        file=sys.stderr,
    )
    return 1 if problems or links.unread else 0


def _fix(
    links: MarkdownLinks, found: list[Found], *, write: bool, to_head: bool, floor: float
) -> int:
    """Heal moved and missing links (with ``--write``; else list what would change)."""
    edits, unfixed = plan(links, found, to_head=to_head, floor=floor)
    for line in unfixed:
        print(line, file=sys.stderr)
    pages = {edit.page for edit in edits}
    if not write:
        for edit in edits:
            print(edit.describe())
        print(
            f"would heal {len(edits)} link(s) in {len(pages)} file(s); {len(unfixed)} not fixed"
            + left_alone(links)
            + ("; run again with --write to apply" if edits else ""),
            file=sys.stderr,
        )
        return 1 if links.unread else 0
    written, errors = write_pages(links.root, edits)
    done = [edit for edit in edits if edit.page in written]
    for edit in done:
        print(edit.describe())
    try:
        relock_edits(links, done)
    except SourceAnchorsError as error:
        errors.append(f"{error}; the links are rewritten: run 'source-anchors update' to lock them")
    for message in errors:
        print(f"error: {message}", file=sys.stderr)
    print(
        f"healed {len(done)} link(s) in {len(written)} file(s); {len(unfixed)} not fixed"
        + left_alone(links),
        file=sys.stderr,
    )
    return 2 if errors else 1 if links.unread else 0


def outside_book(paths: list[str], srcdir: Path) -> list[str]:
    """The Markdown files and folders of *paths* outside the book's pages in *srcdir* (README.md …).

    A folder that holds the pages is the book's.
    """
    outside = []
    for name in paths:
        path = Path(name).resolve()
        if path.is_relative_to(srcdir):
            continue
        if path.is_dir():
            if not srcdir.is_relative_to(path):
                outside.append(name)
        elif path.suffix.lower() in _SUFFIXES:
            outside.append(name)
    return outside


def beside_book(args: argparse.Namespace, outside: list[str], confdir: Path) -> int:
    """``check|update|fix`` of Markdown files beside a book, which are none of its pages.

    Their line links are locked in a lock of their own (``source-anchors.lock`` at the repository
    root, or ``[tool.source-anchors]``'s ``lock``), never in the book's: each front end's ``update``
    prunes what it does not cite. ``check`` of files whose links were never locked says so and
    passes (the book's pre-commit hook passes every staged Markdown file).
    """
    start = Path(outside[0]).resolve()
    repo = find_repo(start if start.is_dir() else start.parent, timeout=60)
    if repo is None:
        print(f"error: {outside[0]}: not in a git checkout with a commit", file=sys.stderr)
        return 2
    lock = Path(str(settings_values(str(repo.root), None)["lock_file"]))
    lock = lock if lock.is_absolute() else (repo.root / lock).resolve()
    shown = ", ".join(outside)
    if lock == (confdir / "source-anchors.lock").resolve():
        print(
            f"error: {shown}: no page of the book in {confdir.name or confdir}, and the lock of "
            f"Markdown line links would be the book's ({lock.name}); give them a lock of their "
            "own: '--lock FILE', or lock = \"FILE\" in pyproject.toml's [tool.source-anchors]",
            file=sys.stderr,
        )
        return 2
    if args.command == "check" and not lock.is_file():
        print(
            f"note: {shown}: no page of the book; no line link of theirs is locked "
            f"({lock.relative_to(repo.root)} does not exist): 'source-anchors update "
            f"{' '.join(outside)}' locks them",
            file=sys.stderr,
        )
        return 0
    args.paths, args.lock = outside, str(lock)
    return run(args)
