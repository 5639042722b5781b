"""What the two generated pages share: links, the root licence of a pin, one warning per missing extra.

The source ledger (:mod:`.ledger`) and the licence notes (:mod:`.licnotes`) both show a pin's root
licence; both import it from here.
"""

from __future__ import annotations

from docutils import nodes

from ..engine.caches import identify_cached
from ..engine.engine import Engine
from ..model.errors import MissingExtraError, SourceAnchorsError
from .diagnostics import warn
from .i18n import _


def link(text: str, uri: str) -> nodes.reference:
    """A link to *uri* reading *text*."""
    return nodes.reference("", text, refuri=uri)


def root_licences(
    engine: Engine, repo: str, docname: str
) -> tuple[str | None, str, frozenset[str]]:
    """(path, "SPDX-ID (score)", every SPDX id identified in the root licence files) of *repo*'s pin."""
    try:
        tree = engine.tree(repo)
    except SourceAnchorsError:
        return None, _("not identified"), frozenset()
    from ..licences.identify import is_root_licence  # generated pages only

    candidates = sorted(p for p in tree.blobs if is_root_licence(p))
    first: tuple[str, str] | None = None
    ids: set[str] = set()
    for path in candidates:
        try:
            data = tree.read_bytes(path)  # a distribution's licence file must be the commit's too
            match = identify_cached(engine.settings.cache_dir, tree.blobs[path], data)
        except MissingExtraError as error:
            warn_once(error, docname)
            return path, _("not identified"), frozenset()
        except SourceAnchorsError as error:
            first = first or (
                path,
                _("{unknown} ({error})").format(unknown=_("not identified"), error=error),
            )
            continue
        if match:
            if not ids:  # the first identified text is the one shown, as before
                first = (
                    path,
                    _("{spdx} (score {score})").format(
                        spdx=match.spdx_id, score=f"{match.score:.2f}"
                    ),
                )
            ids.add(match.spdx_id)
    if first is not None:
        return first[0], first[1], frozenset(ids)
    return (candidates[0] if candidates else None), _("not identified"), frozenset()


_WARNED: set[str] = set()


def warn_once(error: MissingExtraError, docname: str) -> None:
    """One warning per build process for a missing optional package (the page still renders)."""
    if str(error) not in _WARNED:
        _WARNED.add(str(error))
        warn(f"licence-notes: {error}", error.subtype, location=(docname, None))
