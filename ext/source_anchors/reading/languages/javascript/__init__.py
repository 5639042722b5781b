"""JavaScript (``.js``, ``.mjs``, ``.cjs``, ``.jsx``), with tree-sitter-javascript.

Takes in: a file's bytes.
Gives out: :data:`JAVASCRIPT`, a :class:`~source_anchors.reading.language.Language`.
May import: the languages package's shared modules and the TypeScript folder's statement shapes (the
grammars share their node types). Naming: classes open a scope (``Outer.method``); ``const name =
(…) => …`` and ``function`` expressions bound to a name are functions; a class field holding a
function is a method.
"""

from __future__ import annotations

from ..grammar import TreeSitterLanguage
from ..typescript import SHAPE


class JavaScript(TreeSitterLanguage):
    """JavaScript files."""

    name = "JavaScript"
    suffixes = (".js", ".mjs", ".cjs", ".jsx")
    grammar = ("tree_sitter_javascript", "language")
    package = __name__
    shape = SHAPE


JAVASCRIPT = JavaScript()
