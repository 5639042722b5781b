"""Whether a module may change ``__all__`` beyond the statements read as setting it (pure ``ast``).

:func:`.modindex.build` reads a static ``__all__``; these say whether that reading is the whole of
it.
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Sequence


def mentions(statements: list[ast.stmt], lines: Sequence[str]) -> int:
    """How often the lines of *statements* spell ``__all__``."""
    return sum(
        "".join(lines[node.lineno - 1 : node.end_lineno or node.lineno]).count("__all__")
        for node in statements
    )


#: Methods of a list that change it, and builtins that only read what they are given.
_MUTATORS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "remove",
        "pop",
        "clear",
        "__iadd__",
        "__setitem__",
        "__delitem__",
    }
)
_READERS = frozenset(
    {
        "list",
        "tuple",
        "set",
        "frozenset",
        "sorted",
        "len",
        "iter",
        "reversed",
        "enumerate",
        "print",
        "repr",
        "str",
    }
)


def other_uses_of_all(tree: ast.Module, read: list[ast.stmt], spelled: list[int]) -> bool:
    """Whether the module may change ``__all__`` outside the statements read as setting it.

    A change is: a method of ``__all__`` that changes a list, an item assigned or deleted, the name
    bound in the module's own scope, declared ``global`` or ``nonlocal``, or passed to a call (other
    than a builtin that only reads it). Reading it (``return __all__``, ``x in __all__``) is not. A
    node whose lines hold none of *spelled* (the sorted lines that spell the name) is not looked
    into.
    """
    skip = {id(node) for node in read}
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]  # (node, inside a def, lambda or class)
    while stack:
        node, nested = stack.pop()
        if id(node) in skip:
            continue
        if hasattr(node, "end_lineno"):
            at = bisect_left(spelled, node.lineno)  # type: ignore[attr-defined]
            if at == len(spelled) or spelled[at] > (node.end_lineno or node.lineno):  # type: ignore[attr-defined]
                continue
        kind = node.__class__
        if kind is ast.Attribute or kind is ast.Subscript:
            value = node.value  # type: ignore[attr-defined]
            if (
                value.__class__ is ast.Name
                and value.id == "__all__"
                and (
                    (kind is ast.Attribute and node.attr in _MUTATORS)  # type: ignore[attr-defined]
                    or (kind is ast.Subscript and node.ctx.__class__ is not ast.Load)  # type: ignore[attr-defined]
                )
            ):
                return True
        elif kind is ast.Call:
            func = node.func  # type: ignore[attr-defined]
            reader = func.__class__ is ast.Name and func.id in _READERS
            arguments = [*node.args, *(k.value for k in node.keywords)]  # type: ignore[attr-defined]
            if not reader and any(a.__class__ is ast.Name and a.id == "__all__" for a in arguments):
                return True
        elif kind is ast.Name:
            if node.id == "__all__" and not nested and node.ctx.__class__ is not ast.Load:  # type: ignore[attr-defined]
                return True
        elif (kind is ast.Global or kind is ast.Nonlocal) and "__all__" in node.names:  # type: ignore[attr-defined]
            return True
        inner = nested or kind in _SCOPES
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return False


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


class AllNames:
    """``__all__`` as a module's own statements set it: its names, whether all of them are known."""

    def __init__(self) -> None:
        self.exports: list[str] | None = None
        #: Whether a statement changes ``__all__`` in a way not read statically.
        self.dynamic = False
        #: The module-level statements read as setting ``__all__``.
        self.statements: list[ast.stmt] = []

    def assign(self, node: ast.Assign | ast.AnnAssign | ast.AugAssign, *, extend: bool) -> None:
        """``__all__ = [...]`` (or ``+=`` with *extend*); a declaration alone sets nothing."""
        self.statements.append(node)
        if node.value is None:  # '__all__: list[str]', a declaration
            return
        if extend:
            self.extend(node.value)
        else:
            self.exports = self._names(node.value)

    def call(self, node: ast.Expr) -> None:
        """``__all__.extend([...])`` / ``__all__.append("x")`` (any other method: not read statically)."""
        value = node.value
        if not (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and isinstance(value.func.value, ast.Name)
            and value.func.value.id == "__all__"
        ):
            return
        self.statements.append(node)
        if value.func.attr == "extend" and len(value.args) == 1:
            self.extend(value.args[0])
        elif value.func.attr == "append" and len(value.args) == 1:
            self.extend(ast.List(elts=[value.args[0]]))
        else:
            self.dynamic = True
            self.exports = self.exports or []

    def extend(self, value: ast.expr) -> None:
        """The names of *value* added to ``__all__`` (a value not read statically: not all known)."""
        self.exports = [*(self.exports or []), *self._names(value)]

    def _names(self, value: ast.expr) -> list[str]:
        names = _strings(value)
        # set from something not read statically: what it holds is known only in part
        if names is None:
            self.dynamic = True
        return names or []


def _strings(value: ast.expr | None) -> list[str] | None:
    if isinstance(value, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
    ):
        return [
            e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        left, right = _strings(value.left), _strings(value.right)
        return None if left is None or right is None else left + right
    return None
