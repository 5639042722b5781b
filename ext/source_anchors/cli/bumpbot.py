"""``source-anchors bump NAME --latest [--write] [--body FILE]``: the newest release, fixed, relocked, explained.

The newest release is the highest tag at the pin's URL (one ``git ls-remote --tags``) whose name is
a version: PEP 440 (which reads semantic versions such as ``v1.2.3`` and ``1.3.0-rc.1`` too, a
leading ``v`` allowed); tags that are no version are ignored. Pre-releases and development
releases count only with ``--pre``. With ``--write`` the pin moves in ``conf.py`` (as ``bump NAME
REF --write`` does), missing targets are rewritten to their suggestions (``fix``), and the lock is
rewritten for what only moved or changed in formatting or comments. What changed in code or
annotations, and what is missing without a suggestion, keeps its lock record: the strict build
fails on it until a human has looked. The pull-request body lists all of it as a checklist.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from packaging.version import InvalidVersion, Version

from ..model.changeclass import ChangeClass
from ..model.config import PREFIX, RepoPin
from ..model.errors import GitError, LockError
from ..model.fsio import atomic_write
from ..model.records import AnchorRecord, Status
from ..suggest.lines import THRESHOLD
from .book import BookError, read_book
from .bump import bound_to_commit, configured, pin_of, write_pin
from .fix import fix
from .output import _diff_block, report

#: The classes of change relocked without a human: the lines' code is the same.
RELOCKED = frozenset({ChangeClass.formatting, ChangeClass.comments})


def release_tags(url: str, *, timeout: float) -> dict[str, str]:
    """{tag: commit} of every tag at *url*, annotated tags peeled to their commit."""
    from ..sources import proc

    raw = proc.git(
        ["ls-remote", "--tags", "--", url], cwd=Path(tempfile.gettempdir()), timeout=timeout
    )
    tags: dict[str, str] = {}
    for line in raw.decode("utf-8", "replace").splitlines():
        sha, _, ref = line.partition("\t")
        name = ref.removeprefix("refs/tags/")
        if name.endswith("^{}"):
            tags[name[:-3]] = sha  # the peeled commit wins over the tag object
        else:
            tags.setdefault(name, sha)
    return tags


def version_of(tag: str) -> Version | None:
    """The version a tag names (``v1.2.3``, ``1.2.3``, ``1.3.0-rc.1``), or None when it names none."""
    try:
        return Version(tag)
    except InvalidVersion:
        return None


def newest(tags: dict[str, str], *, pre: bool) -> tuple[str, str] | None:
    """(tag, commit) of the highest version among *tags*; pre- and dev releases only when *pre*."""
    versions = [
        (version, tag)
        for tag in tags
        if (version := version_of(tag)) is not None
        and (pre or not (version.is_prerelease or version.is_devrelease))
    ]
    if not versions:
        return None
    _, tag = max(versions)
    return tag, tags[tag]


def latest(
    confdir: Path, srcdir: Path, name: str, *, write: bool, pre: bool, body: str | None
) -> int:
    """Bump *name* to its newest release; 0 when nothing needs a human, 1 when something does, 2 on error."""
    try:
        settings = configured(confdir)
        pin = pin_of(settings, name, "bump --latest")
        try:
            tags = release_tags(pin.url, timeout=settings.timeout)
        except GitError as error:
            raise BookError(f"{name}: cannot list the tags of {pin.shown_url}: {error}") from None
        found = newest(tags, pre=pre)
        if found is None:
            kinds = "version tags" if pre else "release tags (add --pre to count pre-releases)"
            raise BookError(f"{name}: no {kinds} at {pin.shown_url} ({len(tags)} tag(s) in all)")
        tag, sha = found
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(
        f"{name}: newest release {tag} is {sha} (pinned: {pin.commit}{f', ref {pin.ref!r}' if pin.ref else ''})"
    )
    if sha == pin.commit:
        print(f"{name} is already at {tag}; nothing to do")
        _write_body(
            body, f"## Source anchors: {name} is at its newest release {tag}\n\nNothing to do.\n"
        )
        return 0
    try:
        preview, _ = read_book(confdir, srcdir, pins={name: sha})
    except BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    report(preview)
    if not write:
        print(f"preview only: add --write to move {name} to {tag}, fix and relock")
        _write_body(body, pr_body(pin, tag, sha, preview, after=None, fixed={}))
        return 1 if any(r.status.failed for r in preview) else 0
    if (bound := bound_to_commit(pin, sha)) is not None:
        print(f"error: {confdir / 'conf.py'}: {bound}", file=sys.stderr)
        _write_body(
            body,
            pr_body(pin, tag, sha, preview, after=None, fixed={})
            + f"\n### Needs a human\n\n- [ ] `conf.py`: {bound}\n",
        )
        return 2
    try:
        print(write_pin(confdir / "conf.py", pin, sha, tag))
        paths: dict[str, Path] = {}
        records, _ = read_book(confdir, srcdir, pins={}, paths=paths)
        fixed = {
            r.outcome.name: r.outcome.suggestion.key
            for r in records
            if r.status is Status.missing
            and r.outcome.suggestion is not None
            and r.outcome.suggestion.similarity >= THRESHOLD
        }
        if fixed:
            fix(records, paths, confdir, write=True, floor=THRESHOLD)
        after, engine = read_book(confdir, srcdir, pins={})
        changes = engine.relock((r.outcome for r in after), accept=RELOCKED)
    except (BookError, LockError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(f"{engine.settings.lock_path.name}: {len(changes)} record(s) relocked")
    _write_body(body, pr_body(pin, tag, sha, preview, after=after, fixed=fixed))
    return 1 if human(after) else 0


def human(records: Iterable[AnchorRecord]) -> list[AnchorRecord]:
    """What a relock leaves for a human: changed in code or annotations, missing, not checkable."""
    return [
        r
        for r in records
        if r.status in (Status.missing, Status.error)
        or (r.status is Status.changed and r.outcome.change_class not in RELOCKED)
    ]


def _write_body(body: str | None, text: str) -> None:
    if body is None:
        return
    if body == "-":
        print(text)
    else:
        atomic_write(Path(body), text)
        print(f"pull-request body written to {body}")


def pr_body(
    pin: RepoPin,
    tag: str,
    sha: str,
    preview: list[AnchorRecord],
    *,
    after: list[AnchorRecord] | None,
    fixed: dict[str, str],
) -> str:
    """The pull request's body: what moved, what changed and how, what is missing, what needs a human."""
    targets = {r.outcome.name: r for r in preview}
    cites: dict[str, list[AnchorRecord]] = {}
    for record in preview:
        cites.setdefault(record.outcome.name, []).append(record)
    done = (
        "relocked by the bump"
        if after is not None
        else "relocked by `source-anchors update --accept formatting,comments` after the bump"
    )
    out = [
        f"## Bump `{pin.name}` to {tag}",
        "",
        f"`{PREFIX}repos[{pin.name!r}]`: {pin.ref or pin.short} ({pin.commit[:12]}) → {tag} ({sha[:12]}), "
        f"{pin.shown_url}",
        "",
        f"{len(preview)} anchors, {len(targets)} distinct targets: "
        + ", ".join(
            f"{sum(1 for r in targets.values() if r.status is s)} {s}"
            for s in Status
            if any(r.status is s for r in targets.values())
        ),
        "",
    ]

    def places(name: str) -> str:
        shown = ", ".join(f"{r.page}:{r.line}" for r in cites[name][:4])
        return shown + (", …" if len(cites[name]) > 4 else "")

    moved = [r for r in targets.values() if r.status is Status.moved]
    if moved:
        out += [f"### Moved ({len(moved)}): {done}", ""]
        out += [
            f"- [x] `{r.outcome.name}` {r.outcome.change()} ({places(r.outcome.name)})"
            for r in moved
        ] + [""]
    for kind in ChangeClass:
        changed = [
            r
            for r in targets.values()
            if r.status is Status.changed and r.outcome.change_class == kind
        ]
        if not changed:
            continue
        auto = kind in RELOCKED
        out += [
            f"### Changed in {kind} ({len(changed)}): " + (done if auto else "needs a human"),
            "",
        ]
        for r in changed:
            out.append(
                f"- [{'x' if auto else ' '}] `{r.outcome.name}` {r.outcome.change()} ({places(r.outcome.name)})"
            )
            out += _diff_block(r.outcome)
        out.append("")
    missing = [r for r in targets.values() if r.status is Status.missing]
    if missing:
        out += [f"### Missing ({len(missing)})", ""]
        for r in missing:
            sug = r.outcome.suggestion
            if sug is not None and sug.similarity >= THRESHOLD:
                verb = "rewritten to" if r.outcome.name in fixed else "suggestion:"
                out.append(
                    f"- [{'x' if r.outcome.name in fixed else ' '}] `{r.outcome.name}` {verb} "
                    f"{sug.describe()} ({places(r.outcome.name)}); check that the page still says what "
                    "the new lines do"
                )
            else:
                why = (
                    f"best guess {sug.describe()} is below {THRESHOLD}" if sug else "no suggestion"
                )
                out.append(
                    f"- [ ] `{r.outcome.name}` is gone ({why}; {places(r.outcome.name)}): rewrite or drop "
                    "the anchor by hand"
                )
        out.append("")
    errors = [r for r in targets.values() if r.status is Status.error]
    if errors:
        out += [f"### Not checked ({len(errors)})", ""]
        out += [
            f"- [ ] `{r.outcome.name}`: {r.outcome.message.splitlines()[0] if r.outcome.message else ''}"
            for r in errors
        ] + [""]
    if after is not None:
        left = human(after)
        out += ["### Needs a human", ""]
        if left:
            out += [
                f"The strict build fails on {len(left)} anchor(s) until each is reviewed and the lock rewritten "
                "(`source-anchors update`):",
                "",
            ]
            out += [
                f"- [ ] {r.page}:{r.line} «{r.label}» `{r.outcome.name}`: {r.outcome.status}"
                + (f" ({r.outcome.change_class})" if r.outcome.change_class else "")
                for r in left
            ]
        else:
            out.append("Nothing: every anchor matches the new lock.")
        out.append("")
    return "\n".join(out)
