"""The target grammar read into its parts, without the :class:`~.target.Target` record (pure).

``[repo:]dotted.path[::match …]`` and ``[repo:]/file/path[#Symbol.path][::match …]``:
:func:`split_target` checks the text and gives its parts; :mod:`.target` makes the record of them.
Apart from it so that the warm check (:mod:`source_anchors.cli.warm`) reads lock keys and link
titles without loading dataclasses.
"""

from __future__ import annotations

import re

from .errors import TargetError

__all__ = ["split_matches", "split_symbol", "split_target", "target_key"]

_REPO_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_MAX_TARGET = 1000
#: Between match levels: ``::`` not followed by another colon (``if x:::y`` is ``if x:`` then
#: ``y``).
_LEVEL_SEP = re.compile(r"::(?!:)")


def target_key(path: str, match: str | None) -> str:
    """The lock key of a target of *path* and *match*: the whole text after the repository."""
    return path if match is None else f"{path}::{match}"


def split_target(text: str, *, default_repo: str | None) -> tuple[str, str, str | None, bool]:
    """*text* read by the grammar: its repository, path, match text (or None), whether defaulted.

    The repository prefix is optional when *default_repo* is given. Raises
    :class:`TargetError` with a message that says what is wrong. :func:`.target.parse_target`
    makes the :class:`~.target.Target` of these parts.
    """
    raw = text.strip()
    if not raw:
        raise TargetError(
            "empty anchor target; expected [repo:]dotted.path[::match text] or [repo:]/file/path"
        )
    if len(raw) > _MAX_TARGET:
        raise TargetError(
            f"anchor target is {len(raw)} characters long; the limit is {_MAX_TARGET}"
        )
    head, sep, match = raw.partition("::")
    if sep:
        match = match.strip()
        if not match:
            raise TargetError(f"nothing after '::' in {raw!r}; give the text of one line to match")
        if "\n" in match:
            raise TargetError(f"match text in {raw!r} spans several lines; give text from one line")
        split_matches(match, raw)
    if head.lstrip().startswith("/"):
        repo_part, colon, path = "", "", head  # a file path: it may hold ':' itself
    else:
        repo_part, colon, path = head.partition(":")
    if colon:
        repo = repo_part.strip()
        if not _REPO_RE.match(repo):
            raise TargetError(f"invalid repository name {repo!r} in {raw!r}")
    else:
        path, repo = head, default_repo or ""
        if not repo:
            raise TargetError(
                f"no repository for {raw!r}: write 'repo:{raw}', set 'source-repo' in the page's "
                "front matter, or set source_anchors_default_repo"
            )
    path = path.strip()
    if not path:
        raise TargetError(f"no dotted path in {raw!r}")
    if path.startswith("/"):
        file_path, named = split_symbol(path)
        _check_file_path(file_path, raw)
        if named is not None:
            _check_symbol(named, file_path, raw)
        return repo, path, match if sep else None, not colon
    parts = path.split(".")
    bad = [part for part in parts if not part.isidentifier()]
    if bad:
        shown = "an empty part" if "" in bad else repr(bad[0])
        prefix, suffix = f"{repo_part.strip()}:" if colon else "", f"::{match}" if sep else ""
        file = (
            f"{prefix}/{path.replace(chr(92), '/')}{suffix}"
            if "/" in path or "\\" in path
            else None
        )
        raise TargetError(
            f"invalid dotted path {path!r}: {shown} is not a Python identifier"
            f"{_fix(path, prefix, suffix)}",
            file=file,
        )
    return repo, path, match if sep else None, not colon


def _fix(path: str, prefix: str, suffix: str) -> str:
    """How to write a dotted path that does not parse, for the forms authors bring from elsewhere."""
    if "/" in path or "\\" in path:
        return (
            f"; a file path starts with '/': write '{prefix}/{path.replace(chr(92), '/')}{suffix}'"
        )
    if path.startswith("~"):
        return (
            f"; '~' is Sphinx's cross-reference shorthand, not target syntax: write '{prefix}{path.lstrip('~')}"
            f"{suffix}' (a label such as 'Client <...>' sets the text shown)"
        )
    if "(" in path:
        called = path[: path.index("(")]
        return f"; a target names the function, not a call: drop the '(...)' and write '{prefix}{called}{suffix}'"
    return ""


def split_matches(match: str, raw: str | None = None) -> tuple[str, ...]:
    """The levels of a match text: its parts between ``::``, stripped; none may be empty.

    A match text therefore cannot itself hold ``::``: to anchor a line that does (a slice
    ``x[::2]``, a C++ name in a string), match a shorter part of it (``x[``). In a run of three
    colons the first ends the text before, as a header's colon does: ``try:::x`` is ``try:``, then
    ``x``.
    """
    levels = tuple(part.strip() for part in _LEVEL_SEP.split(match))
    if any(not level or "::" in level for level in levels):
        where = f" in {raw!r}" if raw is not None else ""
        raise TargetError(
            f"empty match level{where}: each '::' starts a match within the previous one, so a match "
            "text cannot hold '::'; match a shorter part of the line (for a slice x[::2], match 'x[')"
        )
    return levels


def _check_file_path(path: str, raw: str) -> None:
    """A file target's path: repository-relative, plain segments (no '..', '.', empty parts or backslashes)."""
    parts = path[1:].split("/")
    if ".." in parts:
        raise TargetError(
            f"file path {path!r} in {raw!r} holds '..'; write the path from the repository root"
        )
    if path == "/" or "" in parts or "." in parts or "\\" in path or "\x00" in path:
        raise TargetError(
            f"invalid file path {path!r} in {raw!r}: expected /dir/file, repository-relative, "
            "without empty or '.' parts"
        )


def split_symbol(path: str) -> tuple[str, str | None]:
    """A file target's path and the definition named after a ``#`` in its last segment, if any.

    ``/src/cmd.go#Command.AddCommand`` gives ``("/src/cmd.go", "Command.AddCommand")``; a ``#`` in a
    folder's name (``/c#/x.cs``) is part of the path.
    """
    folder, slash, name = path.rpartition("/")
    name, hash_, symbol = name.partition("#")
    return (folder + slash + name, symbol) if hash_ else (path, None)


#: One name of a definition's path: no white space, and none of the characters that separate (``.``,
#: ``#``, ``/``, ``:``); C++'s ``operator==`` and ``~Buffer`` are names.
_NAME_PART = r"[^\s.#/:]+"
#: Names joined by ``.``: each a :data:`_NAME_PART`.
_NAME_PATH = re.compile(rf"{_NAME_PART}(?:\.{_NAME_PART})*")


def _check_symbol(symbol: str, file: str, raw: str) -> None:
    """The path of names after ``#``: names joined by ``.`` (``Outer.Inner.method``, ``Display.for.Point.fmt``)."""
    if not symbol:
        raise TargetError(
            f"nothing after '#' in {raw!r}; name a definition of {file} by its path of names, "
            f"such as '{file}#Class.method'"
        )
    if not _NAME_PATH.fullmatch(symbol):
        raise TargetError(
            f"invalid definition path {symbol!r} in {raw!r}: names joined by '.', without spaces, "
            f"'#', '/' or ':' (C++'s ns::Class::method is written ns.Class.method; a Rust trait "
            f"impl's method Trait.for.Type.method)"
        )
