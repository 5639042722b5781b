"""Offline licence identification and a rights-review survey of a pinned tree.

The book links to upstream code and never reproduces it, but a reviewer
still needs to know what licence the pinned tree is under, which other
licence files it carries (vendored code, bundled fonts, ...) and which
files are probably not the project's own code at all.  Everything here is
pure and offline: the caller lists the tree and reads file texts; this
module only classifies paths and texts.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import PurePosixPath

from ..model.errors import MissingExtraError
from ..sources.treefiles import is_licence_file, is_package_module, is_root_licence
from .assettypes import ASSET_SUFFIXES

__all__ = [
    "ASSET_SUFFIXES",
    "CONFIG_NAME_GLOBS",
    "LICENCE_CATEGORY",
    "LICENCE_SCORE_THRESHOLD",
    "ROOT_LICENCE_CATEGORY",
    "STATIC_DIRS",
    "VENDOR_DIRS",
    "LicenceMatch",
    "Survey",
    "categorise",
    "classify_asset",
    "identify_licence",
    "is_licence_file",
    "is_package_module",
    "is_root_licence",
    "survey",
]

# askalono scores a text by its similarity to the SPDX reference texts.
# Standard licences with a real copyright line score ~0.99-1.0; truncated,
# paraphrased or merely licence-flavoured prose lands well below 0.5 (a
# third of the MIT text scores ~0.4).  0.8 is askalono's own "confident"
# cut-off and leaves room for reflowed text and an extra header line.
LICENCE_SCORE_THRESHOLD = 0.8


@dataclass(frozen=True)
class LicenceMatch:
    """A licence recognised in a text.

    ``spdx_id`` is the SPDX licence identifier (``"MIT"``, ``"Apache-2.0"``)
    and ``score`` askalono's similarity in ``[0, 1]``.
    """

    spdx_id: str
    score: float


@functools.lru_cache(maxsize=256)
def identify_licence(text: str) -> LicenceMatch | None:
    """Identify the licence in *text*, offline.

    Returns ``None`` for blank text or when the best match scores below
    :data:`LICENCE_SCORE_THRESHOLD`: askalono always names *some* licence,
    so a low-scoring name is noise, not an answer.

    One answer takes askalono about 0.3 s, and it depends on the text and the installed
    database only, so answers are kept for the process: a long-running one (``sphinx-autobuild``,
    a test session) identifies each text once even where its cache folder is new. The cache
    folder keeps them between processes (:mod:`source_anchors.engine.caches`).
    """
    if not text.strip():
        # askalono happily returns a 0.0-scored guess for "", skip the work.
        return None
    try:
        import askalono  # its licence database loads on import: only pages that identify a licence pay for it
    except ImportError:
        raise MissingExtraError(
            "identifying licences needs pyaskalono: pip install 'sphinx-source-anchors[licences]'"
        ) from None

    result = askalono.identify(text)
    score = float(result.score)
    if score < LICENCE_SCORE_THRESHOLD:
        return None
    return LicenceMatch(spdx_id=str(result.name), score=score)


# --- likely third-party or non-code assets -----------------------------------

# Suffix -> category.  Compound suffixes (``.min.js``) win over their tail
# (``.js``) because lookup tries the longest candidate first.  Plain
# JavaScript is flagged because that is where vendored bundles and
# generated files hide (``workbox-f1770938.js``); TypeScript is nearly
# always first-party source, so it is treated as ordinary code.

# Directories whose whole subtree is third-party by convention, whatever
# the file type; these win over the suffix table.
VENDOR_DIRS: tuple[str, ...] = (
    "vendor",
    "vendors",
    "vendored",
    "_vendor",
    "third_party",
    "third-party",
    "thirdparty",
    "node_modules",
    "bower_components",
)

# Directories of published files.  A file here gets its suffix category if
# it has one, else the generic "static" (``CNAME``, ``robots.txt``, ...).
STATIC_DIRS: tuple[str, ...] = ("static", "_static", "public", "assets", "media")

# Tooling config that happens to use an asset suffix (``package.json``,
# ``next.config.mjs``, ``.eslintrc.json``): first-party config, not assets.
CONFIG_NAME_GLOBS: tuple[str, ...] = (
    ".*",
    "package*.json",
    "tsconfig*.json",
    "jsconfig*.json",
    "composer.json",
    "*.config.*",
)


def _suffix_category(name: str) -> str | None:
    """Category of the longest suffix of *name* found in the table."""
    # Candidates from longest to shortest: "a.min.js" -> ".min.js", ".js".
    start = name.find(".", 1)
    while start != -1:
        category = ASSET_SUFFIXES.get(name[start:])
        if category is not None:
            return category
        start = name.find(".", start + 1)
    return None


def classify_asset(path: str) -> str | None:
    """Categorise *path* if it is a likely third-party or non-code asset.

    Rules, first match wins (all case-insensitive):

    1. under a :data:`VENDOR_DIRS` directory -> ``"vendored"``
       (``static/vendor/jquery.js``, ``node_modules/x/index.js``);
    2. name matches :data:`CONFIG_NAME_GLOBS` -> ``None``
       (``package.json``, ``next.config.mjs``);
    3. suffix in :data:`ASSET_SUFFIXES` -> its category
       (``app.min.js`` -> ``"minified"``, ``logo.PNG`` -> ``"image"``,
       ``data/train.csv`` -> ``"data"``);
    4. under a :data:`STATIC_DIRS` directory -> ``"static"``
       (``docs/static/CNAME``);
    5. otherwise ``None``: ordinary code, docs and config
       (``pkg/mod.py``, ``README.md``, ``pyproject.toml``).
    """
    pure = PurePosixPath(path.lower())
    directories = pure.parent.parts
    if any(part in VENDOR_DIRS for part in directories):
        return "vendored"
    if any(fnmatchcase(pure.name, glob) for glob in CONFIG_NAME_GLOBS):
        return None
    category = _suffix_category(pure.name)
    if category is not None:
        return category
    if any(part in STATIC_DIRS for part in directories):
        return "static"
    return None


# Every other file of the tree falls in one of these (the review list covers every file that is
# not a Python module of the packages, so nothing is dropped for being ordinary).
LICENCE_CATEGORY = "licence or copyright file"
ROOT_LICENCE_CATEGORY = "root licence"
_ORDINARY_SUFFIXES = {
    ".py": "python (outside the packages)",
    ".pyi": "python (outside the packages)",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".jsx": "javascript",
    ".html": "html",
    ".htm": "html",
    ".md": "documentation",
    ".mdx": "documentation",
    ".rst": "documentation",
    ".adoc": "documentation",
    ".cff": "documentation",
    ".txt": "text",
    ".log": "text",
    ".sh": "script",
    ".bash": "script",
    ".ps1": "script",
    ".bat": "script",
    ".cmd": "script",
    ".toml": "config",
    ".yml": "config",
    ".yaml": "config",
    ".ini": "config",
    ".cfg": "config",
    ".conf": "config",
    ".env": "config",
    ".lock": "config",
    ".tf": "config",
    ".tfvars": "config",
    ".example": "config",
    ".xml": "config",
}
_CONFIG_NAMES = (
    "dockerfile*",
    "procfile",
    "makefile",
    "requirements*.txt",
    "*.dockerfile",
    "dockerfile.*",
    "docker-compose*",
    "*.dev",
    "*.fullstack",
)


def categorise(path: str) -> str:
    """The review category of any *path*: :func:`classify_asset`'s, else an ordinary one.

    Ordinary categories: ``"config"`` (:data:`CONFIG_NAME_GLOBS`, ``Dockerfile``,
    ``requirements.txt``, ``.toml``, ``.yml``, ...), ``"typescript"``, ``"javascript"``
    (``.jsx``), ``"html"``, ``"documentation"``, ``"text"``, ``"script"``,
    ``"python (outside the packages)"``, else ``"other"``. Never ``None``.
    """
    asset = classify_asset(path)
    if asset is not None:
        return asset
    name = PurePosixPath(path.lower()).name
    if any(fnmatchcase(name, glob) for glob in (*_CONFIG_NAMES, *CONFIG_NAME_GLOBS)):
        return "config"
    return _ORDINARY_SUFFIXES.get(PurePosixPath(name).suffix, "other")


#: Categories that flag a likely third-party or non-code file (shown first).
ASSET_CATEGORIES = frozenset({*ASSET_SUFFIXES.values(), "vendored", "static"})


# --- the survey --------------------------------------------------------------


@dataclass(frozen=True)
class Survey:
    """Rights-review findings for one pinned tree.

    ``root_licence_path`` is the tree's main licence file, if any;
    ``other_licence_files`` every other licence-like path; ``assets`` the
    ``(path, category)`` pairs of likely third-party or non-code files;
    ``licence_blobs`` the ``(path, blob id)`` of every licence-like file
    (root included), so the caller can fetch their texts for
    :func:`identify_licence`.  All tuples are sorted by path.
    """

    root_licence_path: str | None
    other_licence_files: tuple[str, ...]
    assets: tuple[tuple[str, str], ...]
    licence_blobs: tuple[tuple[str, str], ...] = field(default=())
    #: ``(path, category)`` of every file that is not a Python module of the packages.
    review: tuple[tuple[str, str], ...] = field(default=())

    def review_by_category(self) -> dict[str, list[str]]:
        """Every reviewed path by category: licence files, then assets, then ordinary files."""

        def rank(category: str) -> tuple[int, str]:
            if category in (ROOT_LICENCE_CATEGORY, LICENCE_CATEGORY):
                return (0 if category == ROOT_LICENCE_CATEGORY else 1, category)
            return (2 if category in ASSET_CATEGORIES else 3, category)

        grouped: dict[str, list[str]] = {}
        for path, category in sorted(self.review, key=lambda a: (rank(a[1]), a[0])):
            grouped.setdefault(category, []).append(path)
        return grouped

    def assets_by_category(self) -> dict[str, list[str]]:
        """Asset paths grouped by category, categories in sorted order."""
        grouped: dict[str, list[str]] = {}
        for path, category in sorted(self.assets, key=lambda a: (a[1], a[0])):
            grouped.setdefault(category, []).append(path)
        return grouped


def survey(
    entries: Iterable[tuple[str, str]], *, root_licence: str | None, packages: Iterable[str] = ()
) -> Survey:
    """Survey a pinned tree given as ``(path, git blob id)`` entries.

    *root_licence* is the path of the tree's main licence file (or ``None``);
    it is reported as such and left out of ``other_licence_files`` even if
    its name would not pass :func:`is_licence_file`.  A licence-like file is
    never also listed as an asset.  ``review`` puts every file that is not a Python
    module of *packages* in one category (:func:`categorise`, or the licence categories), so
    the categories' counts add up to those files.  Pure: nothing is read from disk.
    """
    packages = tuple(packages)
    # Keyed by path so a repeated entry (e.g. a re-listed tree) counts once.
    blobs = dict(entries)
    licence_paths = sorted(path for path in blobs if path == root_licence or is_licence_file(path))
    licence_set = frozenset(licence_paths)
    assets: list[tuple[str, str]] = []
    for path in sorted(blobs):
        category = None if path in licence_set else classify_asset(path)
        if category is not None:
            assets.append((path, category))
    review = []
    for path in sorted(blobs):
        if is_package_module(path, packages):
            continue
        category = (
            ROOT_LICENCE_CATEGORY
            if path == root_licence
            else LICENCE_CATEGORY
            if path in licence_set
            else categorise(path)
        )
        review.append((path, category))
    return Survey(
        review=tuple(review),
        root_licence_path=root_licence,
        other_licence_files=tuple(p for p in licence_paths if p != root_licence),
        assets=tuple(assets),
        licence_blobs=tuple((p, blobs[p]) for p in licence_paths),
    )
