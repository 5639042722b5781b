"""Unpack a downloaded distribution safely into repository-relative paths.

Entries are untrusted: absolute paths, ``..`` parts, links and device files are
refused (recorded with a reason, never written); only regular files are written,
and only below the destination directory.
"""

from __future__ import annotations

import stat
import tarfile
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from ..model.errors import ArchiveError
from .treefiles import blob_id

__all__ = [
    "MAX_MEMBER_BYTES",
    "MAX_TOTAL_BYTES",
    "Unpacked",
    "blob_id",
    "metadata_headers",
    "unpack",
]

#: Refuse to unpack a single member larger than this (a decompression bomb guard).
MAX_MEMBER_BYTES = 256 * 1024 * 1024
#: Refuse archives whose members add up to more than this.
MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024


@dataclass
class Unpacked:
    """What an archive gave: written files with their blob ids, and refused entries."""

    blobs: dict[str, str] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)


def unpack(archive: Path, dest: Path) -> Unpacked:
    """Unpack a wheel or sdist *archive* into *dest*, mapped to repository paths.

    A wheel's top-level entries are repository paths and its
    ``*.dist-info/licenses/X`` is the repository's ``X``; an sdist's single
    top-level directory is the repository root.
    """
    name = archive.name
    result = Unpacked()
    total = 0
    try:
        members = (
            _zip_members(archive) if name.endswith((".whl", ".zip")) else _tar_members(archive)
        )
        for raw, kind, size, read in members:
            repo_path = _map(raw, wheel=name.endswith(".whl"))
            if repo_path is None or kind == "dir":
                continue
            reason = _refusal(raw, kind, size) or _unsafe_path(repo_path)
            if reason:
                result.refused[raw] = reason
                continue
            total += size
            if total > MAX_TOTAL_BYTES:
                raise ArchiveError(
                    f"{name}: more than {MAX_TOTAL_BYTES} bytes unpacked; refusing the rest"
                )
            data = read()
            target = dest.joinpath(*repo_path.split("/"))
            if not target.resolve().is_relative_to(dest.resolve()):
                result.refused[raw] = "resolves outside the export"
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as handle:
                handle.write(data)
            result.blobs[repo_path] = blob_id(data)
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError) as error:
        raise ArchiveError(f"{name}: cannot unpack: {error}") from error
    return result


def metadata_headers(archive: Path) -> tuple[str, str] | None:
    """(member name, header lines) of a wheel's ``*.dist-info/METADATA`` or an sdist's ``PKG-INFO``.

    Only the headers (up to the first blank line) are kept: the description after them is the
    project's README. ``None`` when the archive has no such member or it cannot be read.
    """
    wheel = archive.name.endswith(".whl")
    try:
        members = (
            _zip_members(archive)
            if archive.name.endswith((".whl", ".zip"))
            else _tar_members(archive)
        )
        for raw, kind, size, read in members:
            parts = raw.split("/")
            ours = (
                (len(parts) == 2 and parts[0].endswith(".dist-info") and parts[1] == "METADATA")
                if wheel
                else (len(parts) == 2 and parts[1] == "PKG-INFO")
            )
            if ours and kind == "file" and size <= MAX_MEMBER_BYTES:
                text = read().decode("utf-8", "replace")
                return raw, text.split("\n\n", 1)[0] + "\n"
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError, ArchiveError):
        return None
    return None


Member = tuple[str, str, int, Callable[[], bytes]]


def _zip_members(path: Path) -> Iterator[Member]:
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            mode = info.external_attr >> 16
            kind = "dir" if info.is_dir() else "link" if stat.S_ISLNK(mode) else "file"
            yield info.filename, kind, info.file_size, partial(archive.read, info)


def _tar_members(path: Path) -> Iterator[Member]:
    with tarfile.open(path, "r:*") as archive:
        for info in archive:
            if info.isreg():
                kind = "file"
            elif info.isdir():
                kind = "dir"
            elif info.issym() or info.islnk():
                kind = "link"
            else:
                kind = "device"

            def read(i: tarfile.TarInfo = info) -> bytes:
                handle = archive.extractfile(i)
                if handle is None:
                    raise ArchiveError(f"{path.name}: cannot read {i.name}")
                return handle.read()

            yield info.name, kind, info.size, read


def _map(raw: str, *, wheel: bool) -> str | None:
    """Repository path of archive entry *raw*, or None for packaging metadata."""
    parts = raw.replace("\\", "/").split("/")
    if wheel:
        top = parts[0]
        if top.endswith(".dist-info"):
            if len(parts) > 2 and parts[1] == "licenses":
                return "/".join(parts[2:])
            return None
        if top.endswith(".data"):
            return None
        return raw
    # sdist: drop the "name-version/" directory.
    rest = [p for p in parts[1:] if p != ""]
    if not rest or rest[0] == "PKG-INFO" or rest[0].endswith(".egg-info"):
        return None
    return "/".join(parts[1:])


def _unsafe_path(path: str) -> str | None:
    """Why a mapped repository path is unsafe to write, or None: it must be plainly relative."""
    parts = path.split("/")
    if path.startswith("/") or any(part in ("", ".", "..") for part in parts) or "\\" in path:
        return "unsafe path after mapping (empty, '.', '..' or absolute part)"
    return None


def _refusal(raw: str, kind: str, size: int) -> str | None:
    if raw.startswith(("/", "\\")) or (len(raw) > 1 and raw[1] == ":"):
        return "absolute path"
    parts = raw.replace("\\", "/").split("/")
    if ".." in parts:
        return "path with '..'"
    if "\0" in raw:
        return "NUL in name"
    if kind == "link":
        return "link (never created; links could point outside the export)"
    if kind == "device":
        return "device, FIFO or other special file"
    if size > MAX_MEMBER_BYTES:
        return f"{size} bytes, above the {MAX_MEMBER_BYTES}-byte limit"
    return None
