"""Helpers shared by the reliability tests: builds in subprocesses, warnings, cache checks, snapshots."""

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
import tempfile
import time
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXT = ROOT / "ext"
PY = sys.executable
#: Port 9 (discard) on the loopback: nothing listens there, a connection is refused at once.
DEAD = "http://127.0.0.1:9"
_PROXIES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")


def build_env(extra: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """Our environment less CI, SOURCE_ANCHORS_CACHE and proxies, plus *extra* (None removes a name)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CI", "SOURCE_ANCHORS_CACHE", "PYTHONDONTWRITEBYTECODE", *_PROXIES)}
    env["PYTHONPATH"] = os.pathsep.join([str(EXT), *filter(None, [env.get("PYTHONPATH")])])
    # Byte code is cached outside the repository: without it every build compiles Sphinx again.
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "source-anchors-reliability-pycache")
    for key, value in (extra or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def pip_env(find_links: Path | None, cache: Path) -> dict[str, str | None]:
    """pip offline from one find-links directory, ignoring the machine's pip configuration files."""
    return {"PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1" if find_links else None,
            "PIP_FIND_LINKS": str(find_links) if find_links else None, "PIP_INDEX_URL": None,
            "PIP_EXTRA_INDEX_URL": None, "PIP_CACHE_DIR": str(cache), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def sphinx_argv(root: Path, *args: str, out: str = "html") -> list[str]:
    """``python -m sphinx`` for the book at *root* (conf.py there, pages in source/)."""
    return [PY, "-m", "sphinx", "-c", str(root), *args, str(root / "source"), str(root / "_build" / out)]


def cli_argv(root: Path, *args: str) -> list[str]:
    """``python -m source_anchors --confdir ROOT ...``."""
    return [PY, "-m", "source_anchors", "--confdir", str(root), *args]


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


def run(argv: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 600, stats_dir: Path) -> Run:
    """Run *argv* under a small wrapper that reports the peak RSS of it and its children.

    ``RUSAGE_CHILDREN`` is read in a fresh wrapper process, so the figure belongs to this
    run alone (git and pip started by the build included, as the build waits for them).
    """
    stats_dir.mkdir(parents=True, exist_ok=True)
    stats = stats_dir / f"stats-{time.monotonic_ns()}.json"
    done = subprocess.run([PY, "-c", _WRAPPER, str(stats), str(timeout), *argv], cwd=cwd, env=env,
                          capture_output=True, timeout=timeout + 60)
    data = json.loads(stats.read_text("utf-8"))
    stats.unlink()
    return Run(data["code"], done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"),
               data["seconds"], data["maxrss_kb"] / 1024, data["timed_out"])


# -- warnings ---------------------------------------------------------------------------------

_WARN_RE = re.compile(r"^(?P<path>[^\n]*?\.(?:md|rst|py|lock)):(?P<line>\d+)?:? ?(?P<level>WARNING|ERROR|CRITICAL): "
                      r"(?P<msg>.*)$")
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
            open_ = {"path": found["path"], "line": int(found["line"]) if found["line"] else None,
                     "level": found["level"], "msg": found["msg"]}
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
    return Warning_(entry["path"], entry["line"], entry["level"], msg[:kind.start()] if kind else msg,
                    kind["type"] if kind else None)


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
            problems.append(f"trees/{place.name}: meta.json unreadable ({type(error).__name__}: {error})")
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
        dirs[:] = [d for d in dirs if (here / d).resolve() not in skipped or (here / d).is_symlink()]
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


def wheel_bytes(name: str, version: str, files: Mapping[str, bytes], *,
                extra: Iterable[tuple[zipfile.ZipInfo | str, bytes]] = ()) -> bytes:
    """A wheel (zip) holding *files*, a dist-info with METADATA/WHEEL/RECORD, and raw *extra* entries."""
    dist_info = f"{name}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    wheel = b"Wheel-Version: 1.0\nGenerator: reliability\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    entries: list[tuple[zipfile.ZipInfo | str, bytes]] = [*files.items(), *extra,
                                                          (f"{dist_info}/METADATA", metadata),
                                                          (f"{dist_info}/WHEEL", wheel)]
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


def write_conf(root: Path, repos: Mapping[str, Any], cache: Path, *, default_repo: str | None = None) -> None:
    """The conf.py of a reliability book: the extension from this checkout, *repos*, a private cache."""
    default = f"source_anchors_default_repo = {default_repo!r}\n" if default_repo else ""
    (root / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[2] / 'ext')!r})\n"
        "extensions = ['myst_parser', 'source_anchors']\n"
        f"source_anchors_repos = {dict(repos)!r}\n{default}"
        f"source_anchors_cache_dir = {str(cache)!r}\n", "utf-8")
