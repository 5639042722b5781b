"""The one place a page's markup is chosen, by the file's suffix (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePath

from .base import Markup
from .myst import MyST
from .rst import ReST

#: The markups by the file type a suffix names (Sphinx's ``source_suffix`` values); any other page
#: is read as MyST (Markdown, notebooks).
MARKUPS: dict[str, Markup] = {"restructuredtext": ReST()}
#: The file types of suffixes when a book does not say (Sphinx's default ``source_suffix``).
DEFAULT_TYPES: Mapping[str, str] = {".rst": "restructuredtext"}
_OTHERWISE = MyST()


def markup_for(path: str | PurePath, types: Mapping[str, object] | None = None) -> Markup:
    """The markup of the page at *path*, by its suffix and *types* (a book's ``source_suffix``)."""
    kind = (DEFAULT_TYPES if types is None else types).get(PurePath(path).suffix)
    return MARKUPS.get(kind, _OTHERWISE) if isinstance(kind, str) else _OTHERWISE
