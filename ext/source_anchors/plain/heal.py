"""``update`` and ``fix`` of Markdown line links: the lock relocked, moved and missing links rewritten (no Sphinx).

``fix`` plans an :class:`Edit` per link it can heal (:func:`plan`): a moved link to its code's new
lines, a missing one to its suggestion's file and lines (and its ``src:`` title to the new name),
an old permalink to HEAD when asked. :func:`write_pages` rewrites the pages, each atomically with
its line ends, encoding and permissions kept; :func:`relock_edits` then moves the healed links'
lock records, for the pages that were written only.
"""

from __future__ import annotations

import posixpath
import stat
from collections import defaultdict
from collections.abc import Set
from dataclasses import dataclass, replace
from pathlib import Path

from ..markup.mdlinks import MdLink, split_lines
from ..model.config import SELF, RepoPin
from ..model.errors import SourceAnchorsError
from ..model.fsio import atomic_write
from ..model.records import Outcome, Status
from ..model.target import parse_target
from .anchors import LINES_KEY, Found, MarkdownLinks, lines_key, shown
from .forms import with_lines

__all__ = ["Edit", "plan", "relock", "relock_edits", "write_pages"]


def relock(
    links: MarkdownLinks, found: list[Found], *, cited_elsewhere: Set[str] = frozenset()
) -> tuple[list[tuple[str, tuple[str, str]]], list[str]]:
    """Lock every link of *found* by what its lines show (``update``); the lock's changes and the problems.

    The ``self`` records of *cited_elsewhere* (keys the links of Markdown files not given cite)
    are kept, as are the records of a link whose code is now at other lines or gone
    (:meth:`~.anchors.MarkdownLinks.drifted_record`): that is a problem, never a relock.
    """
    pin = links.engine.own_pin()
    if isinstance(pin, str):
        return [], [pin]
    outcomes, problems = [], []
    held = {(SELF, key) for key in cited_elsewhere}
    for item in found:
        if item.says.rev is not None:
            continue  # a permalink's lines never change: it is compared with HEAD, not locked
        drifted = links.drifted_record(item, pin.commit)
        if drifted is not None:
            held.add((SELF, drifted[0]))
            problems.append(f"{item.page}:{item.link.line}: {drifted[1]}")
            continue
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
    changes = links.engine.relock(outcomes, kept=others | held)
    return changes, problems


@dataclass(frozen=True)
class Edit:
    """One link healed: its new destination (and title), why, and what the lock then records for it."""

    page: str
    link: MdLink
    url: str
    #: The new title (its ``src:`` target renamed), or None to keep it.
    title: str | None
    why: str
    #: The record the healed link is locked by (None: an old permalink, which is never locked).
    locked: Outcome | None = None
    #: The lock key the healed link leaves, dropped from the lock (see :func:`_missing`).
    dropped: str | None = None

    def describe(self) -> str:
        """``README.md:3: lib/mod.py#L4-L6 → lib/mod.py#L6-L8 (moved)``, as ``fix`` prints it."""
        where = f"{self.page}:{self.link.line}: {self.link.url}"
        title = f' "{self.title}"' if self.title is not None else ""
        if self.url == self.link.url and self.title is None and self.locked is not None:
            return f"{where}: relocked as {self.locked.name} ({self.why})"
        return f"{where} → {self.url}{title} ({self.why})"


def plan(
    links: MarkdownLinks, found: list[Found], *, to_head: bool, floor: float
) -> tuple[list[Edit], list[str]]:
    """The edits ``fix`` makes to *found*, and a located line for each link it cannot heal.

    A moved relative link gets its code's new lines; a missing one its suggestion's file and lines
    when the suggestion is at least *floor* similar; an old permalink, with *to_head*, HEAD's
    commit and lines. A changed body is not healed: ``update`` relocks it once the prose is read.
    """
    pin = links.engine.own_pin()
    if isinstance(pin, str):
        return [], [pin]
    edits: list[Edit] = []
    unfixed: list[str] = []
    for item in found:
        outcome = links.outcome(item)
        at = f"{item.page}:{item.link.line}"
        if item.says.rev is not None and not to_head and not pin.commit.startswith(item.says.rev):
            continue  # an old permalink is never broken, only old: moved only when asked
        if outcome.status is Status.error:
            unfixed.append(f"{at}: not fixed: {outcome.message}")
            continue
        made: Edit | str | None
        if outcome.status is Status.missing:
            made = _missing(links, item, outcome, pin, floor)
        else:
            made = _moved(item, outcome, pin, to_head=to_head)
        if isinstance(made, str):
            unfixed.append(f"{at}: not fixed: {made}")
        elif made is not None:
            edits.append(made)
    return edits, unfixed


def _moved(item: Found, outcome: Outcome, pin: RepoPin, *, to_head: bool) -> Edit | None:
    """The edit of a moved relative link, or of an old permalink moved to HEAD (*to_head*)."""
    says, location = item.says, outcome.location
    if location is None or outcome.status is Status.new:
        return None
    if says.rev is None:
        here = (location.path, location.start, location.end) == (says.path, says.start, says.end)
        if outcome.status is Status.changed and not here:
            # A changed definition now at other lines: the link follows it; its record keeps the
            # old text, so the change stays reported until ``update`` (after the prose is read).
            url = with_lines(
                _destination(item, location.path), location.start, location.end, style=says.style
            )
            return Edit(item.page, item.link, url, None, f"{Status.changed}, its lines followed")
        if outcome.status is not Status.moved:
            return None
        url = with_lines(
            _destination(item, location.path), location.start, location.end, style=says.style
        )
    elif to_head and not pin.commit.startswith(says.rev):
        url = with_lines(
            item.link.url,
            location.start,
            location.end,
            style=says.style,
            rev=pin.commit,
            path=location.path,
        )
        return Edit(item.page, item.link, url, None, f"old permalink, {outcome.status}")
    else:
        return None
    locked, dropped = None, None
    if outcome.target is not None:
        key = outcome.target.key
        if LINES_KEY.search(key) and outcome.locked is not None:
            dropped, key = key, lines_key(location.path, location.start, location.end)
        target = parse_target(f"{SELF}:{key}", default_repo=None)
        locked = replace(outcome, target=target, status=Status.ok, commit=pin.commit)
    return Edit(item.page, item.link, url, None, Status.moved.value, locked, dropped)


def _missing(
    links: MarkdownLinks, item: Found, outcome: Outcome, pin: RepoPin, floor: float
) -> Edit | str:
    """The edit of a missing link to its suggestion, or why there is none to apply."""
    says, suggestion = item.says, outcome.suggestion
    if suggestion is None:
        return f"{outcome.name}: no suggestion; edit the link by hand"
    if suggestion.similarity < floor:
        return f"{outcome.name}: suggestion {suggestion.describe()} is below {floor}; edit the link by hand"
    engine, head = links.engine, pin.commit
    title = None
    try:
        location = engine.resolve_at(SELF, head, suggestion.key)
        if says.explicit is not None and item.link.title is not None:
            written = says.explicit
            prefix = "" if outcome.target is None or outcome.target.defaulted else f"{SELF}:"
            at = item.link.title.rfind(written)
            title = f"{item.link.title[:at]}{prefix}{suggestion.key}{item.link.title[at + len(written) :]}"
            key = suggestion.key
        else:
            key, location = shown(engine, head, location.path, location.start, location.end)
    except SourceAnchorsError as error:
        return f"{outcome.name}: suggestion {suggestion.key}: {error}"
    if says.rev is None:
        url = with_lines(
            _destination(item, location.path), location.start, location.end, style=says.style
        )
    else:
        url = with_lines(
            item.link.url,
            location.start,
            location.end,
            style=says.style,
            rev=head,
            path=location.path,
        )
    why = f"{Status.missing}; {suggestion.describe()}"
    if says.rev is not None:
        return Edit(item.page, item.link, url, title, f"old permalink, {why}")
    target = parse_target(f"{SELF}:{key}", default_repo=None)
    locked = Outcome(str(target), Status.ok, target=target, commit=head, location=location)
    # A link without a title finds its record by its lines: a record left at the same lines (a
    # definition renamed in place) would be found in place of the new one, so it goes. Any other
    # stays until ``update`` prunes it (a file fix was not given may still cite it).
    old = outcome.locked
    same_lines = old is not None and (old.path, old.start, old.end) == (
        location.path,
        location.start,
        location.end,
    )
    dropped = (
        outcome.target.key
        if outcome.target is not None and says.explicit is None and same_lines
        else None
    )
    return Edit(item.page, item.link, url, title, why, locked, dropped)


def _destination(item: Found, path: str) -> str:
    """A relative link's new address to *path*: as written when the file is the same, else relative to the page."""
    if path == item.says.path:
        return item.link.url.partition("#")[0]
    folder = item.page.rpartition("/")[0]
    return posixpath.relpath(path, folder) if folder else path


def write_pages(root: Path, edits: list[Edit]) -> tuple[set[str], list[str]]:
    """Apply *edits* to their pages under *root*; the pages written (or left as they were) and the errors.

    Each page is rewritten atomically, its line ends, UTF-8 and permissions kept; only the links'
    destinations and titles change. A page that cannot be read or written is unchanged, and named.
    """
    by_page: dict[str, list[Edit]] = defaultdict(list)
    for edit in edits:
        by_page[edit.page].append(edit)
    done: set[str] = set()
    errors: list[str] = []
    for page, page_edits in sorted(by_page.items()):
        path = root / page
        try:
            text = path.read_bytes().decode("utf-8")
            mode = stat.S_IMODE(path.stat().st_mode)
        except (OSError, UnicodeError) as error:
            errors.append(f"{page}: cannot read it ({error}); it is unchanged")
            continue
        lines = split_lines(text)
        spans: list[tuple[int, int, int, str, str]] = []
        for edit in page_edits:
            link = edit.link
            if edit.url != link.url:
                spans.append((link.line, link.start, link.end, link.url, edit.url))
            if edit.title is not None and link.title is not None:
                spans.append((link.line, link.title_start, link.title_end, link.title, edit.title))
        stale = [s for s in spans if s[0] > len(lines) or lines[s[0] - 1][s[1] : s[2]] != s[3]]
        if stale:
            errors.append(
                f"{page}:{stale[0][0]}: changed while fix ran; it is unchanged: run fix again"
            )
            continue
        for line, start, end, _, new in sorted(set(spans), key=lambda s: (s[0], -s[1])):
            lines[line - 1] = lines[line - 1][:start] + new + lines[line - 1][end:]
        new_text = "".join(lines)
        if new_text != text:
            try:
                atomic_write(path, new_text, mode=mode)
            except OSError as error:
                errors.append(
                    f"{page}: cannot write it ({error.strerror or error}); it is unchanged: make it "
                    "writable and run fix again"
                )
                continue
        done.add(page)
    return done, errors


def relock_edits(links: MarkdownLinks, edits: list[Edit]) -> None:
    """Lock the healed links of *edits* where they now point; the keys they left are dropped.

    Nothing else is relocked: a changed body stays reported until ``update``.
    """
    outcomes = [edit.locked for edit in edits if edit.locked is not None]
    if not outcomes:
        return
    dropped = {(SELF, edit.dropped) for edit in edits if edit.dropped is not None}
    kept = {
        (repo, key) for repo, recs in links.engine.lock.records.items() for key in recs
    } - dropped
    links.engine.relock(outcomes, kept=kept)
