"""What a pin's fields may hold: a commit SHA, a sane tag or branch name, an exact requirement (pure).

Validating a pin is the model's job (:mod:`.config` asks here); asking a remote what a ref names
(:mod:`source_anchors.sources.refs`) and fetching a requirement (:mod:`source_anchors.sources.simpleindex`)
are the obtaining stage's.
"""

from __future__ import annotations

import re

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


#: ``name==version``: an exact requirement, the only kind an sdist is found for.
_PINNED_RE = re.compile(r"^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*==\s*([A-Za-z0-9][A-Za-z0-9.!+_-]*)$")


def parse_pinned(requirement: str) -> tuple[str, str] | None:
    """``(name, version)`` of an exact ``name==version`` requirement, else None."""
    match = _PINNED_RE.match(requirement.strip())
    return (match.group(1), match.group(2)) if match else None
