"""A ``changed`` anchor's locked lines against its current ones: the class of change and the diff (no Sphinx).

Only ``changed`` anchors come here (they are rare): the locked lines are read from the tree of the
lock record's commit (:meth:`~source_anchors.sources.pinned.PinnedTrees.locked_tree`) and must hash
to the record's sha256; when they cannot be had, the change is classed as ``code`` and the note says
why.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from ..model.changeclass import ChangeClass
from ..model.config import RepoPin
from ..model.errors import MissingExtraError, SourceAnchorsError
from ..model.records import Location, LockRecord
from ..reading.language import Language, text_change
from ..reading.python import Compact, Parts, module_of
from ..reading.registry import wired_language
from ..resolve.factory import Resolvers

#: How many diff lines a message shows (``check --markdown`` shows them all).
DIFF_LINES = 12


@dataclass(frozen=True)
class Comparison:
    """What changed in a ``changed`` anchor's lines."""

    kind: ChangeClass
    #: The unified diff's hunks (file headers dropped), empty when the old lines could not be read.
    diff: tuple[str, ...]
    #: Why the old lines were not compared, or "".
    note: str = ""

    def short(self) -> str:
        """What a message shows: the note, or the diff's first :data:`DIFF_LINES` lines."""
        if self.note:
            return self.note
        diff = list(self.diff)
        if len(diff) > DIFF_LINES:
            diff = [*diff[:DIFF_LINES], f"… {len(diff) - DIFF_LINES} more diff lines"]
        return "\n".join(diff)


def compare(
    resolvers: Resolvers, pin: RepoPin, location: Location, record: LockRecord
) -> Comparison:
    """The change from the lines *record* locked to the lines at *location* in *pin*'s tree.

    The current lines come from the pinned commit's resolver, the locked ones from the tree of the
    record's commit (the resolvers' tree provider).
    """
    try:
        new = resolvers.resolver(pin.name).file_lines(location.path)[
            location.start - 1 : location.end
        ]
    except (SourceAnchorsError, UnicodeDecodeError) as error:
        return Comparison(
            ChangeClass.code, (), f"the current lines cannot be read ({error}): classed as code"
        )
    if not record.commit and pin.checkout is not None:  # a ``self`` blob in no commit of HEAD
        return Comparison(
            ChangeClass.code,
            (),
            f"the locked text (blob {record.blob[:12]} of {record.path}) is in no commit of this "
            "checkout's history (a shallow clone, or a rewritten history): classed as code",
        )
    old = locked_lines(resolvers, pin, record)
    if isinstance(old, str):
        return Comparison(ChangeClass.code, (), f"old tree not available ({old}): classed as code")
    import difflib  # changed anchors only

    diff = tuple(difflib.unified_diff(old, new, lineterm="", n=0))[2:]
    try:
        language = wired_language(location.path)
    except MissingExtraError as error:
        return Comparison(ChangeClass.code, diff, f"{error}: classed as code")
    if language is None:  # a text file
        return Comparison(text_change("\n".join(old), "\n".join(new)), diff)
    language = _reading(resolvers, pin, location.path, language)
    return Comparison(
        language.classify(old, new, parts=_parts(resolvers, pin, location, record)), diff
    )


def _reading(resolvers: Resolvers, pin: RepoPin, path: str, language: Language) -> Language:
    """The language that reads *path*'s current text: a ``.h`` header's is C or C++ by it."""
    try:
        data = resolvers.resolver(pin.name).files.data(path)
    except (SourceAnchorsError, UnicodeDecodeError):
        return language  # the header language then decides by the excerpts
    return language.reading(data)


def _parts(
    resolvers: Resolvers, pin: RepoPin, location: Location, record: LockRecord
) -> tuple[Parts, Parts] | None:
    """The statements directly inside the anchor's statement (or module) at the lock's commit and now.

    Read from the two files' module indexes when they are at hand (made or stored before: no parse
    for this); None otherwise, and the language's ``classify`` then reads the excerpts whole.
    """
    whole = location.kind == "module"
    try:
        new = _inside(
            resolvers,
            pin.name,
            pin.commit,
            location.path,
            location.start,
            location.end,
            whole=whole,
        )
        old = (
            _inside(
                resolvers,
                pin.name,
                record.commit,
                record.path,
                record.start,
                record.end,
                whole=whole,
            )
            if new is not None
            else None
        )
    except (SourceAnchorsError, UnicodeDecodeError):
        return None
    return None if old is None or new is None else (old, new)


def _inside(
    resolvers: Resolvers, repo: str, commit: str, path: str, start: int, end: int, *, whole: bool
) -> Parts | None:
    """The parts (:class:`~source_anchors.reading.python.Parts`) of lines *start*..*end* of *path*.

    A whole module's, or one statement's.
    """
    resolver = resolvers.resolver_at(repo, commit)
    module = next(
        (
            found
            for name, folder in sorted(resolver.files.packages.items())
            if (found := module_of(path, name, folder)) is not None
        ),
        None,
    )
    statements = resolvers.statements_at(repo, commit, path, module) if module is not None else None
    if statements is None:
        return None
    lines = resolver.file_lines(path)
    if whole:
        return Parts(statements, lines, 1) if (start, end) == (1, max(len(lines), 1)) else None
    children = _children(statements, start, end)
    return None if children is None else Parts(children, lines, start)


def _children(statements: Sequence[Compact], start: int, end: int) -> Sequence[Compact] | None:
    """The statements directly inside the statement spanning exactly *start*..*end*; None when there is none."""
    level = statements
    while True:
        node = next((node for node in level if node[0] <= start and end <= node[1]), None)
        if node is None:
            return None
        if (node[0], node[1]) == (start, end):
            return node[3] or None
        level = node[3]


def locked_lines(resolvers: Resolvers, pin: RepoPin, record: LockRecord) -> list[str] | str:
    """The lines *record* locked, read from its commit's tree; or why they cannot be had.

    Read by the resolver at that commit when it can (the statements of :func:`_parts` are found from
    the same text, read once), else as :meth:`.PinnedTrees.locked_lines` reads them (a file outside
    the tree, or above the size a resolver reads, from the blob store).
    """
    try:
        lines: list[str] | None = resolvers.resolver_at(pin.name, record.commit).file_lines(
            record.path
        )
    except (SourceAnchorsError, UnicodeDecodeError):
        try:
            lines = resolvers.trees.locked_lines(pin.name, record.commit, record.path, record.blob)
        except (SourceAnchorsError, UnicodeDecodeError) as error:
            return str(error)
    if lines is None:
        return f"{record.path} is not in the tree of {pin.name}@{record.commit[:7]}"
    old = lines[record.start - 1 : record.end]
    if hashlib.sha256("\n".join(old).encode("utf-8")).hexdigest() != record.sha256:
        return f"{record.describe()} at {pin.name}@{record.commit[:7]} does not match the lock's sha256"
    return old
