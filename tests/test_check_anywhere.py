"""``source-anchors check`` gives one answer whether or not the documented package imports (issue 40).

A book documents a package of a pinned repository with autodoc (``source_anchors_api_links``); the
lock is written where the package imports. ``check`` then runs in subprocesses with and without the
package on ``PYTHONPATH``, as CI (the package installed) and the pre-commit hook (a venv with only
this extension) run it.
"""

from __future__ import annotations

import re
import subprocess
import textwrap
from pathlib import Path

import pytest
from helpers import Upstream, build_env, cli_argv, run_cli, write_conf

CORE = '''\
"""Core of pkg."""


def alpha(x):
    """Alpha."""
    return x + 1


def beta(y):
    """Beta."""
    return y * 2


class Gamma:
    """Gamma."""

    def size(self):
        """Its size."""
        return 3
'''

PAGE = """\
API
===

The first function, :src:`up:pkg.core.alpha`.

.. automodule:: pkg.core
   :members:
"""


class Documented:
    """An upstream with ``pkg`` and a book that pins it, links its API into it and has locked it."""

    def __init__(self, tmp_path: Path) -> None:
        self.up = Upstream(tmp_path / "up")
        self.up.write_files({"pkg/__init__.py": '"""pkg."""\n', "pkg/core.py": CORE})
        self.book = tmp_path / "book"
        self.cache = tmp_path / "cache"
        self.pin(self.up.commit("one"))
        (self.book / "index.rst").write_text(PAGE, "utf-8")

    def pin(self, commit: str) -> None:
        """(Re)write conf.py with the pin at *commit*."""
        write_conf(
            self.book,
            {"up": {"url": self.up.url, "commit": commit, "packages": ["pkg"]}},
            self.cache,
            extensions=("sphinx.ext.autodoc", "source_anchors"),
            api_links="up",
        )

    def check(
        self, *args: str, importable: bool, ci: bool = False
    ) -> subprocess.CompletedProcess[str]:
        """``source-anchors check ARGS`` in a subprocess, with ``pkg`` importable or not."""
        env = build_env(
            {"PYTHONPATH": str(self.up.path) if importable else None, "CI": "true" if ci else None}
        )
        return subprocess.run(
            cli_argv(self.book, "check", *args),
            capture_output=True,
            text=True,
            env=env,
            cwd=self.book,
            timeout=300,
            check=False,
        )


@pytest.fixture
def documented(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Documented:
    made = Documented(tmp_path)
    monkeypatch.syspath_prepend(str(made.up.path))  # the in-process update imports pkg
    assert run_cli(["--confdir", str(made.book), "--srcdir", str(made.book), "update"]) == 0
    return made


def _summary(stdout: str) -> str:
    return next(line for line in stdout.splitlines() if re.match(r"\d+ anchors: ", line))


def _unimported(stderr: str) -> bool:
    """Whether *stderr* names the page, the object and autodoc's reason (Sphinx 8 adds the object's kind)."""
    return bool(
        re.search(
            r"autodoc could not import 1 object\(s\) \(index\.rst: (?:module )?'pkg\.core': .*"
            r"No module named 'pkg'\)",
            stderr,
        )
    )


def _targets(stdout: str) -> dict[str, str]:
    """{target: status} of check's lines."""
    return {match[2]: match[1] for match in re.finditer(r"^(\w+) +(up:\S+)", stdout, re.MULTILINE)}


def test_check_counts_the_same_anchors_with_and_without_the_package(documented: Documented) -> None:
    lock = (documented.book / "source-anchors.lock").read_text("utf-8")
    for name in (
        "pkg.core",
        "pkg.core.alpha",
        "pkg.core.beta",
        "pkg.core.Gamma",
        "pkg.core.Gamma.size",
    ):
        assert f'"{name}"' in lock, lock
    there = documented.check(importable=True)
    assert there.returncode == 0, there.stdout + there.stderr
    assert "autodoc" not in there.stderr
    # 1 prose anchor + the module, 3 definitions and a method (alpha cited twice): 5 targets.
    assert _summary(there.stdout) == "6 anchors: 6 ok (5 distinct targets)", there.stdout
    away = documented.check(importable=False)
    assert away.returncode == 0, away.stdout + away.stderr
    # The same targets, each checked; alpha's citation by autodoc is the one thing no lock records.
    assert _targets(away.stdout) == _targets(there.stdout), away.stdout + away.stderr
    assert _summary(away.stdout) == "5 anchors: 5 ok (5 distinct targets)", away.stdout
    # What the page's autodoc did not give is checked from the lock, at the lock's lines.
    assert re.search(r"ok +up:pkg\.core\.beta .*\[source-anchors\.lock:\d+\]", away.stdout), (
        away.stdout
    )
    assert _unimported(away.stderr), away.stderr
    # In CI the same read fails, with the reason and the fix.
    ci = documented.check(importable=False, ci=True)
    assert ci.returncode == 1, ci.stdout + ci.stderr
    assert "error: autodoc could not import 1 object(s)" in ci.stderr, ci.stderr
    assert "pip install" in ci.stderr
    assert documented.check(importable=True, ci=True).returncode == 0


def test_drift_of_an_api_link_is_found_without_the_package(documented: Documented) -> None:
    documented.up.write_files({"pkg/core.py": "# a comment first\n" + CORE})
    documented.pin(documented.up.commit("two"))
    there = documented.check(importable=True)
    away = documented.check(importable=False)
    assert there.returncode == away.returncode == 1, there.stdout + away.stdout
    # The module's link is its whole file, which gained a comment; the definitions moved down.
    assert (
        _targets(away.stdout)
        == _targets(there.stdout)
        == {
            "up:pkg.core": "changed",
            **{f"up:pkg.core.{name}": "moved" for name in ("alpha", "beta", "Gamma", "Gamma.size")},
        }
    ), away.stdout
    assert re.search(
        r"moved +up:pkg\.core\.Gamma\.size .*\[source-anchors\.lock:\d+\]", away.stdout
    ), away.stdout
    assert re.search(r"moved +up:pkg\.core\.Gamma\.size .*\[index:\d+\]", there.stdout), (
        there.stdout
    )


def test_the_hook_says_what_it_did_not_check(documented: Documented) -> None:
    there = documented.check("index.rst", importable=True, ci=True)
    assert there.returncode == 0, there.stdout + there.stderr
    assert _summary(there.stdout) == "6 anchors: 6 ok (5 distinct targets)", there.stdout
    away = documented.check("index.rst", importable=False)
    assert away.returncode == 0, away.stdout + away.stderr
    assert _summary(away.stdout) == "1 anchors: 1 ok (1 distinct target)", (
        away.stdout
    )  # the prose anchor
    assert _unimported(away.stderr), away.stderr
    assert "their API links are not checked on these pages" in away.stderr, away.stderr
    ci = documented.check("index.rst", importable=False, ci=True)
    assert ci.returncode == 1 and "error: autodoc could not import" in ci.stderr, (
        ci.stdout + ci.stderr
    )


def test_a_conf_without_autodoc_failures_prints_no_note(documented: Documented) -> None:
    (documented.book / "index.rst").write_text(
        textwrap.dedent("""\
        API
        ===

        .. py:function:: pkg.core.alpha(x)
        """),
        "utf-8",
    )
    done = documented.check(importable=False, ci=True)
    assert "autodoc" not in done.stderr, done.stderr
    # The lock records no page cites any more are checked from the lock, as anywhere.
    assert _targets(done.stdout) == {
        f"up:pkg.core{name}": "ok" for name in ("", ".alpha", ".beta", ".Gamma", ".Gamma.size")
    }, done.stdout
    assert done.returncode == 0, done.stdout + done.stderr


def test_update_without_the_package_keeps_the_api_links_it_could_not_read(
    documented: Documented,
) -> None:
    lock = documented.book / "source-anchors.lock"
    before = lock.read_text("utf-8")
    env = build_env({"PYTHONPATH": None})
    done = subprocess.run(
        cli_argv(documented.book, "update"),
        capture_output=True,
        text=True,
        env=env,
        cwd=documented.book,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pruned" not in done.stdout and "relocked by their keys, not pruned" in done.stderr, (
        done.stderr
    )
    assert lock.read_text("utf-8") == before
