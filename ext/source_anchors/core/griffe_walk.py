"""Walk griffe's static model of the pinned packages: names to objects (no Sphinx).

Modules are visited with griffe one at a time, only those a target touches (plus their
ancestor packages and the modules an alias or base class leads to), each at most once.
Nothing is imported or executed: griffe's static visitor reads the text; inspection is
never used. This is the resolver's slow path, for every name the ast fast path leaves.
"""

from __future__ import annotations

import ast
import difflib
from typing import TYPE_CHECKING

from . import statements
from .config import RepoPin
from .errors import ResolveError, UpstreamFileError
from .files import SourceFiles

if TYPE_CHECKING:
    import griffe

_MAX_HOPS = 50


class GriffeWalker:
    """Objects of one pinned tree's packages, by dotted path, through griffe's static visitor."""

    def __init__(self, files: SourceFiles, pin: RepoPin) -> None:
        self.files = files
        self.pin = pin
        self._packages = files.packages
        self._modules: dict[str, griffe.Module | None] = {}
        self._module_file: dict[str, str] = {}
        self._failures: dict[str, UpstreamFileError] = {}
        self._collections: tuple[griffe.ModulesCollection, griffe.LinesCollection] | None = None

    def object(self, path: str, *, hops: int = 0) -> griffe.Object:
        """The object at dotted *path*, following aliases (at most ``_MAX_HOPS`` of them)."""
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
                return self.object(found.target_path, hops=hops + 1)  # type: ignore[union-attr]
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
                    return self.object(member.target_path, hops=1) if member.is_alias else member  # type: ignore[union-attr,return-value]
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
                target = self.object(path, hops=1)
            except (ResolveError, UpstreamFileError):
                continue
            if target.is_class or target.is_module:
                found.append(target)
        return found

    def _submodule(self, module: griffe.Object, name: str) -> griffe.Module | None:
        dotted = f"{module.path}.{name}"
        if dotted in self._modules or self.files.module_file(dotted) is not None:
            return self._module(dotted, dotted)
        return None

    def _submodule_names(self, module: griffe.Object) -> set[str]:
        return self.files.submodule_names(self._module_file.get(module.path, ""))

    def _module(self, dotted: str, asked: str) -> griffe.Module:
        if dotted in self._failures:
            raise self._failures[dotted]
        cached = self._modules.get(dotted)
        if cached is not None:
            self.files.touched.add(self._module_file[dotted])
            return cached
        file = self.files.module_file(dotted)
        if file is None:
            raise ResolveError(f"{asked}: no module file for {dotted} in {self.pin.name}")
        parts = dotted.split(".")
        parent = self._module(".".join(parts[:-1]), asked) if len(parts) > 1 else None
        import griffe  # imported on first use: a build answered by the caches never needs it

        if self._collections is None:
            self._collections = (griffe.ModulesCollection(), griffe.LinesCollection())
        try:
            code = self.files.text(file)
            module = griffe.visit(parts[-1], filepath=self.files.tree.root / file, code=code, parent=parent,
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
        self.files.parsed.add(file)
        if parent is None:
            self._collections[0].set_member(dotted, module)
        else:
            parent.set_member(parts[-1], module)
        self._modules[dotted] = module
        self._module_file[dotted] = file
        self.files.touched.add(file)
        return module

    def file_of(self, obj: griffe.Object) -> str:
        """The file that defines *obj* (its module's file)."""
        module = obj if obj.is_module else obj.module
        return self._module_file[module.path]

    def span(self, obj: griffe.Object, file: str) -> tuple[int, int]:
        """The lines of *obj* in *file*, from its first decorator for a definition."""
        start, end = obj.lineno or 1, obj.endlineno or obj.lineno or 1
        if obj.is_function or obj.is_class or "property" in getattr(obj, "labels", ()):
            # griffe drops a property's decorators; the ast gives the definition back.
            for node in ast.walk(self.files.parse(file)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                        and node.name == obj.name and node.end_lineno == end \
                        and start in (node.lineno, statements.node_span(node)[0]):
                    return statements.node_span(node)
        return start, end
