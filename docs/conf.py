"""Sphinx configuration of the sphinx-source-anchors manual (English)."""

from __future__ import annotations

from source_anchors import __version__

project = "sphinx-source-anchors"
author = "The authors of the Python code-reading guide"
copyright = "2026, the authors of the Python code-reading guide"  # Sphinx's own option name
release = version = __version__
language = "en"

# The manual shows anchors as examples; it pins no repository itself. The extension is loaded
# for its generated tables (options, diagnostics, the command line).
extensions = ["myst_parser", "source_anchors"]
myst_enable_extensions = ["colon_fence", "deflist"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_title = f"{project} {release}"
