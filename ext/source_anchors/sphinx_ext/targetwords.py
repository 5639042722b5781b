"""An anchor described by its target, for the printed books' notes and source tables.

In print a chip's label stands alone in the sentence; a reader who turns to the chapter's source
table (PDF) or a note (EPUB) finds what the anchor points at said without the label: the kind of
place (function, class, statement, line, file...), its name within its file, and for a statement
the text that chose it, e.g. ``statement “if not results:” in ResearchConductor.run``. The file and
lines are beside it (the table's row, the chip's location).
"""

from __future__ import annotations

from ..model.records import Location
from ..model.target import Target
from .i18n import _

__all__ = ["MATCH_LIMIT", "target_words"]

#: The longest match text quoted (a longer one is cut with "…"; the location says where it is).
MATCH_LIMIT = 60


def _kind(kind: str) -> str:
    words = {
        "function": _("function"),
        "class": _("class"),
        "attribute": _("attribute"),
        "module": _("module"),
        "statement": _("statement"),
        "line": _("line"),
        "file": _("file"),
        # The kinds of definitions in the tree-sitter languages (``/file.ext#Name``).
        "method": _("method"),
        "struct": _("struct"),
        "enum": _("enum"),
        "union": _("union"),
        "interface": _("interface"),
        "trait": _("trait"),
        "type": _("type"),
        "macro": _("macro"),
        "namespace": _("namespace"),
        "constructor": _("constructor"),
        "record": _("record"),
        "annotation": _("annotation"),
        "object": _("object"),
    }
    return words.get(kind, kind)


def _symbol(target: Target, location: Location) -> str:
    """The target's name within its file.

    The dotted path without its module, the definition's path of names after a file's ``#``, or the
    file's path.
    """
    if target.symbol is not None:
        return target.symbol
    if target.is_file:
        return target.file
    module = location.path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    if location.kind != "module" and target.path.startswith(module + "."):
        return target.path[len(module) + 1 :]
    return target.path


def target_words(target: Target, location: Location) -> str:
    """What *target* resolved to at *location*, in words: kind, name and (for a statement) its match text."""
    symbol = _symbol(target, location)
    if not target.matches:
        return _("{kind} {symbol}").format(kind=_kind(location.kind), symbol=symbol)
    quoted = [m if len(m) <= MATCH_LIMIT else m[: MATCH_LIMIT - 1] + "…" for m in target.matches]
    match = _(" › ").join(_("“{text}”").format(text=text) for text in quoted)
    return _("{kind} {match} in {symbol}").format(
        kind=_kind(location.kind), match=match, symbol=symbol
    )
