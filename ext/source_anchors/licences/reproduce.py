"""Count the upstream lines the book reproduces.

The book links to pinned upstream code rather than copying it.  This module
checks that promise: it indexes every substantial line of the pinned files
and looks up each line of the book's literal blocks in that index.  Lines
are compared after whitespace normalisation, and only lines that carry
real content are considered, so that ``return None`` or ``else:`` typed in
the book do not count as copying.  Pure: the caller supplies all texts.
"""

from __future__ import annotations

import builtins
import keyword
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "MIN_CHARS",
    "MIN_TOKENS",
    "Hit",
    "Reproduction",
    "count_reproduced",
    "is_real_content",
    "normalise",
    "upstream_line_index",
]

# Shorter lines are too generic to be evidence of copying: nearly any
# 11-character line ("return None", "i += 1") occurs in thousands of files.
MIN_CHARS = 12

# A line needs at least this many distinct informative names; with one,
# it is a trivial statement ("return self._cache", "self.x = x").
MIN_TOKENS = 2

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# Comment syntaxes of the languages likely to appear in upstream trees.
_COMMENT_PREFIXES = ("#", "//", "/*", "<!--")

# `import x` / `from x import y` only name things; a book using a library
# necessarily writes the same lines as the library's own examples.  The
# pattern wants a dotted name in import position so that a wrapped prose
# line starting with "from the ..." is not mistaken for an import.
_IMPORT = re.compile(r"from\s+[\w.]+\s+import\s|import\s+[\w.]+\s*(?:$|,|;|#|as\s)")

# Names that say nothing about where a line came from: Python keywords,
# builtins (``len``, ``super``, ``print``) and the conventional receivers.
_UNINFORMATIVE = frozenset([*keyword.kwlist, *keyword.softkwlist, *dir(builtins), "self", "cls"])


def _is_dunder(name: str) -> bool:
    """Tell whether *name* is a ``__dunder__`` (protocol boilerplate)."""
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def normalise(line: str) -> str:
    r"""Strip *line* and collapse each internal whitespace run to one space.

    >>> normalise("  x  =\t1 ")
    'x = 1'
    """
    return " ".join(line.split())


def is_real_content(line: str) -> bool:
    """Tell whether *line* is substantial enough to count as reproduced.

    After stripping, a line is real content when all of these hold:

    * it has at least :data:`MIN_CHARS` non-space characters;
    * it is not a comment-only line (``#``, ``//``, ``/*``, ``<!--``);
    * it is not an import (``from x import y``, ``import x``);
    * it has at least :data:`MIN_TOKENS` *distinct informative* names,
      i.e. identifier-like tokens that are not Python keywords, builtins,
      ``self``/``cls`` or ``__dunders__``.  This one rule rejects
      punctuation-only lines and trivial statements.

    Examples::

        "result = compute_score(docs, query)"  -> True
        "Gulls circled above the boats."       -> True   (prose counts)
        "return None", "else:", "pass", "})"   -> False  (too short)
        "self.name = name"                     -> False  (one name)
        "raise NotImplementedError()"          -> False  (builtin only)
        "super().__init__(**kwargs)"           -> False  (one name)
        "# Copyright the project authors"      -> False  (comment)
        "from typing import Any, Optional"     -> False  (import)
    """
    stripped = line.strip()
    if len("".join(stripped.split())) < MIN_CHARS:
        return False
    if stripped.startswith(_COMMENT_PREFIXES) or _IMPORT.match(stripped):
        return False
    names = {
        token
        for token in _IDENTIFIER.findall(stripped)
        if token not in _UNINFORMATIVE and not _is_dunder(token)
    }
    return len(names) >= MIN_TOKENS


def upstream_line_index(texts: Iterable[tuple[str, str]]) -> dict[str, tuple[str, int]]:
    """Index the real-content lines of upstream files.

    *texts* yields ``(path, file text)`` pairs.  Each normalised
    real-content line maps to the first ``(path, 1-based line number)``
    where it occurs, in the order given (pass paths sorted for a
    reproducible index).
    """
    index: dict[str, tuple[str, int]] = {}
    for path, text in texts:
        for number, line in enumerate(text.splitlines(), start=1):
            if is_real_content(line):
                index.setdefault(normalise(line), (path, number))
    return index


@dataclass(frozen=True, order=True)
class Hit:
    """One book line found upstream.

    ``docname`` and ``line`` locate the literal block in the book (its
    first line); ``upstream_path`` and ``upstream_line`` the first upstream
    occurrence.  Field order is the sort order.
    """

    docname: str
    line: int
    upstream_path: str
    upstream_line: int


@dataclass(frozen=True)
class Reproduction:
    """Result of :func:`count_reproduced`.

    ``total`` counts distinct upstream lines reproduced anywhere in the
    book (a line quoted in three places counts once); ``hits`` lists every
    block/upstream-line pair, sorted.
    """

    total: int
    hits: tuple[Hit, ...]


def count_reproduced(
    blocks: Iterable[tuple[str, int, str]],
    index: Mapping[str, tuple[str, int]],
) -> Reproduction:
    """Find the lines of the book's literal blocks that occur upstream.

    *blocks* yields ``(docname, line, literal text)`` for each literal
    block; *index* comes from :func:`upstream_line_index`.  Only
    real-content lines (see :func:`is_real_content`) are looked up.
    """
    hits: set[Hit] = set()
    for docname, block_line, text in blocks:
        for line in text.splitlines():
            if not is_real_content(line):
                continue
            found = index.get(normalise(line))
            if found is not None:
                path, upstream_line = found
                hits.add(Hit(docname, block_line, path, upstream_line))
    distinct = {(hit.upstream_path, hit.upstream_line) for hit in hits}
    return Reproduction(total=len(distinct), hits=tuple(sorted(hits)))
