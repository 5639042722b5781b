"""Helpers of the reliability tests: builds (in-process or measured subprocesses), warnings, cache checks.

The conf.py writer, the sphinx command line and the subprocess environment are the suite-wide
ones of ``helpers.py``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tarfile
import time
import traceback
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

from helpers import build_env, clean_global_state, cli_args, run_cli

PY = sys.executable


@dataclass
class Run:
    """One finished (or stopped) subprocess, with its peak memory."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss_mb: float
    timed_out: bool

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def crashed(self) -> bool:
        """A Python traceback or Sphinx's crash banner is in the output."""
        return "Traceback" in self.output or "Exception occurred" in self.output


@contextlib.contextmanager
def environment(extra: Mapping[str, str | None] | None = None) -> Iterator[None]:
    """``os.environ`` as :func:`helpers.build_env` makes it for a subprocess, restored afterwards."""
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(build_env(extra))
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def build_in_process(
    root: Path,
    *,
    strict: bool = False,
    fresh: bool = False,
    out: str = "html",
    builder: str = "html",
    env: Mapping[str, str | None] | None = None,
) -> Run:
    """Build the book at *root* in this process as ``sphinx-build [-W] [-E] -b BUILDER`` would; never raises.

    The application is Sphinx's own with sphinx-build's directories (``_build/OUT``, doctrees in
    ``_build/OUT/.doctrees``), not ``SphinxTestApp`` (whose output goes to ``_build/OUT/BUILDER``):
    here an in-process build often follows a killed subprocess build of the same book, and must
    meet what that one left behind. The status is Sphinx's (1 after warnings with *strict*), the
    code of a ``SystemExit`` (the extension stops on bad configuration with 2), or 2 after any
    other exception, whose traceback is then appended to the warnings as sphinx-build would
    print one. Peak RSS is not measured here.
    """
    from sphinx.application import Sphinx

    status, warning = StringIO(), StringIO()
    outdir = root / "_build" / out
    start = time.monotonic()
    code = 0
    clean_global_state()
    try:
        with environment(env):
            app = Sphinx(
                str(root),
                str(root),
                str(outdir),
                str(outdir / ".doctrees"),
                builder,
                status=status,
                warning=warning,
                freshenv=fresh,
                warningiserror=strict,
            )
            app.build()
            code = app.statuscode
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 2
    except Exception:
        code = 2
        warning.write("Traceback (most recent call last):\n" + traceback.format_exc())
    finally:
        clean_global_state()
    return Run(code, status.getvalue(), warning.getvalue(), time.monotonic() - start, 0.0, False)


def cli_in_process(root: Path, *args: str, env: Mapping[str, str | None] | None = None) -> Run:
    """``source_anchors.cli.main.main`` on the book at *root*, its output captured; never raises."""
    out, err = StringIO(), StringIO()
    start = time.monotonic()
    try:
        with environment(env), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run_cli(cli_args(root, *args))
    except Exception:
        code = 1
        err.write("Traceback (most recent call last):\n" + traceback.format_exc())
    return Run(code, out.getvalue(), err.getvalue(), time.monotonic() - start, 0.0, False)


_WRAPPER = r"""
import json, os, resource, signal, subprocess, sys, time
stats, timeout, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
start = time.monotonic()
proc = subprocess.Popen(argv, start_new_session=True)
timed_out = False
try:
    code = proc.wait(timeout=timeout)
except subprocess.TimeoutExpired:
    timed_out = True
    os.killpg(proc.pid, signal.SIGKILL)
    code = proc.wait()
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(stats, "w") as handle:
    json.dump({"code": code, "seconds": time.monotonic() - start, "maxrss_kb": usage.ru_maxrss,
               "timed_out": timed_out}, handle)
"""


def run(
    argv: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 600, stats_dir: Path
) -> Run:
    """Run *argv* under a small wrapper that reports the peak RSS of it and its children.

    ``RUSAGE_CHILDREN`` is read in a fresh wrapper process, so the figure belongs to this
    run alone (git and pip started by the build included, as the build waits for them).
    """
    stats_dir.mkdir(parents=True, exist_ok=True)
    stats = stats_dir / f"stats-{time.monotonic_ns()}.json"
    done = subprocess.run(
        [PY, "-c", _WRAPPER, str(stats), str(timeout), *argv],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=timeout + 60,
    )
    data = json.loads(stats.read_text("utf-8"))
    stats.unlink()
    return Run(
        data["code"],
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
        data["seconds"],
        data["maxrss_kb"] / 1024,
        data["timed_out"],
    )


# -- warnings ---------------------------------------------------------------------------------

_WARN_RE = re.compile(
    r"^(?P<path>[^\n]*?\.(?:md|rst|py|lock)):(?P<line>\d+)?:? ?(?P<level>WARNING|ERROR|CRITICAL): "
    r"(?P<msg>.*)$"
)
_TYPE_RE = re.compile(r" \[(?P<type>[A-Za-z0-9_.-]+)\]$")


@dataclass(frozen=True)
class Warning_:
    """One warning line of a build: file, line, level, message, ``type.subtype``."""

    path: str
    line: int | None
    level: str
    message: str
    type: str | None

    @property
    def doc(self) -> str:
        return Path(self.path).stem


_ANSI_RE = re.compile(r"\x1b\[[0-9;]*m")


def warnings_of(stderr: str) -> tuple[list[Warning_], list[str]]:
    """Located warnings, and the other lines that say WARNING/ERROR (unlocated ones).

    Colour codes are removed (Sphinx colours its output when CI is set). Lines are split on
    ``\\n`` only, as messages may quote text holding U+2028 and friends. A message of several
    lines (a diff) carries its ``[type.subtype]`` on its last line.
    """
    located: list[Warning_] = []
    other: list[str] = []
    open_: dict[str, Any] | None = None
    for raw in _ANSI_RE.sub("", stderr).split("\n"):
        found = _WARN_RE.match(raw)
        if found:
            open_ = {
                "path": found["path"],
                "line": int(found["line"]) if found["line"] else None,
                "level": found["level"],
                "msg": found["msg"],
            }
            located.append(_close(open_))
            if located[-1].type is not None:
                open_ = None
            continue
        if open_ is not None and not re.match(r"^\S.*\b(WARNING|ERROR|CRITICAL): ", raw):
            open_["msg"] += "\n" + raw
            located[-1] = _close(open_)
            if located[-1].type is not None:
                open_ = None
            continue
        open_ = None
        if re.search(r"\b(WARNING|ERROR|CRITICAL)\b", raw):
            other.append(raw)
    return located, other


def _close(entry: dict[str, Any]) -> Warning_:
    msg = entry["msg"]
    kind = _TYPE_RE.search(msg)
    return Warning_(
        entry["path"],
        entry["line"],
        entry["level"],
        msg[: kind.start()] if kind else msg,
        kind["type"] if kind else None,
    )


# -- git blobs, cache invariants ------------------------------------------------------------


def git_blob_id(data: bytes) -> str:
    """git's blob id of *data* (computed here, not by the extension)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def walk_files(root: Path) -> dict[str, Path]:
    """Every non-directory below *root*, links not followed, by POSIX relative path."""
    found: dict[str, Path] = {}
    if not root.is_dir():
        return found
    for folder, dirs, names in os.walk(root, followlinks=False):
        for name in names + [d for d in dirs if Path(folder, d).is_symlink()]:
            path = Path(folder, name)
            found[path.relative_to(root).as_posix()] = path
    return found


def cache_problems(cache: Path) -> list[str]:
    """Problems of the cache: a tree without meta.json, or files that differ from their meta."""
    problems: list[str] = []
    trees = cache / "trees"
    if not trees.is_dir():
        return problems
    for place in sorted(trees.iterdir()):
        meta_path = place / "meta.json"
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
        except (OSError, ValueError) as error:
            problems.append(
                f"trees/{place.name}: meta.json unreadable ({type(error).__name__}: {error})"
            )
            continue
        blobs = meta.get("blobs")
        if not isinstance(blobs, dict):
            problems.append(f"trees/{place.name}: meta.json has no 'blobs'")
            continue
        on_disk = walk_files(place / "files")
        for rel, blob in blobs.items():
            path = on_disk.get(rel)
            if path is None:
                problems.append(f"trees/{place.name}: {rel} is in meta.json but not on disk")
            elif not stat.S_ISREG(path.lstat().st_mode):
                problems.append(f"trees/{place.name}: {rel} is not a regular file")
            elif git_blob_id(path.read_bytes()) != blob:
                problems.append(f"trees/{place.name}: {rel} does not match its blob id {blob[:12]}")
        extra = sorted(set(on_disk) - set(blobs))
        if extra:
            problems.append(f"trees/{place.name}: files not in meta.json: {extra[:5]}")
    return problems


def tree_dirs(cache: Path) -> list[str]:
    trees = cache / "trees"
    return sorted(p.name for p in trees.iterdir()) if trees.is_dir() else []


def tmp_entries(cache: Path) -> list[str]:
    tmp = cache / "tmp"
    return sorted(p.name for p in tmp.iterdir()) if tmp.is_dir() else []


# -- snapshots ---------------------------------------------------------------------------------


def snapshot(root: Path, *, skip: Iterable[Path] = ()) -> dict[str, tuple[str, int, str]]:
    """(kind, size, digest) of everything below *root* (links not followed), except *skip* trees."""
    skipped = [s.resolve() for s in skip]
    seen: dict[str, tuple[str, int, str]] = {}
    for folder, dirs, names in os.walk(root, followlinks=False):
        here = Path(folder)
        dirs[:] = [
            d for d in dirs if (here / d).resolve() not in skipped or (here / d).is_symlink()
        ]
        for name in [*names, *dirs]:
            path = here / name
            info = path.lstat()
            rel = path.relative_to(root).as_posix()
            if stat.S_ISREG(info.st_mode):
                seen[rel] = ("file", info.st_size, hashlib.sha256(path.read_bytes()).hexdigest())
            elif stat.S_ISLNK(info.st_mode):
                seen[rel] = ("link", 0, os.readlink(path))
            elif stat.S_ISDIR(info.st_mode):
                seen[rel] = ("dir", 0, "")
            else:
                seen[rel] = ("special", 0, oct(info.st_mode))
    return seen


def snapshot_diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Paths added, removed or changed between two snapshots."""
    out = [f"added {p}" for p in sorted(set(after) - set(before))]
    out += [f"removed {p}" for p in sorted(set(before) - set(after))]
    out += [f"changed {p}" for p in sorted(set(before) & set(after)) if before[p] != after[p]]
    return out


# -- processes -----------------------------------------------------------------------------------


def kill_group(proc: subprocess.Popen[Any]) -> None:
    """SIGKILL the process group of *proc* (started with start_new_session=True) and reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)


# -- distributions made by hand -----------------------------------------------------------------


def wheel_bytes(
    name: str,
    version: str,
    files: Mapping[str, bytes],
    *,
    extra: Iterable[tuple[zipfile.ZipInfo | str, bytes]] = (),
) -> bytes:
    """A wheel (zip) holding *files*, a dist-info with METADATA/WHEEL/RECORD, and raw *extra* entries."""
    dist_info = f"{name}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    wheel = (
        b"Wheel-Version: 1.0\nGenerator: reliability\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    entries: list[tuple[zipfile.ZipInfo | str, bytes]] = [
        *files.items(),
        *extra,
        (f"{dist_info}/METADATA", metadata),
        (f"{dist_info}/WHEEL", wheel),
    ]
    record = "".join(f"{e if isinstance(e, str) else e.filename},," + "\n" for e, _ in entries)
    entries.append((f"{dist_info}/RECORD", (record + f"{dist_info}/RECORD,,\n").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for entry, data in entries:
            archive.writestr(entry, data)
    return buffer.getvalue()


def tar_add(tar: tarfile.TarFile, name: str, data: bytes = b"", **fields: Any) -> None:
    """Add one member (a regular file unless *fields* say otherwise) to *tar*."""
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o644, 1_700_000_000
    for key, value in fields.items():
        setattr(info, key, value)
    tar.addfile(info, io.BytesIO(data) if info.isreg() else None)


def copy_book(src: Path, dest: Path) -> None:
    """Copy a book (conf.py, source/, lock, listing files) without its build output."""
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("_build"))
