"""Parse anchor targets: ``[repo:]dotted.path[::match text]`` (pure)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

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
    #: Whether the repository came from a default (front matter or configuration), not a prefix.
    defaulted: bool = field(default=False, compare=False)

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
    return Target(repo=repo, path=path, match=match if sep else None, defaulted=not colon)


def escape_markers(text: str) -> str:
    r"""Mark ``\<`` as escaped the way docutils does (NUL before the character).

    reStructuredText hands roles their text with escapes already marked; MyST hands over
    the backtick content as written, where ``\<`` is the one escape the role reads.
    Text that carries docutils' marks is left alone.
    """
    if "\x00" in text or "\\" not in text:
        return text
    return text.replace("\\<", "\x00<")


def _unescape(text: str) -> str:
    """Drop docutils' escape marks (as ``docutils.utils.unescape`` does)."""
    if "\x00" not in text:
        return text
    for mark in ("\x00 ", "\x00\n", "\x00"):
        text = "".join(text.split(mark))
    return text


def split_label(text: str) -> tuple[str, str]:
    r"""Split role text ``label <target>`` into (label, target); a bare target is its own label.

    The convention of Sphinx's own roles: the label ends at the first ``<`` not written as ``\<``,
    and the target runs to the final ``>``, so a match text may hold ``<`` and ``>`` freely
    (``f <pkg.f::if a < b:>``). A bare target that holds ``<`` and ends in ``>`` must escape its
    first ``<`` (``pkg.f::?P\<name>``). An empty label (``<pkg.f>``) falls back to the target.
    *text* is docutils' escaped form or MyST's raw form (see :func:`escape_markers`).
    """
    marked = escape_markers(text.strip())
    if marked.endswith(">"):
        # What ``ReferenceRole.explicit_title_re`` matches, ``^(.+?)\s*(?<!\x00)<(.*?)>$``, found without
        # the regex's backtracking: the first '<' after the first character that no NUL marks as escaped.
        index = marked.find("<", 1)
        while index > 0 and marked[index - 1] == "\x00":
            index = marked.find("<", index + 1)
        if index > 0:
            label, target = _unescape(marked[:index]).strip(), _unescape(marked[index + 1:-1]).strip()
            return (label or target, target)
    if marked.startswith("<") and marked.endswith(">"):
        target = _unescape(marked[1:-1]).strip()
        return target, target
    plain = _unescape(marked)
    return plain, plain


def label_looks_like_target(label: str, target: str) -> bool:
    """Whether an explicit *label* holds ``::``, as a target's match does: likely a ``<`` to escape."""
    return label != target and "::" in label
