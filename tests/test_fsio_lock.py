"""The cache's lock between processes (:class:`source_anchors.model.fsio.FileLock`), with real processes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from source_anchors.model.fsio import FileLock, LockTimeout

EXT = str(Path(__file__).resolve().parent.parent / "ext")

#: A process that takes the lock, says so on stdout, and holds it until killed or *seconds* pass.
HOLD = """
import sys, time
sys.path.insert(0, {ext!r})
from source_anchors.model.fsio import FileLock
with FileLock({path!r}, timeout=10):
    print("held", flush=True)
    time.sleep({seconds})
"""

#: A process that adds 1 to a counter file *times* times, each read and write under the lock.
COUNT = """
import sys
sys.path.insert(0, {ext!r})
from pathlib import Path
from source_anchors.model.fsio import FileLock
counter = Path({counter!r})
for _ in range({times}):
    with FileLock({path!r}, timeout=60):
        value = int(counter.read_text() or "0")
        counter.write_text(str(value + 1))
"""


def _holder(path: Path, seconds: float) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD.format(ext=EXT, path=str(path), seconds=seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    return process


def test_a_lock_held_by_another_process_times_out_with_its_own_error(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    holder = _holder(path, 30)
    try:
        began = time.monotonic()
        with pytest.raises(LockTimeout, match="held by another process"), FileLock(path, 0.3):
            pass
        assert time.monotonic() - began >= 0.3
        assert isinstance(LockTimeout("x"), OSError)  # the cache's writers catch OSError
    finally:
        holder.kill()
        holder.wait()


def test_a_crashed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    holder = _holder(path, 30)
    holder.kill()  # no __exit__ runs: the system drops the lock with the process
    holder.wait()
    with FileLock(path, 1):
        assert path.exists()


def test_a_waiting_process_gets_the_lock_once_the_holder_lets_go(tmp_path: Path) -> None:
    path = tmp_path / "x.lock"
    holder = _holder(path, 0.5)
    try:
        began = time.monotonic()
        with FileLock(path, 10):
            waited = time.monotonic() - began
        assert waited > 0.1  # it did wait for the holder
    finally:
        holder.wait()


def test_two_processes_never_hold_the_lock_at_once(tmp_path: Path) -> None:
    counter, path = tmp_path / "count", tmp_path / "count.lock"
    counter.write_text("0")
    script = COUNT.format(ext=EXT, counter=str(counter), path=str(path), times=200)
    processes = [subprocess.Popen([sys.executable, "-c", script]) for _ in range(3)]
    assert [process.wait() for process in processes] == [0, 0, 0]
    assert counter.read_text() == "600"  # no lost update: every read-and-write was alone


def test_the_lock_is_reentrant_across_objects_only_by_waiting(tmp_path: Path) -> None:
    """flock locks an open file: a second lock object in the same process waits like another process."""
    path = tmp_path / "x.lock"
    with FileLock(path, 1), pytest.raises(LockTimeout), FileLock(path, 0.2):
        pass
    with FileLock(path, 0.2):  # released by the first block's end
        pass
    assert os.path.exists(path)
