"""The ``{src}`` role and the ``source-anchor`` directive: target text -> node + record."""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective, SphinxRole

from ..core.engine import Outcome
from ..core.errors import TargetError
from ..core.pages import PageSource
from ..core.target import Target, parse_target, split_label
from .diagnostics import Subtype, warn
from .domain import get_domain
from .state import BuildState, get_state

#: Statuses that a build always reports as warnings (so ``-W`` fails on them).
_DRIFT = {"moved": Subtype.moved, "changed": Subtype.changed, "missing": Subtype.missing}


class _Anchoring:
    """Shared by role and directive: parse, check, record, warn."""

    def anchor(self, state: BuildState, env: Any, *, label: str, text: str, line: int,
               page: PageSource) -> dict[str, Any]:
        docname: str = env.docname
        page_repo = page.front_matter.get("source-repo")
        default = page_repo if isinstance(page_repo, str) else state.settings.default_repo
        domain = get_domain(env)
        number = len(domain.anchors.get(docname, [])) + 1
        record: dict[str, Any] = {
            "doc": docname, "line": line, "label": label, "target": text.strip(), "id": f"sa-{number}",
            "repo": None, "commit": None, "path": None, "start": None, "end": None,
            "permalink": None, "status": "error", "message": "", "kind": None,
        }
        try:
            target = parse_target(text, default_repo=default)
        except TargetError as error:
            record["message"] = f"{error}"
            self._warn(state, record, Subtype.target, (docname, line))
            domain.add_anchor(docname, record)
            return record
        outcome = state.engine.check(target)
        record.update(_fields(target, outcome, state))
        if outcome.status in _DRIFT:
            self._warn(state, record, _DRIFT[outcome.status], (docname, line))
        elif outcome.status == "new" and state.settings.locked:
            record["message"] = (f"new: {target} at {outcome.location.describe() if outcome.location else '?'}"
                                 f" is not in {state.settings.lock_path.name} and this build is locked; "
                                 "run 'make relock' and commit the lock")
            self._warn(state, record, Subtype.new, (docname, line))
        elif outcome.status == "error":
            self._warn(state, record, Subtype(outcome.error_kind or "source"), (docname, line))
        domain.add_anchor(docname, record)
        return record

    @staticmethod
    def _warn(state: BuildState, record: dict[str, Any], subtype: Subtype,
              location: tuple[str, int]) -> None:
        if not state.quiet:
            warn(record["message"], subtype, location=location)


def _page(state: BuildState, env: Any) -> PageSource:
    docname: str = env.docname
    return state.page(docname, lambda: env.doc2path(docname))


def _fields(target: Target, outcome: Outcome, state: BuildState) -> dict[str, Any]:
    pin = state.engine.pins.get(target.repo)
    loc = outcome.location
    fields: dict[str, Any] = {
        "target": f"{target.repo}:{target.key}", "repo": target.repo, "key": target.key,
        "commit": pin.commit if pin else None, "status": outcome.status, "message": outcome.message,
        "permalink": outcome.permalink, "error_kind": outcome.error_kind,
        "resolve_error": outcome.resolve_error, "fresh": outcome.fresh,
    }
    if loc is not None:
        fields.update(path=loc.path, start=loc.start, end=loc.end, kind=loc.kind,
                      sha256=loc.sha256, blob=loc.blob, uses=dict(loc.uses))
    if outcome.record is not None:
        old = outcome.record
        fields["locked"] = {"commit": old.commit, "path": old.path, "start": old.start, "end": old.end}
    return fields


def tooltip(record: dict[str, Any]) -> str:
    """Hover text: repo, path, lines, short commit; plus the status when it is not ok."""
    if record.get("path") is None:
        return f"{record['status']}: {record['message']}"
    lines = "" if record.get("kind") == "module" else f":L{record['start']}" + (
        f"–L{record['end']}" if record["end"] != record["start"] else "")
    text = f"{record['repo']} · {record['path']}{lines} @ {str(record['commit'])[:7]}"
    if record["status"] not in ("ok", "new"):
        text += f" · {record['status']}"
    return text


def location_text(record: dict[str, Any]) -> str:
    """``path:Lstart–Lend@sha`` as printed after the label."""
    if record.get("path") is None:
        return ""
    lines = "" if record.get("kind") == "module" else f":L{record['start']}" + (
        f"–L{record['end']}" if record["end"] != record["start"] else "")
    return f"{record['path']}{lines}@{str(record['commit'])[:7]}"


def _classes(record: dict[str, Any]) -> list[str]:
    return ["sa-anchor", f"sa-{record['status']}"]


class SourceRole(SphinxRole, _Anchoring):
    """``{src}`label <[repo:]dotted.path[::match]>``: an inline permalink to pinned lines."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        """Resolve the target and return a reference (or plain text when it cannot link)."""
        state = get_state(str(self.env.srcdir))
        label, text = split_label(self.text)
        docname = self.env.docname
        page = _page(state, self.env)
        nth = state.next_occurrence(docname, self.lineno, self.rawtext)
        line = page.line_of(self.rawtext, near=self.lineno, nth=nth)
        record = self.anchor(state, self.env, label=label, text=text, line=line, page=page)
        return [_inline(record, label, self.rawtext)], []


class anchor_reference(nodes.reference):  # type: ignore[misc]  # docutils is untyped here
    """A linked chip: a reference whose HTML also carries the location (``sa_location``).

    The doctree holds just the reference and its label, as a plain link would: a
    chapter has hundreds of chips, and every node more is walked by each transform,
    pickled and indexed for search. The HTML writer adds the label and location
    spans (:func:`visit_anchor_html`); other builders treat it as a reference.
    """


def visit_anchor_html(self: Any, node: anchor_reference) -> None:
    """``<a …><span class="sa-label">`` (the label follows as the node's text)."""
    atts = {"class": "reference external", "href": node["refuri"]}
    if node.get("reftitle"):
        atts["title"] = node["reftitle"]
    self.body.append(self.starttag(node, "a", "", **atts) + '<span class="sa-label">')


def depart_anchor_html(self: Any, node: anchor_reference) -> None:
    """``</span><span class="sa-where">path:Lx–Ly@sha</span></a>``."""
    where = node.get("sa_location")
    self.body.append("</span>" + (f'<span class="sa-where">{self.encode(where)}</span>' if where else "") + "</a>")


def _inline(record: dict[str, Any], label: str, rawtext: str) -> nodes.Node:
    node: nodes.Element
    if record.get("permalink"):
        node = anchor_reference(rawtext, label, refuri=record["permalink"], reftitle=tooltip(record),
                                classes=_classes(record))
        if record.get("path"):
            node["sa_location"] = location_text(record)
        node["ids"] = [record["id"]]
        return node
    node = nodes.inline(rawtext, "", classes=_classes(record))
    node["reftitle"] = tooltip(record)
    node += nodes.inline("", label, classes=["sa-label"])
    if record.get("path"):
        node += nodes.inline("", location_text(record), classes=["sa-where"])
    node["ids"] = [record["id"]]
    return node


class SourceAnchorDirective(SphinxDirective, _Anchoring):
    """A block anchor: a card with label, repo@short commit, path:lines and the permalink."""

    # Optional, so an empty target gets our own located ``target`` warning and a report record.
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict[str, Any]] = {"caption": directives.unchanged, "class": directives.class_option}

    def run(self) -> list[nodes.Node]:
        """Resolve the target and return the card."""
        state = get_state(str(self.env.srcdir))
        text = self.arguments[0] if self.arguments else ""
        label = self.options.get("caption") or text
        record = self.anchor(state, self.env, label=label, text=text, line=self.lineno,
                             page=_page(state, self.env))
        card = nodes.container(classes=["sa-card", *(_classes(record)[1:]), *self.options.get("class", [])])
        card["ids"] = [record["id"]]
        title = nodes.paragraph(classes=["sa-card-title"])
        if record.get("permalink"):
            title += nodes.reference("", label, refuri=record["permalink"], reftitle=tooltip(record))
        else:
            title += nodes.Text(label)
        card += title
        meta = nodes.paragraph(classes=["sa-card-meta"])
        if record.get("path"):
            pin_text = f"{record['repo']}@{str(record['commit'])[:7]}"
            meta += nodes.literal("", pin_text)
            meta += nodes.Text(" · ")
            meta += nodes.literal("", location_text(record).rsplit("@", 1)[0])
        else:
            meta += nodes.Text(f"{record['status']}: {record['message']}")
        card += meta
        self.set_source_info(card)
        return [card]
