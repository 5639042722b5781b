"""Exceptions of the Sphinx-free core, each carrying the diagnostic subtype it is reported as.

Every problem the core can detect is a subclass of :class:`SourceAnchorsError`. The Sphinx glue
turns one into a located ``source-anchors.<subtype>`` warning from its
:attr:`~SourceAnchorsError.subtype` alone; the CLI prints it. No other exception type is meant to
escape the core for bad input.
"""

from __future__ import annotations

from .subtypes import Subtype

TYPE_CHECKING = False  # typing itself is not imported: the warm check loads this module
if TYPE_CHECKING:
    from typing import ClassVar


class SourceAnchorsError(Exception):
    """Base class of every error raised by ``source_anchors``."""

    #: The warning subtype this error is reported as.
    subtype: ClassVar[Subtype] = Subtype.config


class TargetError(SourceAnchorsError):
    """An anchor target is not of the form ``[repo:]dotted.path[::match text]``.

    ``file`` is set when the text looks like a file path written without its leading ``/``: the
    target with the ``/``, which the engine checks against the pinned tree before offering it.
    """

    subtype = Subtype.target

    def __init__(self, message: str, *, file: str | None = None) -> None:
        super().__init__(message)
        self.file = file


class ConfigError(SourceAnchorsError):
    """A configuration value is invalid; the message names the value."""


class MissingExtraError(SourceAnchorsError):
    """An optional feature needs a package that is not installed; the message names the extra."""


class LockError(SourceAnchorsError):
    """The lock file cannot be read or written; the message names the file and line."""


class SourceError(SourceAnchorsError):
    """A pinned tree could not be obtained from any configured source."""

    subtype = Subtype.source


class PinError(SourceError):
    """The pin itself is wrong (an annotated tag's object id for a commit): no other source is tried."""


class CommandError(SourceError):
    """A subprocess (git or pip) is missing, timed out, or exited non-zero."""


class GitError(CommandError):
    """A git command failed, timed out, or git is not installed."""


class PipError(CommandError):
    """A pip command failed, timed out, or pip is not installed."""


class ArchiveError(SourceError):
    """A distribution archive could not be downloaded or unpacked safely."""


class RefError(SourceAnchorsError):
    """A tag or branch name is malformed, unknown at the pin's URL, or ambiguous there."""

    subtype = Subtype.ref


class ResolveError(SourceAnchorsError):
    """A target does not resolve to a unique location in the pinned tree.

    ``closest`` holds existing names near the one asked for, for the message.
    """

    subtype = Subtype.missing

    def __init__(self, message: str, *, closest: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.closest = closest


class AmbiguousDefinitionError(ResolveError):
    """A name is defined more than once in a file and no rule of its language chooses one.

    ``candidates`` holds each definition as the message names it (its path and lines); the message
    says how to pick one (a longer path, or the file with a match on the definition's first line).
    """

    def __init__(self, message: str, *, candidates: tuple[str, ...]) -> None:
        super().__init__(message)
        self.candidates = candidates


class UpstreamFileError(SourceAnchorsError):
    """An upstream file needed by an anchor is unusable (syntax, encoding, size)."""

    subtype = Subtype.upstream


class UnverifiedError(SourceAnchorsError):
    """A file from a distribution is not vouched for as identical to the pinned commit."""

    subtype = Subtype.unverified
