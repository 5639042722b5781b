"""The docs' own repository for API links: remote addresses, package discovery (no Sphinx, no network)."""

from __future__ import annotations

import pytest
from source_anchors.model.hosts import template_for, without_credentials
from source_anchors.sources.apigit import web_url
from source_anchors.sources.apiself import discover_packages


@pytest.mark.parametrize(
    ("remote", "web"),
    [
        ("git@github.com:pallets/flask.git", "https://github.com/pallets/flask"),
        ("github.com:pallets/flask", "https://github.com/pallets/flask"),
        ("ssh://git@gitlab.com/group/sub/proj.git", "https://gitlab.com/group/sub/proj"),
        ("ssh://git@bitbucket.org:22/team/proj.git", "https://bitbucket.org/team/proj"),
        ("git+ssh://git@example.org/team/proj", "https://example.org/team/proj"),
        ("https://user:token@github.com/pallets/flask.git", "https://github.com/pallets/flask"),
        ("http://git.example.org/proj.git/", "http://git.example.org/proj"),
        ("/srv/git/proj.git", None),
        ("file:///srv/git/proj.git", None),
        ("../proj", None),
    ],
)
def test_web_url_of_ssh_and_https_remotes(remote: str, web: str | None) -> None:
    assert web_url(remote) == web


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://x-access-token:TOKEN@github.com/o/r.git", "https://github.com/o/r.git"),
        ("https://TOKEN@github.com/o/r", "https://github.com/o/r"),
        ("http://user:pass@example.org:8080/o/r?x=1", "http://example.org:8080/o/r?x=1"),
        ("ssh://git@bitbucket.org:22/team/proj.git", "ssh://bitbucket.org:22/team/proj.git"),
        ("https://user:pass@example.org", "https://example.org"),
        ("git@github.com:o/r.git", "github.com:o/r.git"),
        ("user:pass@host:o/r", "host:o/r"),
        ("https://github.com/o/r", "https://github.com/o/r"),
        ("github.com:org@2/repo", "github.com:org@2/repo"),
        ("/srv/git/a@b/proj.git", "/srv/git/a@b/proj.git"),
        ("file:///srv/git/a@b", "file:///srv/git/a@b"),
    ],
)
def test_credentials_are_dropped_from_any_remote(url: str, shown: str) -> None:
    assert without_credentials(url) == shown


def test_bitbucket_permalinks() -> None:
    template = template_for(
        url="https://bitbucket.org/team/proj", host=None, permalink=None, where="x"
    )
    assert (
        template.render(
            url="https://bitbucket.org/team/proj", commit="c0ffee", path="src/a.py", start=3, end=9
        )
        == "https://bitbucket.org/team/proj/src/c0ffee/src/a.py#lines-3:9"
    )


def test_discover_packages_leaves_tests_and_docs_out() -> None:
    paths = [
        "src/pkg/__init__.py",
        "src/pkg/sub/__init__.py",
        "src/pkg/sub/m.py",
        "tests/__init__.py",
        "tests/fixtures/pkg2/__init__.py",
        "docs/conf.py",
        "setup.py",
        "single.py",
        "noxfile.py",
        "examples/demo/__init__.py",
    ]
    assert discover_packages(paths) == ("single", "src/pkg")
