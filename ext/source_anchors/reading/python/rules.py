"""Which binding of a name bound more than once is its definition: one rule per case (pure).

A name can be bound several times in one scope: overloads and their implementation, a
property and its setter, a class attribute and ``self.x`` in ``__init__``, alternatives
under ``if``/``else`` or ``try``/``except``, a typing-only declaration under
``if TYPE_CHECKING:``, plain rebinding. The definition is what a reader of the code would
call that name's definition, never what a search happened to meet first. The filters
below are applied in order (each only when it leaves a candidate); a tie-break then picks
one. ``docs/binding-rules.md`` is the same table for authors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

#: Flags of a binding: where and how the statement binds the name.
COND = 1  #: under ``if``/``try``/``for``/``while``/``match`` in its scope (not run unconditionally)
TYPING = 2  #: under ``if TYPE_CHECKING:`` (a declaration for type checkers only)
OVERLOAD = 4  #: a ``@typing.overload`` stub
ACCESSOR = 8  #: a property's ``@x.setter``, ``@x.deleter`` or ``@x.getter``
INSTANCE = 16  #: ``self.x = …`` in a method
INIT = 32  #: … in ``__init__``
AUG = 64  #: an augmented assignment (``x += …``)
DEAD = 128  #: in a branch that cannot run for the Python read for (:mod:`.conditions`): not a definition
DATA = 256  #: a property (``@property``, ``@x.setter``, ``x = property(…)``): a data descriptor
WRAP = 512  #: ``name = wrapper(name, …)`` right after ``def name``: the ``def`` is the definition
#: In a branch that does not run in the docs' build environment (a module found or not): set for API
#: links only, by the walker, never stored in an index (:mod:`.availability`).
ABSENT = 1024


class Bind(NamedTuple):
    """One statement binding a name: kind, lines, flags, owner class, import target."""

    #: ``function``, ``class``, ``attribute``, or ``alias`` (an import, followed to its target).
    kind: str
    start: int
    end: int
    flags: int = 0
    #: First line of the class statement whose body (or method) binds it; 0 in the module body.
    owner: int = 0
    #: For an alias: ``module`` (``import module``) or ``module:name`` (``from module import
    #: name``).
    target: str = ""


#: The filters, in order: (flag dropped when other candidates remain, rule name).
FILTERS = (
    (DEAD, "static-condition"),
    (ABSENT, "import-availability"),
    (TYPING, "runtime-over-typing"),
    (AUG, "assignment-over-augmented"),
    (INSTANCE, "class-over-instance"),
    (OVERLOAD, "implementation-over-overloads"),
    (ACCESSOR, "getter-over-accessors"),
    (WRAP, "definition-over-wrapper"),
)

#: Every rule by name: (when it applies, which binding is the definition). The author's table.
RULES: dict[str, tuple[str, str]] = {
    "static-condition": (
        "bound under a test of `sys.version_info`, `sys.hexversion`, `sys.platform` or "
        "`TYPE_CHECKING`, "
        "decided for the Python of `source_anchors_python` as type checkers decide it",
        "a binding in a branch that runs; a branch that cannot run is no definition (its "
        "bindings are listed), one that always runs binds as an unconditional statement",
    ),
    "import-availability": (
        "API links only: bound under `try: import x` / `except ImportError`, or under an "
        '`if` on a name that `try` binds (`if x is None:`) or on `importlib.util.find_spec("x")`',
        "a binding in the branch that runs in the docs' build environment, where "
        "`importlib.util.find_spec` finds the top-level module `x` or not; anchors keep "
        "`first-branch`",
    ),
    "runtime-over-typing": (
        "bound under `if TYPE_CHECKING:` and also at runtime",
        "the runtime binding; the typing-only declaration is listed",
    ),
    "assignment-over-augmented": (
        "assigned, then extended with `+=` and the like (`__all__ +=`)",
        "the plain assignment; the augmented ones are listed",
    ),
    "class-over-instance": (
        "a class-body binding and `self.x = …` in methods",
        "the class-body binding (attribute, annotation, method)",
    ),
    "implementation-over-overloads": (
        "`@overload` stubs and an implementation",
        "the implementation, from its first decorator",
    ),
    "first-overload": (
        "`@overload` stubs and no implementation (stubs, `TYPE_CHECKING`)",
        "the first stub",
    ),
    "getter-over-accessors": (
        "a property with `@x.setter` / `@x.deleter`",
        "the getter, from `@property`",
    ),
    "definition-over-wrapper": (
        "`def name` and, right after it, `name = wrapper(name, …)` (`property`, "
        "`staticmethod`, `classmethod`, a decorator applied by hand)",
        "the `def`; the wrapping line is listed",
    ),
    "property-over-instance": (
        "`self.x = …` in a method of the class or of a class in its MRO, and the first "
        "class of the MRO whose body binds `x` binds a property (a data descriptor)",
        "the property: Python finds a data descriptor before the instance's own "
        "attributes, and `self.x = …` calls its setter",
    ),
    "first-instance-assignment": (
        "several `self.x = …` and no class-body binding",
        "the first one in `__init__`, else the first in source order",
    ),
    "last-rebinding": (
        "bound more than once unconditionally in the same body",
        "the last one: the value the name has once the body has run",
    ),
    "unconditional-over-branches": (
        "bound once unconditionally and again under `if`/`try`/`for`",
        "the unconditional binding",
    ),
    "first-branch": (
        "bound only under `if`/`elif`/`else`, `try`/`except`, loops or `match`",
        "the first in source order (the `if` or `try` branch)",
    ),
    "inside-over-outside": (
        "bound only in branches, and the one chosen imports the name from outside the "
        "pinned packages (`try: from other import x` / `except ImportError: def x`)",
        "the first other branch that defines it inside them (a `def`, a `class`, an import "
        "from the pinned packages; not a stand-in value such as `x = None`)",
    ),
    "member-over-submodule": (
        "a package's `__init__` binds a name that is also a submodule",
        "the member (what `pkg.name` is after `import pkg`); "
        "a longer path that only the submodule has, or that starts with a member leading "
        "out of the pinned packages, goes on in the submodule",
    ),
}


def choose(binds: Sequence[Bind]) -> tuple[Bind, str, tuple[Bind, ...]]:
    """(definition, rules applied joined with ``+``, the other bindings) among *binds* (source order)."""
    if len(binds) == 1:
        return binds[0], "", ()
    candidates = list(binds)
    applied: list[str] = []
    for flag, name in FILTERS:
        keep = [b for b in candidates if not b.flags & flag]
        if keep and len(keep) < len(candidates):
            candidates, applied = keep, [*applied, name]
    chosen = candidates[0]
    if len(candidates) > 1:
        if all(b.flags & INSTANCE for b in candidates):
            chosen = ([b for b in candidates if b.flags & INIT] or candidates)[0]
            applied.append("first-instance-assignment")
        elif all(b.flags & OVERLOAD for b in candidates):
            applied.append("first-overload")
        else:
            plain = [b for b in candidates if not b.flags & COND]
            if plain:
                chosen = plain[-1]
                applied.append(
                    "last-rebinding" if len(plain) > 1 else "unconditional-over-branches"
                )
            else:
                applied.append("first-branch")
    position = binds.index(chosen)
    others = tuple(b for n, b in enumerate(binds) if n != position)
    return chosen, "+".join(applied), others


def markdown_table() -> str:
    """The rules as a Markdown table (rule, when, definition)."""
    rows = ["| Rule | When a name is bound … | The definition is … |", "| --- | --- | --- |"]
    rows += [f"| `{name}` | {when} | {what} |" for name, (when, what) in RULES.items()]
    return "\n".join(rows) + "\n"
