"""What a read of the book did not give: objects autodoc could not import, and lock records no page cites.

API links into a pinned repository (``source_anchors_api_links = "<pin>"``) exist only for the
objects autodoc documented, and autodoc imports the documented package. Where it does not import
(the pre-commit hook's venv, a CI job that installed only this extension), the pages give fewer
records than where it does. So that ``check`` answers the same in both places:

- every lock record of that repository that no anchor of the read cites is checked from the lock
  alone (the target is the record's key; the resolver is static and imports nothing), and reported
  at the record's line in the lock file (:func:`lock_only`);
- what autodoc could not import is collected while the book is read (:class:`ImportWatch`) and
  named by ``check`` (:func:`notice`): an object the lock does not record yet cannot be checked
  there, so a check in CI fails on it.

Where the package imports, the records no page cites are the ones ``update`` prunes; they are
checked all the same, so that the answer does not depend on the environment.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..engine.apilinker import PinnedLinker
from ..engine.engine import Engine
from ..model.config.api import SELF
from ..model.records import AnchorRecord
from ..model.target import Target
from ..reading.compiled import compiled_file

#: The fix named when autodoc could not import the documented package.
INSTALL = (
    "install the documented package where check runs (pip install . and the docs' requirements; "
    "for the pre-commit hook, a 'repo: local' hook with 'language: system' in that environment)"
)
_KEY = re.compile(r'\s*("(?:[^"\\]|\\.)*"): \{')
_FAILED = re.compile(r"autodoc: failed to import (?:(\w+) )?'([^']*)'(?: from module '([^']*)')?")


@dataclass(frozen=True)
class Unimported:
    """One object an autodoc directive could not import: the document, what it is, and why."""

    doc: str
    what: str
    why: str


class ImportWatch(logging.Handler):
    """Collects autodoc's ``import_object`` warnings while a book is read, with the document being read.

    Attached to Sphinx's logger, it sees every warning before the handlers that print or suppress
    them (``suppress_warnings`` does not hide the failure from it).
    """

    def __init__(self, current_doc: Callable[[], str]) -> None:
        super().__init__(logging.WARNING)
        self._current_doc = current_doc
        self.found: list[Unimported] = []
        self._seen: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep an autodoc import failure."""
        if (
            getattr(record, "type", None) != "autodoc"
            or getattr(record, "subtype", None) != "import_object"
            or any(record is seen for seen in self._seen)
        ):  # Sphinx hands held-back warnings over again
            return
        self._seen.append(record)
        text = record.getMessage()
        match = _FAILED.search(text)
        # "failed to import 'core' from module 'pkg'" (Sphinx 9), "... class 'Gamma' from module
        # 'pkg.core'" (8)
        what = (
            f"{match[1] + ' ' if match[1] else ''}'{match[3] + '.' if match[3] else ''}{match[2]}'"
            if match
            else text.splitlines()[0]
        )
        why = text.partition("the following exception was raised:\n")[2].strip().splitlines()
        self.found.append(Unimported(self._current_doc(), what, why[-1] if why else ""))


def lock_only(records: list[AnchorRecord], engine: Engine) -> list[AnchorRecord]:
    """The lock records of the API-links repository that no record of *records* cites, each checked now.

    Each is placed at its key's line in the lock file, under the lock file's name as its document.
    """
    api = engine.settings.api
    if api is None or api.links == SELF:  # the own repository's links are not locked
        return []
    repo = api.links
    locked = engine.lock.records.get(repo, {})
    cited = {
        record.outcome.target.key
        for record in records
        if record.outcome.target is not None and record.outcome.target.repo == repo
    }
    keys = sorted(set(locked) - cited)
    if not keys:
        return []
    path = engine.settings.lock_path
    lines = _key_lines(path, repo)
    found = []
    linker = PinnedLinker(engine, repo)
    for n, key in enumerate(keys, 1):
        dotted, sep, match = key.partition("::")
        # a compiled definition's record is checked as its link is: Python first, then the bindings
        compiled = not sep and compiled_file(locked[key].path)
        outcome = (linker.outcome_of(dotted) if compiled else None) or engine.check(
            Target(repo, dotted, match if sep else None)
        )
        found.append(
            AnchorRecord(path.name, lines.get(key, 1), str(outcome.target), outcome, seq=n)
        )
    return found


def _key_lines(path: Path, repo: str) -> dict[str, int]:
    """The line of each record's key within *repo*'s object in the lock file (as :meth:`.Lock.dumps` writes it)."""
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    lines: dict[str, int] = {}
    inside = False
    for number, line in enumerate(text.splitlines(), 1):
        indent = len(line) - len(line.lstrip(" "))
        key = _KEY.match(line)
        if indent == 4 and key:
            inside = json.loads(key[1]) == repo
        elif inside and indent == 6 and key:
            lines.setdefault(json.loads(key[1]), number)
    return lines


def notice(unimported: list[Unimported], pages: dict[str, str], consequence: str) -> str:
    """What autodoc could not import (by page file, *pages*), then *consequence*, then the fix."""
    places = "; ".join(
        f"{pages.get(item.doc, item.doc)}: {item.what}" + (f": {item.why}" if item.why else "")
        for item in unimported[:5]
    ) + ("; …" if len(unimported) > 5 else "")
    return f"autodoc could not import {len(unimported)} object(s) ({places}), so {consequence}; {INSTALL}"
