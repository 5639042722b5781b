"""A definitions query's matches read into :class:`~source_anchors.reading.language.Definition` records.

The language gives the naming rules (:class:`Naming`, which
:class:`~.grammar.TreeSitterLanguage` is); the matches come from the query over the whole tree
(:meth:`~.grammar.TreeSitterLanguage.parse`) or over the places one name is written
(:mod:`.lookup`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from ..language import Definition

if TYPE_CHECKING:
    import tree_sitter

    from .clauses import Shape
    from .parsed import Parsed


class Naming(Protocol):
    """What :func:`records` asks of a language: its naming rules and the lines around a definition."""

    @property
    def shape(self) -> Shape:
        """The node types the ranges read."""

    def name_of(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """The name node of a definition the query captured without ``@name``."""

    def names(self, text: str) -> tuple[str, ...]:
        """The path parts a name's text gives."""

    def kind_of(self, node: tree_sitter.Node, kind: str) -> str:
        """The kind of a captured definition."""

    def scope_names(self, text: str) -> tuple[str, ...]:
        """The path parts of a scope's or receiver's text."""

    def outer(self, node: tree_sitter.Node) -> tree_sitter.Node:
        """*node*, or the wrapper around it whose lines are its."""

    def first_node(self, outer: tree_sitter.Node) -> tree_sitter.Node:
        """The node the definition whose outer node is *outer* starts with (its first attribute)."""

    def first_line(self, outer: tree_sitter.Node) -> int:
        """The definition's first line: its first node's, or above it (C's specifier macros)."""

    def conditional(self, node: tree_sitter.Node) -> bool:
        """Whether *node* is inside a branch of a preprocessor conditional."""


def records(
    naming: Naming,
    parsed: Parsed,
    matches: Iterable[tuple[int, dict[str, list[tree_sitter.Node]]]],
    by_node: dict[int, tuple[Definition, int]] | None = None,
    named: Callable[[tree_sitter.Node], bool] | None = None,
) -> list[Definition]:
    """The definitions the query's *matches* capture, in the order of their first lines.

    With *named*, only the definitions whose name node it accepts (the scopes around them are
    read from the matches all the same). *by_node*, when given, gets each definition's node id
    (and its wrapper's) with its record and the line its body starts on.
    """
    # The loops below call the naming rules only where a language has them (wrappers,
    # attributes, conditionals); a lookup by name's usual match is read by :func:`single`.
    scopes: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    found: list[
        tuple[tree_sitter.Node, str, bool, tree_sitter.Node, tuple[str, ...], tuple[str, ...]]
    ] = []
    for _, captures in matches:
        names = captures.get("name")
        name = names[0] if names else None
        if "scope" in captures:
            node = captures["scope"][0]
            if name is not None:
                short = naming.scope_names(text_of(name))
                trait = _one(captures, "trait")
                long = (
                    (*naming.scope_names(text_of(trait)), "for", *short)
                    if trait is not None
                    else short
                )
                scopes[node.id] = (short, long)
            continue
        for capture, nodes in captures.items():
            kinds = _CAPTURES.get(capture)
            if kinds is None:
                kinds = _CAPTURES[capture] = _capture(capture)
            if not kinds:
                continue
            body, kind = kinds
            node = nodes[0]
            name = name if name is not None else naming.name_of(node)
            text = _text(parsed.source, name) if name is not None else ""
            if name is None or not text:
                continue
            receiver = captures.get("receiver")
            before = naming.scope_names(text_of(receiver[0])) if receiver else ()
            own = naming.names(text)
            scopes.setdefault(node.id, (own, own))
            found.append((node, naming.kind_of(node, kind), body, name, before, own))
    wrappers = naming.shape.wrappers
    # One scope known: the definition's own, so none around it; a flat language has none.
    nested = len(scopes) > 1 and not naming.shape.flat
    seen: set[int] = set()
    records: list[Definition] = []
    starts: list[int] = []
    for node, kind, body, name, before, own in found:
        if node.id in seen or (named is not None and not named(name)):
            continue
        seen.add(node.id)
        outer = node
        if wrappers and (parent := node.parent) is not None and parent.type in wrappers:
            outer = naming.outer(node)
        short, long = _scope_path(outer, scopes) if nested else ((), ())
        path = (*short, *before, *own) if short or before else own
        qualified = (*long, *before, *own) if long is not short else path
        definition = _record(naming, parsed, node, outer, kind, body, name, path, qualified)
        records.append(definition)
        starts.append(node.start_byte)
        if by_node is not None:
            body_node = node.child_by_field_name("body")
            body_line = body_node.start_point.row + 1 if body_node is not None else 0
            by_node[node.id] = by_node[outer.id] = (definition, body_line)
    # Ties (a typedef and the struct it names share their lines) in the order of their nodes,
    # so that a file's definitions read whole or by one name come in the same order.
    if len(records) > 1:
        order = sorted(
            range(len(records)),
            key=lambda at: (records[at].start, -records[at].end, starts[at]),
        )
        return [records[at] for at in order]
    return records


def single(
    naming: Naming,
    parsed: Parsed,
    captures: dict[str, list[tree_sitter.Node]],
    start: int,
    end: int,
    top: tree_sitter.Node,
    word: str,
) -> list[Definition] | None:
    """What :func:`records` gives for the one match *captures* of a lookup by name, when it is a named definition alone.

    The lookup ran the query from *top* over the place *start*..*end* (byte offsets) where the
    name *word* is written: a definition is the name's when its name node holds the place (*named*
    of :func:`records`); a name node that is the place is *word*, not decoded again. None when the
    match is anything else (a scope, a receiver, no ``@name``, several captures): then
    :func:`records` reads it as any match. One record is made so per anchor resolved
    (``bench/languages.py``): the naming rules are called only where the language has them.
    """
    count = len(captures)
    if count == 2:
        names = captures.get("name")
        if not names:
            return None
        for capture in captures:  # the other capture: the definition's
            if capture != "name":
                break
    elif count == 1:  # a definition whose name its naming rule finds (C's declarators)
        names = None
        capture = next(iter(captures))
    else:
        return None
    kinds = _CAPTURES.get(capture)
    if kinds is None:
        kinds = _CAPTURES[capture] = _capture(capture)
    if not kinds:
        return None
    body, kind = kinds
    node = captures[capture][0]
    if names is not None:
        name = names[0]
    else:
        found = naming.name_of(node)
        if found is None:
            return None
        name = found
    first, last = name.start_byte, name.end_byte
    if not (first <= start and end <= last) or first == last:
        return []
    own = naming.names(
        word
        if first == start and last == end
        else parsed.source[first:last].decode("utf-8", "replace")
    )
    outer = node
    wrappers = naming.shape.wrappers
    # The root's child (*top*, where the query ran) has the root around it, never a wrapper.
    if wrappers and node != top and (parent := node.parent) is not None and parent.type in wrappers:
        outer = naming.outer(node)
    kind = naming.kind_of(node, kind)
    return [_record(naming, parsed, node, outer, kind, body, name, own, own)]


def _record(
    naming: Naming,
    parsed: Parsed,
    node: tree_sitter.Node,
    outer: tree_sitter.Node,
    kind: str,
    body: bool,
    name: tree_sitter.Node,
    path: tuple[str, ...],
    qualified: tuple[str, ...],
) -> Definition:
    """The record of the definition *node* (its lines from *outer*, its wrapper or itself)."""
    shape = naming.shape
    source = parsed.source
    first = naming.first_node(outer) if shape.attributes else outer
    row, column = first.start_point
    begin = (
        first.start_byte - column
    )  # the start of the first line (tree-sitter's columns are bytes)
    if shape.specifiers:  # C and C++: specifier macros above the node the grammar read apart
        above = naming.first_line(outer) - 1
        if above != row:
            row, begin = above, (parsed.newlines[above - 1] + 1 if above else 0)
    end = outer.end_byte
    spliced = shape.spliced
    if spliced and outer.type in spliced:  # a #define's lines go on past a trailing backslash
        line = parsed.spliced_end(outer)
        last = parsed.newlines[line - 2] + 1 if line > 1 else 0
    elif end and source[end - 1] not in _BLANK:  # Parsed.last_line's usual case: it ends on code
        last, line = end - 1, outer.end_point.row + 1
    else:
        last = parsed.last_byte(outer)
        line = parsed.line_of(last)
    cut = source.find(b"\n", last)  # the end of the last line
    return _DEFINITION(
        Definition,
        (
            path,
            kind,
            row + 1,
            line,
            name.start_point.row + 1,
            qualified if qualified != path else (),
            body,
            bool(shape.conditionals) and naming.conditional(node),
            "",
            (begin, cut if cut >= 0 else len(source)),
        ),
    )


#: A :class:`Definition` made from its fields in order, without the named tuple's ``__new__``
#: (a Python function: a third of making one).
_DEFINITION = tuple.__new__
#: Each capture's name read once: (whether it has a body, its kind) for a definition's capture
#: (``@definition.KIND``, ``@declaration.KIND``), else ``()``.
_CAPTURES: dict[str, tuple[bool, str] | tuple[()]] = {}


def _capture(capture: str) -> tuple[bool, str] | tuple[()]:
    prefix, _, kind = capture.partition(".")
    return (
        (prefix == "definition", kind) if kind and prefix in ("definition", "declaration") else ()
    )


#: What :meth:`~.parsed.Parsed.last_line` steps back over (a byte, as an int, is looked up in it:
#: a slice would first be tried as an int, at the cost of an exception).
_BLANK = b" \t\r\n\f\v"


def _one(captures: dict[str, list[tree_sitter.Node]], name: str) -> tree_sitter.Node | None:
    nodes = captures.get(name)
    return nodes[0] if nodes else None


def _text(source: bytes, node: tree_sitter.Node) -> str:
    """:func:`text_of` *node* of a tree parsed from *source*, by slicing (``Node.text`` makes a memoryview)."""
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")


def text_of(node: tree_sitter.Node) -> str:
    """The text of *node*, decoded (bad bytes replaced)."""
    return (node.text or b"").decode("utf-8", "replace")


def _scope_path(
    node: tree_sitter.Node, scopes: dict[int, tuple[tuple[str, ...], tuple[str, ...]]]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The short and the qualified path of the scopes around *node*, outermost first.

    *node* is a definition's outer node: a wrapper that is a definition itself (the ``typedef`` of
    ``typedef struct Foo {…} Foo;``) does not put its name on the definition it wraps.
    """
    short: list[str] = []
    long: list[str] = []
    parent = node.parent
    while parent is not None:
        names = scopes.get(parent.id)
        if names is not None:
            short[:0] = names[0]
            long[:0] = names[1]
        parent = parent.parent
    return tuple(short), tuple(long)
