"""The upstream and book the tests of issue 28 (an outside author's report) share.

An httpx-like package made with git: a star import whose ``__all__`` leaves a class out, a
module that can grow, files that code hosts render (Markdown, CSV) and one they do not.
"""

from __future__ import annotations

from helpers import Book, Upstream

API = """\
from ._client import *

__all__ = ["Client", "send"]
"""

CLIENT = """\
__all__ = ["Client"]


class BaseClient:
    pass


class Client(BaseClient):
    def send(self, request):
        return request

    async def fetch(self):
        return 1
"""


def make_up(upstream: Upstream) -> tuple[Upstream, str]:
    """Write and commit the package and its files; (the repository, the commit)."""
    upstream.write("httpx/__init__.py", API)
    upstream.write("httpx/_client.py", CLIENT)
    upstream.write("docs/index.md", "# Title\n\nSome prose.\n\nThe line we link.\n")
    upstream.write("data/table.csv", "a,b\n1,2\n3,4\n")
    upstream.write("setup.cfg", "[metadata]\nname = httpx\n")
    return upstream, upstream.commit("v1")


def configure(book: Book, up: tuple[Upstream, str], **values: object) -> Book:
    """Pin *up* as the book's repository ``httpx`` (its default), with ``source_anchors_<name>`` *values*."""
    upstream, sha = up
    book.repos = {"httpx": {"url": upstream.url, "commit": sha, "packages": ["httpx"]}}
    book.write_conf(default_repo="httpx", **values)
    return book
