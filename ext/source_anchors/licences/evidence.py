"""One piece of evidence about a file of a pinned tree, and every phrase it may say (no Sphinx).

The rules that find evidence are :mod:`.thirdparty` (material from elsewhere) and :mod:`.notices`
(licences, credits, copyright lines and sources a file states in its own text); the facts record
(:mod:`.facts`) keeps their findings, and the licence notes print them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TEMPLATES", "Evidence"]


@dataclass(frozen=True)
class Evidence:
    """One piece of evidence: its *kind*, the *line* it is on (0: the name), what it says.

    Kinds: ``bundle``, ``adapted``, ``data``, ``logo``, ``quoted`` (:mod:`.thirdparty`);
    ``licence``, ``credit``, ``copyright``, ``source`` (:mod:`.notices`).
    *what* is an English template (one of a fixed few, so that a book can say it in its own
    language) and *args* its fields: the facts themselves (a library and version, a brand, a URL,
    a notice's own short words).
    """

    kind: str
    line: int
    what: str
    args: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        # one order: records compare equal
        object.__setattr__(self, "args", tuple(sorted(self.args)))

    def text(self) -> str:
        """The evidence in English."""
        return self.what.format(**dict(self.args))


#: Every template of :attr:`Evidence.what` (a message catalog translates each). New ones go at the
#: end: the rules pick theirs by position.
TEMPLATES = (
    '{library} {version}, named by its module markers ("{marker}")',
    '{library} {version}, named by its module markers ("{marker}"); minified',
    "{library} {version}, named by its banner comment",
    "{library} {version}, named by its banner comment; minified",
    "an adapted-from notice",
    "an adapted-from notice naming {names}",
    "an adapted-from notice pointing at {urls}",
    "an adapted-from notice naming {names} and pointing at {urls}",
    "under {folder}, which {notice} says is adapted from elsewhere",
    "named after the {brand} brand",
    "{count} 'Source: <URL>' lines: model output and the web pages it quotes",
    "{licence}, named by its <cc:license> metadata ({url})",
    "{licence}, a share-alike licence, named by its <cc:license> metadata ({url})",
    "{licence}, named by an SPDX-License-Identifier line",
    "its metadata names {name} as creator",
    "its metadata names {name} as rights holder",
    'the line reads "{notice}"',
    'from {source}, by its marker "{marker}"',
)
