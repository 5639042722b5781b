"""An sdist from the package index (``"dist_format": "sdist"``), found through the Simple API, never built.

The index is made here: a ``file://`` simple index with PEP 503 HTML or a PEP 691 JSON page,
or a loopback HTTP server answering PEP 691 JSON to the ``Accept`` header; the sdist is built with
``tarfile`` from a git repository made here, so no build backend exists to run. pip's own
configuration is replaced by ``PIP_*`` variables (``PIP_CONFIG_FILE`` is the null device).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers import Upstream, build_env, git
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.errors import ConfigError
from source_anchors.model.records import Outcome
from source_anchors.model.target import parse_target
from source_anchors.sources.simpleindex import Locations, pip_locations

PYPROJECT = '[project]\nname = "sa-demo"\nversion = "1.0"\nlicense = "MIT"\n'
LICENCE = "MIT License\n\nPermission is hereby granted, free of charge.\n"
ALPHA = '"""First module."""\n\n\ndef func(value):\n    """Double it."""\n    return value * 2\n'
#: PEP 625's filename for project 'Sa.Demo' 1.0; the pin writes the name another way.
SDIST = "sa_demo-1.0.tar.gz"
REQUIREMENT = "Sa.Demo==1.0"


@dataclass(frozen=True)
class Project:
    upstream: Upstream
    commit: str
    listing: str
    sdist: bytes


def _sdist(project: Path, top: str, *, change: bool = False) -> bytes:
    """A gzipped tar of the tracked files under *top*/ plus PKG-INFO (*change*: alpha.py changed, setup.cfg added)."""
    members = {"PKG-INFO": b"Metadata-Version: 2.4\nName: sa-demo\nVersion: 1.0\n"}
    members.update(
        {
            rel: (project / rel).read_bytes()
            for rel in git("ls-files", "-z", cwd=project).split("\0")
            if rel
        }
    )
    if change:  # as sdist tools do: one file changed, one generated
        members["pkg/alpha.py"] = members["pkg/alpha.py"].replace(b"* 2", b"* 3")
        members["setup.cfg"] = b"[egg_info]\ntag_build =\n"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
        for rel, data in members.items():
            info = tarfile.TarInfo(f"{top}/{rel}")
            info.size, info.mode, info.mtime = len(data), 0o644, 1_700_000_000
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Project:
    upstream = Upstream(tmp_path_factory.mktemp("sdist") / "upstream")
    upstream.write("pyproject.toml", PYPROJECT)
    upstream.write("LICENSE", LICENCE)
    upstream.write("README.md", "# sa-demo\n")
    upstream.write("pkg/__init__.py", '"""The package."""\n')
    upstream.write("pkg/alpha.py", ALPHA)
    commit = upstream.commit("sa-demo 1.0")
    return Project(
        upstream,
        commit,
        git("ls-tree", "-r", commit, cwd=upstream.path),
        _sdist(upstream.path, "sa_demo-1.0"),
    )


@pytest.fixture
def pip_env(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Replace pip's configuration: only the given index and find-links, nothing from pip's files."""

    def use(index: str = "", *, find_links: str = "", no_index: bool = False) -> None:
        monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
        monkeypatch.setenv("PIP_INDEX_URL", index)
        monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "")
        monkeypatch.setenv("PIP_FIND_LINKS", find_links)
        monkeypatch.setenv("PIP_NO_INDEX", "1" if no_index else "0")

    return use


def _html_index(
    root: Path, files: dict[str, bytes], *, sha256: dict[str, str] | None = None
) -> str:
    """A PEP 503 ``file://`` index: ``simple/sa-demo/index.html`` linking ``files/`` with sha256 fragments."""
    (root / "files").mkdir(parents=True)
    page = root / "simple" / "sa-demo"
    page.mkdir(parents=True)
    links = []
    for name, data in files.items():
        (root / "files" / name).write_bytes(data)
        digest = (sha256 or {}).get(name, hashlib.sha256(data).hexdigest())
        links.append(f'<a href="../../files/{name}#sha256={digest}">{name}</a><br/>')
    (page / "index.html").write_text(
        "<!DOCTYPE html><html><body>\n" + "\n".join(links) + "\n</body></html>\n"
    )
    return (root / "simple").as_uri()


def _json_page(files: dict[str, bytes], url: Callable[[str], str]) -> bytes:
    return json.dumps(
        {
            "meta": {"api-version": "1.1"},
            "name": "sa-demo",
            "files": [
                {
                    "filename": name,
                    "url": url(name),
                    "hashes": {"sha256": hashlib.sha256(data).hexdigest()},
                }
                for name, data in files.items()
            ],
        }
    ).encode()


def _json_index(root: Path, files: dict[str, bytes]) -> str:
    """A ``file://`` index whose project folder holds a PEP 691 page (``index.json``)."""
    page = root / "simple" / "sa-demo"
    page.mkdir(parents=True)
    for name, data in files.items():
        (page / name).write_bytes(data)
    (page / "index.json").write_bytes(_json_page(files, lambda name: name))
    return (root / "simple").as_uri()


@pytest.fixture
def http_index(project: Project) -> Iterator[tuple[str, list[str]]]:
    """A loopback index that answers PEP 691 JSON when asked for it; yields its URL and the Accept headers seen."""
    seen: list[str] = []
    files = {SDIST: project.sdist}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.headers.get("Accept", ""))
            if (
                self.path == "/simple/sa-demo/"
                and "application/vnd.pypi.simple.v1+json" in seen[-1]
            ):
                body, kind = (
                    _json_page(files, lambda name: f"/files/{name}"),
                    "application/vnd.pypi.simple.v1+json",
                )
            elif self.path == f"/files/{SDIST}":
                body, kind = project.sdist, "application/octet-stream"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/simple", seen
    finally:
        server.shutdown()
        server.server_close()


def _engine(tmp_path: Path, project: Project, *, dist_format: str | None = "sdist") -> Engine:
    """An engine whose pin ``up`` takes its tree from the distribution alone (no ``dist_format`` if None)."""
    confdir = tmp_path / "book"
    confdir.mkdir(parents=True, exist_ok=True)
    (confdir / "listing.txt").write_text(project.listing, "utf-8")
    pin = {
        "url": project.upstream.url,
        "commit": project.commit,
        "packages": ["pkg"],
        "dist": REQUIREMENT,
        "listing": "listing.txt",
        "sources": ["dist"],
    }
    if dist_format is not None:
        pin["dist_format"] = dist_format
    return Engine(
        settings_from(
            {"repos": {"up": pin}, "cache_dir": str(tmp_path / "cache")},
            confdir=confdir,
            environ={},
        )
    )


def _check(engine: Engine, text: str) -> Outcome:
    return engine.check(parse_target(text, default_repo=None))


TARGETS = ["up:/LICENSE", "up:/pyproject.toml::license =", "up:/README.md", "up:pkg.alpha.func"]


@pytest.mark.parametrize("page", ["html", "json", "http"])
def test_sdist_found_on_the_index_is_verified_and_serves_files_outside_the_packages(
    project: Project,
    pip_env: Callable[..., None],
    tmp_path: Path,
    page: str,
    request: pytest.FixtureRequest,
) -> None:
    if page == "http":
        index, seen = request.getfixturevalue("http_index")
    else:
        make = _html_index if page == "html" else _json_index
        index, seen = (
            make(tmp_path / "index", {SDIST: project.sdist, "sa_demo-0.9.tar.gz": b"old"}),
            [],
        )
    pip_env(index)
    engine = _engine(tmp_path, project)

    outcomes = [_check(engine, target) for target in TARGETS]

    assert [o.status for o in outcomes] == ["new"] * 4, [o.message for o in outcomes]
    tree = engine.tree("up")
    assert (tree.method, tree.dist) == ("dist", f"{REQUIREMENT} ({SDIST})")
    assert (
        "PKG-INFO" not in tree.blobs and "pkg/alpha.py" in tree.blobs
    )  # name-version/ is the root
    base = f"{project.upstream.url}/blob/{project.commit}"
    assert [o.permalink for o in outcomes] == [
        f"{base}/LICENSE",
        f"{base}/pyproject.toml#L4",
        f"{base}/README.md",
        f"{base}/pkg/alpha.py#L4-L6",
    ]
    if page == "http":
        assert seen and seen[0].startswith("application/vnd.pypi.simple.v1+json")


def test_sdist_whose_hash_is_not_the_index_s_is_refused(
    project: Project, pip_env: Callable[..., None], tmp_path: Path
) -> None:
    pip_env(_html_index(tmp_path / "index", {SDIST: project.sdist}, sha256={SDIST: "0" * 64}))

    outcome = _check(_engine(tmp_path, project), "up:/LICENSE")

    assert (outcome.status, outcome.subtype) == ("error", "source")
    assert (
        f"sha256 mismatch for {SDIST}" in outcome.message and "0000000000000000" in outcome.message
    )
    assert "\n" not in outcome.message


def test_sdist_with_a_changed_or_generated_file_is_unverified_file_by_file(
    project: Project, pip_env: Callable[..., None], tmp_path: Path
) -> None:
    changed = _sdist(project.upstream.path, "sa_demo-1.0", change=True)
    pip_env(_html_index(tmp_path / "index", {SDIST: changed}))
    engine = _engine(tmp_path, project)

    assert _check(engine, "up:/LICENSE").status == "new"
    outcome = _check(engine, "up:pkg.alpha.func")
    assert (outcome.status, outcome.subtype) == ("error", "unverified")
    assert "pkg/alpha.py" in outcome.message and "differs from up@" in outcome.message
    generated = _check(engine, "up:/setup.cfg")
    assert (generated.status, generated.subtype) == ("error", "unverified")
    assert (
        "setup.cfg from Sa.Demo==1.0 (sa_demo-1.0.tar.gz) is not a file of up@" in generated.message
    )


def test_no_sdist_for_the_version_lists_what_the_index_has(
    project: Project, pip_env: Callable[..., None], tmp_path: Path
) -> None:
    index = _html_index(
        tmp_path / "index", {"sa_demo-1.0-py3-none-any.whl": b"wheel", "sa_demo-0.9.tar.gz": b"old"}
    )
    pip_env(index)

    outcome = _check(_engine(tmp_path, project), "up:/LICENSE")

    assert (outcome.status, outcome.subtype) == ("error", "source")
    assert f"no sdist (.tar.gz or .zip) of {REQUIREMENT} on {index}/sa-demo/" in outcome.message
    assert "for 1.0 they list only sa_demo-1.0-py3-none-any.whl" in outcome.message


def test_unreachable_index_is_named(
    project: Project, pip_env: Callable[..., None], tmp_path: Path
) -> None:
    pip_env("http://127.0.0.1:9/simple")  # the discard port: connecting is refused at once

    outcome = _check(_engine(tmp_path, project), "up:/LICENSE")

    assert (outcome.status, outcome.subtype) == ("error", "source")
    assert (
        f"no package index could be reached for {REQUIREMENT}: tried http://127.0.0.1:9/simple/sa-demo/"
        in outcome.message
    )


def test_index_credentials_are_never_shown(
    project: Project, pip_env: Callable[..., None], tmp_path: Path
) -> None:
    pip_env("http://reader:s3cret@127.0.0.1:9/simple")

    outcome = _check(_engine(tmp_path, project), "up:/LICENSE")

    assert (outcome.status, outcome.subtype) == ("error", "source")
    assert "s3cret" not in outcome.message and "reader" not in outcome.message
    assert "http://****@127.0.0.1:9/simple/sa-demo/" in outcome.message


def test_find_links_directory_is_searched(
    project: Project, pip_env: Callable[..., None], tmp_path: Path
) -> None:
    links = tmp_path / "links"
    links.mkdir()
    (links / SDIST).write_bytes(project.sdist)
    pip_env(find_links=str(links), no_index=True)

    assert _check(_engine(tmp_path, project), "up:/pyproject.toml::license =").status == "new"


def test_wheel_format_still_downloads_with_pip(
    project: Project, pip_env: Callable[..., None], tmp_path: Path
) -> None:
    # The sdist is on the index, but the default format asks pip for a wheel, and pip never builds
    # one.
    links = tmp_path / "links"
    links.mkdir()
    (links / SDIST).write_bytes(project.sdist)
    pip_env(find_links=str(links), no_index=True)
    for dist_format in ("wheel", None):
        outcome = _check(
            _engine(tmp_path / str(dist_format), project, dist_format=dist_format), "up:/LICENSE"
        )

        assert (outcome.status, outcome.subtype) == ("error", "source")
        assert f"pip download {REQUIREMENT} (wheels only)" in outcome.message


def test_pip_locations_follow_pip_s_environment(pip_env: Callable[..., None]) -> None:
    pip_env("file:///a/simple", find_links="/x /y")
    os.environ["PIP_EXTRA_INDEX_URL"] = "file:///b/simple file:///c/simple"
    try:
        assert pip_locations(30).indexes == (
            "file:///a/simple",
            "file:///b/simple",
            "file:///c/simple",
        )
        assert pip_locations(30).find_links == ("/x", "/y")
        os.environ["PIP_NO_INDEX"] = "true"
        assert pip_locations(30).indexes == ()
        del os.environ["PIP_INDEX_URL"], os.environ["PIP_NO_INDEX"]
        assert pip_locations(30).indexes[0] == "https://pypi.org/simple"
    finally:
        os.environ.pop("PIP_EXTRA_INDEX_URL", None)


def test_pip_locations_read_pip_s_files_section_by_section(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pip reads its global file (this machine may have one) and then PIP_CONFIG_FILE, whose values
    # win; for `pip download` its [download] section wins over [global], and each PIP_* variable
    # over both.
    conf = tmp_path / "pip.conf"
    conf.write_text(
        "[global]\nindex-url = file:///g/simple\nextra-index-url = file:///e/simple\n"
        "find-links = /g-links\nno-index = false\n\n[download]\nindex-url = file:///d/simple\n"
        "\n[install]\nindex-url = file:///i/simple\n",
        "utf-8",
    )
    monkeypatch.setenv("PIP_CONFIG_FILE", str(conf))
    for option in ("INDEX_URL", "EXTRA_INDEX_URL", "FIND_LINKS", "NO_INDEX"):
        monkeypatch.delenv(f"PIP_{option}", raising=False)
    assert pip_locations(30) == Locations(("file:///d/simple", "file:///e/simple"), ("/g-links",))
    monkeypatch.setenv("PIP_FIND_LINKS", "/env-links")
    assert pip_locations(30) == Locations(("file:///d/simple", "file:///e/simple"), ("/env-links",))
    # With all four set in the environment, nothing in the files counts (pip is not asked).
    for option, value in (
        ("INDEX_URL", "file:///x/simple"),
        ("EXTRA_INDEX_URL", ""),
        ("NO_INDEX", "0"),
    ):
        monkeypatch.setenv(f"PIP_{option}", value)
    assert pip_locations(30) == Locations(("file:///x/simple",), ("/env-links",))
    monkeypatch.setenv("PIP_NO_INDEX", "yes")
    assert pip_locations(30) == Locations((), ("/env-links",))


# Run pip_locations in a fresh interpreter that records every subprocess it starts (an audit hook:
# Python's own event for each Popen), and print the answer and those commands as JSON.
_LOCATIONS_AND_SPAWNS = """
import json, sys
spawned = []
sys.addaudithook(lambda event, args: spawned.append(list(map(str, args[1]))) if event == "subprocess.Popen" else None)
from source_anchors.sources.simpleindex import pip_locations
where = pip_locations(30)
print(json.dumps({"indexes": where.indexes, "find_links": where.find_links, "spawned": spawned}))
"""


def test_pip_config_file_devnull_means_no_file_counts_and_pip_is_not_asked(tmp_path: Path) -> None:
    # pip's documented switch: with PIP_CONFIG_FILE set to os.devnull it loads no configuration file
    # (global, user or site). A user file that would otherwise win must then count for nothing.
    user_conf = tmp_path / "xdg" / "pip" / "pip.conf"
    user_conf.parent.mkdir(parents=True)
    user_conf.write_text(
        "[download]\nindex-url = file:///user/simple\nfind-links = /user-links\n", "utf-8"
    )
    env = build_env(
        {
            "PIP_INDEX_URL": None,
            "PIP_EXTRA_INDEX_URL": None,
            "PIP_FIND_LINKS": None,
            "PIP_NO_INDEX": None,
            "PIP_CONFIG_FILE": None,
            "HOME": str(tmp_path),
            "XDG_CONFIG_HOME": str(tmp_path / "xdg"),
        }
    )

    def locations(extra: dict[str, str]) -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-c", _LOCATIONS_AND_SPAWNS],
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        return dict(json.loads(done.stdout))

    def pip_lists(extra: dict[str, str]) -> list[str]:  # the oracle: what pip itself reads
        done = subprocess.run(
            [sys.executable, "-m", "pip", "config", "list"],
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        )
        return [line for line in done.stdout.splitlines() if not line.startswith(":env:")]

    # The user's file counts while PIP_CONFIG_FILE is unset (pip is asked, and says so) ...
    assert "download.index-url='file:///user/simple'" in pip_lists({})
    read = locations({})
    assert read["indexes"][0] == "file:///user/simple" and "/user-links" in read["find_links"], read
    assert any(command[1:4] == ["-m", "pip", "config"] for command in read["spawned"]), read[
        "spawned"
    ]
    # ... and with os.devnull pip reads no file: nor does pip_locations, without starting pip.
    assert pip_lists({"PIP_CONFIG_FILE": os.devnull}) == []
    devnull = locations({"PIP_CONFIG_FILE": os.devnull})
    assert (devnull["indexes"], devnull["find_links"]) == (["https://pypi.org/simple"], []), devnull
    assert devnull["spawned"] == [], devnull["spawned"]


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"dist_format": "egg", "dist": "sa-demo==1.0"}, "expected 'wheel' or 'sdist', got 'egg'"),
        ({"dist_format": "sdist"}, "'sdist' needs a 'dist' requirement"),
        (
            {"dist_format": "sdist", "dist": "sa-demo>=1.0"},
            "exact 'name==version' requirement, got 'sa-demo>=1.0'",
        ),
        (
            {"dist_format": "sdist", "dist": "local.tar.gz"},
            "the local archive 'local.tar.gz' is used as it is",
        ),
    ],
)
def test_dist_format_is_validated_with_a_located_error(
    tmp_path: Path, entry: dict[str, Any], expected: str
) -> None:
    (tmp_path / "local.tar.gz").write_bytes(b"")
    pin = {
        "url": "https://github.com/example/demo",
        "commit": "a" * 40,
        "packages": ["pkg"],
        **entry,
    }
    with pytest.raises(ConfigError) as caught:
        settings_from({"repos": {"up": pin}}, confdir=tmp_path, environ={})
    assert "source_anchors_repos['up']['dist_format']: " in str(caught.value)
    assert expected in str(caught.value)
