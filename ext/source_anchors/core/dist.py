"""Distributions from the package index: download a wheel with pip, say where pip looked (no Sphinx)."""

from __future__ import annotations

from pathlib import Path

from . import proc
from .errors import PipError, SourceError


def download_wheel(requirement: str, dest: Path, *, timeout: float) -> None:
    """Download the one wheel *requirement* names into *dest* (no dependencies, no sdists).

    Wheels only: to download an sdist, pip runs its build backend, i.e. upstream code.
    Raises :class:`SourceError` naming pip's failure and the indexes it was configured to use.
    """
    try:
        proc.pip(["download", "--no-deps", "--no-input", "--only-binary", ":all:", "--disable-pip-version-check",
                  "--quiet", "--dest", str(dest), "--", requirement],
                 timeout=timeout, what=f"pip download {requirement} (wheels only)")
    except PipError as error:
        raise SourceError(f"{error} [{pip_indexes(timeout)}]") from error


def pip_indexes(timeout: float) -> str:
    """Where pip looks, from its own configuration (asked only after a failure)."""
    try:
        listing = proc.pip(["config", "list"], timeout=min(timeout, 30),
                           what="pip config list").decode("utf-8", "replace")
    except PipError:
        return "pip's index configuration could not be read"
    found: list[str] = []
    for line in listing.splitlines():
        key, _, value = line.partition("=")
        if key.endswith(("index-url", "find-links", "no-index")):
            found += [f"{key.rsplit('.', 1)[-1]}={part}" for part in value.strip("'\"").split()]
    return "pip configuration: " + (", ".join(dict.fromkeys(found)) or "PyPI (pip's default index)")
