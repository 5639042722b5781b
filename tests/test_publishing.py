"""Read the Docs configurations (issue 31): valid against Read the Docs' schema, and their commands build.

Read the Docs itself cannot run here; what can be checked offline is: each file passes the schema
that ``check-jsonschema`` ships for Read the Docs, the book's command is the one ``make
book-strict`` runs, and the manual's commands build the manual from a shallow clone of this
repository (as Read the Docs clones it), strictly.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, build_env, git

BIN = Path(sys.executable).parent
CONFIGS = (ROOT / ".readthedocs.yaml", ROOT / "docs" / ".readthedocs.yaml")


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_config_passes_the_read_the_docs_schema(path: Path) -> None:
    done = subprocess.run(
        [str(BIN / "check-jsonschema"), "--builtin-schema", "vendor.readthedocs", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    config = yaml.safe_load(path.read_text("utf-8"))
    assert config["version"] == 2
    install, build = config["build"]["commands"]
    assert (
        install == "python -m pip install --quiet -r requirements.txt"
        and (ROOT / "requirements.txt").is_file()
    )
    assert "-nW --keep-going" in build and '"$READTHEDOCS_OUTPUT/html"' in build


def test_the_book_is_built_as_make_book_strict_builds_it() -> None:
    build = yaml.safe_load(CONFIGS[0].read_text("utf-8"))["build"]["commands"][1]
    words = shlex.split(build)
    assert words[:2] == ["CI=true", "SOURCE_ANCHORS_CACHE=_build/source-anchors-cache"]
    assert words[2:] == [
        "python",
        "-m",
        "sphinx",
        "-nW",
        "--keep-going",
        "-c",
        ".",
        "source",
        "$READTHEDOCS_OUTPUT/html",
    ]
    make = (ROOT / "Makefile").read_text("utf-8")
    assert "SPHINX := $(BIN)/sphinx-build -c . source" in make
    assert (
        "CI=true SOURCE_ANCHORS_CACHE=$(BUILD)/strict-cache $(SPHINX) -nW --keep-going -E" in make
    )


def test_the_manual_builds_from_a_shallow_clone(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    git("clone", "-q", "--depth", "1", ROOT.as_uri(), str(clone), cwd=tmp_path)
    assert git("rev-parse", "--is-shallow-repository", cwd=clone).strip() == "true"
    commands = yaml.safe_load((clone / "docs" / ".readthedocs.yaml").read_text("utf-8"))["build"][
        "commands"
    ]
    out = tmp_path / "rtd-output"
    env = build_env(
        {"READTHEDOCS_OUTPUT": str(out), "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    )
    # The install line is what the venv was made from (requirements.txt); the build line runs as
    # written.
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", commands[1]],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (out / "html" / "publishing.html").is_file()
    assert "Read the Docs" in (out / "html" / "publishing.html").read_text("utf-8")
