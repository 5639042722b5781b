"""An independent oracle for API source links: Python's own objects for *where*, its own ``ast`` for *lines*.

For a documented object (``module``, ``fullname``) of a package already imported (autodoc imported
it), the oracle asks the running interpreter which module and class define it: ``__module__`` and
``__qualname__`` of classes and functions (through ``functools.wraps``), and the class whose
``vars()`` holds a member, walking ``__mro__`` (Python's C3, not the resolver's). It then parses
that module's file with ``ast`` (its own walk, not the resolver's index) and takes the defining
statement by the documented rules (``docs/binding-rules.md``): decorators included, the
implementation over ``@overload`` stubs, a property's getter with its setter and deleter, the last
unconditional binding, a class attribute over ``self.x`` in ``__init__``.

Used by the API link tests and by ``bench/api_eval.py``; it imports the documented package (as
autodoc does), which is why the link resolver must not be written this way.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
from pathlib import Path
from typing import Any

__all__ = ["oracle"]

_ACCESSORS = ("setter", "deleter", "getter")


def _runtime(module: str, fullname: str) -> tuple[Any, Any, str] | None:
    """(parent object, the object, its last name) by attribute access from the imported module."""
    try:
        parent: Any = importlib.import_module(module) if module else None
    except Exception:  # a module that does not import has no oracle answer
        return None
    parts = fullname.split(".") if fullname else []
    if parent is None:
        return None
    obj = parent
    for part in parts:
        parent = obj
        owner = (
            next((k for k in obj.__mro__ if part in vars(k)), None)
            if isinstance(obj, type)
            else None
        )
        if owner is not None:
            obj = vars(owner)[part]
            continue
        try:
            obj = getattr(obj, part)
        except (
            Exception
        ):  # a proxy outside its context, a missing name: an instance attribute at most
            if isinstance(obj, type) and part == parts[-1]:
                obj = None  # an instance attribute, or an annotated field without a class value
            else:
                return None
    return parent, obj, parts[-1] if parts else ""


def _container(module: str, fullname: str) -> tuple[str, list[str], str] | None:
    """(defining module, class path inside it, the name) of the object, from the running interpreter."""
    found = _runtime(module, fullname)
    if found is None:
        return None
    parent, obj, name = found
    if not name:  # the module itself
        return module, [], ""
    if isinstance(parent, type):
        owner = next((k for k in parent.__mro__ if name in vars(k)), None)
        if (
            owner is None
        ):  # an annotation without a value, or ``self.name = …``: the first class that has it
            owner = next(
                (
                    k
                    for k in parent.__mro__
                    if name in getattr(k, "__annotations__", {}) or _assigns_self(k, name)
                ),
                None,
            )
        if owner is None:
            return None
        if owner.__module__ == "builtins" or "<locals>" in owner.__qualname__:
            return None
        return owner.__module__, owner.__qualname__.split("."), name
    try:
        target = inspect.unwrap(obj) if isinstance(obj, type) or inspect.isfunction(obj) else obj
    except ValueError:
        target = obj
    qual = (
        getattr(target, "__qualname__", None)
        if isinstance(target, type) or inspect.isfunction(target)
        else None
    )
    home = getattr(target, "__module__", None) if qual else None
    if qual and home and "<locals>" not in qual and qual.rsplit(".", 1)[-1] == name:
        return home, qual.split(".")[:-1], name
    return module, [], name  # data: bound in the module it is documented in


def _assigns_self(cls: type, name: str) -> bool:
    """Whether a method of *cls* (its own source) assigns ``self.name``."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return False
    return f"self.{name} =" in source or f"self.{name}:" in source


def _binds(node: ast.stmt, name: str) -> bool:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == name for t in _flat(node.targets))
    if isinstance(node, ast.AnnAssign):
        return isinstance(node.target, ast.Name) and node.target.id == name
    return False


def _flat(targets: list[ast.expr]) -> list[ast.expr]:
    out: list[ast.expr] = []
    for target in targets:
        out.extend(
            _flat(list(target.elts)) if isinstance(target, (ast.Tuple, ast.List)) else [target]
        )
    return out


def _decorator_names(node: ast.stmt) -> list[str]:
    return [ast.unparse(d) for d in getattr(node, "decorator_list", [])]


def _start(node: ast.stmt) -> int:
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])


def _candidates(body: list[ast.stmt], name: str) -> list[tuple[ast.stmt, bool]]:
    """Statements of *body* binding *name*, with whether each is under a branch (if/try/with)."""
    found = [(node, False) for node in body if _binds(node, name)]
    for node in body:
        for field in ("body", "orelse", "finalbody"):
            for inner in (
                getattr(node, field, []) if isinstance(node, (ast.If, ast.Try, ast.With)) else []
            ):
                if _binds(inner, name):
                    found.append((inner, True))
        for handler in getattr(node, "handlers", []):
            found.extend((inner, True) for inner in handler.body if _binds(inner, name))
    return sorted(found, key=lambda pair: pair[0].lineno)


def _choose(found: list[tuple[ast.stmt, bool]]) -> tuple[int, int] | None:
    nodes = [n for n, _ in found]
    real = [
        n for n in nodes if not any(d.endswith("overload") for d in _decorator_names(n))
    ] or nodes[:1]
    getters = [
        n for n in real if not any(d.endswith(_ACCESSORS) for d in _decorator_names(n))
    ] or real
    plain = [n for n, branch in found if n in getters and not branch]
    chosen = plain[-1] if plain else getters[0]
    start, end = _start(chosen), chosen.end_lineno or chosen.lineno
    if any(d.endswith("property") for d in _decorator_names(chosen)):
        end = max([end, *(n.end_lineno or n.lineno for n in real if n.lineno > chosen.lineno)])
    return start, end


def _instance(body: list[ast.stmt], name: str) -> tuple[int, int] | None:
    """``self.name = …`` in ``__init__`` (else in any method), first in source order."""
    methods = [n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for method in sorted(methods, key=lambda m: (m.name != "__init__", m.lineno)):
        for node in ast.walk(method):
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            if any(
                isinstance(t, ast.Attribute)
                and t.attr == name
                and isinstance(t.value, ast.Name)
                and t.value.id == "self"
                for t in targets
            ):
                return node.lineno, node.end_lineno or node.lineno
    return None


def oracle(module: str, fullname: str) -> tuple[str, int, int] | None:
    """(absolute file, start, end) where *module*.*fullname* is defined, or None when it has no Python source."""
    where = _container(module, fullname)
    if where is None:
        return None
    home, classes, name = where
    file = getattr(sys.modules.get(home), "__file__", None)
    if not file or not file.endswith(".py"):
        return None
    text = Path(file).read_text("utf-8")
    tree = ast.parse(text)
    if not name:
        return file, 1, max(len(text.splitlines()), 1)
    body: list[ast.stmt] = tree.body
    for cls in classes:
        found = [n for n, _ in _candidates(body, cls) if isinstance(n, ast.ClassDef)]
        if not found:
            return None
        body = found[-1].body
    candidates = _candidates(body, name)
    span = _choose(candidates) if candidates else _instance(body, name) if classes else None
    return (file, *span) if span else None
