"""Walk dotted paths through the module indexes of one pinned tree (no Sphinx, nothing imported).

A path is read part by part: a module's member is its binding in the module body (followed through
imports and star imports), a class's member is looked up as Python looks it up on the class or an
instance (:class:`Inheritance`: the method resolution order, computed by C3 linearisation of the
bases as written (:mod:`.mro`), and data descriptors first, :mod:`.descriptors`). Where a name is
bound more than once, :func:`.rules.choose` picks the definition. Each module's file is indexed once
(:meth:`.files.SourceFiles.index`). A name not found is reported with the closest names that resolve
(:meth:`Walker.no_member`, :mod:`.missing`).

:class:`Walker` is the walk, one class; :class:`Inheritance`, which it owns, is what Python does on
a class. The two call each other's public methods, so they are kept in one module.
"""

from __future__ import annotations

import builtins
import contextlib
import difflib
from collections.abc import Callable, Sequence

from ...model.config import RepoPin
from ...model.errors import ResolveError, UpstreamFileError
from ...model.records import line_range
from .descriptors import DATA_METHODS, assignments, class_body, dead_hint, notes, runtime
from .environment import decided
from .files import SourceFiles, is_namespace, may_bind
from .missing import known_names
from .modindex import ModuleIndex
from .mro import InconsistentError, merge
from .refs import Entry, OutsideError, Ref, join, with_hidden
from .rules import ABSENT, COND, DATA, DEAD, INSTANCE, Bind, choose

_MAX_HOPS = 50


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
        if is_namespace(
            ref.file
        ):  # a namespace package binds nothing of its own: only its submodules
            sub = self.files.module_file(f"{ref.module}.{name}")
            return Ref(f"{ref.module}.{name}", sub) if sub is not None else None
        index = self.index(ref)
        binds = [b for b in index.bindings.get(name, ()) if b.owner == 0]
        if binds and not all(
            b.flags & (DEAD | ABSENT) for b in binds
        ):  # bound only where nothing runs: not bound
            return self.chosen(ref, name, binds, hops)
        for star in reversed(index.stars):
            if star in seen:
                continue
            try:
                module = self.module(star, star)
                if is_namespace(module.file):
                    continue  # what it binds is the submodules imported so far: not read statically
                exports = self.files.exports(
                    module.file, module.module, name
                )  # often without a whole parse
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
            if (
                found is None and sub is not None and listed
            ):  # __all__ lists a submodule: the star imports it
                found = Ref(f"{star}.{name}", sub)
            if found is not None and exports is not None and not listed:
                found = found._replace(
                    caveat=join(
                        found.caveat,
                        f"{star}.__all__ is not read statically in "
                        f"full: taken to hold the public name {name!r}",
                        "; ",
                    )
                )
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
        if (
            module == container.module and not container.qual
        ):  # 'from . import x' in a package: the submodule
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
            rest = tuple((b.start, b.end) for b in (bind, *others) if b is not other)
            if other.kind != "alias":
                return container._replace(
                    qual=qual,
                    bind=other,
                    rule=join(rule, "inside-over-outside"),
                    others=tuple(sorted(rest)),
                    caveat=why,
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
        if (
            self._probing
        ):  # a candidate being tried: its own closest names are not needed (nor an endless search)
            return ResolveError(f"{where} has no member {name!r}")
        names, hidden = known_names(self.files, self.packages, ref, index=self.index, mro=self.mro)
        # Every name offered must resolve: the names gathered above include those a star import does
        # not bind (``__all__`` leaves them out), so each candidate is walked as the anchor would
        # be.
        candidates = difflib.get_close_matches(name, sorted(names), n=12)
        close = tuple(
            f"{where}.{n}" for n in candidates if n != name and self.probe(f"{where}.{n}")
        )[:3]
        hint = f"; closest: {', '.join(close)}" if close else ""
        if ref.is_class or (ref.bind is None and not is_namespace(ref.file)):
            with contextlib.suppress(UpstreamFileError):
                hint += dead_hint(
                    self.index(ref),
                    f"{ref.qual}.{name}" if ref.qual else name,
                    ref.bind.start if ref.bind else 0,
                )
        if hidden:
            hint += f"; bases not read statically: {', '.join(hidden)}"
        return ResolveError(f"{where} has no member {name!r}{hint}", closest=close)


class Inheritance:
    """What Python does on a walker's classes: their C3 orders, and a name looked up on a class or its instances.

    Each order is computed once, with the files it read (added to the files a later resolution
    touched).
    """

    def __init__(self, walker: Walker) -> None:
        self.walker = walker
        self._mros: dict[tuple[str, int], tuple[Entry, ...]] = {}
        self._mro_files: dict[tuple[str, int], frozenset[str]] = {}
        self._busy: set[tuple[str, int]] = set()

    def mro(self, cls: Ref, hops: int = 0) -> tuple[Entry, ...]:
        """*cls* and its bases in C3 order; bases not read statically are entries of text."""
        files = self.walker.files
        key = cls.key
        if key in self._mros:
            files.touched |= self._mro_files[key]  # the same files as when it was computed
            return self._mros[key]
        name = f"{cls.module}.{cls.qual}"
        if key in self._busy or hops > _MAX_HOPS:
            raise ResolveError(f"{name}: its bases form a cycle")
        self._busy.add(key)
        outer, files.touched = files.touched, set()
        try:
            assert cls.bind is not None
            info = self.walker.index(cls).classes[cls.bind.start]
            direct = [
                base
                for base in (self._base(cls, text, info.owner, hops) for text in info.bases)
                if base is not None
            ]
            try:
                merged = merge(
                    [list(self.mro(b, hops + 1)) if isinstance(b, Ref) else [b] for b in direct]
                    + [direct],
                    key=_entry_key,
                )
            except InconsistentError as error:
                raise ResolveError(
                    f"{name}: its bases ({', '.join(info.bases)}) have no consistent method "
                    f"resolution order (C3 cannot order {error})"
                ) from None
        finally:
            self._busy.discard(key)
            used, files.touched = files.touched, outer | files.touched
        result: tuple[Entry, ...] = (cls, *merged)
        self._mros[key], self._mro_files[key] = result, frozenset(used)
        return result

    def _base(self, cls: Ref, text: str, owner: int, hops: int) -> Entry | None:
        """A base as written, resolved in the scope of the class statement (None for ``object``)."""
        if text.startswith("!"):
            return f"{text[1:]} (an expression)"
        parts = text.split(".")
        walker = self.walker
        index = walker.index(cls)
        scope, qual, scope_owner = Ref(cls.module, cls.file), parts[0], 0
        if owner:
            outer = index.classes[owner].qual
            if any(b.owner == owner for b in index.bindings.get(f"{outer}.{parts[0]}", ())):
                bind = next(b for b in index.bindings[outer] if b.start == owner)
                scope, qual, scope_owner = (
                    Ref(cls.module, cls.file, outer, bind),
                    f"{outer}.{parts[0]}",
                    owner,
                )
        # The bases are evaluated before the class statement binds its name: 'class A(A)' means the
        # earlier A.
        assert cls.bind is not None
        before = [
            b
            for b in index.bindings.get(qual, ())
            if b.owner == scope_owner and b.start < cls.bind.start
        ]
        where = scope.module + (f".{scope.qual}" if scope.qual else "")
        try:
            if before:
                first = walker.chosen(scope, qual, before, hops + 1)
                found = walker.walk(first, parts[1:], f"{where}.{parts[0]}", hops + 1)
            else:
                found = walker.walk(scope, parts, where, hops + 1)
        except OutsideError as error:
            via = f" (= {error.target})" if error.target != text else ""
            return f"{text}{via} (outside the pinned packages)"
        except (ResolveError, UpstreamFileError):
            if len(parts) == 1 and hasattr(builtins, text):
                return None if text == "object" else f"{text} (a builtin)"
            return f"{text} (not found)"
        return found if found.is_class else f"{text} (not a class statement)"

    def member(self, ref: Ref, name: str, hops: int) -> Ref | None:
        """*name* as Python finds it on the class *ref* (or an instance): see :mod:`.descriptors`.

        The first class of *ref*'s MRO that binds it at runtime, except that ``self.x = …`` yields
        to a property that a later class of the MRO binds in its body first (:meth:`is_data`). A
        class-body binding of the class itself is found without reading its bases (so an
        inconsistent hierarchy is reported for inherited names only).

        A class that binds it only under ``if TYPE_CHECKING:`` does not have it at runtime, so the
        search goes on; the declaration is the answer only when no class binds it at runtime.
        """
        walker = self.walker
        assert ref.bind is not None
        own = [
            b
            for b in walker.index(ref).bindings.get(f"{ref.qual}.{name}", ())
            if b.owner == ref.bind.start
        ]
        if class_body(own):
            # The class comes first in its own MRO: its bases are read only for what it inherits.
            return walker.chosen(ref, f"{ref.qual}.{name}", own, hops)
        try:
            order = self.mro(ref, hops)
        except ResolveError:
            if not runtime(own):
                raise
            order = (
                ref,
            )  # its own self.x, whatever its bases: an inconsistent hierarchy is not read
        hidden: list[str] = []
        declared: tuple[Ref, list[Bind], list[str]] | None = None
        #: The first class with only self.x: it, its bindings, the bases before it, a declaration
        #: before it.
        instance: tuple[Ref, list[Bind], list[str], bool] | None = None
        for entry in order:
            if isinstance(entry, str):
                hidden.append(entry)
                continue
            assert entry.bind is not None
            binds = [
                b
                for b in walker.index(entry).bindings.get(f"{entry.qual}.{name}", ())
                if b.owner == entry.bind.start
            ]
            if not runtime(binds):
                if binds and not all(b.flags & (DEAD | ABSENT) for b in binds):
                    declared = declared or (entry, binds, list(hidden))
                continue
            if not class_body(binds):
                instance = instance or (entry, binds, list(hidden), declared is not None)
                continue
            if instance is not None and not self.is_data(entry, class_body(binds), hops):
                break  # an instance attribute comes before a class attribute that is no data descriptor
            found = walker.chosen(entry, f"{entry.qual}.{name}", binds, hops)
            if instance is not None:
                mine, selves, _, _ = instance
                same = tuple(
                    (b.start, b.end)
                    for b in selves
                    if mine.file == found.file and b.flags & INSTANCE
                )
                found = found._replace(
                    rule=join(found.rule, "property-over-instance"),
                    others=tuple(sorted({*found.others, *same})),
                    caveat=join(found.caveat, assignments(mine, selves, name), "; "),
                )
            elif declared is not None:
                found = found._replace(rule=join(found.rule, "runtime-over-typing"))
            return with_hidden(found, hidden)
        if instance is not None:
            entry, binds, hidden, typed = instance
            found = walker.chosen(entry, f"{entry.qual}.{name}", binds, hops)
            return with_hidden(
                found._replace(rule=join(found.rule, "runtime-over-typing")) if typed else found,
                hidden,
            )
        if declared is not None:
            entry, binds, hidden = declared
            return with_hidden(walker.chosen(entry, f"{entry.qual}.{name}", binds, hops), hidden)
        return None

    def is_data(self, entry: Ref, binds: Sequence[Bind], hops: int) -> bool:
        """Whether the class-body *binds* of *entry* (a class) bind a data descriptor.

        The value the class ends up with is its last binding's: a property's setter, ``x =
        property(x)``.
        """
        walker = self.walker
        last = binds[-1] if binds else None
        if last is None or last.flags & DATA:
            return last is not None
        for bind in (last,):
            if bind.target[:1] not in ("=", "@"):
                continue
            module = walker.module(entry.module, entry.module)
            try:
                made = walker.walk(module, bind.target[1:].split("."), entry.module, hops + 1)
                if not made.is_class:
                    continue
                for base in self.mro(made, hops + 1):
                    if isinstance(base, str):
                        if base.startswith("property "):  # a subclass of the builtin property
                            return True
                        continue
                    assert base.bind is not None
                    index = walker.index(base)
                    if any(
                        b.owner == base.bind.start
                        for method in DATA_METHODS
                        for b in runtime(index.bindings.get(f"{base.qual}.{method}", ()))
                    ):
                        return True
            except (ResolveError, UpstreamFileError):
                continue  # not read statically: not taken to be a data descriptor
        return False


def _entry_key(entry: Entry) -> object:
    return entry if isinstance(entry, str) else entry.key
