"""The classes of change a ``changed`` anchor's lines may show, most significant first (pure).

A record's vocabulary: :class:`~.records.Outcome` carries one, ``update --accept`` names them.
Which class a change is, :func:`source_anchors.reading.python.changes.classify` decides.
"""

from __future__ import annotations

from enum import StrEnum


class ChangeClass(StrEnum):
    """What changed in an anchor's lines, most significant first."""

    code = "code"
    annotations = "annotations"
    comments = "comments"
    formatting = "formatting"

    @property
    def rank(self) -> int:
        """0 for ``code`` (the most significant) up to 3 for ``formatting``."""
        return list(ChangeClass).index(self)


def parse_classes(text: str) -> frozenset[ChangeClass]:
    """The classes of a comma-separated list (``formatting,comments``); raises ``ValueError`` naming the bad ones."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    bad = [name for name in names if name not in ChangeClass.__members__]
    if bad or not names:
        raise ValueError(
            f"unknown change class{'es' if len(bad) > 1 else ''} {', '.join(map(repr, bad))}"
            if bad
            else "no change class given"
        )
    return frozenset(ChangeClass(name) for name in names)


def valid_classes() -> str:
    """``formatting, comments, annotations, code``: the names, least significant first, for messages."""
    return ", ".join(reversed(list(ChangeClass)))
