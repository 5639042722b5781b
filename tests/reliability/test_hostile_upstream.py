"""Hostile upstreams: nothing runs, nothing is written outside the cache, memory stays bounded.

A git upstream holds modules with import-time side effects, symbolic links out of the tree
(``pkg/evil.py -> /etc/passwd`` and others, committed as links), a gitlink, a module of 8 MiB
(50 MiB in the full form; either is far over the 2 MB size limit),
200 nested ``if`` blocks, a 100,000-term expression, undecodable bytes, a NUL byte, a syntax
error and file names that are not UTF-8. A hand-made wheel holds ``../`` entries, absolute
paths, links and a link-then-file pair; an sdist's build backend leaves a mark if it is ever
imported; and ``archive.unpack`` is given a tar with device files, FIFOs, hard links and every
kind of escaping name. Every build runs in a sandbox directory that is snapshotted before and
after: only the cache, the build output, the lock and pip's/temporary directories may change.
The build's peak RSS (git and pip included) must stay under 1.5 GB. Anchors into a broken
file get one located warning each; the rest of the book builds. A module graph whose star
imports (or base classes) form cycles must resolve a missing name in bounded time.
"""

from __future__ import annotations

import os
import tarfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers import DEAD, Upstream, build_env, git, pip_env, sphinx_argv, write_conf

from .figures import Results, Scale, Tally
from .support import (
    Run,
    cache_problems,
    run,
    snapshot,
    snapshot_diff,
    tar_add,
    walk_files,
    warnings_of,
    wheel_bytes,
)

CATEGORY = "hostile_upstream"
MAX_RSS_MB = 1536
WARN = ("missing", "upstream")  # subtypes an anchor into a refused or unreadable file may get


def _marker_code(markers: Path, name: str) -> str:
    return (
        f"import os, pathlib\npathlib.Path({str(markers)!r}, {name!r}).write_text('ran')\n"
        f"os.system('touch ' + {str(markers / (name + '-shell'))!r})\n"
    )


def _nested_ifs(depth: int) -> str:
    body = "".join("    " * (i + 1) + f"if x{i}:\n" for i in range(depth))
    return f"def f():\n{body}{'    ' * (depth + 1)}return {depth}\n\n\ndef g():\n    return 2\n"


@dataclass
class Sandbox:
    """Everything one hostile build touches lives below ``root``."""

    root: Path

    def __post_init__(self) -> None:
        for name in ("markers", "pip-cache", "tmp", "links"):
            (self.root / name).mkdir(parents=True, exist_ok=True)

    @property
    def markers(self) -> Path:
        return self.root / "markers"

    @property
    def cache(self) -> Path:
        return self.root / "cache"

    @property
    def book(self) -> Path:
        return self.root / "book"

    def allowed(self) -> list[Path]:
        """What a build may change: the cache, its output, pip's cache and the temporary directory."""
        return [self.cache, self.book / "_build", self.root / "pip-cache", self.root / "tmp"]

    def snap(self) -> dict[str, Any]:
        seen = snapshot(self.root, skip=self.allowed())
        seen.pop("book/source-anchors.lock", None)  # a build records new anchors there
        return seen


def hostile_git(sandbox: Sandbox, big_bytes: int) -> tuple[Upstream, str]:
    up = Upstream(sandbox.root / "upstream")
    mark = sandbox.markers
    up.write(
        "pkg/__init__.py",
        '"""Hostile package."""\n' + _marker_code(mark, "pkg-init") + "VALUE = 1\n",
    )
    up.write("pkg/good.py", "def func(value):\n    return value * 2\n")
    up.write(
        "pkg/sidefx.py", _marker_code(mark, "sidefx") + "\n\ndef run():\n    return 'static'\n"
    )
    up.write("pkg/conftest.py", _marker_code(mark, "conftest"))
    up.write("setup.py", _marker_code(mark, "setup"))
    up.write("pkg/deepif.py", _nested_ifs(200))
    up.write("pkg/deep90.py", _nested_ifs(90))
    (up.path / "pkg" / "chain.py").write_text(
        "X = " + " + ".join(["1"] * 100_000) + "\n\n\ndef g():\n    return 2\n"
    )
    (up.path / "pkg" / "biglist.py").write_text("X = [" + ", ".join(["1"] * 100_000) + "]\n")
    (up.path / "pkg" / "latin.py").write_bytes(b"def f():\n    return '\xff\xfe caf\xe9'\n")
    up.write("pkg/broken.py", "def f(:\n    return 1\n")
    (up.path / "pkg" / "nul.py").write_bytes(b"def f():\n    return '\x00'\n")
    (up.path / "pkg" / os.fsdecode(b"bad\xffname.py")).write_text("X = 1\n")
    (up.path / "pkg" / "new\nline.py").write_text("X = 1\n")
    with open(up.path / "pkg" / "big.py", "w", encoding="ascii") as handle:
        written, index = 0, 0
        while written < big_bytes:
            line = f"X{index} = {os.urandom(48).hex()!r}\n"
            handle.write(line)
            written += len(line)
            index += 1
    os.symlink("/etc/passwd", up.path / "pkg" / "evil.py")
    os.symlink("/etc", up.path / "pkg" / "outdir")
    os.symlink("../../../../", up.path / "pkg" / "escape")
    os.symlink("good.py", up.path / "pkg" / "linked.py")
    git("add", "-A", cwd=up.path)
    git("update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},pkg/vendored", cwd=up.path)
    git("commit", "-q", "-m", "hostile", cwd=up.path)
    return up, git("rev-parse", "HEAD", cwd=up.path).strip()


#: (target, expected): 'ok' = no warning; a tuple = one warning of one of these subtypes;
#: 'either' = ok or one 'upstream' warning (the file is legal but may be beyond a static parse).
GIT_ANCHORS: list[tuple[str, Any]] = [
    ("pkg.good.func", "ok"),
    ("pkg.good.func::return value", "ok"),
    ("pkg", "ok"),
    ("pkg.VALUE", "ok"),
    ("pkg.sidefx.run", "ok"),
    ("pkg.conftest", "ok"),
    ("pkg.evil", WARN),
    ("pkg.evil.root", WARN),
    ("pkg.outdir.passwd", WARN),
    ("pkg.escape.etc", WARN),
    ("pkg.linked.func", WARN),
    ("pkg.vendored", WARN),
    ("pkg.big", WARN),
    ("pkg.big.X0", WARN),
    ("pkg.deepif.f", WARN),
    ("pkg.deepif.g", WARN),
    ("pkg.deep90.f", "either"),
    ("pkg.deep90.f::return 90", "either"),
    ("pkg.chain.X", "either"),
    ("pkg.chain.g", "either"),
    ("pkg.biglist.X", "either"),
    ("pkg.latin.f", WARN),
    ("pkg.broken.f", WARN),
    ("pkg.nul.f", WARN),
]


def write_book(
    sandbox: Sandbox, repos: dict[str, Any], anchors: list[tuple[str, Any]]
) -> dict[str, int]:
    """conf.py and two pages: ``index`` with one anchor per paragraph, ``other`` with a healthy one."""
    root = sandbox.book
    root.mkdir(parents=True, exist_ok=True)
    write_conf(root, repos, sandbox.cache)
    lines = ["# Hostile", ""]
    where: dict[str, int] = {}
    for target, _ in anchors:
        where[target] = len(lines) + 1
        lines += [f"{{src}}`{target}`", ""]
    lines += ["```{toctree}", "other", "```", ""]
    (root / "index.md").write_text("\n".join(lines), "utf-8")
    first = anchors[0][0]
    (root / "other.md").write_text(f"# Other\n\nA healthy anchor: {{src}}`{first}`.\n", "utf-8")
    return where


def check_anchors(
    tally: Tally, label: str, result: Run, where: dict[str, int], anchors: list[tuple[str, Any]]
) -> None:
    """One case per anchor: exactly the warning it deserves, at its line."""
    located, _ = warnings_of(result.stderr)
    by_line: dict[int, list[Any]] = {}
    for warning in located:
        if warning.doc == "index" and warning.line is not None:
            by_line.setdefault(warning.line, []).append(warning)
    for target, expected in anchors:
        got = by_line.get(where[target], [])
        subtypes = [(w.type or "").removeprefix("source-anchors.") for w in got]
        problems = []
        if expected == "ok" and got:
            problems.append(f"warned: {got[0].message[:300]} [{got[0].type}]")
        elif expected == "either" and (len(got) > 1 or (got and subtypes[0] != "upstream")):
            problems.append(
                f"expected no warning or one [upstream], got {subtypes}: "
                + "; ".join(w.message[:200] for w in got)
            )
        elif expected == "ok-or-source" and (len(got) > 1 or (got and subtypes[0] != "source")):
            problems.append(
                f"expected no warning or one [source], got {subtypes}: "
                + "; ".join(w.message[:200] for w in got)
            )
        elif isinstance(expected, tuple) and (len(got) != 1 or subtypes[0] not in expected):
            problems.append(
                f"expected one warning of {list(expected)} at index.md:{where[target]}, got {subtypes}"
                + (f": {got[0].message[:200]}" if got else "")
            )
        tally.case(f"{label}: anchor {target}", problems)


def check_build(
    result: Run, sandbox: Sandbox, before: dict[str, Any], *, pages: tuple[str, ...]
) -> list[str]:
    """The build-wide properties: completed, no traceback, nothing ran, nothing written outside, RSS."""
    problems = []
    if result.timed_out:
        problems.append(f"the build did not finish within {result.seconds:.0f} s")
    if result.returncode != 0:
        problems.append(
            f"the build failed (exit {result.returncode}): "
            + " | ".join(result.stderr.strip().splitlines()[-4:])[:600]
        )
    if result.crashed():
        problems.append(
            "a traceback was printed: " + " | ".join(result.output.strip().splitlines()[-4:])[:600]
        )
    for page in pages:
        if not (sandbox.book / "_build" / "html" / f"{page}.html").is_file():
            problems.append(f"{page}.html was not written")
    ran = sorted(p.name for p in sandbox.markers.iterdir())
    if ran:
        problems.append(f"upstream code ran: marker files {ran}")
    outside = [
        d for d in snapshot_diff(before, sandbox.snap()) if " markers/" not in d
    ]  # reported above
    if outside:
        problems.append(f"written outside the cache and build output: {outside[:10]}")
    if result.peak_rss_mb > MAX_RSS_MB:
        problems.append(f"peak RSS {result.peak_rss_mb:.0f} MB is above {MAX_RSS_MB} MB")
    return problems


def check_cache(sandbox: Sandbox) -> list[str]:
    """The exported trees hold only regular files, none of them /etc/passwd's bytes."""
    problems = cache_problems(sandbox.cache)
    passwd = Path("/etc/passwd").read_bytes() if Path("/etc/passwd").is_file() else b"\0never"
    for rel, path in walk_files(sandbox.cache / "trees").items():
        mode = path.lstat().st_mode
        if path.is_symlink() or mode & 0o170000 != 0o100000:
            problems.append(f"cache holds a non-regular entry {rel}")
        elif path.stat().st_size == len(passwd) and path.read_bytes() == passwd:
            problems.append(f"cache holds a copy of /etc/passwd at {rel}")
    return problems


def test_hostile_git_upstream(tmp_path: Path, results: Results, scale: Scale) -> None:
    tally = results.tally(CATEGORY)
    sandbox = Sandbox(tmp_path / "sandbox")
    upstream, commit = hostile_git(sandbox, scale.big_module_mib * 1024 * 1024)
    repos = {"up": {"url": upstream.url, "commit": commit, "packages": ["pkg"]}}
    where = write_book(sandbox, {"up": {**repos["up"]}}, GIT_ANCHORS)
    conf = sandbox.book / "conf.py"
    conf.write_text(conf.read_text("utf-8") + "source_anchors_default_repo = 'up'\n", "utf-8")
    before = sandbox.snap()
    env = build_env({"TMPDIR": str(sandbox.root / "tmp")})
    result = run(
        sphinx_argv(sandbox.book, "--keep-going"),
        cwd=sandbox.book,
        env=env,
        timeout=600,
        stats_dir=tmp_path,
    )
    tally.case(
        f"git export of a hostile tree (peak RSS {result.peak_rss_mb:.0f} MB, {result.seconds:.1f} s)",
        check_build(result, sandbox, before, pages=("index", "other")),
    )
    tally.case(
        "git export: cached tree holds only regular files of the packages", check_cache(sandbox)
    )
    check_anchors(tally, "git", result, where, GIT_ANCHORS)
    tally.note(
        f"hostile git build with a {scale.big_module_mib} MiB module: peak RSS {result.peak_rss_mb:.0f} MB "
        f"(git included), {result.seconds:.1f} s"
    )
    tally.check()


# -- distributions
# -------------------------------------------------------------------------------------

GOOD = b"def func(value):\n    return value * 2\n"


def _zip_link(name: str, target: str) -> tuple[zipfile.ZipInfo, bytes]:
    info = zipfile.ZipInfo(name)
    info.external_attr = 0o120777 << 16
    return info, target.encode()


def dist_upstream(sandbox: Sandbox, name: str, package: str) -> tuple[Upstream, str, str]:
    """A git repository whose commit the distribution claims to be; returns it, the commit and its listing."""
    up = Upstream(sandbox.root / f"{name}-upstream")
    (up.path / package).mkdir(parents=True)
    (up.path / package / "__init__.py").write_bytes(b"")
    (up.path / package / "good.py").write_bytes(GOOD)
    (up.path / package / "big.py").write_bytes(b"X = 1\n" + b"#" * (3 * 1024 * 1024) + b"\n")
    commit = up.commit(name)
    return up, commit, git("ls-tree", "-r", commit, cwd=up.path)


def hostile_wheel(sandbox: Sandbox) -> bytes:
    escape = "../../../../ESCAPED-dotdot.py"
    extra: list[tuple[zipfile.ZipInfo | str, bytes]] = [
        (escape, b"X = 1\n"),
        ("../ESCAPED-up.py", b"X = 1\n"),
        (str(sandbox.root / "ESCAPED-abs.py"), b"X = 1\n"),
        ("C:/ESCAPED-drive.py", b"X = 1\n"),
        ("pkg2\\..\\..\\..\\..\\ESCAPED-backslash.py", b"X = 1\n"),
        _zip_link("pkg2/link.py", "/etc/passwd"),
        _zip_link("pkg2/linkdir", "../../../../"),
        ("pkg2/linkdir/ESCAPED-vialink.py", b"X = 1\n"),
        ("pkg2/./dot.py", b"X = 1\n"),
        ("pkg2//double.py", b"X = 1\n"),
    ]
    files = {
        "pkg2/__init__.py": b"",
        "pkg2/good.py": GOOD,
        "pkg2/big.py": b"X = 1\n" + b"#" * (3 * 1024 * 1024) + b"\n",
    }
    return wheel_bytes("hostilewheel", "1.0", files, extra=extra)


BACKEND = '''\
"""An in-tree build backend that leaves a mark when it is imported: pip must never run it."""
{marker}
import pathlib


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = pathlib.Path(metadata_directory) / "sidefx-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\\nName: sidefx\\nVersion: 1.0\\n")
    return info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    raise SystemExit("no wheel is built here")
'''


def side_effect_sdist(sandbox: Sandbox, dest: Path) -> None:
    """``sidefx-1.0.tar.gz``: a clean tree whose PEP 517 backend writes a marker at import."""
    with tarfile.open(dest / "sidefx-1.0.tar.gz", "w:gz", format=tarfile.PAX_FORMAT) as tar:
        tar_add(tar, "sidefx-1.0/PKG-INFO", b"Metadata-Version: 2.1\nName: sidefx\nVersion: 1.0\n")
        tar_add(
            tar,
            "sidefx-1.0/pyproject.toml",
            b'[build-system]\nrequires = []\nbuild-backend = "sidefx_backend"\n'
            b'backend-path = ["."]\n\n[project]\nname = "sidefx"\nversion = "1.0"\n',
        )
        tar_add(
            tar,
            "sidefx-1.0/sidefx_backend.py",
            BACKEND.format(marker=_marker_code(sandbox.markers, "sdist-backend")).encode(),
        )
        tar_add(
            tar, "sidefx-1.0/setup.py", _marker_code(sandbox.markers, "sdist-setup-py").encode()
        )
        tar_add(tar, "sidefx-1.0/pkg3/__init__.py", b"")
        tar_add(tar, "sidefx-1.0/pkg3/good.py", GOOD)
        tar_add(tar, "sidefx-1.0/pkg3/big.py", b"X = 1\n" + b"#" * (3 * 1024 * 1024) + b"\n")


DIST_ANCHORS: list[tuple[str, Any]] = [
    ("whl:pkg2.good.func", "ok"),
    ("whl:pkg2", "ok"),
    ("whl:pkg2.link", WARN),
    ("whl:pkg2.linkdir.x", WARN),
    ("whl:pkg2.big.X", WARN),
    # Resolved without running anything, or refused with a located [source] warning: either keeps
    # code from running.
    ("sdist:pkg3.good.func", "ok-or-source"),
]


def test_hostile_distributions(tmp_path: Path, results: Results) -> None:
    tally = results.tally(CATEGORY)
    sandbox = Sandbox(tmp_path / "sandbox")
    links = sandbox.root / "links"
    (links / "hostilewheel-1.0-py3-none-any.whl").write_bytes(hostile_wheel(sandbox))
    side_effect_sdist(sandbox, links)
    repos: dict[str, Any] = {}
    listings: dict[str, str] = {}
    for name, package, dist in (
        ("whl", "pkg2", "hostilewheel==1.0"),
        ("sdist", "pkg3", "sidefx==1.0"),
    ):
        _, commit, listing = dist_upstream(sandbox, name, package)
        listings[f"{name}.listing"] = listing
        # The URL is never contacted: the pin's only source is the distribution.
        repos[name] = {
            "url": f"{DEAD}/{name}.git",
            "host": "github",
            "commit": commit,
            "packages": [package],
            "dist": dist,
            "sources": ["dist"],
            "listing": f"{name}.listing",
        }
    where = write_book(sandbox, repos, DIST_ANCHORS)
    for file, text in listings.items():
        (sandbox.book / file).write_text(text, "utf-8")
    before = sandbox.snap()
    env = build_env(
        {**pip_env(links, sandbox.root / "pip-cache"), "TMPDIR": str(sandbox.root / "tmp")}
    )
    result = run(
        sphinx_argv(sandbox.book, "--keep-going"),
        cwd=sandbox.book,
        env=env,
        timeout=600,
        stats_dir=tmp_path,
    )
    problems = check_build(result, sandbox, before, pages=("index", "other"))
    ran = [p for p in problems if p.startswith("upstream code ran")]
    tally.case(
        "sdist pin: the distribution's build backend never runs (pip download of an sdist)",
        [*ran, *([] if (links / "sidefx-1.0.tar.gz").is_file() else ["the sdist is gone"])],
    )
    tally.case(
        f"wheel and sdist pins: build (peak RSS {result.peak_rss_mb:.0f} MB)",
        [p for p in problems if p not in ran],
    )
    tally.case("wheel pin: cached tree holds only regular files", check_cache(sandbox))
    escaped = sorted(
        str(p)
        for p in sandbox.root.rglob("ESCAPED-*")
        if not p.is_relative_to(sandbox.cache / "trees")
    )
    tally.case(
        "wheel pin: no entry written outside the export", [f"written: {escaped}"] if escaped else []
    )
    check_anchors(tally, "dist", result, where, DIST_ANCHORS)
    tally.check()


# -- archive.unpack on its own
# ------------------------------------------------------------------------


def hostile_tar(path: Path, outside: Path) -> list[str]:
    """A tar.gz with every refused kind of entry; returns the names that must be refused."""
    refused = [
        "sademo-1.0/../../ESCAPED-1.py",
        "../ESCAPED-2.py",
        str(outside / "ESCAPED-3.py"),
        "sademo-1.0\\..\\..\\ESCAPED-4.py",
        "sademo-1.0/pkg/chr",
        "sademo-1.0/pkg/blk",
        "sademo-1.0/pkg/fifo",
        "sademo-1.0/pkg/sym.py",
        "sademo-1.0/pkg/hard.py",
        "sademo-1.0/pkg/symdir",
    ]
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as tar:
        tar_add(tar, "sademo-1.0/PKG-INFO", b"Name: sademo\n")
        tar_add(tar, "sademo-1.0/pkg/__init__.py", b"")
        tar_add(tar, "sademo-1.0/pkg/good.py", GOOD)
        for name in refused[:4]:
            tar_add(tar, name, b"X = 1\n")
        tar_add(tar, "sademo-1.0/pkg/chr", type=tarfile.CHRTYPE, devmajor=1, devminor=3)
        tar_add(tar, "sademo-1.0/pkg/blk", type=tarfile.BLKTYPE, devmajor=7, devminor=0)
        tar_add(tar, "sademo-1.0/pkg/fifo", type=tarfile.FIFOTYPE)
        tar_add(tar, "sademo-1.0/pkg/sym.py", type=tarfile.SYMTYPE, linkname="/etc/passwd")
        tar_add(tar, "sademo-1.0/pkg/hard.py", type=tarfile.LNKTYPE, linkname="/etc/passwd")
        tar_add(tar, "sademo-1.0/pkg/symdir", type=tarfile.SYMTYPE, linkname=str(outside))
        tar_add(tar, "sademo-1.0/pkg/symdir/ESCAPED-5.py", b"X = 1\n")
        tar_add(tar, "sademo-1.0//ESCAPED-6.py", b"X = 1\n")
    return refused


def test_unpack_refuses_hostile_entries(tmp_path: Path, results: Results) -> None:
    from source_anchors.model.errors import ArchiveError
    from source_anchors.sources.archive import unpack

    tally = results.tally(CATEGORY)
    sandbox = tmp_path / "sandbox"
    dest = sandbox / "export" / "files"
    dest.mkdir(parents=True)
    archive = sandbox / "sademo-1.0.tar.gz"
    refused = hostile_tar(archive, sandbox)
    duplicate = sandbox / "dup-1.0.tar.gz"
    with tarfile.open(duplicate, "w:gz") as tar:
        tar_add(tar, "dup-1.0/pkg/a.py", b"A = 1\n")
        tar_add(tar, "dup-1.0/pkg/a.py", b"A = 2\n")
    zipped = sandbox / "hz-1.0-py3-none-any.whl"
    zipped.write_bytes(
        wheel_bytes(
            "hz",
            "1.0",
            {"pkg/good.py": GOOD},
            extra=[
                ("../ESCAPED-z1.py", b"X = 1\n"),
                (str(sandbox / "ESCAPED-z2.py"), b"X = 1\n"),
                _zip_link("pkg/zlink.py", "/etc/passwd"),
                ("pkg\\..\\..\\ESCAPED-z3.py", b"X = 1\n"),
            ],
        )
    )
    before = snapshot(sandbox, skip=[sandbox / "export"])
    problems: list[str] = []
    try:
        got = unpack(archive, dest)
    except ArchiveError as error:
        problems.append(f"the whole tar was refused: {error}")
    else:
        missing = [name for name in refused if name not in got.refused]
        if missing:
            problems.append(f"not recorded as refused: {missing}")
        if not {"pkg/__init__.py", "pkg/good.py"} <= set(got.blobs):
            problems.append(f"the regular files were not all unpacked: {sorted(got.blobs)}")
    for rel, path in walk_files(dest).items():
        if path.is_symlink() or not path.is_file():
            problems.append(f"non-regular entry written: {rel}")
    tally.case(
        "archive.unpack(): tar with '..', absolute, device, FIFO, link and hard-link entries",
        problems,
    )
    problems = []
    dest_zip = sandbox / "export-zip" / "files"
    dest_zip.mkdir(parents=True)
    got_zip = unpack(zipped, dest_zip)
    if sorted(got_zip.blobs) != ["pkg/good.py"]:
        problems.append(f"unpacked {sorted(got_zip.blobs)}")
    for rel, path in walk_files(dest_zip).items():
        if path.is_symlink() or not path.is_file():
            problems.append(f"non-regular entry written: {rel}")
    tally.case("archive.unpack(): wheel with '..', absolute, backslash and link entries", problems)
    problems = []
    dest_dup = sandbox / "export-dup" / "files"
    dest_dup.mkdir(parents=True)
    try:
        unpack(duplicate, dest_dup)
    except ArchiveError:
        pass  # refusing the archive is a clear answer
    except Exception as error:
        problems.append(f"raised {type(error).__name__}: {error}")
    tally.case("archive.unpack(): a tar naming one file twice", problems)
    after = snapshot(
        sandbox, skip=[sandbox / "export", sandbox / "export-zip", sandbox / "export-dup"]
    )
    outside = [
        d
        for d in snapshot_diff(before, after)
        if not d.startswith(("added export-zip", "added export-dup"))
    ]
    escaped = sorted(
        str(p)
        for p in sandbox.rglob("ESCAPED-*")
        if not any(p.resolve().is_relative_to(d.resolve()) for d in (dest, dest_zip, dest_dup))
    )
    tally.case("archive.unpack(): nothing written outside the destination", outside + escaped)
    tally.check()


# -- cycles
# ---------------------------------------------------------------------------------------------


CYCLES = {
    "star imports that import each other": (
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from .b import *\nfrom .c import *\n",
            "pkg/b.py": "from .a import *\nfrom .c import *\n",
            "pkg/c.py": "from .a import *\nfrom .b import *\n",
        },
        "pkg.a.nothing",
    ),
    "base classes that name each other": (
        {
            "pkg/__init__.py": "",
            "pkg/k.py": "class A(B, C):\n    pass\n\n\nclass B(A, C):\n    pass\n\n\n"
            "class C(A, B):\n    pass\n",
        },
        "pkg.k.A.nothing",
    ),
}


def test_cyclic_module_graph_resolves_in_bounded_time(
    tmp_path: Path, results: Results, scale: Scale
) -> None:
    tally = results.tally(CATEGORY)

    def one(shape: str) -> tuple[str, Run, list[str], dict[str, int]]:
        files, target = CYCLES[shape]
        sandbox = Sandbox(tmp_path / shape.replace(" ", "-"))
        up = Upstream(sandbox.root / "upstream")
        for rel, text in files.items():
            up.write(rel, text)
        commit = up.commit("cycle")
        where = write_book(
            sandbox,
            {"up": {"url": up.url, "commit": commit, "packages": ["pkg"]}},
            [(f"up:{target}", WARN)],
        )
        before = sandbox.snap()
        result = run(
            sphinx_argv(sandbox.book, "--keep-going"),
            cwd=sandbox.book,
            env=build_env(),
            timeout=scale.cycle_timeout,
            stats_dir=sandbox.root,
        )
        problems = check_build(result, sandbox, before, pages=("index",))
        if result.timed_out:
            problems = [
                f"{target} did not resolve within {scale.cycle_timeout:.0f} s (the build was killed); "
                "resolve.py's fallbacks revisit the same modules on every path"
            ]
        return target, result, problems, where

    with ThreadPoolExecutor(max_workers=2) as pool:  # both wait out the same deadline
        done = {shape: pool.submit(one, shape) for shape in sorted(CYCLES)}
    for shape, future in done.items():
        target, result, problems, where = future.result()
        tally.case(f"{shape}: a missing name ({target}) is reported in bounded time", problems)
        if not result.timed_out:
            check_anchors(tally, shape, result, where, [(f"up:{target}", WARN)])
    tally.check()
