"""A drop-in ``linkcode_resolve`` for projects that keep ``sphinx.ext.linkcode``.

``from source_anchors.linkcode import linkcode_resolve`` in ``conf.py`` replaces a hand-written
resolver (numpy's, which imports each module and asks :mod:`inspect`): the links come from the same
static answers as the extension's own ``[source]`` links, with the object's line range, at the
commit being built. With ``source_anchors`` among the extensions, its settings apply and
``linkcode`` writes the HTML link (the extension still prints the location in other builders);
without it, the repository holding ``conf.py`` is linked with the default settings.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sphinx.config import Config

    from ..engine.apilinker import Linker

__all__ = ["linkcode_resolve"]

_ACTIVE: list[Linker | None] = []
#: The folder of the conf.py that imported this module (the repository to link when the extension is
#: not loaded).
_CONFDIR: list[Path] = []


def linkcode_resolve(domain: str, info: dict[str, Any]) -> str | None:
    """The permalink (with the line range) of the object *info* names, or None without one."""
    if domain != "py" or not info.get("fullname"):
        return None
    linker = _ACTIVE[-1] if _ACTIVE else _standalone()
    if linker is None:
        return None
    from ..resolve.apiobjects import ApiLink

    found = linker.link(info.get("module") or None, info["fullname"])
    return found.url if isinstance(found, ApiLink) else None


def is_dropin(config: Config) -> bool:
    """Whether *config*'s ``linkcode_resolve`` is this module's."""
    return (
        getattr(config, "linkcode_resolve", None) is linkcode_resolve
        if "linkcode_resolve" in config
        else False
    )


def use(linker: Linker | None) -> None:
    """Answer with *linker* (the extension's, once its settings are read)."""
    _ACTIVE[:] = [linker]


def remember_confdir(path: str | None) -> None:
    """Note the folder of the conf.py importing the drop-in (read from the importer's ``__file__``)."""
    if path and path.endswith("conf.py"):
        _CONFDIR[:] = [Path(path).resolve().parent]


def _standalone() -> Linker | None:
    """A linker for the repository holding conf.py, with the default settings (made once)."""
    if not _CONFDIR:
        return None
    import atexit
    import os

    from ..engine.apilinker import OwnLinker
    from ..engine.indexcache import IndexCache
    from ..model.config import default_cache_dir
    from ..model.config.api import ApiSettings
    from ..sources.apiself import own_source
    from ..sources.trees import TreeCache

    folder = default_cache_dir(os.environ).resolve()
    cache = TreeCache(folder, timeout=300)
    own = own_source(ApiSettings(links="self"), confdir=_CONFDIR[0], cache=cache)
    if isinstance(own, str):
        print(f"source_anchors.linkcode: {own}", file=sys.stderr)
        linker: Linker | None = None
    else:
        store = IndexCache(folder)
        atexit.register(store.flush)  # no engine flushes it: what was decided is kept at the end
        linker = OwnLinker(own, max_file_bytes=2_000_000, compiled_store=store)
    _ACTIVE[:] = [linker]
    return linker
