"""The plain-Markdown front end: line links in README.md, docs/*.md, AGENTS.md … checked without Sphinx.

Takes in: Markdown files of a git checkout and their inline links (:mod:`source_anchors.markup.mdlinks`):
relative line links (``[t](lib/mod.py#L4-L6)``), permalinks to the same repository (GitHub's
``/blob/REV/…#L4-L6``, GitLab's ``/-/blob/REV/…#L4-6``) and an explicit target in the link title
(``"src: lib.mod.f"``). Gives out: :class:`~source_anchors.model.records.AnchorRecord` per link
(page: the file's path, line: the link's), the lock's ``self`` records (``update``) and the links
rewritten to their code's new lines (``fix``). May import: the engine, markup, reading, model.
Never Sphinx, docutils or the Sphinx front end.
"""
