"""An sdist from the package index, found through the Simple API and downloaded unbuilt (no Sphinx).

pip downloads an sdist only by running its build backend (upstream code), so a pin with
``"dist_format": "sdist"`` finds the file itself: on the indexes pip is configured with
(``pip config list``, then ``PIP_INDEX_URL`` / ``PIP_EXTRA_INDEX_URL`` / ``PIP_FIND_LINKS`` /
``PIP_NO_INDEX``), each project page is read as PEP 691 JSON when the index offers it, else as
PEP 503 HTML; ``file://`` indexes and find-links directories are read from disk. The one sdist
of the pinned ``name==version`` is downloaded with urllib and checked against the index's sha256.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from ..model.config.pinfields import parse_pinned
from ..model.errors import PipError, SourceError
from . import proc

__all__ = [
    "Candidate",
    "Locations",
    "download_sdist",
    "normalize",
    "parse_pinned",
    "pip_locations",
    "redact",
]

DEFAULT_INDEX = "https://pypi.org/simple"
JSON_TYPE = "application/vnd.pypi.simple.v1+json"
ACCEPT = f"{JSON_TYPE}, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"
SDIST_SUFFIXES = (".tar.gz", ".zip")
#: Refuse a download larger than this (the unpacker's own limit on what it writes is 2 GiB).
MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024
_TRUE = ("1", "true", "yes", "on")
#: Later sections of ``pip config list`` win for ``pip download``; the environment wins over all.
_SECTION_RANK = {"global": 0, "download": 1, ":env:": 2}
_SCHEMES = ("http", "https", "file")
#: The options that say where pip looks.
_OPTIONS = ("index-url", "extra-index-url", "find-links", "no-index")


def _variable(option: str) -> str:
    """The environment variable pip reads for *option* (``find-links`` -> ``PIP_FIND_LINKS``)."""
    return "PIP_" + option.upper().replace("-", "_")


def normalize(name: str) -> str:
    """A project name as PEP 503 compares it (``Gpt_Researcher`` -> ``gpt-researcher``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Locations:
    """Where pip would look: Simple API roots, then find-links (directories, pages or files)."""

    indexes: tuple[str, ...]
    find_links: tuple[str, ...]


@dataclass(frozen=True)
class Candidate:
    """One file an index lists for the project."""

    filename: str
    url: str
    sha256: str | None


def pip_locations(timeout: float, environ: Mapping[str, str] | None = None) -> Locations:
    """The indexes and find-links pip is configured with (pip's defaults when nothing is set)."""
    env = os.environ if environ is None else environ
    ranked: dict[str, tuple[int, str]] = {}
    listing = b""
    if (
        not all(_variable(option) in env for option in _OPTIONS)
        and env.get("PIP_CONFIG_FILE") != os.devnull
    ):
        # The environment wins over pip's files option by option: only when it sets all four can
        # nothing in them count, and pip (0.6 s to start) need not be asked. Nor when
        # PIP_CONFIG_FILE is os.devnull: then pip reads no file at all (its documented switch).
        # pip's files unreadable: the environment and defaults remain
        with contextlib.suppress(PipError):
            listing = proc.pip(["config", "list"], timeout=min(timeout, 30), what="pip config list")
    for line in listing.decode("utf-8", "replace").splitlines():
        key, sep, value = line.partition("=")
        section, _, option = key.strip().rpartition(".")
        rank = _SECTION_RANK.get(section)
        if sep and rank is not None and rank >= ranked.get(option, (-1, ""))[0]:
            ranked[option] = (rank, value.strip().strip("'\""))
    values = {option: value for option, (_, value) in ranked.items()}
    for option in _OPTIONS:
        if _variable(option) in env:
            values[option] = env[_variable(option)]
    if values.get("no-index", "").strip().lower() in _TRUE:
        indexes: list[str] = []
    else:
        indexes = (values.get("index-url") or DEFAULT_INDEX).split()[:1] + values.get(
            "extra-index-url", ""
        ).split()
    return Locations(
        indexes=tuple(dict.fromkeys(indexes)),
        find_links=tuple(dict.fromkeys(values.get("find-links", "").split())),
    )


def download_sdist(
    requirement: str, dest: Path, *, timeout: float, locations: Locations | None = None
) -> Path:
    """Download the one sdist of *requirement* (``name==version``) into *dest*, checked by its sha256.

    Nothing is built or run. Raises :class:`SourceError` in one line: no sdist for the release
    (with what the indexes have), a hash mismatch, or no index reachable (with the URLs tried).
    """
    pinned = parse_pinned(requirement)
    if pinned is None:
        raise SourceError(f"{requirement!r}: an sdist is found for an exact 'name==version' only")
    name, version = pinned
    where = locations or pip_locations(timeout)
    files, failures, tried = _listed(name, where, timeout)
    sdists = [c for c in files if _is_release_sdist(c.filename, name, version)]
    if not sdists:
        raise SourceError(_none_found(requirement, name, version, files, failures, tried))
    chosen = sorted(sdists, key=lambda c: not c.filename.endswith(".tar.gz"))[0]
    return _download(chosen, dest, timeout=timeout)


def _listed(
    name: str, where: Locations, timeout: float
) -> tuple[list[Candidate], list[str], list[str]]:
    """Every file the indexes list for *name* (first index first), the failures, and the pages tried."""
    files: dict[str, Candidate] = {}
    failures: list[str] = []
    tried: list[str] = []
    pages = [f"{index.rstrip('/')}/{normalize(name)}/" for index in where.indexes]
    for page in [*pages, *where.find_links]:
        tried.append(redact(page))
        try:
            found = _read_location(page, timeout=timeout)
        except _Unreachable as error:
            failures.append(f"{redact(page)} ({error})")
            continue
        for candidate in found:
            files.setdefault(candidate.filename, candidate)
    return list(files.values()), failures, tried


class _Unreachable(Exception):
    """An index page or find-links location could not be read (a missing project is not this)."""


def _read_location(location: str, *, timeout: float) -> list[Candidate]:
    """The files one index page, find-links page or directory lists ([] when the project is absent)."""
    scheme = urllib.parse.urlsplit(location).scheme
    # a path (a drive letter is not a scheme)
    if scheme == "file" or not scheme or len(scheme) == 1:
        path = (
            Path(urllib.request.url2pathname(urllib.parse.urlsplit(location).path))
            if scheme == "file"
            else Path(location)
        )
        return _read_path(path)
    if scheme not in _SCHEMES:
        raise _Unreachable(f"scheme {scheme!r} is not read; use http, https or file")
    request = urllib.request.Request(location, headers={"Accept": ACCEPT})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read(64 * 1024 * 1024)
            kind = response.headers.get_content_type()
            base = response.geturl()
    except urllib.error.HTTPError as error:
        if error.code in (404, 410):
            return []
        raise _Unreachable(f"HTTP {error.code}") from error
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", None) or error
        raise _Unreachable(str(reason)) from error
    found = (
        _from_json(body, base)
        if kind == JSON_TYPE
        else _from_html(body.decode("utf-8", "replace"), base)
    )
    # A page on the network names files on the network: never a file of this machine.
    return [c for c in found if urllib.parse.urlsplit(c.url).scheme in ("http", "https")]


def redact(url: str) -> str:
    """*url* with any user name and password replaced by ``****`` (as pip shows index URLs)."""
    parts = urllib.parse.urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urllib.parse.urlunsplit(parts._replace(netloc="****@" + parts.netloc.rsplit("@", 1)[1]))


def _read_path(path: Path) -> list[Candidate]:
    """A local index page (``index.json``, else ``index.html``), an HTML file, or a directory of files."""
    if path.is_dir():
        for page, parse in (("index.json", _from_json), ("index.html", _from_html_bytes)):
            if (path / page).is_file():
                return parse(_read(path / page), (path / page).as_uri())
        return [
            Candidate(entry.name, entry.resolve().as_uri(), None)
            for entry in sorted(path.iterdir())
            if entry.is_file()
        ]
    if path.is_file():
        return _from_html_bytes(_read(path), path.resolve().as_uri())
    return []  # pip's file:// index has no folder for a project it does not hold


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as error:
        raise _Unreachable(error.strerror or str(error)) from error


def _from_json(body: bytes, base: str) -> list[Candidate]:
    """The files of a PEP 691 project page."""
    try:
        files = json.loads(body)["files"]
        return [
            Candidate(
                str(f["filename"]),
                urllib.parse.urljoin(base, str(f["url"])),
                (f.get("hashes") or {}).get("sha256"),
            )
            for f in files
        ]
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise _Unreachable(f"not a PEP 691 project page ({error})") from error


def _from_html_bytes(body: bytes, base: str) -> list[Candidate]:
    return _from_html(body.decode("utf-8", "replace"), base)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.base: str | None = None
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "base" and href and self.base is None:
            self.base = href
        elif tag == "a" and href:
            self.links.append(href)


def _from_html(text: str, base: str) -> list[Candidate]:
    """The files of a PEP 503 project page (or a find-links page): every link, its hash from the fragment."""
    parser = _Links()
    parser.feed(text)
    base = urllib.parse.urljoin(base, parser.base) if parser.base else base
    found = []
    for href in parser.links:
        url, _, fragment = urllib.parse.urljoin(base, href).partition("#")
        filename = urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1])
        algorithm, _, digest = fragment.partition("=")
        if filename:
            found.append(
                Candidate(filename, url, digest.lower() if algorithm == "sha256" else None)
            )
    return found


def _split_sdist(filename: str) -> tuple[str, str] | None:
    """``(name, version)`` of an sdist's filename (``gpt_researcher-0.15.1.tar.gz``), else None."""
    suffix = next((s for s in SDIST_SUFFIXES if filename.lower().endswith(s)), None)
    if suffix is None or "/" in filename or "\\" in filename:
        return None
    stem = filename[: -len(suffix)]
    name, sep, version = stem.rpartition("-")
    return (name, version) if sep and name and version else None


def _same_version(left: str, right: str) -> bool:
    try:
        from packaging.version import (
            InvalidVersion,
            Version,
        )  # Sphinx needs packaging; it may be absent
    except ImportError:
        return left.lower() == right.lower()
    try:
        return Version(left) == Version(right)
    except InvalidVersion:
        return left.lower() == right.lower()


def _is_release_sdist(filename: str, name: str, version: str) -> bool:
    parts = _split_sdist(filename)
    return (
        parts is not None
        and normalize(parts[0]) == normalize(name)
        and _same_version(parts[1], version)
    )


def _none_found(
    requirement: str,
    name: str,
    version: str,
    files: list[Candidate],
    failures: list[str],
    tried: list[str],
) -> str:
    """One line: nothing reachable, or no sdist of the release (with what the indexes do have)."""
    if failures and len(failures) == len(tried):
        return f"no package index could be reached for {requirement}: tried " + "; ".join(failures)
    mine = [c.filename for c in files if _project_file(c.filename, name)]
    same = [
        f
        for f in mine
        if _file_version(f) is not None and _same_version(_file_version(f) or "", version)
    ]
    if same:
        has = f"for {version} they list only {', '.join(same[:8])}" + (
            " …" if len(same) > 8 else ""
        )
    elif mine:
        versions = sorted({v for f in mine if (v := _file_version(f))}, key=_version_key)
        has = f"they list no {version}; versions: {', '.join(versions[-8:])}"
    else:
        has = f"they list no files of {name}"
    unreachable = f"; unreachable: {'; '.join(failures)}" if failures else ""
    return f"no sdist (.tar.gz or .zip) of {requirement} on {', '.join(tried)}: {has}{unreachable}"


def _project_file(filename: str, name: str) -> bool:
    head = (
        filename.split("-", 1)[0]
        if not filename.lower().endswith(SDIST_SUFFIXES)
        else (_split_sdist(filename) or ("", ""))[0]
    )
    return normalize(head) == normalize(name)


def _file_version(filename: str) -> str | None:
    parts = _split_sdist(filename)
    if parts is not None:
        return parts[1]
    pieces = filename.split("-")
    return pieces[1] if len(pieces) > 2 else None


def _version_key(version: str) -> tuple[int, object]:
    try:
        from packaging.version import Version

        return (0, Version(version))
    except Exception:  # no packaging, or a version it cannot read: order those last
        return (1, version)


def _download(candidate: Candidate, dest: Path, *, timeout: float) -> Path:
    """Stream *candidate* into *dest*, checking its size and the index's sha256."""
    if urllib.parse.urlsplit(candidate.url).scheme not in _SCHEMES:
        raise SourceError(
            f"{redact(candidate.url)}: not downloaded (only http, https and file URLs are)"
        )
    target = dest / candidate.filename
    digest = hashlib.sha256()
    size = 0
    try:
        with (
            urllib.request.urlopen(candidate.url, timeout=timeout) as response,
            open(target, "xb") as out,
        ):
            while chunk := response.read(1024 * 1024):
                size += len(chunk)
                if size > MAX_DOWNLOAD_BYTES:
                    raise SourceError(
                        f"{redact(candidate.url)}: more than {MAX_DOWNLOAD_BYTES:,} bytes; "
                        "not downloaded"
                    )
                digest.update(chunk)
                out.write(chunk)
    except (urllib.error.URLError, OSError, ValueError) as error:
        target.unlink(missing_ok=True)
        raise SourceError(
            f"cannot download {redact(candidate.url)}: {getattr(error, 'reason', None) or error}"
        ) from error
    except SourceError:
        target.unlink(missing_ok=True)
        raise
    if candidate.sha256 is not None and digest.hexdigest() != candidate.sha256:
        target.unlink(missing_ok=True)
        raise SourceError(
            f"sha256 mismatch for {candidate.filename} from {redact(candidate.url)}: the index says "
            f"{candidate.sha256[:16]}…, the download is {digest.hexdigest()[:16]}…; not unpacked"
        )
    return target
