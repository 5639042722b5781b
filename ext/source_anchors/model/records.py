"""The records that flow through the extension, their statuses, and their one JSON form (pure).

Data flows one way: a :class:`~source_anchors.model.target.Target` resolves to a
:class:`Location`; compared with the lock's :class:`LockRecord` it gives an :class:`Outcome`;
a front end wraps that in an :class:`AnchorRecord` (page, line, label) for its report,
``check``'s output and the generated pages. Every conversion to and from JSON is a method here:
the lock, the resolution cache and the report use nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from operator import itemgetter
from typing import Any

from .changeclass import ChangeClass
from .subtypes import Subtype
from .target import Target
from .version import RESOLVER_VERSION as RESOLVER_VERSION  # where it is kept: model.version

#: Bump when the suggestion rules (:mod:`source_anchors.suggest.suggester`) change, so cached
#: suggestions are recomputed.
SUGGESTER_VERSION = (
    7  # 3: elsewhere.py; 4: a line keeps its kind and clause; 5: close value statements; 6: #Symbol
)
# 7: a missing C or C++ definition is looked for in C, C++ and .h files alike

#: Blob ids of other files a resolution read, as sorted ``(path, blob)`` pairs.
Uses = tuple[tuple[str, str], ...]


class Status(StrEnum):
    """An anchor's status compared with the lock (``error``: it could not be checked)."""

    ok = "ok"
    moved = "moved"
    changed = "changed"
    missing = "missing"
    new = "new"
    error = "error"

    @property
    def drifted(self) -> bool:
        """Whether the anchor no longer matches the lock (``moved``, ``changed`` or ``missing``)."""
        return self in (Status.moved, Status.changed, Status.missing)

    @property
    def failed(self) -> bool:
        """Whether the anchor is a problem for ``check`` (drifted, or not checkable)."""
        return self.drifted or self is Status.error


def line_range(start: int, end: int) -> str:
    """``Lstart–Lend`` (``Lstart`` for one line): the one way a range is written, en dash included."""
    return f"L{start}" if start == end else f"L{start}–L{end}"


def _uses(raw: Any) -> Uses:
    """Uses from their JSON form (a ``{path: blob}`` object)."""
    if not raw and isinstance(raw, Mapping):
        return ()  # most anchors read only their own file
    if not isinstance(raw, Mapping):
        raise TypeError("'uses' must map paths to blob ids")
    # The lock and the cache write them sorted (and the lock reader checks their types): a warm
    # build reads thousands, so they are taken in their order.
    return tuple(raw.items())


@dataclass(frozen=True)
class Location:
    """Where a target resolves in a pinned tree: file, 1-based inclusive lines, content hashes."""

    path: str
    start: int
    end: int
    #: The kind of the object (``function``, ``class``, ``attribute``, ``module``), or
    #: ``statement``; for a file target, ``file`` (the whole file) or ``line`` (one line of a file
    #: that is not Python).
    kind: str
    #: sha256 of the lines, joined with ``\n``.
    sha256: str
    #: git blob id of the whole file.
    blob: str
    uses: Uses = ()
    #: The binding rules (``+``-joined names of :data:`~source_anchors.reading.python.rules.RULES`)
    #: that chose this binding among several of the same name; empty when the name is bound once.
    rule: str = ""
    #: The other bindings of the name in the same file, as (start, end) lines.
    others: tuple[tuple[int, int], ...] = ()
    #: What could make the answer differ at runtime (a base not read statically, a shadowed
    #: submodule).
    caveat: str = ""

    @property
    def whole_file(self) -> bool:
        """Whether the location is a whole module or file (linked without a line fragment)."""
        return self.kind in _WHOLE

    def describe(self) -> str:
        """``path:Lstart–Lend``, or the bare path of a whole module or file."""
        return (
            self.path if self.kind in _WHOLE else f"{self.path}:{line_range(self.start, self.end)}"
        )

    def span(self) -> str:
        """``path:Lstart–Lend`` even for a whole module or file: the form a lock record is compared in."""
        return f"{self.path}:{line_range(self.start, self.end)}"

    def explain(self) -> str:
        """`` (rule …; other bindings …; caveat)`` for messages, or "" when there is nothing to say."""
        if not (self.rule or self.others or self.caveat):
            return ""  # a name bound once: most anchors
        parts = [f"rule {self.rule}"] if self.rule else []
        if self.others:
            parts.append("other bindings " + ", ".join(line_range(s, e) for s, e in self.others))
        if self.caveat:
            parts.append(self.caveat)
        return f" ({'; '.join(parts)})" if parts else ""

    def to_json(self) -> dict[str, Any]:
        """The resolution cache's form (``rule``, ``others``, ``caveat`` only when set)."""
        data: dict[str, Any] = {
            "path": self.path,
            "start": self.start,
            "end": self.end,
            "kind": self.kind,
            "sha256": self.sha256,
            "blob": self.blob,
            "uses": dict(self.uses),
        }
        if self.rule:
            data["rule"] = self.rule
        if self.others:
            data["others"] = [list(span) for span in self.others]
        if self.caveat:
            data["caveat"] = self.caveat
        return data

    @classmethod
    def made(
        cls,
        path: str,
        start: int,
        end: int,
        kind: str,
        sha256: str,
        blob: str,
        uses: Uses = (),
        rule: str = "",
        others: tuple[tuple[int, int], ...] = (),
        caveat: str = "",
    ) -> Location:
        """The same location as ``Location(...)`` gives, made without the dataclass's ``__init__``.

        A resolver makes one per anchor: the ``__init__`` of a frozen dataclass sets each of its
        ten fields through ``object.__setattr__``, which cost as much as the rest of resolving a
        definition by name (``bench/languages.py``).
        """
        location = _NEW(cls)
        # Its own dict filled key by key, in the fields' order (a dict given whole, or a dict of
        # keyword arguments updated from, cost more: the instance's dict shares its keys).
        fields = location.__dict__
        fields["path"] = path
        fields["start"] = start
        fields["end"] = end
        fields["kind"] = kind
        fields["sha256"] = sha256
        fields["blob"] = blob
        fields["uses"] = uses
        fields["rule"] = rule
        fields["others"] = others
        fields["caveat"] = caveat
        return location

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Location:
        """Read :meth:`to_json`'s form; raises ``KeyError``/``TypeError`` when it is not that.

        A warm build reads one per anchor: plain values are taken as they are, after a type check.
        """
        path, start, end, kind, sha256, blob = _LOCATION_OF(raw)
        if not (
            type(path) is type(kind) is type(sha256) is type(blob) is str
            and type(start) is type(end) is int
        ):
            raise TypeError("a cached location holds values of the wrong type")
        others = raw.get("others")
        return cls(
            path,
            start,
            end,
            kind,
            sha256,
            blob,
            _uses(raw.get("uses") or {}),
            raw.get("rule", ""),
            tuple((int(a), int(b)) for a, b in others) if others else (),
            raw.get("caveat", ""),
        )


#: The kinds of location that are a whole file.
_WHOLE = frozenset({"module", "file"})
_LOCATION_OF = itemgetter("path", "start", "end", "kind", "sha256", "blob")


def resolution_to_json(result: Location | str) -> dict[str, Any]:
    """The resolution cache's entry: a location, or ``{"missing": why}`` for a failure."""
    return {"missing": result} if isinstance(result, str) else result.to_json()


def resolution_from_json(entry: Any) -> Location | str | None:
    """Read :func:`resolution_to_json`'s form; None when *entry* is not that."""
    if not isinstance(entry, Mapping):
        return None
    if "missing" in entry:
        return str(entry["missing"])
    try:
        return Location.from_json(entry)
    except (KeyError, TypeError, ValueError):
        return None


_NEW = object.__new__


@dataclass(frozen=True)
class LockRecord:
    """What the lock remembers of one (repository, target key)."""

    #: The commit the record was locked at; ``""`` for the docs' own repository (``self``).
    commit: str
    path: str
    start: int
    end: int
    sha256: str
    blob: str
    #: Blob ids of the other files the resolution read, so they too vouch for a distribution.
    uses: Uses = ()
    #: The location's kind (``function``, ``file``, ``statement``...), kept for a file target of a
    #: pinned commit only: the lock answers for it where no source has the file
    #: (:func:`source_anchors.engine.unchanged.from_lock`); ``""`` otherwise.
    kind: str = ""

    @classmethod
    def at(cls, commit: str, location: Location, *, kind: bool = False) -> LockRecord:
        """The record that locks *location* at *commit* (with its kind when *kind*)."""
        return cls(
            commit=commit,
            path=location.path,
            start=location.start,
            end=location.end,
            sha256=location.sha256,
            blob=location.blob,
            uses=location.uses,
            kind=location.kind if kind else "",
        )

    def describe(self) -> str:
        """``path:Lstart–Lend``."""
        return f"{self.path}:{line_range(self.start, self.end)}"

    def to_json(self) -> dict[str, Any]:
        """The lock file's form (``uses`` only when the resolution read other files; no ``commit`` for ``self``)."""
        data: dict[str, Any] = {
            **({"commit": self.commit} if self.commit else {}),
            "path": self.path,
            "start": self.start,
            "end": self.end,
            "sha256": self.sha256,
            "blob": self.blob,
        }
        if self.uses:
            data["uses"] = dict(self.uses)
        if self.kind:
            data["kind"] = self.kind
        return data

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> LockRecord:
        """Read :meth:`to_json`'s form (validated by the lock reader first).

        A lock holds thousands: each is made without the dataclass's ``__init__``, which sets every
        field of a frozen instance through ``object.__setattr__`` (a third of the time of reading a
        record).
        """
        record = _NEW(cls)
        record.__dict__.update(
            commit=raw["commit"],
            path=raw["path"],
            start=raw["start"],
            end=raw["end"],
            sha256=raw["sha256"],
            blob=raw["blob"],
            uses=_uses(raw.get("uses", {})),
            kind=raw.get("kind", ""),
        )
        return record


@dataclass(frozen=True)
class Suggestion:
    """Where a missing target probably went (:mod:`~source_anchors.suggest.suggester`).

    A new target key, how sure, why.
    """

    #: The new ``dotted.path[::match]`` (the repository prefix is the author's, kept as written).
    key: str
    #: :func:`~source_anchors.suggest.lines.similarity` of the locked lines and the suggested
    #: ones (1.0: the same lines).
    similarity: float
    #: ``same lines``, ``similar definition``, ``member of <class>``, ``similar line``, the
    #: history's ``moved in …``/``renamed in …``, and :mod:`~source_anchors.suggest.elsewhere`'s
    #: (``same name``, ``renamed member``…).
    reason: str
    #: ``path:Lstart–Lend`` of the suggestion in the pinned tree.
    where: str

    def describe(self) -> str:
        """``new.key at path:L3–L9 (similar definition, similarity 0.91)``."""
        return f"{self.key} at {self.where} ({self.reason}, similarity {self.similarity:.2f})"

    def to_json(self) -> dict[str, Any]:
        """The form ``check --json`` and the report print."""
        return {
            "target": self.key,
            "similarity": self.similarity,
            "reason": self.reason,
            "where": self.where,
        }


@dataclass(frozen=True)
class Outcome:
    """The result of checking one target text against its pin and the lock."""

    #: The target as written (stripped); :attr:`name` is its canonical form when it parsed.
    text: str
    status: Status
    message: str = ""
    #: The warning subtype when the outcome is a problem to report.
    subtype: Subtype | None = None
    target: Target | None = None
    commit: str | None = None
    location: Location | None = None
    locked: LockRecord | None = None
    permalink: str | None = None
    #: For ``missing``: why the target did not resolve (kept in the resolution cache).
    resolve_error: str | None = None
    #: Whether the location (or the failure) was computed now, not read from the resolution cache.
    fresh: bool = False
    #: Set when the problem is not this anchor's but shared by many (a repository that cannot be
    #: obtained, a missing lock file): one warning per group names the cause and the anchors it
    #: affects.
    group: str | None = None
    #: For ``missing``: where the locked lines probably went, when a suggestion reaches the
    #: threshold.
    suggestion: Suggestion | None = None
    #: For ``changed``: what kind of change the lines went through (see
    #: :mod:`source_anchors.reading.python.changes`).
    change_class: ChangeClass | None = None
    #: For ``changed``: the whole diff from the locked lines (the message holds its first lines), or
    #: "".
    diff: str = ""

    @property
    def name(self) -> str:
        """``repo:key`` when the target parsed, else the text as written."""
        return str(self.target) if self.target is not None else self.text

    def change(self) -> str:
        """``old → new`` for messages: ``(not locked)`` and ``(gone)`` stand for what is absent."""
        old = self.locked.describe() if self.locked else "(not locked)"
        if self.location is not None:
            # The lock records a whole module's lines: so does the new side, or the two read as a
            # move.
            new = self.location.describe() if self.locked is None else self.location.span()
        else:
            new = "(not checked)" if self.status is Status.error else "(gone)"
        return f"{old} → {new}"

    def where(self) -> str:
        """``path:Lstart–Lend@short-sha`` as printed after a label (empty when unresolved)."""
        if self.location is None:
            return ""
        return f"{self.location.describe()}@{(self.commit or '')[:7]}"


@dataclass(frozen=True)
class AnchorRecord:
    """One anchor occurrence on a page: where it is written (page and line), and what checking it gave.

    A front end names its pages: the page is the file the anchor is written in, as the front end
    names it to its user (the Sphinx glue: the file's path in the book's source folder without its
    suffix). The record knows nothing of how a front end keeps or shows it.
    """

    page: str
    line: int
    label: str
    outcome: Outcome
    #: The anchor's place in the reading order of its page (1 for the first).
    seq: int = 1

    @property
    def status(self) -> Status:
        """The outcome's status."""
        return self.outcome.status

    @property
    def order(self) -> tuple[str, int, int]:
        """Sort key: page, line, reading order."""
        return self.page, self.line, self.seq

    def to_check_json(self) -> dict[str, Any]:
        """The form ``check --json`` prints: the locked (``old``) and current (``new``) place.

        Each place is ``{"commit", "path", "start", "end"}`` (or null), fields for a program to
        read, where the text output shows ``path:Lstart–Lend``.
        """
        out, old, new = self.outcome, self.outcome.locked, self.outcome.location
        return {
            "status": out.status.value,
            "doc": self.page,
            "line": self.line,
            "label": self.label,
            "target": out.name,
            "old": {"commit": old.commit, "path": old.path, "start": old.start, "end": old.end}
            if old
            else None,
            "new": {"commit": out.commit, "path": new.path, "start": new.start, "end": new.end}
            if new
            else None,
            "permalink": out.permalink,
            "change": out.change_class.value if out.change_class else None,
            "message": out.message,
            "suggestion": out.suggestion.to_json() if out.suggestion else None,
        }

    def to_json(self) -> dict[str, Any]:
        """The report's form (``source-anchors.json``): one object per occurrence."""
        out, loc = self.outcome, self.outcome.location
        return {
            "doc": self.page,
            "line": self.line,
            "label": self.label,
            "target": out.name,
            "repo": out.target.repo if out.target else None,
            "commit": out.commit,
            "path": loc.path if loc else None,
            "start": loc.start if loc else None,
            "end": loc.end if loc else None,
            "permalink": out.permalink,
            "status": out.status.value,
            "change": out.change_class.value if out.change_class else None,
        }
