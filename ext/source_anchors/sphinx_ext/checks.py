"""Checks of the whole book, run once per build after reading (``env-updated``), in the main process.

Per-anchor warnings are emitted while pages are read; what concerns many anchors at once is
reported here, once: a repository that cannot be obtained or a missing lock (one warning per
cause, naming the anchors it affects), and upstream lines pasted into literal blocks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from ..core.caches import line_index_cached
from ..core.errors import SourceAnchorsError
from ..core.records import AnchorRecord
from .diagnostics import Subtype, warn
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
        first, pages = group[0], sorted({r.doc for r in group})
        shown = ", ".join(pages[:5]) + (", …" if len(pages) > 5 else "")
        assert first.outcome.subtype is not None
        warn(f"{first.outcome.message} [{len(group)} anchor(s) on {len(pages)} page(s) affected: {shown}]",
             first.outcome.subtype, location=(first.doc, first.line))


def check_reproduced(state: BuildState, domain: SourceAnchorsDomain) -> None:
    """Count the upstream lines the book's literal blocks reproduce; warn at each page past the limit."""
    literals = domain.data["literals"]
    blocks = [(doc, line, text) for doc in sorted(literals) for line, text in literals[doc]]
    if not blocks:
        domain.data["reproduced"] = 0
        return
    from ..core.reproduce import count_reproduced

    engine = state.engine
    index: dict[str, tuple[str, int]] = {}
    for repo, pin in sorted(engine.pins.items(), reverse=True):  # the first repository wins a shared line
        try:
            index.update(line_index_cached(engine.settings.cache_dir, repo, pin, engine.tree(repo),
                                           max_file_bytes=engine.settings.max_file_bytes))
        except SourceAnchorsError:
            continue
    result = count_reproduced(blocks, index)
    domain.data["reproduced"] = result.total
    if result.total > state.settings.reproduced_lines_max and not state.quiet:
        for hit in result.hits:
            warn(f"literal block reproduces upstream line {hit.upstream_path}:{hit.upstream_line}",
                 Subtype.reproduced, location=(hit.docname, hit.line))
