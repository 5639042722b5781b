"""Tags and branches: a sane ref name, and the commit a ref names at a URL (``git ls-remote``; no Sphinx).

A pin's ``commit`` is always the 40-hex SHA; a ``ref`` beside it records the tag or branch it came
from. :func:`resolve_ref` asks the remote once (``git ls-remote``, peeled: an annotated tag gives
the commit it points to, a lightweight tag its commit, a branch its head).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.errors import RefError

if TYPE_CHECKING:
    from ..model.config import RepoPin

#: A full commit SHA, the only form a pin's ``commit`` takes.
SHA_RE = re.compile(r"^[0-9a-f]{40}$")

#: Characters git refuses in a ref name (``git check-ref-format``), besides controls and spaces.
_FORBIDDEN = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]")


def ref_problem(ref: object) -> str | None:
    """Why *ref* is not a sane tag or branch name (as ``git check-ref-format --allow-onelevel``), or None."""
    if not isinstance(ref, str) or not ref:
        return f"expected a non-empty tag or branch name, got {ref!r}"
    if SHA_RE.match(ref):
        return f"{ref!r} is a commit SHA; 'ref' names the tag or branch the commit came from"
    bad = _FORBIDDEN.search(ref)
    if bad:
        return f"{ref!r} holds {bad.group()!r}, which git refuses in a ref name"
    if ref.startswith(("-", "/")) or ref.endswith(("/", ".")) or ref == "@":
        return f"{ref!r} is not a git ref name (it starts with '-' or '/', ends with '/' or '.', or is '@')"
    if ".." in ref or "@{" in ref or "//" in ref:
        return f"{ref!r} is not a git ref name (it holds '..', '@{{' or '//')"
    if any(part.startswith(".") or part.endswith(".lock") for part in ref.split("/")):
        return f"{ref!r} is not a git ref name (a part starts with '.' or ends with '.lock')"
    return None


def candidates(ref: str) -> list[str]:
    """The full ref names *ref* may stand for, in git's order: itself if full, else the tag, then the branch."""
    if ref.startswith("refs/") or ref == "HEAD":
        return [ref]
    return [f"refs/tags/{ref}", f"refs/heads/{ref}"]


def resolve_ref(url: str, ref: str, *, timeout: float, name: str = "") -> str:
    """The commit *ref* names at *url*, asked with one ``git ls-remote``.

    Raises :class:`RefError` when the remote has no such tag or branch (or a tag and a branch of that
    name point at different commits), and :class:`~source_anchors.model.errors.GitError` when git
    cannot reach *url*.
    """
    from . import proc  # the subprocess machinery: only when a ref is asked for

    who = f"{name}: " if name else ""
    problem = ref_problem(ref)
    if problem:
        raise RefError(f"{who}{problem}")
    names = candidates(ref)
    patterns = [pattern for full in names for pattern in (full, f"{full}^{{}}")]
    raw = proc.git(["ls-remote", "--", url, *patterns], cwd=Path(tempfile.gettempdir()), timeout=timeout)
    found: dict[str, str] = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        sha, _, full = line.partition("\t")
        found[full.strip()] = sha.strip()
    commits = {full: found.get(f"{full}^{{}}") or found[full] for full in names if full in found}
    if not commits:
        raise RefError(f"{who}no tag or branch {ref!r} at {url}")
    if len(set(commits.values())) > 1:
        both = ", ".join(f"{full} ({sha[:7]})" for full, sha in commits.items())
        raise RefError(f"{who}{ref!r} is ambiguous at {url}: {both}; give the full name")
    return next(iter(commits.values()))


def moved_ref(pin: RepoPin, *, timeout: float) -> str | None:
    """The commit *pin*'s ``ref`` points at now when that is not the pinned commit, else None.

    Raises :class:`RefError` when the ref is gone, and ``GitError`` when the URL is unreachable.
    """
    if pin.ref is None:
        return None
    now = resolve_ref(pin.url, pin.ref, timeout=timeout, name=pin.name)
    return None if now == pin.commit else now
