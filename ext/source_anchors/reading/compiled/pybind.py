"""pybind11 and nanobind: ``PYBIND11_MODULE``/``NB_MODULE`` bodies, ``.def`` chains, classes and enums (pure).

``m.def("name", &func)`` is the function ``func``; ``py::class_<T>(m, "Name")`` the type ``T``, and
each ``.def("m", &T::m)`` chained on it (or called on its variable) the method ``T::m``;
``py::overload_cast`` and ``static_cast`` are looked through. A lambda, a constructor
(``py::init``), a field (``.def_readwrite``, ``.def_rw``), an enum's ``.value`` are linked at the
``.def`` call's own lines. A function that takes the module (``void init_x(py::module_ &m)``) called
from the module's body binds into that module. ``m.attr("x") = …`` is a value made at run time: not
decided.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .ctext import Lines, closing, split_top, string_of
from .records import Claim, Undecided

#: ``\bPYBIND11_MODULE``, the word's boundary checked behind its first letter: a pattern that
#: starts with letters is looked for by them, one that starts with ``\b`` tried at every character.
_MODULE = re.compile(r"(P(?<!\wP)YBIND11_MODULE|N(?<!\wN)B_MODULE)\s*\(\s*(\w+)\s*,\s*(\w+)\s*[,)]")
#: A function that takes the module, by reference or by value (a ``py::module`` is a handle):
#: ``void init_x(py::module_ &m)``, ``void bind_x(py::module m)``.
_BINDER = re.compile(
    r"v(?<!\wv)oid\s+(\w+)\s*\(\s*(?:const\s+)?(?:py|pybind11|nb|nanobind)::module_?\s*&?\s*(\w+)\s*\)\s*\{"
)
_CLASS = re.compile(
    r"\b(?:py|pybind11|nb|nanobind)::(class_|enum_|exception|register_exception)\s*<"
)
_CALL = re.compile(r"\.\s*(def\w*|value|attr)\s*\(")
#: ``&Class::member``, an operator too (``&FCN::operator()``, named ``operator()`` as the C++ core
#: names it).
_MEMBER = re.compile(r"&\s*((?:\w+\s*::\s*)*(?:operator\s*(?:\(\s*\)|\[\s*\]|[^\w\s(),]+)|\w+))")
_ANGLES = re.compile(r"[<>]")
_FIELD = (
    "def_readwrite",
    "def_readonly",
    "def_rw",
    "def_ro",
    "def_readwrite_static",
    "def_readonly_static",
)


def _angle(text: str, at: int) -> int:
    """The offset of the ``>`` closing the ``<`` at *at*, or -1."""
    depth = 0
    for found in _ANGLES.finditer(text, at):  # the characters between cannot matter
        if found[0] == "<":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return found.start()
    return -1


class PybindFile:
    """The claims of one C++ file's pybind11 or nanobind bindings."""

    def __init__(
        self,
        path: str,
        text: str,
        module_of: Callable[[str, str], str | None],
        binders: dict[str, str],
    ) -> None:
        #: *binders*: a function taking the module -> the dotted module calls from a module body
        #: give it.
        self.path, self.text, self.lines = path, text, Lines(text)
        self.module_of, self.binders = module_of, binders
        self.claims: list[Claim] = []
        self.undecided: list[Undecided] = []
        #: The dotted names of the classes made so far (a chain on their variable binds methods, not
        #: functions).
        self.classes: set[str] = set()

    def read(self) -> None:
        """Claims of every module body of the file, then of its binder functions whose module is known."""
        for match in _MODULE.finditer(self.text):
            body = self.text.find("{", match.end())
            module = self.module_of(self.path, match.group(2))
            if body < 0 or module is None:
                continue
            close = closing(self.text, body)
            self.claims.append(Claim(module, self.path, match.group(1), "module"))
            self._scope(body + 1, close, {match.group(3): module})
            for call in re.finditer(
                r"\b(\w+)\s*\(\s*" + match.group(3) + r"\s*\)\s*;", self.text[body:close]
            ):
                self.binders.setdefault(call.group(1), module)

    def read_binders(self) -> None:
        """Claims of the functions that take the module, called from a module body of any file."""
        for match in _BINDER.finditer(self.text):
            module = self.binders.get(match.group(1))
            if module is not None:
                self._scope(
                    match.end(), closing(self.text, match.end() - 1), {match.group(2): module}
                )

    def _scope(self, start: int, end: int, owners: dict[str, str]) -> None:
        for statement, offset in split_top(self.text[start:end], start, ";"):
            self._statement(statement, offset, owners)

    def _statement(self, text: str, offset: int, owners: dict[str, str]) -> None:
        lead = len(text) - len(text.lstrip())
        at, owner = lead, None
        made = _CLASS.search(text)
        if made is not None and not text[: made.start()].strip().endswith((".", "->")):
            owner, at = self._class(text, offset, made, owners)
        else:
            var = re.match(r"\s*(\w+)\s*\.", text)
            if var is None or var.group(1) not in owners:
                return
            owner, at = owners[var.group(1)], var.end() - 1
        if owner is None:
            return
        module_level = owner in owners.values() and owner not in self.classes
        for call in _CALL.finditer(text, at):
            if text[: call.start()].count("(") != text[: call.start()].count(")"):
                continue  # a call inside an argument, not one of the chain
            close = closing(text, call.end() - 1)
            if close < 0:
                return
            self._def(
                call.group(1),
                text[call.end() : close],
                offset + call.start() + 1,
                offset + close,
                owner,
                module_level,
            )

    def _class(
        self, text: str, offset: int, made: re.Match[str], owners: dict[str, str]
    ) -> tuple[str | None, int]:
        """The dotted name of the class *made* makes (its variable noted in *owners*), and where its chain starts."""
        close_angle = _angle(text, made.end() - 1)
        paren = text.find("(", close_angle) if close_angle > 0 else -1
        if paren < 0:
            return None, len(text)
        cpp = split_top(text[made.end() : close_angle].replace("<", "(").replace(">", ")"))
        args = [part for part, _ in split_top(text[paren + 1 : closing(text, paren)])]
        parent = owners.get(args[0].strip()) if args else None
        name = string_of(args[1]) if len(args) > 1 else None
        if parent is None or name is None:
            return None, len(text)
        dotted = f"{parent}.{name}"
        self.classes.add(dotted)
        var = re.search(r"(\w+)\s*(?:=\s*$|$)", text[close_angle + 1 : paren])
        if var is not None and var.group(1):
            owners[var.group(1)] = dotted
        symbol = (
            tuple(re.split(r"\s*::\s*", cpp[0][0].strip()))
            if cpp and made.group(1) == "class_"
            else ()
        )
        start = self.lines.line(offset + made.start())
        call_end = self.lines.line(offset + closing(text, paren))
        if symbol and re.fullmatch(r"\w+", symbol[-1]):
            self.claims.append(
                Claim(
                    dotted,
                    self.path,
                    f"{made.group(1)}<…>",
                    "class",
                    symbol=symbol,
                    lines=(start, call_end),
                )
            )
        else:
            self.claims.append(
                Claim(dotted, self.path, f"{made.group(1)}<…>", "class", lines=(start, call_end))
            )
        return dotted, closing(text, paren) + 1

    def _def(
        self, method: str, args_text: str, start: int, end: int, owner: str, module_level: bool
    ) -> None:
        args = [part for part, _ in split_top(args_text)]
        where = (self.lines.line(start), self.lines.line(end))
        if (
            method == "def"
            and args
            and re.match(r"\s*(?:py|pybind11|nb|nanobind)::(init|new_)", args[0])
        ):
            self.claims.append(
                Claim(
                    f"{owner}.__init__",
                    self.path,
                    f".def({args[0].strip()[:8]}…)",
                    "method",
                    lines=where,
                )
            )
            return
        name = string_of(args[0]) if args else None
        if name is None:
            return
        if method == "attr":
            self.undecided.append(
                Undecided(
                    f"{owner}.{name}",
                    f'a value set at run time by .attr("{name}") at {self.path}:{where[0]}',
                )
            )
            return
        kind = (
            "function"
            if module_level
            else "attribute"
            if method in _FIELD or method == "value"
            else "property"
            if "prop" in method
            else "method"
        )
        form = f".{method}"
        target = args[1] if len(args) > 1 else ""
        member = _MEMBER.search(target) if method not in _FIELD and method != "value" else None
        if member is None or target.lstrip().startswith("["):
            self.claims.append(Claim(f"{owner}.{name}", self.path, form, kind, lines=where))
            return
        symbol = tuple(re.sub(r"\s+", "", part) for part in member.group(1).split("::"))
        self.claims.append(
            Claim(f"{owner}.{name}", self.path, form, kind, symbol=symbol, lines=where)
        )
