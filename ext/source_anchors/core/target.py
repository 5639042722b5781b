"""Parse anchor targets: ``[repo:]dotted.path[::match text]`` (pure)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import TargetError

_REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_MAX_TARGET = 1000


@dataclass(frozen=True, order=True)
class Target:
    """A parsed anchor target.

    ``repo`` is the pin name (already defaulted by the caller when absent),
    ``path`` the dotted Python path, ``match`` the optional statement text.
    """

    repo: str
    path: str
    match: str | None = None

    @property
    def key(self) -> str:
        """The lock key of this target within its repository."""
        return self.path if self.match is None else f"{self.path}::{self.match}"

    def __str__(self) -> str:
        return f"{self.repo}:{self.key}"


def parse_target(text: str, *, default_repo: str | None) -> Target:
    """Parse *text* into a :class:`Target`.

    The repository prefix is optional when *default_repo* is given. Raises
    :class:`TargetError` with a message that says what is wrong.
    """
    raw = text.strip()
    if not raw:
        raise TargetError("empty anchor target; expected [repo:]dotted.path[::match text]")
    if len(raw) > _MAX_TARGET:
        raise TargetError(f"anchor target is {len(raw)} characters long; the limit is {_MAX_TARGET}")
    head, sep, match = raw.partition("::")
    if sep:
        match = match.strip()
        if not match:
            raise TargetError(f"nothing after '::' in {raw!r}; give the text of one line to match")
        if "\n" in match:
            raise TargetError(f"match text in {raw!r} spans several lines; give text from one line")
    repo_part, colon, path = head.partition(":")
    if colon:
        repo = repo_part.strip()
        if not _REPO_RE.match(repo):
            raise TargetError(f"invalid repository name {repo!r} in {raw!r}")
    else:
        path, repo = repo_part, default_repo or ""
        if not repo:
            raise TargetError(
                f"no repository for {raw!r}: write 'repo:{raw}', set 'source-repo' in the page's "
                "front matter, or set source_anchors_default_repo"
            )
    path = path.strip()
    if not path:
        raise TargetError(f"no dotted path in {raw!r}")
    parts = path.split(".")
    bad = [part for part in parts if not part.isidentifier()]
    if bad:
        shown = "an empty part" if "" in bad else repr(bad[0])
        raise TargetError(f"invalid dotted path {path!r}: {shown} is not a Python identifier")
    return Target(repo=repo, path=path, match=match if sep else None)


def split_label(text: str) -> tuple[str, str]:
    """Split role text ``label <target>`` into (label, target); a bare target is its own label."""
    stripped = text.strip()
    if stripped.endswith(">") and "<" in stripped:
        label, _, target = stripped[:-1].rpartition("<")
        label = label.strip()
        return (label or target.strip(), target.strip())
    return stripped, stripped
