"""Static conditions: ``sys.version_info``, ``sys.hexversion``, ``sys.platform`` and ``TYPE_CHECKING`` tests, decided.

Type checkers (mypy, pyright) decide these tests for one Python version and platform, and so
does the resolver, for the version and platform of the ``source_anchors_python`` setting: a
branch that cannot run binds nothing (its bindings are kept, flagged :data:`~.rules.DEAD`, and
only listed), a branch that always runs binds like an unconditional statement. ``TYPE_CHECKING``
is false at run time: ``if not TYPE_CHECKING:`` and the ``else`` of ``if TYPE_CHECKING:`` always
run. Any other test cannot be decided statically, and its branches keep the rules for branches.

The version is compared as Python compares tuples: ``sys.version_info`` is ``(major, minor, micro,
releaselevel, serial)``, so against ``(3, 11)`` it is greater for every 3.11 release; a comparison
that depends on the micro release is not decided. ``sys.hexversion`` is ``major << 24 | minor << 16
| micro << 8 | level << 4 | serial``: against ``0x30D00A2`` (3.13.0a2) it is smaller for every 3.11
release, and a number inside the known minor's range is not decided. Names imported from ``sys``
(``from sys import hexversion``) are read as ``sys.hexversion``. (Pure.)
"""

from __future__ import annotations

import ast
import copy
import operator
from collections.abc import Callable
from typing import Any

from ...model.python import DEFAULT_PLATFORM, Python, parse_python, running
from .rules import COND, DEAD, TYPING

__all__ = [
    "DEFAULT_PLATFORM",
    "Python",
    "branches",
    "decide",
    "parse_python",
    "running",
    "typing_test",
    "wrapper",
]

_OPS: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_FLIP = {
    ast.Lt: ast.Gt(),
    ast.LtE: ast.GtE(),
    ast.Gt: ast.Lt(),
    ast.GtE: ast.LtE(),
    ast.Eq: ast.Eq(),
    ast.NotEq: ast.NotEq(),
}


def typing_test(test: ast.expr) -> bool | None:
    """True for ``TYPE_CHECKING``, False for ``not TYPE_CHECKING``, None for any other test."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = typing_test(test.operand)
        return None if inner is None else not inner
    name = (
        test.id
        if isinstance(test, ast.Name)
        else test.attr
        if isinstance(test, ast.Attribute)
        else ""
    )
    return True if name == "TYPE_CHECKING" else None


def branches(
    node: ast.If, flags: int, python: Python, from_sys: dict[str, str] | None = None
) -> tuple[int, int, tuple[int, int, str] | None]:
    """(flags of the ``if`` body, flags of its ``else``, the decided condition: lines and text, or None).

    *from_sys*: the module's names imported from ``sys`` before *node* (local name -> attribute).
    """
    typing = typing_test(node.test)
    if typing is not None:
        runs = node.orelse if typing else node.body
        note = None
        if runs:  # the branch that always runs: the text says why
            which = "the else branch" if typing else "the branch"
            note = (
                runs[0].lineno,
                _end(runs),
                f"{ast.unparse(node.test)} is {'false' if typing else 'true'} "
                f"at run time: {which} always runs",
            )
        body = flags | COND | TYPING if typing else flags
        return body, flags if typing else flags | COND | TYPING, note
    used: set[str] = set()
    value = decide(_qualified(node.test, from_sys) if from_sys else node.test, python, used)
    if value is None:
        return flags | COND, flags | COND, None
    where = " on ".join(
        x
        for x in (
            f"Python {python.version[0]}.{python.version[1]}" if "version" in used else "",
            f"sys.platform {python.platform!r}" if "platform" in used else "",
        )
        if x
    )
    note = (
        node.lineno,
        node.end_lineno or node.lineno,
        f"{ast.unparse(node.test)} is {'true' if value else 'false'} for {where}",
    )
    return (flags, flags | DEAD, note) if value else (flags | DEAD, flags, note)


def decide(test: ast.expr, python: Python, used: set[str]) -> bool | None:
    """The value of *test* for *python*, or None when it cannot be decided statically; *used* gets the facts read."""
    if isinstance(test, ast.BoolOp):
        values = [decide(v, python, used) for v in test.values]
        # the value that decides an 'or' (True) or an 'and' (False)
        stop = isinstance(test.op, ast.Or)
        if stop in values:
            return stop
        return None if None in values else not stop
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = decide(test.operand, python, used)
        return None if inner is None else not inner
    if (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Attribute)
        and test.func.attr == "startswith"
        and _is_sys(test.func.value, "platform")
        and len(test.args) == 1
        and not test.keywords
    ):
        prefixes = _strings(test.args[0])
        if prefixes is None:
            return None
        used.add("platform")
        return python.platform.startswith(tuple(prefixes))
    if not isinstance(test, ast.Compare):
        return None
    if len(test.ops) > 1:  # a < b < c: each comparison, all true
        pairs = zip([test.left, *test.comparators], test.ops, test.comparators, strict=False)
        return decide(
            ast.BoolOp(ast.And(), [ast.Compare(a, [o], [b]) for a, o, b in pairs]), python, used
        )
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if _is_sys(right, "platform") or _version_part(right) is not None:
        if type(op) not in _FLIP:
            return None
        left, op, right = right, _FLIP[type(op)], left
    if _is_sys(right, "hexversion") and type(op) in _FLIP:
        left, op, right = right, _FLIP[type(op)], left
    if _is_sys(left, "platform"):
        return _platform(op, right, python, used)
    if _is_sys(left, "hexversion"):
        return _hexversion(op, right, python, used)
    part = _version_part(left)
    if part is None:
        return None
    return _version(part, op, right, python, used)


def _platform(op: ast.cmpop, right: ast.expr, python: Python, used: set[str]) -> bool | None:
    if isinstance(op, (ast.In, ast.NotIn)):
        values = _strings(right) if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else None
        if values is None:
            return None
        used.add("platform")
        return (python.platform in values) == isinstance(op, ast.In)
    if (
        isinstance(op, (ast.Eq, ast.NotEq))
        and isinstance(right, ast.Constant)
        and isinstance(right.value, str)
    ):
        used.add("platform")
        return (python.platform == right.value) == isinstance(op, ast.Eq)
    return None


def _version(
    part: tuple[int, int | None], op: ast.cmpop, right: ast.expr, python: Python, used: set[str]
) -> bool | None:
    """``sys.version_info[lo:hi]`` (*part*; hi None: to the end) compared with a tuple, or an item with an int."""
    compare = _OPS.get(type(op))
    if compare is None:
        return None
    lo, hi = part
    known = python.version
    if hi == -1:  # an item: version_info[0], version_info.minor
        if lo > 1 or not (isinstance(right, ast.Constant) and type(right.value) is int):
            return None
        used.add("version")
        return compare(known[lo], right.value)
    wanted = _constants(right)
    if wanted is None or lo > 1 or not all(type(x) is int for x in wanted[:2]):
        return None
    # The real tuple is (major, minor, micro, level, serial)[lo:hi]: beyond the minor it is not
    # known, but whether it is longer than the tuple it is compared with is (a longer tuple with the
    # same items is greater).
    length = 5 - lo if hi is None else max(0, min(hi, 5) - lo)
    prefix = known[lo : min(lo + length, 2)]
    shown = wanted[: len(prefix)]
    if prefix != shown:
        used.add("version")
        return compare(prefix, shown)
    if len(wanted) > len(prefix):
        return None  # equal so far; the micro release would decide
    used.add("version")
    return compare(length, len(wanted)) if length != len(wanted) else compare(0, 0)


def _hexversion(op: ast.cmpop, right: ast.expr, python: Python, used: set[str]) -> bool | None:
    """``sys.hexversion`` compared with an int: decided when the int is outside the known minor's range."""
    compare = _OPS.get(type(op))
    if compare is None or not (isinstance(right, ast.Constant) and type(right.value) is int):
        return None
    major, minor = python.version
    low = major << 24 | minor << 16 | 0xA << 4  # x.y.0a0: the first release of the minor
    high = major << 24 | minor << 16 | 0xFFFF  # x.y.255 final, serial 15: past the last one
    at_low, at_high = compare(low, right.value), compare(high, right.value)
    if at_low != at_high:
        return None  # the micro release, level or serial would decide
    if low <= right.value <= high and isinstance(op, (ast.Eq, ast.NotEq)):
        return None  # equal to one release of the minor: not known
    used.add("version")
    return at_low


def _qualified(test: ast.expr, from_sys: dict[str, str]) -> ast.expr:
    """*test* with each name imported from ``sys`` written ``sys.<name>``."""

    class Qualify(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            attr = from_sys.get(node.id)
            return ast.Attribute(ast.Name("sys", ast.Load()), attr, ast.Load()) if attr else node

    return Qualify().visit(copy.deepcopy(test))  # type: ignore[no-any-return]


def _version_part(node: ast.expr) -> tuple[int, int | None] | None:
    """(lo, hi) for ``sys.version_info[lo:hi]`` (hi None: to the end; -1: the one item *lo*), else None."""
    if _is_sys(node, "version_info"):
        return 0, None
    if (
        isinstance(node, ast.Attribute)
        and _is_sys(node.value, "version_info")
        and node.attr in ("major", "minor")
    ):
        return (0 if node.attr == "major" else 1), -1
    if not (isinstance(node, ast.Subscript) and _is_sys(node.value, "version_info")):
        return None
    index = node.slice
    if isinstance(index, ast.Constant) and type(index.value) is int and index.value >= 0:
        return index.value, -1
    if isinstance(index, ast.Slice) and index.step is None:
        bounds = [
            b.value
            if isinstance(b, ast.Constant) and type(b.value) is int and b.value >= 0
            else None
            for b in (index.lower, index.upper)
        ]
        if (index.lower is None or bounds[0] is not None) and (
            index.upper is None or bounds[1] is not None
        ):
            return bounds[0] or 0, bounds[1]
    return None


def _is_sys(node: ast.expr, attr: str) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == attr
        and isinstance(node.value, ast.Name)
        and node.value.id == "sys"
    )


def _constants(node: ast.expr) -> tuple[object, ...] | None:
    """The items of a tuple of constants (``(3, 8)``, ``(3, 9, 0, "final")``), else None."""
    if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) for e in node.elts):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return None


def _strings(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def _end(body: list[ast.stmt]) -> int:
    return body[-1].end_lineno or body[-1].lineno


def wrapper(node: ast.stmt, previous: ast.stmt | None, wrapped: str | None) -> str | None:
    """The name that *node* rewraps by ``name = f(name, …)`` right after ``def name`` (or after another such line).

    *wrapped* is the name the previous statement rewrapped, if it did. The wrapped object is still
    the ``def``'s function: it is the definition, and the line that wraps it is one more binding.
    """
    if not (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and node.value.args
    ):
        return None
    name, first = node.targets[0].id, node.value.args[0]
    if not (isinstance(first, ast.Name) and first.id == name):
        return None
    before = (
        previous.name if isinstance(previous, (ast.FunctionDef, ast.AsyncFunctionDef)) else wrapped
    )
    return name if before == name else None
