"""Tags and branches: the commit a ref names at a URL (``git ls-remote``; no Sphinx).

What a pin's ``url``, ``commit`` and ``ref`` must look like is the model's
(:mod:`source_anchors.model.pinfields`).

A pin's ``commit`` is always the 40-hex SHA; a ``ref`` beside it records the tag or branch it came
from. :func:`resolve_ref` asks the remote once (``git ls-remote``, peeled: an annotated tag gives
the commit it points to, a lightweight tag its commit, a branch its head).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..model.config import RepoPin
from ..model.errors import RefError
from ..model.pinfields import SHA_RE, ref_problem

__all__ = ["SHA_RE", "candidates", "moved_ref", "ref_problem", "resolve_ref"]

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
