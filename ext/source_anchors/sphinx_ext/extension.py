"""Sphinx glue: config, events, report (the only module that wires the core into Sphinx)."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import re
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import quote

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

from ..engine.engine import UPDATE_COMMAND, Engine
from ..model.cachedir import usable_cache
from ..model.config import PREFIX, Options, option_default, settings_from
from ..model.errors import ConfigError, LockError
from ..model.records import Status
from . import annotate, apilinks, bookchecks, docs, feedback, i18n, ledger, printed, render
from .diagnostics import LOGGER, WARNING_TYPE, Subtype, setting_location, warn
from .domain import SourceAnchorsDomain, get_domain
from .roles import SourceAnchorDirective, SourceRole
from .state import get_state, page_markup, register
from .syntax import foreign_anchors, suspect

REPORT_NAME = "source-anchors.json"
STATS_NAME = "source-anchors.stats.json"


def setup(app: Sphinx) -> None:
    """Register config values, role, directives, domain and event handlers."""
    for option in dataclasses.fields(Options):
        app.add_config_value(
            PREFIX + option.name,
            option_default(option),
            "env",
            types=option.metadata["types"],
            description=option.metadata["help"],
        )
    app.add_domain(SourceAnchorsDomain)
    i18n.setup(app)
    render.setup(app)
    app.add_role("src", SourceRole())
    app.add_directive("source-anchor", SourceAnchorDirective)
    ledger.setup(app)
    feedback.setup(app)
    printed.setup(app)
    docs.setup(app)
    apilinks.setup(app)
    app.connect("config-inited", _config_inited)
    app.connect("env-purge-doc", _purge_doc)
    # late: the text after other extensions' edits
    app.connect("source-read", _source_read, priority=900)
    app.connect("env-get-outdated", _outdated)
    app.connect("doctree-read", _doctree_read)
    app.connect("env-before-read-docs", _start_reading)
    app.connect("env-updated", _env_updated)
    app.connect("build-finished", _write_report)
    app.add_css_file("source-anchors.css")
    app.connect("builder-inited", _drop_truncated_buildinfo)


def _config_inited(app: Sphinx, config: Config) -> None:
    values = {field.name: config[PREFIX + field.name] for field in dataclasses.fields(Options)}
    try:
        settings = settings_from(values, confdir=Path(app.confdir))
        # An unwritable cache (a read-only $HOME in CI) is not fatal: this build keeps its own.
        settings = usable_cache(settings, Path(app.doctreedir) / "source-anchors-cache")
        settings = feedback.derived_channel(settings, Path(app.confdir))
        engine = Engine(settings)
    except ConfigError as error:
        _fatal(
            "invalid configuration:\n" + "\n".join(f"  {line}" for line in str(error).splitlines()),
            location=str(Path(app.confdir) / "conf.py"),
        )
    except LockError as error:
        _fatal(str(error), location=None)
    register(str(app.srcdir), settings=settings, engine=engine)
    if settings.cache_note and not settings.quiet:
        chosen_in_conf = "conf.py" in settings.cache_from
        warn(
            f"source_anchors: {settings.cache_note}",
            Subtype.unwritable,
            location=setting_location(Path(app.confdir), PREFIX + "cache_dir")
            if chosen_in_conf
            else None,
        )
    _linkcheck_skips_line_fragments(config, engine)
    _add_static(app)
    if "linkcheck-process-uri" in app.events.events:
        app.connect("linkcheck-process-uri", _one_request_per_page)


def _permalink_prefixes(engine: Engine) -> list[str]:
    """What every permalink of each pin starts with (its URL and commit, as the host's template puts them)."""
    marker = "\x00"  # a path no file has: what the template puts before it is the pin's prefix
    return sorted(
        {
            prefix
            for pin in engine.pins.values()
            if (prefix := pin.permalink(marker).split(quote(marker))[0])
        }
    )


def _linkcheck_skips_line_fragments(config: Config, engine: Engine) -> None:
    """Let linkcheck check each permalink's page but not its ``#L…`` fragment: the lock proves the lines.

    Code hosts draw line fragments with script, so linkcheck cannot find them and reports every
    anchor broken. The rule is added to the user's own ``linkcheck_anchors_ignore_for_url``.
    """
    if "linkcheck_anchors_ignore_for_url" not in config:
        return
    rules = [f"^{re.escape(prefix)}" for prefix in _permalink_prefixes(engine)]
    current = list(config.linkcheck_anchors_ignore_for_url or ())
    config.linkcheck_anchors_ignore_for_url = (*current, *(r for r in rules if r not in current))


def _one_request_per_page(app: Sphinx, uri: str) -> str | None:
    """A permalink without its fragment, so that linkcheck asks for each upstream page once.

    linkcheck keeps one request per distinct URI, and a book links each file at many line ranges;
    the fragment is not checked anyway (see :func:`_linkcheck_skips_line_fragments`).
    """
    page, hash_, _ = uri.partition("#")
    if not hash_:
        return None
    prefixes = _permalink_prefixes(get_state(str(app.srcdir)).engine)
    return page if any(uri.startswith(prefix) for prefix in prefixes) else None


def _fatal(message: str, *, location: str | None) -> NoReturn:
    """Report bad configuration once, located, and stop without a traceback.

    Sphinx prints a traceback frame for any exception raised from an event
    handler; bad input deserves a plain message, so the build ends here.
    """
    # The location goes into the text: Sphinx reads a string location as a docname, and there
    # are no documents yet.
    LOGGER.error("%ssource_anchors: %s", f"{location}: " if location else "", message)
    raise SystemExit(2)


def _add_static(app: Sphinx) -> None:
    """Put the style sheet's folder on ``html_static_path`` when the configuration is read.

    Not later: a value changed after Sphinx keeps the configuration with the environment is seen by
    the next build as a changed option ("The configuration has changed (1 option:
    'html_static_path')").
    """
    static = Path(__file__).parent / "static"
    config_static = list(app.config.html_static_path or ())
    if str(static) not in config_static:
        app.config.html_static_path = [*config_static, str(static)]


def _drop_truncated_buildinfo(app: Sphinx) -> None:
    """Remove a ``.buildinfo`` that a killed build left truncated, so the next build is a full one.

    Sphinx 9 writes it non-atomically and reads it with ``lines[2]``: an empty or cut file raises
    ``IndexError`` in every later build of that output directory, ``-E`` included.
    """
    info = Path(app.outdir) / ".buildinfo"
    try:
        if len(info.read_text("utf-8", errors="replace").splitlines()) < 4:
            info.unlink()
    except OSError:
        pass  # absent: nothing to repair


def _purge_doc(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    get_state(str(app.srcdir)).forget(docname)


def _source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    """Keep the text the parser is about to read: roles find their lines and the front matter in it."""
    text = source[0]
    is_rst = _is_rst(app, docname)
    state = get_state(str(app.srcdir))
    state.keep_page(docname, text, page_markup(app.env, Path(app.env.doc2path(docname))))
    if suspect(text, rst=is_rst):
        state.suspect.add(docname)
    state.work_before[docname] = state.engine.work()


def _is_rst(app: Sphinx, docname: str) -> bool:
    return bool(
        app.config.source_suffix.get(Path(app.env.doc2path(docname)).suffix) == "restructuredtext"
    )


def _outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Re-read pages whose anchors could have changed status, so -W sees every problem."""
    state = get_state(str(app.srcdir))
    domain = get_domain(env)
    fingerprint = state.fingerprint()
    again = domain.unsettled_docs()
    if "feedback" in added | removed:  # the feedback lines that link it, or not, as it exists
        again |= set(domain.data["feedback"])
    if domain.data["fingerprint"] != fingerprint:
        again |= set(domain.anchors)
        domain.data["fingerprint"] = fingerprint
    return sorted((again & set(env.found_docs)) - added - changed)


def _doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    """Keep the page's literal blocks (for the reproduction check) and the work reading it took.

    An anchor written in the other markup's syntax, which the page shows as text, is a warning.
    """
    domain, docname = get_domain(app.env), app.env.docname
    for block in doctree.findall(nodes.literal_block):
        domain.add_literal(docname, block.line or 0, block.astext())
    state = get_state(str(app.srcdir))
    page = state.pages.get(docname)
    read = docname in state.suspect and not state.quiet
    state.suspect.discard(docname)
    for element, message, written in (
        foreign_anchors(doctree, rst=_is_rst(app, docname)) if read else ()
    ):
        near = element.line or 1
        warn(
            message,
            Subtype.target,
            location=(docname, page.line_of(written, near=near) if page else near),
        )
    before = state.work_before.pop(docname, None)
    if before is not None:
        domain.count(
            docname, **{key: value - before[key] for key, value in state.engine.work().items()}
        )
    if multiprocessing.parent_process() is not None:
        # A parallel build's reader, a process of its own: the module indexes it parsed are stored
        # now, for the readers after it and the next build (the main process parses nothing to
        # store).
        state.engine.flush_indexes()


def _env_updated(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Lock new anchors and store fresh resolutions (the engine's work); ledger pages are rewritten."""
    state = get_state(str(app.srcdir))
    domain = get_domain(env)
    records = domain.pending_anchors()  # in a warm build, none
    outcomes = [record.outcome for record in records]
    try:
        added = state.engine.lock_new(outcomes)
    except LockError as error:  # a read-only checkout: a warning at the lock, and the build goes on
        added = 0
        warn(str(error), Subtype.unwritable, location=f"{state.settings.lock_path}:1")
    if added:
        LOGGER.info(
            "source-anchors: recorded %d new anchor(s) in %s", added, state.settings.lock_path.name
        )
    domain.data["fingerprint"] = state.fingerprint()
    state.engine.remember(outcomes)
    domain.mark_stored()
    bookchecks.warn_groups(state, records)
    bookchecks.check_reproduced(state, domain)
    bookchecks.check_uncommitted(state, domain, suppressed=app.config.suppress_warnings)
    bookchecks.check_refs(state, suppressed=app.config.suppress_warnings)
    feedback.check_channel(app)
    return sorted(domain.data["ledgers"])


def _start_reading(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Remember which documents this build reads: the build's figures are their reads' work."""
    get_domain(env).data["reading"] = sorted(docnames)


def report(env: BuildEnvironment) -> list[dict[str, Any]]:
    """The report: one plain record per anchor occurrence, in a stable order."""
    return get_domain(env).report()


def _write_report(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or get_state(str(app.srcdir)).quiet:
        return
    _enforce_lock(app)
    out = Path(app.outdir) / REPORT_NAME
    out.parent.mkdir(parents=True, exist_ok=True)
    # One record per line: readable and diffable, and written by json's C encoder (``indent`` is
    # not).
    rows = ",\n".join(json.dumps(r, ensure_ascii=False) for r in report(app.env))
    out.write_text(f"[\n{rows}\n]\n" if rows else "[]\n", "utf-8")
    # This build's work, summed over parallel readers: for benchmarks and the curious.
    stats = get_domain(app.env).figures()
    (Path(app.outdir) / STATS_NAME).write_text(json.dumps(stats, sort_keys=True) + "\n", "utf-8")
    # The figures are for books with anchors; a project with API links alone hears of them with -v.
    if any(get_domain(app.env).anchors.values()) or app.verbosity > 0:
        LOGGER.info(
            "source-anchors: %(resolved)d anchors resolved, %(cached)d from the resolution cache, "
            "%(modules_parsed)d modules parsed (%(ast_parses)d ast parses)",
            stats,
        )
    _annotate(app)


def _annotate(app: Sphinx) -> None:
    """``source_anchors_annotations``: the drifted anchors as CI annotations (see :mod:`.annotate`)."""
    fmt = app.config[PREFIX + "annotations"]
    if not fmt:
        return
    records = sorted(get_domain(app.env).all_anchors(), key=lambda r: r.order)
    files = annotate.page_paths(
        {doc: Path(app.env.doc2path(doc)) for doc in app.env.found_docs}, Path.cwd()
    )
    text = annotate.render(fmt, records, files)
    if fmt == "github":
        if text:
            print(text, flush=True)  # the runner reads workflow commands from standard output
        return
    (Path(app.outdir) / annotate.FILES[fmt]).write_text(text + "\n", "utf-8")


def _enforce_lock(app: Sphinx) -> None:
    """In a locked build, any anchor that does not match the lock fails the build, ``-W`` or not.

    As ``npm ci`` refuses a stale lock: the warnings say what is wrong; the exit status says
    that the lock was not honoured.
    """
    state = get_state(str(app.srcdir))
    if not state.settings.locked:
        return
    failed = [r for r in get_domain(app.env).all_anchors() if r.status not in (Status.ok,)]
    if failed:
        first = min(failed, key=lambda r: r.order)
        # Relocking helps anchors that resolve; one that cannot be checked needs the fix its warning
        # names.
        unchecked = sum(r.status is Status.error for r in failed)
        advice = (
            f"run '{UPDATE_COMMAND}' and commit the lock"
            if not unchecked
            else f"{unchecked} of them cannot be checked: fix what their warnings name ('{UPDATE_COMMAND}' cannot)"
            + (
                f", then run '{UPDATE_COMMAND}' and commit the lock"
                if unchecked < len(failed)
                else ""
            )
        )
        LOGGER.error(
            "%d anchor(s) do not match %s in this locked build, so it fails (first: %s); %s",
            len(failed),
            state.settings.lock_path.name,
            first.outcome.name,
            advice,
            type=WARNING_TYPE,
            subtype=Subtype.lock.value,
            location=(first.page, first.line),
        )
        app.statuscode = 1
