"""Link documented objects: in the docs' own repository, or in a pinned one with its lock (no Sphinx).

:class:`OwnLinker` resolves in the tree of :mod:`.apiself`; :class:`PinnedLinker` checks each object
as the anchor ``repo:module.name`` would be checked (:meth:`.engine.Engine.check`), so that its
lines are locked and drift is reported as an anchor's; an object with a compiled definition instead
is judged against the same lock key (:meth:`.verdicts.Judge.check_found`). Both answer :class:`~.apilinks.ApiLink` or
:class:`~.apilinks.NoLink`; neither imports anything of the documented code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from ..model.errors import SourceError
from ..model.records import Outcome, Status
from ..model.target import Target
from ..resolve.apiobjects import (
    OVERRIDE_RULE,
    ApiLink,
    NoLink,
    Reason,
    dotted,
    extend_accessors,
    link_for,
    locate,
    unbound,
)

if TYPE_CHECKING:
    from ..model.records import Location
    from ..reading.compiled import CompiledIndex, CompiledStore
    from ..resolve.compiledlinks import Imports
    from ..resolve.resolver import Resolver
    from ..sources.apiself import OwnSource
    from .engine import Engine

__all__ = ["Linker", "OwnLinker", "PinnedLinker"]

#: What the walk says of a path that leads out of the pinned packages (:class:`.walk.OutsideError`),
#: or of a member missing from a class with bases outside them.
_OUTSIDE = ("is not a package of", "bases not read statically")
#: The reasons a compiled module may answer for: no Python file, or no statement binding the name.
_COMPILED_MAYBE = (Reason.no_source, Reason.not_bound)


class Linker:
    """Answers where documented objects are defined; :attr:`outcomes` holds what a pinned repository locks."""

    #: The repository and commit links point into (pages linked at another one are read again).
    source: str = ""
    #: ``source_anchors_api_overrides``: documented dotted name -> the dotted name of its
    #: definition.
    overrides: Mapping[str, str] = {}  # never changed: each linker is given its own
    #: The resolver whose tree's compiled bindings were read, and those bindings.
    _compiled: tuple[Resolver, CompiledIndex] | None = None
    #: Where compiled bindings are kept between builds (the engine's cache), if anywhere.
    compiled_store: CompiledStore | None = None
    #: The resolver whose files' imported names were read, and those names by file.
    _imports: tuple[Resolver | None, dict[str, Imports]] = (None, {})

    def target(self, module: str | None, fullname: str) -> tuple[str, bool]:
        """The dotted path to resolve for *module*.*fullname*, and whether an override gave it."""
        path = dotted(module, fullname)
        return (self.overrides[path], True) if path in self.overrides else (path, False)

    def link(self, module: str | None, fullname: str) -> ApiLink | NoLink:
        """The link of *module*.*fullname*, or why it has none."""
        raise NotImplementedError

    def take_outcome(self) -> Outcome | None:
        """The outcome of the last :meth:`link` to lock (a pinned repository's), once."""
        return None

    def compiled(
        self, resolver: Resolver, module: str | None, fullname: str, python: NoLink
    ) -> Location | NoLink:
        """The compiled definition of an object Python has no statement for (the tree's bindings read once)."""
        from ..resolve.compiledlinks import compiled_index, locate_compiled

        if self._compiled is None or self._compiled[0] is not resolver:
            self._compiled = (resolver, compiled_index(resolver, self.compiled_store))
        return locate_compiled(self._compiled[1], resolver, module, fullname, python)

    def rebound(self, resolver: Resolver, path: str, found: Location) -> Location | NoLink:
        """*found*, or the compiled definition its module rebinds *path* to below it (:func:`.rebound`)."""
        from ..resolve.compiledlinks import compiled_index, locate_compiled, rebound

        if self._imports[0] is not resolver:
            self._imports = (resolver, {})
        again = rebound(resolver, path, found, self._imports[1])
        if again is None:
            return found
        if self._compiled is None or self._compiled[0] is not resolver:
            self._compiled = (resolver, compiled_index(resolver, self.compiled_store))
        index = self._compiled[1]
        if again.module not in index.modules():
            return found  # not a module the compiled sources build
        where = f"{again.file}:L{again.line}"
        answer = locate_compiled(
            index,
            resolver,
            None,
            again.name,
            NoLink(
                Reason.compiled,
                f"rebound at {where} to {again.name}, which no compiled binding names",
            ),
        )
        if isinstance(answer, NoLink):
            return answer
        return replace(answer, rule=f"{answer.rule}; rebound at {where}")

    def compiled_parses(self) -> int:
        """Compiled files parsed by a language core so far (each at most once)."""
        return self._compiled[1].parses if self._compiled is not None else 0

    def compiled_stored(self) -> bool | None:
        """Whether the compiled bindings were taken from the store (None: none were asked for)."""
        return self._compiled[1].stored if self._compiled is not None else None

    def modules_parsed(self) -> int:
        """Modules parsed so far."""
        return 0

    def ast_parses(self) -> int:
        """``ast.parse`` calls so far (at most one per file)."""
        return 0


class OwnLinker(Linker):
    """Links into the docs' own repository at its commit; the resolver is made on first use."""

    def __init__(
        self,
        source: OwnSource,
        *,
        max_file_bytes: int,
        overrides: Mapping[str, str] | None = None,
        compiled_store: CompiledStore | None = None,
    ) -> None:
        self.own = source
        self.compiled_store = compiled_store
        self.overrides = dict(overrides or {})
        self.max_file_bytes = max_file_bytes
        self.source = f"{source.pin.url}@{source.pin.commit}"
        self._resolver: Resolver | None = None
        #: The optional modules asked about since :meth:`take_found`, and whether each was found.
        self._found: dict[str, bool] = {}

    @property
    def resolver(self) -> Resolver:
        """The resolver of the commit's tree."""
        if self._resolver is None:
            from ..reading.python import importable
            from ..resolve.resolver import Resolver

            # autodoc documents the branches that run in this environment: so do the links
            # (import-availability).
            def found(name: str) -> bool:
                self._found[name] = there = importable(name)
                return there

            self._resolver = Resolver(
                self.own.tree, self.own.pin, max_file_bytes=self.max_file_bytes, found=found
            )
        return self._resolver

    def take_found(self) -> dict[str, bool]:
        """The optional modules asked about since the last call, and whether each was found (then forgotten).

        A page whose links depend on them is read again when one of them comes or goes.
        """
        taken, self._found = self._found, {}
        return taken

    def link(self, module: str | None, fullname: str) -> ApiLink | NoLink:
        """The link of *module*.*fullname* at the commit, or why it has none."""
        path, overridden = self.target(module, fullname)
        found = locate(self.resolver, *((None, path) if overridden else (module, fullname)))
        if isinstance(found, NoLink) and found.reason in _COMPILED_MAYBE:
            found = self.compiled(
                self.resolver, *((None, path) if overridden else (module, fullname)), found
            )
        elif not isinstance(found, NoLink) and not overridden:
            found = self.rebound(self.resolver, path, found)
        if isinstance(found, NoLink):
            return found
        if overridden:
            found = replace(found, rule=OVERRIDE_RULE)
        return link_for(self.own.pin, found, shown=self.own.shown)

    def modules_parsed(self) -> int:
        """Modules parsed so far."""
        return self._resolver.modules_parsed if self._resolver is not None else 0

    def ast_parses(self) -> int:
        """``ast.parse`` calls so far (at most one per file)."""
        return self._resolver.ast_parses if self._resolver is not None else 0


class PinnedLinker(Linker):
    """Links into a pinned repository, each object checked against the lock as an anchor is."""

    def __init__(
        self, engine: Engine, repo: str, *, overrides: Mapping[str, str] | None = None
    ) -> None:
        self.engine = engine
        self.overrides = dict(overrides or {})
        self.compiled_store = engine.compiled_store()
        self.repo = repo
        pin = engine.pins[repo]
        self.source = f"{repo}:{pin.url}@{pin.commit}"
        self._outcome: Outcome | None = None

    def link(self, module: str | None, fullname: str) -> ApiLink | NoLink:
        """The link of *module*.*fullname* at the pinned commit, or why it has none."""
        self._outcome = None  # an earlier link's, never taken (the linkcode drop-in's)
        pin = self.engine.pins[self.repo]
        path, overridden = self.target(module, fullname)
        if path.split(".", 1)[0] not in pin.package_dirs():
            return self._compiled_link(
                path,
                NoLink(
                    Reason.no_source, f"{path.split('.', 1)[0]!r} is not a package of {self.repo}"
                ),
            )
        # A record locked at a compiled definition: Python's suggestions cannot find where it went.
        outcome = self.engine.check(
            Target(self.repo, path), suggest=not self._compiled_record(path)
        )
        if outcome.location is not None or outcome.locked is not None:
            self._outcome = outcome  # locked, or drifted from the lock: reported as an anchor's
        if outcome.location is None:
            if outcome.status is Status.missing:
                if any(sign in outcome.message for sign in _OUTSIDE):
                    return self._compiled_link(path, NoLink(Reason.no_source, outcome.message))
                return self._compiled_link(
                    path, unbound(self.engine.resolver(self.repo), path, outcome.message)
                )
            return NoLink(Reason.unreadable, outcome.message)
        resolver = self.engine.resolver(self.repo)
        if not overridden:
            again = self.rebound(resolver, path, outcome.location)
            if again is not outcome.location:  # the compiled definition, locked as such
                self._outcome = None
                return self._judged(path, again, rebound=True)
        lines = resolver.file_lines(outcome.location.path)
        location = extend_accessors(outcome.location, lines)
        if overridden:
            location = replace(location, rule=OVERRIDE_RULE)
        return link_for(pin, location, shown=pin.ref or pin.short)

    def outcome_of(self, path: str) -> Outcome | None:
        """The outcome of the object *path* (a lock record's key no page described), to check it from the lock."""
        self.link(None, path)
        return self.take_outcome()

    def _compiled_record(self, path: str) -> bool:
        """Whether the lock records *path* at a compiled definition (a C, C++, Cython or Rust file)."""
        from ..reading.compiled import compiled_file

        record = self.engine.lock.get(self.repo, path)
        return record is not None and compiled_file(record.path)

    def _compiled_link(self, path: str, python: NoLink) -> ApiLink | NoLink:
        """The link of *path* at its compiled definition, locked and checked as an anchor's; or *python*.

        Its outcome replaces Python's (:meth:`.Engine.check_found`): found, it is ``new``, ``ok``,
        ``moved`` or ``changed`` against the lock; not found while the lock records a compiled
        definition, ``missing`` with the reason. Otherwise Python's outcome stands (a record of a
        Python definition that is gone).
        """
        if python.reason not in _COMPILED_MAYBE:
            return python
        target = Target(self.repo, path)
        try:
            resolver = self.engine.resolver(self.repo)
        except SourceError as error:
            if self._compiled_record(path):
                self._outcome = self.engine.check_found(target, error)  # reported, as Python's is
            return NoLink(Reason.unreadable, str(error))
        return self._judged(path, self.compiled(resolver, None, path, python), python)

    def _judged(
        self,
        path: str,
        found: Location | NoLink,
        python: NoLink | None = None,
        *,
        rebound: bool = False,
    ) -> ApiLink | NoLink:
        """*found*, a compiled definition of *path* or why there is none, judged against the lock.

        Where *path*'s Python definition was *rebound* to a compiled one, a record of the Python
        definition is judged too (it went where the compiled one is, or is no longer decided).
        """
        target = Target(self.repo, path)
        if isinstance(found, NoLink):
            if self._compiled_record(path) or (
                rebound and self.engine.lock.get(self.repo, path) is not None
            ):
                why = (
                    f"{found.reason.value}: {found.detail}"
                    if found is not python
                    else "no compiled binding names it"
                )
                self._outcome = self.engine.check_found(target, why)
            return found
        self._outcome = self.engine.check_found(target, found)
        pin = self.engine.pins[self.repo]
        return link_for(pin, found, shown=pin.ref or pin.short)

    def take_outcome(self) -> Outcome | None:
        """The outcome of the last :meth:`link` to lock, once."""
        outcome, self._outcome = self._outcome, None
        return outcome

    def modules_parsed(self) -> int:
        """Modules parsed so far."""
        return self.engine.modules_parsed()

    def ast_parses(self) -> int:
        """``ast.parse`` calls so far (at most one per file)."""
        return self.engine.work()["ast_parses"]
