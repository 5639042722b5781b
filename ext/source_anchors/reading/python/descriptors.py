"""Python's order of lookup on an instance, and what statically decided conditions say (no Sphinx).

On an instance, Python looks a name up in this order: a data descriptor found in the class's
MRO (a ``property``, or any object whose type defines ``__set__`` or ``__delete__``), then the
instance's own attributes (``self.x = …`` in a method), then anything else the MRO has. So when
the first class of the MRO whose body binds the name binds a property, ``self.x = …`` anywhere in
the hierarchy goes through it and is no definition. A class-body binding is a data descriptor when
it is a property (flag :data:`~.rules.DATA`), or when it calls a class of the pinned packages (a
decorator, ``x = Descriptor(…)``) whose MRO defines ``__set__`` or ``__delete__`` or derives from
the builtin ``property``. Anything else (a function, a class outside the pinned packages such as
``functools.cached_property``) is taken to be no data descriptor, so the instance's own attribute
comes first, as the documented rules say.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...model.records import line_range
from .modindex import ModuleIndex
from .refs import Ref
from .rules import ABSENT, DEAD, INSTANCE, TYPING, Bind

#: A class's own methods that make its instances data descriptors.
DATA_METHODS = ("__set__", "__delete__")


def runtime(binds: Sequence[Bind]) -> list[Bind]:
    """The bindings that exist at run time (not typing-only, not in a branch that cannot run or does not here)."""
    return [b for b in binds if not b.flags & (TYPING | DEAD | ABSENT)]


def class_body(binds: Sequence[Bind]) -> list[Bind]:
    """The run-time bindings of a class body itself (``self.x = …`` in methods left out)."""
    return [b for b in runtime(binds) if not b.flags & INSTANCE]


def assignments(entry: Ref, binds: Sequence[Bind], name: str) -> str:
    """``self.x = …`` at file:lines, for the message of a property chosen over them."""
    spans = ", ".join(line_range(b.start, b.end) for b in binds if b.flags & INSTANCE)
    return f"self.{name} = … at {entry.file}:{spans} goes through the property"


def notes(index: ModuleIndex, chosen: Bind, others: Sequence[Bind]) -> list[str]:
    """What the decided conditions around *chosen* and the bindings in branches that cannot run say.

    Those around *chosen* only when another binding exists at run time: where the others are
    typing-only declarations, the rule ``runtime-over-typing`` says it all.
    """
    lines = [
        *([chosen.start] if runtime(others) else []),
        *(b.start for b in others if b.flags & (DEAD | ABSENT)),
    ]
    return list(
        dict.fromkeys(
            text
            for start, end, text in index.conditions
            if any(start <= line <= end for line in lines)
        )
    )


def dead_hint(index: ModuleIndex, qual: str, owner: int) -> str:
    """The message's tail when *qual* is bound only in branches that cannot run, else ""."""
    binds = [b for b in index.bindings.get(qual, ()) if b.owner == owner]
    if not binds or not all(b.flags & DEAD for b in binds):
        return ""
    said = list(
        dict.fromkeys(
            text
            for start, end, text in index.conditions
            if any(start <= b.start <= end for b in binds)
        )
    )
    return (
        f"; bound only in branches that do not run ({'; '.join(said)}): source_anchors_python sets "
        "the Python version and platform the anchors are read for"
    )
