"""What a pin's fields may hold: a commit SHA, a sane tag or branch name, a URL, an exact requirement (pure).

And the messages that say how to fix them.

Validating a pin is the model's job (:mod:`.config` asks here); asking a remote what a ref names
(:mod:`source_anchors.sources.gitrefs`) and fetching a requirement
(:mod:`source_anchors.sources.simpleindex`) are the obtaining stage's.
"""

from __future__ import annotations

import re
from typing import Any

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


#: ``scheme://``, as git reads a URL; and scp's ``[user@]host:path`` (no ``/`` before the first
#: ``:``); an absolute path is a local repository.
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://.")
_SCP_RE = re.compile(r"^[^/:]+:[^/]")


def url_problem(url: str) -> str | None:
    """Why git would not read *url* as a remote (it takes a string without a scheme for a local folder)."""
    # a path: a local repository
    if _SCHEME_RE.match(url) or _SCP_RE.match(url) or url.startswith("/"):
        return None
    fix = f"https://{url}"
    return (
        f"{url!r} has no scheme, so git would read it as a folder of this machine; "
        f"write the repository's URL in full, such as {fix!r}"
    )


def commit_problem(name: str, commit: Any, url: Any) -> str:
    """Why *commit* is not a pin, and how to get the 40-hex SHA (a tag or branch: ``source-anchors pin``)."""
    text = (
        f"{commit!r} is not a full 40-hex lowercase commit SHA (branches, tags and short SHAs move or clash; "
        "pin the commit itself)"
    )
    if isinstance(commit, str) and re.fullmatch(r"[0-9a-fA-F]{4,40}", commit):
        text += (
            "; write all 40 hex digits of the commit, in lower case ('git rev-parse' prints them)"
        )
    elif isinstance(commit, str) and commit and ref_problem(commit) is None:
        text += (
            f"; to pin the commit that the tag or branch {commit!r} names, run "
            f"'source-anchors pin {name} {commit}' (it writes the commit and records {commit!r} as 'ref'), "
            f"or look it up with 'git ls-remote {url if isinstance(url, str) and url else 'URL'} {commit}'"
        )
    return text


#: ``name==version``: an exact requirement, the only kind an sdist is found for.
_PINNED_RE = re.compile(
    r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*==\s*([A-Za-z0-9][A-Za-z0-9.!+_-]*)$"
)


def parse_pinned(requirement: str) -> tuple[str, str] | None:
    """``(name, version)`` of an exact ``name==version`` requirement, else None."""
    match = _PINNED_RE.match(requirement.strip())
    return (match.group(1), match.group(2)) if match else None
