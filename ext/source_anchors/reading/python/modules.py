"""Python's import model over a tree's paths: the dotted module of a file (pure).

A package is a folder of the pin (``package_dirs``, a dotted name to a folder); a file's module is
the package's name and the file's path under it, ``__init__`` being the package itself.
"""

from __future__ import annotations

from collections.abc import Mapping


def module_of(path: str, name: str, folder: str) -> str | None:
    """The dotted module of file *path* in package *name* (kept in *folder*), or None outside it."""
    if path == f"{folder}.py":
        return name
    if not (path.startswith(folder + "/") and path.endswith(".py")):
        return None
    parts = path[len(folder) + 1 : -3].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    if not all(part.isidentifier() for part in parts):
        return None
    return ".".join([name, *parts])


def module_name(path: str, packages: Mapping[str, str]) -> str:
    """The dotted module name of Python file *path* (its package's, when it is in one of *packages*)."""
    base = path.rsplit(".", 1)[0].removesuffix("/__init__")
    for name, folder in packages.items():
        if base == folder or base.startswith(folder + "/"):
            return name + base[len(folder) :].replace("/", ".")
    return "<file>." + base.replace("/", ".")  # outside the packages: no dotted path reaches it
