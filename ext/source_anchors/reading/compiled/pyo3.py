"""PyO3: ``#[pyfunction]``, ``#[pyclass]``, ``#[pymethods] impl``, getters and setters, and the ``#[pymodule]`` (pure).

A crate is read whole (a function may be defined in one file and added in another). The module's
``m.add_function(wrap_pyfunction!(f, m)?)`` and ``m.add_class::<T>()`` (or a declarative
``#[pymodule] mod``'s items and ``#[pymodule_export] use``) say what it holds; the Python names are
the renames of ``#[pyo3(name = "…")]``, ``#[pyclass(name = "…")]``, ``#[getter(x)]``, and a getter's
``get_`` prefix dropped, as PyO3 does; an attribute under ``#[cfg_attr(feature = …, pyclass)]`` is
read as written. ``#[new]`` is ``__new__``; ``#[pyo3(get, set)]`` fields are
attributes at their own lines. ``m.add("NAME", value)`` is a value made at run time: not decided.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .ctext import Lines, closing, split_top, string_of
from .records import Claim, Undecided

_ATTR_NAME = re.compile(r"\bname\s*=\s*(\"[^\"]*\")")
_ITEM = re.compile(r"\b(fn|struct|enum|impl|mod)\s+(?:<[^>]*>\s*)?(\w+)")
#: ``#[new]``, the constructor PyO3 makes ``__new__``.
_CONSTRUCTOR = re.compile(r"^new$")
_FIELD = re.compile(r"(?:pub(?:\s*\([^)]*\))?\s+)?(\w+)\s*:")


@dataclass
class Crate:
    """What the Rust files of a tree declare for PyO3, by Rust name."""

    #: Rust fn -> (Python name, path, the line of its ``fn``). The line says which definition of
    #: that name it is: a crate may define a plain ``fn`` of the same name elsewhere (jiter's
    #: ``cache_clear``, wrapped by the ``#[pyfunction]`` of its declarative module).
    functions: dict[str, tuple[str, str, int]] = field(default_factory=dict)
    #: Rust type -> (Python name, path, field claims as (Python name, (first, last)), its line).
    classes: dict[str, tuple[str, str, list[tuple[str, tuple[int, int]]], int]] = field(
        default_factory=dict
    )
    #: Rust type -> [(Python name, Rust fn, kind, path, the line of the ``fn``)].
    methods: dict[str, list[tuple[str, str, str, str, int]]] = field(default_factory=dict)
    #: (module short name, path, added Rust fns, added Rust types, run-time names with their lines).
    modules: list[tuple[str, str, list[str], list[str], list[tuple[str, int]]]] = field(
        default_factory=list
    )


def _attributes(text: str, at: int) -> list[str]:
    """The ``#[…]`` attributes just before the item starting at *at*, outermost first (their inner text)."""
    found: list[str] = []
    pos = at
    while True:
        head = text[:pos].rstrip()
        head = re.sub(
            r"(?:\bpub(?:\s*\([^)]*\))?|\basync|\bunsafe|\bconst|\bextern\s+\"C\")\s*$", "", head
        ).rstrip()
        if not head.endswith("]"):
            return found
        depth, open_at = 0, -1
        for back in range(len(head) - 1, -1, -1):
            depth += {"]": 1, "[": -1}.get(head[back], 0)
            if depth == 0:
                open_at = back
                break
        if open_at < 1 or head[open_at - 1] != "#":
            return found
        found[:0] = _unwrapped(head[open_at + 1 : -1].strip())
        pos = open_at - 1


def _unwrapped(attr: str) -> list[str]:
    """*attr*, or the attributes a ``cfg_attr(condition, a, b)`` applies: PyO3's where a feature enables it.

    ``#[cfg_attr(feature = "python", pyclass(frozen))]`` is how a crate that builds without Python
    too (tiktoken) marks its classes; the condition is not decided, the attributes are read as
    written.
    """
    match = re.match(r"cfg_attr\s*\(", attr)
    if match is None or not attr.endswith(")"):
        return [attr]
    parts = [part.strip() for part, _ in split_top(attr[match.end() : -1])]
    return [inner for part in parts[1:] if part for inner in _unwrapped(part)]


def _python_name(attrs: list[str], rust: str, *, getter: bool = False) -> str:
    for attr in attrs:
        if attr.startswith(("pyo3", "pyfunction", "pyclass", "pymodule")) and (
            m := _ATTR_NAME.search(attr)
        ):
            return string_of(m.group(1)) or rust
        if attr.startswith(("getter(", "setter(")):
            return attr[attr.index("(") + 1 : attr.rindex(")")].strip().strip('"')
    if getter:
        return re.sub(r"^(get_|set_)", "", rust)
    return rust


def scan(path: str, text: str, crate: Crate, lines: Lines) -> None:
    """Add what *text*, the Rust file *path* (comments blanked), declares for PyO3 to *crate*."""
    for item in _ITEM.finditer(text):
        kind, rust = item.groups()
        attrs = _attributes(text, item.start())
        names = {a.split("(")[0].split("::")[-1].strip() for a in attrs}
        if kind == "fn" and "pyfunction" in names:
            crate.functions[rust] = (_python_name(attrs, rust), path, lines.line(item.start()))
        elif kind in ("struct", "enum") and "pyclass" in names:
            crate.classes[rust] = (
                _python_name(attrs, rust),
                path,
                _fields(text, item.end(), lines),
                lines.line(item.start()),
            )
        elif kind == "impl" and "pymethods" in names:
            _methods(path, text, item.end(), rust, crate, lines)
        elif kind in ("fn", "mod") and "pymodule" in names:
            body = text.find("{", item.end())
            if body >= 0:
                _module(
                    path,
                    text[body : closing(text, body) + 1],
                    _python_name(attrs, rust),
                    crate,
                    lines,
                    body,
                )


def _fields(text: str, at: int, lines: Lines) -> list[tuple[str, tuple[int, int]]]:
    body = text.find("{", at)
    semi = text.find(";", at)
    if body < 0 or 0 <= semi < body:
        return []
    found = []
    for part, offset in split_top(text[body + 1 : closing(text, body)], body + 1):
        attrs = re.findall(r"#\[\s*pyo3\s*\(([^\]]*)\)\s*\]", part)
        name = _FIELD.match(re.sub(r"#\[[^\]]*\]", "", part).strip())
        if name and any(re.search(r"\b(get|set)\b", a) for a in attrs):
            python = next(
                (string_of(m.group(1)) for a in attrs if (m := _ATTR_NAME.search(a))), None
            )
            lead = len(part) - len(part.lstrip())
            span = (lines.line(offset + lead), lines.line(offset + len(part.rstrip())))
            found.append((python or name.group(1), span))
    return found


def _methods(path: str, text: str, at: int, rust: str, crate: Crate, lines: Lines) -> None:
    body = text.find("{", at)
    if body < 0:
        return
    inner = text[body + 1 : closing(text, body)]
    depth = 0
    for match in re.finditer(r"[{}]|\bfn\s+(\w+)", inner):
        if match.group(0) in "{}":
            depth += 1 if match.group(0) == "{" else -1
            continue
        if depth:
            continue
        attrs = _attributes(inner, match.start())
        words = {a.split("(")[0].strip() for a in attrs}
        name = match.group(1)
        if any(_CONSTRUCTOR.match(word) for word in words):
            python, kind = "__new__", "method"
        elif words & {"getter", "setter"}:
            python = _python_name(attrs, name, getter=True)
            kind = "property" if "getter" in words else "setter"
        else:
            python, kind = (
                _python_name(attrs, name),
                "attribute" if "classattr" in words else "method",
            )
        where = lines.line(body + 1 + match.start())
        crate.methods.setdefault(rust, []).append((python, name, kind, path, where))


def _module(path: str, body: str, name: str, crate: Crate, lines: Lines, offset: int) -> None:
    funcs = re.findall(r"wrap_pyfunction!\s*\(\s*(?:\w+::)*(\w+)", body)
    types = re.findall(r"add_class\s*::\s*<\s*(?:\w+::)*(\w+)", body)
    for use in re.finditer(r"#\[\s*pymodule_export\s*\]\s*use\s+([^;]+);", body):
        for word in re.findall(r"(\w+)\s*[,}]|(\w+)\s*$", use.group(1)):
            funcs.append(word[0] or word[1])
            types.append(word[0] or word[1])
    nested = re.findall(
        r"#\[\s*(?:pyfunction|pyclass)[^\]]*\]\s*(?:#\[[^\]]*\]\s*)*(?:pub\s+)?"
        r"(?:fn|struct|enum)\s+(\w+)",
        body,
    )
    runtime = [
        (n, lines.line(offset + m.start()))
        for m in re.finditer(r"\.\s*add\s*\(\s*(\"[^\"]*\")", body)
        if (n := string_of(m.group(1)))
    ]
    crate.modules.append((name, path, funcs + nested, types + nested, runtime))


def claims(
    crate: Crate, module_of: Callable[[str, str], str | None]
) -> tuple[list[Claim], list[Undecided]]:
    """The claims of the crate's modules: each function and class they add, with its methods and fields."""
    found: list[Claim] = []
    undecided: list[Undecided] = []
    for short, path, funcs, types, runtime in crate.modules:
        module = module_of(path, short)
        if module is None:
            continue
        found.append(Claim(module, path, "#[pymodule]", "module"))
        for rust in funcs:
            if rust in crate.functions:
                python, where, line = crate.functions[rust]
                found.append(
                    Claim(
                        f"{module}.{python}",
                        where,
                        "#[pyfunction]",
                        "function",
                        symbol=(rust,),
                        lines=(line, line),
                    )
                )
        for rust in types:
            if rust not in crate.classes:
                continue
            python, where, fields, line = crate.classes[rust]
            found.append(
                Claim(
                    f"{module}.{python}",
                    where,
                    "#[pyclass]",
                    "class",
                    symbol=(rust,),
                    lines=(line, line),
                )
            )
            for name, span in fields:
                found.append(
                    Claim(
                        f"{module}.{python}.{name}",
                        where,
                        "#[pyo3(get, set)]",
                        "attribute",
                        lines=span,
                    )
                )
            methods = crate.methods.get(rust, [])
            getters = {method for method, _, kind, _, _ in methods if kind == "property"}
            for method, fn, kind, at, line in methods:
                if kind == "setter" and method in getters:
                    continue  # the property is linked at its getter
                found.append(
                    Claim(
                        f"{module}.{python}.{method}",
                        at,
                        "#[pymethods]",
                        kind,
                        symbol=(rust, fn),
                        lines=(line, line),
                    )
                )
        for name, line in runtime:
            undecided.append(
                Undecided(f"{module}.{name}", f"added at run time by m.add at {path}:{line}")
            )
    return found, undecided
