"""An anchor record as Sphinx keeps it: a document name, a node id and a tuple in the pickled environment.

The core's :class:`~source_anchors.model.records.AnchorRecord` knows a page and a line; a Sphinx
page is a document (its name is the record's page) and an anchor on it is a node whose id,
``sa-<n>``, counts the page's anchors in reading order (the record's ``seq``). Sphinx pickles the
environment and the garbage collector walks every object that can hold others: tuples of plain
values are neither slow to pickle nor walked, objects are, so the domain keeps each record as
:func:`to_env`'s tuple and reads it back with :func:`from_env`.
"""

from __future__ import annotations

from typing import Any

from ..model.changeclass import ChangeClass
from ..model.records import AnchorRecord, Location, LockRecord, Outcome, Status, Suggestion
from ..model.subtypes import Subtype
from ..model.target import Target

#: An :class:`AnchorRecord` as the environment keeps it (see :func:`to_env`).
EnvForm = tuple[Any, ...]

# The slots of an :data:`EnvForm` that are read without building the record (the order of
# :func:`to_env`'s tuple); a ``loc`` or ``tgt`` slot holds a tuple in its dataclass's field order.
PAGE, LINE, NODE, LABEL, TEXT, STATUS = range(6)
TARGET, COMMIT, LOCATION, PERMALINK, FRESH, GROUP, CHANGE = 8, 9, 10, 12, 14, 15, 16


def node_id(record: AnchorRecord) -> str:
    """The id of the anchor's node on its page (``sa-<n>``), for back links."""
    return f"sa-{record.seq}"


def to_env(record: AnchorRecord) -> EnvForm:
    """The form kept in Sphinx's environment: nested tuples of strings and numbers."""
    out, tgt, loc, old = (
        record.outcome,
        record.outcome.target,
        record.outcome.location,
        record.outcome.locked,
    )
    return (
        record.page,
        record.line,
        node_id(record),
        record.label,
        out.text,
        out.status.value,
        out.message,
        out.subtype.value if out.subtype else None,
        (tgt.repo, tgt.path, tgt.match, tgt.defaulted) if tgt else None,
        out.commit,
        (
            loc.path,
            loc.start,
            loc.end,
            loc.kind,
            loc.sha256,
            loc.blob,
            loc.uses,
            loc.rule,
            loc.others,
            loc.caveat,
        )
        if loc
        else None,
        (old.commit, old.path, old.start, old.end, old.sha256, old.blob, old.uses) if old else None,
        out.permalink,
        out.resolve_error,
        out.fresh,
        out.group,
        out.change_class.value if out.change_class else None,
        out.diff,
        (out.suggestion.key, out.suggestion.similarity, out.suggestion.reason, out.suggestion.where)
        if out.suggestion
        else None,
    )


def from_env(form: EnvForm) -> AnchorRecord:
    """Read :func:`to_env`'s form."""
    (
        doc,
        line,
        id_,
        label,
        text,
        status,
        message,
        subtype,
        tgt,
        commit,
        loc,
        old,
        permalink,
        resolve_error,
        fresh,
        group,
        change,
        diff,
        suggestion,
    ) = form
    outcome = Outcome(
        text,
        _STATUS[status],
        message=message,
        subtype=_SUBTYPE[subtype] if subtype else None,
        target=Target(*tgt) if tgt else None,
        commit=commit,
        location=Location(*loc) if loc else None,
        locked=LockRecord(*old) if old else None,
        permalink=permalink,
        resolve_error=resolve_error,
        fresh=fresh,
        group=group,
        change_class=_CHANGE[change] if change else None,
        diff=diff,
        suggestion=Suggestion(*suggestion) if suggestion else None,
    )
    return AnchorRecord(page=doc, line=line, label=label, outcome=outcome, seq=_seq(id_))


def env_status(form: EnvForm) -> Status:
    """The status of a record in :func:`to_env`'s form, without reading the rest."""
    return _STATUS[form[STATUS]]


def env_pending(form: EnvForm) -> bool:
    """Whether a record in :func:`to_env`'s form asks for work when reading ends.

    That is a ``new`` anchor to lock, a fresh resolution to store, or a shared failure to report.
    """
    return form[STATUS] == Status.new.value or form[FRESH] or form[GROUP] is not None


def env_report(form: EnvForm) -> dict[str, Any]:
    """:meth:`AnchorRecord.to_json` of a record in :func:`to_env`'s form, without building the record."""
    tgt, loc = form[TARGET], form[LOCATION]
    return {
        "doc": form[PAGE],
        "line": form[LINE],
        "label": form[LABEL],
        "target": f"{tgt[0]}:{tgt[1]}" + (f"::{tgt[2]}" if tgt[2] is not None else "")
        if tgt
        else form[TEXT],
        "repo": tgt[0] if tgt else None,
        "commit": form[COMMIT],
        "path": loc[0] if loc else None,
        "start": loc[1] if loc else None,
        "end": loc[2] if loc else None,
        "permalink": form[PERMALINK],
        "status": form[STATUS],
        "change": form[CHANGE],
    }


def env_order(form: EnvForm) -> tuple[str, int, int]:
    """:attr:`AnchorRecord.order` of a record in :func:`to_env`'s form."""
    return form[PAGE], form[LINE], _seq(form[NODE])


def env_stored(form: EnvForm) -> EnvForm:
    """*form* with ``fresh`` off: its resolution is in the persistent cache now."""
    return (*form[:FRESH], False, *form[FRESH + 1 :]) if form[FRESH] else form


def _seq(node: str) -> int:
    """The reading order in a node id (``sa-3``: 3)."""
    return int(node.rpartition("-")[2])


_STATUS = {status.value: status for status in Status}
_SUBTYPE = {subtype.value: subtype for subtype in Subtype}
_CHANGE = {change.value: change for change in ChangeClass}
