"""The one wrapper through which every subprocess runs: git and pip, no shell, typed errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from ..model.errors import CommandError, GitError, PipError
from ..model.hosts import redact_credentials
from .gitlite import GIT_ENV


def run(
    argv: Sequence[str],
    *,
    cwd: Path | None = None,
    stdin: bytes | None = None,
    timeout: float,
    env: dict[str, str] | None = None,
    what: str | None = None,
    error: type[CommandError] = CommandError,
) -> bytes:
    """Run *argv* (a list, never a shell string) and return its stdout.

    Raises *error* (a :class:`CommandError`) naming *what* (default: the program)
    when the program is missing, times out, or exits non-zero; the message
    carries the last lines of its stderr.
    """
    label = what or argv[0]
    full_env = {**os.environ, **(env or {})}
    try:
        done = subprocess.run(
            list(argv),
            cwd=cwd,
            input=stdin,
            capture_output=True,
            timeout=timeout,
            env=full_env,
            check=False,
        )
    except FileNotFoundError as missing:
        raise error(f"{label}: {argv[0]!r} is not installed or not on PATH") from missing
    except subprocess.TimeoutExpired as late:
        raise error(f"{label}: no answer within {timeout:g} s") from late
    if done.returncode != 0:
        lines = [
            line.strip() for line in done.stderr.decode("utf-8", "replace").strip().splitlines()
        ]
        # The last lines say what failed; earlier network lines often say why (pip retries,
        # proxies).
        why = [line for line in lines[:-3] if _NETWORK.search(line)][-2:]
        detail = "; ".join(why + lines[-3:]) or f"exit status {done.returncode}"
        # git names the URL it was given, token and all
        raise error(f"{label}: {redact_credentials(detail)}")
    return done.stdout


_NETWORK = re.compile(
    r"connect|resolve|unreachable|timed? ?out|Max retries|proxy|refused|index", re.IGNORECASE
)


def git(
    args: Sequence[str],
    *,
    cwd: Path,
    stdin: bytes | None = None,
    timeout: float,
    env: dict[str, str] | None = None,
) -> bytes:
    """Run ``git <args>`` in *cwd* with prompts disabled (and *env*'s variables set)."""
    return run(
        ["git", *args],
        cwd=cwd,
        stdin=stdin,
        timeout=timeout,
        env={**GIT_ENV, **(env or {})},
        what=f"git {_subcommand(args)}",
        error=GitError,
    )


def pip(args: Sequence[str], *, timeout: float, what: str) -> bytes:
    """Run ``python -m pip <args>`` with the interpreter that runs the build."""
    return run([sys.executable, "-m", "pip", *args], timeout=timeout, what=what, error=PipError)


def _subcommand(args: Sequence[str]) -> str:
    """The git subcommand in *args*, skipping ``-c key=value`` options."""
    index = 0
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] == "-c" else 1
    return args[index] if index < len(args) else "(no subcommand)"
