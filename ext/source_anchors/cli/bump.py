"""Pins named by tag or branch: ``check --pin NAME=REF`` and ``source-anchors bump NAME REF [--write]``.

A REF that is not a 40-hex SHA is resolved with one ``git ls-remote`` against the pin's URL
(peeled: an annotated tag gives its commit). ``bump`` previews the anchors at the new commit as
``check --pin`` does and, with ``--write``, replaces the old commit (and the pin's ``ref``) in
``conf.py`` where each is written once as a plain string literal; nothing else in the file changes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from ..edit.confpy import find_key_literals, find_literals, lines, replace
from ..engine.engine import UPDATE_COMMAND
from ..model.config import PREFIX, SHA_RE, Options, RepoPin, Settings, settings_from
from ..model.errors import ConfigError, GitError, RefError
from ..model.fsio import atomic_write
from ..sources.gitrefs import resolve_ref
from .book import BookError, read_book
from .output import report


def conf_values(confdir: Path) -> dict[str, Any]:
    """The names ``conf.py`` defines, read as Sphinx reads it (the file is run), before any build."""
    from sphinx import version_info
    from sphinx.config import eval_config_file
    from sphinx.util.tags import Tags

    conf = confdir / "conf.py"
    if not conf.is_file():
        raise BookError(f"no conf.py in {confdir}; run in the folder of conf.py or pass --confdir")
    name: Any = conf if version_info >= (8, 2) else str(conf)  # Sphinx 8.1 reads a str
    try:
        return dict(eval_config_file(name, Tags()))
    except Exception as error:  # conf.py is the author's code: any error is theirs to see
        raise BookError(f"cannot read {conf}: {error}") from None


def configured(confdir: Path) -> Settings:
    """The book's validated settings, read from its ``conf.py`` (before any build)."""
    import dataclasses

    conf = confdir / "conf.py"
    namespace = conf_values(confdir)
    fields = {field.name for field in dataclasses.fields(Options)}
    values = {
        key[len(PREFIX) :]: value
        for key, value in namespace.items()
        if key.startswith(PREFIX) and key[len(PREFIX) :] in fields
    }
    try:
        return settings_from(values, confdir=confdir)
    except ConfigError as error:
        raise BookError(
            f"invalid configuration in {conf}:\n  " + str(error).replace("\n", "\n  ")
        ) from None


def pin_of(settings: Settings, name: str, what: str) -> RepoPin:
    """The pin *name*, or an error listing the configured names."""
    if name not in settings.repos:
        known = ", ".join(sorted(settings.repos)) or "none"
        raise BookError(f"{what}: no repository {name!r} in {PREFIX}repos; configured: {known}")
    return settings.repos[name]


def to_commit(pin: RepoPin, ref: str, *, timeout: float) -> str:
    """*ref* itself when it is a 40-hex SHA, else the commit it names at the pin's URL."""
    if SHA_RE.match(ref):
        return ref
    try:
        return resolve_ref(pin.url, ref, timeout=timeout, name=pin.name)
    except RefError as error:
        raise BookError(str(error)) from None
    except GitError as error:
        raise BookError(f"{pin.name}: cannot resolve {ref!r} at {pin.shown_url}: {error}") from None


def resolve_pins(confdir: Path, items: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """``--pin NAME=REF`` items as ({name: commit}, {name: ref} for those given by tag or branch)."""
    pairs = []
    for item in items:
        name, sep, ref = item.partition("=")
        if not sep or not name or not ref:
            raise BookError(
                f"--pin {item!r}: expected NAME=REF (a 40-hex commit SHA, a tag or a branch)"
            )
        pairs.append((name, ref))
    if not pairs:
        return {}, {}
    settings = configured(confdir)
    shas, refs = {}, {}
    for name, ref in pairs:
        pin = pin_of(settings, name, f"--pin {name}={ref}")
        shas[name] = to_commit(pin, ref, timeout=settings.timeout)
        if shas[name] != ref:
            refs[name] = ref
            print(f"note: {name}: {ref!r} is {shas[name]} at {pin.shown_url}", file=sys.stderr)
    return shas, refs


def bump(confdir: Path, srcdir: Path, name: str, ref: str, *, write: bool) -> int:
    """Preview the anchors with *name* at *ref* and, with *write*, move the pin in conf.py."""
    try:
        settings = configured(confdir)
        pin = pin_of(settings, name, "bump")
        new = to_commit(pin, ref, timeout=settings.timeout)
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    given = "" if new == ref else f"{ref!r} is "
    print(f"{name}: {given}{new} (pinned: {pin.commit}{f', ref {pin.ref!r}' if pin.ref else ''})")
    try:
        records, engine = read_book(confdir, srcdir, pins={name: new})
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if engine.settings.cache_note:
        print(f"warning: {engine.settings.cache_note}", file=sys.stderr)
    status = report(records)
    if not write:
        print("preview only: add --write to move the pin in conf.py")
        return status
    try:
        print(write_pin(confdir / "conf.py", pin, new, None if new == ref else ref))
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return status


def bound_to_commit(pin: RepoPin, new: str) -> str | None:
    """Why *pin* cannot simply move to *new*: the entries of its conf.py entry that describe its commit only.

    A distribution is a release of the pinned commit, and a listing or a facts record is made at it;
    with only the commit moved they would vouch for the old files as the new commit's.
    """
    keys = [
        key
        for key, value in (("dist", pin.dist), ("listing", pin.listing), ("facts", pin.facts))
        if value
    ]
    if not keys:
        return None
    where = f"{PREFIX}repos[{pin.name!r}]"
    named = ", ".join(repr(k) for k in keys)
    return (
        f"{where} has {named} of {pin.short}, which describe that commit only: moved to {new[:7]} "
        f"they would vouch for its old files; nothing written; set the commit to {new!r} by hand and, in the "
        f"same edit, remove {named} or replace them with the ones of {new[:7]} (its release as 'dist', "
        f"'git ls-tree -r {new[:7]}' as 'listing', 'source-anchors facts' for 'facts')"
    )


def write_pin(conf: Path, pin: RepoPin, new: str, new_ref: str | None) -> str:
    """Replace *pin*'s commit (and ref) literals in *conf* atomically; what was done, or :class:`BookError`."""
    where = f"{PREFIX}repos[{pin.name!r}]"
    if pin.commit == new and (new_ref is None or new_ref == pin.ref):
        return f"{conf.name}: {pin.name} is already pinned at {new[:7]}; nothing to write"
    if (bound := bound_to_commit(pin, new)) is not None:
        raise BookError(f"{conf}: {bound}")
    data = conf.read_bytes()
    try:
        plain, other = find_literals(data, pin.commit, name=str(conf))
    except ConfigError as error:
        raise BookError(str(error)) from None
    by_hand = f"edit it by hand: set {where}['commit'] to {new!r}" + (
        f" and {where}['ref'] to {new_ref!r}" if pin.ref is not None and new_ref else ""
    )
    if len(plain) != 1 or other:
        count = len(plain) + len(other)
        places = f" (line {lines([p.line for p in plain] + other)})" if count else ""
        raise BookError(
            f"{conf}: the pinned commit {pin.commit} appears {count} time(s) as a string "
            f"literal{places}, not once as a plain one; nothing written; {by_hand}"
        )
    edits = [(plain[0], new)]
    notes = [f"{where}['commit'] {pin.commit[:7]} → {new[:7]} (line {plain[0].line})"]
    if pin.ref is not None and new_ref != pin.ref:
        if new_ref is None:
            raise BookError(
                f"{conf}: {where} records 'ref': {pin.ref!r}, which {new[:7]} may not be; nothing "
                f"written; bump to a tag or branch name, or {by_hand}"
            )
        refs = find_key_literals(data, "ref", pin.ref, within=plain[0].start)
        if len(refs) != 1:
            raise BookError(
                f"{conf}: {where}['ref'] {pin.ref!r} is not written once as a plain literal "
                f"beside 'ref' ({len(refs)} found); nothing written; {by_hand}"
            )
        edits.append((refs[0], new_ref))
        notes.append(f"{where}['ref'] {pin.ref!r} → {new_ref!r} (line {refs[0].line})")
    write_conf_file(conf, replace(data, edits), by_hand)
    hint = (
        f"\nnote: {where} names no 'ref'; add \"ref\": {new_ref!r} beside the commit to record it"
        if pin.ref is None and new_ref
        else ""
    )
    return f"{conf.name}: " + "; ".join(notes) + f"{hint}\nrun '{UPDATE_COMMAND}' to relock"


def write_conf_file(conf: Path, data: bytes, by_hand: str) -> None:
    """Replace *conf* with *data* atomically, keeping its mode; an unwritable file is a :class:`BookError`."""
    try:
        mode = conf.stat().st_mode
        atomic_write(conf, data.decode("utf-8"))
        os.chmod(conf, mode & 0o7777)
    except OSError as error:
        raise BookError(
            f"{conf}: cannot write it ({error.strerror or error}); nothing written; {by_hand}"
        ) from None
