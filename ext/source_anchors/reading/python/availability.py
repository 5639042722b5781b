"""Branches that run only when a module can be imported, found in one parse (pure).

``try: import rich`` / ``except ImportError: rich = None``, then ``if rich is None:`` / ``else:``:
which branch runs depends on the environment the code runs in, not on the code. The index records
each such branch as an :class:`Optional` (its lines, the top-level modules it depends on, whether it
runs when they are found) and decides nothing: anchors into pinned upstream code keep the rules for
branches (``first-branch``); API links decide them for the docs' build environment
(:class:`source_anchors.reading.python.walker.Walker`, rule ``import-availability``).

Recognised: a ``try`` whose body imports absolute modules and whose handler catches ``ImportError``
or ``ModuleNotFoundError`` (the body from its first import and the ``else`` run when the modules are
found, the handler when they are not); an ``if`` on a name such a ``try`` binds in the module body
to an import or a constant and its handler to a constant (``if rich is None:``, ``if not
HAS_RICH:``, ``if rich:``); an ``if`` on ``find_spec("name")`` of one top-level name
(``importlib.util.find_spec``, ``is None``, ``is not None``). A relative import, a test of two
modules or any other test records nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import NamedTuple

from .statements import node_span

__all__ = ["Branches", "Optional", "Proxies", "of_if", "of_try"]

_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})
#: What a name is bound to in one environment: an imported object (truthy, not None), or a constant.
_OBJECT = object()


class Optional(NamedTuple):
    """Lines that run only when *modules* are found (*found* True), or only when one is not (False)."""

    start: int
    end: int
    #: The top-level names of the modules the branch depends on.
    modules: tuple[str, ...]
    found: bool
    #: The test as written: ``import rich``, ``except ImportError``, ``rich is None``.
    test: str
    #: First lines of the branch's own simple statements, which run whenever the branch does (not
    #: those nested in another ``if``, ``try`` or loop); empty when the branch itself is nested in
    #: one.
    direct: tuple[int, ...] = ()


#: Names a ``try`` binds one way when its modules are found and another when not: name -> (modules,
#: value when found, value when not).
Proxies = dict[str, tuple[tuple[str, ...], object, object]]


class Branches:
    """The import-availability branches of one module, in the order its statements are read."""

    def __init__(self) -> None:
        self.found: list[Optional] = []
        #: Module-level names a ``try: import`` binds one way and its ``except ImportError``
        #: another.
        self.proxies: Proxies = {}

    def read(self, node: ast.If | ast.Try, *, module_level: bool, nested: bool) -> None:
        """Record the branches of *node* (a ``try`` in the module body also gives its names).

        *nested*: *node* is itself under a condition, so what its branches hold may not run even
        when the branch does (their :attr:`Optional.direct` lines are dropped).
        """
        if isinstance(node, ast.If):
            found = of_if(node, self.proxies)
        else:
            found = of_try(node, self.proxies if module_level else None)
        self.found += [branch._replace(direct=()) for branch in found] if nested else found


_COMPOUND = (
    ast.If,
    ast.Try,
    ast.TryStar,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Match,
)


def _span(body: Sequence[ast.stmt]) -> tuple[int, int, tuple[int, ...]]:
    """(first line, last line, first lines of its simple statements) of *body*."""
    direct = tuple(node_span(node)[0] for node in body if not isinstance(node, _COMPOUND))
    return node_span(body[0])[0], node_span(body[-1])[1], direct


def _branch(body: Sequence[ast.stmt], modules: tuple[str, ...], found: bool, test: str) -> Optional:
    start, end, direct = _span(body)
    return Optional(start, end, modules, found, test, direct)


def _catches(handler: ast.ExceptHandler) -> bool:
    kinds = (
        handler.type.elts
        if isinstance(handler.type, ast.Tuple)
        else [handler.type]
        if handler.type
        else []
    )
    return any(isinstance(k, ast.Name) and k.id in _ERRORS for k in kinds)


def _imports(body: Sequence[ast.stmt]) -> tuple[int, tuple[str, ...]] | None:
    """(index of the first import, top-level names imported) of the body's own statements, or None.

    None when the body imports nothing or imports relatively (a module of its own package).
    """
    first, names = -1, []
    for n, node in enumerate(body):
        if isinstance(node, ast.Import):
            names += [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level or not node.module:
                return None
            names.append(node.module.split(".")[0])
        else:
            continue
        first = n if first < 0 else first
    return (first, tuple(dict.fromkeys(names))) if names else None


def _values(body: Sequence[ast.stmt]) -> dict[str, object]:
    """The names *body* binds to an import or a constant, with that value (another binding: left out)."""
    values: dict[str, object] = {}
    for node in body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                values[alias.asname or alias.name.split(".")[0]] = _OBJECT
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                values[alias.asname or alias.name] = _OBJECT
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            if isinstance(node.value, ast.Constant):
                values[node.targets[0].id] = node.value.value
            else:
                values.pop(node.targets[0].id, None)
    return values


def of_try(node: ast.Try, proxies: Proxies | None) -> list[Optional]:
    """The branches of *node* that depend on whether its imports are found; *proxies* gets its names."""
    handlers = [h for h in node.handlers if _catches(h) and h.body]
    imported = _imports(node.body)
    if not handlers or imported is None:
        return []
    first, modules = imported
    test = "import " + ", ".join(modules)
    found = [_branch(node.body[first:], modules, True, test)]
    if node.orelse:
        found.append(_branch(node.orelse, modules, True, test))
    caught = "except " + "/".join(ast.unparse(h.type) for h in handlers if h.type)
    found += [_branch(h.body, modules, False, caught) for h in handlers]
    if proxies is not None and len(handlers) == 1:
        present, absent = _values([*node.body, *node.orelse]), _values(handlers[0].body)
        for name in present.keys() & absent.keys():
            proxies[name] = (modules, present[name], absent[name])
    return found


def of_if(node: ast.If, proxies: Proxies) -> list[Optional]:
    """The branches of *node* when its test says whether a module is found (see the module's docstring)."""
    tested = _tested(node.test, proxies)
    if tested is None:
        return []
    modules, when_found, when_not = tested
    if when_found is None or when_not is None or when_found == when_not:
        return []
    test = ast.unparse(node.test)
    found = [_branch(node.body, modules, when_found, test)]
    if node.orelse:
        found.append(_branch(node.orelse, modules, not when_found, f"not ({test})"))
    return found


def _tested(
    test: ast.expr, proxies: Proxies
) -> tuple[tuple[str, ...], bool | None, bool | None] | None:
    """(modules, the test's value when they are found, when not), or None when it tests no one module."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _tested(test.operand, proxies)
        return None if inner is None else (inner[0], _not(inner[1]), _not(inner[2]))
    compare = None
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Is, ast.IsNot))
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        compare, test = test.ops[0], test.left
    operand = _operand(test, proxies)
    if operand is None:
        return None
    modules, present, absent = operand
    if compare is None:
        return modules, bool(present), bool(absent)
    negate = isinstance(compare, ast.IsNot)
    return modules, (present is None) != negate, (absent is None) != negate


def _operand(test: ast.expr, proxies: Proxies) -> tuple[tuple[str, ...], object, object] | None:
    """(modules, value when found, value when not) of a proxy name or a ``find_spec("name")`` call."""
    if isinstance(test, ast.Name):
        return proxies.get(test.id)
    if isinstance(test, ast.Call) and len(test.args) == 1 and not test.keywords:
        func, arg = test.func, test.args[0]
        name = (
            func.attr
            if isinstance(func, ast.Attribute)
            else func.id
            if isinstance(func, ast.Name)
            else ""
        )
        if (
            name == "find_spec"
            and isinstance(arg, ast.Constant)
            and isinstance(arg.value, str)
            and arg.value.isidentifier()
        ):  # a dotted name would import its parent: not decided
            return (arg.value,), _OBJECT, None
    return None


def _not(value: bool | None) -> bool | None:
    return None if value is None else not value
