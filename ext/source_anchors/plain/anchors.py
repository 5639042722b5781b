"""Line links of Markdown files checked against the lock, relocked and healed, on the engine (no Sphinx).

A link is locked by what its lines show (:func:`shown`): the innermost definition whose lines are
exactly the link's (``/lib/mod.py#Greeter.greet``, in any language the project reads), else the
statement its first line starts (``/lib/mod.py::return x``); the lock's ``self`` record keeps its
path, lines, hash and blob. A relative link finds its record by its file and lines, and the engine
checks the record's target at HEAD: ``ok``, ``moved``, ``changed`` with its
class, ``missing`` with a suggestion. Lines that show neither are checked by their text. A
permalink is never locked: what its lines show at its own commit is looked up at HEAD.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..engine.engine import Engine
from ..markup.mdlinks import md_links
from ..model.config import SELF
from ..model.errors import SourceAnchorsError
from ..model.records import AnchorRecord, Location, Outcome, Status
from ..model.subtypes import Subtype
from ..model.target import Target, parse_target
from .forms import LineLink, line_link
from .lines import LINES_KEY, Found, digest, keys_by_lines, lines_key, shown
from .permalinks import permalink_outcome, same_file
from .wording import left_alone_tail, uncommitted_note

if TYPE_CHECKING:
    from ..lock.lockfile import Lock

__all__ = [
    "LINES_KEY",
    "Found",
    "MarkdownLinks",
    "left_alone",
    "lines_key",
    "same_file",
    "shown",
    "uncommitted",
]

_LINE_END = re.compile(rb"\r\n|\r|\n")


class MarkdownLinks:
    """The line links of some Markdown files of the engine's ``self`` repository, checked, relocked, healed."""

    def __init__(self, engine: Engine, root: Path) -> None:
        self.engine = engine
        self.root = root
        #: Links left alone, by why (into another repository, outside the repository).
        self.others: dict[str, int] = {}
        #: Files that could not be read, with the message.
        self.unread: list[tuple[str, str]] = []
        #: The lock's ``self`` keys by (path, start, end) (:meth:`key_of`), made when first asked.
        self._by_lines: tuple[Lock, dict[tuple[str, int, int], str]] | None = None
        #: The target of each lock key asked (links cite the same code again and again).
        self._targets: dict[str, Target] = {}

    def links(self, files: list[Path]) -> list[Found]:
        """The line links of *files* (one located message per file that is not UTF-8)."""
        pin = self.engine.own_pin()
        web = None if isinstance(pin, str) or pin.url.startswith("file:") else pin.url
        found: list[Found] = []
        for file in files:
            page = file.resolve().relative_to(self.root).as_posix()
            data = file.read_bytes()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as error:
                line = len(_LINE_END.findall(data, 0, error.start)) + 1
                self.unread.append(
                    (
                        page,
                        f"{page}:{line}: not UTF-8 ({error.reason} at byte {error.start}); its links "
                        "are not read: save it as UTF-8",
                    )
                )
                continue
            for link in md_links(text):
                says = line_link(link.url, link.title, page_dir=page.rpartition("/")[0], web=web)
                if isinstance(says, str):
                    self.others[says] = self.others.get(says, 0) + 1
                elif says is not None:
                    found.append(Found(page, link, says))
        return found

    def record(self, found: Found) -> AnchorRecord:
        """What checking one link gave, at its Markdown line."""
        return AnchorRecord(
            page=found.page,
            line=found.link.line,
            label=found.link.label,
            outcome=self.outcome(found),
            seq=found.link.start,
        )

    def outcome(self, found: Found) -> Outcome:
        """The link's status against the lock and HEAD."""
        says = found.says
        pin = self.engine.own_pin()
        if isinstance(pin, str):
            return Outcome(found.link.url, Status.error, message=pin, subtype=Subtype.source)
        if says.rev is not None:  # never locked: its lines at its commit, looked up at HEAD
            return self._old(found, permalink_outcome(self.engine, found, pin.commit), pin.commit)
        if says.explicit is not None:
            try:
                explicit = parse_target(says.explicit, default_repo=SELF)
            except SourceAnchorsError:
                explicit = None  # check_text says why
            outcome = (
                self.engine.unchanged(explicit) if explicit is not None else None
            ) or self.engine.check_text(says.explicit, default_repo=SELF)
            return self._against_link(found, outcome, pin.commit)
        key = self.key_of(says, pin.commit)
        name = f"{found.link.url}"
        if key is None:
            where = f"{says.path}:L{says.start}-L{says.end}"
            problem = self._problem(says, pin.commit)
            if problem:
                return Outcome(name, Status.error, message=problem, subtype=Subtype.target)
            return Outcome(
                name,
                Status.new,
                subtype=Subtype.new,
                message=f"new: {where} is not in {self.engine.settings.lock_path.name}; run "
                "'source-anchors update' and commit the lock",
            )
        target = self._targets.get(key)
        if target is None:
            target = self._targets[key] = parse_target(f"{SELF}:{key}", default_repo=None)
        known = self.engine.unchanged(target)  # nothing read when its files are the locked blobs
        if known is not None:
            return known
        if LINES_KEY.search(key):
            return self._text(found, key, pin.commit)
        return self._old(found, self.engine.check(target), pin.commit)

    def key_of(self, says: LineLink, head: str | None = None) -> str | None:
        """The lock key of a relative link: the record at its file and lines.

        Else, with *head*, a record of a definition or statement of the same file whose code is at
        the link's lines at *head*: a link ``fix`` moved to a changed definition's new lines finds
        the record that still holds the old text, so the change stays reported until ``update``.
        """
        lock = self.engine.lock
        if self._by_lines is None or self._by_lines[0] is not lock:
            self._by_lines = (lock, keys_by_lines(lock))
        same = self._by_lines[1].get((says.path, says.start, says.end))
        if same is not None or head is None:
            return same
        records = lock.records.get(SELF, {})
        for key, rec in sorted(records.items()):
            if rec.path != says.path or LINES_KEY.search(key):
                continue
            try:
                now = self.engine.resolve_at(SELF, head, key)
            except SourceAnchorsError:
                continue
            if (now.path, now.start, now.end) == (says.path, says.start, says.end):
                return key
        return None

    def drifted_record(self, found: Found, head: str) -> tuple[str, str] | None:
        """(key, why) when ``update`` must not relock a relative link by what its lines show now.

        A link locked by a definition or statement whose code is now at other lines (moved, or
        changed and longer or shorter) or gone would be relocked as whatever its old lines show:
        a link to the wrong lines that checks clean. ``fix --write`` moves it first.
        """
        says = found.says
        if says.rev is not None or says.explicit is not None:
            return None
        key = self.key_of(says)
        if key is None or LINES_KEY.search(key):
            return None
        at = f"{says.path}:L{says.start}-L{says.end}"
        try:
            now = self.engine.resolve_at(SELF, head, key)
        except SourceAnchorsError:
            return key, (
                f"self:{key}, locked at {at}, is missing at HEAD; run 'source-anchors fix' for a "
                "suggestion, or edit the link, then 'source-anchors update'"
            )
        if (now.path, now.start, now.end) != (says.path, says.start, says.end):
            return key, (
                f"self:{key} is now at {now.describe()}, the link says {at}; run "
                "'source-anchors fix --write' first, then 'source-anchors update'"
            )
        return None

    def _problem(self, says: LineLink, head: str) -> str | None:
        """Why the link's lines cannot be read at its commit (a missing file, lines past the end), or None."""
        try:
            shown(self.engine, says.rev or head, says.path, says.start, says.end)
        except SourceAnchorsError as error:
            return f"{says.path}#L{says.start}-L{says.end}: {error}"
        return None

    def _text(self, found: Found, key: str, head: str) -> Outcome:
        """Lines that show no definition or statement: compared by their text."""
        says, locked = found.says, self.engine.lock.get(SELF, key)
        assert locked is not None
        try:
            lines = self.engine.lines_at(SELF, head, says.path)
        except SourceAnchorsError as error:
            return Outcome(
                key, Status.missing, message=f"missing: {key}: {error}", subtype=Subtype.missing
            )
        size = says.end - says.start + 1
        spans = [(n, n + size - 1) for n in range(1, len(lines) - size + 2)]
        same = [s for s in spans if digest(lines[s[0] - 1 : s[1]]) == locked.sha256]
        if (says.start, says.end) in same:
            status, at = Status.ok, (says.start, says.end)
        elif same:
            status, at = Status.moved, same[0]
        else:
            status, at = Status.changed, (says.start, min(says.end, len(lines)))
        location = Location(
            path=says.path,
            start=at[0],
            end=at[1],
            kind="lines",
            sha256=digest(lines[at[0] - 1 : at[1]]),
            blob=locked.blob,
        )
        message = f"{status}: {key} {locked.describe()} → {location.describe()}"
        return self._old(
            found,
            Outcome(
                key,
                status,
                message=message,
                location=location,
                locked=locked,
                subtype=None if status is Status.ok else Subtype(status.value),
                commit=head,
                target=parse_target(f"{SELF}:{key}", default_repo=None),
            ),
            head,
        )

    def _against_link(self, found: Found, outcome: Outcome, head: str) -> Outcome:
        """An explicit target's outcome, and ``moved`` when its lines are no longer the link's."""
        says, location = found.says, outcome.location
        if (
            location is None
            or (says.rev is not None and says.rev != head)
            or (location.path, location.start, location.end) == (says.path, says.start, says.end)
        ):
            return self._old(found, outcome, head)
        if outcome.status in (Status.ok, Status.new, Status.moved):
            message = (
                f"moved: {outcome.name} is at {location.describe()}, the link says "
                f"{says.path}:L{says.start}-L{says.end}; run 'source-anchors fix --write'"
            )
            return replace(outcome, status=Status.moved, message=message, subtype=Subtype.moved)
        return outcome

    @staticmethod
    def _old(found: Found, outcome: Outcome, head: str) -> Outcome:
        """A permalink to an older commit is never broken, only old: its drift is a note, not a failure."""
        rev = found.says.rev
        if (
            rev is None
            or head.startswith(rev)
            or outcome.status not in (Status.moved, Status.changed, Status.missing)
        ):
            return outcome
        return replace(
            outcome,
            group="old permalink",
            message=f"old permalink ({rev[:7]}): {outcome.message}; 'source-anchors fix --write "
            "--to HEAD' moves it to HEAD",
        )

    # -- update and fix ------------------------------------------------------

    def locate(self, found: Found, head: str) -> tuple[str, Location] | str:
        """The key and location that ``update`` locks a link by, or why it cannot."""
        says = found.says
        if says.explicit is not None:
            target = parse_target(says.explicit, default_repo=SELF)
            try:
                return target.key, self.engine.resolve_at(SELF, says.rev or head, target.key)
            except SourceAnchorsError as error:
                return f"{says.explicit}: {error}"
        try:
            return shown(self.engine, says.rev or head, says.path, says.start, says.end)
        except SourceAnchorsError as error:
            return f"{says.path}#L{says.start}-L{says.end}: {error}"


def left_alone(links: MarkdownLinks) -> str:
    """The summary's tail naming the links left alone, by why (``; left alone: 1 another repository``)."""
    return left_alone_tail(links.others)


def uncommitted(links: MarkdownLinks, found: list[Found]) -> str | None:
    """One line naming the files *found* cites that have uncommitted edits (links are read at HEAD), or None."""
    pin = links.engine.own_pin()
    if isinstance(pin, str):
        return None
    changed = links.engine.uncommitted(item.says.path for item in found)
    if not changed:
        return None
    return uncommitted_note(changed, pin.commit)
