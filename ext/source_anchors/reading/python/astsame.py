"""Whether two syntax trees are the same as :func:`ast.dump` shows them, normalised (pure; :mod:`.changes`).

Docstrings cleaned or dropped, annotations left out when asked; positions ignored. Nothing is copied
and the walk stops at the first difference.
"""

from __future__ import annotations

import ast
import inspect

#: Statements whose body's first string statement is a docstring.
BODIES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def docstring(body: list[ast.stmt]) -> ast.Constant | None:
    """The docstring of a body (its first statement, a string), if it has one."""
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first.value
    return None


#: Leaf values of one of these types have the same ``repr`` exactly when they are equal (not so for
#: floats: ``0.0 == -0.0``, ``nan != nan``).
_PLAIN = (str, int, bool, bytes, type(None))
#: What a body whose docstring is dropped and nothing else is left becomes.
_PASS = [ast.Pass()]


class Same:
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
        return len(x) == len(y) and all(
            map(self.values, x[start:] if start else x, y[start:] if start else y)
        )

    def _nodes(self, a: ast.AST, b: ast.AST) -> bool:
        kind = type(a)
        if kind is not type(b):
            return False
        for name in kind._fields:
            if not self.annotations and (
                (name == "annotation" and kind in _ANNOTATED)
                or (name == "returns" and kind in _FUNCTIONS)
            ):
                continue  # left out on both sides
            # A parsed tree holds every field; ast.dump leaves out a None one on both sides alike.
            x, y = getattr(a, name, None), getattr(b, name, None)
            if name == "body" and kind in BODIES:
                if not self._bodies(x, y):  # type: ignore[arg-type]  # a body is a list of statements
                    return False
            elif not self.values(x, y):
                return False
        return True

    def _bodies(self, x: list[ast.stmt], y: list[ast.stmt]) -> bool:
        """Two bodies, each without its docstring (``drop``) or with it cleaned."""
        first, second = docstring(x), docstring(y)
        if self.drop:
            return self.values(
                (x[1:] or _PASS) if first is not None else x,
                (y[1:] or _PASS) if second is not None else y,
            )
        if first is None or second is None:
            # A docstring on one side only: that side's first statement is a string expression and
            # the other's is something else, so they differ (unless neither has one).
            return first is second and self._lists(x, y, 0)  # type: ignore[arg-type]  # statements
        return (
            len(x) == len(y)
            and inspect.cleandoc(str(first.value)) == inspect.cleandoc(str(second.value))
            and self.values(getattr(first, "kind", None), getattr(second, "kind", None))
            and self._lists(x, y, 1)  # type: ignore[arg-type]  # statements
        )


_ANNOTATED = (ast.arg, ast.AnnAssign)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
