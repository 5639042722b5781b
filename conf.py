"""Sphinx configuration of the book 《Python 开源系统代码导读》."""

from __future__ import annotations

project = "Python 开源系统代码导读"
author = "本书作者"
copyright = "2026, 本书作者"  # Sphinx's own option name
language = "zh_CN"

extensions = ["myst_parser", "sphinx_design", "source_anchors"]
myst_enable_extensions = ["colon_fence", "deflist", "fieldlist"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

# sphinx-book-theme is made for long MyST books: a persistent left table of contents,
# a right-hand "on this page" outline, readable measure, dark mode, and a good phone layout.
html_theme = "sphinx_book_theme"
html_title = project
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": False,
    "navigation_with_keys": False,
}
html_static_path = ["source/_static"]
html_css_files = ["book.css"]
html_js_files = ["zh-stemmer-shim.js"]  # until Sphinx releases its fix for Chinese search (#14229)
# Without a default, the theme logs "invalid theme mode" on a reader's first visit.
html_context = {"default_mode": "auto"}
# Chinese full-text search: Sphinx segments words with jieba when it is installed.
html_search_language = "zh"

# ---- source anchors -------------------------------------------------------------------------
source_anchors_repos = {
    "gpt-researcher": {
        "url": "https://github.com/assafelovic/gpt-researcher",
        "commit": "e65dfde6163dab2fb286d6c56272ceade3fe84d4",
        "packages": ["gpt_researcher"],
        # PyPI's 0.15.1 is byte-identical to the commit for every file under gpt_researcher/;
        # each file an anchor uses is checked against the committed tree listing.
        "dist": "gpt-researcher==0.15.1",
        "listing": "pins/gpt-researcher/e65dfde6163dab2fb286d6c56272ceade3fe84d4.ls-tree",
        "sources": ["cache", "dist", "git"],
    },
}
source_anchors_default_repo = "gpt-researcher"
source_anchors_feedback_email = "feedback@code-reading-guide.example"
