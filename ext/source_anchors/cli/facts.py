"""``source-anchors facts``: record facts about the pinned commit's manifests and third-party files.

Run where git can reach the pinned repository. Every manifest of the commit's listing
(:func:`..core.declared.is_declaring`) and every file the third-party rules read
(:func:`..core.thirdparty.reads_content`) is read at the pin, each checked against the listing's
blob id, and the facts (path, blob id, declared licences and their lines, evidence) are written to
the file the pin's ``facts`` key names, atomically. A file that cannot be had is named and left out
(the exit status is 1 when it is a manifest).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from ..engine.engine import Engine
from ..model.config import PREFIX, settings_from
from ..model.errors import SourceAnchorsError
from ..model.fsio import atomic_write


def _settings(confdir: Path) -> Any:
    from sphinx import version_info
    from sphinx.config import eval_config_file
    from sphinx.util.tags import Tags

    conf = confdir / "conf.py"
    name: Any = conf if version_info >= (8, 2) else str(conf)  # Sphinx 8.1 reads a str
    values = eval_config_file(name, Tags())
    raw = {
        key.removeprefix(PREFIX): value for key, value in values.items() if key.startswith(PREFIX)
    }
    return settings_from(raw, confdir=confdir)


def _read(engine: Engine, repo: str, path: str) -> bytes:
    """The bytes of *path* at the pin: from the tree, the cache or the sdist, else one blob from git.

    Unlike a build, each file is asked of git on its own (a blob absent from one mirror does not
    stop the others).
    """
    try:
        return engine.commit_file(repo, path)[0]
    except SourceAnchorsError:
        return engine.blob(repo, path)


def facts(confdir: Path, names: list[str]) -> int:
    """Write the facts record of each pin of *names* (every pin with a ``facts`` key when empty)."""
    from ..licences.declared import is_declaring
    from ..licences.facts import make_facts, render_facts

    if not (confdir / "conf.py").is_file():
        print(f"error: no conf.py in {confdir}; pass --confdir")
        return 2
    try:
        settings = _settings(confdir)
    except Exception as error:  # conf.py is the author's code: any error is theirs to see
        print(f"error: cannot read {confdir / 'conf.py'}: {error}")
        return 2
    unknown = sorted(set(names) - set(settings.repos))
    if unknown:
        print(f"error: unknown repositories {unknown}; known: {sorted(settings.repos)}")
        return 2
    chosen = names or sorted(name for name, pin in settings.repos.items() if pin.facts is not None)
    if not chosen:
        print(
            f"error: no pin of {PREFIX}repos has a 'facts' key naming its record (e.g. "
            "'pins/NAME/COMMIT.facts.json')"
        )
        return 2
    engine = Engine(settings)
    status = 0
    for name in chosen:
        pin = settings.repos[name]
        if pin.facts is None:
            print(f"error: {PREFIX}repos[{name!r}] has no 'facts' key naming its record")
            status = 2
            continue
        try:
            listing = engine.listing(name)
            record, skipped = make_facts(
                pin.commit, pin.url, listing, functools.partial(_read, engine, name)
            )
        except SourceAnchorsError as error:
            print(f"error: {name}: {error}")
            status = 1
            continue
        for path, why in sorted(skipped.items()):
            print(f"not recorded: {path}: {why}")
        if any(is_declaring(path) for path in skipped):
            status = max(status, 1)  # a manifest left out would be "not read" in an offline build
        atomic_write(pin.facts, render_facts(record))
        declared = sum(1 for entry in record.files.values() if entry.declarations)
        marked = sum(1 for entry in record.files.values() if entry.evidence)
        print(
            f"{pin.facts.name}: {len(record.files)} files of {name}@{pin.short} "
            f"({declared} with licence declarations, {marked} with third-party evidence)"
        )
    return status
