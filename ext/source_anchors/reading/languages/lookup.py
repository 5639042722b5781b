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

import re
from typing import TYPE_CHECKING

from ..language import Definition
from .capture import Naming, records, single
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
    *,
    inside: bool = False,
) -> list[Definition] | None:
    """The definitions of *parsed* whose own last name is *name*, by its places; None where that does not apply.

    *cursor* is a cursor over the language's definitions query (the language keeps one: its byte
    range is set here for each place), or the query's patterns matched without it
    (:mod:`.walkmatch`). None when *name* is not a plain identifier or is written in more than
    *limit* places (:data:`PLACES` by default): the caller reads every definition then. With
    *inside* (the query allows it: :func:`inside_children`), the query runs from the root's child
    holding each place rather than from the root.
    """
    # plain(name), inline: an ASCII identifier has no "$" to replace, the usual case.
    if not (name.isascii() and (name.isidentifier() or name.replace("$", "_").isidentifier())):
        return None
    source, word = parsed.source, name.encode()
    at = source.find(word)
    if at < 0:
        return []  # not written: no place, no definition
    end = at + len(word)
    if source.find(word, end) >= 0 or isinstance(cursor, Patterns):
        return _named_in_places(language, parsed, cursor, name, word, limit, inside)
    # Written once (_places' usual case, inline): one run of the query, over that place.
    if (at and source[at - 1] in _WORD) or (end < len(source) and source[end] in _WORD):
        return []  # part of a longer word
    root = top = parsed.tree.root_node
    cursor.set_byte_range(at, end)
    if inside:  # _top(root, at), inline
        child = root.first_child_for_byte(at)
        if child is not None and child.start_byte <= at:
            top = child
    matches = cursor.matches(top)
    if len(matches) == 1:  # one definition in no scope, the most usual
        found = single(language, parsed, matches[0][1], at, end, top, name)
        if found is not None:
            return found if not found or found[0].path[-1] == name else []
    found = _named_at(language, parsed, matches, [(at, end)])
    if len(found) == 1:  # the usual case, without a comprehension's cost
        return found if found[0].path[-1] == name else []
    return [definition for definition in found if definition.path[-1] == name]


def _named_in_places(
    language: Naming,
    parsed: Parsed,
    cursor: tree_sitter.QueryCursor | Patterns,
    name: str,
    word: bytes,
    limit: int,
    inside: bool,
) -> list[Definition] | None:
    """:func:`named_definitions` of a *name* (its bytes *word*) written more than once, or matched by patterns."""
    places = _places(parsed.source, word, limit)
    if places is None:
        return None
    root = parsed.tree.root_node
    if isinstance(cursor, Patterns):
        matches = [found for start, end in places for found in cursor.at(root, start, end)]
    else:
        matches = []
        for start, end in places:
            cursor.set_byte_range(start, end)
            matches.extend(cursor.matches(_top(root, start) if inside else root))
    found = _named_at(language, parsed, matches, places)
    if len(found) == 1:  # the usual case, without a comprehension's cost
        return found if found[0].path[-1] == name else []
    return [definition for definition in found if definition.path[-1] == name]


def _named_at(
    language: Naming,
    parsed: Parsed,
    matches: list[tuple[int, dict[str, list[tree_sitter.Node]]]],
    places: list[tuple[int, int]],
) -> list[Definition]:
    """The definitions *matches* capture whose name node holds one of *places*.

    A function of its own: a closure in the caller would cost its cells on every call.
    """

    def holds(node: tree_sitter.Node) -> bool:
        first, last = node.start_byte, node.end_byte
        return any(first <= start and end <= last for start, end in places)

    return records(language, parsed, matches, named=holds)


def inside_children(query: tree_sitter.Query, text: str, root: str) -> bool:
    """Whether every match of *query* (its source *text*) lies inside one child of a tree's root, of type *root*.

    So it is when each pattern has one node at its top (not siblings side by side, which may
    match across the root's children) and that node is never the root: a named node type other
    than *root* (``(_ …)``, an alternation ``[…]`` or an unknown form could be the root, and say
    no). A place is inside one child of the root (siblings never overlap), so such a query,
    restricted to the place, gives the same matches from that child as from the root, without
    stepping over the root's other children: most of the cursor's walk in a file of many
    definitions.
    """
    source, name = text.encode("utf-8"), root.encode("utf-8")
    for index in range(query.pattern_count):
        if not query.is_pattern_rooted(index) or query.is_pattern_non_local(index):
            return False
        # The pattern's own text, by its bytes (the query's offsets are bytes).
        top = _TOP.match(source, query.start_byte_for_pattern(index))
        if top is None or top.group(1) in (b"_", name):
            return False
    return True


#: A pattern's top node type: ``(type``, or ``((type`` where the pattern is grouped with predicates.
_TOP = re.compile(rb"\(\s*(?:\(\s*)?([A-Za-z_][A-Za-z0-9_]*)(?=[\s)])")


def _top(root: tree_sitter.Node, start: int) -> tree_sitter.Node:
    """The child of *root* holding byte *start*, else *root*: where a query may run from (:func:`inside_children`)."""
    child = root.first_child_for_byte(start)
    return child if child is not None and child.start_byte <= start else root


def plain(name: str) -> bool:
    """Whether *name* is a plain identifier, ``[A-Za-z_$][A-Za-z0-9_$]*``, whose places are found by its bytes.

    An operator's name (``operator ==``) is not.
    """
    return name.isascii() and name.replace("$", "_").isidentifier()


def _places(source: bytes, word: bytes, limit: int) -> list[tuple[int, int]] | None:
    """The byte ranges where *word* stands as a whole word of *source*; None above *limit* of them."""
    at = source.find(word)
    size, total = len(word), len(source)
    end = at + size
    if at < 0 or source.find(word, end) < 0:  # written once, or not at all: the usual case
        whole = at >= 0 and (at == 0 or source[at - 1] not in _WORD)
        return [(at, end)] if whole and (end == total or source[end] not in _WORD) else []
    places: list[tuple[int, int]] = []
    while at >= 0:
        end = at + size
        if (at == 0 or source[at - 1] not in _WORD) and (end == total or source[end] not in _WORD):
            if len(places) == limit:
                return None
            places.append((at, end))
        at = source.find(word, end)
    return places
