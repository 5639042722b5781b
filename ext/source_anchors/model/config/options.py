"""The ``conf.py`` options: one frozen dataclass, each field with its check and help (no Sphinx).

Each field of :class:`Options` is a ``conf.py`` value named ``source_anchors_<field>``; its metadata
carries the types Sphinx is told, the check (:mod:`.values`) and the help text the manual's option
table is generated from (``docs/options.md``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from .api import overrides_problem
from .values import (
    PREFIX,
    Check,
    annotation_format,
    anything,
    boolean,
    commits,
    dict_,
    feedback_repo,
    non_negative_int,
    optional_name,
    optional_path,
    python,
    string,
)

__all__ = ["Options", "option_default", "option_names"]


def _meta(*, types: tuple[type, ...], check: Check, help: str) -> dict[str, Any]:
    """An :class:`Options` field's metadata: the types Sphinx is told, its check, its help text."""
    return {"types": types, "check": check, "help": help}


@dataclass(frozen=True)
class Options:
    """The raw ``conf.py`` options, with defaults, checks and help (``source_anchors_<name>``)."""

    repos: dict[str, dict[str, Any]] = field(
        default_factory=dict,
        metadata=_meta(
            types=(dict,),
            check=dict_,
            help="Pinned repositories by name: 'url', 'commit' (40-hex SHA), 'packages' "
            "(package directories from the repository root), and optionally 'ref' (the tag or "
            "branch the commit came from, shown in the ledger and checked by locked builds), 'dist' "
            "(a pip requirement such as 'pkg==1.0' whose files stand in for the commit), 'dist_format' "
            "('wheel', downloaded by pip, or 'sdist', found on pip's indexes and downloaded unbuilt), "
            "'listing' (a committed 'git ls-tree -r' output vouching for blob ids), 'facts' (a committed "
            "record of the licences and third-party evidence of files a build may not read, made by "
            "'source-anchors facts'), "
            "'sources' (order of 'cache', 'git', 'dist'), 'host' ('github' or 'gitlab') "
            "or 'permalink' (a URL template for other hosts).",
        ),
    )
    default_repo: str | None = field(
        default=None,
        metadata=_meta(
            types=(str, type(None)),
            check=optional_name,
            help="Repository used by targets without a 'repo:' prefix ('self': the git repository "
            "holding conf.py, read at HEAD); a page overrides it with 'source-repo' in its front "
            "matter.",
        ),
    )
    locked: bool = field(
        default=False,
        metadata=_meta(
            types=(bool, str),
            check=boolean,
            help="Treat anchors missing from the lock as errors and make the build fail on any anchor that does not "
            "match the lock (also on when the environment sets CI to anything but '', 0, false or no). "
            "True or False, or a word of CI: '1', 'true', 'yes' or '', '0', 'false', 'no'.",
        ),
    )
    lock_file: str = field(
        default="source-anchors.lock",
        metadata=_meta(
            types=(str,), check=string, help="Lock file path, relative to the directory of conf.py."
        ),
    )
    cache_dir: str | None = field(
        default=None,
        metadata=_meta(
            types=(str, type(None)),
            check=optional_path,
            help="Cache of exported trees; default: $SOURCE_ANCHORS_CACHE, else the per-user cache directory. "
            "When it cannot be created or written, the build warns and keeps a cache in its doctree folder.",
        ),
    )
    timeout: int = field(
        default=300,
        metadata=_meta(
            types=(int,),
            check=non_negative_int,
            help="Seconds allowed for one git or pip command before it is abandoned.",
        ),
    )
    max_file_bytes: int = field(
        default=2_000_000,
        metadata=_meta(
            types=(int,),
            check=non_negative_int,
            help="Upstream files larger than this are not parsed; anchors into them get a warning.",
        ),
    )
    reproduced_lines_max: int = field(
        default=0,
        metadata=_meta(
            types=(int,),
            check=non_negative_int,
            help="Warn when the book's literal blocks reproduce more upstream lines of real content than this.",
        ),
    )
    feedback_repo: str = field(
        default="",
        metadata=_meta(
            types=(str,),
            check=feedback_repo,
            help="The book's own repository (an https URL on GitHub or GitLab): the feedback-line and "
            "feedback-channel directives and each anchor's line in the ledger link to a new issue there, "
            "prefilled with the page, the anchor, the pin and what the reader saw. Unset, the repository "
            "the book is built from (GitHub Actions, GitLab CI, Read the Docs, or the origin remote).",
        ),
    )
    feedback_email: str = field(
        default="",
        metadata=_meta(
            types=(str,),
            check=string,
            help="An address that receives mail, used by the feedback directives when there is no feedback_repo.",
        ),
    )
    quiet: bool = field(
        default=False,
        metadata=_meta(
            types=(bool, str),
            check=boolean,
            help="Check every anchor without warnings and without writing the lock "
            "(the command line sets it to read the book).",
        ),
    )
    python: str | None = field(
        default=None,
        metadata=_meta(
            types=(str, type(None)),
            check=python,
            help="The Python version the anchors are read for, as '3.11', optionally followed by a space and a "
            "value of sys.platform ('3.11 win32'; default platform: linux); default: the version of the "
            "Python that runs the build. Tests of sys.version_info, sys.platform and TYPE_CHECKING are "
            "decided for it, as type checkers decide them (see the binding rules).",
        ),
    )
    annotations: str = field(
        default="",
        metadata=_meta(
            types=(str,),
            check=annotation_format,
            help="Also report the anchors that drifted for CI: 'github' (workflow commands on standard output, on "
            "the page lines), 'gitlab' (a Code Quality report) or 'sarif' (SARIF 2.1.0), the reports written "
            "beside source-anchors.json; '' (default): none.",
        ),
    )
    pin_commits: dict[str, str] = field(
        default_factory=dict,
        metadata=_meta(
            types=(dict,),
            check=commits,
            help="Commits that replace pinned ones for this build only, by repository name "
            "(the command line's '--pin NAME=SHA'); conf.py and the lock are untouched.",
        ),
    )
    api_links: str | None = field(
        default=None,
        metadata=_meta(
            types=(str, type(None)),
            check=anything,
            help="Give every documented Python object a [source] link: 'self' (the git repository holding "
            "conf.py, at HEAD) or the name of a pinned repository.",
        ),
    )
    api_url: str | None = field(
        default=None,
        metadata=_meta(
            types=(str, type(None)),
            check=anything,
            help="Web address of the docs' own repository (default: from the 'origin' remote).",
        ),
    )
    api_host: str | None = field(
        default=None,
        metadata=_meta(
            types=(str, type(None)),
            check=anything,
            help="'github', 'gitlab', 'bitbucket' or a permalink template for the docs' own repository.",
        ),
    )
    api_commit: str | None = field(
        default=None,
        metadata=_meta(
            types=(str, type(None)),
            check=anything,
            help="Outside a git checkout (a build from an sdist): the commit or release tag the links name.",
        ),
    )
    api_packages: list[str] = field(
        default_factory=list,
        metadata=_meta(
            types=(list, tuple),
            check=anything,
            help="Package directories of the docs' own repository (default: its top-level packages).",
        ),
    )
    api_list_unlinked: bool = field(
        default=False,
        metadata=_meta(
            types=(bool, str),
            check=boolean,
            help="List every documented object without a source link, not only their count.",
        ),
    )
    api_overrides: dict[str, str] = field(
        default_factory=dict,
        metadata=_meta(
            types=(dict,),
            check=overrides_problem,
            help="Documented names that no statement binds (served by a module __getattr__, made at run time), "
            "each with the dotted name of its definition: {'pkg.name': 'pkg.module.real_name'} links "
            "pkg.name where pkg.module.real_name resolves.",
        ),
    )


def option_default(option: dataclasses.Field[Any]) -> Any:
    """The default value of an :class:`Options` field (a fresh one for mutable defaults)."""
    if option.default_factory is not dataclasses.MISSING:
        return option.default_factory()
    return option.default


def option_names() -> list[str]:
    """The ``conf.py`` names of all options, in declaration order."""
    return [PREFIX + f.name for f in dataclasses.fields(Options)]
