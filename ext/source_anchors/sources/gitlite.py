"""git without the :mod:`subprocess` module, and what its listings say, for the warm check (no Sphinx).

Importing :mod:`subprocess` costs a plain ``check`` of Markdown links about a quarter of what the
whole answer may cost (:mod:`source_anchors.cli.warm`); :func:`git_output` starts git with
:func:`os.posix_spawnp` instead, in the environment :mod:`.proc` gives it. It never says why git
failed: the warm check then leaves the question to the full front end, whose git calls do.
:func:`listing_of` and :func:`changed_of` read ``ls-tree`` and ``status`` output for both
(:mod:`.apigit`).
"""

from __future__ import annotations

import os
import time

__all__ = ["GIT_ENV", "changed_of", "git_output", "git_outputs", "listing_of"]

_REGULAR_MODES = {"100644", "100755"}

#: Environment for git: never prompt, never read the user's askpass helper.
GIT_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_ASKPASS": "",
    "SSH_ASKPASS": "",
    "GIT_SSH_COMMAND": "ssh -o BatchMode=yes -o ConnectTimeout=20",
    "LC_ALL": "C",
}


def git_output(args: list[str], cwd: str, *, timeout: float) -> bytes | None:
    """The standard output of ``git ARGS`` run in *cwd*; None when git cannot start, fails or is late.

    Late: no end within *timeout* seconds (git is then killed). None too where the platform has
    no ``posix_spawnp`` (Windows).
    """
    return git_outputs([(args, cwd)], timeout=timeout)[0]


def git_outputs(runs: list[tuple[list[str], str]], *, timeout: float) -> list[bytes | None]:
    """:func:`git_output` of each (ARGS, cwd) of *runs*, the gits running side by side."""
    spawn = getattr(os, "posix_spawnp", None)
    if spawn is None:
        return [None] * len(runs)
    import select  # a C module: a few hundred thousand instructions, not subprocess's millions

    env = {**os.environ, **GIT_ENV}
    reads: list[int | None] = []  # each run's read end, None where git did not start
    pids: dict[int, int] = {}
    chunks: dict[int, list[bytes]] = {}
    for args, cwd in runs:
        read, write = os.pipe()  # neither end is inherited: the child's stdout is a dup2 of *write*
        try:
            pids[read] = spawn(
                "git",
                ["git", "-C", cwd, *args],
                env,
                file_actions=[
                    (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                    (os.POSIX_SPAWN_DUP2, write, 1),
                    (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                ],
            )
        except OSError:
            os.close(read)
            reads.append(None)
        else:
            reads.append(read)
            chunks[read] = []
        finally:
            os.close(write)
    deadline, waiting = time.monotonic() + timeout, set(pids)
    try:
        while waiting:
            left = deadline - time.monotonic()
            ready = select.select(list(waiting), [], [], left)[0] if left > 0 else []
            if not ready:  # late: killed, and no answer
                for read in waiting:
                    os.kill(pids[read], 9)
                    del chunks[read]
                break
            for read in ready:
                chunk = os.read(read, 1 << 16)
                if chunk:
                    chunks[read].append(chunk)
                else:
                    waiting.discard(read)
    finally:
        for read in pids:
            os.close(read)
    results: list[bytes | None] = []
    for end in reads:
        if end is None:
            results.append(None)
            continue
        _, status = os.waitpid(pids[end], 0)
        got = chunks.get(end)
        ok = got is not None and os.waitstatus_to_exitcode(status) == 0
        results.append(b"".join(got) if ok and got is not None else None)
    return results


def listing_of(raw: bytes) -> dict[str, str]:
    """Every regular file of ``git ls-tree -r -z --full-tree COMMIT --`` output with its blob id."""
    files: dict[str, str] = {}
    for record in raw.split(b"\0"):
        if not record:
            continue
        info, _, path = record.decode("utf-8", "surrogateescape").partition("\t")
        mode, _kind, blob = info.split()
        if mode in _REGULAR_MODES and not path.startswith("/") and ".." not in path.split("/"):
            files[path] = blob
    return files


def changed_of(raw: bytes, paths: list[str]) -> list[str]:
    """Which of *paths* ``git status --porcelain=v1 -z`` output names as changed, sorted."""
    changed = []
    for record in raw.split(b"\0"):
        if len(record) > 3 and record[2:3] == b" ":
            changed.append(record[3:].decode("utf-8", "surrogateescape"))
    return sorted(set(changed) & set(paths))
