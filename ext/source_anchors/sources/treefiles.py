"""Which files of a commit a tree holds, and the git blob id that names each (pure).

The obtaining stage decides what an export keeps (the packages and the root licence files) and what
an sdist serves beside them (every file that is not a module of the packages); the licence stage
reads the same rules (:mod:`source_anchors.licences.identify`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import PurePosixPath


def blob_id(data: bytes) -> str:
    """The git blob id of *data* (what ``git hash-object`` prints)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def wanted(path: str, packages: Iterable[str]) -> bool:
    """Whether *path* belongs in the export: under one of *packages* (folders), or a root licence file."""
    if is_root_licence(path):
        return True
    return any(path == pkg or path.startswith(pkg + "/") for pkg in packages)


def is_package_module(path: str, packages: Iterable[str]) -> bool:
    """Whether *path* is a Python module of one of *packages* (``pkg/mod.py``, ``mod.py`` for ``mod``)."""
    if not path.endswith((".py", ".pyi")):
        return False
    return any(
        path.startswith(package + "/") or path in (f"{package}.py", f"{package}.pyi")
        for package in packages
    )


# --- licence-like file names -------------------------------------------------

# The keyword must end at a separator or the end of the name, so
# ``noticeable.md`` is not a licence file, but any prefix is allowed so
# ``MIT-LICENSE``, ``THIRD_PARTY_NOTICES`` and ``ThirdPartyNotices.txt`` are.
_LICENCE_NAME = re.compile(r"(?:licen[cs]e|copying|notice|copyright|patents)s?(?:[-_. ]|$)")

# Directories that hold licence texts only (REUSE's ``LICENSES/``, wheel's
# ``*.dist-info/licenses/``), whatever the files inside are called.
_LICENCE_DIRS = frozenset({"license", "licenses", "licence", "licences"})

# A licence-named file with one of these suffixes is code about licences
# (``license.py``, ``licences.py``, ``copyright.js``), not a licence text.
# Anything else counts, so ``COPYING.LESSER``, ``LICENSE.APACHE2`` and a
# generated ``THIRD_PARTY_LICENSES.json`` inventory do.
_SOURCE_SUFFIXES = frozenset(
    {
        ".c", ".cpp", ".cs", ".css", ".go", ".h", ".hpp", ".ipynb", ".java",
        ".js", ".jsx", ".kt", ".mjs", ".php", ".pl", ".py", ".pyc", ".pyi",
        ".pyx", ".rb", ".rs", ".scss", ".sh", ".swift", ".ts", ".tsx",
    }
)  # fmt: skip


def is_licence_file(path: str) -> bool:
    """Tell whether *path* (POSIX, relative to the tree root) is licence-like.

    Case-insensitively, a file is licence-like when either

    * its name contains ``LICENSE``/``LICENCE``, ``COPYING``, ``NOTICE``,
      ``COPYRIGHT`` or ``PATENTS`` (optionally plural; ``UNLICENSE`` is
      covered by ``LICENSE``) followed by a separator (``-``, ``_``, ``.``,
      space) or the end of the name: ``LICENSE``, ``licence.txt``,
      ``LICENSE-MIT``, ``COPYING.LESSER``, ``MIT-LICENSE``,
      ``THIRD_PARTY_NOTICES.md``, ``UNLICENSE``; or
    * it sits anywhere under a ``license(s)``/``licence(s)`` directory:
      ``LICENSES/Apache-2.0.txt``;

    and in both cases its suffix is not a source-code or config suffix, so
    ``src/pkg/license.py`` and ``licenses/__init__.py`` are not licence
    files.  Over-matching is deliberate: a spurious entry costs a reviewer
    a glance, a missed licence costs much more.
    """
    pure = PurePosixPath(path.lower())
    if pure.suffix in _SOURCE_SUFFIXES:
        return False
    if _LICENCE_DIRS.intersection(pure.parent.parts):
        return True
    return _LICENCE_NAME.search(pure.name) is not None


def is_root_licence(path: str) -> bool:
    """Tell whether *path* is a licence-like file at the root of the tree (exported with the packages)."""
    return "/" not in path and is_licence_file(path)
