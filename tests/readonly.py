"""Read-only directories for tests, made for real (never a patched ``open``).

Mode bits stop a writer unless it is root, and the tests may run as root (in a container). So a
command runs under :func:`read_only_prefix`: in a private mount namespace (``unshare -rm``) where
the folder is bind-mounted read-only, as a read-only checkout or ``$HOME`` is; only that command
sees the mount, and nothing is left mounted when it exits. Without ``unshare``, a user who is not
root gets the folder's write bits cleared instead (:func:`mode_bits_read_only`).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest

_SCRIPT = 'mount --bind -o ro "$0" "$0" && exec "$@"'


@cache
def can_unshare() -> bool:
    """Whether this machine lets a process make its own read-only bind mount (``unshare -rm``)."""
    if shutil.which("unshare") is None:
        return False
    probe = Path(os.environ.get("TMPDIR", "/tmp"))
    try:
        done = subprocess.run(
            [
                "unshare",
                "-rm",
                "sh",
                "-c",
                _SCRIPT,
                str(probe),
                "sh",
                "-c",
                f'! touch "{probe}/.ro-probe-$$" 2>/dev/null',
            ],
            capture_output=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def read_only_prefix(folder: Path) -> list[str] | None:
    """A command prefix that runs the command with *folder* read-only (a bind mount), or None when impossible."""
    if not can_unshare():
        return None
    return ["unshare", "-rm", "sh", "-c", _SCRIPT, str(folder)]


@contextmanager
def mode_bits_read_only(folder: Path) -> Iterator[None]:
    """*folder* without write bits while the block runs (stops writers only when they are not root)."""
    mode = folder.stat().st_mode
    folder.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        yield
    finally:
        folder.chmod(mode)


def runs_as_root() -> bool:
    """Whether mode bits fail to stop this process's writes."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


@contextmanager
def read_only(folder: Path) -> Iterator[list[str]]:
    """A prefix for commands that must find *folder* read-only: a bind mount, else its mode bits (not root)."""
    prefix = read_only_prefix(folder)
    if prefix is not None:
        yield prefix
        return
    if runs_as_root():
        pytest.skip("running as root without unshare: nothing here can make a folder read-only")
    with mode_bits_read_only(folder):
        yield []
