"""Tests for ``source_anchors.sources.archive.unpack`` on hand-made (and hostile) archives.

Every archive is written here with ``tarfile`` or ``zipfile``; blob ids are
compared with what ``git hash-object`` prints for the written files.
"""

from __future__ import annotations

import io
import os
import stat
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest
from source_anchors.sources.archive import blob_id, unpack

MODULE = b'"""A module."""\n\n\ndef func():\n    return 1\n'
INIT = b'"""The package."""\n'
LICENCE = b"Permission is hereby granted, free of charge.\n"


# -- helpers ------------------------------------------------------------------


def _hash_objects(files: list[Path]) -> list[str]:
    """What ``git hash-object`` prints for *files* (no repository needed)."""
    out = subprocess.run(
        ["git", "hash-object", "--", *map(str, files)], check=True, capture_output=True, text=True
    ).stdout
    return out.split()


def _entries(root: Path) -> set[str]:
    """Every file, directory and link below *root* (links not followed), relative to it."""
    found = set()
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            found.add(Path(folder, name).relative_to(root).as_posix())
    return found


def _outside(tmp_path: Path) -> set[str]:
    """Everything under *tmp_path* except the destination and the archives themselves."""
    return {
        p
        for p in _entries(tmp_path)
        if not p.startswith(("work/dest/", "archives/")) and p not in ("work/dest", "archives")
    }


def _written(dest: Path) -> dict[str, Path]:
    """Regular files written below *dest*, by relative path; nothing else may be there."""
    files: dict[str, Path] = {}
    for rel in _entries(dest):
        path = dest / rel
        mode = path.lstat().st_mode
        assert stat.S_ISDIR(mode) or stat.S_ISREG(mode), (
            f"{rel} is neither a directory nor a regular file"
        )
        if stat.S_ISREG(mode):
            files[rel] = path
    return files


@pytest.fixture
def place(tmp_path: Path) -> tuple[Path, Path]:
    """(archives directory, destination) with the destination inside a watched parent."""
    archives = tmp_path / "archives"
    archives.mkdir()
    dest = tmp_path / "work" / "dest"
    dest.mkdir(parents=True)
    return archives, dest


def _tar(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as archive:
        for info, data in members:
            if data is not None:
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
            else:
                archive.addfile(info)
    return path


def _regular(name: str, data: bytes) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.mode = 0o644
    return info, data


def _special(name: str, kind: bytes, linkname: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = linkname
    info.mode = 0o644
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        info.devmajor, info.devminor = 1, 3
    return info, None


def _zip(path: Path, members: list[tuple[str | zipfile.ZipInfo, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return path


def _zip_symlink(name: str, target: str) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name)
    info.create_system = 3  # Unix, so the mode bits in external_attr count
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target.encode()


def _check_regular(dest: Path, blobs: dict[str, str], expected: dict[str, bytes]) -> None:
    """Exactly *expected* was written, byte for byte, with git's blob ids."""
    written = _written(dest)
    assert sorted(written) == sorted(expected)
    assert sorted(blobs) == sorted(expected)
    for rel, data in expected.items():
        assert written[rel].read_bytes() == data
    paths = sorted(written)
    assert [blobs[p] for p in paths] == _hash_objects([written[p] for p in paths])


# -- blob ids -------------------------------------------------------------------


@pytest.mark.parametrize("data", [b"", b"x", MODULE, bytes(range(256)) * 40])
def test_blob_id_is_what_git_hash_object_prints(data: bytes) -> None:
    done = subprocess.run(
        ["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True
    )
    assert blob_id(data) == done.stdout.decode().strip()


# -- hostile tar (sdist) ------------------------------------------------------------


def test_hostile_tar_entries_are_refused_and_nothing_escapes(
    tmp_path: Path, place: tuple[Path, Path]
) -> None:
    archives, dest = place
    absolute = tmp_path / "work" / "abs-evil"  # an absolute name inside the watched parent
    archive = _tar(
        archives / "demo-1.0.tar.gz",
        [
            _regular("demo-1.0/PKG-INFO", b"Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n"),
            _regular("demo-1.0/pkg/__init__.py", INIT),
            _regular("demo-1.0/pkg/mod.py", MODULE),
            _regular("../evil", b"escaped\n"),
            _regular("demo-1.0/../../evil2", b"escaped\n"),
            _regular(str(absolute), b"escaped\n"),
            _regular("/srv/evil", b"escaped\n"),
            _special("demo-1.0/pkg/passwd", tarfile.SYMTYPE, "/etc/passwd"),
            _special("demo-1.0/pkg/up", tarfile.SYMTYPE, "../../.."),
            _special("demo-1.0/pkg/hard", tarfile.LNKTYPE, "demo-1.0/pkg/mod.py"),
            _special("demo-1.0/pkg/hard-out", tarfile.LNKTYPE, "/etc/passwd"),
            _special("demo-1.0/pkg/fifo", tarfile.FIFOTYPE),
            _special("demo-1.0/pkg/null", tarfile.CHRTYPE),
            _special("demo-1.0/pkg/disk", tarfile.BLKTYPE),
        ],
    )
    before = _outside(tmp_path)

    result = unpack(archive, dest)

    assert _outside(tmp_path) == before, "unpack wrote outside its destination"
    assert not absolute.exists()
    _check_regular(dest, result.blobs, {"pkg/__init__.py": INIT, "pkg/mod.py": MODULE})
    refused = result.refused
    assert set(refused) == {
        "../evil",
        "demo-1.0/../../evil2",
        str(absolute),
        "/srv/evil",
        "demo-1.0/pkg/passwd",
        "demo-1.0/pkg/up",
        "demo-1.0/pkg/hard",
        "demo-1.0/pkg/hard-out",
        "demo-1.0/pkg/fifo",
        "demo-1.0/pkg/null",
        "demo-1.0/pkg/disk",
    }
    assert "'..'" in refused["../evil"] and "'..'" in refused["demo-1.0/../../evil2"]
    assert "absolute" in refused[str(absolute)] and "absolute" in refused["/srv/evil"]
    for name in ("passwd", "up", "hard", "hard-out"):
        assert "link" in refused[f"demo-1.0/pkg/{name}"]
    for name in ("fifo", "null", "disk"):
        assert (
            "device" in refused[f"demo-1.0/pkg/{name}"] or "FIFO" in refused[f"demo-1.0/pkg/{name}"]
        )


# -- hostile zip (wheel) ------------------------------------------------------------


def test_hostile_zip_entries_are_refused_and_nothing_escapes(
    tmp_path: Path, place: tuple[Path, Path]
) -> None:
    archives, dest = place
    absolute = tmp_path / "work" / "abs-evil"
    link, link_data = _zip_symlink("pkg/passwd", "/etc/passwd")
    link_up, link_up_data = _zip_symlink("pkg/up", "../../..")
    archive = _zip(
        archives / "demo-1.0-py3-none-any.whl",
        [
            ("pkg/__init__.py", INIT),
            ("pkg/mod.py", MODULE),
            ("../evil", b"escaped\n"),
            ("pkg/../../evil2", b"escaped\n"),
            ("..\\evil3", b"escaped\n"),
            (str(absolute), b"escaped\n"),
            ("/srv/evil", b"escaped\n"),
            (link, link_data),
            (link_up, link_up_data),
            ("demo-1.0.dist-info/licenses/LICENSE", LICENCE),
        ],
    )
    with zipfile.ZipFile(archive) as check:  # the names really are hostile in the archive
        assert str(absolute) in check.namelist() and "../evil" in check.namelist()
    before = _outside(tmp_path)

    result = unpack(archive, dest)

    assert _outside(tmp_path) == before, "unpack wrote outside its destination"
    assert not absolute.exists()
    _check_regular(
        dest, result.blobs, {"pkg/__init__.py": INIT, "pkg/mod.py": MODULE, "LICENSE": LICENCE}
    )
    refused = result.refused
    assert set(refused) == {
        "../evil",
        "pkg/../../evil2",
        "..\\evil3",
        str(absolute),
        "/srv/evil",
        "pkg/passwd",
        "pkg/up",
    }
    assert all("'..'" in refused[name] for name in ("../evil", "pkg/../../evil2", "..\\evil3"))
    assert "absolute" in refused[str(absolute)] and "absolute" in refused["/srv/evil"]
    assert "link" in refused["pkg/passwd"] and "link" in refused["pkg/up"]


# Regression: unpack() ran _refusal() on the raw entry name but wrote the path _map() returned,
# which kept an empty part: 'demo-1.0//abs/path' (sdist) and 'x.dist-info/licenses//abs/path'
# (wheel) mapped to '/abs/path' and were written there, outside dest.
@pytest.mark.parametrize("kind", ["sdist", "wheel"])
def test_an_empty_part_after_the_mapped_prefix_does_not_escape(
    tmp_path: Path, place: tuple[Path, Path], kind: str
) -> None:
    archives, dest = place
    escaped = tmp_path / "work" / "escaped.py"
    if kind == "sdist":
        name = "demo-1.0/" + str(escaped)  # "demo-1.0/" + an absolute path
        archive = _tar(
            archives / "demo-1.0.tar.gz",
            [_regular("demo-1.0/pkg/mod.py", MODULE), _regular(name, b"escaped\n")],
        )
    else:
        name = "demo-1.0.dist-info/licenses/" + str(escaped)
        archive = _zip(
            archives / "demo-1.0-py3-none-any.whl", [("pkg/mod.py", MODULE), (name, b"escaped\n")]
        )
    before = _outside(tmp_path)

    try:
        result = unpack(archive, dest)
    finally:
        leaked = _outside(tmp_path) - before
    assert not leaked, f"unpack wrote outside its destination: {sorted(leaked)}"
    assert name in result.refused
    assert result.blobs == {"pkg/mod.py": blob_id(MODULE)}


# -- mapping to repository paths ---------------------------------------------------


def test_wheel_mapping_keeps_licences_and_drops_other_metadata(place: tuple[Path, Path]) -> None:
    archives, dest = place
    notice = b"NOTICE: demo\n"
    archive = _zip(
        archives / "demo-1.0-py3-none-any.whl",
        [
            ("pkg/__init__.py", INIT),
            ("pkg/sub/mod.py", MODULE),
            ("pkg/sub/", b""),  # a directory entry
            ("demo-1.0.dist-info/METADATA", b"Metadata-Version: 2.4\nName: demo\nVersion: 1.0\n"),
            ("demo-1.0.dist-info/WHEEL", b"Wheel-Version: 1.0\n"),
            ("demo-1.0.dist-info/RECORD", b"pkg/__init__.py,,\n"),
            ("demo-1.0.dist-info/top_level.txt", b"pkg\n"),
            ("demo-1.0.dist-info/licenses/LICENSE", LICENCE),
            ("demo-1.0.dist-info/licenses/docs/NOTICE", notice),
            ("demo-1.0.data/scripts/demo-tool", b"#!python\n"),
        ],
    )

    result = unpack(archive, dest)

    _check_regular(
        dest,
        result.blobs,
        {
            "pkg/__init__.py": INIT,
            "pkg/sub/mod.py": MODULE,
            "LICENSE": LICENCE,
            "docs/NOTICE": notice,
        },
    )
    assert result.refused == {}


@pytest.mark.parametrize("suffix", ["tar.gz", "zip"])
def test_sdist_mapping_strips_the_name_version_directory(
    place: tuple[Path, Path], suffix: str
) -> None:
    archives, dest = place
    pyproject = b'[project]\nname = "demo"\nversion = "1.0"\n'
    members = {
        "demo-1.0/PKG-INFO": b"Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n",
        "demo-1.0/demo.egg-info/PKG-INFO": b"Metadata-Version: 2.1\n",
        "demo-1.0/demo.egg-info/SOURCES.txt": b"pkg/__init__.py\n",
        "demo-1.0/LICENSE": LICENCE,
        "demo-1.0/pyproject.toml": pyproject,
        "demo-1.0/pkg/__init__.py": INIT,
        "demo-1.0/pkg/sub/mod.py": MODULE,
    }
    if suffix == "zip":
        archive = _zip(archives / "demo-1.0.zip", list(members.items()))
    else:
        archive = _tar(archives / "demo-1.0.tar.gz", [_regular(n, d) for n, d in members.items()])

    result = unpack(archive, dest)

    _check_regular(
        dest,
        result.blobs,
        {
            "LICENSE": LICENCE,
            "pyproject.toml": pyproject,
            "pkg/__init__.py": INIT,
            "pkg/sub/mod.py": MODULE,
        },
    )
    assert result.refused == {}
