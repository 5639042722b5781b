"""The plain front end's settings: ``--lock`` and ``pyproject.toml``'s ``[tool.source-anchors]``.

:func:`settings_values` gives the options the engine is made with (:mod:`.plain`);
:func:`lock_file` only the lock's file, for the warm check (:mod:`.warm`), which reads the
table with :mod:`tomllib` only when the file could name a lock.
"""

from __future__ import annotations

import os

__all__ = ["DEFAULT_LOCK", "lock_file", "settings_values", "tool_table"]

#: The lock file at the repository root when nothing names another.
DEFAULT_LOCK = "source-anchors.lock"


def tool_table(root: str) -> dict[str, object]:
    """``[tool.source-anchors]`` of *root*'s ``pyproject.toml``; empty when it has none or cannot be read."""
    import tomllib  # tens of millions of instructions: read only where a table may matter

    try:
        with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as file:
            data = tomllib.loads(file.read())
        tool = data.get("tool", {})
        table = tool.get("source-anchors", {}) if isinstance(tool, dict) else {}
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    return table if isinstance(table, dict) else {}  # not a table: what it names is not read


def settings_values(root: str, lock: str | None) -> dict[str, object]:
    """The options of ``[tool.source-anchors]`` in *root*'s pyproject.toml, ``--lock`` first."""
    table = tool_table(root)
    values: dict[str, object] = {"quiet": True}
    values["lock_file"] = os.path.realpath(lock) if lock else str(table.get("lock") or DEFAULT_LOCK)
    if table.get("cache-dir"):
        values["cache_dir"] = os.path.join(root, str(table["cache-dir"]))
    return values


def lock_file(root: str, lock: str | None) -> str:
    r"""The ``lock_file`` option :func:`settings_values` gives, the table read only when it may name one.

    A ``pyproject.toml`` whose text holds no ``lock`` (nor a ``\\`` that could spell one in a
    quoted key) names no lock, whatever else its table says.
    """
    if lock:
        return os.path.realpath(lock)
    try:
        with open(os.path.join(root, "pyproject.toml"), encoding="utf-8") as file:
            text = file.read()
    except OSError:
        return DEFAULT_LOCK
    if "lock" not in text and "\\" not in text:
        return DEFAULT_LOCK
    return str(tool_table(root).get("lock") or DEFAULT_LOCK)
