"""What ``check`` of Markdown links says besides each link: its summary and its note (pure).

One place for the words, so that the full front end (:mod:`source_anchors.cli.plain`) and the
warm check (:mod:`source_anchors.cli.warm`) say the same.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: the warm check loads this module
if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["check_summary", "left_alone_tail", "uncommitted_note"]


def left_alone_tail(others: Mapping[str, int]) -> str:
    """The summary's tail naming the links left alone, by why (``; left alone: 1 another repository``)."""
    counted = ", ".join(f"{n} {why}" for why, n in sorted(others.items()))
    return f"; left alone: {counted}" if counted else ""


def check_summary(links: int, drifted: int, broken: int, others: Mapping[str, int]) -> str:
    """``check``'s last line: ``12 line link(s), 1 drifted, 0 broken``, and the links left alone."""
    return f"{links} line link(s), {drifted} drifted, {broken} broken" + left_alone_tail(others)


def uncommitted_note(changed: list[str], commit: str) -> str:
    """The note naming the cited files with uncommitted edits (links are read at *commit*, HEAD)."""
    return (
        f"note: {len(changed)} cited file(s) have uncommitted edits, and links are checked "
        f"against HEAD ({commit[:7]}), not against them: {', '.join(changed)}; commit them "
        "to check what you are editing"
    )
