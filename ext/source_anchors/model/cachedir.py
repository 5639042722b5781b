"""A cache directory the build can write, else a build-local one and a note saying why (no Sphinx).

The cache is an optimisation: a read-only ``$HOME`` in a CI container, or a path under a regular
file, must not stop a build. :func:`usable_cache` tries the configured directory once, before
anything is read, and falls back to a folder the caller owns (the build's doctree folder), with
one message that names the cause and the settings that move the cache.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from pathlib import Path

from .config import PREFIX, Settings

#: The settings that choose the cache, as messages name them.
HOW_TO_MOVE = f"set SOURCE_ANCHORS_CACHE, or {PREFIX}cache_dir in conf.py, to a writable directory"


def unusable(path: Path) -> str | None:
    """Why the cache cannot be kept at *path* (created if absent, then a file written and removed), or None."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe.", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as error:
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror or error}{where}"
    return None


def usable_cache(settings: Settings, fallback: Path) -> Settings:
    """*settings* as they are when their cache directory is writable, else with *fallback* and a note."""
    why = unusable(settings.cache_dir)
    if why is None:
        return settings
    note = (
        f"the cache directory {settings.cache_dir} (from {settings.cache_from}) cannot be used ({why}); "
        f"this run keeps its cache in {fallback}, not shared with other builds: {HOW_TO_MOVE}"
    )
    return dataclasses.replace(settings, cache_dir=fallback.resolve(), cache_note=note)
