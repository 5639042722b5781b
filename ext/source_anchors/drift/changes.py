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

An excerpt is parsed after :func:`textwrap.dedent` (a clause such as ``elif …:`` or ``except …:``
inside a made-up ``if``/``try``); one that still does not parse is compared by its tokens alone,
so it can be ``formatting`` or ``comments`` (docstrings found by a token heuristic) but never
``annotations``. Non-Python text (``python=False``) is ``formatting`` when it is equal after
collapsing whitespace, else ``code``.

Trees are compared as :func:`ast.dump` shows them, walked side by side without copying either
(:class:`_Same`); two excerpts whose statement keywords differ (:data:`_STATEMENTS`) are ``code`` as
soon as one of them parses, so the other need not be parsed.
"""

from __future__ import annotations

import ast
import functools
import inspect
import io
import re
import sys
import textwrap
import tokenize
import warnings
from dataclasses import dataclass

from ..model.changeclass import ChangeClass
from ..reading.files import collector_paused


def classify(old: list[str] | str, new: list[str] | str, *, python: bool = True) -> ChangeClass:
    """The most significant class of change from the *old* lines to the *new* ones."""
    old_text = old if isinstance(old, str) else "\n".join(old)
    new_text = new if isinstance(new, str) else "\n".join(new)
    if not python:
        return ChangeClass.formatting if old_text.split() == new_text.split() else ChangeClass.code
    # The excerpts' trees hold no cycles and are freed when _classified returns, inside the block: the
    # collections their allocation would start in a build's large heap would only walk it (half the time).
    with collector_paused():
        return _classified(old_text, new_text)


def _classified(old_text: str, new_text: str) -> ChangeClass:
    """:func:`classify` of two Python excerpts."""
    before, after = _Excerpt.read(old_text), _Excerpt.read(new_text)
    if _READ_BY_PATTERN and before.statements != after.statements:
        # Not the same statements: code when either side parses (see _STATEMENTS); the shorter is parsed
        # first, and the other only if it does not. When neither parses, their tokens decide, below.
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


def _by_tree(before: _Excerpt, after: _Excerpt) -> ChangeClass:
    """The class from the two trees: each level of likeness implies the next (see :class:`_Same`)."""
    assert before.tree is not None and after.tree is not None
    # Most changes are to code, and the loosest comparison, which stops at the first difference, says so.
    if not _Same(docstrings="drop", annotations=False).values(before.tree, after.tree):
        return ChangeClass.code
    if _READ_BY_PATTERN:  # a source that parses also tokenizes: its comments are found by a pattern
        same_comments = before.pattern_comments == after.pattern_comments
    elif before.toks is None or after.toks is None:
        return ChangeClass.code  # it does not tokenize (the comments cannot be told)
    else:
        same_comments = before.comments == after.comments
    if same_comments and _Same(docstrings="clean").values(before.tree, after.tree):
        return ChangeClass.formatting
    if _Same(docstrings="drop").values(before.tree, after.tree):
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
_OPENERS = {"elif": "if 0:\n    pass\n", "else": "if 0:\n    pass\n", "except": "try:\n    pass\n",
            "finally": "try:\n    pass\n"}
_FIRST_WORD = re.compile(r"\s*(\w*)")
_BODIES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
#: Whether strings and comments are found by :data:`_NOISE`: before Python 3.12 an f-string cannot hold its
#: own quote, nor a ``#`` in its fields, so in a source that parses the pattern finds what the tokenizer does
#: (in Python, and slow). From 3.12 f-strings nest, and the tokenizer, written in C, is fast: it is used.
_READ_BY_PATTERN = sys.version_info < (3, 12)
#: A comment or a string literal (from its quote: a prefix reads as a word before it).
_NOISE = re.compile("|".join((
    r"#[^\n]*",
    r"'''(?:[^'\\]|\\.|'(?!''))*'''",
    r'"""(?:[^"\\]|\\.|"(?!""))*"""',
    r"'(?:[^'\\\n]|\\.)*'",
    r'"(?:[^"\\\n]|\\.)*"',
)), re.DOTALL)
#: Keywords that begin statements or their clauses and nothing else: no expression, annotation, docstring or
#: comment holds one, and each stands for one node, so two trees that are the same with docstrings and
#: annotations left out have them in the same order. Left out: ``elif`` (``else: if`` is the same tree),
#: ``pass`` (what a body whose docstring is dropped holds), and all that an expression may hold.
_STATEMENTS = re.compile(r"\b(?:return|raise|while|def|class|import|with|try|except|finally|del|break|continue"
                         r"|global|nonlocal|assert)\b")


@dataclass(frozen=True)
class _Excerpt:
    """An excerpt's syntax tree, when it parses; its tokens and docstring positions, read when asked for."""

    #: The text as parsed: dedented, after a made-up opener for a clause that cannot start a module.
    source: str

    @classmethod
    def read(cls, text: str) -> _Excerpt:
        """The excerpt of *text* (parsed and tokenized when first asked for)."""
        source = textwrap.dedent(text).strip("\n") + "\n"
        first = _FIRST_WORD.match(source)[1]  # type: ignore[index]  # the pattern matches any text
        if first in _OPENERS:
            source = _OPENERS[first] + source
        elif first == "case":
            source = "match 0:\n" + textwrap.indent(source, "    ")
        return cls(source)

    @functools.cached_property
    def tree(self) -> ast.Module | None:
        """The syntax tree; None when the excerpt does not parse."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an invalid escape in upstream code is not the book's to hear of
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
        return [tok.type for tok in self.toks or ()
                if tok.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE)]

    def tokens(self, *, comments: bool) -> list[tuple[int, str]]:
        """(type, text) of every token but layout; without comments and docstrings unless *comments*."""
        return [(tok.type, tok.string) for tok in self.toks or () if tok.type not in _LAYOUT
                and (comments or (tok.type != tokenize.COMMENT and not self._in_docstring(tok)))]

    def _in_docstring(self, tok: tokenize.TokenInfo) -> bool:
        return tok.type == tokenize.STRING and tok.start in self.docstrings


def _docstring(body: list[ast.stmt]) -> ast.Constant | None:
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        return first.value
    return None


def _docstrings_of(tree: ast.Module) -> frozenset[tuple[int, int]]:
    """Where each docstring of *tree* starts (as tokenize counts: 1-based rows, 0-based columns)."""
    found: set[tuple[int, int]] = set()
    for node in ast.walk(tree):
        if isinstance(node, _BODIES):
            doc = _docstring(node.body)
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
            if j < len(significant) and significant[j].type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                found.add(tok.start)
        line_start = tok.type == tokenize.NEWLINE
        if tok.type == tokenize.NEWLINE:
            previous = significant[i - 1].string if i else ""
        i += 1
    return frozenset(found)


#: Leaf values of one of these types have the same ``repr`` exactly when they are equal (not so for floats:
#: ``0.0 == -0.0``, ``nan != nan``).
_PLAIN = (str, int, bool, bytes, type(None))
#: What a body whose docstring is dropped and nothing else is left becomes.
_PASS = [ast.Pass()]


class _Same:
    """Whether two syntax trees have the same :func:`ast.dump` once normalised, walked side by side.

    Normalised: docstrings cleaned as :func:`inspect.cleandoc` cleans them (``clean``) or dropped
    (``drop``: a body left empty holds ``pass``); with ``annotations=False``, the annotations of
    arguments and annotated assignments and the returns of functions left out. Nothing is copied and
    the walk stops at the first difference. Fields are compared as ``ast.dump`` shows them: the same
    node types, lists of the same length, leaves with the same ``repr``; positions ignored.

    Each comparison implies the next: trees the same with docstrings cleaned are the same with them
    dropped (a docstring is a string statement first in a body, on both sides), and the same with
    annotations left out.
    """

    def __init__(self, *, docstrings: str, annotations: bool = True) -> None:
        self.drop = docstrings == "drop"
        self.annotations = annotations

    def values(self, x: object, y: object) -> bool:
        """Whether two field values (a node, a list or a leaf) dump the same."""
        if isinstance(x, ast.AST):
            return isinstance(y, ast.AST) and self._nodes(x, y)
        if isinstance(x, list):
            return isinstance(y, list) and self._lists(x, y, 0)
        if isinstance(y, (ast.AST, list)):
            return False
        if x is y:
            return True
        kind = type(x)
        return x == y if kind is type(y) and kind in _PLAIN else repr(x) == repr(y)

    def _lists(self, x: list[object], y: list[object], start: int) -> bool:
        return len(x) == len(y) and all(map(self.values, x[start:] if start else x, y[start:] if start else y))

    def _nodes(self, a: ast.AST, b: ast.AST) -> bool:
        kind = type(a)
        if kind is not type(b):
            return False
        for name in kind._fields:
            if not self.annotations and ((name == "annotation" and kind in _ANNOTATED)
                                         or (name == "returns" and kind in _FUNCTIONS)):
                continue  # left out on both sides
            # A parsed tree holds every field; ast.dump leaves out a None one on both sides alike.
            x, y = getattr(a, name, None), getattr(b, name, None)
            if name == "body" and kind in _BODIES:
                if not self._bodies(x, y):  # type: ignore[arg-type]  # a body is a list of statements
                    return False
            elif not self.values(x, y):
                return False
        return True

    def _bodies(self, x: list[ast.stmt], y: list[ast.stmt]) -> bool:
        """Two bodies, each without its docstring (``drop``) or with it cleaned."""
        first, second = _docstring(x), _docstring(y)
        if self.drop:
            return self.values((x[1:] or _PASS) if first is not None else x,
                               (y[1:] or _PASS) if second is not None else y)
        if first is None or second is None:
            # A docstring on one side only: that side's first statement is a string expression and the
            # other's is something else, so they differ (unless neither has one).
            return first is second and self._lists(x, y, 0)  # type: ignore[arg-type]  # statements
        return (len(x) == len(y) and inspect.cleandoc(str(first.value)) == inspect.cleandoc(str(second.value))
                and self.values(getattr(first, "kind", None), getattr(second, "kind", None))
                and self._lists(x, y, 1))  # type: ignore[arg-type]  # statements


_ANNOTATED = (ast.arg, ast.AnnAssign)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
