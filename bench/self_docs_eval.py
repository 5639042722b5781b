"""Docs that cite their own code, on a real repository's Markdown at two commits (``make self-docs-eval``).

``python bench/self_docs_eval.py [--keep]``. gpt-researcher's own Markdown (README.md, docs/, the
blog, the READMEs of its packages) names its code in 54 places that ``bench/self_docs_eval.json``
lists: a page, its line at the old commit, the name, and the definition it means (its file and
path of names). The study writes a line link for each into a scratch copy of the repository under
``_build/self-docs-eval/`` (never into this project), in two forms:

* **titled**: ``[`name`](rel/path.py#La-Lb "src: /path.py#Symbol")``, which heals by name;
* **lines**: ``[`name`](rel/path.py#La-Lb)``, locked by what the lines show.

A name on a prose line is made the link's text in place; a name only in a code block gets a line
of its own after the block (links in code are never read). At the old commit (v3.3.0) the titled
links are written with ``#L1``, then ``update`` and ``fix --write`` set their lines; the lines
form is the same links without titles, locked by ``update``. The same pages are then checked at
the new commit (v3.6.0, 415 commits later) with ``check --format json``, and ``fix --write``
heals them. Each commit is the real one less the objects the copy lacks (its one large log file),
committed on top of it, so git's history is the real history.

Each citation carries a verdict by hand (``truth``): what really happened to the definition
between the two commits, read from ``git diff``: ``ok`` (same lines, same text), ``moved`` (same
text, other lines), ``changed`` (its text changed) or ``missing`` (gone from its file), with the
new lines where it still exists. Reported per form: the confusion of ``check``'s statuses with the
verdicts; precision and recall of drift (anything but ``ok`` reported, against anything but
``ok`` true) and of each status; the moved and changed links whose lines ``fix --write`` set to
the definition's new lines. Results in ``_build/self-docs-eval/results.json``.

Needs ``SOURCE_ANCHORS_GPT_RESEARCHER_GIT``: a copy of gpt-researcher's repository (a git directory
holding both commits); skipped with a note otherwise. Nothing upstream is imported or run.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_build" / "self-docs-eval"
FACTS = Path(__file__).resolve().parent / "self_docs_eval.json"
GPT_ENV = "SOURCE_ANCHORS_GPT_RESEARCHER_GIT"
WEB = "https://github.com/assafelovic/gpt-researcher.git"
STATUSES = ("ok", "moved", "changed", "missing")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def git(*args: str, cwd: Path, env: dict[str, str] | None = None, data: str | None = None) -> str:
    """The output of ``git ARGS`` in *cwd*."""
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        input=data,
        env={**os.environ, **(env or {})},
    ).stdout


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``source-anchors ARGS`` in *cwd*, with the study's own cache."""
    env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(OUT / "cache"), "CI": ""}
    return subprocess.run(
        [sys.executable, "-m", "source_anchors", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
    )


def whole(source: Path, repo: Path, ref: str) -> str:
    """A commit on top of *ref* whose tree is *ref*'s less the blobs the copy lacks (git's history kept)."""
    listing = git("ls-tree", "-r", "-z", ref, cwd=source)
    entries = [item.partition("\t") for item in listing.split("\0") if item]
    blobs = [info.split()[2] for info, _, _ in entries if info.split()[1] == "blob"]
    checked = git("cat-file", "--batch-check", cwd=source, data="".join(f"{b}\n" for b in blobs))
    absent = {line.split()[0] for line in checked.splitlines() if line.endswith(" missing")}
    index = {"GIT_INDEX_FILE": str(OUT / "index")}
    git("read-tree", ref, cwd=repo, env=index)
    for info, _, path in entries:
        if info.split()[2] in absent:
            git("update-index", "--force-remove", "--", path, cwd=repo, env=index)
    tree = git("write-tree", cwd=repo, env=index).strip()
    message = f"{ref[:12]} less {len(absent)} object(s) this copy lacks"
    return git("commit-tree", tree, "-p", ref, "-m", message, cwd=repo).strip()


def link(cite: dict[str, Any], lines: tuple[int, int], *, titled: bool) -> str:
    """The Markdown link of *cite* from its page, to *lines*."""
    dest = posixpath.relpath(cite["file"], posixpath.dirname(cite["page"]) or ".")
    title = f' "src: /{cite["file"]}#{cite["symbol"]}"' if titled else ""
    return f"[`{cite['word']}`]({dest}#L{lines[0]}-L{lines[1]}{title})"


def with_links(
    text: str, cites: list[dict[str, Any]], links: list[str]
) -> tuple[str, dict[str, int]]:
    """*text* (a page at the old commit) with each citation's link: in place in prose, after a code block.

    Also the page line of each citation's link, by its id.
    """
    lines = text.splitlines()
    after: dict[int, list[str]] = {}
    for cite, md in zip(cites, links, strict=True):
        number = cite["line"]
        if not cite["in_code"]:
            line = lines[number - 1]
            word = re.compile(r"(?<!\w)" + re.escape(cite["word"]) + r"(?!\w)")
            span = next((s for s in re.finditer(r"`[^`]+`", line) if word.search(s[0])), None)
            if span:  # the code span becomes the link's text
                lines[number - 1] = line[: span.start()] + md + line[span.end() :]
            else:
                found = re.search(r"(?<!\w)" + re.escape(cite["word"]) + r"(?!\w)", line)
                assert found, (cite, line)
                lines[number - 1] = line[: found.start()] + md + line[found.end() :]
            continue
        fence = None
        for index in range(number - 1, -1, -1):  # the block's opening fence
            opened = _FENCE.match(lines[index])
            if opened:
                fence = opened.group(1)
                break
        assert fence is not None, cite
        end = next(
            i
            for i in range(number, len(lines))
            if lines[i].lstrip().startswith(fence[0] * len(fence))
        )
        after.setdefault(end, []).append((cite["id"], f"Code: {md}"))
    prose = {c["line"]: c["id"] for c in cites if not c["in_code"]}
    placed: dict[str, int] = {}
    out: list[str] = []
    shift = 0
    for index, line in enumerate(lines):
        out.append(line)
        if index + 1 in prose:
            placed[prose[index + 1]] = index + 1 + shift
        if index in after:
            out.append("")
            for ident, added in after[index]:
                out.append(added)
                placed[ident] = len(out)
            shift += 1 + len(after[index])
    return "\n".join(out) + "\n", placed


def write_pages(
    repo: Path, old: dict[str, str], cites: list[dict[str, Any]], links: list[str]
) -> dict[str, int]:
    """Each page of *cites* with its links written into *repo*; each link's page line by id."""
    placed: dict[str, int] = {}
    by_page: dict[str, list[int]] = {}
    for n, cite in enumerate(cites):
        by_page.setdefault(cite["page"], []).append(n)
    for page, numbers in by_page.items():
        path = repo / page
        path.parent.mkdir(parents=True, exist_ok=True)
        text, lines = with_links(
            old[page], [cites[n] for n in numbers], [links[n] for n in numbers]
        )
        path.write_text(text, "utf-8")
        placed.update(lines)
    return placed


def page_links(
    repo: Path, cites: list[dict[str, Any]], placed: dict[str, int]
) -> dict[str, tuple[str, int, int, int]]:
    """Each citation's link as its page now has it: {id: (page, page line, start, end)}."""
    from source_anchors.markup.mdlinks import md_links

    found: dict[str, tuple[str, int, int, int]] = {}
    pages = {p: md_links((repo / p).read_text("utf-8")) for p in {c["page"] for c in cites}}
    for cite in cites:
        page, line = cite["page"], placed[cite["id"]]
        base = posixpath.dirname(page)
        for item in pages[page]:
            address, _, fragment = item.url.partition("#")
            lines = re.fullmatch(r"L(\d+)(?:-L?(\d+))?", fragment)
            if (
                item.line == line
                and lines
                and posixpath.normpath(posixpath.join(base, address)) == cite["file"]
            ):
                found[cite["id"]] = (page, line, int(lines[1]), int(lines[2] or lines[1]))
    return found


def score(
    cites: list[dict[str, Any]], reported: dict[str, dict[str, Any]], healed: dict[str, Any]
) -> dict[str, Any]:
    """The confusion of reported statuses with the verdicts, precision and recall, fix's lines."""
    confusion: Counter[tuple[str, str]] = Counter()
    for cite in cites:
        got = reported.get(cite["id"], {}).get("status", "unreported")
        confusion[(cite["truth"]["status"], got)] += 1

    def ratio(a: int, b: int) -> float | None:
        return round(a / b, 3) if b else None

    drift_true = {c["id"] for c in cites if c["truth"]["status"] != "ok"}
    drift_said = {i for i, r in reported.items() if r["status"] != "ok"}
    per_status = {}
    for status in STATUSES[1:]:
        true = {c["id"] for c in cites if c["truth"]["status"] == status}
        said = {i for i, r in reported.items() if r["status"] == status}
        per_status[status] = {
            "true": len(true),
            "reported": len(said),
            "precision": ratio(len(true & said), len(said)),
            "recall": ratio(len(true & said), len(true)),
        }
    classes = Counter(
        str(reported[c["id"]].get("change"))
        for c in cites
        if c["truth"]["status"] == "changed"
        and reported.get(c["id"], {}).get("status") == "changed"
    )
    movable = [c for c in cites if c["truth"]["status"] == "moved"]
    right = [c["id"] for c in movable if healed.get(c["id"]) == tuple(c["truth"]["new_lines"])]
    return {
        "links": len(cites),
        "confusion": {f"{t} -> {g}": n for (t, g), n in sorted(confusion.items())},
        "drift": {
            "true": len(drift_true),
            "reported": len(drift_said),
            "precision": ratio(len(drift_true & drift_said), len(drift_said)),
            "recall": ratio(len(drift_true & drift_said), len(drift_true)),
        },
        "statuses": per_status,
        "change_classes": dict(sorted(classes.items())),
        "class_by_hand_agrees": {
            c["id"]: reported.get(c["id"], {}).get("change") == c["truth"]["class"]
            for c in cites
            if c["truth"].get("class")
        },
        "fix_heals_moved": f"{len(right)}/{len(movable)}",
        "fix_wrong": sorted(c["id"] for c in movable if c["id"] not in right),
    }


def run_form(
    form: str, source: Path, repo: Path, commits: tuple[str, str], facts: dict[str, Any]
) -> dict[str, Any]:
    """Lock one form's links at the old commit, check and heal them at the new one."""
    cites = facts["citations"]
    old_commit, new_commit = commits
    lock = OUT / f"{form}.lock"
    lock.unlink(missing_ok=True)
    pages = {p: git("show", f"{facts['old']}:{p}", cwd=source) for p in {c["page"] for c in cites}}
    git("checkout", "-q", "-f", "--detach", old_commit, cwd=repo)
    titled = form == "titled"
    start_lines = [tuple(c["old_lines"]) if not titled else (1, 1) for c in cites]
    placed = write_pages(
        repo,
        pages,
        cites,
        [link(c, s, titled=titled) for c, s in zip(cites, start_lines, strict=True)],
    )
    files = sorted(pages)
    steps = {"update": cli("update", "--lock", str(lock), *files, cwd=repo)}
    if titled:
        steps["fix"] = cli("fix", "--write", "--lock", str(lock), *files, cwd=repo)
    steps["check-old"] = cli("check", "--lock", str(lock), *files, cwd=repo)
    at_old = page_links(repo, cites, placed)
    wrong_old = sorted(
        c["id"] for c in cites if at_old.get(c["id"], ("", 0, 0, 0))[2:] != tuple(c["old_lines"])
    )
    texts = {p: (repo / p).read_text("utf-8") for p in files}
    git("checkout", "-q", "-f", "--detach", new_commit, cwd=repo)
    for page, text in texts.items():
        (repo / page).parent.mkdir(parents=True, exist_ok=True)
        (repo / page).write_text(text, "utf-8")
    checked = cli("check", "--format", "json", "--lock", str(lock), *files, cwd=repo)
    records = json.loads(checked.stdout)
    where = {(p, line): ident for ident, (p, line, _, _) in at_old.items()}
    reported = {where[(r["doc"], r["line"])]: r for r in records if (r["doc"], r["line"]) in where}
    steps["fix-new"] = cli("fix", "--write", "--lock", str(lock), *files, cwd=repo)
    healed = {i: (s, e) for i, (_, _, s, e) in page_links(repo, cites, placed).items()}
    steps["update-new"] = cli("update", "--lock", str(lock), *files, cwd=repo)
    steps["fix-after-update"] = cli("fix", "--write", "--lock", str(lock), *files, cwd=repo)
    relocked = {i: (s, e) for i, (_, _, s, e) in page_links(repo, cites, placed).items()}
    result = score(cites, reported, healed)
    exists = [c for c in cites if c["truth"].get("new_lines")]
    result["update_then_fix_at_new_lines"] = (
        f"{sum(relocked.get(c['id']) == tuple(c['truth']['new_lines']) for c in exists)}"
        f"/{len(exists)}"
    )
    result["old_commit_problems"] = {
        "links_not_at_the_cited_lines": wrong_old,
        "check_at_old_exit": steps["check-old"].returncode,
        "update_exit": steps["update"].returncode,
    }
    result["check_exit"] = checked.returncode
    result["outcomes"] = {
        c["id"]: {
            "truth": c["truth"]["status"],
            "reported": reported.get(c["id"], {}).get("status"),
            "change": reported.get(c["id"], {}).get("change"),
            "message": reported.get(c["id"], {}).get("message"),
            "healed": healed.get(c["id"]),
        }
        for c in cites
    }
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the study; 0 (also when skipped)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy afterwards")
    args = parser.parse_args(argv)
    where = os.environ.get(GPT_ENV)
    if not where:
        print(
            f"skipped: set {GPT_ENV} to a copy of the gpt-researcher repository (a git directory)"
        )
        return 0
    source = Path(where)
    facts = json.loads(FACTS.read_text("utf-8"))
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    repo = OUT / "repo"
    git("clone", "-q", "--shared", "--no-checkout", str(source), str(repo), cwd=OUT)
    git("remote", "set-url", "origin", WEB, cwd=repo)
    for key, value in (("user.name", "study"), ("user.email", "study@example.invalid")):
        git("config", key, value, cwd=repo)
    pages = sorted({c["page"] for c in facts["citations"]})
    git("sparse-checkout", "set", "--no-cone", *(f"/{p}" for p in pages), cwd=repo)
    commits = (whole(source, repo, facts["old"]), whole(source, repo, facts["new"]))
    results: dict[str, Any] = {"old": facts["old"], "new": facts["new"], "forms": {}}
    for form in ("titled", "lines"):
        result = run_form(form, source, repo, commits, facts)
        results["forms"][form] = result
        drift, statuses = result["drift"], result["statuses"]
        print(
            f"{form}: {result['links']} links; drift precision {drift['precision']} recall "
            f"{drift['recall']} ({drift['reported']} reported, {drift['true']} true); "
            + "; ".join(
                f"{s} P {v['precision']} R {v['recall']} ({v['reported']}/{v['true']})"
                for s, v in statuses.items()
            )
            + f"; classes of the changed {result['change_classes']}; fix --write heals the moved "
            f"{result['fix_heals_moved']}; update then fix --write: links at the definition's new "
            f"lines {result['update_then_fix_at_new_lines']}"
        )
        print(f"  confusion (truth -> reported): {result['confusion']}")
        agrees = result["class_by_hand_agrees"]
        print(f"  class of change as judged by hand: {sum(agrees.values())}/{len(agrees)} agree")
        problems = result["old_commit_problems"]
        if problems["links_not_at_the_cited_lines"] or problems["check_at_old_exit"]:
            print(f"  at the old commit: {problems}")
    (OUT / "results.json").write_text(json.dumps(results, indent=2), "utf-8")
    print(f"results: {OUT / 'results.json'}")
    if not args.keep:
        shutil.rmtree(repo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
