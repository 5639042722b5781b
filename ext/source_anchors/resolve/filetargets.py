"""File targets: any file of the pinned commit, by repository-relative path (pure).

``repo:/LICENSE`` is the whole file (linked without a line fragment);
``repo:/pyproject.toml::license =`` is the one line holding the match text; in a file of a language
wired into anchors (Python's ``.py``, ``.pyi``:
:func:`~source_anchors.reading.registry.wired_language`) a match gives the statement holding it, as
under a dotted path. Each further ``::`` level is looked up within the range the previous one gave:
for a text file that range is its one line.

The file must be in the commit: the tree's listing (git) or the pin's listing says so. A file the
export left out (outside the packages) is read through the resolver's ``fetch``; a distribution
serves only the files it ships.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Mapping

from ..model.config import RepoPin
from ..model.errors import ResolveError, UpstreamFileError
from ..model.records import Location
from ..model.textlines import decode_source
from ..reading.language import Files
from ..sources.trees import Tree


def blob_of(tree: Tree, pin: RepoPin, listing: Mapping[str, str], path: str) -> str:
    """The blob id of *path* in the commit, or a one-line error saying why there is none to read.

    *listing* is every file of the commit as far as it is known (empty when unknown).
    """
    found = tree.blobs.get(path)  # the usual case: an exported file (what Tree.has tells)
    if found is not None:
        return found
    short = pin.short
    why = tree.refused.get(path)
    if why:
        raise ResolveError(f"/{path} at {short} is a {why}; a file target names a regular file")
    known = listing or tree.listing or {}
    if path in known:
        return known[
            path
        ]  # read through the resolver's fetch: a kept blob, the release's sdist, git
    if any(name.startswith(path + "/") for name in (*tree.blobs, *known)):
        raise ResolveError(f"/{path} is a directory at {short}; name a file in it")
    if tree.method == "dist" and not known:
        raise UpstreamFileError(
            f"{tree.dist} does not ship /{path}, and no listing of {pin.name}@{short} says whether the "
            "commit has it: use the git source, or commit a 'listing'"
        )
    names = sorted({*tree.blobs, *known})
    close = difflib.get_close_matches(path, names, n=1)
    hint = f"; did you mean /{close[0]}?" if close else ""
    raise ResolveError(f"no file /{path} at {short}{hint}")


def is_text(data: bytes) -> bool:
    """Whether *data* reads as text: no NUL byte, and it decodes (UTF-8, a BOM or a coding line)."""
    if b"\0" in data:
        return False
    try:
        decode_source(data)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def whole(files: Files, path: str, blob: str) -> Location:
    """The whole file: hashed over its lines as a module is, or over its bytes when it is binary."""
    data = files.data(path)
    if is_text(data):
        lines = files.lines(path)
        digest = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
        return Location(
            path=path, start=1, end=max(len(lines), 1), kind="file", sha256=digest, blob=blob
        )
    return Location(
        path=path, start=1, end=1, kind="file", sha256=hashlib.sha256(data).hexdigest(), blob=blob
    )


def text_lines(files: Files, path: str) -> list[str]:
    """The lines of a text file that a match is looked up in; a binary or undecodable file is refused."""
    if not is_text(files.data(path)):
        raise ResolveError(
            f"/{path} is binary or not valid text; a match text needs a text file "
            f"(anchor the whole file with '/{path}')"
        )
    return files.lines(path)


def one_line(
    lines: list[str],
    spans: tuple[tuple[int, int], ...],
    match: str,
    name: str,
    where: str,
    level: tuple[int, int],
) -> int | None:
    """The one line of *spans* that holds *match*; None when none does; an error when several do.

    *name* is the target for messages, *where* the range as they name it, *level* (n, count) which
    match level this is.
    """
    hits = sorted(
        {
            n
            for start, end in spans
            for n in range(start, min(end, len(lines)) + 1)
            if match in lines[n - 1]
        }
    )
    if len(hits) > 1:
        shown = ", ".join(str(n) for n in hits[:10]) + (", …" if len(hits) > 10 else "")
        raise ResolveError(
            f"{name}: {_what(match, level)} occurs on {len(hits)} lines of {where} "
            f"(lines {shown}); give text found on exactly one line"
        )
    return hits[0] if hits else None


def not_found(match: str, name: str, where: str, level: tuple[int, int]) -> ResolveError:
    """The error for a match text found on no line of its range."""
    hint = "; a match text cannot hold '::', which starts a narrower match" if level[1] > 1 else ""
    return ResolveError(f"{name}: {_what(match, level)} occurs on no line of {where}{hint}")


def _what(match: str, level: tuple[int, int]) -> str:
    return (
        f"match text {match!r}"
        if level[1] == 1
        else f"match level {level[0]} of {level[1]}, {match!r},"
    )
