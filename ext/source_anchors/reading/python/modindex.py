"""A compact index of one module, read from one parse: bindings, classes, imports, statements (pure).

The index holds no syntax tree: only tuples of ints and strings, so that keeping one per
file costs the garbage collector nothing and every file is parsed at most once per build.
Bindings are recorded per dotted path inside the module (``""`` is the module, ``C.m`` a
method) with the flags :mod:`.rules` chooses the definition by; class statements keep
their bases as written; star imports and a static ``__all__`` are kept for re-exports.
"""

from __future__ import annotations

import ast
import unicodedata
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import NamedTuple

from .allscan import AllNames, mentions, other_uses_of_all
from .availability import Branches, Optional
from .conditions import Python, branches, running, wrapper
from .rules import ACCESSOR, AUG, COND, DATA, INIT, INSTANCE, OVERLOAD, WRAP, Bind
from .statements import SAME_SCOPE, Compact, child_bodies, compact, node_span

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_ASSIGNS = frozenset({ast.Assign, ast.AnnAssign, ast.AugAssign})
_OVERLOADS = ("typing.overload", "typing_extensions.overload", "overload")
_ACCESSORS = (".setter", ".deleter", ".getter")


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """A class statement: its dotted path in the module, its bases as written, its enclosing class."""

    qual: str
    #: Each base as a dotted name (``Generic[T]`` gives ``Generic``), or ``!`` and the source of an
    #: expression that cannot be read statically (a call, an operator).
    bases: tuple[str, ...]
    #: First line of the enclosing class statement (0 in the module body).
    owner: int


class Exports(NamedTuple):
    """A module's ``__all__`` as read statically."""

    names: tuple[str, ...]
    #: False when a statement changes it in a way not read statically (``__all__ += other.__all__``,
    #: ``__all__.append(x)`` in a function, any other use of the name): the names are then only
    #: those known to be in it.
    complete: bool = True


@dataclass(frozen=True, slots=True)
class ModuleIndex:
    """Everything the resolver reads from one module, without its syntax tree."""

    #: Bindings by dotted path inside the module, in source order.
    bindings: dict[str, tuple[Bind, ...]]
    #: Class statements by their first line (decorators included).
    classes: dict[int, ClassInfo]
    #: Modules star-imported in the module body, in order.
    stars: tuple[str, ...]
    #: The module's ``__all__``, or None when it binds none.
    exports: Exports | None
    #: The module's statements, nested, for the statement rule.
    statements: tuple[Compact, ...]
    #: Tests decided statically (:mod:`.conditions`): (first line, last line, what was decided).
    conditions: tuple[tuple[int, int, str], ...] = ()
    #: Branches that run only when a module can (or cannot) be imported (:mod:`.availability`),
    #: undecided.
    optional: tuple[Optional, ...] = ()


def build(
    tree: ast.Module,
    lines: Sequence[str],
    module: str,
    *,
    package: bool,
    walrus: bool = True,
    all_mentions: int | None = None,
    python: Python | None = None,
) -> ModuleIndex:
    """Index the module *module* (a package's ``__init__`` when *package*) from its syntax tree.

    *walrus* False says the text holds no ``:=``: no expression is then walked for one.
    *all_mentions* is how often the text spells ``__all__`` (None: not counted, as for a text that
    is not ASCII, where another spelling is the same name: its lines are then read NFKC-normalised,
    as Python reads identifiers). When the statements read as setting it account for every one, no
    other use of the name needs looking for; else only the nodes on lines that spell it are. Tests
    of the version and platform are decided for *python* (default: the running interpreter's).
    """
    builder = _Builder(
        module if package else module.rpartition(".")[0], _imports(tree), python or running()
    )
    builder.walrus = walrus
    builder.body(tree.body, "", 0, 0)
    exports = None
    if builder.all.exports is not None:
        complete = not builder.all.dynamic
        names_read = (
            lines  # the lines as Python reads its names (the statement index keeps *lines*)
        )
        if complete and all_mentions is None:
            names_read = [
                line if line.isascii() else unicodedata.normalize("NFKC", line) for line in lines
            ]
            all_mentions = sum(line.count("__all__") for line in names_read)
        if (
            complete
            and all_mentions is not None
            and all_mentions > mentions(builder.all.statements, names_read)
        ):
            spelled = [n for n, line in enumerate(names_read, 1) if "__all__" in line]
            complete = not other_uses_of_all(tree, builder.all.statements, spelled)
        exports = Exports(tuple(builder.all.exports), complete)
    # Source order (a walk visits a try's 'else' before its handlers; instance attributes come
    # later).
    return ModuleIndex(
        bindings={path: tuple(sorted(found, key=_START)) for path, found in builder.found.items()},
        classes=builder.classes,
        stars=tuple(builder.stars),
        exports=exports,
        statements=compact(tree.body, lines),
        conditions=tuple(builder.conditions),
        optional=tuple(builder.optional.found),
    )


_START = attrgetter("start")
_new_bind = tuple.__new__


def _imports(tree: ast.Module) -> dict[str, str]:
    """Local name -> imported dotted path, for the module's top-level absolute imports (decorators)."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


class _Builder:
    def __init__(self, package: str, imports: dict[str, str], python: Python) -> None:
        self.package, self.imports, self.python = package, imports, python
        #: Names the module imports from ``sys`` (``from sys import hexversion``): local name ->
        #: attribute.
        self.from_sys: dict[str, str] = {}
        self.conditions: list[tuple[int, int, str]] = []
        self.optional = Branches()  # the import-availability branches, recorded undecided
        self.found: dict[str, list[Bind]] = defaultdict(list)
        self.classes: dict[int, ClassInfo] = {}
        self.stars: list[str] = []
        #: ``__all__`` as the module-level statements set it.
        self.all = AllNames()
        #: Whether the file may hold ``:=`` (when not, no expression is walked for one).
        self.walrus = True

    def body(self, body: Sequence[ast.stmt], prefix: str, owner: int, flags: int) -> None:
        previous, wrapped = None, None
        for node in body:
            wrapped = wrapper(node, previous, wrapped)
            self.statement(node, prefix, owner, flags | (WRAP if wrapped else 0))
            if (
                wrapped
                and self.found[prefix + wrapped][-2].kind == "function"
                and self.canonical(self.callee(node.value)) == "property"  # type: ignore[attr-defined]
            ):
                bind = self.found[prefix + wrapped][-2]  # the def is a property's getter
                self.found[prefix + wrapped][-2] = bind._replace(
                    kind="attribute", flags=bind.flags | DATA
                )
            previous = node

    def add(
        self, path: str, kind: str, span: tuple[int, int], flags: int, owner: int, target: str = ""
    ) -> None:
        # tuple.__new__ is what Bind() runs, without the Python frame of a named tuple's __new__.
        self.found[path].append(_new_bind(Bind, (kind, span[0], span[1], flags, owner, target)))

    def statement(self, node: ast.stmt, prefix: str, owner: int, flags: int) -> None:
        span = node_span(node)
        if isinstance(node, ast.ClassDef):
            self.add(prefix + node.name, "class", span, flags, owner)
            self.classes[span[0]] = ClassInfo(
                prefix + node.name, tuple(_base(b) for b in node.bases), owner
            )
            self.body(node.body, f"{prefix}{node.name}.", span[0], 0)
        elif isinstance(node, _DEFS):
            kind, own = self.function(node)
            outermost = _dotted(node.decorator_list[0]) if owner and node.decorator_list else None
            self.add(
                prefix + node.name,
                kind,
                span,
                flags | own,
                owner,
                f"@{outermost}" if outermost else "",
            )
            if owner:
                self.instance_attributes(node, prefix, owner)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            own = AUG if isinstance(node, ast.AugAssign) else 0
            # a descriptor made in a class body?
            callee = self.callee(node.value) if owner and not own else ""
            own |= DATA if self.canonical(callee) == "property" else 0
            for target in targets:
                for name in _names(target):
                    self.add(
                        prefix + name,
                        "attribute",
                        span,
                        flags | own,
                        owner,
                        callee and f"={callee}",
                    )
            if not prefix and any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                self.all.assign(node, extend=bool(own))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                self.add(
                    prefix + local,
                    "alias",
                    span,
                    flags,
                    owner,
                    alias.name if alias.asname else local,
                )
        elif isinstance(node, ast.ImportFrom):
            self.import_from(node, prefix, owner, flags, span)
        else:
            self.compound(node, prefix, owner, flags, span)

    def compound(
        self, node: ast.stmt, prefix: str, owner: int, flags: int, span: tuple[int, int]
    ) -> None:
        """if/try/for/while/with/match: the names they bind, then their bodies."""
        names: list[str] = []
        if isinstance(node, (ast.For, ast.AsyncFor)):
            names += _names(node.target)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            names += [
                n for item in node.items if item.optional_vars for n in _names(item.optional_vars)
            ]
        if self.walrus:
            names += _walrus(node)
        for name in names:
            self.add(prefix + name, "attribute", span, flags, owner)
        if isinstance(node, ast.Expr) and not prefix:
            self.all.call(node)
        if isinstance(node, (ast.If, ast.Try)):
            self.optional.read(node, module_level=not prefix, nested=bool(flags & COND))
        # a test decided statically (conditions), else both branches conditional
        if isinstance(node, ast.If):
            then, otherwise, decided = branches(node, flags, self.python, self.from_sys)
            self.conditions += [decided] if decided else []
            self.body(node.body, prefix, owner, then)
            self.body(node.orelse, prefix, owner, otherwise)
            return
        inner = flags if isinstance(node, (ast.With, ast.AsyncWith)) else flags | COND
        for body in child_bodies(node):
            self.body(body, prefix, owner, inner)

    def import_from(
        self, node: ast.ImportFrom, prefix: str, owner: int, flags: int, span: tuple[int, int]
    ) -> None:
        module = self.source(node)
        if module is None:
            return  # a relative import above the top-level package: nothing it binds can be followed
        if module == "sys" and not prefix:
            self.from_sys.update((alias.asname or alias.name, alias.name) for alias in node.names)
        for alias in node.names:
            if alias.name == "*":
                if not prefix:
                    self.stars.append(module)
                continue
            self.add(
                prefix + (alias.asname or alias.name),
                "alias",
                span,
                flags,
                owner,
                f"{module}:{alias.name}",
            )

    def source(self, node: ast.ImportFrom) -> str | None:
        """The absolute dotted module a ``from … import`` reads."""
        if not node.level:
            return node.module or ""
        parts = self.package.split(".") if self.package else []
        if node.level - 1 > len(parts) or (node.level - 1 == len(parts) and not node.module):
            return None
        parts = parts[: len(parts) - (node.level - 1)]
        return ".".join([*parts, *([node.module] if node.module else [])])

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, int]:
        """(kind, flags) of a definition from its decorators: properties are attributes."""
        kind, flags = "function", 0
        for decorator in node.decorator_list:
            path = _dotted(decorator.func if isinstance(decorator, ast.Call) else decorator)
            if path is None:
                continue
            canonical = self.canonical(path)
            if canonical in _OVERLOADS or canonical.endswith(".overload"):
                flags |= OVERLOAD
            elif canonical.endswith(_ACCESSORS) and "." in path:
                flags |= ACCESSOR | DATA
                kind = "attribute"
            elif canonical == "property" or canonical.endswith(
                ("cached_property", "abstractproperty")
            ):
                kind = "attribute"
                # functools': no __set__
                flags |= 0 if canonical.endswith("cached_property") else DATA
        return kind, flags

    def instance_attributes(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str, owner: int
    ) -> None:
        """``self.x = …`` (the first parameter's name) in the statements of a method.

        This visits every statement of every method, so it dispatches on the node's class and
        looks into a target only when it is an attribute, a tuple or a list.
        """
        params = node.args.posonlyargs or node.args.args
        if not params:
            return
        me = params[0].arg
        flags = INSTANCE | (INIT if node.name == "__init__" else 0)
        stack: list[ast.stmt] = list(reversed(node.body))
        pop, extend = stack.pop, stack.extend
        while stack:
            statement = pop()
            kind = statement.__class__
            if kind in _ASSIGNS:
                targets = statement.targets if kind is ast.Assign else [statement.target]  # type: ignore[attr-defined]
                for target in targets:
                    if target.__class__ is ast.Name:
                        continue  # a local variable: by far the most common target
                    for leaf in _leaves(target):
                        if (
                            leaf.__class__ is ast.Attribute
                            and leaf.value.__class__ is ast.Name
                            and leaf.value.id == me
                        ):
                            self.add(
                                prefix + leaf.attr,
                                "attribute",
                                node_span(statement),
                                flags | (AUG if kind is ast.AugAssign else 0),
                                owner,
                            )
            elif kind in SAME_SCOPE:
                for body in reversed(child_bodies(statement)):
                    extend(reversed(body))

    def callee(self, value: ast.expr | None) -> str:
        """The dotted name a call in *value* calls, as written (``property``, ``mod.Descriptor``), or "".

        Calling a subscripted generic class (``Descriptor[str](…)``) makes an instance of the class
        itself, as ``typing``'s generic aliases do, so the subscript is left out.
        """
        if not isinstance(value, ast.Call):
            return ""
        func = value.func.value if isinstance(value.func, ast.Subscript) else value.func
        return _dotted(func) or ""

    def canonical(self, path: str) -> str:
        """*path* with its first name replaced by what the module imports under it (``typing.overload``)."""
        head, _, tail = path.partition(".")
        return self.imports.get(head, head) + (f".{tail}" if tail else "")


def _base(node: ast.expr) -> str:
    if isinstance(node, ast.Subscript):
        node = node.value  # Generic[T], Base[int]: the class subscripted
    dotted = _dotted(node)
    return dotted if dotted is not None else "!" + ast.unparse(node)[:80]


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _names(target: ast.expr) -> list[str]:
    """The names a target binds: itself, or each name of a tuple, list or starred target."""
    return [leaf.id for leaf in _leaves(target) if isinstance(leaf, ast.Name)]


def _leaves(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return [leaf for elt in target.elts for leaf in _leaves(elt)]
    if isinstance(target, ast.Starred):
        return _leaves(target.value)
    return [target]


def _walrus(node: ast.stmt) -> list[str]:
    """Names bound by ``:=`` in the expressions of *node* itself (not of the statements it holds)."""
    names: list[str] = []
    for _, value in ast.iter_fields(node):
        values = value if isinstance(value, list) else [value]
        for item in values:
            if isinstance(item, (ast.expr, ast.withitem)):
                names += [
                    sub.target.id
                    for sub in ast.walk(item)
                    if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name)
                ]
    return names
