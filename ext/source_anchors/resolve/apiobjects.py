"""Where a documented Python object is defined, for its ``[source]`` link (no Sphinx, nothing imported).

A documented object is named as Sphinx's Python domain names it: a module (``pkg.sub``) and a
dotted name inside it (``Client.send``). :func:`locate` resolves ``module.fullname`` with the
anchors' resolver (:class:`~.resolve.Resolver`): through re-exports to the defining module, by the
MRO to the class that defines an inherited member, to the implementation of overloads and the
getter of a property (its setter and deleter included in the range). An object that cannot be found
statically gets a :class:`NoLink` with one of the :class:`Reason` values, never an exception.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from ..model.errors import ResolveError, SourceAnchorsError, UpstreamFileError
from ..model.records import line_range

if TYPE_CHECKING:
    from ..model.config import RepoPin
    from ..model.records import Location
    from .resolver import Resolver

__all__ = [
    "OVERRIDE_RULE",
    "ApiLink",
    "NoLink",
    "Reason",
    "extend_accessors",
    "link_for",
    "locate",
    "served_by",
    "unbound",
]

#: The rule an API link names when ``source_anchors_api_overrides`` chose its definition.
OVERRIDE_RULE = "api-override"


class Reason(StrEnum):
    """Why a documented object has no ``[source]`` link."""

    #: Its module is not a Python file of the linked packages: a C extension, a builtin, another
    #: project.
    no_source = "no Python source"
    #: Its module is there, but no statement binds the name: the object is made at run time.
    not_bound = "not bound statically"
    #: The file that would define it cannot be read statically (syntax error, not UTF-8, too large).
    unreadable = "source not readable"
    #: No statement binds it, and its module defines ``__getattr__``, which serves it at run time.
    served = "served by a module __getattr__"
    #: A compiled module makes it, in a form not read statically: at run time, by a macro, as an
    #: overload set.
    compiled = "compiled, not decided statically"


@dataclass(frozen=True)
class ApiLink:
    """A documented object's source: the permalink, and the lines it names."""

    url: str
    path: str
    start: int
    end: int
    #: The tag or short commit shown to readers.
    shown: str
    #: The binding rules that chose the definition (``+``-joined; "" when the name is bound once).
    rule: str = ""

    def where(self) -> str:
        """``path:Lstart–Lend@shown``, as the location printed after a signature."""
        return f"{self.path}:{line_range(self.start, self.end)}@{self.shown}"


@dataclass(frozen=True)
class NoLink:
    """A documented object without a link, and why."""

    reason: Reason
    detail: str = ""


def dotted(module: str | None, fullname: str) -> str:
    """The dotted path of an object: its module and its name inside it."""
    return f"{module}.{fullname}" if module and fullname else (module or fullname)


#: The first line of a property's other accessor: ``@name.setter``, ``@name.deleter``,
#: ``@name.getter``.
_ACCESSOR = re.compile(r"^\s*@\w+\.(setter|deleter|getter)\b")

#: What the walk adds when a class has bases outside the tree: a member it lacks may come from them.
_INHERITED_OUTSIDE = "bases not read statically"


def locate(resolver: Resolver, module: str | None, fullname: str) -> Location | NoLink:
    """Where *module*.*fullname* is defined in *resolver*'s tree, or why it cannot be said."""
    path = dotted(module, fullname)
    top = path.split(".", 1)[0]
    if not path or top not in resolver.files.packages:
        return NoLink(Reason.no_source, f"{top!r} is not a package of the linked tree")
    try:
        found = resolver.resolve(path)
        return extend_accessors(found, resolver.file_lines(found.path))
    except UpstreamFileError as error:
        return NoLink(Reason.unreadable, str(error))
    except ResolveError as error:
        from ..reading.python import OutsideError  # loaded with the resolver

        outside = (
            isinstance(error, OutsideError)
            or _INHERITED_OUTSIDE in str(error)
            or resolver.files.module_file(module or top) is None
        )
        if outside:
            return NoLink(Reason.no_source, str(error))
        return unbound(resolver, path, str(error))
    except SourceAnchorsError as error:
        return NoLink(Reason.unreadable, str(error))


def unbound(resolver: Resolver, path: str, message: str) -> NoLink:
    """Why *path*, which no statement binds, has no link: served by a module ``__getattr__``, or not bound."""
    served = served_by(resolver, path)
    if served is None:
        return NoLink(Reason.not_bound, message)
    return NoLink(
        Reason.served, f"served by {served}.__getattr__ (set source_anchors_api_overrides)"
    )


def served_by(resolver: Resolver, path: str) -> str | None:
    """The module whose ``__getattr__`` serves *path* at run time, or None.

    That is the longest prefix of *path* that resolves, when it is a module whose body defines
    ``__getattr__`` (PEP 562), which Python calls for a name the module does not bind, and whose
    text spells the missing name as a string (``if name == "old"``, a table of deprecated names):
    what the function returns is not followed. A prefix that is a class, a function or a value is
    not served by it.
    """
    parts = path.split(".")
    for n in range(len(parts) - 1, 0, -1):
        try:
            ref = resolver.walker.object(".".join(parts[:n]))
            if ref.bind is not None:
                return None
            binds = resolver.walker.index(ref).bindings.get("__getattr__", ())
        except (ResolveError, UpstreamFileError):
            continue
        if not any(b.owner == 0 for b in binds):
            return None
        missing = parts[n]
        spelled = (f'"{missing}"', f"'{missing}'")
        return (
            ref.module
            if any(q in line for line in resolver.file_lines(ref.file) for q in spelled)
            else None
        )
    return None


def extend_accessors(location: Location, lines: list[str]) -> Location:
    """A property's getter range, extended over its ``@x.setter`` and ``@x.deleter`` that follow it.

    The other bindings of the name are only the accessors (a ``self.x = …`` is one, too): each is
    known by its first line, of the file's *lines*.
    """
    if "getter-over-accessors" not in location.rule or not location.others:
        return location
    end = location.end
    for begin, stop in location.others:
        if begin > location.start and _ACCESSOR.match(
            lines[begin - 1] if begin <= len(lines) else ""
        ):
            end = max(end, stop)
    if end == location.end:
        return location
    from dataclasses import replace

    return replace(location, end=end)


def link_for(pin: RepoPin, location: Location, *, shown: str, commit: str | None = None) -> ApiLink:
    """The link of *location* in *pin*'s repository (at *commit*, default the pin's)."""
    whole = location.kind == "module"
    url = pin.permalink_template.render(
        url=pin.url,
        commit=commit or pin.commit,
        path=location.path,
        start=None if whole else location.start,
        end=None if whole else location.end,
    )
    return ApiLink(
        url=url,
        path=location.path,
        start=location.start,
        end=location.end,
        shown=shown,
        rule=location.rule,
    )
