"""Anchors that drifted as CI annotations: GitHub workflow commands, a GitLab Code Quality report, SARIF 2.1.0.

``source-anchors check --format FORMAT`` prints them; a build writes them when
``source_anchors_annotations`` names a format (GitHub's commands on standard output, the reports as
files beside ``source-anchors.json``). Each annotation sits on the page line where the anchor is
written, with paths relative to a *base* folder (the current directory for the CLI: CI runs it at
the repository's root, which is where GitHub, GitLab and code-scanning tools resolve paths from).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from enum import StrEnum, auto
from pathlib import Path
from typing import Any

from ..model.changeclass import ChangeClass
from ..model.records import AnchorRecord, Status
from ..model.version import __version__

#: The formats of ``check --format`` (``text`` is the default listing); the build writes the last
#: three.
FORMATS = ("text", "json", "github", "gitlab", "sarif")
#: The file each report format is written to in a build's output directory.
FILES = {"gitlab": "source-anchors.codequality.json", "sarif": "source-anchors.sarif"}
TOOL_URI = "https://pypi.org/project/sphinx-source-anchors/"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
#: What each kind of problem means, as SARIF rules (one per status that fails ``check``).
RULES = {
    Status.moved: "The anchored lines moved in the pinned tree; the permalink's line range is stale until relocked.",
    Status.changed: "The anchored lines changed since they were locked; the page may no longer describe them.",
    Status.missing: "The anchored target is gone from the pinned tree.",
    Status.error: "The anchor could not be checked.",
}


#: A message shows at most this many lines of the engine's (a change's diff is cut there).
_MESSAGE_LINES = 14


def problems(records: list[AnchorRecord]) -> list[AnchorRecord]:
    """The records ``check`` fails on, in reading order."""
    return [record for record in records if record.status.failed]


class Level(StrEnum):
    """A problem's level, as GitHub's commands and SARIF name it."""

    warning = auto()
    error = auto()


def severity(record: AnchorRecord) -> Level:
    """``error`` for what a reader would be misled by (code changed, gone, unchecked); ``warning`` otherwise."""
    out = record.outcome
    if out.status is Status.moved:
        return Level.warning
    if out.status is Status.changed and out.change_class not in (None, ChangeClass.code):
        return Level.warning
    return Level.error


def title(record: AnchorRecord) -> str:
    """``source-anchors: missing up:pkg.mod.alpha`` (with the class of a change)."""
    out = record.outcome
    kind = f" ({out.change_class})" if out.status is Status.changed and out.change_class else ""
    return f"source-anchors: {out.status}{kind} {out.name}"


def message(record: AnchorRecord) -> str:
    """What happened and what to do, and the label the anchor is written with.

    The engine's message: a change's first diff lines, a missing target's suggestion.
    """
    out = record.outcome
    lines = (out.message or f"{out.status}: {out.name} {out.change()}").splitlines()
    text = "\n".join(lines[:_MESSAGE_LINES] + (["…"] if len(lines) > _MESSAGE_LINES else []))
    if (
        out.status is Status.missing
        and out.suggestion is not None
        and out.suggestion.key not in text
    ):
        text += f"\nsuggestion: {out.suggestion.describe()} (source-anchors fix)"
    return f"{text}\n(written as «{record.label}»)"


def on_pages(
    records: list[AnchorRecord], paths: Mapping[str, Path], pages: list[str]
) -> list[AnchorRecord]:
    """The records written in the page files *pages* (paths as given, relative to the current directory)."""
    docs = docs_of(paths, pages)
    return [record for record in records if record.page in docs]


def docs_of(paths: Mapping[str, Path], pages: list[str]) -> set[str]:
    """The documents whose page files are among *pages*."""
    wanted = {os.path.realpath(page) for page in pages}
    return {doc for doc, path in paths.items() if os.path.realpath(path) in wanted}


def page_paths(paths: Mapping[str, Path], base: Path) -> dict[str, str]:
    """Each document's page file relative to *base* (POSIX), or absolute when it lies outside."""
    shown = {}
    for doc, path in paths.items():
        try:
            shown[doc] = (
                Path(os.path.relpath(path, base)).as_posix()
                if _inside(path, base)
                else path.as_posix()
            )
        except ValueError:  # another drive (Windows)
            shown[doc] = path.as_posix()
    return shown


def _inside(path: Path, base: Path) -> bool:
    return Path(os.path.abspath(path)).is_relative_to(os.path.abspath(base))


def _escape_data(text: str) -> str:
    """A workflow command's message, escaped as the runner unescapes it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A workflow command's property value (``,`` and ``:`` end a property)."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github(records: list[AnchorRecord], files: Mapping[str, str]) -> str:
    """GitHub workflow commands, one per problem: ``::error file=…,line=…,title=…::…``."""
    out = []
    for record in problems(records):
        props = (
            f"file={_escape_property(files.get(record.page, record.page))},line={record.line},"
            f"title={_escape_property(title(record))}"
        )
        out.append(f"::{severity(record)} {props}::{_escape_data(message(record))}")
    return "\n".join(out)


def _fingerprint(record: AnchorRecord, path: str) -> str:
    """Stable across runs while the anchor stays where it is written, and distinct per target and problem."""
    key = "\0".join((path, str(record.line), record.outcome.name, record.outcome.status.value))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def gitlab(records: list[AnchorRecord], files: Mapping[str, str]) -> list[dict[str, Any]]:
    """A GitLab Code Quality report (``artifacts: reports: codequality``)."""
    levels = {Level.error: "major", Level.warning: "minor"}
    return [
        {
            "description": message(record).replace("\n", " — "),
            "check_name": f"source-anchors/{record.outcome.status}",
            "fingerprint": _fingerprint(record, files.get(record.page, record.page)),
            "severity": levels[severity(record)],
            "location": {
                "path": files.get(record.page, record.page),
                "lines": {"begin": record.line},
            },
        }
        for record in problems(records)
    ]


def sarif(records: list[AnchorRecord], files: Mapping[str, str]) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run: a rule per failing status, a result per problem."""
    order = list(RULES)
    rules = [
        {
            "id": f"source-anchors/{status}",
            "name": f"anchor-{status}",
            "shortDescription": {"text": f"Anchor {status}"},
            "fullDescription": {"text": text},
            "helpUri": TOOL_URI,
        }
        for status, text in RULES.items()
    ]
    results = []
    for record in problems(records):
        path = files.get(record.page, record.page)
        results.append(
            {
                "ruleId": f"source-anchors/{record.outcome.status}",
                "ruleIndex": order.index(record.outcome.status),
                "level": str(severity(record)),
                "message": {"text": message(record)},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": path, "uriBaseId": "%SRCROOT%"},
                            "region": {"startLine": record.line},
                        }
                    }
                ],
                "partialFingerprints": {"sourceAnchors/v1": _fingerprint(record, path)},
                "properties": {
                    "target": record.outcome.name,
                    "permalink": record.outcome.permalink,
                },
            }
        )
    driver = {
        "name": "source-anchors",
        "version": __version__,
        "informationUri": TOOL_URI,
        "rules": rules,
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }


def render(fmt: str, records: list[AnchorRecord], files: Mapping[str, str]) -> str:
    """The text of *fmt* (``json``, ``github``, ``gitlab`` or ``sarif``) for *records*."""
    if fmt == "github":
        return github(records, files)
    if fmt == "gitlab":
        return json.dumps(gitlab(records, files), indent=2, ensure_ascii=False)
    if fmt == "sarif":
        return json.dumps(sarif(records, files), indent=2, ensure_ascii=False)
    return json.dumps([r.to_check_json() for r in records], indent=2, ensure_ascii=False)
