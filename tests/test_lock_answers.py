"""A file target the offline sources do not have, answered from its lock record (``engine.unchanged.from_lock``).

The book's CI reads its pinned repository from a distribution that ships the Python package only,
and git's host is out of reach: a front end's ``.tsx`` at the pin can be had only where git is. An
anchor into it is locked once where git is reachable; an offline build then takes the record as the
answer, because the record was resolved at the pinned commit itself by this resolver, and the
commit's listing still gives its blob id. Everything is real: the upstream is a git repository made
here, the distribution an sdist written here, and git is made unreachable by moving the repository.
"""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path
from typing import Any

import pytest
from helpers import Upstream, git
from source_anchors.engine.engine import Engine
from source_anchors.model.config import Settings, settings_from
from source_anchors.model.records import Outcome
from source_anchors.model.target import parse_target

pytest.importorskip("tree_sitter_typescript", reason="the languages extra is not installed")

FORM = """\
import React from "react";

/** The form a reader fills in. */
export default function ResearchForm({ source }: { source: string }) {
  const onChange = (value: string) => {
    console.log(value);
  };
  return (
    <select name="report_source" value={source} onChange={(e) => onChange(e.target.value)}>
      <option value="hybrid">Hybrid</option>
    </select>
  );
}
"""
TARGET = "up:/web/ResearchForm.tsx#ResearchForm"
STATEMENT = "up:/web/ResearchForm.tsx::const onChange"


def _sdist(upstream: Upstream, dest: Path) -> Path:
    """An sdist of the package alone (``pkg/``), as a release that leaves the front end out."""
    archive = dest / "updemo-1.0.tar.gz"
    with tarfile.open(archive, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        members = {
            "PKG-INFO": b"Metadata-Version: 2.4\nName: updemo\nVersion: 1.0\n",
            "pkg/__init__.py": (upstream.path / "pkg" / "__init__.py").read_bytes(),
        }
        for rel, data in members.items():
            info = tarfile.TarInfo(f"updemo-1.0/{rel}")
            info.size, info.mode, info.mtime = len(data), 0o644, 1_700_000_000
            tar.addfile(info, io.BytesIO(data))
    return archive


def _settings(book: Path, url: str, commit: str, cache: Path) -> Settings:
    entry: dict[str, Any] = {
        "url": url,
        "commit": commit,
        "packages": ["pkg"],
        "dist": "updemo-1.0.tar.gz",
        "listing": "listing.txt",
        "sources": ["dist", "git"],
    }
    return settings_from(
        {"repos": {"up": entry}, "cache_dir": str(cache)}, confdir=book, environ={}
    )


def _check(engine: Engine, text: str) -> Outcome:
    return engine.check(parse_target(text, default_repo=None))


def _place(outcome: Outcome) -> tuple[str, int, int, str, str, str]:
    loc = outcome.location
    assert loc is not None, outcome.message
    return (loc.path, loc.start, loc.end, loc.kind, loc.sha256, loc.blob)


@pytest.fixture
def pinned(tmp_path: Path) -> tuple[Path, Path, str, str]:
    """A book beside an upstream: the book's folder, the upstream's, its URL and commit."""
    upstream = Upstream(tmp_path / "upstream")
    upstream.write("pkg/__init__.py", '"""The package."""\n')
    upstream.write_files({"web/ResearchForm.tsx": FORM})
    commit = upstream.commit("1.0")
    book = tmp_path / "book"
    book.mkdir()
    _sdist(upstream, book)
    (book / "listing.txt").write_text(git("ls-tree", "-r", commit, cwd=upstream.path), "utf-8")
    return book, upstream.path, upstream.url, commit


def _lock_where_git_is(book: Path, url: str, commit: str, cache: Path) -> list[Outcome]:
    engine = Engine(_settings(book, url, commit, cache))
    outcomes = [_check(engine, TARGET), _check(engine, STATEMENT)]
    assert [o.status for o in outcomes] == ["new", "new"], [o.message for o in outcomes]
    assert engine.lock_new(outcomes) == 2
    return outcomes


def test_offline_build_answers_a_file_the_distribution_lacks_from_its_lock_record(
    pinned: tuple[Path, Path, str, str], tmp_path: Path
) -> None:
    book, upstream, url, commit = pinned
    online = _lock_where_git_is(book, url, commit, tmp_path / "cache-online")
    records = json.loads((book / "source-anchors.lock").read_text("utf-8"))["anchors"]["up"]
    # The record keeps the kind the pages print ("function ResearchForm").
    assert records["/web/ResearchForm.tsx#ResearchForm"]["kind"] == "function"
    assert records["/web/ResearchForm.tsx::const onChange"]["kind"] == "statement"
    # The brace that closes the function is the file's last line; JSDoc is not part of the range.
    last = FORM.splitlines().index("}") + 1
    assert _place(online[0])[1:3] == (4, last)

    upstream.rename(tmp_path / "moved")  # git is out of reach now; a new cache holds nothing
    offline = Engine(_settings(book, url, commit, tmp_path / "cache-offline"))
    answered = [_check(offline, TARGET), _check(offline, STATEMENT)]

    assert [o.status for o in answered] == ["ok", "ok"], [o.message for o in answered]
    assert [_place(o) for o in answered] == [_place(o) for o in online]
    assert [o.permalink for o in answered] == [o.permalink for o in online]
    assert answered[0].permalink == f"{url}/blob/{commit}/web/ResearchForm.tsx#L4-L{last}"
    assert "from the lock" in answered[0].message and "git" in answered[0].message
    assert not answered[0].fresh  # never kept in the resolution cache


def test_lock_does_not_answer_when_the_listing_or_the_resolver_disagrees(
    pinned: tuple[Path, Path, str, str], tmp_path: Path
) -> None:
    book, upstream, url, commit = pinned
    _lock_where_git_is(book, url, commit, tmp_path / "cache-online")
    upstream.rename(tmp_path / "moved")
    lock_path = book / "source-anchors.lock"
    good = lock_path.read_text("utf-8")

    def offline(text: str) -> Outcome:
        lock_path.write_text(text, "utf-8")
        return _check(Engine(_settings(book, url, commit, tmp_path / "cache-offline")), TARGET)

    data = json.loads(good)
    record = data["anchors"]["up"]["/web/ResearchForm.tsx#ResearchForm"]
    cases = {
        # A record from before records kept their kind.
        "no kind": {**record, "kind": ""},
        # A blob id the commit's listing does not give the file.
        "other blob": {**record, "blob": "0" * 40},
    }
    for why, changed in cases.items():
        data["anchors"]["up"]["/web/ResearchForm.tsx#ResearchForm"] = changed
        outcome = offline(json.dumps(data))
        assert (outcome.status, outcome.subtype) == ("error", "upstream"), why
        assert "does not ship /web/ResearchForm.tsx" in outcome.message, why
        assert "source-anchors update' once where git reaches" in outcome.message, why
    # Written by another resolver version: the same record no longer answers.
    data = json.loads(good)
    data["resolver"]["version"] -= 1
    assert offline(json.dumps(data)).status == "error"
    # No lock at all: the message names the command that makes the record.
    lock_path.unlink()
    outcome = _check(Engine(_settings(book, url, commit, tmp_path / "cache-none")), TARGET)
    assert outcome.status == "error"
    assert f"where git reaches {url} and commit the lock" in outcome.message
    # The good lock answers again.
    assert offline(good).status == "ok"
