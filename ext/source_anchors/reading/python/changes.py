"""What kind of change a ``changed`` anchor's lines went through (pure; changed anchors only).

:func:`classify` compares the locked lines with the current ones and gives the most significant
:class:`ChangeClass` that explains the difference, in the order ``code`` > ``annotations`` >
``comments`` > ``formatting``:

- ``formatting``: the same Python tokens apart from whitespace, line breaks and indentation; or
  the same syntax tree and the same comments (quote style, redundant parentheses, trailing
  commas; docstrings compared as :func:`inspect.cleandoc` cleans them);
- ``comments``: only comments and docstrings differ (a docstring is a string expression that is
  the first statement of a module, class or function body);
- ``annotations``: only type annotations differ (of arguments, returns and annotated
  assignments), comments and docstrings aside;
- ``code``: anything else, and every excerpt that does not tokenize.

An excerpt is parsed after :func:`dedent` (what :func:`textwrap.dedent` gives; a clause such as
``elif …:`` or ``except …:`` inside a made-up ``if``/``try``); one that still does not parse is
compared by its tokens alone, so it can be ``formatting`` or ``comments`` (docstrings found by a
token heuristic) but never ``annotations``. Non-Python text (``python=False``) is ``formatting``
when it is equal after collapsing whitespace, else ``code`` (:func:`~..language.text_change`).

Trees are compared as :func:`ast.dump` shows them, walked side by side without copying either
(:class:`~.astsame.Same`); two excerpts whose statement keywords differ (:data:`_STATEMENTS`) are
``code`` as soon as one of them parses, so the other need not be parsed.

Given the statements directly inside each excerpt's statement (:class:`Parts`, from the files'
module indexes: a class's members, a function's body, a module's top level), two excerpts are
``code`` without being parsed whole when two parts in the same place, each parsed alone as its
excerpt's source has it, are ``code`` apart, or when the lists' lengths say they differ with
docstrings dropped (:func:`_code_by_parts`). Two compound parts are first compared by the statements
inside them, the same way, so that only the innermost statements that differ are parsed. Their trees
are the excerpts' subtrees, so the class is the one the whole excerpts give; anything the parts do
not settle is read whole, as above.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import sys
import textwrap  # its indent only: see .dedent
import tokenize
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from ...model.changeclass import ChangeClass
from ..collector import collector_paused
from ..language import text_change
from .astsame import BODIES, Same, docstring
from .dedent import dedent
from .statements import Compact

#: A statement directly inside an excerpt's statement: its first and last line in the excerpt and
#: the whitespace before it; None for one that shares a line with another statement (not read
#: alone).
Part = tuple[int, int, str] | None


def classify(
    old: list[str] | str,
    new: list[str] | str,
    *,
    python: bool = True,
    parts: tuple[Parts, Parts] | None = None,
) -> ChangeClass:
    """The most significant class of change from the *old* lines to the *new* ones.

    *parts* are the statements directly inside each excerpt's statement (or module), as the module
    indexes know them (:class:`Parts`): when two of them, in the same place of each, are ``code``
    apart, so are the excerpts, and neither excerpt is parsed whole (:func:`_parts_apart`).
    """
    old_text = old if isinstance(old, str) else "\n".join(old)
    new_text = new if isinstance(new, str) else "\n".join(new)
    if not python:
        return text_change(old_text, new_text)
    # The excerpts' trees hold no cycles and are freed when _classified returns, inside the block:
    # the collections their allocation would start in a build's large heap would only walk it (half
    # the time).
    with collector_paused():
        return _classified(old_text, new_text, parts)


def parts_of(statements: Sequence[Compact], lines: Sequence[str], start: int) -> tuple[Part, ...]:
    """The :data:`Part` of each of *statements* in an excerpt that starts at line *start* of *lines*.

    *statements* are a module's (from its index), or those directly inside one statement of it.
    """
    found: list[Part] = []
    for number, node in enumerate(statements):
        first, last = node[0], node[1]
        line = lines[first - 1]
        margin = line[: len(line) - len(line.lstrip(" \t"))]
        alone = (
            (number == 0 or statements[number - 1][1] < first)
            and (number + 1 == len(statements) or statements[number + 1][0] > last)
            and (first < node[4] or len(margin) == node[5])
        )  # a decorator line starts with its "@"
        found.append((first - start + 1, last - start + 1, margin) if alone else None)
    return tuple(found)


@dataclass(frozen=True)
class Parts:
    """Statements of a file that an excerpt holds, with the statements inside each, read when asked for."""

    #: A module's statements (from its index), or those directly inside one statement of it.
    statements: Sequence[Compact]
    #: The file's lines.
    lines: Sequence[str]
    #: The excerpt's first line in the file.
    start: int

    @functools.cached_property
    def each(self) -> tuple[Part, ...]:
        """The :data:`Part` of each statement (:func:`parts_of`)."""
        return parts_of(self.statements, self.lines, self.start)

    def inside(self, number: int) -> Parts:
        """The statements directly inside statement *number*, placed in the same excerpt."""
        return Parts(self.statements[number][3], self.lines, self.start)


def _code_by_parts(
    old_text: str, new_text: str, before: _Excerpt, after: _Excerpt, parts: tuple[Parts, Parts]
) -> bool:
    """Whether *parts* tell that the excerpts are ``code`` apart (:func:`_parts_apart`), neither parsed whole.

    Excerpts that lose their first line's margin whole parse, as their files did (they are
    statements the indexes know); at the same margin, and with no made-up opener, their parts
    compare as their subtrees would. A part's lines are counted from the excerpt's first line, so
    that line must be the source's first: one of blanks alone (a module's) is dropped from the
    source.
    """
    return (
        not before.opened
        and not after.opened
        and before.source[:1] not in (" ", "\t")
        and after.source[:1] not in (" ", "\t")
        and all(text.partition("\n")[0].strip(" \t") for text in (old_text, new_text))
        and _margin(old_text) == _margin(new_text)
        and _parts_apart(before.source.split("\n"), after.source.split("\n"), *parts)
    )


def _parts_apart(old_lines: list[str], new_lines: list[str], old: Parts, new: Parts) -> bool:
    """Whether two excerpts that parse are ``code`` apart, as two of their parts in the same place show.

    *old_lines* and *new_lines* are the excerpts' sources (:attr:`_Excerpt.source`, dedented whole)
    by line. Each part is read from them and parsed alone, inside a made-up ``if 1:`` when it is
    indented there: its statements are the excerpt tree's, string values and all. Two such subtrees
    in the same place that differ (docstrings dropped, annotations left out) make the excerpts'
    trees differ. The first parts are compared only when neither is a docstring; parts with their
    lines not to themselves, or at other margins, never. Two statement lists whose lengths differ by
    two or more differ with their docstrings dropped.

    Two compound statements in the same place are first compared by the statements inside them
    (their bodies, one after another), by these same rules: statements inside that differ make them
    differ, and only those are parsed. When that does not tell, the two are parsed whole.
    """
    old_parts, new_parts = old.each, new.each
    if abs(len(old_parts) - len(new_parts)) >= 2:
        return True
    if len(old_parts) != len(new_parts):
        # One statement more: the lists differ unless one side's extra is a docstring that is
        # dropped (or the other's only statement is one, which leaves ``pass``): so when neither has
        # one, or both with more.
        docs = (
            _opens_with_docstring(old_lines, old_parts[0]),
            _opens_with_docstring(new_lines, new_parts[0]),
        )
        return docs == (False, False) or (
            docs == (True, True) and min(len(old_parts), len(new_parts)) >= 2
        )
    same = Same(docstrings="drop", annotations=False)
    # The first parts compare too when neither is a docstring (a class's first method, a function's
    # first line).
    neither = (
        _opens_with_docstring(old_lines, old_parts[0]) is False
        and _opens_with_docstring(new_lines, new_parts[0]) is False
    )
    for number in range(0 if neither else 1, len(old_parts)):
        first, second = old_parts[number], new_parts[number]
        if first is None or second is None or first[2] != second[2]:
            continue
        x, y = old_lines[first[0] - 1 : first[1]], new_lines[second[0] - 1 : second[1]]
        if x == y:
            continue
        if (
            old.statements[number][3]
            and new.statements[number][3]
            and _parts_apart(old_lines, new_lines, old.inside(number), new.inside(number))
        ):
            return True
        one, other = _part_statements(x), _part_statements(y)
        try:
            if one is not None and other is not None and not same.values(one, other):
                return True
        except RecursionError:
            continue
    return False


def _opens_with_docstring(lines: list[str], part: Part) -> bool | None:
    """Whether the first part is a docstring (a string statement); None when that cannot be told."""
    if part is None:
        return None
    text = lines[part[0] - 1 : part[1]]
    if not _STRING_START.match(text[0]):
        return False  # a statement that does not open with a string literal is none
    statements = _part_statements(text)
    return None if statements is None else docstring(statements) is not None


def _part_statements(lines: list[str]) -> list[ast.stmt] | None:
    """A part's statements, parsed from its lines as its excerpt's source has them (indented: in ``if 1:``)."""
    text = "\n".join(lines) + "\n"
    indented = text[:1] in (" ", "\t")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(("if 1:\n" + text) if indented else text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return tree.body[0].body if indented else tree.body  # type: ignore[attr-defined]  # the made-up if


def _classified(
    old_text: str, new_text: str, parts: tuple[Parts, Parts] | None = None
) -> ChangeClass:
    """:func:`classify` of two Python excerpts."""
    before, after = _Excerpt.read(old_text), _Excerpt.read(new_text)
    if parts is not None and _code_by_parts(old_text, new_text, before, after, parts):
        return ChangeClass.code
    if _READ_BY_PATTERN and before.statements != after.statements:
        # Not the same statements: code when either side parses (see _STATEMENTS); the shorter is
        # parsed first, and the other only if it does not. When neither parses, their tokens decide,
        # below.
        shorter, longer = sorted((before, after), key=lambda excerpt: len(excerpt.source))
        if shorter.tree is not None or longer.tree is not None:
            return ChangeClass.code
    if before.tree is not None and after.tree is not None:
        try:
            return _by_tree(before, after)
        except RecursionError:
            pass  # a tree too deep to walk: its tokens still compare
    elif before.tree is not None or after.tree is not None:
        return ChangeClass.code  # one side parses, the other no longer (or not yet) does
    if before.toks is None or after.toks is None:
        return ChangeClass.code  # it does not tokenize
    return _by_tokens(before, after)


def _margin(text: str) -> str:
    """The whitespace before the first line of *text* that is not blank."""
    body = text.lstrip()
    # the first character that is not whitespace, on the first line not blank
    at = len(text) - len(body)
    return text[text.rfind("\n", 0, at) + 1 : at] if body else ""


def _by_tree(before: _Excerpt, after: _Excerpt) -> ChangeClass:
    """The class from the two trees: each level of likeness implies the next (see :class:`~.astsame.Same`)."""
    assert before.tree is not None and after.tree is not None
    # Most changes are to code, and the loosest comparison, which stops at the first difference,
    # says so.
    if not Same(docstrings="drop", annotations=False).values(before.tree, after.tree):
        return ChangeClass.code
    if _READ_BY_PATTERN:  # a source that parses also tokenizes: its comments are found by a pattern
        same_comments = before.pattern_comments == after.pattern_comments
    elif before.toks is None or after.toks is None:
        return ChangeClass.code  # it does not tokenize (the comments cannot be told)
    else:
        same_comments = before.comments == after.comments
    if same_comments and Same(docstrings="clean").values(before.tree, after.tree):
        return ChangeClass.formatting
    if Same(docstrings="drop").values(before.tree, after.tree):
        return ChangeClass.comments
    return ChangeClass.annotations


def _by_tokens(before: _Excerpt, after: _Excerpt) -> ChangeClass:
    if before.blocks != after.blocks:
        return ChangeClass.code  # the indentation says which lines belong to which block
    if before.tokens(comments=True) == after.tokens(comments=True):
        return ChangeClass.formatting
    if before.tokens(comments=False) == after.tokens(comments=False):
        return ChangeClass.comments
    return ChangeClass.code


#: Tokens that are only layout: line breaks and indentation (compared as block structure instead).
_LAYOUT = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
#: What a clause that cannot start a module is parsed after, by its first word.
_OPENERS = {
    "elif": "if 0:\n    pass\n",
    "else": "if 0:\n    pass\n",
    "except": "try:\n    pass\n",
    "finally": "try:\n    pass\n",
}
_FIRST_WORD = re.compile(r"\s*(\w*)")
#: A line that opens with a string literal (a prefix, then a quote).
_STRING_START = re.compile(r"\s*[rRuUbBfF]{0,2}['\"]")
#: Whether strings and comments are found by :data:`_NOISE`: before Python 3.12 an f-string cannot
#: hold its own quote, nor a ``#`` in its fields, so in a source that parses the pattern finds what
#: the tokenizer does (in Python, and slow). From 3.12 f-strings nest, and the tokenizer, written in
#: C, is fast: it is used.
_READ_BY_PATTERN = sys.version_info < (3, 12)
#: A comment or a string literal (from its quote: a prefix reads as a word before it).
_NOISE = re.compile(
    "|".join(
        (
            r"#[^\n]*",
            r"'''(?:[^'\\]|\\.|'(?!''))*'''",
            r'"""(?:[^"\\]|\\.|"(?!""))*"""',
            r"'(?:[^'\\\n]|\\.)*'",
            r'"(?:[^"\\\n]|\\.)*"',
        )
    ),
    re.DOTALL,
)
#: Keywords that begin statements or their clauses and nothing else: no expression, annotation,
#: docstring or comment holds one, and each stands for one node, so two trees that are the same with
#: docstrings and annotations left out have them in the same order. Left out: ``elif`` (``else: if``
#: is the same tree), ``pass`` (what a body whose docstring is dropped holds), and all that an
#: expression may hold.
_STATEMENTS = re.compile(
    r"\b(?:return|raise|while|def|class|import|with|try|except|finally|del|break|continue"
    r"|global|nonlocal|assert)\b"
)


@dataclass(frozen=True)
class _Excerpt:
    """An excerpt's syntax tree, when it parses; its tokens and docstring positions, read when asked for."""

    #: The text as parsed: dedented, after a made-up opener for a clause that cannot start a module.
    source: str
    #: Whether :attr:`source` has that opener (its lines are then not the excerpt's).
    opened: bool = False

    @classmethod
    def read(cls, text: str) -> _Excerpt:
        """The excerpt of *text* (parsed and tokenized when first asked for)."""
        source = dedent(text).strip("\n") + "\n"
        first = _FIRST_WORD.match(source)[1]  # type: ignore[index]  # the pattern matches any text
        if first in _OPENERS:
            return cls(_OPENERS[first] + source, opened=True)
        if first == "case":
            return cls("match 0:\n" + textwrap.indent(source, "    "), opened=True)
        return cls(source)

    @functools.cached_property
    def tree(self) -> ast.Module | None:
        """The syntax tree; None when the excerpt does not parse."""
        try:
            with warnings.catch_warnings():
                # an invalid escape in upstream code is not the book's to hear of
                warnings.simplefilter("ignore")
                return ast.parse(self.source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None

    @functools.cached_property
    def statements(self) -> list[str]:
        """The keywords of statements, in order, strings and comments aside (:data:`_STATEMENTS`)."""
        return _STATEMENTS.findall(_NOISE.sub(" ", self.source))

    @property
    def pattern_comments(self) -> list[str]:
        """The comments, trailing whitespace aside, found by :data:`_NOISE` (a source that parses, before 3.12)."""
        return [found.rstrip() for found in _NOISE.findall(self.source) if found.startswith("#")]

    @functools.cached_property
    def toks(self) -> tuple[tokenize.TokenInfo, ...] | None:
        """The tokens; None when the excerpt does not tokenize (read only when needed: tokenizing is slow)."""
        try:
            return tuple(tokenize.generate_tokens(io.StringIO(self.source).readline))
        except (tokenize.TokenError, SyntaxError):
            return None

    @functools.cached_property
    def docstrings(self) -> frozenset[tuple[int, int]]:
        """(row, col) of the first token of each docstring."""
        if self.tree is not None:
            return _docstrings_of(self.tree)
        return _docstrings_by_tokens(self.toks or ())

    @property
    def comments(self) -> list[str]:
        """The comments, trailing whitespace aside."""
        return [tok.string.rstrip() for tok in self.toks or () if tok.type == tokenize.COMMENT]

    @property
    def blocks(self) -> list[int]:
        """The indentation structure: the layout token types in order (widths aside)."""
        return [
            tok.type
            for tok in self.toks or ()
            if tok.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE)
        ]

    def tokens(self, *, comments: bool) -> list[tuple[int, str]]:
        """(type, text) of every token but layout; without comments and docstrings unless *comments*."""
        return [
            (tok.type, tok.string)
            for tok in self.toks or ()
            if tok.type not in _LAYOUT
            and (comments or (tok.type != tokenize.COMMENT and not self._indocstring(tok)))
        ]

    def _indocstring(self, tok: tokenize.TokenInfo) -> bool:
        return tok.type == tokenize.STRING and tok.start in self.docstrings


def _docstrings_of(tree: ast.Module) -> frozenset[tuple[int, int]]:
    """Where each docstring of *tree* starts (as tokenize counts: 1-based rows, 0-based columns)."""
    found: set[tuple[int, int]] = set()
    for node in ast.walk(tree):
        if isinstance(node, BODIES):
            doc = docstring(node.body)
            if doc is not None:
                found.add((doc.lineno, doc.col_offset))
    return frozenset(found)


def _docstrings_by_tokens(toks: tuple[tokenize.TokenInfo, ...]) -> frozenset[tuple[int, int]]:
    """Docstrings of an excerpt that does not parse: a string alone on its logical line, first in its block.

    First in its block: the excerpt's first statement, or the first after a line ending in ``:``.
    """
    found: set[tuple[int, int]] = set()
    previous, line_start, i = ":", True, 0
    significant = [tok for tok in toks if tok.type not in (tokenize.NL, tokenize.COMMENT)]
    while i < len(significant):
        tok = significant[i]
        if tok.type in (tokenize.INDENT, tokenize.DEDENT):
            i += 1
            continue
        if line_start and tok.type == tokenize.STRING and previous == ":":
            j = i
            while j < len(significant) and significant[j].type == tokenize.STRING:
                j += 1
            if j < len(significant) and significant[j].type in (
                tokenize.NEWLINE,
                tokenize.ENDMARKER,
            ):
                found.add(tok.start)
        line_start = tok.type == tokenize.NEWLINE
        if tok.type == tokenize.NEWLINE:
            previous = significant[i - 1].string if i else ""
        i += 1
    return frozenset(found)
