"""How a member is found: on a class as Python finds it, and past a fallback import (no Sphinx).

:func:`class_member` looks a name up in the MRO as Python does on an instance (see :mod:`.descriptors`);
:func:`fallback` is the branch that defines a name inside the pinned packages when the branch chosen
imports it from outside them.
"""

from __future__ import annotations

from ..model.errors import ResolveError
from ..model.records import line_range
from ..reading.rules import ABSENT, COND, DEAD, INSTANCE, Bind
from .descriptors import assignments, class_body, is_data, runtime
from .refs import OutsideError, Ref, Walking


def class_member(self: Walking, ref: Ref, name: str, hops: int) -> Ref | None:
    """*name* as Python finds it on the class (or an instance): see :mod:`.descriptors`.

    The first class of *ref*'s MRO that binds it at runtime, except that ``self.x = …`` yields to
    a property that a later class of the MRO binds in its body first (:func:`.descriptors.is_data`).
    A class-body binding of the class itself is found without reading its bases (so an inconsistent
    hierarchy is reported for inherited names only).

    A class that binds it only under ``if TYPE_CHECKING:`` does not have it at runtime, so the
    search goes on; the declaration is the answer only when no class binds it at runtime.
    """
    assert ref.bind is not None
    own = [b for b in self.index(ref).bindings.get(f"{ref.qual}.{name}", ()) if b.owner == ref.bind.start]
    if class_body(own):
        # The class comes first in its own MRO: its bases are read only for what it inherits.
        return self._chosen(ref, f"{ref.qual}.{name}", own, hops)
    try:
        order = self.mro(ref, hops)
    except ResolveError:
        if not runtime(own):
            raise
        order = (ref,)  # its own self.x, whatever its bases: an inconsistent hierarchy is not read
    hidden: list[str] = []
    declared: tuple[Ref, list[Bind], list[str]] | None = None
    #: The first class with only self.x: it, its bindings, the bases before it, a declaration before it.
    instance: tuple[Ref, list[Bind], list[str], bool] | None = None
    for entry in order:
        if isinstance(entry, str):
            hidden.append(entry)
            continue
        assert entry.bind is not None
        binds = [b for b in self.index(entry).bindings.get(f"{entry.qual}.{name}", ())
                 if b.owner == entry.bind.start]
        if not runtime(binds):
            if binds and not all(b.flags & (DEAD | ABSENT) for b in binds):
                declared = declared or (entry, binds, list(hidden))
            continue
        if not class_body(binds):
            instance = instance or (entry, binds, list(hidden), declared is not None)
            continue
        if instance is not None and not is_data(self, entry, class_body(binds), hops):
            break  # an instance attribute comes before a class attribute that is no data descriptor
        found = self._chosen(entry, f"{entry.qual}.{name}", binds, hops)
        if instance is not None:
            mine, selves, _, _ = instance
            same = tuple((b.start, b.end) for b in selves if mine.file == found.file and b.flags & INSTANCE)
            found = found._replace(rule=join(found.rule, "property-over-instance"),
                                   others=tuple(sorted({*found.others, *same})),
                                   caveat=join(found.caveat, assignments(self, mine, selves, name), "; "))
        elif declared is not None:
            found = found._replace(rule=join(found.rule, "runtime-over-typing"))
        return with_hidden(found, hidden)
    if instance is not None:
        entry, binds, hidden, typed = instance
        found = self._chosen(entry, f"{entry.qual}.{name}", binds, hops)
        return with_hidden(found._replace(rule=join(found.rule, "runtime-over-typing")) if typed else found, hidden)
    if declared is not None:
        entry, binds, hidden = declared
        return with_hidden(self._chosen(entry, f"{entry.qual}.{name}", binds, hops), hidden)
    return None


def fallback(self: Walking, container: Ref, qual: str, chosen: tuple[Bind, str, tuple[Bind, ...]],
             error: OutsideError, hops: int) -> Ref | None:
    """The first other branch that defines *qual* inside the pinned packages, when *chosen* leads out of them.

    *chosen* is (binding, rules, other bindings), a conditional import that raised *error*. A value such as
    ``json = None`` is a stand-in, not a definition: only a ``def``, a ``class`` or an import is taken.
    """
    bind, rule, others = chosen
    why = f"the branch at {line_range(bind.start, bind.end)} imports {error.target}, outside the pinned packages"
    for other in (b for b in others if b.flags & COND and b in runtime(others) and b.kind != "attribute"):
        rest = tuple((b.start, b.end) for b in (bind, *others) if b is not other)
        if other.kind != "alias":
            return container._replace(qual=qual, bind=other, rule=join(rule, "inside-over-outside"),
                                      others=tuple(sorted(rest)), caveat=why)
        try:
            found = self._follow(container, qual, other, hops)
        except OutsideError:
            continue
        return found._replace(rule=join(join(found.rule, rule), "inside-over-outside"),
                              caveat=join(found.caveat, why, "; "))
    return None


def with_hidden(found: Ref, hidden: list[str]) -> Ref:
    """*found*, its caveat naming the *hidden* bases (not read statically) that come before its class."""
    if not hidden:
        return found
    return found._replace(caveat=join(found.caveat, "inherited past bases not read statically, which "
                                       f"could define it first: {', '.join(hidden)}", "; "))


def join(first: str, second: str, sep: str = "+") -> str:
    """*first* and *second* joined by *sep* (rules by ``+``, caveats by ``; ``), or *second* alone."""
    return f"{first}{sep}{second}" if first else second
