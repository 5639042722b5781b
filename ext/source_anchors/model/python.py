"""The Python version and platform the anchors are read for (``source_anchors_python``; pure).

A setting's value, read and checked here; the static conditions that it decides are the reading
stage's (:mod:`source_anchors.reading.python.conditions`).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

#: The platform assumed when the setting names none (``sys.platform`` of most builds and CI
#: runners).
DEFAULT_PLATFORM = "linux"
_SETTING = re.compile(r"(?P<major>[0-9]+)\.(?P<minor>[0-9]+)(?:\s+(?P<platform>[a-z][a-z0-9_]*))?")


@dataclass(frozen=True)
class Python:
    """The Python version and platform that the anchors are read for (``source_anchors_python``)."""

    version: tuple[int, int]
    platform: str = DEFAULT_PLATFORM

    def __str__(self) -> str:
        """The setting's own form: ``3.11``, or ``3.11 win32`` for another platform than the default."""
        text = f"{self.version[0]}.{self.version[1]}"
        return text if self.platform == DEFAULT_PLATFORM else f"{text} {self.platform}"


def running() -> Python:
    """The default: the running interpreter's version, on the default platform."""
    return Python((sys.version_info[0], sys.version_info[1]))


def parse_python(value: object) -> Python | str:
    """The setting's value read, or what is wrong with it (the config error's text)."""
    if value is None:
        return running()
    match = _SETTING.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        return (
            f"expected a Python version such as '3.11', optionally followed by a space and a value of "
            f"sys.platform ('3.11 win32'), got {value!r}"
        )
    return Python((int(match["major"]), int(match["minor"])), match["platform"] or DEFAULT_PLATFORM)
