"""Distributions from the package index: download a wheel with pip, say where pip looked (no Sphinx)."""

from __future__ import annotations

from pathlib import Path

from ..model.errors import PipError, SourceError
from . import proc


def download_wheel(requirement: str, dest: Path, *, timeout: float) -> None:
    """Download the one wheel *requirement* names into *dest* (no dependencies, no sdists).

    Wheels only: to download an sdist, pip runs its build backend, i.e. upstream code.
    Raises :class:`SourceError` naming pip's failure and the indexes it was configured to use.
    """
    try:
        proc.pip(
            [
                "download",
                "--no-deps",
                "--no-input",
                "--only-binary",
                ":all:",
                "--disable-pip-version-check",
                "--quiet",
                "--dest",
                str(dest),
                "--",
                requirement,
            ],
            timeout=timeout,
            what=f"pip download {requirement} (wheels only)",
        )
    except PipError as error:
        raise SourceError(f"{error} [{pip_indexes(timeout)}]") from error


def pip_indexes(timeout: float) -> str:
    """Where pip looks, from its own configuration (asked only after a failure; passwords hidden)."""
    from .simpleindex import pip_locations, redact

    where = pip_locations(timeout)
    places = [f"index {redact(url)}" for url in where.indexes]
    places += [f"find-links {redact(link)}" for link in where.find_links]
    return "pip looks in: " + (", ".join(places) or "no index (no-index is set)")
