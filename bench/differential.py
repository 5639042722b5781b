"""Differential check of the resolver against ranges computed independently with ``ast``.

``python bench/differential.py [django==5.2.19 sqlalchemy==2.0.41 …] [--limit N]``
(``make differential``). Each package is downloaded from PyPI as a wheel
(``pip download --no-deps``), unpacked and committed to a local git repository under
``_build/differential/`` (never into this project), then every name the oracle below
finds is resolved through the real Engine and compared with the oracle's range:

* module and class bindings: the oracle's own reading of each scope (its own ``ast``
  walk) and the binding rules of ``docs/binding-rules.md``, applied as a sort key;
* imports followed by the oracle's own lookup;
* inherited members: the owner is the first class of Python's own ``__mro__`` of a
  generated skeleton (one empty class per class of the package, bases as resolved by
  the oracle, one fresh class per base outside the package, the builtin ``property``
  itself), so C3 is Python's; except that where that class has the name only as
  ``self.x = …``, ``inspect.getattr_static`` on the skeleton says whether a data
  descriptor comes first (each skeleton class holds a ``property()`` for a property the
  class body binds, an instance of the skeleton of a class of the package it calls, and
  ``__set__`` when its body defines ``__set__`` or ``__delete__``);
* tests of ``sys.version_info``, ``sys.platform`` and ``TYPE_CHECKING`` evaluated by Python
  itself (``eval``) with ``TYPE_CHECKING`` false, the running interpreter's major and minor
  version (for every micro release: a test whose value depends on it is not decided) and
  the platform ``linux``: a branch that cannot run binds nothing, one that always runs binds
  as an unconditional statement; ``name = f(name, …)`` right after ``def name`` yields to the
  ``def``; a conditional import from outside the package yields to another branch's ``def``,
  ``class`` or import from inside it.

Nothing upstream is imported or executed. Results go to ``_build/differential/results.json``;
a table (agreed / disagreed / by rule, per package) is printed.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import inspect
import json
import subprocess
import sys
import time
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_build" / "differential"
DEFAULT = ("django==5.2.19",)
_GIT = {
    "GIT_AUTHOR_NAME": "d",
    "GIT_AUTHOR_EMAIL": "d@example.invalid",
    "GIT_COMMITTER_NAME": "d",
    "GIT_COMMITTER_EMAIL": "d@example.invalid",
    "GIT_AUTHOR_DATE": "2025-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2025-01-01T00:00:00Z",
}
_ACCESSORS = ("setter", "deleter", "getter")
_VersionInfo = __import__("collections").namedtuple(
    "_VersionInfo", "major minor micro releaselevel serial"
)


def static_test(test: ast.expr) -> bool | None:
    """The test's value as Python computes it (TYPE_CHECKING false, linux, this major.minor), or None.

    Only tests that read nothing but ``TYPE_CHECKING`` and ``sys.version_info`` / ``sys.platform``
    are evaluated, once per micro release 0 and 99: None when those differ or it is not such a test.
    """
    for node in ast.walk(test):
        if isinstance(node, ast.Name) and node.id != "sys":
            return None  # TYPE_CHECKING alone is read by read_scope; mixed with other tests it is not decided
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.attr not in ("version_info", "platform")
        ):
            return None
        if isinstance(node, ast.Call) and not (
            isinstance(node.func, ast.Attribute) and node.func.attr == "startswith"
        ):
            return None
        on_right = isinstance(node, ast.Compare) and any(
            isinstance(c, ast.Attribute)
            and c.attr == "platform"
            and isinstance(op, (ast.In, ast.NotIn))
            for op, c in zip(node.ops, node.comparators, strict=True)
        )
        sliced = (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "platform"
        )
        if on_right or sliced:
            return None  # a substring or a slice of sys.platform: type checkers do not decide those
    if not any(isinstance(n, ast.Name) for n in ast.walk(test)):
        return None
    code = compile(ast.Expression(test), "<test>", "eval")
    values = set()
    for micro in (0, 99):
        fake = type(sys)("sys")
        fake.version_info = _VersionInfo(*sys.version_info[:2], micro, "final", 0)  # type: ignore[attr-defined]
        fake.platform = "linux"  # type: ignore[attr-defined]
        try:
            values.add(bool(eval(code, {"sys": fake})))
        except Exception:
            return None
    return values.pop() if len(values) == 1 else None


def git(*args: str, cwd: Path) -> str:
    """Run git in *cwd* with a fixed identity and dates; return stdout."""
    import os

    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **_GIT},
    ).stdout


def upstream(spec: str) -> tuple[Path, str, list[str]]:
    """(repository, commit, top-level packages) of the unpacked wheel of *spec*, made once."""
    name = spec.split("==")[0].lower()
    repo = OUT / "repos" / spec
    if not (repo / ".git").exists():
        download = OUT / "download"
        download.mkdir(parents=True, exist_ok=True)
        wheels = [
            w
            for w in download.glob("*.whl")
            if w.name.lower().startswith(f"{name}-{spec.split('==')[1]}-")
        ]
        if not wheels:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "--quiet",
                    "--disable-pip-version-check",
                    "-d",
                    str(download),
                    spec,
                ],
                check=True,
            )
            wheels = [
                w
                for w in download.glob("*.whl")
                if w.name.lower().startswith(f"{name}-{spec.split('==')[1]}-")
            ]
        repo.mkdir(parents=True)
        with zipfile.ZipFile(wheels[0]) as archive:
            for entry in archive.namelist():
                if entry.endswith(".py") and ".dist-info/" not in entry and ".data/" not in entry:
                    target = repo / entry
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(archive.read(entry))
        git("init", "-q", "-b", "main", cwd=repo)
        git("add", "-A", cwd=repo)
        git("commit", "-q", "-m", spec, cwd=repo)
    packages = sorted(p.name for p in repo.iterdir() if (p / "__init__.py").exists())
    return repo, git("rev-parse", "HEAD", cwd=repo).strip(), packages


# -- the oracle ---------------------------------------------------------------------------


class Scope:
    """The bindings of one module or class body: name -> [(key, start, end, target)] in source order."""

    def __init__(
        self, module: str, qual: str, line: int, bases: list[ast.expr], outer: Scope | None
    ) -> None:
        self.module, self.qual, self.line, self.bases, self.outer = module, qual, line, bases, outer
        self.names: dict[str, list[tuple[tuple[int, ...], int, int, str]]] = {}
        self.classes: dict[tuple[str, int], Scope] = {}
        #: What a class-body binding (name, first line) makes: "property", "def" (a def or a class),
        #: "call:<callee as written>", or "" (any other value).
        self.values: dict[tuple[str, int], str] = {}
        #: (name, first line) of the defs and classes (the bindings that define a name).
        self.defs: set[tuple[str, int]] = set()

    def bind(self, name: str, key: tuple[int, ...], start: int, end: int, target: str = "") -> None:
        """Record one binding of *name*."""
        self.names.setdefault(name, []).append((key, start, end, target))


def span(node: ast.stmt) -> tuple[int, int]:
    """Lines of a statement, from its first decorator."""
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)]), node.end_lineno or node.lineno


def decorator_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The decorators of a definition as written (a call's callee)."""
    names = []
    for d in node.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        names.append(ast.unparse(d))
    return names


def targets(node: ast.expr) -> list[ast.expr]:
    """The leaves an assignment target binds."""
    if isinstance(node, (ast.Tuple, ast.List)):
        return [leaf for e in node.elts for leaf in targets(e)]
    return targets(node.value) if isinstance(node, ast.Starred) else [node]


def _wraps(node: ast.stmt, previous: ast.stmt | None, wrapped: str) -> str:
    """The name of ``name = f(name, …)`` right after ``def name`` (or after another such line), else ""."""
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and node.value.args
        and isinstance(node.value.args[0], ast.Name)
        and node.value.args[0].id == node.targets[0].id
    ):
        before = (
            previous.name
            if isinstance(previous, (ast.FunctionDef, ast.AsyncFunctionDef))
            else wrapped
        )
        return node.targets[0].id if before == node.targets[0].id else ""
    return ""


def read_scope(
    scope: Scope, body: list[ast.stmt], package: str, typing: int = 0, cond: int = 0
) -> None:
    """Record every binding of *body* in *scope*; key = (typing, aug, instance, overload, accessor, wrap, cond)."""
    previous: ast.stmt | None = None
    wrapped = ""
    for node in body:
        wrapped = _wraps(node, previous, wrapped)
        previous = node
        start, end = span(node)
        key = (typing, 0, 0, 0, 0, 0, cond)
        if isinstance(node, ast.ClassDef):
            scope.values[(node.name, start)] = "def"
            scope.defs.add((node.name, start))
            scope.bind(node.name, key, start, end)
            inner = Scope(
                scope.module, f"{scope.qual}.{node.name}".lstrip("."), start, node.bases, scope
            )
            scope.classes[(node.name, start)] = inner
            read_scope(inner, node.body, package)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = decorator_names(node)
            overload = any(n.split(".")[-1] == "overload" for n in names)
            accessor = any("." in n and n.split(".")[-1] in _ACCESSORS for n in names)
            outer = names[0] if names and not isinstance(node.decorator_list[0], ast.Call) else ""
            scope.values[(node.name, start)] = (
                "property"
                if accessor or outer.split(".")[-1] in ("property", "abstractproperty")
                else f"call:{outer}"
                if outer and "cached_property" not in outer.split(".")[:-1]
                else "def"
            )
            scope.defs.add((node.name, start))
            scope.bind(node.name, (typing, 0, 0, int(overload), int(accessor), 0, cond), start, end)
            if scope.qual and (node.args.posonlyargs or node.args.args):
                me = (node.args.posonlyargs or node.args.args)[0].arg
                for sub in own_statements(node.body):
                    if isinstance(sub, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                        for t in sub.targets if isinstance(sub, ast.Assign) else [sub.target]:
                            for leaf in targets(t):
                                if (
                                    isinstance(leaf, ast.Attribute)
                                    and isinstance(leaf.value, ast.Name)
                                    and leaf.value.id == me
                                ):
                                    init = 0 if node.name == "__init__" else 1
                                    scope.bind(
                                        leaf.attr,
                                        (
                                            0,
                                            int(isinstance(sub, ast.AugAssign)),
                                            1,
                                            0,
                                            0,
                                            0,
                                            init,
                                            sub.lineno,
                                        ),
                                        sub.lineno,
                                        sub.end_lineno or sub.lineno,
                                    )
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            aug = int(isinstance(node, ast.AugAssign))
            func = node.value.func if isinstance(node.value, ast.Call) else None
            func = (
                func.value if isinstance(func, ast.Subscript) else func
            )  # D[str](…) is an instance of D
            callee = ast.unparse(func) if func is not None else ""
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                for leaf in targets(t):
                    if isinstance(leaf, ast.Name):
                        scope.values[(leaf.id, start)] = (
                            "property"
                            if callee == "property"
                            else f"call:{callee}"
                            if callee
                            else ""
                        )
                        scope.bind(
                            leaf.id,
                            (typing, aug, 0, 0, 0, int(wrapped == leaf.id), cond),
                            start,
                            end,
                        )
            if wrapped and callee == "property":  # the def it wraps is a property's getter
                scope.values.update({k: "property" for k in scope.values if k[0] == wrapped})
        elif isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                scope.bind(local, key, start, end, alias.name if alias.asname else local)
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node, package)
            for alias in node.names:
                if alias.name != "*" and base is not None:
                    scope.bind(alias.asname or alias.name, key, start, end, f"{base}:{alias.name}")
        elif isinstance(node, ast.If) and ast.unparse(node.test).removeprefix("not ") in (
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            negated = ast.unparse(node.test).startswith(
                "not "
            )  # the branch that runs binds unconditionally
            read_scope(scope, node.body, package, typing if negated else 1, cond if negated else 1)
            read_scope(
                scope, node.orelse, package, 1 if negated else typing, 1 if negated else cond
            )
        elif isinstance(node, ast.If) and static_test(node.test) is not None:
            read_scope(
                scope, node.body if static_test(node.test) else node.orelse, package, typing, cond
            )
        else:
            if isinstance(node, (ast.For, ast.AsyncFor)):
                for leaf in targets(node.target):
                    if isinstance(leaf, ast.Name):
                        scope.bind(leaf.id, key, start, end)
            if isinstance(node, (ast.With, ast.AsyncWith)):
                for item in node.items:
                    for leaf in targets(item.optional_vars) if item.optional_vars else []:
                        if isinstance(leaf, ast.Name):
                            scope.bind(leaf.id, key, start, end)
            inner_cond = cond if isinstance(node, (ast.With, ast.AsyncWith)) else 1
            for field in ("body", "orelse", "finalbody"):
                sub = getattr(node, field, None)
                if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                    read_scope(scope, sub, package, typing, inner_cond)
            for handler in getattr(node, "handlers", []):
                read_scope(scope, handler.body, package, typing, 1)
            for case in getattr(node, "cases", []):
                read_scope(scope, case.body, package, typing, 1)


def own_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of a function body, nested blocks included, nested functions and classes not."""
    out: list[ast.stmt] = []
    for node in body:
        out.append(node)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(node, field, None)
            if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                out += own_statements(sub)
        for handler in getattr(node, "handlers", []):
            out += own_statements(handler.body)
        for case in getattr(node, "cases", []):
            out += own_statements(case.body)
    return out


def absolute(node: ast.ImportFrom, package: str) -> str | None:
    """The absolute module a ``from … import`` reads, or None above the top package."""
    if not node.level:
        return node.module
    parts = package.split(".")
    if node.level - 1 >= len(parts) + (1 if node.module else 0):
        return None
    parts = parts[: len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def definition(
    entries: list[tuple[tuple[int, ...], int, int, str]],
) -> tuple[tuple[int, int, str], str]:
    """The oracle's choice among a name's bindings (the rules as one sort key), and a rule label."""
    if len(entries) == 1:
        return entries[0][1:], ""
    entries = sorted(entries, key=lambda e: e[1])  # source order
    best = min(entry[0][:6] for entry in entries)
    left = [e for e in entries if e[0][:6] == best]
    if best[2]:  # instance attributes only: __init__ first, then source order
        return min(left, key=lambda e: (e[0][6], e[0][7]))[1:], "instance"
    if best[3]:  # overload stubs only
        return left[0][1:], "overload"
    plain = [e for e in left if not e[0][6]]
    return (plain[-1] if plain else left[0])[1:], "rule"


class Oracle:
    """The package read with ``ast`` alone, independently of the resolver."""

    def __init__(self, repo: Path, packages: list[str]) -> None:
        self.repo, self.modules, self.packages = repo, {}, packages
        #: The skeleton type of each class scope, by id (set by python_mros).
        self.built: dict[int, type | str] = {}
        #: The classes after a class in Python's MRO of the skeleton (set by python_mros).
        self.mro_of: Callable[[Scope], list[Scope]] = lambda scope: []
        for path in sorted(p for pkg in packages for p in (repo / pkg).rglob("*.py")):
            rel = path.relative_to(repo).as_posix()
            dotted = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
            try:
                tree = ast.parse(path.read_bytes())
            except (SyntaxError, ValueError):
                continue
            scope = Scope(dotted, "", 0, [], None)
            scope.file = rel  # type: ignore[attr-defined]
            package = dotted if rel.endswith("__init__.py") else dotted.rpartition(".")[0]
            read_scope(scope, tree.body, package)
            scope.stars = [
                absolute(n, package)
                for n in tree.body  # type: ignore[attr-defined]
                if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)
            ]
            self.modules[dotted] = scope

    def lookup(self, scope: Scope, name: str, before: int | None = None, hops: int = 0) -> object:
        """What *name* is in *scope*: ('def', scope, start, end), a class Scope, a module Scope, or None."""
        if hops > 30:
            return None
        entries = [
            e for e in scope.names.get(name, []) if before is None or e[1] < before
        ] or scope.names.get(name, [])
        if not entries:
            if not scope.qual and f"{scope.module}.{name}" in self.modules:
                return self.modules[f"{scope.module}.{name}"]
            for star in reversed(getattr(scope, "stars", [])):
                if star in self.modules and not name.startswith("_"):
                    found = self.lookup(self.modules[star], name, None, hops + 1)
                    if found is not None:
                        return found
            return None
        (start, end, target), _ = definition(entries)
        chosen = next(e for e in entries if e[1:] == (start, end, target))
        if target and target.split(".")[0].split(":")[0] not in self.packages and chosen[0][6]:
            # A conditional import from outside the package yields to another branch's def, class or
            # import.
            for key, s, e, t in sorted(entries, key=lambda e: e[1]):
                if (
                    key[6]
                    and not key[0]
                    and (s, e, t) != (start, end, target)
                    and (
                        (not t and (name, s) in scope.defs)
                        or (t and t.split(".")[0].split(":")[0] in self.packages)
                    )
                ):
                    start, end, target = s, e, t
                    break
        if target:
            module, _, member = target.partition(":")
            if not member:
                return self.modules.get(module)
            if module == scope.module and not scope.qual:
                return self.modules.get(f"{module}.{member}")
            source = self.modules.get(module)
            if source is None:
                return None
            return self.lookup(source, member, None, hops + 1) or self.modules.get(
                f"{module}.{member}"
            )
        for (cname, cline), cls in scope.classes.items():
            if cname == name and cline == start:
                return cls
        return ("def", scope, start, end)

    def resolve_dotted(self, cls: Scope, dotted: str) -> object:
        """What the dotted name *dotted* is in the module of the class *cls* (a class Scope, or None)."""
        module = cls
        while module.outer is not None:
            module = module.outer
        head, *parts = dotted.split(".")
        found = self.lookup(module, head)
        for part in parts:
            if not isinstance(found, Scope):
                return None
            owners = [found, *self.mro_of(found)] if found.qual else [found]
            found = next((f for f in (self.lookup(o, part) for o in owners) if f is not None), None)
        return found if isinstance(found, Scope) and found.qual else None

    def resolve_base(self, cls: Scope, base: ast.expr) -> object:
        """A base of *cls*: its class Scope, ``object``, or a label for a base outside the package."""
        base = base.value if isinstance(base, ast.Subscript) else base
        dotted = []
        while isinstance(base, ast.Attribute):
            dotted.insert(0, base.attr)
            base = base.value
        if not isinstance(base, ast.Name):
            return "expr"
        scope = cls.outer
        found = None
        if scope is not None and scope.qual and base.id in scope.names:
            found = self.lookup(scope, base.id, cls.line)
        elif scope is not None:
            module = scope
            while module.outer is not None:
                module = module.outer
            found = self.lookup(module, base.id, cls.line)
        for part in dotted:
            if not isinstance(found, Scope):
                found = None
                break
            owners = [found, *self.mro_of(found)] if found.qual else [found]
            found = next((f for f in (self.lookup(o, part) for o in owners) if f is not None), None)
        if found is None:
            return "object" if base.id == "object" and not dotted else f"ext:{ast.unparse(base)}"
        return found if isinstance(found, Scope) and found.qual else "other"


def classes_of(scope: Scope) -> list[Scope]:
    """Every class scope in *scope*, nested ones included."""
    out = []
    for cls in scope.classes.values():
        out += [cls, *classes_of(cls)]
    return out


def python_mros(oracle: Oracle) -> dict[int, list[Scope] | str]:
    """id(class scope) -> its MRO by Python's own type(), over a skeleton of empty classes."""
    made: dict[int, type | str] = {}
    scopes = {id(c): c for m in oracle.modules.values() for c in classes_of(m)}
    externals: dict[str, type] = {}

    def make(cls: Scope, depth: int = 0) -> type | str:
        key = id(cls)
        if key in made:
            return made[key]
        if depth > 200:
            return "cycle"
        made[key] = "cycle"
        bases: list[type] = []
        for base in cls.bases:
            found = oracle.resolve_base(cls, base)
            if found == "object":
                continue
            if isinstance(found, Scope):
                built = make(found, depth + 1)
                if isinstance(built, str):
                    made[key] = built
                    return built
                bases.append(built)
            else:
                label = ast.unparse(base)
                made_base = (
                    property if label == "property" else type(f"ext:{label}", (), {})
                )  # the builtin's own
                bases.append(externals.setdefault(label, made_base))
        try:
            built = type(f"{cls.module}.{cls.qual}", tuple(bases), {_SCOPE: cls})
        except TypeError:
            built = "inconsistent"
        made[key] = built
        return built

    def mro_of(scope: Scope) -> list[Scope]:
        built = make(scope)
        return (
            []
            if isinstance(built, str)
            else [k.__dict__[_SCOPE] for k in built.__mro__[1:] if _SCOPE in k.__dict__]
        )

    oracle.mro_of = mro_of
    result: dict[int, list[Scope] | str] = {}
    for key, cls in scopes.items():
        built = make(cls)
        result[key] = (
            built
            if isinstance(built, str)
            else [k.__dict__.get(_SCOPE, k.__name__) for k in built.__mro__[:-1]]
        )
    oracle.built = made
    _fill(oracle, scopes)
    return result


_SCOPE = "__oracle_scope__"


def _fill(oracle: Oracle, scopes: dict[int, Scope]) -> None:
    """Give each skeleton class what its body binds.

    ``__set__`` where it defines ``__set__`` or ``__delete__``, then for every other name the value
    of its last class-body binding: a property, an instance of a class of the package it calls, else
    a plain object.
    """
    body = {
        key: {
            n: [e for e in entries if not e[0][0] and not e[0][2]]
            for n, entries in cls.names.items()
        }
        for key, cls in scopes.items()
    }
    for key in scopes:
        built = oracle.built.get(key)
        if isinstance(built, type) and (body[key].get("__set__") or body[key].get("__delete__")):
            built.__set__ = lambda self, instance, value: None  # type: ignore[attr-defined]
    for key, cls in scopes.items():
        built = oracle.built.get(key)
        if not isinstance(built, type):
            continue
        for name, entries in body[key].items():
            if not entries or (name.startswith("__") and name.endswith("__")):
                continue
            kind = cls.values.get((name, max(entries, key=lambda e: e[1])[1]), "")
            value: object = property() if kind == "property" else object()
            if kind.startswith("call:"):
                made = oracle.built.get(id(oracle.resolve_dotted(cls, kind[5:])))
                if isinstance(made, type):
                    with contextlib.suppress(TypeError):
                        value = made.__new__(made)
            setattr(built, name, value)


def data_owner(oracle: Oracle, cls: Scope, name: str) -> Scope | None:
    """The class of *cls*'s MRO holding a data descriptor *name* that Python finds first, or None."""
    built = oracle.built.get(id(cls))
    if not isinstance(built, type) or (name.startswith("__") and name.endswith("__")):
        return None
    try:
        found = inspect.getattr_static(built, name)
    except AttributeError:
        return None
    if not (hasattr(type(found), "__set__") or hasattr(type(found), "__delete__")):
        return None
    holder = next((k for k in built.__mro__ if name in k.__dict__), None)
    return holder.__dict__.get(_SCOPE) if holder is not None else None


def expectations(oracle: Oracle) -> list[tuple[str, str, int, int, str]]:
    """(path, file, start, end, category) for every module name, class member and inherited member."""
    out = []
    mros = python_mros(oracle)
    for dotted, module in sorted(oracle.modules.items()):
        for name in module.names:
            found = oracle.lookup(module, name)
            if isinstance(found, tuple):
                out.append((f"{dotted}.{name}", _file(found[1]), found[2], found[3], "module"))
            elif isinstance(found, Scope) and found.qual:
                out.append((f"{dotted}.{name}", _file(found), found.line, _end(found), "module"))
        for cls in classes_of(module):
            if _chosen_classes(module, cls) != [cls]:
                continue  # a class the rules do not choose (another binding of its name is the definition)
            mro = mros[id(cls)]
            own = set(cls.names)
            inherited = {
                n
                for c in (mro if isinstance(mro, list) else [])
                if isinstance(c, Scope)
                for n in c.names
            }
            for name in sorted(own | inherited):
                path = f"{dotted}.{cls.qual}.{name}"
                if isinstance(mro, str):
                    out.append((path, "", 0, 0, mro))
                    continue
                owner = _owner(mro, name)
                if owner is None:
                    continue
                if not any(
                    not e[0][0] and not e[0][2] for e in owner.names[name]
                ):  # only self.x: a property first?
                    owner = data_owner(oracle, cls, name) or owner
                (start, end, target), _ = definition(owner.names[name])
                if target:
                    continue  # an import in a class body: rare, not compared
                out.append((path, _file(owner), start, end, "own" if owner is cls else "inherited"))
    return out


def _owner(mro: list[Scope | str], name: str) -> Scope | None:
    runtime = [
        c for c in mro if isinstance(c, Scope) and any(not e[0][0] for e in c.names.get(name, []))
    ]
    if runtime:
        return runtime[0]
    declared = [c for c in mro if isinstance(c, Scope) and name in c.names]
    return declared[0] if declared else None


def _chosen_classes(module: Scope, cls: Scope) -> list[Scope]:
    """The class scopes a dotted path reaches (duplicated classes: only the one the rules choose)."""
    parts, scope = cls.qual.split("."), module
    chain = []
    for part in parts:
        entries = scope.names.get(part, [])
        if not entries:
            return [cls]
        (start, _, _), _ = definition(entries)
        nxt = scope.classes.get((part, start))
        if nxt is None:
            return []
        chain.append(nxt)
        scope = nxt
    return chain[-1:]


def _file(scope: Scope) -> str:
    while scope.outer is not None:
        scope = scope.outer
    return scope.file  # type: ignore[attr-defined,no-any-return]


def _end(cls: Scope) -> int:
    outer = cls.outer
    assert outer is not None
    return next(e[2] for e in outer.names[cls.qual.split(".")[-1]] if e[1] == cls.line)


# -- the comparison ------------------------------------------------------------------------


def run(spec: str, limit: int | None) -> dict[str, object]:
    """Compare the resolver with the oracle over one package; return the figures."""
    from source_anchors.engine.engine import Engine
    from source_anchors.model.config import settings_from
    from source_anchors.model.target import Target

    repo, commit, packages = upstream(spec)
    began = time.perf_counter()
    oracle = Oracle(repo, packages)
    cases = expectations(oracle)
    if limit:
        cases = cases[:: max(1, len(cases) // limit)][:limit]
    oracle_seconds = time.perf_counter() - began
    settings = settings_from(
        {
            "repos": {"up": {"url": repo.as_uri(), "commit": commit, "packages": packages}},
            "cache_dir": str(OUT / "cache" / spec),
        },
        confdir=OUT,
        environ={},
    )
    engine = Engine(settings)
    engine._resolutions.get = lambda *args: None  # type: ignore[method-assign]  # always resolve afresh
    rows: Counter[tuple[str, str]] = Counter()
    rules: Counter[str] = Counter()
    examples: list[dict[str, object]] = []
    began = time.perf_counter()
    for path, file, start, end, category in cases:
        outcome = engine.check(Target("up", path, None))
        loc = outcome.location
        got = (loc.path, loc.start, loc.end) if loc else None
        agreed = loc is None if category in ("inconsistent", "cycle") else got == (file, start, end)
        rows[(category, "agreed" if agreed else "disagreed")] += 1
        if loc is not None and loc.rule:
            for rule in loc.rule.split("+"):
                rules[rule] += 1
        if not agreed and len(examples) < 60:
            examples.append(
                {
                    "path": path,
                    "category": category,
                    "expected": [file, start, end],
                    "got": list(got) if got else outcome.message[:300],
                }
            )
    seconds = time.perf_counter() - began
    return {
        "package": spec,
        "anchors": len(cases),
        "agreed": sum(v for (_, a), v in rows.items() if a == "agreed"),
        "disagreed": sum(v for (_, a), v in rows.items() if a == "disagreed"),
        "by_category": {f"{c}/{a}": v for (c, a), v in sorted(rows.items())},
        "rules": dict(rules.most_common()),
        "resolver_seconds": round(seconds, 1),
        "oracle_seconds": round(oracle_seconds, 1),
        "files_parsed": engine.modules_parsed(),
        "ast_parses": engine.stats["ast_parses"],
        "examples": examples,
    }


def main(argv: list[str] | None = None) -> int:
    """Run every package, write results.json, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("packages", nargs="*", default=list(DEFAULT))
    parser.add_argument(
        "--limit", type=int, default=None, help="compare at most N anchors per package"
    )
    args = parser.parse_args(argv)
    results = [run(spec, args.limit) for spec in args.packages]
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "results.json").write_text(json.dumps(results, indent=1) + "\n", "utf-8")
    print(
        f"{'package':<22} {'anchors':>8} {'agreed':>8} {'disagreed':>9}  parses/files  rules applied"
    )
    for r in results:
        rules = ", ".join(f"{k} {v}" for k, v in r["rules"].items())  # type: ignore[attr-defined]
        print(
            f"{r['package']:<22} {r['anchors']:>8} {r['agreed']:>8} {r['disagreed']:>9}  "
            f"{r['ast_parses']}/{r['files_parsed']}  {rules}"
        )
        for key, value in r["by_category"].items():  # type: ignore[attr-defined]
            print(f"    {key:<30} {value:>8}")
    print(f"results: {(OUT / 'results.json').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
