"""``source-anchors check PATH…`` of Markdown answered from the lock when nothing cited changed (no engine).

The warm check is the common one: a pull request that did not touch the code its docs cite. The
full front end (:mod:`.plain`) answers it without reading a source file too
(:mod:`source_anchors.engine.unchanged`), but loads the engine, the resolver and the records to do
so, and runs git ten times; that costs ten times what listing the files and reading the Markdown
costs. :func:`warm_check` answers the same check with the standard library's lightest modules,
git run twice side by side (``rev-parse``, ``config`` and ``ls-tree`` of HEAD; then ``status`` of
the cited files and ``ls-tree`` of each older commit a permalink names) and what
:mod:`.warmcache` keeps of the lock and the pages (else one pass over the lock's JSON and each
page):

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

import os
import sys

from ..model.remotes import KNOWN_HOSTNAMES, web_url, without_credentials
from ..plain.wording import check_summary, uncommitted_note
from ..sources.gitlite import changed_of, git_outputs, listing_of
from .plainconf import lock_file
from .warmcache import Record, WarmCache, page_links, read_records

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
    except (OSError, ValueError, RecursionError):
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
        print("[]")  # a Code Quality report of no problem: json.dumps([], indent=2)
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
        #: HEAD's files and blob ids, and those of each older commit a permalink names.
        self.listings: dict[str, dict[str, str] | None] = {}
        #: The lock's ``self`` records: key to (path, start, end, blob, used files' blob ids).
        self.records: dict[str, Record] = {}
        #: The ``self`` keys by their record's (path, start, end); the first in key order.
        self.by_lines: dict[tuple[str, int, int], str] = {}
        self.resolver_ok = False
        self.cache = WarmCache()

    def answer(self, paths: list[str]) -> tuple[int, dict[str, int], list[str], str] | None:
        """(links, links left alone by why, cited files with uncommitted edits, HEAD) when all are ``ok``."""
        files = markdown_files(paths)
        if files is None or not all(os.path.isfile(file) for file in files):
            return None
        start = os.path.dirname(os.path.realpath(files[0])) if files else os.getcwd()
        facts, origin, listing = git_outputs(  # side by side: what HEAD is, its remote, its files
            [
                (
                    [
                        "rev-parse",
                        "--show-toplevel",
                        "--absolute-git-dir",
                        "--verify",
                        "HEAD^{commit}",
                    ],
                    start,
                ),
                (["config", "--get", "remote.origin.url"], start),
                (["ls-tree", "-r", "-z", "--full-tree", "HEAD", "--"], start),
            ],
            timeout=_TIMEOUT,
        )
        if facts is None or listing is None:
            return None
        root, git_dir, head, *_ = [*facts.decode().split("\n"), "", "", ""]
        if not root.startswith("/") or root == "/" or root != root.strip() or not head:
            return None
        known, web = self._web(origin)
        if not known:
            return None
        self.root = root
        self.listings[head] = self.listing = listing_of(listing)
        self.cache = WarmCache.load(git_dir)
        try:
            return self._answer(files, root, head, web)
        finally:
            self.cache.save()

    def _answer(
        self, files: list[str], root: str, head: str, web: str | None
    ) -> tuple[int, dict[str, int], list[str], str] | None:
        if not self._lock(root):
            return None
        found: list[tuple[str, int, int, str | None, str | None]] = []
        others: dict[str, int] = {}
        inside, real_dirs = root + "/", dict[str, str]()
        for file in files:
            real = self._real(file, real_dirs)
            if not real.startswith(inside):
                return None
            with open(file, "rb") as data:
                text = data.read().decode("utf-8")
            page = real[len(inside) :]
            links = self.cache.page(real, page, text, web)
            if links is None:
                links = self.cache.page_read(real, page, text, web, page_links(text, page, web))
            for parts in links:
                if isinstance(parts, str):
                    others[parts] = others.get(parts, 0) + 1
                else:
                    found.append(parts)
        cited = sorted({parts[0] for parts in found})
        revs = sorted({parts[3] for parts in found if parts[3] is not None} - set(self.listings))
        asked = [(["ls-tree", "-r", "-z", "--full-tree", rev, "--"], root) for rev in revs]
        if cited:  # which cited files have uncommitted edits, as apigit.changed_files asks
            asked.append(
                (["status", "--porcelain=v1", "-z", "--untracked-files=no", "--", *cited], root)
            )
        told = git_outputs(asked, timeout=_TIMEOUT)
        for rev, raw in zip(revs, told, strict=False):
            self.listings[rev] = listing_of(raw) if raw is not None else None
        if not all(self._ok(*parts) for parts in found):
            return None
        status = told[-1] if cited else None
        return len(found), others, changed_of(status, cited) if status is not None else [], head

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

    @staticmethod
    def _web(origin: bytes | None) -> tuple[bool, str | None]:
        """Whether the ``origin`` remote's host is known (or there is none), and its web address.

        *origin*: ``git config --get remote.origin.url``'s output (None: not set).
        """
        remote = without_credentials(origin.decode().strip()) if origin is not None else ""
        web = web_url(remote) if remote else None
        if web is not None and web.partition("://")[2].partition("/")[0] not in KNOWN_HOSTNAMES:
            return False, None  # its permalink template (or none) is the full front end's
        return True, web

    def _lock(self, root: str) -> bool:
        """Read the lock's ``self`` records; False when the lock is absent or not read whole as it is."""
        path = os.path.realpath(os.path.join(root, lock_file(root, self.lock)))
        with open(path, "rb") as file:
            text = file.read().decode("utf-8")
        kept, found = self.cache.lock(path, text)
        if not kept:
            found = self.cache.lock_read(path, text, read_records(text))
        if found is None:
            return False
        self.resolver_ok, self.records, self.by_lines = found
        return True

    def _key(self, text: str, default_repo: str | None) -> tuple[str, str] | None:
        """(repository, lock key) of a target *text*, or None when it is no target."""
        memo = (text, default_repo)
        keys = self.cache.keys
        if memo in keys:
            return keys[memo]
        from ..model.errors import TargetError
        from ..model.targettext import split_target, target_key  # the cache knows most

        try:
            repo, path, match, _ = split_target(text, default_repo=default_repo)
            known: tuple[str, str] | None = (repo, target_key(path, match))
        except TargetError:
            known = None
        keys[memo] = known
        self.cache.dirty = True
        return known

    @staticmethod
    def _same(record: Record, listing: dict[str, str]) -> bool:
        """Whether *listing* holds the record's file and the files its resolution read at their blob ids."""
        if listing.get(record[0]) != record[3]:
            return False
        uses = record[4]
        return not uses or all(listing.get(path) == blob for path, blob in uses)

    def _ok(self, path: str, start: int, end: int, rev: str | None, explicit: str | None) -> bool:
        """Whether a link is ``ok`` by the lock and the blob ids alone (:class:`.plain.anchors.MarkdownLinks`)."""
        if rev is not None:  # a permalink: same_file
            old = self.listings.get(rev)
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
                and record[:3] == (path, start, end)
            )
        key = self.by_lines.get((path, start, end))
        target = self._key(f"{_SELF}:{key}", None) if key is not None else None
        record = self.records.get(target[1]) if target is not None else None
        return record is not None and self._same(record, self.listing)
