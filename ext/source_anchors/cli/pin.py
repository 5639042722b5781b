"""``source-anchors pin NAME [REF]``: write a pin's commit from a tag or branch into ``conf.py``.

A pin's ``commit`` is a 40-hex SHA, which an author starting from a release does not have at hand.
This command asks the pin's URL which commit REF names (one ``git ls-remote``, peeled, as ``bump``
does), then writes that commit, and REF as the pin's ``ref``, into the pin's entry in ``conf.py``
(:func:`source_anchors.edit.confpy.set_entry`: every other byte stays). REF defaults to what the
entry's ``commit`` holds when it is not a SHA (``"commit": "0.28.1"``), else to its ``ref``. It
reads no anchor; ``bump`` is the command that moves a pin with a preview of every anchor.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..edit.confpy import set_entry
from ..model.config import PREFIX, SHA_RE
from ..model.config.pinfields import ref_problem, url_problem
from ..model.errors import ConfigError, GitError, RefError
from ..sources.gitrefs import resolve_ref
from .book import BookError
from .bump import conf_values, configured, write_conf_file


def pin(confdir: Path, name: str, ref: str | None) -> int:
    """Resolve *ref* at the URL of pin *name* and write its commit and ref into conf.py; the exit status."""
    try:
        print(write_first_pin(confdir, name, ref))
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        configured(confdir)
    except BookError as error:
        print(f"error: the pin is written, but conf.py is not valid yet: {error}", file=sys.stderr)
        return 2
    print("next: build the book (the first build records the anchors in the lock)")
    return 0


def write_first_pin(confdir: Path, name: str, ref: str | None) -> str:
    """Write the commit *ref* names (and *ref* as ``ref``) into the entry *name*; what was done."""
    conf = confdir / "conf.py"
    values = conf_values(confdir)
    repos = values.get(f"{PREFIX}repos")
    where = f"{PREFIX}repos[{name!r}]"
    if not isinstance(repos, Mapping) or not isinstance(repos.get(name), Mapping):
        known = ", ".join(sorted(str(k) for k in repos)) if isinstance(repos, Mapping) else "none"
        raise BookError(
            f"{conf}: no entry {where}; write one with 'url' and 'packages' first "
            f"(configured: {known or 'none'})"
        )
    entry: Mapping[str, Any] = repos[name]
    url = entry.get("url")
    if not isinstance(url, str) or not url.strip():
        raise BookError(f"{conf}: {where} has no 'url'; add the repository's URL first")
    if problem := url_problem(url.strip()):
        raise BookError(f"{conf}: {where}['url']: {problem}")
    commit, old_ref = entry.get("commit"), entry.get("ref")
    if ref is None:
        ref = commit if isinstance(commit, str) and commit and not SHA_RE.match(commit) else old_ref
    if not isinstance(ref, str) or not ref:
        raise BookError(
            f"{where} names no tag or branch; give one: 'source-anchors pin {name} TAG'"
        )
    if problem := ref_problem(ref):
        raise BookError(f"{name}: {problem}")
    timeout = values.get(f"{PREFIX}timeout", 300)
    try:
        sha = resolve_ref(
            url.strip(), ref, timeout=timeout if isinstance(timeout, int) else 300, name=name
        )
    except RefError as error:
        raise BookError(
            f"{error}; 'git ls-remote {url.strip()}' lists its tags and branches"
        ) from None
    except GitError as error:
        raise BookError(f"{name}: cannot resolve {ref!r} at {url.strip()}: {error}") from None
    by_hand = f"edit it by hand: set {where}['commit'] to {sha!r} and {where}['ref'] to {ref!r}"
    data = conf.read_bytes()
    try:
        new, notes = set_entry(data, name, {"commit": sha, "ref": ref}, where=where, conf=str(conf))
    except ConfigError as error:
        raise BookError(f"{error}; nothing written; {by_hand}") from None
    head = f"{name}: {ref!r} is {sha} at {url.strip()}"
    if not notes:
        return f"{head}\n{conf.name}: {name} is already pinned there; nothing to write"
    write_conf_file(conf, new, by_hand)
    moved = isinstance(commit, str) and SHA_RE.match(commit) is not None and commit != sha
    warning = (
        (
            f"\nnote: this replaced the pinned commit {str(commit)[:7]}; the next build compares every anchor with "
            f"the lock (preview a move with 'source-anchors bump {name} REF')"
        )
        if moved
        else ""
    )
    return f"{head}\n{conf.name}: " + "; ".join(notes) + warning
