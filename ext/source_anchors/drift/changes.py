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
"""

from __future__ import annotations

import ast
import inspect
import io
import re
import textwrap
import tokenize
import warnings
from dataclasses import dataclass

from ..model.changeclass import ChangeClass


def classify(old: list[str] | str, new: list[str] | str, *, python: bool = True) -> ChangeClass:
    """The most significant class of change from the *old* lines to the *new* ones."""
    old_text = old if isinstance(old, str) else "\n".join(old)
    new_text = new if isinstance(new, str) else "\n".join(new)
    if not python:
        return ChangeClass.formatting if old_text.split() == new_text.split() else ChangeClass.code
    before, after = _Excerpt.read(old_text), _Excerpt.read(new_text)
    if before is None or after is None:
        return ChangeClass.code  # it does not tokenize
    if before.tree is not None and after.tree is not None:
        try:
            return _by_tree(before, after)
        except RecursionError:
            return _by_tokens(before, after)  # a tree too deep to copy and walk: its tokens still compare
    if before.tree is not None or after.tree is not None:
        return ChangeClass.code  # one side parses, the other no longer (or not yet) does
    return _by_tokens(before, after)


def _by_tree(before: _Excerpt, after: _Excerpt) -> ChangeClass:
    if before.dump(docstrings="clean") == after.dump(docstrings="clean") and before.comments == after.comments:
        return ChangeClass.formatting
    if before.dump(docstrings="drop") == after.dump(docstrings="drop"):
        return ChangeClass.comments
    if before.dump(docstrings="drop", annotations=False) == after.dump(docstrings="drop", annotations=False):
        return ChangeClass.annotations
    return ChangeClass.code


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


@dataclass(frozen=True)
class _Excerpt:
    """An excerpt's tokens and, when it parses, its syntax tree and docstring positions."""

    toks: tuple[tokenize.TokenInfo, ...]
    tree: ast.Module | None
    #: (row, col) of the first token of each docstring.
    docstrings: frozenset[tuple[int, int]]

    @classmethod
    def read(cls, text: str) -> _Excerpt | None:
        """The excerpt of *text*; None when it does not tokenize."""
        source = textwrap.dedent(text).strip("\n") + "\n"
        first = _FIRST_WORD.match(source)[1]  # type: ignore[index]  # the pattern matches any text
        if first in _OPENERS:
            source = _OPENERS[first] + source
        elif first == "case":
            source = "match 0:\n" + textwrap.indent(source, "    ")
        try:
            toks = tuple(tokenize.generate_tokens(io.StringIO(source).readline))
        except (tokenize.TokenError, SyntaxError):
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an invalid escape in upstream code is not the book's to hear of
                tree: ast.Module | None = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            tree = None
        return cls(toks, tree, _docstrings_of(tree) if tree is not None else _docstrings_by_tokens(toks))

    @property
    def comments(self) -> list[str]:
        """The comments, trailing whitespace aside."""
        return [tok.string.rstrip() for tok in self.toks if tok.type == tokenize.COMMENT]

    @property
    def blocks(self) -> list[int]:
        """The indentation structure: the layout token types in order (widths aside)."""
        return [tok.type for tok in self.toks if tok.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE)]

    def tokens(self, *, comments: bool) -> list[tuple[int, str]]:
        """(type, text) of every token but layout; without comments and docstrings unless *comments*."""
        return [(tok.type, tok.string) for tok in self.toks if tok.type not in _LAYOUT
                and (comments or (tok.type != tokenize.COMMENT and not self._in_docstring(tok)))]

    def _in_docstring(self, tok: tokenize.TokenInfo) -> bool:
        return tok.type == tokenize.STRING and tok.start in self.docstrings

    def dump(self, *, docstrings: str, annotations: bool = True) -> str:
        """``ast.dump`` of the tree: docstrings cleaned (``clean``) or dropped (``drop``), annotations kept or not."""
        assert self.tree is not None
        tree = _Normalise(docstrings=docstrings, annotations=annotations).visit(_copy(self.tree))
        return ast.dump(tree)


def _copy(tree: ast.Module) -> ast.Module:
    """A copy to edit (the excerpt keeps its own tree)."""
    import copy

    return copy.deepcopy(tree)


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


class _Normalise(ast.NodeTransformer):
    """Cleans or drops docstrings, and drops annotations, so that only the rest is compared."""

    def __init__(self, *, docstrings: str, annotations: bool) -> None:
        self.docstrings = docstrings
        self.annotations = annotations

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, _BODIES):
            doc = _docstring(node.body)
            if doc is not None and self.docstrings == "drop":
                node.body = node.body[1:] or [ast.Pass()]
            elif doc is not None:
                doc.value = inspect.cleandoc(str(doc.value))  # a docstring holds a str
        if not self.annotations:
            if isinstance(node, ast.arg):
                node.annotation = None
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                node.returns = None
            elif isinstance(node, ast.AnnAssign):
                node.annotation = ast.Constant(value=None)
        return super().generic_visit(node)
