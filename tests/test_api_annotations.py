"""API links of a pinned repository in CI annotations: each sits on the line of its object's directive.

Autodoc parses what it generates with the docstring as the source, so its signatures carry no line
of the page; the annotations of ``check --format``, its text listing and the bump bot's pull-request
body must still name the page line of the ``.. autofunction::`` (of the ``.. autoclass::`` or ``..
automodule::`` for the members they list; a hand-written ``py:`` directive's own line). The upstream
is a git repository made here, tagged v1.0.0 (locked) and v2.0.0, which moves every definition down
a line; autodoc imports the package from its work tree, as autodoc does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from helpers import Book, Upstream, git, run_cli, write_conf

MOD = '''\
"""Module mod."""


def alpha(x):
    """Alpha."""
    return x


def beta(x):
    return x


def gamma(x):
    """Gamma."""
    return x


class Thing:
    """A thing."""

    def act(self):
        """Act."""
        return 1

    def rest(self):
        """Rest."""
        return 2
'''
EXTRA = '''\
"""Extra module."""


def delta():
    """Delta."""
    return 4
'''
INDEX = """\
API
===

.. toctree::

   more

Some prose first.

.. autofunction:: linespkg.mod.alpha

.. autoclass:: linespkg.mod.Thing
   :members:

.. automodule:: linespkg.extra
   :members:

.. py:currentmodule:: linespkg.mod

.. py:function:: beta(x)

   Written by hand.
"""
MORE = """\
# More

Prose.

```{eval-rst}
.. autofunction:: linespkg.mod.gamma
```
"""
SARIF_SCHEMA = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"


def _line(page: str, text: str) -> int:
    return page.splitlines().index(text) + 1


#: Each object's page and the line of the directive that describes it.
WHERE = {
    "linespkg.mod.alpha": ("index.rst", _line(INDEX, ".. autofunction:: linespkg.mod.alpha")),
    "linespkg.mod.Thing": ("index.rst", _line(INDEX, ".. autoclass:: linespkg.mod.Thing")),
    "linespkg.mod.Thing.act": ("index.rst", _line(INDEX, ".. autoclass:: linespkg.mod.Thing")),
    "linespkg.mod.Thing.rest": ("index.rst", _line(INDEX, ".. autoclass:: linespkg.mod.Thing")),
    "linespkg.extra": ("index.rst", _line(INDEX, ".. automodule:: linespkg.extra")),
    "linespkg.extra.delta": ("index.rst", _line(INDEX, ".. automodule:: linespkg.extra")),
    "linespkg.mod.beta": ("index.rst", _line(INDEX, ".. py:function:: beta(x)")),
    "linespkg.mod.gamma": ("more.md", _line(MORE, ".. autofunction:: linespkg.mod.gamma")),
}


@pytest.fixture
def pinned(upstream: Upstream, book: Book, monkeypatch: pytest.MonkeyPatch) -> Book:
    """A book documenting the upstream's package with autodoc, its API links locked at v1.0.0."""
    upstream.write_files(
        {"linespkg/__init__.py": '"""Pkg."""\n', "linespkg/mod.py": MOD, "linespkg/extra.py": EXTRA}
    )
    v1 = upstream.commit("v1", tag="v1.0.0")
    upstream.write_files(
        {"linespkg/mod.py": "# release 2\n" + MOD, "linespkg/extra.py": "# release 2\n" + EXTRA}
    )
    upstream.commit("v2", tag="v2.0.0")
    book.repos = {
        "up": {"url": upstream.url, "commit": v1, "ref": "v1.0.0", "packages": ["linespkg"]}
    }
    _conf(book, upstream)
    (book.root / "index.rst").write_text(INDEX, "utf-8")
    (book.root / "more.md").write_text(MORE, "utf-8")
    assert run_cli(book.cli("update")) == 0
    monkeypatch.chdir(book.root)
    return book


def _conf(book: Book, upstream: Upstream, **values: Any) -> None:
    """conf.py: autodoc (importing the package from the upstream's work tree), MyST, API links into ``up``."""
    conf = write_conf(
        book.root,
        book.repos,
        book.cache,
        extensions=("sphinx.ext.autodoc", "myst_parser", "source_anchors"),
        api_links="up",
        **values,
    )
    conf.write_text(
        f"import sys\nsys.path.insert(0, {str(upstream.path)!r})\n" + conf.read_text("utf-8"),
        "utf-8",
    )


def _check(book: Book, capsys: pytest.CaptureFixture[str], *fmt: str) -> str:
    capsys.readouterr()
    assert run_cli(book.cli("check", "--pin", "up=v2.0.0", *fmt)) == 1
    return capsys.readouterr().out


def _object(target: str) -> str:
    """``linespkg.mod.alpha`` of the record target ``up:linespkg.mod.alpha``."""
    return target.partition(":")[2]


def test_github_commands_name_each_directive_line(
    pinned: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _check(pinned, capsys, "--format", "github").splitlines()
    found = {}
    for command in out:
        match = re.match(
            r"::(?:warning|error) file=([^,]+),line=(\d+),title=source-anchors%3A \S+(?: \(\w+\))? "
            r"up%3A(\S+)::",
            command,
        )
        assert match, command
        found[match[3]] = (match[1], int(match[2]))
    assert found == WHERE


def test_gitlab_and_sarif_name_each_directive_line(
    pinned: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    issues = json.loads(_check(pinned, capsys, "--format", "gitlab"))
    labels = [_object(i["description"].rpartition("«")[2].removesuffix("»)")) for i in issues]
    assert {
        label: (i["location"]["path"], i["location"]["lines"]["begin"])
        for label, i in zip(labels, issues, strict=True)
    } == WHERE
    log = json.loads(_check(pinned, capsys, "--format", "sarif"))
    jsonschema.validate(
        log, json.loads(SARIF_SCHEMA.read_text("utf-8")), cls=jsonschema.Draft7Validator
    )
    results = log["runs"][0]["results"]
    assert {
        _object(r["properties"]["target"]): (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in results
    } == WHERE


def test_the_text_listing_and_the_pull_request_body_name_each_directive_line(
    pinned: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _check(pinned, capsys)
    places = dict(re.findall(r"^\w+\s+up:(\S+) .*\[([\w.]+:\d+)\]$", text, re.M))
    assert places == {
        name: f"{page.rpartition('.')[0]}:{line}" for name, (page, line) in WHERE.items()
    }
    assert ":0]" not in text
    capsys.readouterr()
    assert run_cli(pinned.cli("bump", "up", "--latest", "--body", "-")) == 1
    body = capsys.readouterr().out.split("## Bump `up` to v2.0.0", 1)[1]
    shown = dict(re.findall(r"^- \[[ x]\] `up:(\S+)` .*\(([\w.]+:\d+)\)$", body, re.M))
    assert shown == {
        name: f"{page.rpartition('.')[0]}:{line}" for name, (page, line) in WHERE.items()
    }


def test_the_build_warns_at_each_directive_line(pinned: Book, upstream: Upstream) -> None:
    v2 = git("rev-parse", "v2.0.0^{commit}", cwd=upstream.path).strip()
    _conf(pinned, upstream, pin_commits={"up": v2})
    result = pinned.build_subprocess("-q", out="pinned")
    warned = {}
    for line in result.stderr.splitlines():
        # A change's warning goes on with its diff, and its tag on a line of its own.
        match = re.match(
            r".*/(index\.rst|more\.md):(\d+): WARNING: (?:moved|changed \(\w+\)): up:(\S+) ", line
        )
        if match:
            warned[match[3]] = (match[1], int(match[2]))
    assert warned == WHERE, result.stderr
