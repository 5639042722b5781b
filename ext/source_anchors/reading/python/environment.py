"""Import-availability branches decided for the docs' build environment, for API links only (no Sphinx).

autodoc imports the documented package in the build's environment, so where the package binds a name
one way when an optional module is installed and another when it is not
(:mod:`..reading.availability`), autodoc documents the branch that ran. API links follow it:
:func:`decided` flags the bindings of the branches that do not run :data:`~..reading.rules.ABSENT`
(rule ``import-availability``). Anchors into pinned upstream code never do: their tree is not the
environment's.

Whether a module is found is asked of :func:`importlib.util.find_spec` on its **top-level** name
only, which searches ``sys.path`` (as ``conf.py`` left it) without importing or running anything:
the optional module is not imported, and neither is the documented package. A branch that depends on
a module of the linked packages themselves (``from pkg._speedups import x``) is not decided, since
its top-level name says nothing of that module; nor is one whose test names a dotted module
(``find_spec("a.b")`` would import ``a``).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Collection
from dataclasses import replace
from functools import cache

from .modindex import ModuleIndex
from .rules import ABSENT, COND, Bind

__all__ = ["decided", "importable"]


@cache
def importable(name: str) -> bool:
    """Whether the top-level module *name* is found in this process's environment (nothing is imported)."""
    if "." in name or not name.isidentifier():
        raise ValueError(f"{name!r}: only a top-level module name is looked up")
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a module in sys.modules without a __spec__: it is there
        return True


def decided(
    index: ModuleIndex, packages: Collection[str], found: Callable[[str], bool]
) -> ModuleIndex:
    """*index* with the bindings of branches that do not run here flagged ``ABSENT``, and why, as conditions."""
    absent: list[tuple[int, int]] = []
    sure: set[int] = set()  # bindings that run whenever the module body does, here: unconditional
    said: list[tuple[int, int, str]] = []
    for branch in index.optional:
        if any(module in packages for module in branch.modules):
            continue
        there = all(found(module) for module in branch.modules)
        names = ", ".join(branch.modules)
        verb = (
            ("is" if there else "is not")
            if len(branch.modules) == 1
            else ("are" if there else "are not all")
        )
        runs = there == branch.found
        said.append(
            (
                branch.start,
                branch.end,
                f"{branch.test}: {names} {verb} found in the build's environment "
                f"(importlib.util.find_spec), so L{branch.start} {'runs' if runs else 'does not run'}",
            )
        )
        if not runs:
            absent.append((branch.start, branch.end))
        else:
            sure.update(branch.direct)
    if not said:
        return index

    def flagged(b: Bind) -> Bind:
        if any(s <= b.start <= e for s, e in absent):
            return b._replace(flags=b.flags | ABSENT)
        return b._replace(flags=b.flags & ~COND) if b.start in sure else b

    bindings = {path: tuple(map(flagged, binds)) for path, binds in index.bindings.items()}
    return replace(index, bindings=bindings, conditions=(*index.conditions, *said))
