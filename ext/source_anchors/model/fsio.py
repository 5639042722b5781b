"""Writing files safely: atomically, with the user's umask, under a lock between processes (every writer uses it)."""

from __future__ import annotations

import errno
import os
import sys
import tempfile
import time
from pathlib import Path


def atomic_write(path: Path, text: str, *, mode: int | None = None) -> None:
    """Write *text* to *path* through a temporary file in the same directory and a rename.

    The text is written as UTF-8 without newline translation (CRLF line ends stay). The file gets
    *mode* (an edited file's own permissions), else the umask's.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # mkstemp makes it 0600; a new file follows the umask
        os.fchmod(fd, 0o666 & ~current_umask() if mode is None else mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def current_umask() -> int:
    """The process's umask (read by setting it, then restoring it at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


class LockTimeout(TimeoutError):
    """Another process held a :class:`FileLock` for longer than the timeout."""


class FileLock:
    """An exclusive lock between processes, held on the file *path* while the ``with`` block runs.

    The lock is the operating system's on an open file (``flock`` on POSIX, ``msvcrt.locking`` on
    Windows): the system releases it when its process ends, so a build that crashed leaves no
    stale lock behind, and the file itself stays (deleting it could let two processes lock two
    files of one name). Another holder is waited for, polling, up to *timeout* seconds, then
    :class:`LockTimeout`. Where the file system has no locks (``ENOLCK``, ``ENOTSUP``: some network
    mounts), the block runs unlocked: what the cache writes under a lock is written atomically
    anyway, the lock only keeps two builds from doing the same work at once. A lock of our own:
    the ``filelock`` package cost a first build about 47 million instructions to import, more than
    the lock is used for (``bench/api_bench.py --compiled``).
    """

    def __init__(self, path: str | os.PathLike[str], timeout: float) -> None:
        self.path, self.timeout = os.fspath(path), timeout
        self._fd: int | None = None

    def __enter__(self) -> FileLock:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)  # the umask applies
        deadline = time.monotonic() + self.timeout
        try:
            while not _try_lock(fd):
                if time.monotonic() >= deadline:
                    raise LockTimeout(
                        f"{self.path}: held by another process for {self.timeout:g} s"
                    )
                time.sleep(0.02)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                _unlock(fd)
            finally:
                os.close(fd)


#: What a lock call raises when the file system has no locks: the block then runs unlocked.
_NO_LOCKS = frozenset(
    code
    for code in (
        getattr(errno, "ENOLCK", None),
        getattr(errno, "ENOTSUP", None),
        getattr(errno, "EOPNOTSUPP", None),
    )
    if code is not None
)


def _try_lock(fd: int) -> bool:
    """Take the lock on *fd* without waiting: True when taken (or when locks are not supported)."""
    try:
        if sys.platform == "win32":
            import msvcrt

            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in _NO_LOCKS:
            return True
        if sys.platform == "win32" or error.errno in (
            errno.EAGAIN,
            errno.EWOULDBLOCK,
            errno.EACCES,
        ):
            return False  # held by another process
        raise
    return True


def _unlock(fd: int) -> None:
    try:
        if sys.platform == "win32":
            import msvcrt

            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError as error:
        if error.errno not in _NO_LOCKS:
            raise
