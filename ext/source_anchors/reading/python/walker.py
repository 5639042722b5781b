"""Walk dotted paths through the module indexes of one pinned tree (no Sphinx, nothing imported).

A path is read part by part: a module's member is its binding in the module body (followed through
imports and star imports), a class's member is looked up as Python looks it up on the class or an
instance (:class:`Inheritance`: the method resolution order, computed by C3 linearisation of the
bases as written (:mod:`.mro`), and data descriptors first, :mod:`.descriptors`). Where a name is
bound more than once, :func:`.rules.choose` picks the definition. Each module's file is indexed once
(:meth:`.files.SourceFiles.index`). A name not found is reported with the closest names that resolve
(:meth:`Walker.no_member`, :mod:`.missing`).

:class:`Walker` is the walk, one class; :class:`~.inheritance.Inheritance`, which it owns, is what
Python does on a class; it asks the walker through the public methods of :class:`~.inheritance.Walks`.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from ...model.config import RepoPin
from ...model.errors import ResolveError, UpstreamFileError
from ...model.records import line_range
from .descriptors import notes, runtime
from .environment import decided
from .files import SourceFiles, is_namespace, may_bind
from .inheritance import MAX_HOPS as _MAX_HOPS
from .inheritance import Inheritance
from .missing import MissingMembers
from .modindex import ModuleIndex
from .refs import Entry, OutsideError, Ref, join
from .rules import ABSENT, COND, DEAD, Bind, choose


class Walker:
    """Resolves dotted paths in one pinned tree's packages to modules and bindings."""

    def __init__(
        self, files: SourceFiles, pin: RepoPin, *, found: Callable[[str], bool] | None = None
    ) -> None:
        self.files = files
        self.pin = pin
        #: For API links: whether a top-level module is found in the build's environment
        #: (:mod:`.environment`); None for anchors, whose branches keep the rules for branches.
        self.found = found
        self._decided: dict[str, ModuleIndex] = {}
        #: The pinned packages: their dotted names and folders.
        self.packages = files.packages
        self.inheritance = Inheritance(self)
        #: Above 0 while closest names are tried (see :meth:`probe`): their failures compute none.
        self._probing = 0
        self._missing = MissingMembers(
            files, self.packages, index=self.index, mro=self.mro, probe=self.probe
        )

    def object(self, path: str, *, hops: int = 0) -> Ref:
        """The module or binding at dotted *path* (aliases followed, at most ``_MAX_HOPS`` of them)."""
        if hops > _MAX_HOPS:
            raise ResolveError(f"{path}: aliases or bases form a cycle")
        parts = path.split(".")
        return self.walk(self.module(parts[0], path), parts[1:], parts[0], hops)

    def module(self, dotted: str, asked: str) -> Ref:
        """The module *dotted* (not yet parsed)."""
        head = dotted.split(".")[0]
        if head not in self.packages:
            raise OutsideError(
                f"{asked}: {head!r} is not a package of {self.pin.name} "
                f"(packages: {', '.join(sorted(self.packages))})",
                target=asked,
                closest=tuple(difflib.get_close_matches(head, self.packages)),
            )
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
            self._decided[ref.file] = decided(index, self.packages, self.found)
        return self._decided[ref.file]

    def mro(self, cls: Ref, hops: int = 0) -> tuple[Entry, ...]:
        """*cls* and its bases in C3 order; bases not read statically are entries of text."""
        return self.inheritance.mro(cls, hops)

    def walk(self, ref: Ref, parts: list[str], where: str, hops: int) -> Ref:
        """The member *parts* (names, outermost first) of *ref*, which was reached as *where*."""
        if not parts:
            return ref
        name, rest = parts[0], parts[1:]
        here = f"{where}.{name}"
        if ref.bind is None and is_namespace(ref.file):
            found = self.module_member(ref, name, hops, seen=set())
        elif ref.bind is None:
            sub = self.files.module_file(f"{ref.module}.{name}")
            submodule = Ref(f"{ref.module}.{name}", sub) if sub is not None else None
            binds = submodule is None or may_bind(self.files, ref.file, name)
            try:
                found = self.module_member(ref, name, hops, seen=set()) if binds else None
            except ResolveError as error:
                if submodule is None or not rest:
                    raise
                # The member cannot be followed (it leaves the pinned packages): a longer path goes
                # on in the submodule, as importing the dotted path would
                # (``pkgutil.resolve_name``).
                try:
                    return self.walk(submodule, rest, here, hops)
                except ResolveError:
                    raise error from None
            if found is not None and submodule is not None and found.bind is not None:
                if rest:
                    try:
                        return self.walk(found, rest, here, hops)
                    except ResolveError:
                        return self.walk(submodule, rest, here, hops)
                found = found._replace(
                    rule=join(found.rule, "member-over-submodule"),
                    caveat=join(found.caveat, f"the submodule {sub} has the same name", "; "),
                )
            found = found or submodule
        elif ref.is_class:
            found = self.inheritance.member(ref, name, hops)
        else:
            found = None
        if found is None:
            raise self.no_member(ref, name, where)
        return self.walk(found, rest, here, hops)

    def module_member(self, ref: Ref, name: str, hops: int, *, seen: set[str]) -> Ref | None:
        """*name* in the body of the module *ref*, or bound there by a star import; None when neither binds it."""
        seen.add(ref.module)
        # a namespace package binds nothing of its own: only its submodules
        if is_namespace(ref.file):
            sub = self.files.module_file(f"{ref.module}.{name}")
            return Ref(f"{ref.module}.{name}", sub) if sub is not None else None
        index = self.index(ref)
        binds = [b for b in index.bindings.get(name, ()) if b.owner == 0]
        # bound only where nothing runs: not bound
        if binds and not all(b.flags & (DEAD | ABSENT) for b in binds):
            return self.chosen(ref, name, binds, hops)
        for star in reversed(index.stars):
            if star in seen:
                continue
            try:
                module = self.module(star, star)
                if is_namespace(module.file):
                    continue  # what it binds is the submodules imported so far: not read statically
                # often without a whole parse
                exports = self.files.exports(module.file, module.module, name)
                listed = exports is not None and name in exports.names
                # Without __all__, or with one not read statically in full, a star binds the public
                # names.
                if not listed and (
                    name.startswith("_") or (exports is not None and exports.complete)
                ):
                    continue
                self.index(module)  # a star module that does not parse is passed over
            except (ResolveError, UpstreamFileError):
                continue
            found = self.module_member(module, name, hops + 1, seen=seen)
            sub = self.files.module_file(f"{star}.{name}")
            # __all__ lists a submodule: the star imports it
            if found is None and sub is not None and listed:
                found = Ref(f"{star}.{name}", sub)
            if found is not None and exports is not None and not listed:
                why = f"{star}.__all__ is not read statically in full: taken to hold the public name {name!r}"
                found = found._replace(caveat=join(found.caveat, why, "; "))
            if found is not None:
                return found
        return None

    def chosen(self, container: Ref, qual: str, binds: list[Bind], hops: int) -> Ref:
        """The definition among *binds* of *qual*, an import followed to what it imports."""
        bind, rule, others = choose(binds)
        said = notes(self.index(container), bind, others) if len(binds) > 1 else []
        if said and not {"static-condition", "import-availability"} & set(rule.split("+")):
            rule = join("static-condition", rule)
        if bind.kind != "alias":
            return Ref(
                container.module,
                container.file,
                qual,
                bind,
                rule,
                tuple((b.start, b.end) for b in others),
                "; ".join(said),
            )
        if not bind.flags & COND:
            return self.follow(container, qual, bind, hops)
        try:  # a fallback (try: from other import x / except ImportError: def x)?
            return self.follow(container, qual, bind, hops)
        except OutsideError as error:
            found = self.fallback(container, qual, (bind, rule, others), error, hops)
            if found is None:
                raise
            return found

    def follow(self, container: Ref, qual: str, bind: Bind, hops: int) -> Ref:
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
        # 'from . import x' in a package: the submodule
        if module == container.module and not container.qual:
            sub = self.files.module_file(f"{module}.{member}")
            if sub is None:
                raise self.no_member(container, member, module)
            return Ref(f"{module}.{member}", sub)
        source = self.module(module, f"{module}.{member}")
        found = self.module_member(source, member, hops + 1, seen=set())
        if found is not None:
            return found
        sub = self.files.module_file(f"{module}.{member}")
        if sub is None:
            raise self.no_member(source, member, module)
        return Ref(f"{module}.{member}", sub)

    def fallback(
        self,
        container: Ref,
        qual: str,
        chosen: tuple[Bind, str, tuple[Bind, ...]],
        error: OutsideError,
        hops: int,
    ) -> Ref | None:
        """The first other branch that defines *qual* inside the pinned packages, when *chosen* leads out of them.

        *chosen* is (binding, rules, other bindings), a conditional import that raised *error*. A
        value such as ``json = None`` is a stand-in, not a definition: only a ``def``, a ``class``
        or an import is taken.
        """
        bind, rule, others = chosen
        why = f"the branch at {line_range(bind.start, bind.end)} imports {error.target}, outside the pinned packages"
        for other in (
            b for b in others if b.flags & COND and b in runtime(others) and b.kind != "attribute"
        ):
            rest = tuple(sorted((b.start, b.end) for b in (bind, *others) if b is not other))
            if other.kind != "alias":
                ruled = join(rule, "inside-over-outside")
                return container._replace(
                    qual=qual, bind=other, rule=ruled, others=rest, caveat=why
                )
            try:
                found = self.follow(container, qual, other, hops)
            except OutsideError:
                continue
            return found._replace(
                rule=join(join(found.rule, rule), "inside-over-outside"),
                caveat=join(found.caveat, why, "; "),
            )
        return None

    def probe(self, path: str) -> bool:
        """Whether dotted *path* resolves (for a suggestion; a failure computes no closest names)."""
        self._probing += 1
        try:
            self.object(path)
        except (ResolveError, UpstreamFileError):
            return False
        finally:
            self._probing -= 1
        return True

    def no_member(self, ref: Ref, name: str, where: str) -> ResolveError:
        """The error for *name*, not a member of *ref* (reached as *where*), with the closest names that resolve."""
        # A candidate being tried needs no closest names of its own (nor an endless search).
        if self._probing:
            return ResolveError(f"{where} has no member {name!r}")
        return self._missing.error(ref, name, where)
