"""What a Markdown line link's lines show, and the lock's keys by lines (no Sphinx).

A link is locked by what its lines show (:func:`shown`): the innermost definition whose lines are
exactly the link's, else the statement its first line starts, else the lines' text
(:func:`lines_key`).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.engine import Engine
from ..markup.mdlinks import MdLink
from ..model.config import SELF
from ..model.errors import SourceAnchorsError
from ..model.records import Location
from .forms import LineLink

if TYPE_CHECKING:
    from ..lock.lockfile import Lock

__all__ = ["LINES_KEY", "Found", "digest", "keys_by_lines", "lines_key", "shown"]


@dataclass(frozen=True)
class Found:
    """One line link of a page: the page (from the repository root), the Markdown link, what it says."""

    page: str
    link: MdLink
    says: LineLink


LINES_KEY = re.compile(r"#L\d+-L\d+$")


def lines_key(path: str, start: int, end: int) -> str:
    """The lock key of lines that show no definition or statement: ``/path#L4-L6``."""
    return f"/{path}#L{start}-L{end}"


def digest(lines: list[str]) -> str:
    """The sha256 of *lines* joined by newlines, as the lock records a range's text."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def shown(engine: Engine, commit: str, path: str, start: int, end: int) -> tuple[str, Location]:
    """The key a link to lines *start*-*end* of *path* at *commit* is locked by, and its location.

    Raises :class:`SourceAnchorsError` (a file not in the commit, lines past its end), its message
    naming the fix.
    """
    pin = engine.own_pin()
    at = "HEAD" if not isinstance(pin, str) and pin.commit == commit else commit[:7]
    if start < 1 or end < start:
        raise SourceAnchorsError(
            f"L{start}-L{end} is not a range of lines (they count from 1, the first comes first); "
            "correct the link's lines"
        )
    if not engine.blob_at(SELF, commit, path):
        raise SourceAnchorsError(
            f"{path} is not a file of the repository at {at} ({commit[:7]}); correct the link's "
            "path, or commit the file"
        )
    lines = engine.lines_at(SELF, commit, path)
    if end > len(lines):
        raise SourceAnchorsError(
            f"lines {start}-{end} are past the end of {path} ({len(lines)} lines at {at}); "
            "correct the link's lines"
        )
    keys: list[str] = []
    try:
        exact = [
            d for d in engine.definitions_at(SELF, commit, path) if (d.start, d.end) == (start, end)
        ]
    except (SourceAnchorsError, SyntaxError, ValueError):  # a grammar not installed too
        exact = []
    keys += [f"/{path}#{d.dotted}" for d in sorted(exact, key=lambda d: -len(d.path))]
    first = lines[start - 1].strip()
    if first and "::" not in first:
        keys.append(f"/{path}::{first}")
    for key in keys:
        try:
            location = engine.resolve_at(SELF, commit, key)
        except SourceAnchorsError:
            continue
        if (location.path, location.start, location.end) == (path, start, end):
            return key, location
    blob = engine.blob_at(SELF, commit, path)
    text = lines[start - 1 : end]
    return lines_key(path, start, end), Location(
        path=path, start=start, end=end, kind="lines", sha256=digest(text), blob=blob
    )


def keys_by_lines(lock: Lock) -> dict[tuple[str, int, int], str]:
    """The lock's ``self`` keys by their record's (path, start, end); the first in key order."""
    found: dict[tuple[str, int, int], str] = {}
    for key, rec in sorted(lock.records.get(SELF, {}).items()):
        found.setdefault((rec.path, rec.start, rec.end), key)
    return found
