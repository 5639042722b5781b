"""source_anchors: live, locked permalinks from prose to pinned upstream Python code."""

from __future__ import annotations

from .model.version import __version__

TYPE_CHECKING = False  # typing itself is not imported: every command loads this module
if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

__all__ = ["__version__", "setup"]


def setup(app: Sphinx) -> ExtensionMetadata:
    """Register the extension; the Sphinx glue, and the CLI's reference directive, are imported only here."""
    from .cli.reference import setup as setup_cli_reference
    from .sphinx_ext.extension import setup as setup_extension

    setup_extension(app)
    setup_cli_reference(app)
    return {
        "version": __version__,
        "env_version": 12,  # records are tuples (sphinx_ext/envform.py): change class, diff, suggestion; file kinds;
        # 6: a card's title link is a card_link node (its permalink footnote in LaTeX); 7: the
        # domain's "feedback" pages; 8: API links (a domain of their own); 9: an API link's rule or
        # note; 10: the optional modules that decided a page's API links; 11: API links at their
        # directive's page line; 12: chips and card links carry their target in words (sa_target)
        # for the printed books
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
