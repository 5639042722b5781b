"""The compiled bindings of a tree, read once: each Python name to its definition's file and lines (pure).

The build configuration says which module each file builds (:mod:`.buildconf`); each binding style's
reader makes claims (:mod:`.capi`, :mod:`.cython`, :mod:`.pybind`, :mod:`.pyo3`), all of them at the
first question, by the files' text alone; a name is decided when it is asked for: a claim that names
a C, C++ or Rust definition is found by the language core
(:func:`~source_anchors.reading.registry.language_for`), in the claim's file first, then in the
other files that spell its name; a C++ member (``&Class::member``) with no definition of that name
is followed into the class's bases, as C++ looks a member up (:mod:`.members`). Each file is
decoded once and parsed at most once. A name claimed twice with different definitions (C++
overloads), or whose definition is not in the tree, is not decided: no link, and the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from ..registry import language_for
from .claims import C_FILES as _C
from .claims import CYTHON_FILES as _CYTHON
from .claims import read_claims
from .files import CompiledFiles
from .members import MemberLookup
from .records import Binding, Claim, Undecided
from .stored import CompiledStore, Known, decode, encode, index_key

_CONFIG = ("setup.py", "meson.build", "pyproject.toml", "Cargo.toml", "CMakeLists.txt")
_SKIP = re.compile(
    r"(^|/)(tests?|testing|docs?|examples?|benchmarks?|third_party|vendor|extern|\.[^/]+)/"
)
#: Kinds of definition a class binding never names (a constructor is named as its class is).
_CALLABLE = frozenset({"function", "method", "macro"})
#: The kinds of claim whose definition is a function (a getter, for a property).
_CLAIMED_CALLABLE = frozenset({"function", "method", "property"})


def compiled_file(path: str) -> bool:
    """Whether the index reads *path*: a C, C++, Cython or Rust source, or a build configuration."""
    name = path.rpartition("/")[2]
    return (path.endswith(_C + _CYTHON + (".rs",)) or name in _CONFIG) and not _SKIP.search(path)


class CompiledIndex:
    """The compiled bindings of a tree's files: the claims read on the first question, each name decided when asked.

    Only the files that may define an asked name are parsed (a build's pages ask for the objects
    they document), each at most once. With a *store* and the *blobs* (path -> git blob id) of the
    compiled files, the claims and each decision that parsed a file are kept under a key of those
    blobs, the paths and the reading code (:mod:`.stored`), and a tree with the same ones takes
    them from there: no file is read or parsed for a name decided before.
    """

    def __init__(
        self,
        paths: Iterable[str],
        read: Callable[[str], bytes],
        *,
        blobs: Mapping[str, str] | None = None,
        store: CompiledStore | None = None,
    ) -> None:
        self.every = sorted(paths)
        self.paths = [p for p in self.every if compiled_file(p)]
        self.files = CompiledFiles(read)
        self._store = store
        self._key = (
            index_key(self.every, self.paths, blobs)
            if store is not None and blobs is not None
            else None
        )
        self._known: Known | None = None
        #: Whether the bindings came from the store.
        self.stored = False
        self._members = MemberLookup(
            self._spelling,
            self.files.named,
            self.files.raw,
            self.text,
            self.files.may_name_type,
            self.files.may_name_callable,
        )

    @property
    def parses(self) -> int:
        """Files parsed by a language core (each at most once; none when the store had the index)."""
        return self.files.parses

    def text(self, path: str) -> str:
        """The file's text with its comments blanked (Cython's as it is), decoded once."""
        return self.files.text(path)

    def lookup(self, name: str) -> Binding | Undecided | None:
        """The compiled definition of *name*, why it is not decided, or None when no binding names it."""
        found = self._answer(name)
        if found is not None:
            return found
        owner = name.rpartition(".")[0]
        while owner:
            found = self._answer(f"{owner}.*")
            if isinstance(found, Undecided):
                return found
            owner = owner.rpartition(".")[0]
        return None

    def modules(self) -> set[str]:
        """The dotted modules the compiled files build."""
        return self._knowledge().modules()

    def names(self) -> list[str]:
        """Every Python name with a compiled definition (for tests and the evaluation: decides them all)."""
        return sorted(
            name for name in self._knowledge().claims if isinstance(self._answer(name), Binding)
        )

    def _answer(self, name: str) -> Binding | Undecided | None:
        """*name*'s binding or why it has none (decided on the first question), None when nothing claims it.

        A name the readers found made in a form not read statically stays undecided even where a
        claim names a definition; a claim's own reason (overloads, no definition) comes first.
        """
        known = self._knowledge()
        found = known.decided.get(name)
        if found is not None:
            return found
        claims = known.claims.get(name)
        if claims is None:
            return known.undecided.get(name)
        found = self._decide(name, claims)
        if isinstance(found, Binding) and name in known.undecided:
            found = known.undecided[name]
        known.decided[name] = found
        if any(claim.symbol for claim in claims):  # it read files: kept for the next build
            self._keep()
        return found

    def _knowledge(self) -> Known:
        if self._known is None and self._key is not None and self._store is not None:
            text = self._store.compiled(self._key)
            self._known = decode(text) if text is not None else None
            self.stored = self._known is not None
        if self._known is None:
            claims, undecided = read_claims(self.every, self.paths, self.files)
            by_name: dict[str, list[Claim]] = {}
            for claim in claims:
                by_name.setdefault(claim.name, []).append(claim)
            self._known = Known(by_name, {u.name: u for u in undecided})
            self._keep()
        return self._known

    def _keep(self) -> None:
        known = self._known
        if self._key is not None and self._store is not None and known is not None:
            self._store.put_compiled(self._key, lambda: encode(known))

    def _decide(self, name: str, claims: list[Claim]) -> Binding | Undecided:
        """*name*'s definition from its claims: one place, else why not (a reason, or overloads)."""
        answers = [self._find(claim) for claim in claims]
        places = {(a.path, a.start, a.end) for a in answers if isinstance(a, Binding)}
        why = [a for a in answers if isinstance(a, Undecided)]
        if why:
            return why[0]
        if len(places) > 1:
            return twice(name, places)
        return next(a for a in answers if isinstance(a, Binding))

    def _find(self, claim: Claim) -> Binding | Undecided:
        if not claim.symbol:
            start, end = claim.lines
            return Binding(claim.name, claim.path, start or 1, end or 1, claim.kind, claim.form)
        for symbol in ((claim.first,) if claim.first else ()) + (claim.symbol,):
            answer = self._definition(claim, symbol)
            if answer is None and len(symbol) > 1 and claim.path.endswith(_C):
                answer = self._member(claim, symbol)
            if answer is not None:
                return answer
        family = (".rs",) if claim.path.endswith(".rs") else _C
        spelling = [
            p for p in self.paths if p.endswith(family) and self.files.spells(p, claim.symbol)
        ]
        return unfound(claim, spelling, self.text)

    def _member(self, claim: Claim, symbol: tuple[str, ...]) -> Binding | Undecided | None:
        """*symbol*, ``Class::member``, by C++'s lookup in the class and its bases (:mod:`.members`)."""
        found = self._members.member(symbol, function=claim.kind in _CLAIMED_CALLABLE)
        if found is None:
            return None
        if isinstance(found, str):
            return Undecided(claim.name, found)
        path, definition, via = found
        form = claim.form + (f"; inherited from {via[-1]}" if via else "")
        if not definition.body:
            form += "; a pure virtual declaration"
        return Binding(claim.name, path, definition.start, definition.end, claim.kind, form)

    def _spelling(self, path: tuple[str, ...]) -> list[str]:
        """The C and C++ files that spell every name of *path*: only they may define it (bytes first)."""
        return [p for p in self.paths if p.endswith(_C) and self.files.spells(p, path)]

    def _definition(self, claim: Claim, symbol: tuple[str, ...]) -> Binding | Undecided | None:
        family = (".rs",) if claim.path.endswith(".rs") else _C
        # A Rust item is where its attribute is (its line known): in a `mod` too, and no other.
        line = claim.lines[0] if family != _C else 0
        others = [
            p
            for p in self.paths
            if not line and p != claim.path and p.endswith(family) and self.files.spells(p, symbol)
        ]
        own = [claim.path]
        if family == _C:
            # Only a file that may hold a definition of that kind and name is parsed for it: not
            # a .cpp defining a class's constructors and methods, for the class; not the binding
            # file that takes a function's address, for the function.
            may = (
                self.files.may_name_type
                if claim.kind == "class"
                else self.files.may_name_callable
                if claim.kind in _CLAIMED_CALLABLE
                else None
            )
            if may is not None:
                own = [p for p in own if may(p, symbol[-1])]
                others = [p for p in others if may(p, symbol[-1])]
        for paths in (own, others):
            hits = [
                (path, d)
                for path in paths
                for d in self.files.named(path, symbol[-1])
                if d.body
                and (claim.kind != "class" or d.kind not in _CALLABLE)
                and d.path[-len(symbol) :] == symbol
                and (
                    d.start <= line <= d.end if line else len(d.path) == len(symbol) or family == _C
                )
            ]
            if len(hits) > 1:
                language = language_for(hits[0][0], self.files.raw(hits[0][0]))
                chosen = (
                    language.choose([d for _, d in hits])
                    if language is not None and len({p for p, _ in hits}) == 1
                    else None
                )
                if chosen is None:
                    spelled = "; ".join(f"{p}:{d.start}-{d.end}" for p, d in hits)
                    return Undecided(
                        claim.name, f"{'::'.join(symbol)} is defined {len(hits)} times: {spelled}"
                    )
                hits = [(hits[0][0], chosen[0])]
            if hits:
                path, definition = hits[0]
                return Binding(
                    claim.name, path, definition.start, definition.end, claim.kind, claim.form
                )
        return None


def twice(name: str, places: set[tuple[str, int, int]]) -> Undecided:
    """Why *name*, bound at several *places* (path, first, last line), has no link."""
    spelled = "; ".join(f"{p}:{s}-{e}" for p, s, e in sorted(places))
    # C has no overloads: the same name twice is a type written once per #if branch.
    kind = "alternatives under #if" if all(p.endswith(".c") for p, _, _ in places) else "overloads"
    return Undecided(name, f"bound {len(places)} times ({kind}): {spelled}")


def unfound(claim: Claim, spelling: list[str], text: Callable[[str], str]) -> Undecided:
    """Why the definition *claim* names was not found, given the files *spelling* its names.

    Only the reason's words depend on a file that seems to define it (``name(…) {``, ``struct
    name {``), which the language core did not read as a definition (a part it could not parse);
    otherwise the definition is not in the tree (a vendored or system header, another project).
    """
    name = re.escape(claim.symbol[-1])
    seems = re.compile(
        rf"\b(?:(?:class|struct)\s+{name}\b[^;{{]*|{name}\s*\([^;{{}}]*\)\s*(?:const\s*)?)\{{"
    )
    defining = [path for path in spelling if seems.search(text(path))]
    symbol = "::".join(claim.symbol)
    if defining:
        return Undecided(
            claim.name,
            f"{claim.form} names {symbol}: {', '.join(defining[:3])} seems to define it, but "
            "the language core reads no definition of it there",
        )
    return Undecided(
        claim.name,
        f"{claim.form} names {symbol}, whose definition is not in the tree's compiled sources",
    )
