"""What a name that is not found is reported with: the closest names, bases not read (no Sphinx)."""

from __future__ import annotations

import contextlib
import difflib

from ..model.errors import ResolveError, UpstreamFileError
from ..reading.files import is_namespace, submodule_names
from .descriptors import dead_hint
from .refs import Ref, Walking


def no_member(self: Walking, ref: Ref, name: str, where: str) -> ResolveError:
    """The error for *name*, not a member of *ref* (reached as *where*), with the closest names that resolve."""
    if self._probing:  # a candidate being tried: its own closest names are not needed (nor an endless search)
        return ResolveError(f"{where} has no member {name!r}")
    names, hidden = known_names(self, ref)
    # Every name offered must resolve: the names gathered above include those a star import does
    # not bind (``__all__`` leaves them out), so each candidate is walked as the anchor would be.
    candidates = difflib.get_close_matches(name, sorted(names), n=12)
    close = tuple(f"{where}.{n}" for n in candidates if n != name and probe(self, f"{where}.{n}"))[:3]
    hint = f"; closest: {', '.join(close)}" if close else ""
    if ref.is_class or (ref.bind is None and not is_namespace(ref.file)):
        with contextlib.suppress(UpstreamFileError):
            hint += dead_hint(self.index(ref), f"{ref.qual}.{name}" if ref.qual else name,
                              ref.bind.start if ref.bind else 0)
    if hidden:
        hint += f"; bases not read statically: {', '.join(hidden)}"
    return ResolveError(f"{where} has no member {name!r}{hint}", closest=close)


def probe(self: Walking, path: str) -> bool:
    """Whether dotted *path* resolves in *self*'s tree (for a suggestion; a failure computes no closest names)."""
    self._probing += 1
    try:
        self.object(path)
    except (ResolveError, UpstreamFileError):
        return False
    finally:
        self._probing -= 1
    return True


def known_names(self: Walking, ref: Ref) -> tuple[set[str], list[str]]:
    """Names reachable in *ref* (members, submodules, star imports, inherited), and hidden bases."""
    names: set[str] = set()
    if ref.bind is None:
        modules, seen = [ref], set()
        while modules:
            module = modules.pop()
            seen.add(module.module)
            names |= submodule_names(self.files, module.file)
            if is_namespace(module.file):
                continue
            try:
                index = self.index(module)
            except UpstreamFileError:
                continue
            names |= {n for n, binds in index.bindings.items() if "." not in n and binds[0].owner == 0}
            for star in index.stars:
                if star not in seen and self.files.module_file(star) is not None \
                        and star.split(".")[0] in self._packages:
                    modules.append(self.module(star, star))
        return names, []
    if not ref.is_class:
        return names, []
    try:
        order = self.mro(ref)
    except ResolveError:
        order = (ref,)
    for entry in order:
        if not isinstance(entry, str) and entry.bind is not None:
            prefix = f"{entry.qual}."
            names |= {n[len(prefix):] for n, binds in self.index(entry).bindings.items()
                      if n.startswith(prefix) and "." not in n[len(prefix):]
                      and any(b.owner == entry.bind.start for b in binds)}
    return names, [entry for entry in order if isinstance(entry, str)]
