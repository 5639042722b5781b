"""Walk dotted paths through the module indexes of one pinned tree (no Sphinx, nothing imported).

A path is read part by part: a module's member is its binding in the module body
(followed through imports and star imports), a class's member is looked up in Python's
method resolution order, computed here by C3 linearisation of the bases as written
(:mod:`source_anchors.reading.mro`). Where a name is bound more than once,
:func:`source_anchors.reading.rules.choose` picks the definition. Each module's file is indexed once
(:meth:`source_anchors.reading.files.SourceFiles.index`).
"""

from __future__ import annotations

import builtins
import difflib
from collections.abc import Callable

from ..model.config import RepoPin
from ..model.errors import ResolveError, UpstreamFileError
from ..reading.files import SourceFiles, is_namespace, may_bind
from ..reading.modindex import ModuleIndex
from ..reading.mro import InconsistentError, merge
from ..reading.rules import ABSENT, COND, DEAD, Bind, choose
from .descriptors import notes
from .environment import decided
from .members import class_member, fallback, join
from .missing import no_member
from .refs import Entry, OutsideError, Ref

_MAX_HOPS = 50


class Walker:
    """Resolves dotted paths in one pinned tree's packages to modules and bindings."""

    def __init__(self, files: SourceFiles, pin: RepoPin, *, found: Callable[[str], bool] | None = None) -> None:
        self.files = files
        self.pin = pin
        #: For API links: whether a top-level module is found in the build's environment
        #: (:mod:`.environment`); None for anchors, whose branches keep the rules for branches.
        self.found = found
        self._decided: dict[str, ModuleIndex] = {}
        self._packages = files.packages
        self.bases = Bases(self)
        #: Above 0 while closest names are tried (see :func:`probe`).
        self._probing = 0

    def object(self, path: str, *, hops: int = 0) -> Ref:
        """The module or binding at dotted *path* (aliases followed, at most ``_MAX_HOPS`` of them)."""
        if hops > _MAX_HOPS:
            raise ResolveError(f"{path}: aliases or bases form a cycle")
        parts = path.split(".")
        return self._walk(self.module(parts[0], path), parts[1:], parts[0], hops)

    def module(self, dotted: str, asked: str) -> Ref:
        """The module *dotted* (not yet parsed)."""
        head = dotted.split(".")[0]
        if head not in self._packages:
            raise OutsideError(
                f"{asked}: {head!r} is not a package of {self.pin.name} "
                f"(packages: {', '.join(sorted(self._packages))})", target=asked,
                closest=tuple(difflib.get_close_matches(head, self._packages)))
        file = self.files.module_file(dotted)
        if file is None:
            raise ResolveError(f"{asked}: no module file for {dotted} in {self.pin.name}")
        return Ref(dotted, file)

    def index(self, ref: Ref) -> ModuleIndex:
        """The index of *ref*'s module (its import-availability branches decided, for API links)."""
        index = self.files.index(ref.file, ref.module)
        if self.found is None or not index.optional:
            return index
        if ref.file not in self._decided:
            self._decided[ref.file] = decided(index, self._packages, self.found)
        return self._decided[ref.file]

    # -- members ---------------------------------------------------------------

    def _walk(self, ref: Ref, parts: list[str], where: str, hops: int) -> Ref:
        if not parts:
            return ref
        name, rest = parts[0], parts[1:]
        here = f"{where}.{name}"
        if ref.bind is None and is_namespace(ref.file):
            found = self._module_member(ref, name, hops, seen=set())
        elif ref.bind is None:
            sub = self.files.module_file(f"{ref.module}.{name}")
            submodule = Ref(f"{ref.module}.{name}", sub) if sub is not None else None
            binds = submodule is None or may_bind(self.files, ref.file, name)
            try:
                found = self._module_member(ref, name, hops, seen=set()) if binds else None
            except ResolveError as error:
                if submodule is None or not rest:
                    raise
                # The member cannot be followed (it leaves the pinned packages): a longer path goes on
                # in the submodule, as importing the dotted path would (``pkgutil.resolve_name``).
                try:
                    return self._walk(submodule, rest, here, hops)
                except ResolveError:
                    raise error from None
            if found is not None and submodule is not None and found.bind is not None:
                if rest:
                    try:
                        return self._walk(found, rest, here, hops)
                    except ResolveError:
                        return self._walk(submodule, rest, here, hops)
                found = found._replace(rule=join(found.rule, "member-over-submodule"),
                                caveat=join(found.caveat, f"the submodule {sub} has the same name", "; "))
            found = found or submodule
        elif ref.is_class:
            found = self._class_member(ref, name, hops)
        else:
            found = None
        if found is None:
            raise no_member(self, ref, name, where)
        return self._walk(found, rest, here, hops)

    def _module_member(self, ref: Ref, name: str, hops: int, *, seen: set[str]) -> Ref | None:
        seen.add(ref.module)
        if is_namespace(ref.file):  # a namespace package binds nothing of its own: only its submodules
            sub = self.files.module_file(f"{ref.module}.{name}")
            return Ref(f"{ref.module}.{name}", sub) if sub is not None else None
        index = self.index(ref)
        binds = [b for b in index.bindings.get(name, ()) if b.owner == 0]
        if binds and not all(b.flags & (DEAD | ABSENT) for b in binds):  # bound only where nothing runs: not bound
            return self._chosen(ref, name, binds, hops)
        for star in reversed(index.stars):
            if star in seen:
                continue
            try:
                module = self.module(star, star)
                if is_namespace(module.file):
                    continue  # what it binds is the submodules imported so far: not read statically
                exports = self.files.exports(module.file, module.module, name)  # often without a whole parse
                listed = exports is not None and name in exports.names
                # Without __all__, or with one not read statically in full, a star binds the public names.
                if not listed and (name.startswith("_") or (exports is not None and exports.complete)):
                    continue
                self.index(module)  # a star module that does not parse is passed over
            except (ResolveError, UpstreamFileError):
                continue
            found = self._module_member(module, name, hops + 1, seen=seen)
            sub = self.files.module_file(f"{star}.{name}")
            if found is None and sub is not None and listed:  # __all__ lists a submodule: the star imports it
                found = Ref(f"{star}.{name}", sub)
            if found is not None and exports is not None and not listed:
                found = found._replace(caveat=join(found.caveat, f"{star}.__all__ is not read statically in "
                                                    f"full: taken to hold the public name {name!r}", "; "))
            if found is not None:
                return found
        return None

    def _class_member(self, ref: Ref, name: str, hops: int) -> Ref | None:
        """*name* as Python finds it on the class *ref* or its instances (:func:`.members.class_member`)."""
        return class_member(self, ref, name, hops)

    def _chosen(self, container: Ref, qual: str, binds: list[Bind], hops: int) -> Ref:
        """The definition among *binds* of *qual*, an import followed to what it imports."""
        bind, rule, others = choose(binds)
        said = notes(self.index(container), bind, others) if len(binds) > 1 else []
        if said and not {"static-condition", "import-availability"} & set(rule.split("+")):
            rule = join("static-condition", rule)
        if bind.kind != "alias":
            return Ref(container.module, container.file, qual, bind, rule, tuple((b.start, b.end) for b in others),
                       "; ".join(said))
        if not bind.flags & COND:
            return self._follow(container, qual, bind, hops)
        try:  # a fallback (try: from other import x / except ImportError: def x)?
            return self._follow(container, qual, bind, hops)
        except OutsideError as error:
            found = fallback(self, container, qual, (bind, rule, others), error, hops)
            if found is None:
                raise
            return found

    def _follow(self, container: Ref, qual: str, bind: Bind, hops: int) -> Ref:
        """What the import *bind* of *qual* imports."""
        if hops + 1 > _MAX_HOPS:
            raise ResolveError(f"{container.module}.{qual}: aliases or bases form a cycle")
        module, _, member = bind.target.partition(":")
        if not member:  # 'import a.b as c' binds the module a.b, whatever a binds
            try:
                return self.module(module, module)
            except OutsideError:
                raise
            except ResolveError:
                return self.object(module, hops=hops + 1)
        if module == container.module and not container.qual:  # 'from . import x' in a package: the submodule
            sub = self.files.module_file(f"{module}.{member}")
            if sub is None:
                raise no_member(self, container, member, module)
            return Ref(f"{module}.{member}", sub)
        source = self.module(module, f"{module}.{member}")
        found = self._module_member(source, member, hops + 1, seen=set())
        if found is not None:
            return found
        sub = self.files.module_file(f"{module}.{member}")
        if sub is None:
            raise no_member(self, source, member, module)
        return Ref(f"{module}.{member}", sub)

    def mro(self, cls: Ref, hops: int = 0) -> tuple[Entry, ...]:
        """*cls* and its bases in C3 order; bases not read statically are entries of text."""
        return self.bases.mro(cls, hops)

class Bases:
    """The method resolution orders of a walker's classes, each computed once (with the files it read)."""

    def __init__(self, walker: Walker) -> None:
        self.walker = walker
        self._mros: dict[tuple[str, int], tuple[Entry, ...]] = {}
        self._mro_files: dict[tuple[str, int], frozenset[str]] = {}
        self._busy: set[tuple[str, int]] = set()

    def mro(self, cls: Ref, hops: int = 0) -> tuple[Entry, ...]:
        """*cls* and its bases in C3 order; bases not read statically are entries of text."""
        key = cls.key
        if key in self._mros:
            self.walker.files.touched |= self._mro_files[key]  # the same files as when it was computed
            return self._mros[key]
        name = f"{cls.module}.{cls.qual}"
        if key in self._busy or hops > _MAX_HOPS:
            raise ResolveError(f"{name}: its bases form a cycle")
        self._busy.add(key)
        outer, self.walker.files.touched = self.walker.files.touched, set()
        try:
            assert cls.bind is not None
            info = self.walker.index(cls).classes[cls.bind.start]
            direct = [base for base in (self._base(cls, text, info.owner, hops) for text in info.bases)
                      if base is not None]
            try:
                merged = merge([list(self.mro(b, hops + 1)) if isinstance(b, Ref) else [b] for b in direct]
                               + [direct], key=_entry_key)
            except InconsistentError as error:
                raise ResolveError(f"{name}: its bases ({', '.join(info.bases)}) have no consistent method "
                                   f"resolution order (C3 cannot order {error})") from None
        finally:
            self._busy.discard(key)
            used, self.walker.files.touched = self.walker.files.touched, outer | self.walker.files.touched
        result: tuple[Entry, ...] = (cls, *merged)
        self._mros[key], self._mro_files[key] = result, frozenset(used)
        return result

    def _base(self, cls: Ref, text: str, owner: int, hops: int) -> Entry | None:
        """A base as written, resolved in the scope of the class statement (None for ``object``)."""
        if text.startswith("!"):
            return f"{text[1:]} (an expression)"
        parts = text.split(".")
        index = self.walker.index(cls)
        scope, qual, scope_owner = Ref(cls.module, cls.file), parts[0], 0
        if owner:
            outer = index.classes[owner].qual
            if any(b.owner == owner for b in index.bindings.get(f"{outer}.{parts[0]}", ())):
                bind = next(b for b in index.bindings[outer] if b.start == owner)
                scope, qual, scope_owner = Ref(cls.module, cls.file, outer, bind), f"{outer}.{parts[0]}", owner
        # The bases are evaluated before the class statement binds its name: 'class A(A)' means the earlier A.
        assert cls.bind is not None
        before = [b for b in index.bindings.get(qual, ()) if b.owner == scope_owner and b.start < cls.bind.start]
        where = scope.module + (f".{scope.qual}" if scope.qual else "")
        try:
            if before:
                first = self.walker._chosen(scope, qual, before, hops + 1)
                found = self.walker._walk(first, parts[1:], f"{where}.{parts[0]}", hops + 1)
            else:
                found = self.walker._walk(scope, parts, where, hops + 1)
        except OutsideError as error:
            via = f" (= {error.target})" if error.target != text else ""
            return f"{text}{via} (outside the pinned packages)"
        except (ResolveError, UpstreamFileError):
            if len(parts) == 1 and hasattr(builtins, text):
                return None if text == "object" else f"{text} (a builtin)"
            return f"{text} (not found)"
        return found if found.is_class else f"{text} (not a class statement)"


def _entry_key(entry: Entry) -> object:
    return entry if isinstance(entry, str) else entry.key
