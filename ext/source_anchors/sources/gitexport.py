"""A pinned commit's files from git: one shallow, blob-filtered fetch, then only the blobs wanted.

Every git command runs in a throwaway bare partial clone (deleted afterwards), through the one
subprocess wrapper (:mod:`.proc`). :mod:`.blobstore` uses the same clone set-up for single blobs.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from ..model.config import RepoPin
from ..model.errors import GitError, PinError, SourceError
from .treefiles import blob_id, wanted

__all__ = ["export_git", "fetch_blobs", "init_partial"]

_REGULAR_MODES = {"100644", "100755"}

#: How git servers refuse a commit they do not have (git's own daemon and file remotes; GitHub,
#: GitLab).
_NO_SUCH_COMMIT = (
    "not our ref",
    "unadvertised object",
    "couldn't find remote ref",
    "no such remote ref",
)


def export_git(pin: RepoPin, files: Path, *, timeout: float) -> dict[str, Any]:
    """Fetch one commit shallowly without blobs, then fetch and write only wanted blobs."""
    from . import proc  # the subprocess machinery is loaded by exports only

    repo = files.parent / "repo.git"
    repo.mkdir(parents=True)

    def g(*args: str, stdin: bytes | None = None) -> bytes:
        return proc.git(list(args), cwd=repo, stdin=stdin, timeout=timeout)

    try:
        init_partial(g, repo, pin.url)
        try:
            g(
                "-c",
                "http.lowSpeedLimit=1000",
                "-c",
                "http.lowSpeedTime=30",
                "fetch",
                "--quiet",
                "--depth=1",
                "--filter=blob:none",
                "--no-tags",
                "origin",
                "--end-of-options",
                pin.commit,
            )
        except GitError as error:
            said = next((sign for sign in _NO_SUCH_COMMIT if sign in str(error)), None)
            if said is None:
                raise
            raise SourceError(
                f"the remote has no commit {pin.commit}: a commit of another repository, a typo, or "
                f"not pushed yet? (git: {said}); fix source_anchors_repos[{pin.name!r}]['commit'] "
                f"in conf.py: 'source-anchors pin {pin.name} TAG' writes the commit of a tag or "
                f"branch there, and 'git ls-remote {pin.shown_url}' lists them all"
            ) from error
        kind = g("cat-file", "-t", pin.commit).decode().strip()
        if kind != "commit":
            peeled = (
                g("rev-parse", "--verify", "--end-of-options", f"{pin.commit}^{{commit}}")
                .decode()
                .strip()
            )
            raise PinError(
                f"{pin.name}: 'commit' {pin.commit} is an annotated tag object, not a commit; "
                f"pin the commit it points to: {peeled}"
            )
        listing = _parse_ls_tree(g("ls-tree", "-r", "-z", "--full-tree", pin.commit, "--"))
        need = {
            path: blob
            for path, (mode, blob) in listing.items()
            if mode in _REGULAR_MODES and wanted(path, pin.packages)
        }
        contents = fetch_blobs(g, set(need.values())) if need else {}
    except GitError as error:
        raise SourceError(str(error)) from error
    finally:
        shutil.rmtree(repo, ignore_errors=True)
    # Every link and submodule of the commit, so that a file target outside the packages names it
    # too.
    refused = {
        path: "symbolic link (never followed)" if mode == "120000" else "submodule (not a file)"
        for path, (mode, _) in listing.items()
        if mode in ("120000", "160000")
    }
    for path, blob in need.items():
        target = files.joinpath(*PurePosixPath(path).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(contents[blob])
    return {
        "method": "git",
        "dist": None,
        "blobs": need,
        "refused": refused,
        "listing": {path: blob for path, (mode, blob) in listing.items() if mode != "040000"},
    }


def init_partial(g: Callable[..., bytes], repo: Path, url: str) -> None:
    """Make *repo* (where *g* runs git) a bare partial clone of *url*: blobs are fetched only when asked for.

    The settings ``git config`` would set one process each are written into the new repository's
    config file at once (git reads the last value of a key, so the second ``[core]`` wins). The
    repository is thrown away after the export, so it never runs automatic maintenance. The URL
    has no control characters (the configuration refuses them), so quoting it is enough.
    """
    g("init", "--bare", "--quiet")
    quoted = url.replace("\\", "\\\\").replace('"', '\\"')
    with open(repo / "config", "a", encoding="utf-8") as config:
        config.write(
            "[core]\n\trepositoryformatversion = 1\n[maintenance]\n\tauto = false\n[gc]\n\tauto = 0\n"
            "[extensions]\n\tpartialClone = origin\n"
            f'[remote "origin"]\n\turl = "{quoted}"\n\tpromisor = true\n\tpartialclonefilter = blob:none\n'
        )


def fetch_blobs(g: Callable[..., bytes], blobs: set[str]) -> dict[str, bytes]:
    """Fetch exactly the blobs *blobs* by id (no negotiation, no history) and return their checked bytes."""
    oids = "".join(f"{blob}\n" for blob in sorted(blobs)).encode()
    g(
        "-c",
        "fetch.negotiationAlgorithm=noop",
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        "--recurse-submodules=no",
        "--filter=blob:none",
        "--stdin",
        "origin",
        stdin=oids,
    )
    return _cat_blobs(g("cat-file", "--batch", stdin=oids))


def _parse_ls_tree(raw: bytes) -> dict[str, tuple[str, str]]:
    entries: dict[str, tuple[str, str]] = {}
    for record in raw.split(b"\0"):
        if not record:
            continue
        info, _, path = record.decode("utf-8", "surrogateescape").partition("\t")
        mode, _kind, blob = info.split()
        if path.startswith("/") or ".." in path.split("/"):
            continue  # git never records these; refuse them all the same
        entries[path] = (mode, blob)
    return entries


def _cat_blobs(raw: bytes) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    pos = 0
    while pos < len(raw):
        header_end = raw.index(b"\n", pos)
        header = raw[pos:header_end].decode().split()
        if len(header) != 3:  # "<oid> missing": a damaged clone, or an object pruned away
            raise GitError(
                f"git has no object {header[0]} ({' '.join(header[1:])}); fetch it again, or "
                "clone the repository anew ('git fsck' names what else is missing)"
            )
        oid, kind, size = header
        start = header_end + 1
        data = raw[start : start + int(size)]
        if kind != "blob" or blob_id(data) != oid:
            raise SourceError(f"git returned unexpected content for blob {oid}")
        out[oid] = data
        pos = start + int(size) + 1
    return out
