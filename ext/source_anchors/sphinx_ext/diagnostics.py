"""One warning type, ``source-anchors``, with one documented subtype per kind of problem.

The subtypes are the core's :class:`~source_anchors.model.subtypes.Subtype`; silence exactly one
kind in ``conf.py``, e.g. ``suppress_warnings = ["source-anchors.moved"]``. The manual's table of
diagnostics is built from the enum's attribute docstrings, read with Sphinx's own analyser.
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging

from ..model.subtypes import WARNING_TYPE, Subtype

__all__ = ["LOGGER", "WARNING_TYPE", "Subtype", "setting_location", "subtype_docs", "warn"]

LOGGER = logging.getLogger("source_anchors")


def warn(
    message: str, subtype: Subtype, *, location: str | tuple[str, int | None] | nodes.Node | None
) -> None:
    """Emit a located ``source-anchors.<subtype>`` warning.

    Sphinx appends `` [source-anchors.<subtype>]`` to the message: a ``changed`` warning that ends
    in its diff ends in a line break, so that the tag stands on a line of its own, not on the diff's
    last line. (Other messages keep the tag on their own line, where tools that read warnings look.)
    """
    if subtype is Subtype.changed and "\n" in message and not message.endswith("\n"):
        message += "\n"
    LOGGER.warning(message, type=WARNING_TYPE, subtype=subtype.value, location=location)


def setting_location(confdir: Path, name: str) -> str | None:
    """``conf.py:LINE`` where *name* is assigned (a warning's location), or None."""
    conf = confdir / "conf.py"
    try:
        lines = conf.read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    found = next(
        (n for n, line in enumerate(lines, start=1) if re.match(rf"{name}\s*=", line)), None
    )
    return f"{conf}:{found}" if found else None


def subtype_docs() -> list[tuple[str, str]]:
    """(``source-anchors.<subtype>``, docstring) for every subtype, in declaration order."""
    analyzer = ModuleAnalyzer.for_module(Subtype.__module__)
    docs = analyzer.find_attr_docs()
    return [
        (
            f"{WARNING_TYPE}.{member.value}",
            " ".join(" ".join(docs.get(("Subtype", member.name), [])).split()),
        )
        for member in Subtype
    ]
