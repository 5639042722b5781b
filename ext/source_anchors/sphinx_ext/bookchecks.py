"""Checks of the whole book, run once per build after reading (``env-updated``), in the main process.

Per-anchor warnings are emitted while pages are read; what concerns many anchors at once is
reported here, once: a repository that cannot be obtained or a missing lock (one warning per
cause, naming the anchors it affects), upstream lines pasted into literal blocks, files that
``self:`` anchors cite with uncommitted edits, and, in a locked build, a pin's ``ref`` that has
moved away from its commit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from ..engine.caches import line_index_cached
from ..model.config import SELF
from ..model.errors import GitError, RefError, SourceAnchorsError
from ..model.records import AnchorRecord
from .diagnostics import LOGGER, WARNING_TYPE, Subtype, warn
from .domain import SourceAnchorsDomain
from .state import BuildState


def warn_groups(state: BuildState, records: Iterable[AnchorRecord]) -> None:
    """One warning per shared cause, at its first anchor, with how many anchors on how many pages it affects."""
    if state.quiet:
        return
    groups: dict[str, list[AnchorRecord]] = defaultdict(list)
    for record in records:
        if record.outcome.group is not None and record.outcome.subtype is not None:
            groups[record.outcome.group].append(record)
    for group in groups.values():
        group.sort(key=lambda r: r.order)
        first, pages = group[0], sorted({r.page for r in group})
        shown = ", ".join(pages[:5]) + (", …" if len(pages) > 5 else "")
        assert first.outcome.subtype is not None
        warn(
            f"{first.outcome.message} [{len(group)} anchor(s) on {len(pages)} page(s) affected: {shown}]",
            first.outcome.subtype,
            location=(first.page, first.line),
        )


def check_reproduced(state: BuildState, domain: SourceAnchorsDomain) -> None:
    """Count the upstream lines the book's literal blocks reproduce; warn at each page past the limit."""
    literals = domain.data["literals"]
    blocks = [(doc, line, text) for doc in sorted(literals) for line, text in literals[doc]]
    if not blocks:
        domain.data["reproduced"] = 0
        return
    from ..licences.reproduce import count_reproduced

    engine = state.engine
    index: dict[str, tuple[str, int]] = {}
    # the first repository wins a shared line
    for repo, pin in sorted(engine.pins.items(), reverse=True):
        try:
            index.update(
                line_index_cached(
                    engine.settings.cache_dir,
                    repo,
                    pin,
                    engine.tree(repo),
                    max_file_bytes=engine.settings.max_file_bytes,
                )
            )
        except SourceAnchorsError:
            continue
    result = count_reproduced(blocks, index)
    domain.data["reproduced"] = result.total
    if result.total > state.settings.reproduced_lines_max and not state.quiet:
        for hit in result.hits:
            warn(
                f"literal block reproduces upstream line {hit.upstream_path}:{hit.upstream_line}",
                Subtype.reproduced,
                location=(hit.docname, hit.line),
            )


#: Seconds one ``git ls-remote`` of the moved-ref check may take (the build's own timeout if lower).
REF_TIMEOUT = 30


def check_refs(state: BuildState, *, suppressed: Iterable[str] = ()) -> None:
    """Warn once per pin whose ``ref`` now names another commit (one ``git ls-remote`` per such pin).

    Only a locked build asks (CI, or ``source_anchors_locked``), only for pins with a ``ref`` and
    ``git`` among their sources, and not when ``source-anchors.ref`` is suppressed: a local preview
    build never touches the network for it. An unreachable remote is an info line, never a warning.
    """
    off = set(suppressed)
    if (
        state.quiet
        or not state.settings.locked
        or {WARNING_TYPE, f"{WARNING_TYPE}.{Subtype.ref}"} & off
    ):
        return
    from ..sources.gitrefs import mismatch, moved_ref

    conf = "conf.py"
    for name, pin in sorted(state.engine.pins.items()):
        if pin.ref is None or "git" not in pin.sources:
            continue
        where = f"source_anchors_repos[{name!r}]['ref']"
        try:
            timeout = min(REF_TIMEOUT, state.settings.timeout or REF_TIMEOUT)
            now = moved_ref(pin, timeout=timeout)
        except RefError as error:
            warn(
                f"{conf}: {where}: {error}; the pinned commit {pin.short} is still read",
                Subtype.ref,
                location=None,
            )
            continue
        except GitError as error:
            LOGGER.info(
                "source-anchors: %s %r not checked, %s is unreachable (%s)",
                where,
                pin.ref,
                pin.shown_url,
                error,
            )
            continue
        if now is not None:
            warn(f"{conf}: {mismatch(pin, now, timeout=timeout)}", Subtype.ref, location=None)


def check_uncommitted(
    state: BuildState, domain: SourceAnchorsDomain, *, suppressed: Iterable[str] = ()
) -> None:
    """One warning naming the files ``self:`` anchors cite that have uncommitted edits (one ``git status``).

    ``self`` is read at HEAD from git's objects, so those anchors show the committed lines, not the
    ones being edited; the warning stands at the first anchor that cites such a file.
    """
    off = set(suppressed)
    if state.quiet or {WARNING_TYPE, f"{WARNING_TYPE}.{Subtype.uncommitted}"} & off:
        return
    cited: dict[str, AnchorRecord] = {}
    for record in domain.all_anchors():
        outcome = record.outcome
        if outcome.target is None or outcome.target.repo != SELF:
            continue
        place = outcome.location or outcome.locked
        if place is not None and (
            place.path not in cited or record.order < cited[place.path].order
        ):
            cited[place.path] = record
    changed = state.engine.uncommitted(cited)
    if not changed:
        return
    pin = state.engine.pins[SELF]
    first = min((cited[path] for path in changed), key=lambda r: r.order)
    warn(
        f"{len(changed)} file(s) that 'self:' anchors cite have uncommitted edits, and the anchors "
        f"show them as committed at HEAD ({pin.short}): {', '.join(changed)}; commit them (or build "
        "from a clean checkout) to check what you are editing",
        Subtype.uncommitted,
        location=(first.page, first.line),
    )
