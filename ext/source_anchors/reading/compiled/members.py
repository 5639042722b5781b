"""C++'s member lookup for a binding that names ``&Class::member``: the class, then its bases in order (pure).

A pybind11 or nanobind ``.def("m", &T::m)`` names the member ``m`` of the class ``T``. Where no
definition of ``T::m`` with a body is in the tree (the index's search by the written name found
none), C++'s own lookup is followed, statically:

1. the class ``T``: its definition, a ``class`` or ``struct`` with a body, by the name as written
   (several of that name: the one in the innermost scope around the class that names it, as C++'s
   unqualified lookup finds it);
2. when ``T`` declares ``m``, that is the member: its definition with a body, in the class or outside
   it (``Type<T>::m``, ``Type::m``, template arguments left out), else a pure virtual declaration
   (``= 0``), which has no body by design; a declaration whose definition is not in the tree is not
   decided;
3. when ``T`` does not declare ``m``, each base of ``T`` in the order its ``base_class_clause``
   writes them (a template base by its name without arguments, ``BaseContourGenerator<Derived>`` is
   ``BaseContourGenerator``), each searched the same way. Found in two bases at two places: C++ says
   the name is ambiguous, and no link is given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..language import Definition
from ..languages.cpp import CPP
from ..registry import language_for

#: Kinds of a definition that is a class whose members and bases are read.
_CLASSES = frozenset({"class", "struct"})
#: A pure virtual declaration's end: ``= 0;``.
_PURE = re.compile(r"=\s*0\s*;\s*$")
#: How deep a chain of bases is followed (a cycle, a very deep hierarchy).
_DEPTH = 16

#: What the lookup gives: the file, the member's definition and the bases it was found through;
#: or why it is not decided; or None when the class is not in the tree.
Found = tuple[str, Definition, tuple[str, ...]] | str | None


class MemberLookup:
    """C++'s lookup of a member in a class and its bases, over the tree's C and C++ files."""

    def __init__(
        self,
        spelling: Callable[[tuple[str, ...]], list[str]],
        named: Callable[[str, str], list[Definition]],
        data: Callable[[str], bytes],
        text: Callable[[str], str],
        may_type: Callable[[str, str], bool],
        may_callable: Callable[[str, str], bool],
    ) -> None:
        #: *spelling*: the C and C++ files that spell every name of a path (no other may define
        #: it, and none other is parsed); *named*: a file's definitions of a name (their path's last);
        #: *data*: a file's bytes; *text*: its text with the comments blanked; *may_type* and
        #: *may_callable*: whether a file may define a type, a function, of a name
        #: (:meth:`~.files.CompiledFiles.may_name_type`; a file that may not is not parsed for it).
        self._spelling, self._named = spelling, named
        self._data, self._text = data, text
        self._may_type, self._may_callable = may_type, may_callable

    def member(self, symbol: Sequence[str], *, function: bool = False) -> Found:
        """The member ``symbol[-1]`` of the class ``symbol[:-1]`` (as a binding writes it); *function*: a method's."""
        return self._in(tuple(symbol[:-1]), (), symbol[-1], (), 0, function)

    def _classes(
        self, written: tuple[str, ...], near: tuple[str, ...]
    ) -> list[tuple[str, Definition]]:
        """The class definitions named *written* from the scope *near* (its innermost first)."""
        found = [
            (path, d)
            for path in self._spelling(written)
            if self._may_type(path, written[-1])
            for d in self._named(path, written[-1])
            if d.kind in _CLASSES and d.body and d.path[-len(written) :] == written
        ]
        if len(found) > 1:
            for k in range(len(near), -1, -1):
                exact = [(p, d) for p, d in found if d.path == near[:k] + written]
                if exact:
                    return exact
        return found

    def _in(
        self,
        written: tuple[str, ...],
        near: tuple[str, ...],
        name: str,
        via: tuple[str, ...],
        depth: int,
        function: bool,
    ) -> Found:
        classes = self._classes(written, near)
        if not classes or depth > _DEPTH:
            return None
        if len(classes) > 1:
            return f"class {'::'.join(written)} is defined {len(classes)} times: " + "; ".join(
                f"{p}:{d.start}-{d.end}" for p, d in classes
            )
        path, owner = classes[0]
        full = (*owner.path, name)
        bodies = [
            (p, d)
            for p in self._spelling(full)
            if not function or self._may_callable(p, name)
            for d in self._named(p, name)
            if d.body and d.path == full
        ]
        if len(bodies) == 1:
            return bodies[0][0], bodies[0][1], via
        if bodies:
            return f"{'::'.join(full)} is defined {len(bodies)} times (overloads): " + "; ".join(
                f"{p}:{d.start}-{d.end}" for p, d in bodies
            )
        declared = [d for d in self._named(path, name) if not d.body and d.path == full]
        if len(declared) == 1 and self._pure(path, declared[0]):
            return path, declared[0], via
        if declared:
            return (
                f"{'::'.join(full)} is declared at {path}:{declared[0].start}, and its definition "
                "is not in the tree's compiled sources"
            )
        return self._bases(path, owner, name, via, depth, function)

    def _bases(
        self,
        path: str,
        owner: Definition,
        name: str,
        via: tuple[str, ...],
        depth: int,
        function: bool,
    ) -> Found:
        """*name* in the bases of the class *owner* (of *path*): the one base that has it, or ambiguous."""
        data = self._data(path)
        if language_for(path, data) is not CPP:
            return None
        found: list[tuple[tuple[str, ...], Found]] = []
        for base in CPP.bases(data, owner):
            answer = self._in(
                base, owner.path[:-1], name, (*via, "::".join(base)), depth + 1, function
            )
            if answer is not None:
                found.append((base, answer))
        for _, answer in found:
            if isinstance(answer, str):
                return answer
        places = {(a[0], a[1].start, a[1].end) for _, a in found if isinstance(a, tuple)}
        if len(places) > 1:
            return (
                f"{name} is a member of {len(places)} bases of {'::'.join(owner.path)} "
                "(ambiguous in C++): "
                + "; ".join(
                    f"{'::'.join(base)} at {a[0]}:{a[1].start}-{a[1].end}"
                    for base, a in found
                    if isinstance(a, tuple)
                )
            )
        return found[0][1] if found else None

    def _pure(self, path: str, declaration: Definition) -> bool:
        """Whether *declaration* is pure virtual: its text ends ``= 0;``."""
        lines = self._text(path).splitlines()[declaration.start - 1 : declaration.end]
        return bool(_PURE.search("\n".join(lines).rstrip()))
