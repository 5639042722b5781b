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

Adapted-from notices are read in notices (Markdown, reStructuredText, text) and in source files
(Python, JavaScript, TypeScript, HTML, CSS, shell), where a comment says it (``# taken from URL``);
only a notice names folders. The notices a file states of itself (a licence, a credit, a copyright
line, an SVG's source) are :mod:`.notices`' and come with the rest from :func:`evidence`.

The facts are short (a name, a version, a URL, a count, a notice's few words) and never reproduce
the file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import PurePosixPath

from .evidence import TEMPLATES, Evidence
from .notices import notices

__all__ = [
    "BRANDS",
    "TEMPLATES",
    "Evidence",
    "evidence",
    "path_evidence",
    "reads_content",
    "spread",
]


#: Image names that are third-party brands (a stem without ``-blue``, ``-white``, ``-footer``...).
BRANDS = {
    "discord": "Discord",
    "docker": "Docker",
    "github": "GitHub",
    "gitlab": "GitLab",
    "indeed": "Indeed",
    "linkedin": "LinkedIn",
    "next": "Next.js",
    "nextjs": "Next.js",
    "vercel": "Vercel",
    "x": "X (Twitter)",
    "twitter": "Twitter",
    "youtube": "YouTube",
    "slack": "Slack",
    "google": "Google",
    "openai": "OpenAI",
    "reddit": "Reddit",
    "facebook": "Facebook",
    "instagram": "Instagram",
    "npm": "npm",
    "python": "Python",
    "react": "React",
    "tailwind": "Tailwind CSS",
    "huggingface": "Hugging Face",
    "anthropic": "Anthropic",
}
_IMAGE = (".svg", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".webp")
_VARIANT = re.compile(r"[-_](?:blue|white|black|dark|light|footer|logo|icon|mark|colou?r)$")
_SCRIPT = (".js", ".mjs", ".cjs")
_NOTICE = (".md", ".rst", ".txt")
_SOURCE = (
    ".py",
    ".pyi",
    ".js",
    ".mjs",
    ".cjs",
    ".jsx",
    ".ts",
    ".tsx",
    ".mts",
    ".cts",
    ".html",
    ".htm",
    ".css",
    ".scss",
    ".sh",
    ".vue",
)
_SVG = ".svg"
_DATA = (".csv", ".tsv", ".jsonl")
_RESULTS = (".json", ".jsonl")
#: Files above this size are not read for evidence (a bundle's markers are in its first bytes).
READ_LIMIT = 4_000_000

_MARKER = re.compile(r'self\[\s*["\']([a-z][\w-]*):[\w-]+:(\d+\.\d+\.\d+[\w.-]*)["\']\s*\]')
_BANNER = re.compile(r"/\*[!*]\s*(?:@license\s+)?([A-Za-z][\w.-]*)\s+v?(\d+\.\d+\.\d+[\w.-]*)")
_ADAPTED = re.compile(
    r"\b(?:adapted|derived|ported|copied|forked|taken)\s+(?:\w+\s+)?from\b", re.IGNORECASE
)
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
    return [Evidence("logo", 0, TEMPLATES[9], (("brand", brand),))] if brand else []


def reads_content(path: str) -> bool:
    """Whether :func:`evidence` reads *path*'s bytes (source files, notices, SVGs, data and results files)."""
    name = PurePosixPath(path.lower())
    if (
        name.name.startswith(("package", "tsconfig", "jsconfig", "."))
        or name.name == "composer.json"
    ):
        return False
    return name.suffix in (*_SCRIPT, *_NOTICE, *_SOURCE, _SVG, *_DATA, *_RESULTS)


def evidence(path: str, data: bytes) -> list[Evidence]:
    """Evidence in file *path* with bytes *data*, and from its name (:func:`path_evidence`)."""
    found = path_evidence(path)
    suffix = PurePosixPath(path.lower()).suffix
    if len(data) > READ_LIMIT or not reads_content(path):
        return found
    text = data.decode("utf-8", errors="replace")
    if suffix in _SCRIPT:
        found += _bundle(text)
    if suffix in _NOTICE or suffix in _SOURCE:
        found += _adapted(text, folders=suffix in _NOTICE)
    if suffix in _NOTICE or suffix in _SOURCE or suffix == _SVG:
        found += notices(text, svg=suffix == _SVG)
    if suffix in _RESULTS:
        quoted = len(_SOURCE_LINE.findall(text))
        if quoted:
            found.append(Evidence("quoted", 0, TEMPLATES[10], (("count", str(quoted)),)))
    return found


def _bundle(text: str) -> list[Evidence]:
    head = text[:20_000]
    minified = max((len(line) for line in text.splitlines()), default=0) > 1000
    libraries: dict[str, str] = {}
    for name, version in _MARKER.findall(head):
        libraries.setdefault(name, version)
    found = []
    for name, version in libraries.items():
        marker = next(
            m.group(0) for m in re.finditer(r'["\']' + re.escape(name) + r':[\w-]+:[^"\']+', head)
        )[1:]
        found.append(
            Evidence(
                "bundle",
                head[: head.find(f"{name}:")].count("\n") + 1,
                TEMPLATES[1 if minified else 0],
                (("library", name.capitalize()), ("version", version), ("marker", marker)),
            )
        )
    if not found:
        for number, line in enumerate(head.splitlines()[:5], 1):
            match = _BANNER.search(line)
            if match:
                found.append(
                    Evidence(
                        "bundle",
                        number,
                        TEMPLATES[3 if minified else 2],
                        (("library", match.group(1)), ("version", match.group(2))),
                    )
                )
                break
    return found


def _adapted(text: str, *, folders: bool) -> list[Evidence]:
    """Adapted-from notices; with *folders*, the folders a notice names in backticks too."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if _ADAPTED.search(line):
            urls = ", ".join(dict.fromkeys(url.rstrip(".,;") for url in _URL.findall(line)))
            names = (
                ", ".join(f"{n}/" for n in dict.fromkeys(_TICKED.findall(line))) if folders else ""
            )
            template = TEMPLATES[4 + bool(names) + 2 * bool(urls)]
            args = (("names", names),) * bool(names) + (("urls", urls),) * bool(urls)
            found.append(Evidence("adapted", number, template, args))
    return found


def spread(
    listing: Iterable[str], found: Mapping[str, list[Evidence]]
) -> dict[str, list[Evidence]]:
    """*found*, plus each file under a folder that an adapted-from notice names next to it.

    A notice in ``evals/README.md`` that names `` `simple_evals` `` marks every file under
    ``evals/simple_evals/`` (its data files as ``data``), each citing the notice's path and line.
    """
    out = {path: list(items) for path, items in found.items()}
    paths = sorted(listing)
    for notice, items in found.items():
        base = PurePosixPath(notice).parent
        for item in items:
            named = dict(item.args).get("names", "")
            if item.kind != "adapted" or not named:
                continue
            for name in (n.strip().removesuffix("/") for n in named.split(",")):
                folder = f"{base}/{name}/" if str(base) != "." else f"{name}/"
                for path in paths:
                    if path.startswith(folder) and path != notice:
                        kind = "data" if PurePosixPath(path.lower()).suffix in _DATA else "adapted"
                        out.setdefault(path, []).append(
                            Evidence(
                                kind,
                                0,
                                TEMPLATES[8],
                                (("folder", folder), ("notice", f"{notice}:L{item.line}")),
                            )
                        )
    return out
