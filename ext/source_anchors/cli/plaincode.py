"""Code files given to the plain front end, and ``--staged``: what the pre-commit hook for Markdown runs.

pre-commit passes every staged file, code and Markdown. ``check PATH…`` (and ``fix``) takes both:
a Markdown file or a folder is checked whole; any other file is code, and the links that cite it
are checked, in whichever tracked Markdown file they are written, as far as the lock records them
(:func:`~source_anchors.plain.citing.citing`). With ``--staged`` the repository is read from git's
index, as it will be committed (:mod:`source_anchors.sources.staged`), and the files the index
deletes or renames away count as given too, so that links into a file's old name are found.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from ..model.config import SELF
from ..model.errors import GitError, SourceAnchorsError
from ..model.target import parse_target
from ..plain.anchors import Found, MarkdownLinks
from ..plain.citing import cited_paths, citing

__all__ = [
    "MARKDOWN",
    "cited_elsewhere",
    "citing_links",
    "split_paths",
    "staged_paths",
    "tracked_markdown",
    "usage_problem",
]

#: The suffixes of Markdown files (a folder is searched for these).
MARKDOWN = (".md", ".markdown")


def usage_problem(args: argparse.Namespace) -> str | None:
    """Why the options of *args* do not go together, or None."""
    if getattr(args, "staged", False) and getattr(args, "to", None) == "HEAD":
        return (
            "--to HEAD moves permalinks to a commit, and with --staged there is none yet: "
            "commit first, then run 'source-anchors fix --write --to HEAD'"
        )
    return None


def split_paths(paths: list[str]) -> tuple[list[str], list[str]]:
    """*paths* as (Markdown files and folders, code files): a file of another suffix is code."""
    pages, code = [], []
    for name in paths:
        path = Path(name)
        if path.is_dir() or path.suffix.lower() in MARKDOWN:
            pages.append(name)
        else:
            code.append(name)
    return pages, code


def staged_paths(root: Path, *, timeout: float) -> tuple[list[str], list[str]]:
    """The files the index changes (as paths from the current folder), and the ones it deletes."""
    from ..sources.staged import index_changes  # --staged runs only

    changed, deleted = index_changes(root, timeout=timeout)
    return [str(root / p) for p in changed], deleted


def repo_paths(names: list[str], root: Path) -> set[str]:
    """*names* (from the current folder; they need not exist) as paths from *root*, those inside it."""
    out = set()
    for name in names:
        path = Path(name).absolute().resolve()
        if path.is_relative_to(root):
            out.add(path.relative_to(root).as_posix())
    return out


def tracked_markdown(
    links: MarkdownLinks, given: list[Path], *, timeout: float
) -> list[Path] | str:
    """The tracked Markdown files of the repository not in *given*, or why they cannot be listed."""
    from ..sources import proc

    try:
        raw = proc.git(
            ["ls-files", "-z", "--", *(f"*{s}" for s in MARKDOWN)], cwd=links.root, timeout=timeout
        )
    except GitError as error:
        return f"cannot list the Markdown files of {links.root.name}: {error}"
    mine = {p.absolute().resolve() for p in given}
    return [
        links.root / name
        for name in sorted(raw.decode("utf-8", "surrogateescape").split("\0"))
        if name and (links.root / name).is_file() and (links.root / name).resolve() not in mine
    ]


def cited_elsewhere(links: MarkdownLinks, given: list[Path], *, timeout: float) -> set[str] | str:
    """The ``self`` lock keys that links of tracked Markdown files not in *given* cite (``update`` keeps them)."""
    records = links.engine.lock.records.get(SELF, {})
    if not records:
        return set()
    pages = tracked_markdown(links, given, timeout=timeout)
    if isinstance(pages, str):
        return pages
    scan = MarkdownLinks(links.engine, links.root)
    keys: set[str] = set()
    for item in scan.links(pages):
        says = item.says
        if says.explicit is not None:
            with contextlib.suppress(SourceAnchorsError):
                keys.add(parse_target(says.explicit, default_repo=SELF).key)
        elif says.rev is None:
            keys.add(scan.key_of(says) or "")
    return keys & records.keys()


def citing_links(
    links: MarkdownLinks, code: set[str], given: list[Path], *, timeout: float
) -> list[Found]:
    """The locked links of the tracked Markdown files not in *given* whose lines are in *code*."""
    records = links.engine.lock.records.get(SELF, {})
    if not code & cited_paths(records):
        return []  # nothing the lock records cites these files: no Markdown file is read
    pin = links.engine.own_pin()
    if isinstance(pin, str):
        return []
    pages = tracked_markdown(links, given, timeout=timeout)
    if isinstance(pages, str):
        print(f"error: {pages}", file=sys.stderr)
        return []
    scan = MarkdownLinks(links.engine, links.root)  # their unreadable files are not this check's
    return citing(scan.links(pages), records, code, head=pin.commit)
