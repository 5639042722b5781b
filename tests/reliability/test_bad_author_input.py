"""Bad author input: anchors of every shape on generated pages, many per real Sphinx build.

Hypothesis generates role texts (bare and ``label <target>``) and ``source-anchor``
directives (with options); each case is one paragraph (or one fenced block) of a
generated page, so its line is known. One ``--keep-going`` build (in-process) reads 20
pages of 50 cases. An oracle written here from the documented grammar
``[repo:]dotted.path[::match text]`` and the test repository's real symbols says
whether a case is valid; every invalid case must give exactly one located
``[source-anchors.<subtype>]`` warning at its own ``page.md:LINE`` and every valid one
none, the report must record it at that line, and nothing may print a traceback.

Cases whose text would break MyST's own syntax (backticks, line breaks) are filtered
out before they are placed and are not counted. Cases that make the extension's
core raise (checked in-process first, so one crash does not end a whole batch) are
counted as failures and left off the batch pages; each kind of crash is then shown once in a
real ``sphinx-build`` subprocess, for the traceback an author would see.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import Upstream, build_env, sphinx_argv, write_conf
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from .figures import Results, Scale, Tally
from .support import Run, build_in_process, run, warnings_of

CATEGORY = "bad_author_input"

INIT = '"""Demo package."""\n\nVERSION = "1.0"\n'
MOD = '''\
"""A module for anchors."""

LIMIT = 10
NAMES = ["alpha", "beta"]


def func(value):
    """Double it."""
    total = value * 2
    total = total + 0
    return total


def other(a, b):
    if a > b:
        return a
    return b


def outer():
    def inner():
        return "inner"
    return inner


class Box:
    """A box."""

    size = 3

    def open(self):
        return "open <now>"

    def close(self):
        return "closed: for good"
'''
DEEP = "def leaf():\n    return 1\n"
FILES = {
    "pkg/__init__.py": INIT,
    "pkg/mod.py": MOD,
    "pkg/sub/__init__.py": "",
    "pkg/sub/deep.py": DEEP,
}
MODULES = {
    "pkg": "pkg/__init__.py",
    "pkg.mod": "pkg/mod.py",
    "pkg.sub": "pkg/sub/__init__.py",
    "pkg.sub.deep": "pkg/sub/deep.py",
}
REPO = "up"
MAX_TARGET = 1000
_REPO_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


# -- the oracle ---------------------------------------------------------------------------------


def _symbols() -> dict[str, tuple[str, int, int]]:
    """Every anchorable dotted path of the test repository: (file, first line, last line)."""
    table: dict[str, tuple[str, int, int]] = {}
    for dotted, file in MODULES.items():
        text = FILES[file]
        table[dotted] = (file, 1, max(len(text.splitlines()), 1))

        def visit(body: list[ast.stmt], prefix: str, file: str = file) -> None:
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    table[f"{prefix}.{node.name}"] = (
                        file,
                        node.lineno,
                        node.end_lineno or node.lineno,
                    )
                    if isinstance(node, ast.ClassDef):
                        visit(node.body, f"{prefix}.{node.name}")
                elif isinstance(node, ast.Assign):
                    for name in node.targets:
                        if isinstance(name, ast.Name):
                            table[f"{prefix}.{name.id}"] = (
                                file,
                                node.lineno,
                                node.end_lineno or node.lineno,
                            )

        visit(ast.parse(text).body, dotted)
    return table


SYMBOLS = _symbols()
LINES = {
    file: text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    for file, text in FILES.items()
}


def _split(text: str) -> tuple[str, str]:
    """Role text ``label <target>`` as (label, target), both stripped; a bare target is its own label.

    Sphinx's convention for reference roles, restated: the label is at least one character and
    ends at the first ``<`` that is not backslash-escaped; the target runs to the final ``>``.
    An empty label (``<target>``) is the target.
    """
    stripped = text.strip()
    marked = stripped.replace(
        "\\<", "\x00\x00"
    )  # an escaped '<' never opens the target (same length)
    for index, char in enumerate(marked):
        if char == "<" and index > 0 and marked.endswith(">") and marked[:index].strip():
            label = stripped[:index].replace("\\<", "<").strip()
            return label, stripped[index + 1 : -1].replace("\\<", "<").strip()
    if stripped.startswith("<") and stripped.endswith(">"):
        target = stripped[1:-1].replace("\\<", "<").strip()
        return target, target
    plain = stripped.replace("\\<", "<")
    return plain, plain


def _split_label(text: str) -> str:
    """The target part of role text ``label <target>`` (the whole text when there is no label)."""
    return _split(text)[1]


#: A definition's path after '#', restated from the documented grammar.
_SYMBOL_PATH = re.compile(r"[^\s.#/:]+(?:\.[^\s.#/:]+)*")


def _parse(text: str, *, default_repo: str) -> tuple[str, str, str | None] | None:
    """(repo, path, match or None) of a well-formed target, or None: the documented grammar,
    ``[repo:]dotted.path[::match]`` or ``[repo:]/file/path[::match]``, restated. A NUL reads as
    U+FFFD, as MyST hands it over."""
    raw = text.strip().replace("\0", "\ufffd")
    if not raw or len(raw) > MAX_TARGET:
        return None
    head, sep, match = raw.partition("::")
    match = match.strip()
    # Each further '::' (one not followed by ':') opens a level within the one before; none may be
    # empty.
    if sep and any(not level.strip() or "::" in level for level in re.split(r"::(?!:)", match)):
        return None
    if ":" in head and not head.lstrip().startswith("/"):  # a file path may hold ':' itself
        repo, _, path = head.partition(":")
        repo = repo.strip()
        if not _REPO_NAME.fullmatch(repo):
            return None
    else:
        repo, path = default_repo, head
        if not repo:
            return None
    path = path.strip()
    if path.startswith("/"):
        parts = path[1:].split("/")
        if path == "/" or any(part in ("", ".", "..") for part in parts) or "\\" in path:
            return None
        # '#' in the file's name opens a definition's path: names joined by '.', none empty, no
        # white space, '#', '/' or ':' (``/src/lib.rs#Trait.for.Type.method``).
        _, hash_, symbol = parts[-1].partition("#")
        if hash_ and not _SYMBOL_PATH.fullmatch(symbol):
            return None
    elif not path or not all(part.isidentifier() for part in path.split(".")):
        return None
    return repo, path, match if sep else None


def oracle(text: str, *, default_repo: str) -> str:
    """'ok', 'target' (malformed or unknown repository) or 'missing' (no such symbol or file, or bad match)."""
    parsed = _parse(text, default_repo=default_repo)
    if parsed is None:
        return "target"
    repo, path, match = parsed
    if repo != REPO:
        return "target"
    if path.startswith(
        "/"
    ):  # a file target: the file must be in the commit; a match, on one of its lines
        if path[1:] not in LINES:
            return "missing"
        lines, start, end = LINES[path[1:]], 1, len(LINES[path[1:]])
    elif path not in SYMBOLS:
        return "missing"
    else:
        file, start, end = SYMBOLS[path]
        lines = LINES[file]
    if match is not None:
        hits = [n for n in range(start, end + 1) if n <= len(lines) and match in lines[n - 1]]
        if len(hits) != 1:
            return "missing"
    return "ok"


# -- cases ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One anchor as an author might write it."""

    form: str  # "role", "role-label" or "directive"
    target: str
    label: str = ""
    options: tuple[tuple[str, str], ...] = ()

    def content(self) -> str:
        """The text between the role's backticks, or the directive's argument."""
        return f"{self.label} <{self.target}>" if self.form == "role-label" else self.target

    def markup(self) -> list[str] | None:
        """The page lines of this case, or None when it cannot be written without breaking MyST syntax."""
        text = self.content()
        pieces = [text, *(v for _, v in self.options), *(k for k, _ in self.options)]
        if any(bad in piece for piece in pieces for bad in ("`", "\n", "\r")):
            return None
        if self.form == "directive":
            return [
                "```{source-anchor} " + text,
                *(f":{k}: {v}".rstrip() for k, v in self.options),
                "```",
            ]
        if not text:
            return None  # "{src}``" is a code span to MyST, not a role
        return ["{src}`" + text + "`"]

    def target_text(self) -> str:
        return _split_label(self.content()) if self.form != "directive" else self.content()


_WEIRD_SPACE = [
    " ",
    "\t",
    "\u00a0",
    "\u2028",
    "\u2029",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x1e",
    "\x85",
    "\u3000",
    "\u200b",
]
_MARKUP = [
    *"*_[]<>{}()|\\#!$%&~^:;,.'\"=+-/?@ ",
    "**",
    "](",
    "<!--",
    "-->",
    "{{",
    "}}",
    "$$",
    "|||",
]


def _strategies() -> st.SearchStrategy[Case]:
    ident = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True)
    noise = st.text(st.characters(codec="utf-8", exclude_characters="`\n\r"), max_size=40)
    markup = st.lists(st.sampled_from([*_MARKUP, "a", "pkg", "."]), max_size=12).map("".join)
    space = st.lists(st.sampled_from(_WEIRD_SPACE), max_size=3).map("".join)
    symbol = st.sampled_from(sorted(SYMBOLS))
    slices = [
        line[i:j]
        for lines in LINES.values()
        for line in lines
        if line.strip()
        for i, j in ((0, len(line)), (len(line) // 3, len(line)), (0, max(1, len(line) // 2)))
    ]
    match_text = st.one_of(
        st.sampled_from(sorted(set(slices))),
        st.sampled_from(
            [
                "total",
                "return",
                "self",
                "def",
                "zzz",
                "a",
                ">",
                "<now>",
                ": for",
                "a > b",
                "::",
                "return total",
            ]
        ),
        noise,
        markup,
    )
    path = st.one_of(
        symbol,
        st.builds(lambda s, i: f"{s}.{i}", symbol, ident),
        st.builds(lambda s, n: s[:n] + s[n + 1 :] if len(s) > 1 else s, symbol, st.integers(0, 12)),
        st.lists(ident, min_size=1, max_size=5).map(".".join),
        st.builds(
            lambda s, how: {
                "dots": s.replace(".", "..", 1),
                "lead": "." + s,
                "trail": s + ".",
                "space": s.replace(".", " . ", 1),
                "dotdot": f"{s}..{s}",
            }[how],
            symbol,
            st.sampled_from(["dots", "lead", "trail", "space", "dotdot"]),
        ),
        st.text(st.characters(categories=["L", "Nl", "Mn"]), min_size=1, max_size=6),
        noise,
        markup,
    )
    prefix = st.one_of(
        st.just(""),
        st.just(f"{REPO}:"),
        st.just(f" {REPO} : "),
        st.sampled_from(
            ["nope:", "UP:", ":", "u p:", "-x:", "up.x:", "ü:", "up::", "0:", "up_2-x.y:"]
        ),
        st.builds(lambda r: r + ":", noise),
    )
    suffix = st.one_of(
        st.just(""),
        st.just(""),
        st.just("::"),
        st.builds(lambda s: "::" + s, space),
        st.builds(lambda m: "::" + m, match_text),
        st.builds(lambda m: " :: " + m, match_text),
    )
    composed = st.builds(
        lambda a, p, q, s, b: a + p + q + s + b, space, prefix, path, suffix, space
    )
    long_one = st.one_of(
        st.builds(
            lambda s, n: s * n,
            st.text(
                st.characters(codec="utf-8", exclude_characters="`\n\r"), min_size=1, max_size=6
            ),
            st.integers(150, 700),
        ),
        st.integers(MAX_TARGET - 12, MAX_TARGET + 12).map(
            lambda n: "pkg.mod.func::" + "x" * (n - 14)
        ),
        st.integers(MAX_TARGET - 12, MAX_TARGET + 12).map(lambda n: "pkg." + "a" * (n - 4)),
        st.integers(MAX_TARGET - 12, MAX_TARGET + 12).map(
            lambda n: (
                "  " + f"{REPO}:pkg.mod.func::" + "total = value * 2".ljust(n - 21, " ") + "  "
            )
        ),
    )
    target = st.one_of(
        composed,
        composed,
        composed,
        symbol,
        noise,
        markup,
        space,
        long_one,
        st.builds(lambda s: s + "::" + "total", symbol),
    )
    option_value = st.one_of(
        st.just(""),
        noise,
        markup,
        st.sampled_from(
            ["a b", "x-y", '"quoted"', "'q", "a: b", "[1, 2]", "{a: 1}", "- item", "|", ">"]
        ),
    )
    option = st.tuples(st.sampled_from(["caption", "caption", "class", "foo"]), option_value)
    return st.one_of(
        st.builds(Case, st.just("role"), target),
        st.builds(Case, st.just("role-label"), target, st.one_of(noise, markup, st.just(""))),
        st.builds(
            Case, st.just("directive"), target, st.just(""), st.lists(option, max_size=2).map(tuple)
        ),
    )


#: Hand-picked shapes from the issue, placed in every run before the generated ones.
CURATED = [
    Case("role", " "),
    Case("role", "\u3000"),
    Case("directive", ""),
    Case("directive", " "),
    Case("role", "pkg.mod::"),
    Case("role", "pkg.mod.func:: "),
    Case("directive", "pkg.mod.func::"),
    Case("role", "nope:pkg.mod"),
    Case("role-label", "pkg.mod.func", "label"),
    Case("role", "up:pkg.mod.nothing"),
    Case("role-label", "nope:pkg.mod.func", "x"),
    Case("directive", "nope:pkg.mod.func", "", (("caption", "c"),)),
    Case("role", "pkg..mod"),
    Case("role", "..pkg"),
    Case("role", "pkg.mod."),
    Case("role", "pkg.mod..func"),
    Case("role", "x" * 1001),
    Case("role", "pkg." + "a" * 996),
    Case("role", "pkg." + "a" * 997),
    Case("role", "*pkg*.mod"),
    Case("role", "[pkg](mod)"),
    Case("role", "pkg.mod.func::<b>"),
    Case("role", "<>"),
    Case("role-label", "pkg.mod.func", "**bold** <i>"),
    Case("role", "pkg.mod.func::total"),
    Case("role", "pkg.mod.func::zzz"),
    Case("role", "pkg.mod.func::total = value"),
    Case("role", "pkg::x"),
    Case("role", "pkg.sub::x"),
    Case("role", "pkg.sub.deep::return"),
    Case("role", "pkg.mod::return"),
    Case("role", "pkg.mod.Box::return"),
    Case("role", "pkg.mod.Box.open::open <now>"),
    Case(
        "directive",
        "pkg.mod.Box.close::closed: for good",
        "",
        (("caption", "a: b"), ("class", "x y")),
    ),
    Case("directive", "pkg.mod.func", "", (("class", "***"),)),
    Case("directive", "pkg.mod.func", "", (("foo", "1"),)),
    Case("role", "pkg.mod.func::\u2028"),
    Case("role", "pkg.\u00e9t\u00e9"),
    Case("role", "\u043f\u0430\u043a\u0435\u0442.mod"),
    Case("role", "\\pkg"),
    Case("role", "pkg.mod.func\\"),
    Case("role", "{src}"),
    Case("role", "\x00"),
    Case("directive", "", "", (("caption", "a b"), ("caption", "\u00e9\x00\x01"))),
    Case("directive", "pkg.mod.func", "", (("caption", "x\x00y"),)),
]


def _draw(strategy: st.SearchStrategy[Case], examples: int, at: int) -> list[Case]:
    """*examples* cases drawn by Hypothesis (generation only: no shrinking, no example database)."""
    drawn: list[Case] = []

    @hypothesis_seed(at)
    @settings(
        max_examples=examples,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def draw(case: Case) -> None:
        drawn.append(case)

    draw()
    return drawn


def generate(count: int, base_seed: int) -> tuple[list[Case], int]:
    """At least *count* distinct placeable cases (the curated ones first) and how many were filtered out."""
    cases: dict[tuple[str, ...], Case] = {tuple(c.markup() or ()): c for c in CURATED}
    filtered = 0
    strategy = _strategies()
    round_ = 0
    while len(cases) < count and round_ < 20:
        batch = _draw(strategy, max(100, count - len(cases) + 50), base_seed + round_)
        for case in batch:
            lines = case.markup()
            if lines is None:
                filtered += 1
            else:
                cases.setdefault(tuple(lines), case)
        round_ += 1
    return list(cases.values())[:count], filtered


# -- pages
# ------------------------------------------------------------------------------------------

FRONT = [None, f"source-repo: {REPO}", "source-repo: nope", "source-repo: 7", 'source-repo: ""']


def page_default(front: str | None) -> str:
    """The default repository of a page with this front matter line (conf.py says 'up')."""
    if front is None or front.endswith("7"):
        return REPO
    return front.split(":", 1)[1].strip().strip('"')


@dataclass
class Placed:
    """Where a case stands: page, first and last line of its markup, the page's default repository."""

    case: Case
    doc: str
    start: int
    end: int
    default_repo: str
    expected: str = ""
    myst: int = 0


def layout(
    cases: list[Case], *, per_page: int, first_page: int
) -> tuple[dict[str, str], list[Placed]]:
    """Pages (docname -> text) holding *cases*, one per paragraph or block, and where each stands."""
    pages: dict[str, str] = {}
    placed: list[Placed] = []
    for offset in range(0, len(cases), per_page):
        number = first_page + offset // per_page
        doc = f"p{number}"
        front = FRONT[number % len(FRONT)]
        lines = ["---", front, "---"] if front else []
        lines += [f"# Page {number}", ""]
        for case in cases[offset : offset + per_page]:
            markup = case.markup()
            assert markup is not None
            placed.append(
                Placed(case, doc, len(lines) + 1, len(lines) + len(markup), page_default(front))
            )
            lines += [*markup, ""]
        pages[doc] = "\n".join(lines) + "\n"
    return pages, placed


def myst_option_warnings(case: Case) -> int:
    """How many warnings MyST itself gives for the directive's option block (its own parser decides)."""
    if case.form != "directive" or not case.options:
        return 0
    from myst_parser.parsers.directives import parse_directive_text
    from source_anchors.sphinx_ext.roles import SourceAnchorDirective

    argument, content = _as_myst_sees_it(case)
    try:
        parsed = parse_directive_text(SourceAnchorDirective, argument, content)
    except (
        Exception
    ):  # a fatal parse (no argument) is one [docutils] error; option warnings are not given
        return 0
    return len(parsed.warnings)


def _as_myst_sees_it(case: Case) -> tuple[str, str]:
    """The directive's argument and option block after markdown-it's input normalisation (NUL -> U+FFFD)."""
    content = "\n".join(f":{k}: {v}".rstrip() for k, v in case.options)
    return case.content().strip().replace("\0", "\ufffd"), content.replace("\0", "\ufffd")


# -- checking one build
# -------------------------------------------------------------------------------


def describe(p: Placed) -> str:
    return f"{p.doc}.md:{p.start} {p.case.form} {p.case.content()!r}" + (
        f" options={list(p.case.options)!r}" if p.case.options else ""
    )


def expected_label(case: Case) -> str:
    """The label the anchor's record should carry (stripped), from the documented role/directive syntax."""
    if case.form == "directive":
        from myst_parser.parsers.directives import parse_directive_text
        from source_anchors.sphinx_ext.roles import SourceAnchorDirective

        argument, content = _as_myst_sees_it(case)
        try:
            parsed = parse_directive_text(SourceAnchorDirective, argument, content)
        except Exception:
            return argument.strip()
        caption = parsed.options.get("caption")
        return str(caption or (parsed.arguments[0] if parsed.arguments else "")).strip()
    label, target = _split(case.content().replace("\0", "\ufffd"))
    return label or target


def expected_target(p: Placed) -> str:
    """The ``target`` of the anchor's record: ``repo:key`` once the text parses, else the text stripped."""
    raw = p.case.target_text().strip().replace("\0", "\ufffd")
    parsed = _parse(raw, default_repo=p.default_repo)
    if parsed is None:
        return raw
    repo, path, match = parsed
    return f"{repo}:{path}" + (f"::{match}" if match is not None else "")


_WARNS = ("error", "missing", "moved", "changed")


def check_build(
    result: Run, placed: list[Placed], report: list[dict[str, Any]] | None, pages: dict[str, str]
) -> dict[int, list[str]]:
    """Problems per placed case (index into *placed*), plus problems of the whole build under -1.

    Records are matched to cases by their label, in page order (not by line: a wrong line is
    what is being checked); the source-anchors warnings of a page are matched, in reading order,
    to the cases whose records have a status that warns. MyST's and docutils' own warnings are
    matched by line, as MyST's lines are right.
    """
    problems: dict[int, list[str]] = defaultdict(list)
    if result.crashed():
        problems[-1].append("the build printed a traceback: " + _tail(result.output))
    if result.returncode != 0 or report is None:
        problems[-1].append(
            f"the build did not complete (exit {result.returncode}): {_tail(result.stderr)}"
        )
    located, other = warnings_of(result.stderr)
    for line in other:
        problems[-1].append(f"unlocated warning: {line[:300]}")
    by_doc: dict[str, list[int]] = defaultdict(list)
    for index, p in enumerate(placed):
        by_doc[p.doc].append(index)
    # Records, by label.
    record_of: dict[int, dict[str, Any]] = {}
    extra_records: dict[int, int] = defaultdict(int)
    waiting: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for index, p in enumerate(placed):
        waiting[(p.doc, expected_label(p.case), expected_target(p))].append(index)
    for row in report or []:
        key = (str(row.get("doc")), str(row.get("label", "")).strip(), str(row.get("target", "")))
        row_line = row["line"] if isinstance(row.get("line"), int) else 0
        # A record is never reported above its anchor: take the nearest case at or above its line.
        fits = [i for i in waiting.get(key, []) if placed[i].start <= row_line]
        if fits:
            record_of[fits[-1]] = row
            waiting[key].remove(fits[-1])
        else:
            owner = _owner_by_line(placed, by_doc, key[0], row.get("line"))
            if owner >= 0:
                extra_records[owner] += 1
            else:
                problems[-1].append(
                    f"report record matching no case: {row.get('doc')}:{row.get('line')} "
                    f"label={row.get('label')!r} target={row.get('target')!r}"
                )
    # Warnings: ours in reading order per page; MyST's and the rest by line.
    ours_of: dict[int, Any] = {}
    by_line: dict[int, list[Any]] = defaultdict(list)
    ours_by_doc: dict[str, list[Any]] = defaultdict(list)
    for warning in located:
        if (warning.type or "").startswith("source-anchors."):
            ours_by_doc[warning.doc].append(warning)
        else:
            owner = _owner_by_line(placed, by_doc, warning.doc, warning.line)
            if owner < 0:
                problems[-1].append(
                    f"stray warning {warning.doc}.md:{warning.line}: {warning.message[:200]} "
                    f"[{warning.type}]"
                )
            else:
                by_line[owner].append(warning)
    for doc in sorted(set(ours_by_doc) | set(by_doc)):
        # An unknown 'source-repo' is one warning at the front matter (line 2), not one per anchor
        # using it.
        page = [
            w
            for w in ours_by_doc.get(doc, [])
            if "the page's front matter sets 'source-repo:" in w.message
        ]
        relying = [i for i in by_doc.get(doc, []) if on_unknown_default(placed[i])]
        if [(w.line, w.type) for w in page] != ([(2, "source-anchors.target")] if relying else []):
            problems[-1].append(
                f"{doc}.md: front-matter warnings {[(w.line, w.message[:80]) for w in page]} for "
                f"{len(relying)} anchor(s) on an unknown default repository"
            )
        warned = [
            i
            for i in by_doc.get(doc, [])
            if record_of.get(i, {}).get("status") in _WARNS and not on_unknown_default(placed[i])
        ]
        got = [w for w in ours_by_doc.get(doc, []) if w not in page]
        if len(got) == len(warned):
            ours_of.update(zip(warned, got, strict=True))
            continue
        problems[-1].append(
            f"{doc}.md: {len(got)} source-anchors warnings for {len(warned)} records whose "
            "status warns; warnings matched by line instead"
        )
        for warning in got:
            owner = _owner_by_line(placed, by_doc, doc, warning.line)
            if owner >= 0 and owner not in ours_of:
                ours_of[owner] = warning
            else:
                problems[owner].append(
                    f"extra warning at {doc}.md:{warning.line}: {warning.message[:200]} "
                    f"[{warning.type}]"
                )
    for index, p in enumerate(placed):
        mine = problems[index]
        found = ours_of.get(index)
        rec = record_of.get(index)
        others = by_line.get(index, [])
        myst = [w for w in others if (w.type or "").startswith("myst.")]
        rest = [w for w in others if w not in myst]
        if p.expected == "ok" and found is not None:
            mine.append(f"valid anchor warned: {found.message[:300]} [{found.type}]")
        elif on_unknown_default(p):
            if found is not None:
                mine.append(
                    f"warned at its own line, not once at the front matter: {found.message[:200]}"
                )
        elif p.expected != "ok" and found is None:
            mine.append(
                f"expected one [source-anchors.{p.expected}] warning at {p.doc}.md:{p.start}, got none"
                + (
                    f"; other warnings here: {[f'{w.line}: {w.message[:160]} [{w.type}]' for w in rest]}"
                    if rest
                    else ""
                )
            )
        elif found is not None:
            if found.line != p.start:
                mine.append(
                    f"warning at {p.doc}.md:{found.line}, the anchor is on line {p.start}"
                    + _line_hint(pages[p.doc], p.start)
                )
            if found.type != f"source-anchors.{p.expected}":
                mine.append(
                    f"subtype {found.type}, expected source-anchors.{p.expected}: {found.message[:200]}"
                )
        if len(myst) != p.myst:
            mine.append(f"{len(myst)} MyST option warning(s), MyST's own parser predicts {p.myst}")
        if rest and (p.expected == "ok" or found is not None):
            mine.append(
                "unexpected warning(s): "
                + "; ".join(f"{w.line}: {w.message[:200]} [{w.type}]" for w in rest)
            )
        if report is not None:
            if rec is None:
                mine.append(f"no report record for this anchor (label {expected_label(p.case)!r})")
            else:
                if rec.get("line") != p.start:
                    mine.append(
                        f"report line {rec.get('line')}, the anchor is on line {p.start}"
                        + _line_hint(pages[p.doc], p.start)
                    )
                want = {"ok": ("new", "ok"), "missing": ("missing",), "target": ("error",)}[
                    p.expected
                ]
                if rec.get("status") not in want:
                    mine.append(
                        f"report status {rec.get('status')!r}, expected one of {want}: "
                        f"target {rec.get('target')!r}"
                    )
            if extra_records.get(index):
                mine.append(f"{extra_records[index]} more report record(s) in this anchor's lines")
    return problems


def on_unknown_default(p: Placed) -> bool:
    """Whether the anchor parses only with its page's default repository, which is not configured."""
    raw = p.case.target_text().strip()
    return (
        p.default_repo not in ("", REPO)
        and _parse(raw, default_repo=p.default_repo) is not None
        and _parse(raw, default_repo="") is None
    )


def _owner_by_line(
    placed: list[Placed], by_doc: dict[str, list[int]], doc: str, line: int | None
) -> int:
    """The case whose lines (up to the next case on the page) hold *line*, else -1."""
    best = -1
    for index in by_doc.get(doc, []):
        if line is not None and placed[index].start <= line:
            best = index
    return best


_LINE_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _line_hint(page: str, line: int) -> str:
    before = page.split("\n")[: line - 1]
    found = sorted({f"U+{ord(c):04X}" for text in before for c in text if c in _LINE_BREAKS})
    return (
        f" (earlier lines of the page hold {', '.join(found)}, which str.splitlines() counts as line ends)"
        if found
        else ""
    )


def _tail(text: str, lines: int = 6) -> str:
    return " | ".join(text.strip().splitlines()[-lines:])[:1200]


# -- the test
# -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Upstream, str]:
    upstream = Upstream(tmp_path_factory.mktemp("author") / "upstream")
    for rel, text in FILES.items():
        target = upstream.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")
    return upstream, upstream.commit("symbols")


def _write_book(
    root: Path, cache: Path, upstream: Upstream, commit: str, pages: dict[str, str]
) -> None:
    source = root
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    repos = {REPO: {"url": upstream.url, "commit": commit, "packages": ["pkg"]}}
    write_conf(root, repos, cache, default_repo=REPO)
    toc = "\n".join(sorted(pages, key=lambda d: int(d[1:])))
    (source / "index.md").write_text(f"# Index\n\n```{{toctree}}\n:hidden:\n{toc}\n```\n", "utf-8")
    for doc, text in pages.items():
        (source / f"{doc}.md").write_text(text, "utf-8")


def _prescreen(cases: list[Placed], settings_: Any) -> dict[int, str]:
    """Run the extension's core in-process on each case; the ones that raise a non-domain exception."""
    from source_anchors.engine.engine import Engine
    from source_anchors.markup.labels import split_label
    from source_anchors.model.errors import SourceAnchorsError
    from source_anchors.model.target import parse_target

    engine = Engine(settings_)
    crashes: dict[int, str] = {}
    for index, p in enumerate(cases):
        text = split_label(p.case.content())[1] if p.case.form != "directive" else p.case.content()
        try:
            engine.check(parse_target(text, default_repo=p.default_repo))
        except SourceAnchorsError:
            pass
        except Exception as error:  # the crash is the finding
            crashes[index] = f"{type(error).__name__}: {error}"
    return crashes


def test_bad_author_input(
    repo: tuple[Upstream, str], tmp_path: Path, results: Results, scale: Scale, seed: int
) -> None:
    tally = results.tally(CATEGORY)
    upstream, commit = repo
    cases, filtered = generate(scale.author_cases, seed)
    assert len(cases) >= scale.author_cases, f"only {len(cases)} distinct cases generated"
    per_build = scale.anchors_per_page * scale.pages_per_build
    cache = tmp_path / "cache"
    from source_anchors.model.config import settings_from

    core_settings = settings_from(
        {
            "repos": {REPO: {"url": upstream.url, "commit": commit, "packages": ["pkg"]}},
            "default_repo": REPO,
            "cache_dir": str(cache),
        },
        confdir=tmp_path,
        environ={},
    )
    budget = {"splits": 12, "books": 0}
    crashes_seen: dict[str, Placed] = {}
    kinds: Counter[str] = Counter()
    builds = 0
    for first in range(0, len(cases), per_build):
        chunk = cases[first : first + per_build]
        first_page = first // scale.anchors_per_page
        _, trial = layout(chunk, per_page=scale.anchors_per_page, first_page=first_page)
        crashes = _prescreen(trial, core_settings)
        for index, reason in crashes.items():
            p = trial[index]
            crashes_seen.setdefault(reason.split(":", 1)[0], p)
            tally.case(
                f"{p.case.form} {p.case.content()!r} (left off the batch pages)",
                [
                    f"the extension's core raised {reason} (Engine.check on {p.case.target_text()!r}); "
                    "in a build this is a traceback that ends it"
                ],
            )
        keep = [p.case for i, p in enumerate(trial) if i not in crashes]
        pages, placed = layout(keep, per_page=scale.anchors_per_page, first_page=first_page)
        for p in placed:
            p.expected = oracle(p.case.target_text(), default_repo=p.default_repo)
            p.myst = myst_option_warnings(p.case)
            kinds[p.expected] += 1
        _check_batch(
            tally,
            tmp_path / f"book-{first_page}",
            cache,
            upstream,
            commit,
            pages,
            placed,
            budget=budget,
        )
        builds += 1
    # Show each kind of crash in a real build once: the traceback is what an author would see.
    for reason, p in crashes_seen.items():
        pages, placed = layout([p.case], per_page=1, first_page=0)
        root = tmp_path / f"crash-{reason}"
        _write_book(root, cache, upstream, commit, pages)
        shown = run(
            sphinx_argv(root, "--keep-going", "-E", "-q"),
            cwd=root,
            env=build_env(),
            stats_dir=tmp_path,
        )
        tally.note(
            f"{reason} in a real build of {describe(placed[0])}: exit {shown.returncode}, "
            f"traceback printed: {shown.crashed()}"
        )
    tally.note(
        f"{len(cases)} cases: {sum(kinds.values())} placed on {builds} batch build(s), "
        f"{len(cases) - sum(kinds.values())} left off as core crashes; {filtered} generated texts filtered "
        f"out for MyST syntax; oracle: {dict(kinds)}"
    )
    tally.check()


def _check_batch(
    tally: Tally,
    root: Path,
    cache: Path,
    upstream: Upstream,
    commit: str,
    pages: dict[str, str],
    placed: list[Placed],
    *,
    budget: dict[str, int],
) -> None:
    """Build *pages*, check every case; a build that crashes is split in halves to isolate the crash."""
    _write_book(root, cache, upstream, commit, pages)
    result = build_in_process(root, fresh=True)
    report_path = root / "_build" / "html" / "source-anchors.json"
    report = json.loads(report_path.read_text("utf-8")) if report_path.is_file() else None
    problems = check_build(result, placed, report, pages)
    crashed = result.crashed() or report is None
    if crashed and len(placed) > 1 and budget["splits"] > 0:
        budget["splits"] -= 1
        half = len(placed) // 2
        for part in (placed[:half], placed[half:]):
            budget["books"] += 1
            new_pages, new_placed = layout([p.case for p in part], per_page=len(part), first_page=0)
            for new in new_placed:
                new.expected = oracle(new.case.target_text(), default_repo=new.default_repo)
                new.myst = myst_option_warnings(new.case)
            _check_batch(
                tally,
                root.with_name(f"split-{budget['books']}"),
                cache,
                upstream,
                commit,
                new_pages,
                new_placed,
                budget=budget,
            )
        return
    for index, p in enumerate(placed):
        mine = problems.get(index, [])
        if crashed:
            mine = [*problems.get(-1, []), *mine]
        tally.case(describe(p), mine)
    stray = problems.get(-1, [])
    if stray and not crashed:
        tally.case(f"{root.name}: lines outside every case", stray)


def test_oracle_knows_the_symbols() -> None:
    """The oracle's own sanity: real symbols are valid, a bad match or a typo is not."""
    assert oracle("pkg.mod.func", default_repo=REPO) == "ok"
    assert oracle("up:pkg.mod.Box.open::open <now>", default_repo="") == "ok"
    assert oracle("pkg.mod.func::total", default_repo=REPO) == "missing"  # three lines
    assert oracle("pkg.mod.func::total = value", default_repo=REPO) == "ok"
    assert (
        oracle("pkg.sub::x", default_repo=REPO) == "missing"
    )  # an empty module has no line to match
    assert oracle("pkg.mod.outer.inner", default_repo=REPO) == "missing"
    assert oracle("nope:pkg.mod", default_repo=REPO) == "target"
    assert oracle("pkg.mod::", default_repo=REPO) == "target"
    assert oracle("pkg..mod", default_repo=REPO) == "target"
    assert oracle("x" * 1001, default_repo=REPO) == "target"
    # File targets: a path from the repository's root, then as under a dotted path.
    assert oracle("/pkg/mod.py", default_repo=REPO) == "ok"
    assert oracle("up:/pkg/mod.py::LIMIT = 10", default_repo="") == "ok"
    assert oracle("/pkg/mod.py::total", default_repo=REPO) == "missing"  # three lines
    assert oracle("/pkg/nope.py", default_repo=REPO) == "missing"
    assert oracle("/pkg", default_repo=REPO) == "missing"  # a directory
    assert oracle("/<!--", default_repo=REPO) == "missing"
    assert (
        oracle("/a:b\0", default_repo=REPO) == "missing"
    )  # ':' belongs to the path; NUL reads as U+FFFD
    assert oracle("/pkg/../x", default_repo=REPO) == "target"
    assert oracle("/a//b", default_repo=REPO) == "target"
    assert oracle("/", default_repo=REPO) == "target"
    assert oracle("nope:/pkg/mod.py", default_repo=REPO) == "target"
    assert (
        oracle("pkg.mod.func::total::\u2028 ", default_repo=REPO) == "target"
    )  # an empty second level
    assert (
        oracle("pkg.mod.func::try:::x", default_repo=REPO) == "missing"
    )  # 'try:' then 'x': well formed
    assert _split_label("a <b>") == "b" and _split_label(" <> ") == ""
