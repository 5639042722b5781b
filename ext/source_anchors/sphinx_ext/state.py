"""Per-build state of the Sphinx glue: settings, the engine, page sources (one per project)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.engine import Engine
from ..markup.base import Markup
from ..markup.page import PageSource
from ..markup.registry import markup_for
from ..model.config import Settings
from ..model.records import RESOLVER_VERSION

_STATES: dict[str, BuildState] = {}


@dataclass
class BuildState:
    """What the glue keeps for one Sphinx project while a process builds it."""

    settings: Settings
    engine: Engine
    pages: dict[str, PageSource] = field(default_factory=dict)
    occurrences: dict[str, dict[tuple[int, str], int]] = field(default_factory=dict)
    #: The engine's work counters when each page being read started (see ``Engine.work``).
    work_before: dict[str, dict[str, int]] = field(default_factory=dict)
    #: Pages whose source spells the other markup's anchor syntax (read for it after parsing).
    suspect: set[str] = field(default_factory=set)
    #: Pages whose front matter names an unknown repository, warned about once in this read.
    bad_front_matter: set[str] = field(default_factory=set)

    @property
    def quiet(self) -> bool:
        """Whether the build reads the book for the CLI: no warnings, no lock writes, no report."""
        return self.settings.quiet

    def fingerprint(self) -> str:
        """Hash of everything that can change an anchor's status besides the pages."""
        pins = {
            name: [
                pin.url,
                pin.commit,
                list(pin.packages),
                pin.dist,
                *([pin.dist_format] if pin.dist_format != "wheel" else []),
            ]
            for name, pin in sorted(self.engine.pins.items())
        }
        try:
            lock = hashlib.sha256(self.settings.lock_path.read_bytes()).hexdigest()
        except OSError:
            lock = ""  # no lock yet
        payload = json.dumps(
            [RESOLVER_VERSION, str(self.settings.python), pins, lock], sort_keys=True
        )
        return hashlib.sha256(payload.encode()).hexdigest()

    def page(self, env: Any) -> PageSource:
        """The source of the page *env* reads: the text kept at ``source-read``, else read from its file once.

        Sphinx purges a document before it reads it again, and :meth:`forget` then drops
        the text kept here; so roles of one read share one copy without a ``stat`` each.
        """
        docname: str = env.docname
        found = self.pages.get(docname)
        if found is None:
            file = Path(env.doc2path(docname))
            try:
                found = PageSource(
                    file.read_text("utf-8", errors="replace"), page_markup(env, file)
                )
            except OSError:
                found = PageSource("", page_markup(env, file))
            self.pages[docname] = found
        return found

    def keep_page(self, docname: str, text: str, markup: Markup) -> None:
        """Use *text*, written in *markup*, as the source of *docname* for this read (from ``source-read``)."""
        self.pages[docname] = PageSource(text, markup)

    def next_occurrence(self, docname: str, line: int, rawtext: str) -> int:
        """How many times this (doc, paragraph line, rawtext) was seen before in this read."""
        seen = self.occurrences.setdefault(docname, {})
        count = seen.get((line, rawtext), 0)
        seen[(line, rawtext)] = count + 1
        return count

    def forget(self, docname: str) -> None:
        """Reset per-read counters and the kept source of *docname* before it is read again."""
        self.occurrences.pop(docname, None)
        self.pages.pop(docname, None)
        self.bad_front_matter.discard(docname)


def page_markup(env: Any, path: Path) -> Markup:
    """The markup of the page at *path*, by the book's ``source_suffix``."""
    return markup_for(path, env.config.source_suffix)


def register(srcdir: str, *, settings: Settings, engine: Engine) -> BuildState:
    """Start the state of the project at *srcdir* (on ``config-inited``)."""
    _STATES[srcdir] = state = BuildState(settings=settings, engine=engine)
    return state


def get_state(srcdir: str) -> BuildState:
    """The state of the project at *srcdir* (set on ``config-inited``)."""
    return _STATES[srcdir]
