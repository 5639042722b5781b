"""How option values are read and checked, with no Sphinx: the words of ``CI``, booleans, validators.

Each validator takes a value from ``conf.py`` and returns the problem as text, or None when the
value is fine; :mod:`.settings` names the option and its place in one ``ConfigError``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..python import parse_python
from .pinfields import SHA_RE

#: The prefix of every ``conf.py`` option of the extension.
PREFIX = "source_anchors_"

#: Values of ``CI`` that do not mean a CI run (as CI services and tools read the variable).
CI_OFF = ("", "0", "false", "no")
#: The words a boolean option takes besides True and False: those of ``CI`` (any case, spaces
#: around).
FLAG_ON = ("1", "true", "yes")
FLAG_WORDS = (*FLAG_ON, *CI_OFF)


def flag(value: object) -> bool | None:
    """A boolean option's value: True or False, or a word of ``CI`` (:data:`FLAG_WORDS`); None for anything else.

    A string is read as ``CI`` is, so ``"no"`` is off wherever it is written; a word that
    ``CI`` would read as "on" only by being unknown (``"nope"``) is refused rather than guessed.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        return False if word in CI_OFF else True if word in FLAG_ON else None
    return None


def ci_locked(environ: Mapping[str, str]) -> bool:
    """Whether the environment asks for a locked build: ``CI`` set to anything but ``""``/``0``/``false``/``no``."""
    return environ.get("CI", "").strip().lower() not in CI_OFF


Check = Callable[[Any], str | None]


def non_negative_int(value: Any) -> str | None:
    """A count or a size: an int of 0 or more, not a bool."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return None if ok else f"expected a non-negative integer, got {value!r}"


def string(value: Any) -> str | None:
    """Any string."""
    return None if isinstance(value, str) else f"expected a string, got {value!r}"


def optional_path(value: Any) -> str | None:
    """A directory path, or None."""
    return (
        None
        if value is None or isinstance(value, str)
        else f"expected a directory path, got {value!r}"
    )


def optional_name(value: Any) -> str | None:
    """A repository name, or None."""
    return (
        None
        if value is None or isinstance(value, str)
        else f"expected a repository name, got {value!r}"
    )


def dict_(value: Any) -> str | None:
    """The repositories: a dict of entries."""
    return (
        None
        if isinstance(value, Mapping)
        else f"expected a dict of repository entries, got {type(value).__name__}"
    )


def commits(value: Any) -> str | None:
    """Pins given from outside: NAME to a 40-hex commit SHA."""
    if not isinstance(value, Mapping):
        return f"expected a dict of repository name to commit, got {type(value).__name__}"
    bad = [
        f"{name}={sha!r}"
        for name, sha in value.items()
        if not (isinstance(sha, str) and SHA_RE.match(sha))
    ]
    return f"expected NAME=<40-hex commit SHA>, got {', '.join(bad)}" if bad else None


def boolean(value: Any) -> str | None:
    """A boolean option: True, False or a word of ``CI`` (:data:`FLAG_WORDS`)."""
    return (
        None
        if flag(value) is not None
        else (
            f"expected True or False, or one of the words {', '.join(repr(w) for w in FLAG_WORDS)} "
            f"(those of the CI variable), got {value!r}"
        )
    )


def feedback_repo(value: Any) -> str | None:
    """The book's repository for reports (:func:`..issuelinks.feedback_repo_problem`)."""
    from ..issuelinks import feedback_repo_problem

    return feedback_repo_problem(value)


def python(value: Any) -> str | None:
    """A Python version and optional platform (:func:`.python.parse_python`)."""
    problem = parse_python(value)
    return problem if isinstance(problem, str) else None


#: The values of ``source_anchors_annotations``.
ANNOTATIONS = ("", "github", "gitlab", "sarif")


def annotation_format(value: Any) -> str | None:
    """One of :data:`ANNOTATIONS`."""
    return (
        None
        if value in ANNOTATIONS
        else f"expected one of {', '.join(map(repr, ANNOTATIONS))}, got {value!r}"
    )


def anything(value: Any) -> str | None:
    """No check here: the value is checked with the others it depends on (:func:`.apiconfig.api_settings`)."""
    return None
