"""Sphinx glue of API source links: every Python object description gets a ``[source]`` link.

With ``source_anchors_api_links`` set, each ``py`` object description (autodoc's or a hand-written
``py:function``) and each ``py:module`` is resolved statically (:mod:`..core.apilinker`) and linked
to its line range at the commit being built. Objects without Python source are counted in one
summary line at the end of the build, never warned about one by one.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

from ..engine.apilinker import Linker, OwnLinker, PinnedLinker
from ..engine.engine import UPDATE_COMMAND
from ..model.config.api import SELF, ApiSettings
from ..model.records import Outcome, Status
from ..resolve.apiobjects import ApiLink, Reason, dotted
from ..sources import apigit
from . import apilines, apinodes, linkcode
from .apidomain import ApiLinksDomain, get_api_domain
from .diagnostics import LOGGER, WARNING_TYPE, Subtype, setting_location, warn
from .state import get_state

_LINKERS: dict[str, Linker | None] = {}


def setup(app: Sphinx) -> None:
    """Register the domain, the node and the event handlers of API source links."""
    app.add_domain(ApiLinksDomain)
    apinodes.setup(app)
    app.connect("config-inited", _config_inited, priority=600)  # after the extension's own settings
    app.connect("builder-inited", _builder_inited)
    app.connect("env-get-outdated", _outdated)
    app.connect("doctree-read", _doctree_read)
    app.connect("env-updated", _env_updated)
    app.connect("build-finished", _summary)


def linker_of(app: Sphinx) -> Linker | None:
    """The linker of *app*'s project (None when API links are off)."""
    return _LINKERS.get(str(app.srcdir))


def _config_inited(app: Sphinx, config: Config) -> None:
    state = get_state(str(app.srcdir))
    api = state.settings.api
    if api is None and linkcode.is_dropin(config):
        # the drop-in's one import line asks for the own repository's links
        api = ApiSettings(links=SELF)
    linker: Linker | None = None
    if api is not None and api.links == SELF:
        own = state.engine.own_source(api, confdir=Path(app.confdir))
        if isinstance(own, str):
            LOGGER.warning(
                "%s: source_anchors: %s",
                Path(app.confdir) / "conf.py",
                own,
                type=WARNING_TYPE,
                subtype=Subtype.api.value,
            )
        else:
            linker = OwnLinker(
                own,
                max_file_bytes=state.settings.max_file_bytes,
                overrides=api.overrides,
                compiled_store=state.engine.compiled_store(),
            )
    elif api is not None:
        linker = PinnedLinker(state.engine, api.links, overrides=api.overrides)
    _LINKERS[str(app.srcdir)] = linker
    linkcode.use(linker)
    if linker is not None:
        _doubled_links(app, config)


def _doubled_links(app: Sphinx, config: Config) -> None:
    """One warning, at conf.py, when another extension writes a second ``[source]`` link on every signature."""
    others = [
        name
        for name in ("sphinx.ext.viewcode", "sphinx.ext.linkcode")
        if name in app.extensions
        and not (name == "sphinx.ext.linkcode" and linkcode.is_dropin(config))
    ]
    if not others:
        return
    names = " and ".join(repr(name) for name in others)
    also = (
        "; or keep sphinx.ext.linkcode with 'from source_anchors.linkcode import linkcode_resolve' in conf.py"
        if "sphinx.ext.linkcode" in others
        else ""
    )
    conf = Path(app.confdir)
    warn(
        f"{names} {'write' if len(others) > 1 else 'writes'} a second [source] link on every signature beside "
        f"source_anchors_api_links: remove {names} from extensions: source_anchors_api_links already links every "
        f"object{also} (suppress_warnings = ['{WARNING_TYPE}.{Subtype.doubled}'] keeps both)",
        Subtype.doubled,
        location=setting_location(conf, "extensions") or str(conf / "conf.py"),
    )


def _builder_inited(app: Sphinx) -> None:
    """With API links on, autodoc's descriptions are stamped with their directive's page line."""
    if linker_of(app) is not None:
        apilines.locate_autodoc(app)


def _outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Pages linked at another commit (or with links now off, or on) are read again."""
    domain = get_api_domain(env)
    linker = linker_of(app)
    source = linker.source if linker is not None else ""
    if domain.data["source"] == source:
        return _environment_changed(domain, added | changed)
    domain.data["source"] = source
    again = (
        set(domain.data["objects"]) if domain.data["objects"] or not source else set(env.all_docs)
    )
    return sorted((again & set(env.found_docs)) - added - changed)


def _environment_changed(domain: ApiLinksDomain, read: set[str]) -> list[str]:
    """Every linked page, when an optional module that decided a link has come or gone since (else none).

    A module's branches are decided once per build, for whichever page links it first, so every page
    with links is read again, not only the one that recorded the module.
    """
    from ..reading.python import importable

    asked: dict[str, bool] = {}
    for found in domain.data["found"].values():
        asked.update(found)
    moved = sorted(name for name, was in asked.items() if importable(name) != was)
    if not moved:
        return []
    LOGGER.info(
        "source-anchors: API links: pages read again: %s %s since the last build",
        ", ".join(moved),
        "was installed or removed" if len(moved) == 1 else "were installed or removed",
    )
    return sorted(set(domain.data["objects"]) - read)


def _doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    """Link every Python object description and module of the page just read."""
    linker = linker_of(app)
    if linker is None:
        return
    domain, docname = get_api_domain(app.env), app.env.docname
    html = not linkcode.is_dropin(app.config) or "sphinx.ext.linkcode" not in app.extensions
    page = str(app.env.doc2path(docname))
    for desc in list(doctree.findall(addnodes.desc)):
        if desc.get("domain") != "py":
            continue
        for sig in desc.children:
            if isinstance(sig, addnodes.desc_signature) and sig.get("fullname"):
                _link(
                    linker,
                    domain,
                    docname,
                    sig,
                    sig.get("module"),
                    sig["fullname"],
                    html=html,
                    line=apilines.page_line(sig, page),
                )
    if isinstance(linker, OwnLinker):
        found = linker.take_found()
        if found:
            domain.data["found"][docname] = found
    modules = app.env.domaindata["py"]["modules"]
    for name, entry in sorted(modules.items()):
        place = _module_place(doctree, entry[1]) if entry[0] == docname else None
        if place is not None:
            holder = nodes.paragraph(classes=["sa-api-module"])
            line = apilines.module_line(doctree, entry[1], page)
            if _link(linker, domain, docname, holder, name, "", html=True, line=line):
                place[0].insert(place[1], holder)


def _module_place(doctree: nodes.document, node_id: str) -> tuple[nodes.Element, int] | None:
    """Where a module's link goes: after its target, or after the title of the section its id moved to.

    docutils moves a target's id to the section that follows it (``PropagateTargets``), leaving the
    target with a ``refid``.
    """
    for target in doctree.findall(nodes.target):
        if target.get("ismod") and (node_id in target["ids"] or target.get("refid") == node_id):
            parent = target.parent
            at = next((n for n, child in enumerate(parent.children) if child is target), None)
            if at is not None:
                return parent, at + 1
    for section in doctree.findall(nodes.section):
        if node_id in section["ids"] and section.children and isinstance(section[0], nodes.title):
            return section, 1
    return None


def _link(
    linker: Linker,
    domain: ApiLinksDomain,
    docname: str,
    into: nodes.Element,
    module: str | None,
    fullname: str,
    *,
    html: bool,
    line: int,
) -> bool:
    """Link one object, described at *line* of the page, into *into* and record it; whether it got a link."""
    result = linker.link(module, fullname)
    outcome = linker.take_outcome()
    if outcome is not None:
        domain.data["outcomes"].setdefault(docname, []).append((line, outcome))
    if isinstance(result, ApiLink):
        node = apinodes.make(result)
        node["sa_html"] = html
        into += node
        domain.add(
            docname,
            (module or "", fullname, line, result.path, result.start, result.end, "", result.rule),
        )
        return True
    # The listing says which module's __getattr__ serves a name, or why a compiled binding is not
    # read; the summary counts the reason.
    said = result.detail if result.reason in (Reason.served, Reason.compiled) else ""
    domain.add(docname, (module or "", fullname, line, "", 0, 0, result.reason.value, said))
    return False


def _env_updated(app: Sphinx, env: BuildEnvironment) -> None:
    """Lock a pinned repository's new links and report its drift; name the uncommitted files once."""
    linker = linker_of(app)
    domain = get_api_domain(env)
    if isinstance(linker, PinnedLinker):
        found: list[tuple[str, int, Outcome]] = [
            (doc, line, outcome)
            for doc in sorted(domain.data["outcomes"])
            for line, outcome in domain.data["outcomes"][doc]
        ]
        state = get_state(str(app.srcdir))
        added = state.engine.lock_new(outcome for _, _, outcome in found)
        if added:
            LOGGER.info(
                "source-anchors: recorded %d new API link(s) in %s",
                added,
                state.settings.lock_path.name,
            )
        for doc, line, outcome in found:
            if outcome.subtype is not None:  # drift, or a link the lock lacks in a locked build
                warn(outcome.message, outcome.subtype, location=(doc, line))
        if state.settings.locked and any(
            outcome.status is not Status.ok for _, _, outcome in found
        ):
            # As for anchors: a locked build whose links do not match the lock fails, -W or not.
            LOGGER.error(
                "API links into %s do not match %s in this locked build; run '%s' and commit the lock",
                linker.repo,
                state.settings.lock_path.name,
                UPDATE_COMMAND,
                type=WARNING_TYPE,
                subtype=Subtype.lock.value,
            )
            app.statuscode = 1
    if isinstance(linker, OwnLinker) and linker.own.checkout is not None:
        files = sorted({row[3] for _, row in domain.rows() if row[3]})
        changed = apigit.changed_files(
            linker.own.checkout, files, timeout=get_state(str(app.srcdir)).settings.timeout
        )
        if changed:
            warn(
                f"{len(changed)} documented file(s) differ from the commit {linker.own.pin.commit[:7]} the source "
                f"links name, so those links do not show what the pages describe: {', '.join(changed)}; commit "
                "them (or build from a clean checkout)",
                Subtype.api,
                location=None,
            )


def _summary(app: Sphinx, exception: BaseException | None) -> None:
    """One line: objects described, linked, and not linked by reason; the list of them on request."""
    linker = linker_of(app)
    if exception is not None or linker is None:
        return
    rows = get_api_domain(app.env).rows()
    unlinked = [(doc, row) for doc, row in rows if row[6]]
    reasons: dict[str, int] = {}
    for _, row in unlinked:
        reasons[row[6]] = reasons.get(row[6], 0) + 1
    why = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items()))
    api = get_state(str(app.srcdir)).settings.api
    hint = (
        ""
        if not unlinked or (api and api.list_unlinked)
        else "; source_anchors_api_list_unlinked = True lists them"
    )
    LOGGER.info(
        "source-anchors: API links: %d objects described, %d linked, %d without a link%s%s",
        len(rows),
        len(rows) - len(unlinked),
        len(unlinked),
        f" ({why})" if why else "",
        hint,
    )
    # This process's parses (a parallel build's readers parse in their own processes).
    LOGGER.info(
        "source-anchors: API links: %d modules parsed by this process (%d ast parses)",
        linker.modules_parsed(),
        linker.ast_parses(),
    )
    stored = linker.compiled_stored()
    if stored is not None:
        LOGGER.info(
            "source-anchors: API links: compiled bindings %s",
            "taken from the cache"
            if stored
            else f"read, {linker.compiled_parses()} files parsed by a language core",
        )
    if api is not None and api.list_unlinked:
        for doc, row in unlinked:
            LOGGER.info(
                "%s:%d: %s: no link: %s",
                app.env.doc2path(doc),
                row[2],
                dotted(row[0], row[1]),
                row[7] or row[6],
            )
