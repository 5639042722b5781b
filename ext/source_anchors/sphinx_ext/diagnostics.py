"""One warning type, ``source-anchors``, with one documented subtype per kind of problem.

Silence exactly one kind in ``conf.py``, e.g. ``suppress_warnings = ["source-anchors.moved"]``.
The author's guide builds its table of diagnostics from this enum's docstrings.
"""

from __future__ import annotations

from enum import Enum

from docutils import nodes
from sphinx.util import logging

WARNING_TYPE = "source-anchors"
LOGGER = logging.getLogger("source_anchors")


class Subtype(Enum):
    """Subtypes of the ``source-anchors`` warning."""

    moved = "moved"
    """The anchored lines are unchanged but now stand at another path or line range than the lock
    records. Check that the prose still fits, then run ``make relock``."""

    changed = "changed"
    """The anchored lines differ from what the lock records. The message shows a short diff when
    the previously pinned tree is cached. Re-read the code, fix the prose, then ``make relock``."""

    missing = "missing"
    """The symbol no longer exists, or the match text occurs on no line or on several lines of the
    symbol. The message names the closest existing names or the matching lines."""

    new = "new"
    """A locked build (``CI=true`` or ``source_anchors_locked = True``) met an anchor the lock does
    not record. Run ``make relock`` and commit the lock."""

    target = "target"
    """The anchor's text is malformed: empty, a bad dotted path, nothing after ``::``, or an
    unknown repository name."""

    source = "source"
    """The pinned tree could not be obtained from any configured source (cache, git, distribution);
    the message names each source tried and why it failed."""

    unverified = "unverified"
    """A file from a distribution is not proven identical to the pinned commit: its git blob id
    differs from, or is absent in, the lock and the committed tree listing."""

    upstream = "upstream"
    """An upstream file the anchor needs cannot be read statically: a syntax error, bytes that are
    not UTF-8, or a file above ``source_anchors_max_file_bytes``."""

    config = "config"
    """A configuration value or the lock file is invalid; the message names the value or the file
    and line."""

    reproduced = "reproduced"
    """The book's literal blocks reproduce more upstream lines of real content than
    ``source_anchors_reproduced_lines_max`` allows."""


def warn(message: str, subtype: Subtype, *, location: str | tuple[str, int | None] | nodes.Node | None) -> None:
    """Emit a located ``source-anchors.<subtype>`` warning."""
    LOGGER.warning(message, type=WARNING_TYPE, subtype=subtype.value, location=location)


def subtype_docs() -> list[tuple[str, str]]:
    """(``source-anchors.<subtype>``, docstring) for every subtype, in declaration order."""
    import ast
    import inspect
    import textwrap

    source = textwrap.dedent(inspect.getsource(Subtype))
    body = ast.parse(source).body[0]
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    previous: str | None = None
    for node in body.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            previous = node.targets[0].id
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and previous:
            docs[previous] = " ".join(str(node.value.value).split())
            previous = None
    return [(f"{WARNING_TYPE}.{member.value}", docs.get(member.name, "")) for member in Subtype]
