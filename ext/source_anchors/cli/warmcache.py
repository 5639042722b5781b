"""What the warm check reads from the lock and the pages, kept by their exact text (no engine).

Reading the lock's JSON, checking its records, finding a page's links and reading what each says
cost a warm check (:mod:`.warm`) most of its time, and give the same for the same text. They are
kept in one :mod:`marshal` file in the checkout's git folder (``.git/source-anchors/warm.marshal``),
each with the text it was read from: the lock's with its path and whole text, a page's with its
path in the repository, its whole text and the ``origin`` web address its permalinks were read
against, a target text's lock key with the text. An entry is used only where the text read now
is the same, string for string, and the file only when it was written by this Python and these
modules (their sizes and times), so that what is kept never answers for what changed. A file
that cannot be read or written is no cache; nothing is written when nothing new was read.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys

from ..model.version import RESOLVER_VERSION, __version__

TYPE_CHECKING = False  # typing itself is not imported: the warm check loads this module
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Record", "WarmCache", "page_links", "read_records"]

#: Bump when what the file holds changes.
FORMAT = 1
#: The modules whose reading the file keeps (its entries are theirs).
_CODE = (
    "cli/warm.py",
    "cli/warmcache.py",
    "markup/mdscan.py",
    "plain/lineparts.py",
    "model/targettext.py",
    "lock/lockform.py",
    "model/version.py",
)
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: A lock record as the warm check compares it: path, start, end, blob, the used files' blob ids.
Record = tuple[str, int, int, str, tuple[tuple[str, str], ...]]
#: What the lock says: whether its resolver is this one, its ``self`` records, their keys by lines.
Records = tuple[bool, dict[str, Record], dict[tuple[str, int, int], str]]
#: A line link's parts (path, start, end, commit, stated target), or why it is left alone.
Link = tuple[str, int, int, "str | None", "str | None"] | str


def _stamp() -> tuple[Any, ...]:
    """What the file must have been written by: its format, this Python, these modules."""
    code = []
    for name in _CODE:
        try:
            stat = os.stat(os.path.join(_PACKAGE, name))
        except OSError:
            return ()
        code.append((stat.st_mtime_ns, stat.st_size))
    return FORMAT, __version__, RESOLVER_VERSION, tuple(sys.version_info[:3]), tuple(code)


def read_records(text: str) -> Records | None:
    """The ``self`` records of the lock's *text*; None when ``read_lock`` would not read it as it is.

    Raises :class:`ValueError` for text that is not JSON.
    """
    import json

    from ..lock.lockform import readable

    data = json.loads(text)
    if not readable(data):
        return None
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"  # str(Python.running())
    resolver_ok = data.get("resolver") == {"version": RESOLVER_VERSION, "python": python}
    records: dict[str, Record] = {
        key: (
            raw["path"],
            raw["start"],
            raw["end"],
            raw["blob"],
            tuple(raw.get("uses", {}).items()),
        )
        for key, raw in data["anchors"].get("self", {}).items()
    }
    by_lines: dict[tuple[str, int, int], str] = {}
    for key, record in records.items():  # the first key in key order, as keys_by_lines
        known = by_lines.get(record[:3])
        if known is None or key < known:
            by_lines[record[:3]] = key
    return resolver_ok, records, by_lines


def page_links(text: str, page: str, web: str | None) -> list[Link]:
    """The line links of a page's *text* (its path *page* in the repository), and the links left alone."""
    from ..markup.mdscan import link_matches, title_span, url_span
    from ..plain.lineparts import line_parts

    found: list[Link] = []
    page_dir = page.rpartition("/")[0]
    for _, line, match in link_matches(text, "#L"):
        if "#L" not in match.group("url"):
            continue  # no line range: line_parts gives None
        title_start, title_end = title_span(match)
        parts = line_parts(
            url_span(match)[0],
            line[title_start:title_end] if title_start >= 0 else None,
            page_dir=page_dir,
            web=web,
        )
        if parts is not None:
            found.append(parts if isinstance(parts, str) else parts[:5])
    return found


class WarmCache:
    """The kept readings of one checkout (:meth:`load`), written back by :meth:`save` when added to."""

    def __init__(self, path: str = "") -> None:
        self.path = path
        #: (repository, lock key) of each (target text, default repository) read.
        self.keys: dict[tuple[str, str | None], tuple[str, str] | None] = {}
        self._lock: tuple[str, str, Records | None] | None = None
        self._pages: dict[str, tuple[str, str, str | None, list[Link]]] = {}
        self.dirty = False

    @classmethod
    def load(cls, git_dir: str) -> WarmCache:
        """The cache of the checkout whose git folder is *git_dir*; empty when there is none to use."""
        cache = cls(os.path.join(git_dir, "source-anchors", "warm.marshal"))
        try:
            with open(cache.path, "rb") as file:
                stamp, keys, lock, pages = marshal.loads(file.read())
        except (OSError, ValueError, EOFError, TypeError):
            return cache
        if stamp == _stamp():
            cache.keys, cache._lock, cache._pages = keys, lock, pages
        return cache

    def lock(self, path: str, text: str) -> tuple[bool, Records | None]:
        """(True, what the lock *text* at *path* says) when kept; else (False, None)."""
        kept = self._lock
        if kept is not None and kept[0] == path and kept[1] == text:
            return True, kept[2]
        return False, None

    def lock_read(self, path: str, text: str, found: Records | None) -> Records | None:
        """Keep what the lock *text* at *path* says (*found*) and give it."""
        self._lock, self.dirty = (path, text, found), True
        return found

    def page(self, real: str, page: str, text: str, web: str | None) -> list[Link] | None:
        """The links kept for the page at *real* (*page* in the repository) when its text and *web* are the same."""
        kept = self._pages.get(real)
        if kept is not None and kept[0] == page and kept[1] == text and kept[2] == web:
            return kept[3]
        return None

    def page_read(
        self, real: str, page: str, text: str, web: str | None, links: list[Link]
    ) -> list[Link]:
        """Keep the *links* read from the page at *real* and give them."""
        self._pages[real], self.dirty = (page, text, web, links), True
        return links

    def save(self) -> None:
        """Write the file when something was added (atomically: a temporary file renamed)."""
        if not self.dirty or not self.path:
            return
        stamp = _stamp()
        if not stamp:
            return
        folder = os.path.dirname(self.path)
        temporary = f"{self.path}.{os.getpid()}.tmp"
        try:
            os.makedirs(folder, exist_ok=True)
            with open(temporary, "wb") as file:
                file.write(marshal.dumps((stamp, self.keys, self._lock, self._pages)))
            os.replace(temporary, self.path)
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                os.unlink(temporary)
