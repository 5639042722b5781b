"""Where names are bound, read straight from a module's ``ast`` (pure).

The fast path of resolution: most anchors name a function, class, method or
plain assignment that is bound exactly once, directly in a module or class
body. For those, the span is read from the ``ast`` the statement rule needs
anyway, and griffe's full visit of the module is skipped. Every other case
(imports and re-exports, names bound under ``if``/``try``, several bindings,
properties, instance attributes, inherited members) is marked ambiguous, and
the resolver asks griffe.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Sequence

from .statements import child_bodies, node_span

#: A binding: (kind, start, end); kind is griffe's word, or "" when only griffe can tell.
Binding = tuple[str, int, int]

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


#: Decorators that make griffe model a function as an attribute (its own table, by canonical path).
_PROPERTY = {"property", "functools.cached_property", "cached_property.cached_property"}
#: Decorators after which griffe merges or relabels definitions: left to griffe.
_MERGED = {"typing.overload", "typing_extensions.overload"}
_MERGED_SUFFIXES = (".setter", ".getter", ".deleter")


def index(tree: ast.Module) -> dict[str, list[Binding]]:
    """Every name bound in the module body and in class bodies, by dotted path inside the module."""
    found: dict[str, list[Binding]] = defaultdict(list)
    _body(tree.body, "", found, direct=True, imports=_imports(tree))
    return dict(found)


def _imports(tree: ast.Module) -> dict[str, str]:
    """Local name -> imported dotted path, for the module's top-level imports."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                names[local] = alias.name if alias.asname else local
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def unique(bindings: dict[str, list[Binding]], path: str) -> Binding | None:
    """The one unambiguous binding of *path*, or None when griffe must decide."""
    entries = bindings.get(path)
    if not entries or len(entries) != 1 or not entries[0][0]:
        return None
    return entries[0]


def _body(body: Sequence[ast.stmt], prefix: str, found: dict[str, list[Binding]], *, direct: bool,
          imports: dict[str, str]) -> None:
    for node in body:
        start, end = node_span(node)
        if isinstance(node, (*_DEFS, ast.ClassDef)):
            kind = "class" if isinstance(node, ast.ClassDef) else _function_kind(node, imports)
            found[prefix + node.name].append((kind if direct else "", start, end))
            if isinstance(node, ast.ClassDef):
                _body(node.body, f"{prefix}{node.name}.", found, direct=direct, imports=imports)
            elif node.name == "__init__" and prefix:
                _instance_attributes(node, prefix, found)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            plain = direct and isinstance(node, (ast.Assign, ast.AnnAssign))
            for target in targets:
                for name, simple in _names(target):
                    found[prefix + name].append(("attribute" if plain and simple else "", start, end))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                found[prefix + name].append(("", start, end))
        else:
            # Bindings under if/try/with/for/while/match are real, but which one griffe keeps is its call.
            for child_body in child_bodies(node):
                _body(child_body, prefix, found, direct=False, imports=imports)
            for name, _ in _walrus_and_loop_names(node):
                found[prefix + name].append(("", start, end))


def _function_kind(node: ast.FunctionDef | ast.AsyncFunctionDef, imports: dict[str, str]) -> str:
    """The kind griffe gives a definition: "attribute" for properties, "" when griffe merges it."""
    kind = "function"
    for decorator in node.decorator_list:
        path = _dotted(decorator.func if isinstance(decorator, ast.Call) else decorator)
        if path is None:
            return ""  # an expression griffe may read differently
        head, _, tail = path.partition(".")
        canonical = imports.get(head, head) + (f".{tail}" if tail else "")
        if canonical in _MERGED or canonical.endswith(_MERGED_SUFFIXES):
            return ""
        if canonical in _PROPERTY:
            kind = "attribute"
    return kind


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _names(target: ast.expr) -> list[tuple[str, bool]]:
    if isinstance(target, ast.Name):
        return [(target.id, True)]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [(name, False) for elt in target.elts for name, _ in _names(elt)]
    if isinstance(target, ast.Starred):
        return [(name, False) for name, _ in _names(target.value)]
    return []


def _instance_attributes(init: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str,
                         found: dict[str, list[Binding]]) -> None:
    """``self.x = …`` in ``__init__``: griffe merges these with class attributes, so they are its call.

    Only statements can assign an attribute, so statement bodies are searched (nested ones
    included), not every expression node.
    """
    stack: list[ast.stmt] = list(init.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in _assigned(target):
                    if isinstance(leaf, ast.Attribute) and isinstance(leaf.value, ast.Name) \
                            and leaf.value.id == "self":
                        found[prefix + leaf.attr].append(("", node.lineno, node.end_lineno or node.lineno))
        else:
            for body in child_bodies(node):
                stack.extend(body)


def _assigned(target: ast.expr) -> list[ast.expr]:
    """The leaves a target assigns: itself, or each element of a tuple, list or starred target."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return [leaf for elt in target.elts for leaf in _assigned(elt)]
    if isinstance(target, ast.Starred):
        return _assigned(target.value)
    return [target]


def _walrus_and_loop_names(node: ast.stmt) -> list[tuple[str, bool]]:
    names: list[tuple[str, bool]] = []
    if isinstance(node, (ast.For, ast.AsyncFor)):
        names += _names(node.target)
    if isinstance(node, (ast.With, ast.AsyncWith)):
        for item in node.items:
            if item.optional_vars is not None:
                names += _names(item.optional_vars)
    for sub in ast.walk(node) if not isinstance(node, (*_DEFS, ast.ClassDef)) else ():
        if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
            names.append((sub.target.id, False))
    return names
