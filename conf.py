"""Sphinx configuration of the book 《Python 开源系统代码导读》."""

from __future__ import annotations

project = "Python 开源系统代码导读"
author = "本书作者"
copyright = "2026, 本书作者"  # Sphinx's own option name
language = "zh_CN"
# Printed on the PDF's title page and in the EPUB's metadata (EPUB 3 requires a version).
version = release = "预览稿"

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
    # The preview notice, on every page of the web build (the theme's site-wide banner); the print
    # builds (LaTeX, EPUB) never show the banner and carry PRINT_PREVIEW_NOTICE instead.
    "announcement": "在线预览稿：书稿仍在校对中；系统篇以文中标明的固定源码版本为准，静态阅读不等于运行验收。",
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
        # Licences and third-party evidence of files the distribution lacks (source-anchors facts).
        "facts": "pins/gpt-researcher/e65dfde6163dab2fb286d6c56272ceade3fe84d4.facts.json",
        "sources": ["cache", "dist", "git"],
    },
}
source_anchors_default_repo = "gpt-researcher"
# The Python whose `sys.version_info` tests the anchors are read for (the book's CI runs 3.11), so a
# build on another Python reads the same branches.
source_anchors_python = "3.11"
# The book's own repository, where every "report a problem" link opens a prefilled new issue, is
# not set here: the build takes it from where the book is published (GitHub Actions, GitLab CI, Read
# the Docs, or the clone's 'origin'), so no guessed address reaches a reader. A build with none of
# these (a local preview) says on the feedback page that there is no channel yet.
# source_anchors_feedback_repo = "https://github.com/OWNER/NAME"

# ---- PDF (make pdf): Sphinx's LaTeX route through xelatex, with xeCJK and Noto CJK fonts ----------
# xelatex reads the system's OpenType fonts by name; xeCJK sets Chinese in them and breaks lines
# between CJK characters. Latin text keeps Sphinx's xelatex defaults (FreeSerif, FreeSans, FreeMono).
latex_engine = "xelatex"
latex_documents = [(root_doc, "code-reading-guide.tex", project, author, "manual")]
# makeindex, not xindy (Debian packages xindy apart); the book has no index entries today.
latex_use_xindy = False
# Links print no URL: each anchor prints its compact location, and each chapter ends with a table of
# its permalinks (source_anchors).
latex_show_urls = "no"
#: The preview notice of the printed books (the web pages carry theirs in the theme's banner): on the
#: PDF's title page above the title, and on the EPUB's first page (index.md, `only` epub).
PRINT_PREVIEW_NOTICE = (
    "预览稿：书稿仍在校对中；系统篇以文中标明的固定源码版本为准，静态阅读不等于运行验收。"
)
latex_elements = {
    "papersize": "a4paper",
    "pointsize": "10pt",
    "fncychap": "",  # the Latin "Chapter N" banners; the chapter head is set in the preamble
    # The title page's logo slot (above the title, right-aligned) holds the preview notice.
    # Broken after its first clause: right-aligned, a wrapped line left two characters alone.
    "maketitle": (
        r"\renewcommand{\sphinxlogo}{\begin{minipage}{\textwidth}\raggedleft\large\sffamily "
        + PRINT_PREVIEW_NOTICE.replace("；", "；\\\\", 1)
        + r"\end{minipage}\par\vspace{3em}}\sphinxmaketitle"
    ),
    "preamble": r"""
% Chinese has no italic: an emphasis stays upright; bold is the sans (heiti), as Chinese books set it.
\setCJKmainfont{Noto Serif CJK SC}[BoldFont = Noto Sans CJK SC Bold, ItalicFont = Noto Serif CJK SC]
\setCJKsansfont{Noto Sans CJK SC}[BoldFont = Noto Sans CJK SC Bold, ItalicFont = Noto Sans CJK SC]
\setCJKmonofont{Noto Sans Mono CJK SC}[ItalicFont = Noto Sans Mono CJK SC]
% A line with long Latin words (labels, locations) is justified at the spaces around them first,
% not by spreading the Chinese characters apart.
\xeCJKsetup{CJKecglue = {\hskip 0.25em plus 1em minus 0.05em}, CJKglue = {\hskip 0pt plus 0.01\baselineskip}}
% xeCJK sets the en dash as a full-width CJK sign; in "L52–L200" it is a Latin range dash.
\xeCJKDeclareCharClass{Default}{"2013}
\usepackage{xurl}
% A footnote is not split across pages.
\interfootnotelinepenalty=10000
% Boxes (the inference boxes, the pinned-version box) are set ragged right: justified CJK text in a
% narrow box was stretched between characters around long paths and commit ids.
\usepackage{ragged2e}
\AtBeginEnvironment{sphinxadmonition}{\RaggedRight}
\addto\captionsenglish{%
  \renewcommand{\contentsname}{目录}%
  \renewcommand{\chaptername}{}%
  \renewcommand{\figurename}{图}%
  \renewcommand{\tablename}{表}%
}
% The pages between the table of contents and chapter 1 carry no running chapter title.
\makeatletter\g@addto@macro\sphinxtableofcontents{\markboth{}{}}\makeatother
\titleformat{\chapter}[display]{\normalfont\sffamily\bfseries\Large}
  {第\,\thechapter\,章}{12pt}{\huge}
""",
}

# ---- EPUB (make epub) --------------------------------------------------------------------------
# An anchor shows its label and "(path:Lx–Ly@sha)" and links to the upstream lines; the permalink
# itself is listed in the chapter's notes (Sphinx's EPUB footnotes), not spelt out in the text.
epub_title = project
epub_author = author
epub_publisher = author
epub_copyright = copyright
epub_language = "zh"
# The book has no public address yet, so its EPUB identifier is a fixed UUID, not a made-up URL
# (EPUB readers key their libraries and reading positions on it: it must never change).
epub_identifier = "urn:uuid:490db907-50e1-5db5-a1db-8022c8d40d9d"
epub_scheme = "uuid"
epub_basename = "code-reading-guide"
epub_show_urls = "footnote"
epub_css_files = ["book-epub.css"]
# The search shim is for the web pages; the anchor records are for tools, not readers.
epub_exclude_files = [
    "_static/zh-stemmer-shim.js",
    "source-anchors.json",
    "source-anchors.stats.json",
    ".buildinfo.bak",
]  # Sphinx keeps the previous .buildinfo after a change of conf.py
