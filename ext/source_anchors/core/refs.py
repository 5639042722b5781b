"""Tags and branches: a sane ref name, and the commit a ref names at a URL (``git ls-remote``; no Sphinx).

Also what a pin's ``url`` and ``commit`` must look like, and the messages that say how to fix them.

A pin's ``commit`` is always the 40-hex SHA; a ``ref`` beside it records the tag or branch it came
from. :func:`resolve_ref` asks the remote once (``git ls-remote``, peeled: an annotated tag gives
the commit it points to, a lightweight tag its commit, a branch its head).
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import RefError

if TYPE_CHECKING:
    from .config import RepoPin

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


#: ``scheme://``, as git reads a URL; and scp's ``[user@]host:path`` (no ``/`` before the first ``:``);
#: an absolute path is a local repository.
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://.")
_SCP_RE = re.compile(r"^[^/:]+:[^/]")


def url_problem(url: str) -> str | None:
    """Why git would not read *url* as a remote (it takes a string without a scheme for a local folder)."""
    if _SCHEME_RE.match(url) or _SCP_RE.match(url) or url.startswith("/"):  # a path: a local repository
        return None
    fix = f"https://{url}"
    return (f"{url!r} has no scheme, so git would read it as a folder of this machine; "
            f"write the repository's URL in full, such as {fix!r}")


def commit_problem(name: str, commit: Any, url: Any) -> str:
    """Why *commit* is not a pin, and how to get the 40-hex SHA (a tag or branch: ``source-anchors pin``)."""
    text = f"{commit!r} is not a full 40-hex lowercase commit SHA (branches, tags and short SHAs move or clash; " \
           "pin the commit itself)"
    if isinstance(commit, str) and re.fullmatch(r"[0-9a-fA-F]{4,40}", commit):
        text += "; write all 40 hex digits of the commit, in lower case ('git rev-parse' prints them)"
    elif isinstance(commit, str) and commit and ref_problem(commit) is None:
        text += (f"; to pin the commit that the tag or branch {commit!r} names, run "
                 f"'source-anchors pin {name} {commit}' (it writes the commit and records {commit!r} as 'ref'), "
                 f"or look it up with 'git ls-remote {url if isinstance(url, str) and url else 'URL'} {commit}'")
    return text


def candidates(ref: str) -> list[str]:
    """The full ref names *ref* may stand for, in git's order: itself if full, else the tag, then the branch."""
    if ref.startswith("refs/") or ref == "HEAD":
        return [ref]
    return [f"refs/tags/{ref}", f"refs/heads/{ref}"]


def resolve_ref(url: str, ref: str, *, timeout: float, name: str = "") -> str:
    """The commit *ref* names at *url*, asked with one ``git ls-remote``.

    Raises :class:`RefError` when the remote has no such tag or branch (or a tag and a branch of that
    name point at different commits), and :class:`~source_anchors.core.errors.GitError` when git
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



def remote_refs(url: str, *, timeout: float) -> dict[str, str]:
    """Every tag and branch at *url* (full name -> commit, an annotated tag peeled): one ``git ls-remote``."""
    from . import proc

    raw = proc.git(["ls-remote", "--tags", "--heads", "--", url], cwd=Path(tempfile.gettempdir()), timeout=timeout)
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
    from .errors import GitError

    where = f"source_anchors_repos[{pin.name!r}]['ref']"
    assert pin.ref is not None
    try:
        named = remote_refs(pin.url, timeout=timeout)
    except GitError:
        named = {}
    present = [full for full in candidates(pin.ref) if full in named]
    if present and all(full.startswith("refs/tags/") for full in present):
        # A tag: tags are not meant to move, so the ref was never this commit's.
        others = sorted((full for full, sha in named.items() if sha == pin.commit),
                        key=lambda full: (not full.startswith("refs/tags/"), full))
        short = [full.removeprefix("refs/tags/").removeprefix("refs/heads/") for full in others]
        if short:
            return (f"{where}: {pin.ref!r} names {now[:7]}, not the pinned commit {pin.short}, which is "
                    f"{' and '.join(repr(name) for name in short[:3])} at {pin.url}: the ref is mistyped; "
                    f"set it to {short[0]!r}")
        return (f"{where}: the tag {pin.ref!r} names {now[:7]}, not the pinned commit {pin.short}, and no tag or "
                f"branch names {pin.short}; tags are not meant to move, so this 'ref' does not belong to the "
                f"commit: set it to where the commit came from, or preview the tag's commit with "
                f"'source-anchors bump {pin.name} {pin.ref}'")
    return (f"{where}: {pin.ref!r} now points at {now[:7]}, not the pinned commit {pin.short}; "
            f"preview the move with 'source-anchors bump {pin.name} {pin.ref}'")
