"""Resolve a dotted path (and optional match text) to lines of a pinned tree (no Sphinx).

Modules are visited with griffe one at a time, only those a target touches
(plus their ancestor packages and the modules an alias or base class leads
to), each at most once per :class:`Resolver`. Nothing is imported or executed:
griffe's static visitor reads the text; inspection is never used.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import bindings, statements
from .config import RepoPin
from .errors import ResolveError, UpstreamFileError
from .sources import Tree
from .textlines import decode_source, split_lines

if TYPE_CHECKING:
    import griffe

#: Bump when the resolution rules change, so cached results are recomputed.
RESOLVER_VERSION = 3
_MAX_HOPS = 50
#: Whole-file syntax trees kept for the griffe path. Few on purpose: trees are large, and keeping
#: many makes the garbage collector traverse them again and again while later files are parsed.
_MAX_ASTS = 4


@dataclass(frozen=True)
class Location:
    """Where an anchor points: file, 1-based inclusive lines, and content hashes."""

    path: str
    start: int
    end: int
    kind: str
    sha256: str
    blob: str
    #: Other files the resolution read (ancestor packages, re-export hops), with their blob ids.
    uses: tuple[tuple[str, str], ...] = ()

    @property
    def whole_file(self) -> bool:
        """Whether the location is a whole module (linked without a line fragment)."""
        return self.kind == "module"

    def describe(self) -> str:
        """``path:Lstart-Lend`` (or the bare path for a module)."""
        if self.whole_file:
            return self.path
        return f"{self.path}:L{self.start}" + (f"-L{self.end}" if self.end != self.start else "")


def lines_hash(lines: list[str], start: int, end: int) -> str:
    """sha256 of lines *start*..*end* joined with newlines, no trailing newline."""
    return hashlib.sha256("\n".join(lines[start - 1:end]).encode("utf-8")).hexdigest()


class Resolver:
    """Resolves targets in one pinned tree, visiting each needed module once."""

    def __init__(self, tree: Tree, pin: RepoPin, *, max_file_bytes: int,
                 on_read: Callable[[str], None] | None = None) -> None:
        self.tree = tree
        self.pin = pin
        self.max_file_bytes = max_file_bytes
        self.on_read = on_read
        #: Whether to try the ast fast path before griffe (off only to compare the two in tests).
        self.fast = True
        self._parsed: set[str] = set()
        self._indexes: dict[str, dict[str, list[bindings.Binding]]] = {}
        self._packages = pin.package_dirs()
        self._modules: dict[str, griffe.Module | None] = {}
        self._module_file: dict[str, str] = {}
        self._failures: dict[str, UpstreamFileError] = {}
        self._lines: dict[str, list[str]] = {}
        self._texts: dict[str, str] = {}
        self._touched: set[str] = set()
        self._asts: dict[str, ast.Module] = {}
        self._collections: tuple[griffe.ModulesCollection, griffe.LinesCollection] | None = None

    # -- public -------------------------------------------------------------

    def resolve(self, path: str, match: str | None = None) -> Location:
        """Resolve dotted *path*, narrowed to the statement holding *match* if given."""
        self._touched = set()
        fast = self._fast(path) if self.fast else None
        if fast is not None:
            file, start, end, kind = fast
        else:
            obj = self._object(path, hops=0)
            file = self._file_of(obj)
            if obj.is_module:
                start, end, kind = 1, max(len(self._lines[file]), 1), "module"
            else:
                start, end = self._span(obj, file)
                kind = obj.kind.value
        lines = self._lines[file]
        if match is not None:
            start, end = self._narrow(file, start, end, match, path)
            kind = "statement"
        uses = tuple(sorted((used, self.tree.blobs[used]) for used in self._touched - {file}))
        return Location(path=file, start=start, end=end, kind=kind,
                        sha256=lines_hash(lines, start, end), blob=self.tree.blobs[file], uses=uses)

    @property
    def modules_parsed(self) -> int:
        """Upstream modules parsed so far, by griffe or by the fast path (a measure for benchmarks)."""
        return len(self._parsed)

    def _fast(self, path: str) -> tuple[str, int, int, str] | None:
        """(file, start, end, kind) when *path* is bound once, plainly, in its module; else None."""
        parts = path.split(".")
        if parts[0] not in self._packages:
            return None
        file, rest = None, parts
        for cut in range(1, len(parts) + 1):
            candidate = self._module_path(".".join(parts[:cut]))
            if candidate is None:
                break
            file, rest = candidate, parts[cut:]
        if file is None:
            return None
        try:
            index = self._bindings(file)  # a module anchor, too, must be a module that parses
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None  # griffe's path reports the file's problem in its own words
        if not rest:
            self._touched.add(file)
            return file, 1, max(len(self.file_lines(file)), 1), "module"
        found = bindings.unique(index, ".".join(rest))
        if found is None:
            return None
        self._touched.add(file)
        return file, found[1], found[2], found[0]

    def _bindings(self, file: str) -> dict[str, list[bindings.Binding]]:
        if file not in self._indexes:
            self.file_lines(file)
            tree = ast.parse(self._texts[file])  # not kept: the index is all the fast path needs
            self._parsed.add(file)
            self._indexes[file] = bindings.index(tree)
        return self._indexes[file]

    def file_lines(self, path: str) -> list[str]:
        """The text lines of an exported file (read and checked once)."""
        if path not in self._lines:
            self._texts[path] = self._text(path)
            self._lines[path] = split_lines(self._texts[path])
        return self._lines[path]

    # -- objects ------------------------------------------------------------

    def _object(self, path: str, *, hops: int) -> griffe.Object:
        if hops > _MAX_HOPS:
            raise ResolveError(f"{path}: aliases or bases form a cycle")
        parts = path.split(".")
        if parts[0] not in self._packages:
            raise ResolveError(
                f"{path}: {parts[0]!r} is not a package of {self.pin.name} "
                f"(packages: {', '.join(sorted(self._packages))})",
                closest=tuple(difflib.get_close_matches(parts[0], self._packages)))
        obj: griffe.Object = self._module(parts[0], path)
        for index, name in enumerate(parts[1:], start=1):
            obj = self._member(obj, name, ".".join(parts[:index]), hops=hops)
        return obj

    def _member(self, obj: griffe.Object, name: str, where: str, *, hops: int) -> griffe.Object:
        if obj.is_module:
            sub = self._submodule(obj, name)
            if sub is not None:
                return sub
        found = obj.members.get(name) if (obj.is_module or obj.is_class) else None
        if found is not None:
            if found.is_alias:
                return self._object(found.target_path, hops=hops + 1)  # type: ignore[union-attr]
            return found  # type: ignore[return-value]
        found = self._in_fallbacks(obj, name, seen={obj.path})
        if found is not None:
            return found
        names = self._known_names(obj, seen=set())
        close = tuple(f"{where}.{n}" for n in difflib.get_close_matches(name, sorted(names), n=3))
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise ResolveError(f"{where} has no member {name!r}{hint}", closest=close)

    def _in_fallbacks(self, obj: griffe.Object, name: str, *, seen: set[str]) -> griffe.Object | None:
        """*name* as a direct member of *obj*'s bases or star-imported modules, breadth first.

        Each container is visited once, so bases or star imports that name each
        other end the search instead of looping.
        """
        queue = [obj]
        while queue:
            for container in self._fallbacks(queue.pop(0)):
                if container.path in seen:
                    continue
                seen.add(container.path)
                member = container.members.get(name)
                if container.is_module and member is None:
                    sub = self._submodule(container, name)
                    if sub is not None:
                        return sub
                if member is not None and "/" not in name:
                    return self._object(member.target_path, hops=1) if member.is_alias else member  # type: ignore[union-attr,return-value]
                queue.append(container)
        return None

    def _known_names(self, obj: griffe.Object, *, seen: set[str]) -> set[str]:
        """Names reachable in *obj*: its members, submodules, and those of its fallbacks."""
        seen.add(obj.path)
        names = {n for n in obj.members if "/" not in n} if (obj.is_module or obj.is_class) else set()
        if obj.is_module:
            names |= self._submodule_names(obj)
        for container in self._fallbacks(obj):
            if container.path not in seen:
                names |= self._known_names(container, seen=seen)
        return names

    def _fallbacks(self, obj: griffe.Object) -> list[griffe.Object]:
        """Where a name not found in *obj* may live: base classes, or star-imported modules."""
        import griffe

        found: list[griffe.Object] = []
        if isinstance(obj, griffe.Class):
            paths = [getattr(base, "canonical_path", str(base)) for base in obj.bases]
        elif obj.is_module:
            paths = [str(member.wildcard) for member in obj.members.values()
                     if isinstance(member, griffe.Alias) and member.wildcard]
        else:
            paths = []
        for path in paths:
            try:
                target = self._object(path, hops=1)
            except (ResolveError, UpstreamFileError):
                continue
            if target.is_class or target.is_module:
                found.append(target)
        return found

    def _submodule(self, module: griffe.Object, name: str) -> griffe.Module | None:
        dotted = f"{module.path}.{name}"
        if dotted in self._modules or self._module_path(dotted) is not None:
            return self._module(dotted, dotted)
        return None

    def _submodule_names(self, module: griffe.Object) -> set[str]:
        base = self._module_file.get(module.path, "")
        if not base.endswith("/__init__.py"):
            return set()
        folder = base[: -len("__init__.py")]
        names = set()
        for path in self.tree.blobs:
            if path.startswith(folder):
                rest = path[len(folder):]
                if "/" not in rest and rest.endswith(".py") and rest != "__init__.py":
                    names.add(rest.removesuffix(".py"))
                elif rest.count("/") == 1 and rest.endswith("/__init__.py"):
                    names.add(rest.split("/", 1)[0])  # a subpackage; folders without __init__ are not modules
        return names

    def _module_path(self, dotted: str) -> str | None:
        parts = dotted.split(".")
        base = "/".join([self._packages[parts[0]], *parts[1:]])
        for candidate in (f"{base}/__init__.py", f"{base}.py"):
            if self.tree.has(candidate):
                return candidate
        return None

    def _module(self, dotted: str, asked: str) -> griffe.Module:
        if dotted in self._failures:
            raise self._failures[dotted]
        cached = self._modules.get(dotted)
        if cached is not None:
            self._touched.add(self._module_file[dotted])
            return cached
        file = self._module_path(dotted)
        if file is None:
            raise ResolveError(f"{asked}: no module file for {dotted} in {self.pin.name}")
        parts = dotted.split(".")
        parent = self._module(".".join(parts[:-1]), asked) if len(parts) > 1 else None
        import griffe  # imported on first use: a build answered by the caches never needs it

        if self._collections is None:
            self._collections = (griffe.ModulesCollection(), griffe.LinesCollection())
        try:
            self.file_lines(file)
            code = self._texts[file]
            module = griffe.visit(parts[-1], filepath=self.tree.root / file, code=code, parent=parent,
                                  modules_collection=self._collections[0],
                                  lines_collection=self._collections[1])
        except UpstreamFileError as error:
            self._failures[dotted] = error
            raise
        except SyntaxError as error:
            where = f" at line {error.lineno}" if error.lineno else ""  # a NUL byte has no line
            failure = UpstreamFileError(f"{file}: syntax error{where}: {error.msg}")
            self._failures[dotted] = failure
            raise failure from error
        except (RecursionError, MemoryError, ValueError) as error:
            failure = UpstreamFileError(f"{file}: cannot be parsed ({type(error).__name__})")
            self._failures[dotted] = failure
            raise failure from error
        self._parsed.add(file)
        if parent is None:
            self._collections[0].set_member(dotted, module)
        else:
            parent.set_member(parts[-1], module)
        self._modules[dotted] = module
        self._module_file[dotted] = file
        self._touched.add(file)
        return module

    # -- lines --------------------------------------------------------------

    def _text(self, path: str) -> str:
        data = self.tree.read_bytes(path, max_bytes=self.max_file_bytes)
        if self.on_read is not None:
            self.on_read(path)
        try:
            return decode_source(data)
        except UnicodeDecodeError as error:
            name = "UTF-8" if error.encoding.replace("_", "-").lower().startswith("utf-8") else error.encoding
            raise UpstreamFileError(f"{path}: not valid {name} (byte {error.start}); not parsed") from error

    def _file_of(self, obj: griffe.Object) -> str:
        module = obj if obj.is_module else obj.module
        return self._module_file[module.path]

    def _ast(self, file: str) -> ast.Module:
        tree = self._asts.pop(file, None)
        if tree is None:
            tree = ast.parse(self._texts[file])
            self._parsed.add(file)
        self._asts[file] = tree  # most recently used last
        while len(self._asts) > _MAX_ASTS:  # syntax trees are large; keep the recent ones
            self._asts.pop(next(iter(self._asts)))
        return tree

    def _region_ast(self, file: str, start: int, end: int) -> ast.Module:
        """A syntax tree holding the statement at lines *start*..*end*, with the file's line numbers.

        Only those lines are parsed (a statement anchor needs the tree of its symbol, not of its
        module); blank lines keep the numbering and an ``if 1:`` line carries an indented statement.
        The whole file is parsed when the lines are the whole file or do not parse on their own.
        """
        lines = self._lines[file]
        if start <= 1 and end >= len(lines):
            return self._ast(file)
        first = lines[start - 1]
        body = "\n".join(lines[start - 1:end])
        if first[:1] in (" ", "\t") and start > 1:
            source = "\n" * (start - 2) + "if 1:\n" + body
        else:
            source = "\n" * (start - 1) + body
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return self._ast(file)

    def _span(self, obj: griffe.Object, file: str) -> tuple[int, int]:
        start, end = obj.lineno or 1, obj.endlineno or obj.lineno or 1
        if obj.is_function or obj.is_class or "property" in getattr(obj, "labels", ()):
            # griffe drops a property's decorators; the ast gives the definition back.
            for node in ast.walk(self._ast(file)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                        and node.name == obj.name and node.end_lineno == end \
                        and start in (node.lineno, statements.node_span(node)[0]):
                    return statements.node_span(node)
        return start, end

    def _narrow(self, file: str, start: int, end: int, match: str, path: str) -> tuple[int, int]:
        lines = self._lines[file]
        hits = [n for n in range(start, min(end, len(lines)) + 1) if match in lines[n - 1]]
        where = f"{file}:L{start}-L{end}"
        if not hits:
            raise ResolveError(f"{path}: match text {match!r} occurs on no line of {where}")
        if len(hits) > 1:
            shown = ", ".join(str(n) for n in hits[:10]) + (", …" if len(hits) > 10 else "")
            raise ResolveError(f"{path}: match text {match!r} occurs on {len(hits)} lines of {where} "
                               f"(lines {shown}); give text found on exactly one line")
        span = statements.statement_span(self._region_ast(file, start, end), hits[0], lines)
        if span is None:
            return hits[0], hits[0]
        return span

