"""``update`` and ``fix`` of Markdown line links: the lock relocked, moved links rewritten (no Sphinx)."""

from __future__ import annotations

import posixpath
from dataclasses import replace

from ..markup.mdlinks import MdLink
from ..model.config import SELF
from ..model.records import Outcome, Status
from ..model.target import parse_target
from .anchors import LINES_KEY, Found, MarkdownLinks, lines_key
from .forms import with_lines

__all__ = ["heal", "relock"]


def relock(
    links: MarkdownLinks, found: list[Found]
) -> tuple[list[tuple[str, tuple[str, str]]], list[str]]:
    """Lock every link of *found* by what its lines show (``update``); the lock's changes and the problems."""
    pin = links.engine.own_pin()
    if isinstance(pin, str):
        return [], [pin]
    outcomes, problems = [], []
    for item in found:
        if item.says.rev is not None:
            continue  # a permalink's lines never change: it is compared with HEAD, not locked
        located = links.locate(item, pin.commit)
        if isinstance(located, str):
            problems.append(f"{item.page}:{item.link.line}: {located}")
            continue
        key, location = located
        target = parse_target(f"{SELF}:{key}", default_repo=None)
        outcomes.append(
            Outcome(str(target), Status.ok, target=target, commit=pin.commit, location=location)
        )
    others = {
        (repo, key)
        for repo, recs in links.engine.lock.records.items()
        if repo != SELF
        for key in recs
    }
    changes = links.engine.relock(outcomes, kept=others)
    return changes, problems


def heal(
    links: MarkdownLinks, found: list[Found], *, to_head: bool
) -> dict[str, list[tuple[MdLink, str]]]:
    """The new destination of each moved relative link (and, *to_head*, each old permalink), by page.

    The lock's records of the healed links follow them to their new lines (nothing else is
    relocked: a changed body stays reported until ``update``).
    """
    pin = links.engine.own_pin()
    if isinstance(pin, str):
        return {}
    edits: dict[str, list[tuple[MdLink, str]]] = {}
    outcomes, dropped = [], set()
    for item in found:
        says, outcome = item.says, links.outcome(item)
        location = outcome.location
        if location is None or outcome.status in (Status.error, Status.missing, Status.new):
            continue
        if says.rev is None:
            if outcome.status is not Status.moved:
                continue
            path = location.path
            dest = (
                path
                if item.page.rpartition("/")[0] == ""
                else posixpath.relpath(path, item.page.rpartition("/")[0])
            )
            address = item.link.url.partition("#")[0]
            if location.path == says.path:
                dest = address
            url = with_lines(dest, location.start, location.end, style=says.style)
        elif to_head and not pin.commit.startswith(says.rev):
            url = with_lines(
                item.link.url,
                location.start,
                location.end,
                style=says.style,
                rev=pin.commit,
                path=location.path,
            )
        else:
            continue
        edits.setdefault(item.page, []).append((item.link, url))
        if says.rev is None and outcome.target is not None and outcome.status is not Status.changed:
            key = outcome.target.key
            if LINES_KEY.search(key) and outcome.locked is not None:
                dropped.add((SELF, key))
                key = lines_key(location.path, location.start, location.end)
            target = parse_target(f"{SELF}:{key}", default_repo=None)
            outcomes.append(replace(outcome, target=target, status=Status.ok, commit=pin.commit))
    if outcomes:
        kept = {
            (repo, key) for repo, recs in links.engine.lock.records.items() for key in recs
        } - dropped
        links.engine.relock(outcomes, kept=kept)
    return edits
