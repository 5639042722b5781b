"""``python -m source_anchors cache info|clear``: where the caches are, how big, and emptying them.

Besides the cache folder, the readings the warm Markdown check keeps in the current checkout's git
folder (``.git/source-anchors/``, :mod:`.warmcache`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from ..model.config import PREFIX, default_cache_dir

#: The caches under the cache directory, and what each holds.
PARTS = {
    "trees": "exported pinned trees",
    "resolutions": "resolved targets",
    "suggestions": "where missing targets went",
    "licences": "identified licence texts",
    "lines": "line indexes of pinned trees",
    "indexes": "what was read from parsed modules",
    "blobs": "single files fetched for file targets",
}


def cache_dir(confdir: Path) -> Path:
    """The cache a build of the book at *confdir* uses: its ``source_anchors_cache_dir``, else the default."""
    conf = confdir / "conf.py"
    if conf.is_file():
        from sphinx import version_info
        from sphinx.config import eval_config_file
        from sphinx.util.tags import Tags

        # Sphinx 8.1 reads the file name as a str, later versions as a Path.
        name: Any = conf if version_info >= (8, 2) else str(conf)
        value = eval_config_file(name, Tags()).get(f"{PREFIX}cache_dir")
        if isinstance(value, str) and value:
            return (confdir / value).resolve()
    return default_cache_dir(os.environ).resolve()


def _size(path: Path) -> tuple[int, int]:
    files = size = 0
    for root, _dirs, names in os.walk(path):
        for name in names:
            try:
                size += (Path(root) / name).lstat().st_size
                files += 1
            except OSError:
                continue
    return files, size


def info(root: Path) -> str:
    """What the cache at *root* holds, part by part."""
    lines = [f"cache: {root}" + ("" if root.is_dir() else " (does not exist yet)")]
    for part, what in PARTS.items():
        place = root / part
        entries = (
            sum(not p.name.endswith(".lock") for p in place.iterdir()) if place.is_dir() else 0
        )
        files, size = _size(place)
        lines.append(
            f"  {part:<12} {entries:>6} entries  {files:>7} files  {size / 1e6:>9.1f} MB  ({what})"
        )
    files, size = _size(root)
    lines.append(f"  {'total':<12} {'':>6}          {files:>7} files  {size / 1e6:>9.1f} MB")
    return "\n".join(lines)


def warm_dir(cwd: Path) -> Path | None:
    """The folder where the warm Markdown check keeps its readings for the checkout holding *cwd*, if it exists.

    Found by git as the warm check finds it (:func:`.gitlite.git_output`).
    """
    from ..sources.gitlite import git_output

    out = git_output(["rev-parse", "--absolute-git-dir"], str(cwd), timeout=30)
    folder = Path(out.decode().strip()) / "source-anchors" if out else None
    return folder if folder is not None and folder.is_dir() else None


def warm_info(cwd: Path) -> str:
    """The line of :func:`info` for the checkout's warm readings, or ``""`` when there are none."""
    folder = warm_dir(cwd)
    if folder is None:
        return ""
    files, size = _size(folder)
    return (
        f"  {'warm':<12} {'':>6}          {files:>7} files  {size / 1e6:>9.1f} MB  "
        f"(the warm Markdown check's readings of this checkout: {folder})"
    )


def clear(root: Path, cwd: Path | None = None) -> str:
    """Remove everything the extension keeps under *root* and (with *cwd*) in its checkout's git folder.

    The next build exports and resolves again; the next Markdown check reads the lock and the pages.
    """
    lines = []
    if not root.is_dir():
        lines.append(f"cache: {root} does not exist; nothing to clear")
    else:
        files, size = _size(root)
        for part in (*PARTS, "tmp", "locks"):
            shutil.rmtree(root / part, ignore_errors=True)
        lines.append(f"cache: removed {files} files ({size / 1e6:.1f} MB) from {root}")
    folder = warm_dir(cwd) if cwd is not None else None
    if folder is not None:
        files, size = _size(folder)
        shutil.rmtree(folder, ignore_errors=True)
        lines.append(f"cache: removed {files} files ({size / 1e6:.1f} MB) from {folder}")
    return "\n".join(lines)
