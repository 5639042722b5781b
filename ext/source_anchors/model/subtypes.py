"""The kinds of problem the extension reports: one warning subtype each (no Sphinx).

Every core exception and every drift status names one of these; the Sphinx glue emits it as the
warning ``source-anchors.<subtype>``, so ``suppress_warnings = ["source-anchors.moved"]`` silences
exactly one kind. The docstrings below are the manual's table of diagnostics (read with
``sphinx.pycode.ModuleAnalyzer``): keep each one a complete sentence for the author.
"""

from __future__ import annotations

from enum import StrEnum

WARNING_TYPE = "source-anchors"


class Subtype(StrEnum):
    """Subtypes of the ``source-anchors`` warning."""

    moved = "moved"
    """The anchored lines are unchanged but now stand at another path or line range than the lock
    records; or, at the same commit, a new resolver version or another ``source_anchors_python``
    resolves the anchor elsewhere (the message names the rule that moved it). Check that the prose
    still fits, then run ``source-anchors update``."""

    changed = "changed"
    """The anchored lines differ from what the lock records. The message names the class of change
    (``formatting``, ``comments``, ``annotations`` or ``code``) and shows the first lines of the
    diff from the locked lines. Re-read the code, fix the prose, then ``source-anchors update``
    (``--accept formatting,comments`` relocks only the anchors of those classes)."""

    missing = "missing"
    """The symbol no longer exists, or the match text occurs on no line or on several lines of the
    symbol. The message names the closest existing names or the matching lines."""

    new = "new"
    """A locked build (``CI=true`` or ``source_anchors_locked = True``) met an anchor the lock does
    not record. Run ``source-anchors update`` and commit the lock."""

    lock = "lock"
    """A locked build met anchors that do not match the lock (new, moved, changed, missing, or not
    checkable). It exits non-zero even without ``-W``, as ``npm ci`` refuses a stale lock: review
    the anchors the other warnings name, run ``source-anchors update`` and commit the lock."""

    target = "target"
    """The anchor's text is malformed: empty, a bad dotted path, nothing after ``::``, or an
    unknown repository name; or the anchor is written in the other markup's syntax (``:src:`` or
    ``.. source-anchor::`` in a MyST page, ``{src}`` in an rST page), with a space after the role
    name (``:src: `x```, ``{src} `x```), or as a ``:::`` block without MyST's ``colon_fence``, which
    the page shows as text."""

    source = "source"
    """The pinned tree could not be obtained from any configured source (cache, git, distribution);
    the message names each source tried and why it failed."""

    unverified = "unverified"
    """A file from a distribution is not proven identical to the pinned commit: its git blob id
    differs from, or is absent in, the lock and the committed tree listing."""

    upstream = "upstream"
    """An upstream file the anchor needs cannot be read statically: a syntax error, bytes that are
    not UTF-8, or a file above ``source_anchors_max_file_bytes``."""

    ref = "ref"
    """The tag or branch that a pin's ``ref`` names now points at another commit than the pinned one,
    or is gone. Checked once per locked build, for pins with a ``ref`` and ``git`` among their
    ``sources`` (one ``git ls-remote`` each); an unreachable remote gives an info line, never this
    warning. Run ``source-anchors bump NAME REF`` to preview the move, then ``--write`` it."""

    unwritable = "unwritable"
    """The extension cannot write where it keeps its files. The cache directory: the build goes on
    with a cache in its doctree folder, which starts empty; set ``SOURCE_ANCHORS_CACHE`` or
    ``source_anchors_cache_dir`` to a writable directory. The lock file (a read-only checkout): the
    new anchors are checked but not recorded; run the build or ``source-anchors update`` where the
    lock is writable and commit it (a locked build records nothing and fails on new anchors anyway).
    """

    config = "config"
    """A configuration value or the lock file is invalid; the message names the value or the file
    and line."""

    api = "api"
    """API source links (``source_anchors_api_links``) cannot be made at all (no git checkout and no
    ``source_anchors_api_commit``, no web address, no package), or documented files differ from the
    commit the links name (uncommitted edits). The message names the setting or the files."""

    uncommitted = "uncommitted"
    """Some files that the ``self:`` anchors cite have uncommitted edits (staged or not). ``self``
    is read at ``HEAD`` from git's objects, so the anchors show and check the committed lines, not
    the ones being edited. Said once per build, at the first anchor citing such a file, naming them
    all (the plain-Markdown ``check`` says it in one line on stderr). Commit them, or build from a
    clean checkout."""

    doubled = "doubled"
    """Another extension writes a second ``[source]`` link on every signature beside
    ``source_anchors_api_links``: ``sphinx.ext.viewcode``, or ``sphinx.ext.linkcode`` with a
    ``linkcode_resolve`` of its own. Said once, at the ``extensions`` line of ``conf.py``. Remove
    that extension from ``extensions`` (the API links already link every object; ``linkcode`` may
    stay with ``from source_anchors.linkcode import linkcode_resolve``), or silence this subtype to
    keep both links on purpose (for viewcode's highlighted ``_modules`` pages, say)."""

    reproduced = "reproduced"
    """The book's literal blocks reproduce more upstream lines of real content than
    ``source_anchors_reproduced_lines_max`` allows."""
