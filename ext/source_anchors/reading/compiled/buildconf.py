"""Which Python module a compiled file builds: the build configuration the project ships (pure).

Read as text, never executed: setuptools' ``Extension("pkg.mod", ["src/mod.c"])`` (and its
subclasses, ``Pybind11Extension``, ``cythonize``'s patterns excepted) in ``setup.py``; meson's
``py.extension_module('mod', 'mod.c', subdir: 'pkg')``; maturin's ``module-name`` in
``pyproject.toml`` and Cargo's ``[lib] name``; CMake's ``install(TARGETS _core DESTINATION pkg)``
(scikit-build-core). Without one, Cython's rule: a ``.pyx`` is the module of its path in its package
(as ``cythonize`` names it); a module definition names itself, inside the package that holds its
file.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable
from pathlib import PurePosixPath

from .ctext import closing, split_top

_EXTENSION = re.compile(r"\w*Extension\s*\(\s*(?:name\s*=\s*)?[\"']([\w.]+)[\"']\s*,")
_MESON = re.compile(r"extension_module\s*\(\s*'([\w.]+)'\s*,(.*?)\)\s*(?:\n|$)", re.S)
#: ``install(TARGETS _core LIBRARY DESTINATION pkg)`` of scikit-build-core (a destination with a
#: variable is not read).
_CMAKE = re.compile(r"install\s*\(\s*TARGETS\s+(\w+)\b[^)$]*?\bDESTINATION\s+([\w./]+)\s*\)", re.I)
_QUOTED = re.compile(r"[\"']([^\"'\n]+)[\"']")


def _joined(folder: str, path: str) -> str:
    parts: list[str] = []
    for part in PurePosixPath(folder, path).parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


class ModuleMap:
    """The module each compiled file of a tree builds, from the tree's build configuration."""

    def __init__(self, paths: Iterable[str], read: Callable[[str], str | None]) -> None:
        self.paths = set(paths)
        self.inits = {
            p.rpartition("/")[0]
            for p in self.paths
            if p.endswith(("/__init__.py", "/__init__.pxd"))
        }
        #: Source file -> the dotted module its ``Extension`` builds.
        self.sources: dict[str, str] = {}
        #: Every dotted module the configuration names.
        self.named: set[str] = set()
        #: maturin's ``module-name`` (or Cargo's ``[lib] name``).
        self.rust: str | None = None
        for path in sorted(self.paths):
            name = path.rpartition("/")[2]
            folder = path.rpartition("/")[0]
            if (
                name
                in ("setup.py", "meson.build", "pyproject.toml", "Cargo.toml", "CMakeLists.txt")
                and (text := read(path)) is not None
            ):
                self._read(name, folder, text)

    def _read(self, name: str, folder: str, text: str) -> None:
        if name == "setup.py":
            for match in _EXTENSION.finditer(text):
                close = closing(text, match.end() - len(match.group(0)) + match.group(0).index("("))
                args = split_top(text[match.end() : close])
                keyed = [part for part, _ in args if re.match(r"\s*sources\s*=", part)]
                sources = (
                    keyed[0]
                    if keyed
                    else args[0][0]
                    if args and "=" not in args[0][0].split("(")[0]
                    else ""
                )
                self._extension(match.group(1), folder, _QUOTED.findall(sources))
        elif name == "CMakeLists.txt":
            for match in _CMAKE.finditer(text):
                target, place = match.groups()
                self.named.add(
                    target if place == "." else f"{place.strip('/').replace('/', '.')}.{target}"
                )
        elif name == "meson.build":
            for match in _MESON.finditer(text):
                subdir = re.search(r"subdir\s*:\s*'([\w/]+)'", match.group(2))
                dotted = (
                    subdir.group(1).strip("/").replace("/", ".") + "." if subdir else ""
                ) + match.group(1)
                self._extension(
                    dotted,
                    folder,
                    _QUOTED.findall(re.sub(r"\w+\s*:\s*'[^']*'", "", match.group(2))),
                )
        elif name == "Cargo.toml" or "maturin" in text:  # a pyproject.toml without it names none
            import tomllib  # for the Rust trees that need it only

            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError:
                return
            module = (
                data.get("tool", {}).get("maturin", {}).get("module-name")
                if name == "pyproject.toml"
                else data.get("lib", {}).get("name")
            )
            if isinstance(module, str) and (name == "pyproject.toml" or self.rust is None):
                self.rust = module

    def _extension(self, dotted: str, folder: str, sources: list[str]) -> None:
        self.named.add(dotted)
        for source in sources:
            pattern = _joined(folder, source)
            matched = (
                fnmatch.filter(self.paths, pattern)
                if any(c in pattern for c in "*?[")
                else [pattern]
            )
            for path in matched:
                self.sources.setdefault(path, dotted)

    def package_of(self, path: str) -> str | None:
        """The dotted package whose folder holds *path*, or None when its folder is no package."""
        folder = path.rpartition("/")[0]
        parts: list[str] = []
        while folder in self.inits:
            parts.insert(0, folder.rpartition("/")[2])
            folder = folder.rpartition("/")[0]
        return ".".join(parts) or None

    def module(self, path: str, name: str) -> str | None:
        """The dotted module that the module definition *name* of the file *path* builds, or None when not known."""
        built = self.sources.get(path)
        if built is not None and built.rpartition(".")[2] == name.rpartition(".")[2]:
            return built
        if "." in name:
            return name
        named = [dotted for dotted in self.named if dotted.rpartition(".")[2] == name]
        if len(named) == 1:
            return named[0]
        if self.rust is not None and self.rust.rpartition(".")[2] == name and path.endswith(".rs"):
            return self.rust
        package = self.package_of(path)
        if package is not None:
            return f"{package}.{name}"
        if not self.inits:  # no Python package at all: the compiled module is a top-level one
            return name
        return None

    def cython(self, path: str) -> str | None:
        """The module a ``.pyx`` builds: its Extension's, else its name in its package (``cythonize``'s rule)."""
        if path in self.sources:
            return self.sources[path]
        stem = PurePosixPath(path).stem
        package = self.package_of(path)
        if package is not None:
            return f"{package}.{stem}"
        return stem if not self.inits or path.count("/") == 0 else None
