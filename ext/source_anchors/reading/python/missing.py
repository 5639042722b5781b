"""The names a module or class offers, for the closest names of one not found (:meth:`.walker.Walker.no_member`)."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Callable, Collection, Iterable, Sequence

from ...model.errors import ResolveError, UpstreamFileError
from .descriptors import dead_hint
from .files import SourceFiles, is_namespace, submodule_names
from .modindex import ModuleIndex
from .refs import Entry, Ref


def known_names(
    files: SourceFiles,
    packages: Collection[str],
    ref: Ref,
    *,
    index: Callable[[Ref], ModuleIndex],
    mro: Callable[[Ref], tuple[Entry, ...]],
) -> tuple[set[str], list[str]]:
    """Names reachable in *ref* (members, submodules, star imports, inherited), and hidden bases.

    *files* are the tree's, *packages* the pinned packages' names; *index* gives a module's index,
    *mro* a class's order (the walker's :meth:`~.walker.Walker.index` and
    :meth:`~.walker.Walker.mro`).
    """
    names: set[str] = set()
    if ref.bind is None:
        modules, seen = [ref], set()
        while modules:
            module = modules.pop()
            seen.add(module.module)
            names |= submodule_names(files, module.file)
            if is_namespace(module.file):
                continue
            try:
                found = index(module)
            except UpstreamFileError:
                continue
            names |= {
                n for n, binds in found.bindings.items() if "." not in n and binds[0].owner == 0
            }
            for star in found.stars:
                if star in seen:
                    continue
                file = files.module_file(star)
                if file is not None and star.split(".")[0] in packages:
                    modules.append(Ref(star, file))  # what the walker's module() gives for it
        return names, []
    if not ref.is_class:
        return names, []
    try:
        order = mro(ref)
    except ResolveError:
        order = (ref,)
    for entry in order:
        if not isinstance(entry, str) and entry.bind is not None:
            prefix = f"{entry.qual}."
            names |= {
                n[len(prefix) :]
                for n, binds in index(entry).bindings.items()
                if n.startswith(prefix)
                and "." not in n[len(prefix) :]
                and any(b.owner == entry.bind.start for b in binds)
            }
    return names, [entry for entry in order if isinstance(entry, str)]


def missing_member(
    ref: Ref,
    name: str,
    where: str,
    *,
    names: Iterable[str],
    hidden: Sequence[str],
    probe: Callable[[str], bool],
    index: Callable[[Ref], ModuleIndex],
) -> ResolveError:
    """The error for *name*, not a member of *ref*: the closest of *names* that *probe* resolves, why not."""
    # Every name offered must resolve: *names* include those a star import does
    # not bind (``__all__`` leaves them out), so each candidate is walked as the anchor would
    # be.
    candidates = difflib.get_close_matches(name, sorted(names), n=12)
    close = tuple(f"{where}.{n}" for n in candidates if n != name and probe(f"{where}.{n}"))[:3]
    hint = f"; closest: {', '.join(close)}" if close else ""
    if ref.is_class or (ref.bind is None and not is_namespace(ref.file)):
        with contextlib.suppress(UpstreamFileError):
            hint += dead_hint(
                index(ref),
                f"{ref.qual}.{name}" if ref.qual else name,
                ref.bind.start if ref.bind else 0,
            )
    if hidden:
        hint += f"; bases not read statically: {', '.join(hidden)}"
    return ResolveError(f"{where} has no member {name!r}{hint}", closest=close)


class MissingMembers:
    """The error of each member found missing, made once per (container, name, where it was asked).

    Its closest names cost a comparison with every name the container offers and a walk of each
    candidate; a compiled module's objects, documented under a Python package that lacks the
    module, all pass through the same missing member, so it is computed once. Each call gives a
    new error, with the same message and closest names.
    """

    def __init__(
        self,
        files: SourceFiles,
        packages: Collection[str],
        *,
        index: Callable[[Ref], ModuleIndex],
        mro: Callable[[Ref], tuple[Entry, ...]],
        probe: Callable[[str], bool],
    ) -> None:
        self.files, self.packages = files, packages
        self.index, self.mro, self.probe = index, mro, probe
        self._known: dict[tuple[Ref, str, str], ResolveError] = {}

    def error(self, ref: Ref, name: str, where: str) -> ResolveError:
        """The error for *name*, not a member of *ref* (reached as *where*), with its closest names."""
        known = self._known.get((ref, name, where))
        if known is None:
            names, hidden = known_names(
                self.files, self.packages, ref, index=self.index, mro=self.mro
            )
            known = missing_member(
                ref, name, where, names=names, hidden=hidden, probe=self.probe, index=self.index
            )
            self._known[ref, name, where] = known
        return ResolveError(str(known), closest=known.closest)
