"""Definitions read by one name: the query run only where the name is written, not over the whole tree.

A definition named ``insert`` has ``insert`` written in its name node. So the places where the
name's bytes stand as a whole word are found in the file's bytes, and the language's query is run
over each place's byte range only. A cursor restricted to a range still matches the nodes that hold
the range, with their names: the definition around the place, and every scope around that (a
class, an ``impl``, a namespace), which make its path. A definition whose name node holds one of
the places is one of the name's; the others the matches give are only scopes. What this gives is
what reading the whole file gives for that name (``tests/test_languages_lookup.py`` compares the
two on every definition of the test files and of real upstream files), at the cost of a few short
walks from the root instead of the query over every node.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..language import Definition
from .capture import Naming, records
from .walkmatch import Patterns

if TYPE_CHECKING:
    import tree_sitter

    from .parsed import Parsed

#: The bytes an identifier is made of: a place must have none of them on either side.
_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")
#: Above this many places, one run of the query over the whole tree costs less than a run per place.
PLACES = 12


def named_definitions(
    language: Naming,
    parsed: Parsed,
    cursor: tree_sitter.QueryCursor | Patterns,
    name: str,
    limit: int = PLACES,
) -> list[Definition] | None:
    """The definitions of *parsed* whose own last name is *name*, by its places; None where that does not apply.

    *cursor* is a cursor over the language's definitions query (the language keeps one: its byte
    range is set here for each place), or the query's patterns matched without it
    (:mod:`.walkmatch`). None when *name* is not a plain identifier or is written in more than
    *limit* places (:data:`PLACES` by default): the caller reads every definition then.
    """
    if not plain(name):
        return None
    places = _places(parsed.source, name.encode(), limit)
    if places is None:
        return None
    root = parsed.tree.root_node
    if isinstance(cursor, Patterns):
        matches = [found for start, end in places for found in cursor.at(root, start, end)]
    elif len(places) == 1:  # the usual case: one run, one place
        cursor.set_byte_range(*places[0])
        matches = cursor.matches(root)
    else:
        matches = []
        for start, end in places:
            cursor.set_byte_range(start, end)
            matches.extend(cursor.matches(root))
    if len(places) == 1:
        start, end = places[0]

        def holds(node: tree_sitter.Node) -> bool:
            return node.start_byte <= start and end <= node.end_byte

    else:

        def holds(node: tree_sitter.Node) -> bool:
            first, last = node.start_byte, node.end_byte
            return any(first <= start and end <= last for start, end in places)

    found = records(language, parsed, matches, named=holds)
    if len(found) == 1:  # the usual case, without a comprehension's cost
        return found if found[0].path[-1] == name else []
    return [definition for definition in found if definition.path[-1] == name]


def plain(name: str) -> bool:
    """Whether *name* is a plain identifier, ``[A-Za-z_$][A-Za-z0-9_$]*``, whose places are found by its bytes.

    An operator's name (``operator ==``) is not.
    """
    return name.isascii() and name.replace("$", "_").isidentifier()


def _places(source: bytes, word: bytes, limit: int) -> list[tuple[int, int]] | None:
    """The byte ranges where *word* stands as a whole word of *source*; None above *limit* of them."""
    places: list[tuple[int, int]] = []
    size, total = len(word), len(source)
    at = source.find(word)
    while at >= 0:
        end = at + size
        if (at == 0 or source[at - 1] not in _WORD) and (end == total or source[end] not in _WORD):
            if len(places) == limit:
                return None
            places.append((at, end))
        at = source.find(word, end)
    return places
