"""Where code went between the lock's commit and the pin, from git (suggestions from history; no Sphinx).

Used only when both trees were exported by git (each then carries its commit's whole ``git
ls-tree``): a distribution's tree keeps the suggestions of :mod:`.suggest` alone.

* **Renamed files**: a file the lock cites that is gone at the new commit. The same blob under a new
  path is a rename at once (from the two listings, nothing fetched). Otherwise git's own rename
  detection (``git diff -M``) runs in a throwaway blobless clone of the two commits, limited to the
  cited gone files and the added files, so git fetches the blobs of those files only.
* **Moved definitions**: a definition removed from one file and added to another in the range is
  looked for, by its lines, among the definitions of the files the range added or changed (their
  blob ids differ between the listings).

The range is named in the suggestion's reason: ``renamed in 4f2a1b0..9c3d2e1: old/path.py →
new/path.py``.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..model.errors import GitError, SourceAnchorsError

if TYPE_CHECKING:
    from ..model.records import Suggestion
    from ..model.target import Target
    from ..reading.python import Ref
    from ..sources.trees import Tree
    from .catalog import Catalog
    from .suggester import Suggester

#: At most this many added paths are named to ``git diff`` (beyond that, no pathspec: git looks at
#: all).
_PATHSPEC_MAX = 2000


@dataclass(frozen=True)
class History:
    """What the range *old*..*new* did to files: renames of cited files, and the files it added or changed."""

    old: str
    new: str
    #: {old path: new path} for cited files that were renamed.
    renames: Mapping[str, str]
    #: Files of the new commit whose blob is new in the range (added, or changed).
    touched: frozenset[str]

    @property
    def span(self) -> str:
        """``4f2a1b0..9c3d2e1``."""
        return f"{self.old[:7]}..{self.new[:7]}"


def between(
    old: Tree, new: Tree, url: str, cited: Collection[str], *, timeout: float
) -> History | None:
    """The :class:`History` of *old*..*new* for the *cited* files of the lock; None unless both came from git."""
    if old.method != "git" or new.method != "git" or old.listing is None or new.listing is None:
        return None
    before, after = old.listing, new.listing
    added = sorted(path for path in after if path not in before)
    touched = frozenset(path for path, blob in after.items() if before.get(path) != blob)
    gone = [path for path in sorted(set(cited)) if path in before and path not in after]
    renames: dict[str, str] = {}
    by_blob: dict[str, list[str]] = {}
    for path in added:
        by_blob.setdefault(after[path], []).append(path)
    for path in gone:
        same = by_blob.get(before[path], [])
        if len(same) == 1:
            renames[path] = same[0]
    rest = [path for path in gone if path not in renames]
    if rest and added:
        # A remote that cannot be asked now: the exact renames and the moved definitions still
        # count.
        with contextlib.suppress(GitError, SourceAnchorsError, OSError):
            renames.update(git_renames(url, old.commit, new.commit, rest, added, timeout=timeout))
    return History(old.commit, new.commit, renames, touched)


def git_renames(
    url: str, old: str, new: str, gone: list[str], added: list[str], *, timeout: float
) -> dict[str, str]:
    """``git diff -M`` between two commits fetched blobless and shallow: {gone path: new path}."""
    from ..sources import proc
    from ..sources.gitexport import init_partial

    folder = Path(tempfile.mkdtemp(prefix="source-anchors-history."))
    repo = folder / "repo.git"
    repo.mkdir()

    def g(*args: str, stdin: bytes | None = None) -> bytes:
        return proc.git(list(args), cwd=repo, stdin=stdin, timeout=timeout)

    try:
        init_partial(g, repo, url)
        g(
            "fetch",
            "--quiet",
            "--depth=1",
            "--filter=blob:none",
            "--no-tags",
            "origin",
            "--end-of-options",
            old,
            new,
        )
        spec = [*gone, *added] if len(added) <= _PATHSPEC_MAX else []
        raw = g(
            "diff",
            "--no-ext-diff",
            "--no-textconv",
            "-M",
            "--name-status",
            "-z",
            "--diff-filter=R",
            old,
            new,
            "--",
            *spec,
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    fields = raw.decode("utf-8", "surrogateescape").split("\0")
    renames: dict[str, str] = {}
    wanted = set(gone)
    for i in range(0, len(fields) - 2, 3):
        status, source, target = fields[i : i + 3]
        if status.startswith("R") and source in wanted:
            renames[source] = target
    return renames


#: A definition of another name that moved is taken only when its lines are at least this similar.
MOVED_FLOOR = 0.9


def suggest_from(
    history: History, suggester: Suggester, target: Target, ref: Ref, text: str
) -> Suggestion | None:
    """Where *ref* (a missing top-level definition, its locked lines *text*) went, as the range tells.

    Its file renamed: the same name in the renamed module, its lines still similar. Else the most
    similar definition of its kind, new since the lock's commit, in a file the range added or
    changed (another than its own): of the same name or a similar one
    (:data:`~.linesuggest.NAME_FLOOR`), or of any name when its lines are :data:`MOVED_FLOOR`
    similar.
    """
    from ..model.errors import ResolveError
    from ..model.records import Suggestion
    from ..reading.python import module_of
    from .catalog import fresh, normal
    from .lines import NAME_FLOOR, THRESHOLD, name_similarity, versions

    assert ref.bind is not None
    new = suggester.new
    moved_to = history.renames.get(ref.file)
    if moved_to is not None:
        for name, folder in sorted(new.files.packages.items()):
            module = module_of(moved_to, name, folder)
            if module is None:
                continue
            try:
                location = new.resolve(f"{module}.{ref.qual}")
            except ResolveError:
                continue
            score = suggester.likeness.similarity(
                text, normal(new.file_lines(location.path)[location.start - 1 : location.end])
            )
            if score >= THRESHOLD:
                return Suggestion(
                    f"{module}.{ref.qual}",
                    round(score, 3),
                    f"renamed in {history.span}: {ref.file} → {moved_to}",
                    location.describe(),
                )
    catalog = suggester.catalog()
    among = _touched_defs(history, catalog) - catalog.in_file(ref.file)
    name = ref.qual.rpartition(".")[2]
    best: tuple[tuple[float, float], int] | None = None
    for number in catalog.nearest(text, ref.bind.kind, None, among):
        found = catalog.defs[number]
        other = found.qual.rpartition(".")[2]
        if versions(name, other):
            continue  # two versions of a thing (``RemovedInDjango50Warning``, ``…60…``), not one renamed
        # Never below the score: a candidate they put under the floor or the best so far is not
        # scored. The lower floor first, which needs no name compared.
        if any(
            upper < THRESHOLD or (best is not None and upper < best[0][0])
            for upper in suggester.likeness.bounds(text, catalog.texts[number])
        ):
            continue
        named = name_similarity(name, other)
        floor = THRESHOLD if named >= NAME_FLOOR else MOVED_FLOOR
        if floor > THRESHOLD and any(
            upper < floor for upper in suggester.likeness.bounds(text, catalog.texts[number])
        ):
            continue
        score = suggester.likeness.similarity(text, catalog.texts[number])
        if score < floor or not fresh(suggester.old, found, ref):
            continue
        if best is None or (score, named) > best[0]:
            best = ((score, named), number)
    if best is None:
        return None
    found = catalog.defs[best[1]]
    return suggester.made(
        target, ref.qual, found, best[0][0], f"moved in {history.span}: {ref.file} → {found.file}"
    )


#: The last range's top-level definitions in touched files, with the history and catalog they are
#: of.
_TOUCHED: list[tuple[History, Catalog, frozenset[int]]] = []


def _touched_defs(history: History, catalog: Catalog) -> frozenset[int]:
    """The top-level definitions in the files the range touched (a set: ``nearest`` tests membership)."""
    if not _TOUCHED or _TOUCHED[0][0] is not history or _TOUCHED[0][1] is not catalog:
        _TOUCHED[:] = [
            (
                history,
                catalog,
                frozenset(
                    n
                    for n, found in enumerate(catalog.defs)
                    if found.file in history.touched and "." not in found.qual
                ),
            )
        ]
    return _TOUCHED[0][2]
