"""Tags and branches: the commit a ref names at a URL (``git ls-remote``; no Sphinx).

What a pin's ``url``, ``commit`` and ``ref`` must look like is the model's
(:mod:`source_anchors.model.config.pinfields`).

A pin's ``commit`` is always the 40-hex SHA; a ``ref`` beside it records the tag or branch it came
from. :func:`resolve_ref` asks the remote once (``git ls-remote``, peeled: an annotated tag gives
the commit it points to, a lightweight tag its commit, a branch its head).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..model.config import RepoPin
from ..model.config.pinfields import SHA_RE, ref_problem
from ..model.errors import RefError

__all__ = [
    "SHA_RE",
    "candidates",
    "mismatch",
    "moved_ref",
    "ref_problem",
    "remote_refs",
    "resolve_ref",
]


def candidates(ref: str) -> list[str]:
    """The full ref names *ref* may stand for, in git's order: itself if full, else the tag, then the branch."""
    if ref.startswith("refs/") or ref == "HEAD":
        return [ref]
    return [f"refs/tags/{ref}", f"refs/heads/{ref}"]


def resolve_ref(url: str, ref: str, *, timeout: float, name: str = "") -> str:
    """The commit *ref* names at *url*, asked with one ``git ls-remote``.

    Raises :class:`RefError` when the remote has no such tag or branch (or a tag and a branch of
    that name point at different commits), and :class:`~source_anchors.model.errors.GitError` when
    git cannot reach *url*.
    """
    from . import proc  # the subprocess machinery: only when a ref is asked for

    who = f"{name}: " if name else ""
    problem = ref_problem(ref)
    if problem:
        raise RefError(f"{who}{problem}")
    names = candidates(ref)
    patterns = [pattern for full in names for pattern in (full, f"{full}^{{}}")]
    raw = proc.git(
        ["ls-remote", "--", url, *patterns], cwd=Path(tempfile.gettempdir()), timeout=timeout
    )
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


def remote_refs(url: str, *, timeout: float) -> dict[str, str]:
    """Every tag and branch at *url* (full name -> commit, an annotated tag peeled): one ``git ls-remote``."""
    from . import proc

    raw = proc.git(
        ["ls-remote", "--tags", "--heads", "--", url],
        cwd=Path(tempfile.gettempdir()),
        timeout=timeout,
    )
    named: dict[str, str] = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        sha, _, full = line.partition("\t")
        full = full.strip()
        if full.endswith("^{}"):
            named[full[:-3]] = sha.strip()  # the commit an annotated tag points to
        else:
            named.setdefault(full, sha.strip())
    return named


def mismatch(pin: RepoPin, now: str, *, timeout: float) -> str:
    """The message for a pin's ``ref`` that names *now*, not the pinned commit: a move, a typo or a foreign tag.

    A branch moves: one naming another commit has moved on (preview it with ``bump``). A tag does
    not, so a tag naming another commit never was this commit's: mistyped when another tag or branch
    names the pinned commit (the fix is that name), else not this commit's at all. An unreachable
    remote gets the branch's wording. The message ends in the fix.
    """
    from ..model.errors import GitError

    where = f"source_anchors_repos[{pin.name!r}]['ref']"
    assert pin.ref is not None
    try:
        named = remote_refs(pin.url, timeout=timeout)
    except GitError:
        named = {}
    present = [full for full in candidates(pin.ref) if full in named]
    if present and all(full.startswith("refs/tags/") for full in present):
        # A tag: tags are not meant to move, so the ref was never this commit's.
        others = sorted(
            (full for full, sha in named.items() if sha == pin.commit),
            key=lambda full: (not full.startswith("refs/tags/"), full),
        )
        short = [full.removeprefix("refs/tags/").removeprefix("refs/heads/") for full in others]
        if short:
            return (
                f"{where}: {pin.ref!r} names {now[:7]}, not the pinned commit {pin.short}, which is "
                f"{' and '.join(repr(name) for name in short[:3])} at {pin.shown_url}: the ref is mistyped; "
                f"set it to {short[0]!r}"
            )
        return (
            f"{where}: the tag {pin.ref!r} names {now[:7]}, not the pinned commit {pin.short}, and no tag or "
            f"branch names {pin.short}; tags are not meant to move, so this 'ref' does not belong to the "
            f"commit: set it to where the commit came from, or preview the tag's commit with "
            f"'source-anchors bump {pin.name} {pin.ref}'"
        )
    return (
        f"{where}: {pin.ref!r} now points at {now[:7]}, not the pinned commit {pin.short}; "
        f"preview the move with 'source-anchors bump {pin.name} {pin.ref}'"
    )
