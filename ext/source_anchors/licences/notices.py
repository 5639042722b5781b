"""Licences, credits, copyright lines and sources that a file states in its own text (no Sphinx).

A licence file is found by its name (:mod:`.identify`); these rules find what other files say of
themselves, each with its line, so that the licence notes can list every licence the tree carries:

* ``licence``: an explicit licence: an SVG's ``<cc:license rdf:resource="…/by-sa/3.0/">`` metadata
  (with whether it is share-alike) or an ``SPDX-License-Identifier:`` line;
* ``credit``: the creator and the rights holder an SVG's Dublin Core metadata names;
* ``copyright``: a copyright line (``©`` or ``Copyright`` followed by a year or a template's
  ``{…}``), quoted without its markup (HTML tags, a ``key: `…``` around it), at most
  :data:`QUOTE_LIMIT` characters;
* ``source``: a marker naming where a file comes from: an "Uploaded to: SVG Repo" comment or SVG
  Repo's ``SVGRepo_`` element ids, a Lucide icon's ``lucide`` class, an EmojiOne icon's ``emojione``
  class.

What is kept is a name, a URL, a line number and a notice's own few words, never the file.
"""

from __future__ import annotations

import html
import re

from .evidence import TEMPLATES, Evidence

__all__ = ["QUOTE_LIMIT", "notices"]

#: The longest quote of a copyright line kept (a notice is one line; longer ones are cut with "…").
QUOTE_LIMIT = 100

_CC = re.compile(
    r'<cc:license\s+rdf:resource="(https?://creativecommons\.org/'
    r'(?:licenses/([a-z-]+)/(\d+(?:\.\d+)?)|publicdomain/zero/(\d+\.\d+))/?)"'
)
_SPDX = re.compile(r"SPDX-License-Identifier:\s*([\w.+()-]+(?:\s+(?:AND|OR|WITH)\s+[\w.+()-]+)*)")
_AGENT = r"<dc:{role}>\s*<cc:Agent>\s*<dc:title>([^<]{{1,120}})</dc:title>"
_CREATOR = re.compile(_AGENT.format(role="creator"))
_RIGHTS = re.compile(_AGENT.format(role="rights"))
_COPYRIGHT = re.compile(
    r"(?:\bCopyright\b(?:\s*(?:©|\(c\)|&copy;))?|©|&copy;)\s*(?:(?:19|20)\d\d\b|\$?\{)"
)
_TAG = re.compile(r"<[^>]*>")
# copyright: `Copyright © …` quotes what is inside
_CODE_PREFIX = re.compile(r"^\s*[\w.]+\s*[:=]\s*[`'\"]")
#: (source, pattern): the pattern's first group is the marker quoted; the first pattern of a source
#: wins.
_SOURCES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("SVG Repo", re.compile(r"<!--\s*(Uploaded to:\s*SVG Repo)\b")),
    ("SVG Repo", re.compile(r'\bid="(SVGRepo_\w+)"')),
    ("Lucide", re.compile(r'\bclass="(lucide(?: [\w-]+)*)"')),
    ("EmojiOne", re.compile(r'\bclass="[^"]*?((?:iconify--)?emojione[\w-]*)')),
)


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def notices(text: str, *, svg: bool) -> list[Evidence]:
    """The notices in *text*: copyright and SPDX lines in any text, the rest in an SVG (*svg*)."""
    found: list[Evidence] = []
    if svg:
        found += _svg_metadata(text)
    for match in _SPDX.finditer(text):
        found.append(
            Evidence("licence", _line(text, match.start()), TEMPLATES[13], (("licence", match[1]),))
        )
    for number, line in enumerate(text.splitlines(), 1):
        if _COPYRIGHT.search(line):
            quote = _CODE_PREFIX.sub("", html.unescape(_TAG.sub("", line))).strip().rstrip("`'\",;")
            quote = quote if len(quote) <= QUOTE_LIMIT else quote[: QUOTE_LIMIT - 1] + "…"
            found.append(Evidence("copyright", number, TEMPLATES[16], (("notice", quote),)))
    if svg:
        named: set[str] = set()
        for source, pattern in _SOURCES:
            marker = pattern.search(text)
            if marker and source not in named:
                named.add(source)
                found.append(
                    Evidence(
                        "source",
                        _line(text, marker.start()),
                        TEMPLATES[17],
                        (("source", source), ("marker", marker[1])),
                    )
                )
    return sorted(found, key=lambda e: (e.line, e.kind))


def _svg_metadata(text: str) -> list[Evidence]:
    found = []
    for match in _CC.finditer(text):
        url, kind, version, zero = match.groups()
        licence = f"CC0-{zero}" if zero else f"CC-{kind.upper()}-{version}"
        template = TEMPLATES[12] if kind and "sa" in kind.split("-") else TEMPLATES[11]
        found.append(
            Evidence(
                "licence",
                _line(text, match.start()),
                template,
                (("licence", licence), ("url", url)),
            )
        )
    for pattern, template in ((_CREATOR, TEMPLATES[14]), (_RIGHTS, TEMPLATES[15])):
        for match in pattern.finditer(text):
            found.append(
                Evidence(
                    "credit", _line(text, match.start(1)), template, (("name", match[1].strip()),)
                )
            )
    return found
