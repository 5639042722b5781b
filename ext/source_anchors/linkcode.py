"""``from source_anchors.linkcode import linkcode_resolve``: static, ranged links for ``sphinx.ext.linkcode``.

See :mod:`source_anchors.sphinx_ext.linkcode`.
"""

from __future__ import annotations

import sys

from .sphinx_ext.linkcode import linkcode_resolve, remember_confdir

__all__ = ["linkcode_resolve"]

# The conf.py importing this module is the frame that runs the import (Sphinx executes it with
# __file__ set).
_frame = sys._getframe(1)
while _frame is not None and _frame.f_globals.get("__name__", "").startswith(
    ("importlib", "source_anchors")
):
    _frame = _frame.f_back  # type: ignore[assignment]
remember_confdir(_frame.f_globals.get("__file__") if _frame is not None else None)
del _frame
