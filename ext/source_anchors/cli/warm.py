"""``source-anchors check PATH…`` of Markdown answered from the lock when nothing cited changed (no engine).

The warm check is the common one: a pull request that did not touch the code its docs cite. The
full front end (:mod:`.plain`) answers it without reading a source file too
(:mod:`source_anchors.engine.unchanged`), but loads the engine, the resolver and the records to do
so, and runs git ten times; that costs ten times what listing the files and reading the Markdown
costs. :func:`warm_check` answers the same check with the standard library's lightest modules,
four git processes (``rev-parse``, ``config``, ``ls-tree``, ``status``; one more ``ls-tree`` per
older commit a permalink names) and one pass over the lock's JSON:

- every line link of the pages (:mod:`source_anchors.markup.mdscan`,
  :mod:`source_anchors.plain.lineparts`) is looked up in the lock by its file and lines, or by the
  target its title states, and is ``ok`` when HEAD holds its record's file, and every file its
  resolution read, at the locked blob ids, by the resolver that wrote the lock; a permalink to an
  older commit is ``ok`` when its file is the same blob at HEAD;
- it then prints what :mod:`.plain` prints for that check (the note on uncommitted cited files, the
  summary, or the empty ``github`` and ``gitlab`` reports) and exits 0.

Anything else returns None having printed nothing, and the full front end answers from the start:
another command or option, ``--format json|sarif``, a book (``conf.py``), a code file among the
paths, a missing or non-UTF-8 page, a lock that is absent, invalid or written by another resolver,
a link that is not ``ok`` by these rules, an ``origin`` on a host that is not known, a git that
fails. ``tests/test_plain_warm.py`` holds both answers side by side.
"""

from __future__ import annotations

import json
import os
import sys

from ..lock.lockform import readable
from ..markup.mdscan import link_matches, title_span, url_span
from ..model.errors import SourceAnchorsError
from ..model.remotes import KNOWN_HOSTNAMES, web_url, without_credentials
from ..model.targettext import split_target, target_key
from ..model.version import RESOLVER_VERSION
from ..plain.lineparts import line_parts
from ..plain.wording import check_summary, uncommitted_note
from ..sources.gitlite import changed_of, git_output, listing_of
from .plainconf import lock_file

TYPE_CHECKING = False  # typing itself is not imported: this module's point is what it loads
if TYPE_CHECKING:
    from typing import Any

__all__ = ["warm_check"]

#: The formats whose output for a check with nothing to report is known here.
FORMATS = ("text", "github", "gitlab")
_SUFFIXES = (".md", ".markdown")
_BOOK = (".", "source", "docs", "doc")
_TIMEOUT = 60
_SELF = "self"


def warm_check(argv: list[str]) -> int | None:
    """The exit status of ``source-anchors ARGV`` when it is a check every link of which is ``ok`` by the lock.

    Else None, nothing printed: the command is the full front end's.
    """
    request = _request(argv)
    if request is None:
        return None
    paths, fmt, lock = request
    try:
        answer = _Warm(lock).answer(paths)
    except (OSError, ValueError, RecursionError, SourceAnchorsError):
        return None  # unreadable, undecodable, invalid: the full front end says what
    if answer is None:
        return None
    count, others, changed, head = answer
    if changed:
        print(uncommitted_note(changed, head), file=sys.stderr)
    if fmt == "text":
        print(check_summary(count, 0, 0, others), file=sys.stderr)
    elif fmt == "github":
        print("")  # no workflow command: nothing drifted
    else:
        print(json.dumps([], indent=2))  # a Code Quality report of no problem
    return 0


def _request(argv: list[str]) -> tuple[list[str], str, str | None] | None:
    """The paths, format and ``--lock`` of ``check [--format F] [--lock FILE] PATH…`` of Markdown; else None."""
    if not argv or argv[0] != "check":
        return None
    paths: list[str] = []
    fmt, lock = "text", None
    args = iter(argv[1:])
    for arg in args:
        if not arg.startswith("-"):
            paths.append(arg)
            continue
        name, eq, value = arg.partition("=")
        if name not in ("--format", "--lock"):
            return None
        if not eq:
            value = next(args, "")
        if not value or value.startswith("-"):
            return None
        if name == "--format":
            fmt = value
        else:
            lock = value
    if fmt not in FORMATS or not paths or "" in paths:
        return None
    if lock is None and any(os.path.isfile(os.path.join(d, "conf.py")) for d in _BOOK):
        return None  # a book's pages: read with Sphinx
    return paths, fmt, lock


def _name_parts(name: str) -> list[str]:
    """The parts :class:`pathlib.PurePosixPath` makes of *name*, its root left out."""
    return [part for part in name.split("/") if part not in ("", ".")]


def _suffix(name: str) -> str:
    """:attr:`pathlib.PurePath.suffix` of a file *name*."""
    at = name.rfind(".")
    return name[at:] if 0 < at < len(name) - 1 else ""


def _skipped(part: str) -> bool:
    return part.startswith((".", "_build")) or part == "node_modules"


def markdown_files(paths: list[str]) -> list[str] | None:
    """What :func:`.plain.markdown_files` finds, in its order, or None when a path is code.

    (``check`` of a code file checks the links citing it: the full front end's.)
    """
    files: list[str] = []
    for name in paths:
        parts = _name_parts(name)
        if os.path.isdir(name):
            if not any(_skipped(part) for part in parts):
                files += _folder(name)
        elif _suffix(parts[-1] if parts else "").lower() in _SUFFIXES:
            files.append(name)
        else:
            return None
    return files


def _folder(name: str) -> list[str]:
    """The Markdown files under folder *name*, in :class:`pathlib.Path` order (part by part)."""
    found = []
    for folder, folders, names in os.walk(name):
        folders[:] = [part for part in folders if not _skipped(part)]
        for part in names:
            if _suffix(part).lower() in _SUFFIXES and not _skipped(part):
                path = os.path.join(folder, part)
                if os.path.isfile(path):
                    found.append(path)
    return sorted(found, key=lambda path: path.split("/"))


class _Warm:
    """One warm check: the repository's facts, the lock's ``self`` records, the verdict of each link."""

    def __init__(self, lock: str | None) -> None:
        self.lock = lock
        self.root = ""
        #: HEAD's files and blob ids.
        self.listing: dict[str, str] = {}
        self.by_lines: dict[tuple[str, int, int], str] = {}
        #: HEAD's files and blob ids, and those of each older commit a permalink names.
        self.listings: dict[str, dict[str, str] | None] = {}
        self.records: dict[str, dict[str, Any]] = {}
        self.resolver_ok = False
        #: The lock key of each target text and of each lock key, as the target grammar reads it.
        self.keys: dict[str, tuple[str, str] | None] = {}

    def answer(self, paths: list[str]) -> tuple[int, dict[str, int], list[str], str] | None:
        """(links, links left alone by why, cited files with uncommitted edits, HEAD) when all are ``ok``."""
        files = markdown_files(paths)
        if files is None or not all(os.path.isfile(file) for file in files):
            return None
        start = os.path.dirname(os.path.realpath(files[0])) if files else os.getcwd()
        facts = git_output(
            ["rev-parse", "--show-toplevel", "--verify", "HEAD^{commit}"], start, timeout=_TIMEOUT
        )
        if facts is None:
            return None
        root, head, *_ = [*facts.decode().split("\n"), "", ""]
        if not root.startswith("/") or root == "/" or root != root.strip() or not head:
            return None
        known, web = self._web(root)
        listing = git_output(
            ["ls-tree", "-r", "-z", "--full-tree", head, "--"], root, timeout=_TIMEOUT
        )
        if not known or listing is None or not self._lock(root):
            return None
        self.root = root
        self.listings[head] = self.listing = listing_of(listing)
        self.by_lines = self._by_lines()
        count, others, cited = 0, dict[str, int](), set[str]()
        inside, real_dirs = root + "/", dict[str, str]()
        for file in files:
            real = self._real(file, real_dirs)
            if not real.startswith(inside):
                return None
            page = real[len(inside) :]
            with open(file, "rb") as data:
                text = data.read().decode("utf-8")
            page_dir = page.rpartition("/")[0]
            for _, line, match in link_matches(text, "#L"):
                title_start, title_end = title_span(match)
                parts = line_parts(
                    url_span(match)[0],
                    line[title_start:title_end] if title_start >= 0 else None,
                    page_dir=page_dir,
                    web=web,
                )
                if parts is None:
                    continue
                if isinstance(parts, str):
                    others[parts] = others.get(parts, 0) + 1
                    continue
                if not self._ok(*parts[:5]):
                    return None
                count += 1
                cited.add(parts[0])
        return count, others, self._changed(sorted(cited)), head

    @staticmethod
    def _real(file: str, dirs: dict[str, str]) -> str:
        """``os.path.realpath(file)``, its folder's made once."""
        if os.path.islink(file):
            return os.path.realpath(file)
        folder, _, name = file.rpartition("/")
        real = dirs.get(folder)
        if real is None:
            real = dirs[folder] = os.path.realpath(folder or ".")
        return f"{real}/{name}" if real != "/" else f"/{name}"

    def _web(self, root: str) -> tuple[bool, str | None]:
        """Whether the ``origin`` remote's host is known (or there is none), and its web address."""
        found = git_output(["config", "--get", "remote.origin.url"], root, timeout=_TIMEOUT)
        remote = without_credentials(found.decode().strip()) if found is not None else ""
        web = web_url(remote) if remote else None
        if web is not None and web.partition("://")[2].partition("/")[0] not in KNOWN_HOSTNAMES:
            return (
                False,
                None,
            )  # its permalink template (or that there is none) is the full front end's
        return True, web

    def _lock(self, root: str) -> bool:
        """Read the lock's ``self`` records; False when the lock is absent or not read whole as it is."""
        with open(os.path.realpath(os.path.join(root, lock_file(root, self.lock))), "rb") as file:
            data = json.loads(file.read().decode("utf-8"))
        if not readable(data):
            return False
        python = f"{sys.version_info[0]}.{sys.version_info[1]}"  # str(Python.running())
        self.resolver_ok = data.get("resolver") == {"version": RESOLVER_VERSION, "python": python}
        self.records = data["anchors"].get(_SELF, {})
        return True

    def _by_lines(self) -> dict[tuple[str, int, int], str]:
        """The ``self`` keys by their record's (path, start, end); the first in key order."""
        found: dict[tuple[str, int, int], str] = {}
        for key, record in self.records.items():
            place = (record["path"], record["start"], record["end"])
            known = found.get(place)
            if known is None or key < known:
                found[place] = key
        return found

    def _key(self, text: str, default_repo: str | None) -> tuple[str, str] | None:
        """(repository, lock key) of a target *text*, or None when it is no target."""
        memo = f"{default_repo}\0{text}"
        if memo not in self.keys:
            try:
                repo, path, match, _ = split_target(text, default_repo=default_repo)
                self.keys[memo] = (repo, target_key(path, match))
            except SourceAnchorsError:
                self.keys[memo] = None
        return self.keys[memo]

    def _same(self, record: dict[str, Any], listing: dict[str, str]) -> bool:
        """Whether *listing* holds the record's file and the files its resolution read at their blob ids."""
        return listing.get(record["path"]) == record["blob"] and all(
            listing.get(path) == blob for path, blob in record.get("uses", {}).items()
        )

    def _ok(self, path: str, start: int, end: int, rev: str | None, explicit: str | None) -> bool:
        """Whether a link is ``ok`` by the lock and the blob ids alone (:class:`.plain.anchors.MarkdownLinks`)."""
        if rev is not None:  # a permalink: same_file
            old = self._listing(rev)
            blob = old.get(path) if old is not None else None
            if old is None or not blob or self.listing.get(path) != blob:
                return False
            if explicit is None:
                return True
            target = self._key(explicit, _SELF)
            record = self.records.get(target[1]) if target is not None else None
            return (
                record is not None and self._same(record, old) and self._same(record, self.listing)
            )
        if not self.resolver_ok:
            return False
        if explicit is not None:  # Engine.unchanged, then the link's lines against the record's
            target = self._key(explicit, _SELF)
            if target is None or target[0] != _SELF:
                return False
            record = self.records.get(target[1])
            return (
                record is not None
                and self._same(record, self.listing)
                and (record["path"], record["start"], record["end"]) == (path, start, end)
            )
        key = self.by_lines.get((path, start, end))
        target = self._key(f"{_SELF}:{key}", None) if key is not None else None
        record = self.records.get(target[1]) if target is not None else None
        return record is not None and self._same(record, self.listing)

    def _listing(self, rev: str) -> dict[str, str] | None:
        """The files and blob ids of commit *rev*; None when git cannot list it."""
        if rev not in self.listings:
            raw = git_output(
                ["ls-tree", "-r", "-z", "--full-tree", rev, "--"], self.root, timeout=_TIMEOUT
            )
            self.listings[rev] = listing_of(raw) if raw is not None else None
        return self.listings[rev]

    def _changed(self, cited: list[str]) -> list[str]:
        """Which *cited* files have uncommitted edits (``git status``), as :func:`.apigit.changed_files` says."""
        if not cited:
            return []
        raw = git_output(
            ["status", "--porcelain=v1", "-z", "--untracked-files=no", "--", *cited],
            self.root,
            timeout=_TIMEOUT,
        )
        return changed_of(raw, cited) if raw is not None else []
