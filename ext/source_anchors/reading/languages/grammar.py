"""A language read with a tree-sitter grammar: parsing, naming definitions by a query, their ranges.

A language's query (``definitions.scm`` in its folder) captures each definition node as
``@definition.KIND`` (``@declaration.KIND`` for one without a body), its name as ``@name``, a node
that only opens a scope (a Rust ``impl``) as ``@scope``, a Go method's receiver type as
``@receiver`` and a Rust impl's trait as ``@trait``. A definition's path is the names of the scopes
around it, then its own; its lines run from the first attribute line before it (the language's
``attributes`` node types) or the wrapper around it (``export``, ``template <…>``, a ``const``
declaration of one name) to its last line holding code.
"""

from __future__ import annotations

import importlib
import re
from collections import OrderedDict
from importlib import resources
from typing import TYPE_CHECKING, ClassVar, Literal

from ...model.changeclass import ChangeClass
from ...model.errors import MissingExtraError
from ..language import Definition, Files, Language
from . import around
from .capture import records
from .clauses import Shape, find_line, statement_at, statement_span
from .lookup import inside_children, named_definitions
from .parsed import Parsed
from .tokens import change_class
from .walkmatch import Patterns, patterns_of

if TYPE_CHECKING:
    import tree_sitter

#: What to install for every language read with tree-sitter.
EXTRA = 'pip install "sphinx-source-anchors[languages]"'
#: How many bytes of files a language keeps the parses of, the most recent first: 8 MiB of
#: source, about 140 MB of syntax trees (a tree costs some 17 times its file's bytes). A build whose
#: anchors name less of a language than that parses each file once, however its pages go back and
#: forth between files; a larger one parses a file again when it comes back after the budget.
_KEEP_BYTES = 8 * 1024 * 1024
#: Up to how many places :meth:`TreeSitterLanguage.named_in` reads a name where it is written: a
#: compiled binding's lookups ask a file for a few names, each often written (a class's name on
#: every out-of-class method), and reading every definition of a large file costs more than
#: a few hundred short walks from the root.
NAMED_IN_PLACES = 256


class TreeSitterLanguage(Language):
    """A :class:`~..language.Language` over a tree-sitter grammar wheel; a language folder sets the class attributes."""

    #: The grammar wheel's module and the function of it that gives the grammar.
    grammar: ClassVar[tuple[str, str]]
    #: The package holding ``definitions.scm`` (the language's folder).
    package: ClassVar[str]
    #: The node types the ranges and the statement rule read (attributes, wrappers, bodies, clauses,
    #: literals).
    shape: ClassVar[Shape] = Shape()
    #: Anchors follow its rules: ``#Symbol.path`` targets, ``::match`` statements, drift by its
    #: tokens.
    wired: ClassVar[bool] = True

    def __init__(self) -> None:
        self._language: tree_sitter.Language | None = None
        self._parser: tree_sitter.Parser | None = None
        self._query: tree_sitter.Query | None = None
        #: One cursor over the query for the lookups by name (:meth:`named`), its range set for each.
        self._cursor: tree_sitter.QueryCursor | None = None
        #: Whether that cursor may run from the root's child holding a place (:func:`.lookup.inside_children`).
        self._inside = False
        self._parsed: OrderedDict[bytes, Parsed] = OrderedDict()
        #: The bytes of the files in :attr:`_parsed`.
        self._kept = 0
        #: How many files this language parsed (a measure for tests and benchmarks).
        self.parse_count = 0
        self._installed: bool | None = None
        #: The query's patterns matched without it, False when they cannot be (None: not read yet).
        self._walk: Patterns | Literal[False] | None = None

    def installed(self) -> bool:
        """Whether tree-sitter and this language's grammar wheel can be imported (tried once)."""
        if self._installed is None:
            try:
                importlib.import_module("tree_sitter")
                importlib.import_module(self.grammar[0])
            except ImportError:
                self._installed = False
            else:
                self._installed = True
        return self._installed

    def _load_parser(self) -> tree_sitter.Parser:
        """The grammar's parser, made once (the query is compiled only when it is run)."""
        if self._parser is None:
            try:
                import tree_sitter

                module = importlib.import_module(self.grammar[0])
            except ImportError as error:
                raise MissingExtraError(
                    f"reading {self.name} files needs tree-sitter and its grammar {self.grammar[0]}, "
                    f"which are not installed: {EXTRA}"
                ) from error
            self._language = tree_sitter.Language(getattr(module, self.grammar[1])())
            self._parser = tree_sitter.Parser(self._language)
        return self._parser

    def _query_text(self) -> str:
        return resources.files(self.package).joinpath("definitions.scm").read_text("utf-8")

    def _load(self) -> tuple[tree_sitter.Parser, tree_sitter.Query]:
        parser = self._load_parser()
        if self._query is None:
            import tree_sitter

            assert self._language is not None  # made with the parser
            self._query = tree_sitter.Query(self._language, self._query_text())
            self._cursor = tree_sitter.QueryCursor(self._query)
            root = parser.parse(b"").root_node.type
            # From the root's child, a definition that is that child has no wrapper around it.
            self._inside = root not in self.shape.wrappers and inside_children(
                self._query, self._query_text(), root
            )
        return parser, self._query

    def _walk_patterns(self) -> Patterns | None:
        """The query's patterns when they can be matched without it (:mod:`.walkmatch`), read once."""
        if self._walk is None:
            self._walk = patterns_of(self._query_text()) or False
        return self._walk if self._walk is not False else None

    def tree(self, source: bytes) -> Parsed:
        """*source* parsed, its definitions not read yet; a recent file's parse is kept and given again."""
        parsed = self._parsed.get(source)
        if parsed is not None:
            self._parsed.move_to_end(source)
            return parsed
        text = source
        if (
            b"\r" in source
        ):  # a lone \r breaks a line (split_lines), not a tree-sitter row: make it one
            text = _LONE_CR.sub(b"\n", source)  # the same length: every byte offset holds
        parsed = Parsed(text, self._load_parser().parse(text))
        self.parse_count += 1
        self._parsed[source] = parsed
        self._kept += len(source)
        while self._kept > _KEEP_BYTES and len(self._parsed) > 1:
            self._kept -= len(self._parsed.popitem(last=False)[0])
        return parsed

    def forget(self) -> None:
        """Drop every parse this language keeps (a benchmark's cold run, a test's)."""
        self._parsed.clear()
        self._kept = 0

    def parse(self, source: bytes) -> Parsed:
        """*source* parsed, with all its definitions read (by the query over the whole tree, once)."""
        parsed = self.tree(source)
        if not parsed.read:
            _, query = self._load()
            self._read_definitions(parsed, query)
        return parsed

    def definitions(self, source: bytes) -> list[Definition]:
        """Every definition of *source*, in the order of their first lines."""
        return list(self.parse(source).definitions)

    def named(self, source: bytes, dotted: str) -> list[Definition] | None:
        """The definitions of *source* whose path (or qualified path) is *dotted*, read where its last name is written.

        Only the places where the last name is written are read (:mod:`.lookup`), not the whole
        tree; None when that name is not a plain identifier (an operator) or written too often in
        the file: the caller then reads every definition (:meth:`definitions`). Once a file's
        definitions are all read, they answer.
        """
        wanted = (dotted,) if "." not in dotted else tuple(dotted.split("."))
        parsed = self._parsed.get(source)  # self.tree(source), its usual case inline
        if parsed is None:
            parsed = self.tree(source)
        else:
            self._parsed.move_to_end(source)
        if not parsed.read:
            last = wanted[-1]
            found = parsed.named.get(last)
            if found is None:
                cursor = self._cursor
                if cursor is None:
                    self._load()
                    cursor = self._cursor
                    assert cursor is not None
                found = named_definitions(self, parsed, cursor, last, inside=self._inside)
                if found is None:
                    return None
                parsed.named[last] = found
        else:
            found = parsed.definitions
        if len(found) == 1:  # the usual case, without a comprehension's cost
            only = found[0]
            return [only] if only.path == wanted or only.qualified == wanted else []
        return [d for d in found if d.path == wanted or d.qualified == wanted]

    def named_in(self, parsed: Parsed, name: str) -> list[Definition]:
        """The definitions of *parsed* (a file's :meth:`tree`) whose own name, their path's last, is *name*.

        Read where *name* is written (:mod:`.lookup`), as :meth:`named` reads them, up to
        :data:`NAMED_IN_PLACES` places, and kept on *parsed*; where that does not apply (an
        operator, a name written more often), every definition of the file is read once and those
        of *name* given. A caller that keeps
        *parsed* asks again without a second parse, however many other files were parsed since.
        """
        if not parsed.read:
            found = parsed.named.get(name)
            if found is None:
                walk = self._walk_patterns()  # no query compiled where its patterns allow
                cursor = walk or self._cursor
                if cursor is None:
                    self._load()
                    cursor = self._cursor
                    assert cursor is not None
                found = named_definitions(
                    self, parsed, cursor, name, NAMED_IN_PLACES, inside=self._inside
                )
                if found is not None:
                    parsed.named[name] = found
            if found is not None:
                return found
            _, query = self._load()
            self._read_definitions(parsed, query)
        return [d for d in parsed.definitions if d.path[-1] == name]

    def statement(self, source: bytes, start: int, end: int, match: str) -> tuple[int, int]:
        """The ``::match`` rule by this grammar's node types (:mod:`.clauses`)."""
        return statement_span(self.parse(source), self.shape, start, end, match)

    def statement_in(
        self, files: Files, path: str, hit: int, column: int, match: str
    ) -> tuple[int, int] | None:
        """The statement holding line *hit* of *path* where *match* is, its whole lines (a resolver narrows them)."""
        parsed = self.parse(files.data(path))
        line, at = find_line(parsed, hit, hit, match)
        return statement_at(parsed, self.shape, line, at)

    def change_class(self, old: bytes, new: bytes) -> ChangeClass:
        """``formatting``, ``comments`` or ``code`` by the tokens of *old* and *new* (:mod:`.tokens`)."""
        parser = self._load_parser()
        return change_class(parser.parse(old), old, parser.parse(new), new)

    # Naming: what a language folder may override.

    def name_of(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """The name node of a definition the query captured without ``@name`` (C declarators)."""
        return node.child_by_field_name("name")

    def names(self, text: str) -> tuple[str, ...]:
        """The path parts a name's text gives: one name; C++'s ``ns::Class::method`` gives three."""
        return (text,)

    def kind_of(self, node: tree_sitter.Node, kind: str) -> str:
        """The kind of a captured definition; the capture's by default (a Rust ``fn`` in an ``impl`` is a method)."""
        return kind

    def scope_names(self, text: str) -> tuple[str, ...]:
        """The path parts of a scope's or receiver's text (a type with its generic arguments stripped)."""
        return (type_name(text),)

    # Reading the query's captures.

    def _read_definitions(self, parsed: Parsed, query: tree_sitter.Query) -> None:
        import tree_sitter

        matches = tree_sitter.QueryCursor(query).matches(parsed.tree.root_node)
        parsed.definitions = records(self, parsed, matches, parsed.by_node)
        parsed.read = True

    def outer(self, node: tree_sitter.Node) -> tree_sitter.Node:
        """*node*, or the wrapper around it whose lines are its (:func:`.around.outer`)."""
        return around.outer(self.shape, node)

    def first_line(self, outer: tree_sitter.Node) -> int:
        """The first line of the definition whose outer node is *outer*: its first attribute line, else its own."""
        return self.first_node(outer).start_point.row + 1

    def first_node(self, outer: tree_sitter.Node) -> tree_sitter.Node:
        """The node the definition whose outer node is *outer* starts with (:func:`.around.first_node`)."""
        return around.first_node(self.shape, outer)

    def conditional(self, node: tree_sitter.Node) -> bool:
        """Whether *node* is inside a preprocessor conditional's branch (:func:`.around.conditional`)."""
        return around.conditional(self.shape, node)


#: A carriage return that does not start a CRLF.
_LONE_CR = re.compile(rb"\r(?!\n)")


def type_name(text: str) -> str:
    """A type's bare name: ``HashTrieMap<K, V>``, ``crate::map::HashTrieMap``, ``&'a HashTrieMap``: ``HashTrieMap``.

    A reference or pointer, its lifetime and ``mut``, ``const`` or ``dyn`` are not part of the name
    (Rust's ``impl Trait for &'a Type``, a Go pointer receiver ``*Type``).
    """
    text = _TYPE_PREFIX.sub("", text.split("<", 1)[0].strip())
    return text.rsplit("::", 1)[-1].rsplit(".", 1)[-1].strip()


#: What goes before a type's name in a reference or pointer type: ``&``, ``*``, a lifetime, ``mut``,
#: ``const``, ``dyn``.
_TYPE_PREFIX = re.compile(r"^(?:[&*\s]|'\w+|(?:mut|const|dyn)\b)+")
