"""Evidence that a file of a pinned tree is third-party material, from its name and bytes (no Sphinx).

The rights review lists every file outside the packages; these rules mark the ones the tree itself
shows to come from elsewhere, each with what the evidence is, so that a reviewer starts there:

* ``bundle``: a JavaScript file that names the library and version it was built from, by
  Workbox's module markers (``self["workbox:core:7.0.0"]``) or a ``/*! name vX.Y.Z`` banner;
* ``adapted``: a notice saying that code was adapted (derived, ported, copied, forked) from
  elsewhere; it names the URLs and the folders it speaks of, and the files under such a folder
  are marked ``adapted`` too (:func:`spread`);
* ``data``: a data file (CSV, TSV, JSON Lines) under a folder an adapted-from notice names;
* ``logo``: an image named after a third-party brand (``github.svg``, ``docker-blue.svg``);
* ``quoted``: a results file that quotes web pages (``Source: https://…`` lines).

The facts are short (a name, a version, a URL, a count) and never reproduce the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

__all__ = ["BRANDS", "Evidence", "evidence", "path_evidence", "reads_content", "spread"]


@dataclass(frozen=True)
class Evidence:
    """One piece of evidence: its *kind* (see the module), the *line* it is on (0: the name), *what* it says."""

    kind: str
    line: int
    what: str


#: Image names that are third-party brands (a stem without ``-blue``, ``-white``, ``-footer``...).
BRANDS = {
    "discord": "Discord", "docker": "Docker", "github": "GitHub", "gitlab": "GitLab", "indeed": "Indeed",
    "linkedin": "LinkedIn", "next": "Next.js", "nextjs": "Next.js", "vercel": "Vercel", "x": "X (Twitter)",
    "twitter": "Twitter", "youtube": "YouTube", "slack": "Slack", "google": "Google", "openai": "OpenAI",
    "reddit": "Reddit", "facebook": "Facebook", "instagram": "Instagram", "npm": "npm", "python": "Python",
    "react": "React", "tailwind": "Tailwind CSS", "huggingface": "Hugging Face", "anthropic": "Anthropic",
}
_IMAGE = (".svg", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".webp")
_VARIANT = re.compile(r"[-_](?:blue|white|black|dark|light|footer|logo|icon|mark|colou?r)$")
_SCRIPT = (".js", ".mjs", ".cjs")
_NOTICE = (".md", ".rst", ".txt")
_DATA = (".csv", ".tsv", ".jsonl")
_RESULTS = (".json", ".jsonl")
#: Files above this size are not read for evidence (a bundle's markers are in its first bytes).
READ_LIMIT = 4_000_000

_MARKER = re.compile(r'self\[\s*["\']([a-z][\w-]*):[\w-]+:(\d+\.\d+\.\d+[\w.-]*)["\']\s*\]')
_BANNER = re.compile(r"/\*[!*]\s*(?:@license\s+)?([A-Za-z][\w.-]*)\s+v?(\d+\.\d+\.\d+[\w.-]*)")
_ADAPTED = re.compile(r"\b(?:adapted|derived|ported|copied|forked|taken)\s+(?:\w+\s+)?from\b", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s)\]>\"'`]+")
_TICKED = re.compile(r"`([\w./-]+)`")
_SOURCE_LINE = re.compile(r"Source:\s*https?://")


def path_evidence(path: str) -> list[Evidence]:
    """Evidence from the name alone: a brand's logo."""
    pure = PurePosixPath(path.lower())
    if pure.suffix not in _IMAGE:
        return []
    stem = pure.stem
    while _VARIANT.search(stem):
        stem = _VARIANT.sub("", stem)
    brand = BRANDS.get(stem)
    return [Evidence("logo", 0, f"named after the {brand} brand")] if brand else []


def reads_content(path: str) -> bool:
    """Whether :func:`evidence` reads *path*'s bytes (scripts, notices, data and results files)."""
    name = PurePosixPath(path.lower())
    if name.name.startswith(("package", "tsconfig", "jsconfig", ".")) or name.name == "composer.json":
        return False
    return name.suffix in (*_SCRIPT, *_NOTICE, *_DATA, *_RESULTS)


def evidence(path: str, data: bytes) -> list[Evidence]:
    """Evidence in file *path* with bytes *data*, and from its name (:func:`path_evidence`)."""
    found = path_evidence(path)
    suffix = PurePosixPath(path.lower()).suffix
    if len(data) > READ_LIMIT or not reads_content(path):
        return found
    text = data.decode("utf-8", errors="replace")
    if suffix in _SCRIPT:
        found += _bundle(text)
    if suffix in _NOTICE:
        found += _adapted(text)
    if suffix in _RESULTS:
        quoted = len(_SOURCE_LINE.findall(text))
        if quoted:
            found.append(Evidence("quoted", 0, f"{quoted} 'Source: <URL>' lines: model output and the web "
                                               "pages it quotes"))
    return found


def _bundle(text: str) -> list[Evidence]:
    head = text[:20_000]
    libraries: dict[str, str] = {}
    for name, version in _MARKER.findall(head):
        libraries.setdefault(name, version)
    found = [Evidence("bundle", head[:head.find(f'{name}:')].count("\n") + 1,
                      f"{name.capitalize()} {version} (its module markers, e.g. \"{name}:core:{version}\")"
                      if f"{name}:core:" in head else f"{name} {version} (its module markers)")
             for name, version in libraries.items()]
    if not found:
        for number, line in enumerate(head.splitlines()[:5], 1):
            match = _BANNER.search(line)
            if match:
                found.append(Evidence("bundle", number, f"{match.group(1)} {match.group(2)} (its banner comment)"))
                break
    if found and max((len(line) for line in text.splitlines()), default=0) > 1000:
        found = [Evidence(e.kind, e.line, e.what + ", minified") for e in found]
    return found


def _adapted(text: str) -> list[Evidence]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if _ADAPTED.search(line):
            urls = list(dict.fromkeys(url.rstrip(".,;") for url in _URL.findall(line)))
            names = list(dict.fromkeys(_TICKED.findall(line)))
            parts = [f"names {', '.join(f'{n}/' for n in names)}"] if names else []
            parts += [f"points at {', '.join(urls)}"] if urls else []
            found.append(Evidence("adapted", number, "an adapted-from notice" + (f" ({'; '.join(parts)})"
                                                                                  if parts else "")))
    return found


def spread(listing: Iterable[str], found: Mapping[str, list[Evidence]]) -> dict[str, list[Evidence]]:
    """*found*, plus each file under a folder that an adapted-from notice names next to it.

    A notice in ``evals/README.md`` that names `` `simple_evals` `` marks every file under
    ``evals/simple_evals/`` (its data files as ``data``), each citing the notice's path and line.
    """
    out = {path: list(items) for path, items in found.items()}
    paths = sorted(listing)
    for notice, items in found.items():
        base = PurePosixPath(notice).parent
        for item in items:
            if item.kind != "adapted" or "names " not in item.what:
                continue
            names = re.findall(r"([\w.-]+)/", item.what.split("names ", 1)[1].split(";")[0])
            for name in names:
                folder = f"{base}/{name}/" if str(base) != "." else f"{name}/"
                for path in paths:
                    if path.startswith(folder) and path != notice:
                        kind = "data" if PurePosixPath(path.lower()).suffix in _DATA else "adapted"
                        out.setdefault(path, []).append(
                            Evidence(kind, 0, f"under {folder}, which {notice}:L{item.line} says is adapted"))
    return out
