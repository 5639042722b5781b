"""What Python does on a class: its C3 order, and a name looked up on the class or its instances.

:class:`Inheritance` belongs to a :class:`~.walker.Walker` and asks it, through the public methods
:class:`Walks` names, for the indexes of modules and the definitions of names.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Protocol

from ...model.errors import ResolveError, UpstreamFileError
from .descriptors import DATA_METHODS, assignments, class_body, runtime
from .files import SourceFiles
from .modindex import ModuleIndex
from .mro import InconsistentError, merge
from .refs import Entry, OutsideError, Ref, join, with_hidden
from .rules import ABSENT, DATA, DEAD, INSTANCE, Bind

MAX_HOPS = 50


class Walks(Protocol):
    """What :class:`Inheritance` asks of the walker that owns it (its public methods)."""

    files: SourceFiles

    def index(self, ref: Ref) -> ModuleIndex:
        """The index of the module that holds *ref*."""

    def module(self, dotted: str, asked: str) -> Ref:
        """The module *dotted*, as an import in *asked* names it."""

    def chosen(self, container: Ref, qual: str, binds: list[Bind], hops: int) -> Ref:
        """The definition among *binds* of *qual* in *container* (the binding rules)."""

    def walk(self, ref: Ref, parts: list[str], where: str, hops: int) -> Ref:
        """*parts* walked from *ref*."""


class Inheritance:
    """What Python does on a walker's classes: their C3 orders, and a name looked up on a class or its instances.

    Each order is computed once, with the files it read (added to the files a later resolution
    touched).
    """

    def __init__(self, walker: Walks) -> None:
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
        if key in self._busy or hops > MAX_HOPS:
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
            # its own self.x, whatever its bases: an inconsistent hierarchy is not read
            order = (ref,)
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
