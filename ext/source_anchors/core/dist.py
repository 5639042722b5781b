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


PYPI_SIMPLE = "https://pypi.org/simple"


def download_sdist(requirement: str, dest: Path, *, timeout: float) -> Path:
    """Download the sdist of the exact *requirement* (``name==version``) into *dest*; its path.

    Fetched as a file, never through ``pip download``: for an sdist pip runs the build backend,
    i.e. upstream code. The places are pip's own (``pip config list``, which includes the
    ``PIP_*`` variables): each ``find-links`` directory or page, then the index and extra
    indexes (PEP 503 simple pages) unless ``no-index``. A ``#sha256=`` the page gives is checked.
    Raises :class:`SourceError` naming every place looked at.
    """
    import hashlib
    import re
    import urllib.parse

    match = re.fullmatch(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([A-Za-z0-9.!+_-]+)\s*", requirement)
    if match is None:
        raise SourceError(f"{requirement}: an sdist is looked up for an exact 'name==version' only")
    name, version = match.groups()
    norm = re.sub(r"[-_.]+", "-", name).lower()
    wanted = {f"{stem}-{version}{ext}".lower() for stem in (norm, norm.replace("-", "_"), name.lower())
              for ext in (".tar.gz", ".zip")}
    config = _pip_config(timeout)
    looked: list[str] = []
    pages: list[str] = []
    for place in config.get("find-links", []):
        local = Path(urllib.parse.urlparse(place).path) if place.startswith("file:") else Path(place)
        if "://" not in place or place.startswith("file:"):
            if local.is_dir():
                for candidate in sorted(local.iterdir()):
                    if candidate.name.lower() in wanted and candidate.is_file():
                        target = dest / candidate.name
                        target.write_bytes(candidate.read_bytes())
                        return target
            looked.append(f"{place}: no {norm} {version} sdist")
        else:
            pages.append(place)
    if not config.get("no-index"):
        indexes = config.get("index-url") or [PYPI_SIMPLE]
        pages += [f"{index.rstrip('/')}/{norm}/" for index in (*indexes, *config.get("extra-index-url", []))]
    for page in pages:
        try:
            html = _get(page, timeout, config).decode("utf-8", "replace")
        except (OSError, ValueError) as error:
            looked.append(f"{page}: {error}")
            continue
        for href in re.findall(r"""href\s*=\s*["']([^"']+)["']""", html):
            url = urllib.parse.urljoin(page, href.replace("&amp;", "&"))
            plain, _, fragment = url.partition("#")
            filename = urllib.parse.unquote(plain.rstrip("/").rsplit("/", 1)[-1])
            if filename.lower() not in wanted:
                continue
            try:
                data = _get(plain, timeout, config)
            except (OSError, ValueError) as error:
                looked.append(f"{plain}: {error}")
                break
            algorithm, _, digest = fragment.partition("=")
            if algorithm == "sha256" and hashlib.sha256(data).hexdigest() != digest:
                raise SourceError(f"{plain}: the download does not have the sha256 the index gives")
            target = dest / filename
            target.write_bytes(data)
            return target
        else:
            looked.append(f"{page}: no {norm} {version} sdist listed")
    raise SourceError(f"no sdist of {requirement} found ({'; '.join(looked) or 'no place configured'})")


def _get(url: str, timeout: float, config: dict[str, list[str]]) -> bytes:
    import ssl
    import urllib.request

    if url.startswith("file:"):  # a local index as pip reads one: a folder's index.html
        import urllib.parse

        local = Path(urllib.request.url2pathname(urllib.parse.urlparse(url).path))
        return (local / "index.html" if local.is_dir() else local).read_bytes()
    context = ssl.create_default_context(cafile=config["cert"][0]) if config.get("cert") else None
    request = urllib.request.Request(url, headers={"Accept": "text/html", "User-Agent": "sphinx-source-anchors"})
    with urllib.request.urlopen(request, timeout=timeout, context=context) as response:  # pip's places
        return bytes(response.read())


def _pip_config(timeout: float) -> dict[str, list[str]]:
    """The places pip is configured with: ``{"index-url": [...], "find-links": [...], ...}``, environment included."""
    try:
        listing = proc.pip(["config", "list"], timeout=min(timeout, 30),
                           what="pip config list").decode("utf-8", "replace")
    except PipError as error:
        raise SourceError(f"pip's configuration could not be read: {error}") from error
    found: dict[str, list[str]] = {}
    for line in listing.splitlines():
        key, _, value = line.partition("=")
        key = key.rsplit(".", 1)[-1]
        if key in ("index-url", "extra-index-url", "find-links", "no-index", "cert"):
            values = value.strip().strip("'\"").split()
            if key == "no-index":
                values = [v for v in values if v.lower() in ("1", "true", "yes", "on")]
            found.setdefault(key, [])
            found[key] += [v for v in values if v not in found[key]]
    return found
