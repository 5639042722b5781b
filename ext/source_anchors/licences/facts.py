r"""A committed record of facts about files of a pinned commit that a build may not be able to read (no Sphinx).

A book pinned to a distribution is built offline from the distribution's files; the commit's
other manifests (a front end's ``package.json``) and third-party files are not in it. Where git is
reachable, ``source-anchors facts`` reads each of them at the pinned commit and records *facts*,
never the file: its path, its blob id from the listing, the licences it declares and the line of
each, and the evidence that it is third-party material (:mod:`.thirdparty`). The pin's ``facts``
key names the record; a build uses an entry only while its blob id is the listing's, and checks
the entry against the file whenever the file can be had.

The record is JSON, one entry per path::

    {"commit": "<sha>", "url": "<repository>", "files": {"<path>": {
        "blob": "<blob id>", "declarations": [{"line": 11, "field": "\\"license\\"", "value": "ISC"}],
        "evidence": [{"kind": "bundle", "line": 1, "what": "{library} {version}, named by …",
                      "args": {"library": "Workbox", "version": "7.0.0", …}}]}}}
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..model.errors import ConfigError
from .declared import Declaration, is_declaring
from .manifests import declarations
from .spdx import normalise
from .thirdparty import TEMPLATES, Evidence, evidence, reads_content

__all__ = ["FactEntry", "Facts", "make_facts", "read_facts", "render_facts"]


@dataclass(frozen=True)
class FactEntry:
    """What the record says about one file: its blob id, its declarations, its third-party evidence."""

    path: str
    blob: str
    declarations: tuple[Declaration, ...]
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class Facts:
    """A whole record: the commit it was made at, and its entries by path."""

    commit: str
    url: str
    files: Mapping[str, FactEntry]

    def usable(self, path: str, blob: str | None) -> FactEntry | None:
        """The entry of *path* if it vouches for blob *blob* (the listing's), else ``None``."""
        entry = self.files.get(path)
        return entry if entry is not None and blob is not None and entry.blob == blob else None


def _declaration(path: str, raw: Mapping[str, object]) -> Declaration:
    line, field, value = raw["line"], raw["field"], raw["value"]
    if not (isinstance(line, int) and isinstance(field, str) and isinstance(value, str)):
        raise ValueError(
            f"a declaration of {path} needs an integer line and string field and value"
        )
    group = (
        f"{path}:classifiers"
        if field.lower() == "classifier"
        else f"{path}:licenses"
        if field == '"licenses"'
        else f"{path}:{line}:{field}"
    )
    # A value is normalised by this release's rules: the record keeps what the file says.
    spdx = (
        frozenset()
        if field.endswith(("license.file", "license-files", "license-file", '"private"'))
        else normalise(value)
    )
    return Declaration(path=path, line=line, field=field, value=value, spdx=spdx, group=group)


def _evidence(path: str, raw: Mapping[str, Any]) -> Evidence:
    what, args = str(raw["what"]), {str(k): str(v) for k, v in dict(raw.get("args", {})).items()}
    if what not in TEMPLATES:
        raise ValueError(f"the evidence of {path} says {what!r}, not one of this release's phrases")
    what.format(**args)  # every field given (a KeyError otherwise)
    return Evidence(
        kind=str(raw["kind"]), line=int(raw["line"]), what=what, args=tuple(sorted(args.items()))
    )


def read_facts(path: Path) -> Facts:
    """The record at *path*. Raises :class:`ConfigError` naming the file when it cannot be read."""
    try:
        raw = json.loads(path.read_text("utf-8"))
        files = {}
        for name, entry in raw["files"].items():
            files[name] = FactEntry(
                path=name,
                blob=str(entry["blob"]),
                declarations=tuple(_declaration(name, d) for d in entry.get("declarations", ())),
                evidence=tuple(_evidence(name, e) for e in entry.get("evidence", ())),
            )
        return Facts(commit=str(raw["commit"]), url=str(raw.get("url", "")), files=files)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ConfigError(
            f"{path}: not a facts record ({type(error).__name__}: {error}); "
            "make it again with 'source-anchors facts'"
        ) from None


def make_facts(
    commit: str,
    url: str,
    listing: Mapping[str, str],
    read: Callable[[str], bytes],
    *,
    paths: Iterable[str] | None = None,
) -> tuple[Facts, dict[str, str]]:
    """Facts about every manifest and every file whose content may show third-party material.

    *read* gives a path's bytes at *commit* (checked by the caller against the listing's blob id).
    Returns the record and, by path, why each file that could not be read or parsed is left out
    of it (a build then says it was not read, never guesses).
    """
    chosen = sorted(
        paths if paths is not None else (p for p in listing if is_declaring(p) or reads_content(p))
    )
    files: dict[str, FactEntry] = {}
    skipped: dict[str, str] = {}
    for path in chosen:
        try:
            data = read(path)
            found = tuple(declarations(path, data)) if is_declaring(path) else ()
        except Exception as error:  # any reason is the caller's to print; the file is left out
            skipped[path] = str(error) or type(error).__name__
            continue
        shown = tuple(evidence(path, data))
        if found or shown or is_declaring(path):
            files[path] = FactEntry(
                path=path, blob=listing[path], declarations=found, evidence=shown
            )
    return Facts(commit=commit, url=url, files=files), skipped


def render_facts(facts: Facts) -> str:
    """The record's JSON text (sorted, one entry per path, ending in a newline)."""
    files = {
        path: {
            "blob": entry.blob,
            **(
                {
                    "declarations": [
                        {"line": d.line, "field": d.field, "value": d.value}
                        for d in entry.declarations
                    ]
                }
                if entry.declarations
                else {}
            ),
            **(
                {
                    "evidence": [
                        {"kind": e.kind, "line": e.line, "what": e.what, "args": dict(e.args)}
                        for e in entry.evidence
                    ]
                }
                if entry.evidence
                else {}
            ),
        }
        for path, entry in sorted(facts.files.items())
    }
    return (
        json.dumps(
            {"commit": facts.commit, "url": facts.url, "files": files}, indent=1, ensure_ascii=False
        )
        + "\n"
    )
