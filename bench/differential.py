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
  the oracle, one fresh class per base outside the package), so C3 is Python's.

Nothing upstream is imported or executed. Results go to ``_build/differential/results.json``;
a table (agreed / disagreed / by rule, per package) is printed.
"""

from __future__ import annotations

import argparse
import ast
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
_GIT = {"GIT_AUTHOR_NAME": "d", "GIT_AUTHOR_EMAIL": "d@example.invalid", "GIT_COMMITTER_NAME": "d",
        "GIT_COMMITTER_EMAIL": "d@example.invalid", "GIT_AUTHOR_DATE": "2025-01-01T00:00:00Z",
        "GIT_COMMITTER_DATE": "2025-01-01T00:00:00Z"}
_ACCESSORS = ("setter", "deleter", "getter")
_TYPING_TESTS = ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def git(*args: str, cwd: Path) -> str:
    """Run git in *cwd* with a fixed identity and dates; return stdout."""
    import os

    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={**os.environ, **_GIT}).stdout


def upstream(spec: str) -> tuple[Path, str, list[str]]:
    """(repository, commit, top-level packages) of the unpacked wheel of *spec*, made once."""
    name = spec.split("==")[0].lower()
    repo = OUT / "repos" / spec
    if not (repo / ".git").exists():
        download = OUT / "download"
        download.mkdir(parents=True, exist_ok=True)
        wheels = [w for w in download.glob("*.whl") if w.name.lower().startswith(f"{name}-{spec.split('==')[1]}-")]
        if not wheels:
            subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
                            "--disable-pip-version-check", "-d", str(download), spec], check=True)
            wheels = [w for w in download.glob("*.whl")
                      if w.name.lower().startswith(f"{name}-{spec.split('==')[1]}-")]
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

    def __init__(self, module: str, qual: str, line: int, bases: list[ast.expr], outer: Scope | None) -> None:
        self.module, self.qual, self.line, self.bases, self.outer = module, qual, line, bases, outer
        self.names: dict[str, list[tuple[tuple[int, ...], int, int, str]]] = {}
        self.classes: dict[tuple[str, int], Scope] = {}

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


def read_scope(scope: Scope, body: list[ast.stmt], package: str, typing: int = 0, cond: int = 0) -> None:
    """Record every binding of *body* in *scope*; key = (typing, aug, instance, overload, accessor, cond)."""
    for node in body:
        start, end = span(node)
        key = (typing, 0, 0, 0, 0, cond)
        if isinstance(node, ast.ClassDef):
            scope.bind(node.name, key, start, end)
            inner = Scope(scope.module, f"{scope.qual}.{node.name}".lstrip("."), start, node.bases, scope)
            scope.classes[(node.name, start)] = inner
            read_scope(inner, node.body, package)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names = decorator_names(node)
            overload = any(n.split(".")[-1] == "overload" for n in names)
            accessor = any("." in n and n.split(".")[-1] in _ACCESSORS for n in names)
            scope.bind(node.name, (typing, 0, 0, int(overload), int(accessor), cond), start, end)
            if scope.qual and (node.args.posonlyargs or node.args.args):
                me = (node.args.posonlyargs or node.args.args)[0].arg
                for sub in own_statements(node.body):
                    if isinstance(sub, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                        for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target]):
                            for leaf in targets(t):
                                if isinstance(leaf, ast.Attribute) and isinstance(leaf.value, ast.Name) \
                                        and leaf.value.id == me:
                                    init = 0 if node.name == "__init__" else 1
                                    scope.bind(leaf.attr, (0, int(isinstance(sub, ast.AugAssign)), 1, 0, 0, init,
                                                           sub.lineno), sub.lineno, sub.end_lineno or sub.lineno)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            aug = int(isinstance(node, ast.AugAssign))
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                for leaf in targets(t):
                    if isinstance(leaf, ast.Name):
                        scope.bind(leaf.id, (typing, aug, 0, 0, 0, cond), start, end)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.split(".")[0]
                scope.bind(local, key, start, end, alias.name if alias.asname else local)
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node, package)
            for alias in node.names:
                if alias.name != "*" and base is not None:
                    scope.bind(alias.asname or alias.name, key, start, end, f"{base}:{alias.name}")
        elif isinstance(node, ast.If) and ast.unparse(node.test).removeprefix("not ") in _TYPING_TESTS:
            negated = ast.unparse(node.test).startswith("not ")
            read_scope(scope, node.body, package, 0 if negated else 1, 1)
            read_scope(scope, node.orelse, package, 1 if negated else 0, 1)
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
    parts = parts[:len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


def definition(entries: list[tuple[tuple[int, ...], int, int, str]]) -> tuple[tuple[int, int, str], str]:
    """The oracle's choice among a name's bindings (the rules as one sort key), and a rule label."""
    if len(entries) == 1:
        return entries[0][1:], ""
    entries = sorted(entries, key=lambda e: e[1])  # source order
    best = min(entry[0][:5] for entry in entries)
    left = [e for e in entries if e[0][:5] == best]
    if best[2]:  # instance attributes only: __init__ first, then source order
        return min(left, key=lambda e: (e[0][5], e[0][6]))[1:], "instance"
    if best[3]:  # overload stubs only
        return left[0][1:], "overload"
    plain = [e for e in left if not e[0][5]]
    return (plain[-1] if plain else left[0])[1:], "rule"


class Oracle:
    """The package read with ``ast`` alone, independently of the resolver."""

    def __init__(self, repo: Path, packages: list[str]) -> None:
        self.repo, self.modules = repo, {}
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
            scope.stars = [absolute(n, package) for n in tree.body  # type: ignore[attr-defined]
                           if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)]
            self.modules[dotted] = scope

    def lookup(self, scope: Scope, name: str, before: int | None = None, hops: int = 0) -> object:
        """What *name* is in *scope*: ('def', scope, start, end), a class Scope, a module Scope, or None."""
        if hops > 30:
            return None
        entries = [e for e in scope.names.get(name, []) if before is None or e[1] < before] \
            or scope.names.get(name, [])
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
        if target:
            module, _, member = target.partition(":")
            if not member:
                return self.modules.get(module)
            if module == scope.module and not scope.qual:
                return self.modules.get(f"{module}.{member}")
            source = self.modules.get(module)
            if source is None:
                return None
            return self.lookup(source, member, None, hops + 1) or self.modules.get(f"{module}.{member}")
        for (cname, cline), cls in scope.classes.items():
            if cname == name and cline == start:
                return cls
        return ("def", scope, start, end)

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
                bases.append(externals.setdefault(label, type(f"ext:{label}", (), {})))
        try:
            built = type(f"{cls.module}.{cls.qual}", tuple(bases), {"scope": cls})
        except TypeError:
            built = "inconsistent"
        made[key] = built
        return built

    def mro_of(scope: Scope) -> list[Scope]:
        built = make(scope)
        return [] if isinstance(built, str) else [k.__dict__["scope"] for k in built.__mro__[1:]
                                                   if "scope" in k.__dict__]

    oracle.mro_of = mro_of
    result: dict[int, list[Scope] | str] = {}
    for key, cls in scopes.items():
        built = make(cls)
        result[key] = built if isinstance(built, str) else [
            k.__dict__.get("scope", k.__name__) for k in built.__mro__[:-1]]
    return result


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
            inherited = {n for c in (mro if isinstance(mro, list) else []) if isinstance(c, Scope) for n in c.names}
            for name in sorted(own | inherited):
                path = f"{dotted}.{cls.qual}.{name}"
                if isinstance(mro, str):
                    out.append((path, "", 0, 0, mro))
                    continue
                owner = _owner(mro, name)
                if owner is None:
                    continue
                (start, end, target), _ = definition(owner.names[name])
                if target:
                    continue  # an import in a class body: rare, not compared
                out.append((path, _file(owner), start, end, "own" if owner is cls else "inherited"))
    return out


def _owner(mro: list[Scope | str], name: str) -> Scope | None:
    runtime = [c for c in mro if isinstance(c, Scope) and any(not e[0][0] for e in c.names.get(name, []))]
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
        cases = cases[::max(1, len(cases) // limit)][:limit]
    oracle_seconds = time.perf_counter() - began
    settings = settings_from({"repos": {"up": {"url": repo.as_uri(), "commit": commit, "packages": packages}},
                              "cache_dir": str(OUT / "cache" / spec)}, confdir=OUT, environ={})
    engine = Engine(settings)
    engine.resolutions.get = lambda *args: None  # type: ignore[method-assign]  # always resolve afresh
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
            examples.append({"path": path, "category": category, "expected": [file, start, end],
                             "got": list(got) if got else outcome.message[:300]})
    seconds = time.perf_counter() - began
    return {"package": spec, "anchors": len(cases), "agreed": sum(v for (_, a), v in rows.items() if a == "agreed"),
            "disagreed": sum(v for (_, a), v in rows.items() if a == "disagreed"),
            "by_category": {f"{c}/{a}": v for (c, a), v in sorted(rows.items())}, "rules": dict(rules.most_common()),
            "resolver_seconds": round(seconds, 1), "oracle_seconds": round(oracle_seconds, 1),
            "files_parsed": engine.modules_parsed(), "ast_parses": engine.stats["ast_parses"],
            "examples": examples}


def main(argv: list[str] | None = None) -> int:
    """Run every package, write results.json, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("packages", nargs="*", default=list(DEFAULT))
    parser.add_argument("--limit", type=int, default=None, help="compare at most N anchors per package")
    args = parser.parse_args(argv)
    results = [run(spec, args.limit) for spec in args.packages]
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "results.json").write_text(json.dumps(results, indent=1) + "\n", "utf-8")
    print(f"{'package':<22} {'anchors':>8} {'agreed':>8} {'disagreed':>9}  parses/files  rules applied")
    for r in results:
        rules = ", ".join(f"{k} {v}" for k, v in r["rules"].items())  # type: ignore[attr-defined]
        print(f"{r['package']:<22} {r['anchors']:>8} {r['agreed']:>8} {r['disagreed']:>9}  "
              f"{r['ast_parses']}/{r['files_parsed']}  {rules}")
        for key, value in r["by_category"].items():  # type: ignore[attr-defined]
            print(f"    {key:<30} {value:>8}")
    print(f"results: {(OUT / 'results.json').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
