"""The words the extension writes into pages, in the book's language (Sphinx's message catalogs).

Source strings are English; ``locale/<language>/LC_MESSAGES/source_anchors.mo`` translates them
(``zh_CN`` ships with the package). A book in any other language gets the English words.
Warnings and the CLI stay in English, as Sphinx's own do.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.locale import get_translation

#: The catalog's name (its ``.po``/``.mo`` file name).
CATALOG = "source_anchors"
#: Where the compiled catalogs are, one folder per language.
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_ = get_translation(CATALOG)


def setup(app: Sphinx) -> None:
    """Add the extension's catalogs for the book's ``language``."""
    app.add_message_catalog(CATALOG, str(LOCALE_DIR))
