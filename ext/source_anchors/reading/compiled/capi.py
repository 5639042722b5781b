"""CPython's C API: ``PyMethodDef``, ``PyGetSetDef``, ``PyMemberDef`` tables, types, modules, Argument Clinic (pure).

A module is its ``PyModuleDef`` (its ``m_methods`` table); a type its ``PyTypeObject`` or
``PyType_Spec`` (``tp_name`` / ``.name``, the tables and slots it names). An entry of a table names
a C function; an Argument Clinic wrapper (``/*[clinic input]``, an entry macro ``FOO_METHODDEF``
from ``clinic/*.h``) is linked at the ``<function>_impl`` a person wrote. An entry a macro builds
that no ``#define`` of the tree spells, and a name added by ``PyModule_Add*`` at run time, are not
decided.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .ctext import Lines, closing, ident_of, split_top, string_of
from .records import Claim, Undecided

_TABLE = re.compile(
    r"\b(PyMethodDef|PyGetSetDef|PyMemberDef|PyType_Slot)\s+(\w+)\s*\[\s*\w*\s*\]\s*=\s*\{"
)
_OBJECT = re.compile(r"\b(PyTypeObject|PyType_Spec|(?:struct\s+)?PyModuleDef)\s+(\w+)\s*=\s*\{")
_DEFINE = re.compile(r"#\s*define\s+(\w+)[ \t\\\n]+\{")
_INIT = re.compile(r"\bPyInit_(\w+)\s*\(")
_ADDED = re.compile(r"\b(PyModule_Add\w*)\s*\(\s*\w+\s*,\s*\"(\w+)\"")
#: Type slots that are Python methods, designated (``.tp_init``) or in a slot table
#: (``Py_tp_init``).
_SLOTS = {
    "tp_init": "__init__",
    "tp_new": "__new__",
    "tp_call": "__call__",
    "tp_repr": "__repr__",
    "tp_str": "__str__",
    "tp_iter": "__iter__",
    "tp_iternext": "__next__",
    "tp_hash": "__hash__",
}
#: The object head that opens a type's positional initializer, with no comma before ``tp_name``.
_HEAD = re.compile(r"^\s*Py\w*_HEAD_INIT\s*\([^()]*\)")
_SENTINEL = re.compile(r"^\{\s*(NULL|0|nullptr)?\s*(,\s*(NULL|0|nullptr)\s*)*,?\s*\}$")


@dataclass
class CFile:
    """What one C file holds of the C API: its tables, types, module definitions and entry macros."""

    path: str
    #: Table name -> (kind, [(entry text, offset)]).
    tables: dict[str, tuple[str, list[tuple[str, int]]]] = field(default_factory=dict)
    #: (kind, variable, initializer text, start offset, end offset).
    objects: list[tuple[str, str, str, int, int]] = field(default_factory=list)
    #: Macro name -> the entry it expands to.
    macros: dict[str, str] = field(default_factory=dict)
    inits: list[str] = field(default_factory=list)
    added: list[tuple[str, str, int]] = field(default_factory=list)
    lines: Lines | None = None


def scan(path: str, text: str) -> CFile:
    """The C API forms of *text* (comments blanked)."""
    found = CFile(path, lines=Lines(text))
    for match in _TABLE.finditer(text):
        close = closing(text, match.end() - 1)
        if close > 0:
            body = text[match.end() : close]
            found.tables[match.group(2)] = (match.group(1), split_top(body, match.end()))
    for match in _OBJECT.finditer(text):
        close = closing(text, match.end() - 1)
        if close > 0:
            kind = match.group(1).split()[-1]
            found.objects.append(
                (kind, match.group(2), text[match.end() : close], match.start(), close)
            )
    for match in _DEFINE.finditer(text):
        close = closing(text, match.end() - 1)
        if close > 0:
            found.macros[match.group(1)] = text[match.end() - 1 : close + 1]
    found.inits = _INIT.findall(text)
    assert found.lines is not None
    found.added = [
        (call, name, found.lines.line(m.start()))
        for m in _ADDED.finditer(text)
        for call, name in [m.groups()]
    ]
    return found


def _field(body: str, names: tuple[str, ...]) -> str | None:
    """The value of a designated initializer ``.name = value`` of *body*."""
    for name in names:
        match = re.search(rf"\.\s*{name}\s*=\s*([^,}}]+)", body)
        if match:
            return match.group(1).strip()
    return None


def _first_string(body: str) -> str | None:
    """The first string of a positional initializer (``tp_name``, or ``m_name`` after its head)."""
    for part, _ in split_top(_HEAD.sub("", body, count=1)):
        value = string_of(part)
        if value is not None:
            return value
    return None


class CApi:
    """The claims of every C file of a tree, read together: a table, a macro or a function may be in another file."""

    def __init__(self, files: list[CFile], module_of: Callable[[str, str], str | None]) -> None:
        #: *module_of(path, name)*: the dotted module a file's ``PyModuleDef`` named *name* builds,
        #: or None.
        self.files = files
        self.module_of = module_of
        self.macros: dict[str, str] = {}
        #: Table name -> each file's table of that name (``module_methods`` is in many files).
        self.tables: dict[str, list[tuple[CFile, str, list[tuple[str, int]]]]] = {}
        for file in files:
            self.macros.update(file.macros)
            for name, (kind, entries) in file.tables.items():
                self.tables.setdefault(name, []).append((file, kind, entries))
        self.claims: list[Claim] = []
        self.undecided: list[Undecided] = []

    def read(self) -> tuple[list[Claim], list[Undecided]]:
        """Every claim of the modules and types of the files, and what is not decided."""
        for file in self.files:
            for kind, variable, body, start, end in file.objects:
                if kind == "PyModuleDef":
                    self._module(file, variable, body)
                else:
                    self._type(file, kind, body, start, end)
        return self.claims, self.undecided

    def _module(self, file: CFile, variable: str, body: str) -> None:
        short = _field(body, ("m_name",))
        name = string_of(short) if short else _first_string(body)
        if not name:
            return
        module = self.module_of(file.path, name)
        if module is None:
            self.undecided.append(
                Undecided(
                    name,
                    f"{file.path}: the module {name!r} of {variable} is built by "
                    "no Extension the build configuration names",
                )
            )
            return
        self.claims.append(Claim(module, file.path, "PyModuleDef", "module"))
        table = _field(body, ("m_methods",)) or self._table_in(file, body, "PyMethodDef")
        if table and self._table(file, table):
            self._entries(file, module, table, "function")
        for call, added, line in file.added:
            self.undecided.append(
                Undecided(f"{module}.{added}", f"added at run time by {call} at {file.path}:{line}")
            )

    def _type(self, file: CFile, kind: str, body: str, start: int, end: int) -> None:
        raw = _field(body, ("tp_name", "name"))
        name = string_of(raw) if raw else _first_string(body)
        if not name:
            return
        if "." not in name:
            modules = [self.module_of(file.path, init) for init in file.inits]
            module = next((m for m in modules if m), None)
            if module is None:
                return
            name = f"{module}.{name}"
        assert file.lines is not None
        lines = (file.lines.line(start), file.lines.line(end))
        self.claims.append(Claim(name, file.path, kind, "class", lines=lines))
        for table, what in (
            ("PyMethodDef", "method"),
            ("PyGetSetDef", "property"),
            ("PyMemberDef", "attribute"),
        ):
            found = self._table_in(file, body, table)
            if found:
                self._entries(file, name, found, what)
        for slot, method in _SLOTS.items():
            func = _field(body, (slot,))
            if func and (ident := ident_of(func)) and ident not in ("NULL", "0"):
                self.claims.append(
                    Claim(f"{name}.{method}", file.path, slot, "method", symbol=(ident,))
                )
        slots = self._table_in(file, body, "PyType_Slot")
        if slots:
            self._slots(file, name, slots)

    def _table(self, file: CFile, name: str) -> tuple[CFile, str, list[tuple[str, int]]] | None:
        """The table *name* as *file* sees it: its own, else the one other file's that defines it."""
        if name in file.tables:
            return (file, *file.tables[name])
        others = self.tables.get(name, [])
        return others[0] if len(others) == 1 else None

    def _table_in(self, file: CFile, body: str, kind: str) -> str | None:
        """The one table of *kind* an initializer names (positionally or by a designated field)."""
        named = [
            word
            for word in re.findall(r"\b\w+\b", body)
            if (table := self._table(file, word)) is not None and table[1] == kind
        ]
        return named[0] if named else None

    def _slots(self, seen_from: CFile, owner: str, table: str) -> None:
        found = self._table(seen_from, table)
        if found is None:
            return
        file, _, entries = found
        for entry, _ in entries:
            parts = (
                [p for p, _ in split_top(entry.strip()[1:-1])]
                if entry.strip().startswith("{")
                else []
            )
            if len(parts) < 2:
                continue
            slot, value = parts[0].strip(), parts[1]
            if slot in ("Py_tp_methods", "Py_tp_getset", "Py_tp_members"):
                what = {
                    "Py_tp_methods": "method",
                    "Py_tp_getset": "property",
                    "Py_tp_members": "attribute",
                }[slot]
                if (ident := ident_of(value)) and self._table(file, ident):
                    self._entries(file, owner, ident, what)
            elif slot[3:] in _SLOTS and slot.startswith("Py_") and (ident := ident_of(value)):
                self.claims.append(
                    Claim(f"{owner}.{_SLOTS[slot[3:]]}", file.path, slot, "method", symbol=(ident,))
                )

    def _entries(self, seen_from: CFile, owner: str, table: str, what: str) -> None:
        found = self._table(seen_from, table)
        if found is None:
            return
        file, kind, listed = found
        assert file.lines is not None
        entries: list[tuple[str, int]] = []
        for entry, offset in listed:
            # An entry macro carries its own comma (Argument Clinic's): it and the next entry are
            # one part.
            glued = re.match(r"(\s*\w+)(\s+)(?=\{)", entry)
            if glued:
                entries.append((glued.group(1), offset))
                entry, offset = entry[glued.end() :], offset + glued.end()
            entries.append((entry, offset))
        for entry, offset in entries:
            text = entry.strip()
            lead = len(entry) - len(entry.lstrip())
            if re.fullmatch(r"\w+", text):
                expanded = self.macros.get(text)
                if expanded is None:
                    self.undecided.append(
                        Undecided(
                            f"{owner}.*",
                            f"the macro {text} builds an entry of {table} "
                            f"({file.path}:{file.lines.line(offset)})",
                        )
                    )
                    continue
                text, form = expanded.strip().rstrip(","), f"{kind} (Argument Clinic)"
            else:
                form = kind
            if not text.startswith("{") or _SENTINEL.match(text):
                continue
            parts = [p for p, _ in split_top(text[1:-1] if text.endswith("}") else text[1:])]
            name = string_of(parts[0]) if parts else None
            if name is None:
                continue
            where = (
                file.lines.line(offset + lead),
                file.lines.line(offset + len(entry.rstrip()) - 1),
            )
            self.claims.append(
                self._claim(f"{owner}.{name}", file.path, kind, form, what, parts, where)
            )

    def _claim(
        self,
        name: str,
        path: str,
        kind: str,
        form: str,
        what: str,
        parts: list[str],
        where: tuple[int, int],
    ) -> Claim:
        if kind == "PyMemberDef" or len(parts) < 2:
            return Claim(name, path, form, what, lines=where)
        funcs = [ident_of(part) for part in parts[1 : 3 if kind == "PyGetSetDef" else 2]]
        func = next((f for f in funcs if f and f not in ("NULL", "0", "nullptr")), None)
        if func is None:
            return Claim(name, path, form, what, lines=where)
        # the wrapper is generated; _impl is written
        clinic = (f"{func}_impl",) if "Clinic" in form else ()
        return Claim(name, path, form, what, symbol=(func,), first=clinic)
