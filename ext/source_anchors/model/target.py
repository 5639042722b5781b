"""Parse anchor targets: ``[repo:]dotted.path[::match …]``, ``[repo:]/file/path[#Symbol.path][::match …]`` (pure).

The grammar itself is :mod:`.targettext`'s; here the :class:`Target` record made of its parts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .targettext import split_matches, split_symbol, split_target, target_key

__all__ = ["Target", "parse_target", "split_matches", "split_symbol"]


@dataclass(frozen=True, order=True)
class Target:
    """A parsed anchor target.

    ``repo`` is the pin name (already defaulted by the caller when absent),
    ``path`` the dotted Python path, or a repository-relative file path after a leading ``/``
    (see :attr:`is_file`), followed by ``#`` and the path of names of a definition in that file
    (``/src/cmd.go#Command.AddCommand``, see :attr:`symbol`), ``match`` the optional text after the
    first ``::``, as written: one match text, or several separated by ``::``, each looked up within
    the range the previous one gave (see :attr:`matches`). The lock key is the whole text.
    """

    repo: str
    path: str
    match: str | None = None
    #: Whether the repository came from a default (front matter or configuration), not a prefix.
    defaulted: bool = field(default=False, compare=False)

    @property
    def is_file(self) -> bool:
        """Whether the target names a file of the tree (``/pyproject.toml``), not a dotted path."""
        return self.path.startswith("/")

    @property
    def file(self) -> str:
        """The repository-relative file path of a file target (no leading ``/``, no ``#Symbol.path``)."""
        return split_symbol(self.path)[0][1:]

    @property
    def symbol(self) -> str | None:
        """The definition a file target names after ``#`` (``Command.AddCommand``), or None."""
        return split_symbol(self.path)[1] if self.is_file else None

    @property
    def matches(self) -> tuple[str, ...]:
        """The match levels, outermost first (empty without ``::``)."""
        return split_matches(self.match) if self.match is not None else ()

    @property
    def key(self) -> str:
        """The lock key of this target within its repository."""
        return target_key(self.path, self.match)

    def __str__(self) -> str:
        return f"{self.repo}:{self.key}"


def parse_target(text: str, *, default_repo: str | None) -> Target:
    """Parse *text* into a :class:`Target`.

    The repository prefix is optional when *default_repo* is given. Raises
    :class:`~.errors.TargetError` with a message that says what is wrong.
    """
    repo, path, match, defaulted = split_target(text, default_repo=default_repo)
    return Target(repo=repo, path=path, match=match, defaulted=defaulted)
