"""Permalinks per host, and the upstream-file limits that turn into warnings."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.errors import ConfigError
from source_anchors.model.hosts import template_for
from source_anchors.model.target import parse_target

SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(
    ("url", "host", "permalink", "lines", "one", "whole"),
    [
        (
            "https://github.com/o/r",
            None,
            None,
            "https://github.com/o/r/blob/{sha}/p/m.py#L10-L20",
            "https://github.com/o/r/blob/{sha}/p/m.py#L10",
            "https://github.com/o/r/blob/{sha}/p/m.py",
        ),
        (
            "https://gitlab.com/g/sub/r.git",
            None,
            None,
            "https://gitlab.com/g/sub/r/-/blob/{sha}/p/m.py#L10-20",
            "https://gitlab.com/g/sub/r/-/blob/{sha}/p/m.py#L10",
            "https://gitlab.com/g/sub/r/-/blob/{sha}/p/m.py",
        ),
        (
            "https://git.example.org/o/r",
            "gitlab",
            None,
            "https://git.example.org/o/r/-/blob/{sha}/p/m.py#L10-20",
            "https://git.example.org/o/r/-/blob/{sha}/p/m.py#L10",
            "https://git.example.org/o/r/-/blob/{sha}/p/m.py",
        ),
        (
            "https://codeberg.org/o/r",
            None,
            "{url}/src/commit/{commit}/{path}#L{start}-L{end}",
            "https://codeberg.org/o/r/src/commit/{sha}/p/m.py#L10-L20",
            "https://codeberg.org/o/r/src/commit/{sha}/p/m.py#L10-L10",
            "https://codeberg.org/o/r/src/commit/{sha}/p/m.py",
        ),
    ],
)
def test_permalinks(
    url: str, host: str | None, permalink: str | None, lines: str, one: str, whole: str
) -> None:
    template = template_for(url=url, host=host, permalink=permalink, where="t")

    def render(start: int | None, end: int | None) -> str:
        return template.render(url=url, commit=SHA, path="p/m.py", start=start, end=end)

    assert render(10, 20) == lines.format(sha=SHA)
    assert render(10, 10) == one.format(sha=SHA)
    assert render(None, None) == whole.format(sha=SHA)


def test_unknown_host_is_a_config_error_naming_the_entry() -> None:
    with pytest.raises(ConfigError, match=r"repos\['x'\]: unknown host 'example\.org'; set 'host'"):
        template_for(
            url="https://example.org/a/b",
            host=None,
            permalink=None,
            where="source_anchors_repos['x']",
        )
    with pytest.raises(ConfigError, match="unknown host 'gitea'"):
        template_for(url="https://example.org/a/b", host="gitea", permalink=None, where="w")


def test_large_upstream_file_warns_only_its_anchors(
    tree_upstream: Upstream, tmp_path: Path
) -> None:
    upstream = tree_upstream
    upstream.clear()
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/small.py", "def f():\n    return 1\n")
    upstream.write("pkg/big.py", "def g():\n    return 1\n" + "# padding\n" * 50_000)
    sha = upstream.commit()
    settings = settings_from(
        {
            "repos": {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}},
            "cache_dir": str(tmp_path / "cache"),
            "max_file_bytes": 100_000,
        },
        confdir=tmp_path,
        environ={},
    )
    engine = Engine(settings)
    big = engine.check(parse_target("pkg.big.g", default_repo="up"))
    assert (big.status, big.subtype) == ("error", "upstream")
    assert "pkg/big.py is 500,022 bytes, above the 100,000-byte limit; not parsed" in big.message
    small = engine.check(parse_target("pkg.small.f", default_repo="up"))
    assert small.status == "new" and small.location is not None and small.location.end == 2
