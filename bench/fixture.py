"""The benchmark's fixture: django as a local git upstream, anchor targets picked with ``ast``, books.

Nothing here imports django or the extension: targets are chosen statically from
the source text, deterministically, so every run anchors the same symbols.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The tests' helpers (no pytest there): the one conf.py writer, sphinx command line and environment
# builder, loaded from their file (sys.path is left as it is).
_SPEC = importlib.util.spec_from_file_location("helpers", ROOT / "tests" / "helpers.py")
assert _SPEC is not None and _SPEC.loader is not None
helpers = importlib.util.module_from_spec(_SPEC)
sys.modules["helpers"] = helpers
_SPEC.loader.exec_module(helpers)

EXT = helpers.EXT
DIST = "django==5.2.19"
PER_PAGE = 10
#: One anchor in this many is a statement anchor (``path::match``).
STATEMENT_EVERY = 5
_LICENCES = ("LICENSE", "LICENSE.python", "AUTHORS")
_FIXED_GIT = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_AUTHOR_DATE": "2025-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2025-01-01T00:00:00Z",
}
#: Characters a match text must not hold: they would end the role or split its label.
_UNSAFE = ("`", "<", ">", "\\", "::")


@dataclass(frozen=True)
class Upstream:
    """The local upstream: its work tree (django/ at the root), ``file://`` URL and commit."""

    path: Path
    url: str
    commit: str


@dataclass(frozen=True)
class Symbol:
    """A function, class or method griffe names ``module.qualname``, with a match text if one exists."""

    module: str
    file: str
    qualname: str
    line: int
    match: str | None

    @property
    def path(self) -> str:
        """The dotted path of the symbol."""
        return f"{self.module}.{self.qualname}"


@dataclass(frozen=True)
class Anchor:
    """One anchor of the book: its symbol and, for a statement anchor, the match text."""

    symbol: Symbol
    statement: bool

    @property
    def target(self) -> str:
        """The role's target text."""
        return f"{self.symbol.path}::{self.symbol.match}" if self.statement else self.symbol.path


def _git(repo: Path, *args: str) -> str:
    """Run git on *repo* only (explicit git dir and work tree, fixed identity and dates)."""
    env = {**os.environ, **_FIXED_GIT, "GIT_DIR": str(repo / ".git"), "GIT_WORK_TREE": str(repo)}
    return subprocess.run(
        ["git", "-c", "commit.gpgsign=false", *args],
        cwd=repo,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def upstream(work: Path) -> Upstream:
    """Download the django wheel once and commit its ``django/`` files into a local git repository."""
    repo = work / "django-upstream"
    if not (repo / ".git" / "refs" / "heads" / "main").is_file():
        download = work / "download"
        wheels = sorted(download.glob("Django-*.whl")) + sorted(download.glob("django-*.whl"))
        if not wheels:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "--no-deps",
                    "--quiet",
                    "--disable-pip-version-check",
                    "-d",
                    str(download),
                    DIST,
                ],
                check=True,
            )
            wheels = sorted(download.glob("*.whl"))
        if repo.exists():
            subprocess.run(["rm", "-rf", str(repo)], check=True)
        repo.mkdir(parents=True)
        with zipfile.ZipFile(wheels[0]) as wheel:
            for info in wheel.infolist():
                name = info.filename
                if name.startswith("django/") and not info.is_dir():
                    rel = name
                elif "/licenses/" in name and name.rsplit("/", 1)[-1] in _LICENCES:
                    rel = name.rsplit("/", 1)[-1]
                else:
                    continue
                (repo / rel).parent.mkdir(parents=True, exist_ok=True)
                (repo / rel).write_bytes(wheel.read(info))
        subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
        _git(repo, "config", "uploadpack.allowFilter", "true")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", f"{DIST} from its wheel")
    return Upstream(path=repo, url=repo.as_uri(), commit=_git(repo, "rev-parse", "HEAD").strip())


# -- targets ------------------------------------------------------------------------------------


def _module_files(src: Path) -> list[tuple[str, str]]:
    """(dotted name, file) of every module whose whole path is importable, sorted by name."""
    found = []
    for file in src.glob("django/**/*.py"):
        rel = file.relative_to(src).as_posix()
        parts = rel[: -len(".py")].split("/")
        if parts[-1] == "__init__":
            parts.pop()
        packages = ["/".join(parts[:i]) for i in range(1, len(parts))]
        if all(p.isidentifier() for p in parts) and all(
            (src / p / "__init__.py").is_file() for p in packages
        ):
            found.append((".".join(parts), rel))
    return sorted(found)


def _bound_names(body: list[ast.stmt]) -> dict[str, int]:
    """How often each name is bound by the statements of *body* (into if/try/with, not into defs)."""
    counts: dict[str, int] = {}

    def bind(name: str) -> None:
        counts[name] = counts.get(name, 0) + 1

    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bind((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        bind(leaf.id)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        blocks = [getattr(node, key, None) or [] for key in ("body", "orelse", "finalbody")]
        blocks += [handler.body for handler in getattr(node, "handlers", [])]
        for block in blocks:
            for name, n in _bound_names(block).items():
                counts[name] = counts.get(name, 0) + n
    return counts


def _self_attributes(cls: ast.ClassDef) -> set[str]:
    """Names assigned as ``self.<name>`` anywhere in *cls* (griffe records them as attributes)."""
    return {
        node.attr
        for node in ast.walk(cls)
        if isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }


def _statement_lines(node: ast.stmt) -> list[int]:
    """First lines of the statements nested in *node* (through bodies only, never expressions)."""
    found = []
    blocks = [getattr(node, key, None) or [] for key in ("body", "orelse", "finalbody")]
    blocks += [part.body for key in ("handlers", "cases") for part in getattr(node, key, [])]
    for block in blocks:
        for child in block:
            if isinstance(child, ast.stmt):
                found.append(child.lineno)
                found += _statement_lines(child)
    return found


def _match_text(node: ast.stmt, lines: list[str]) -> str | None:
    """A line of *node*'s span (not its header) whose text occurs on exactly one line of the span."""
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
    end = node.end_lineno or node.lineno
    span = lines[start - 1 : end]
    heads = _statement_lines(node)
    middle = (start + end) / 2
    for number in sorted(heads, key=lambda n: (abs(n - middle), n)):  # nearest the middle first
        text = lines[number - 1].strip()
        if (
            len(text) >= 8
            and not any(u in text for u in _UNSAFE)
            and sum(text in line for line in span) == 1
        ):
            return text
    return None


def symbol_pool(src: Path) -> list[Symbol]:
    """Every top-level function and class, and every method, that resolves unambiguously by name."""
    pool: list[Symbol] = []
    modules = _module_files(src)
    names = {dotted for dotted, _ in modules}
    for dotted, file in modules:
        text = (src / file).read_text("utf-8")
        lines = text.splitlines()
        tree = ast.parse(text)
        top = _bound_names(tree.body)
        for node in tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if top.get(node.name) != 1 or f"{dotted}.{node.name}" in names:
                continue  # rebound, imported or shadowed by a submodule: griffe may name another object
            pool.append(Symbol(dotted, file, node.name, node.lineno, _match_text(node, lines)))
            if isinstance(node, ast.ClassDef):
                inner = _bound_names(node.body)
                attrs = _self_attributes(node)
                for method in node.body:
                    if (
                        isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and inner.get(method.name) == 1
                        and method.name not in attrs
                    ):
                        pool.append(
                            Symbol(
                                dotted,
                                file,
                                f"{node.name}.{method.name}",
                                method.lineno,
                                _match_text(method, lines),
                            )
                        )
    return pool


def _spread(items: list[Symbol], count: int, offset: float) -> list[Symbol]:
    """*count* items at evenly spaced positions of *items* (shifted by *offset* of a step)."""
    step = len(items) / count
    return [items[int((i + offset) * step)] for i in range(count)]


def _mixed(symbols: list[Symbol], count: int) -> list[Anchor]:
    """*count* anchors from *symbols*: one in five a statement anchor, all spread evenly."""
    statements = count // STATEMENT_EVERY
    with_match = [s for s in symbols if s.match]
    return [Anchor(s, False) for s in _spread(symbols, count - statements, 0.0)] + [
        Anchor(s, True) for s in _spread(with_match, statements, 0.5)
    ]


def select(pool: list[Symbol], count: int) -> list[Anchor]:
    """*count* anchors, ten per page, every target distinct, ordered by module and line.

    While there are enough modules with ten or more symbols, each page is one
    module: every k-th such module (in name order) gives ten anchors spread over
    its symbols. A larger book takes its anchors spread evenly over the whole pool.
    """
    by_module: dict[str, list[Symbol]] = {}
    for symbol in pool:
        by_module.setdefault(symbol.module, []).append(symbol)
    big = [
        syms
        for _, syms in sorted(by_module.items())
        if len(syms) >= PER_PAGE and sum(1 for s in syms if s.match) >= PER_PAGE // STATEMENT_EVERY
    ]
    pages = count // PER_PAGE
    if pages <= len(big):
        chosen = [a for i in range(pages) for a in _mixed(big[i * len(big) // pages], PER_PAGE)]
    else:
        chosen = _mixed(pool, count)
    chosen.sort(key=lambda a: (a.symbol.module, a.symbol.line, a.statement))
    if len({a.target for a in chosen}) != count:
        raise SystemExit(
            f"bench: {count} anchors need more distinct symbols than the pool's {len(pool)}"
        )
    return chosen


def cached_pool(work: Path, up: Upstream) -> list[Symbol]:
    """The symbol pool of *up*, computed once per commit and kept as JSON in *work*."""
    store = work / f"pool-{up.commit[:12]}.json"
    if store.is_file():
        return [Symbol(**entry) for entry in json.loads(store.read_text("utf-8"))]
    pool = symbol_pool(up.path)
    store.write_text(json.dumps([asdict(s) for s in pool]), "utf-8")
    return pool


def touched_files(anchors: list[Anchor]) -> list[str]:
    """The files the anchors touch: each anchored module plus its ancestor packages' ``__init__.py``."""
    files = set()
    for anchor in anchors:
        parts = anchor.symbol.file.split("/")
        files.add(anchor.symbol.file)
        files.update("/".join([*parts[:i], "__init__.py"]) for i in range(1, len(parts)))
    return sorted(files)


# -- books --------------------------------------------------------------------------------------


def pages_of(anchors: list[Anchor]) -> list[list[Anchor]]:
    """The anchors split into pages of ten, in order."""
    return [anchors[i : i + PER_PAGE] for i in range(0, len(anchors), PER_PAGE)]


def write_book(
    root: Path, anchors: list[Anchor], up: Upstream, *, cache: Path | None
) -> list[Path]:
    """Write conf.py and pages; with *cache* the anchors are ``{src}`` roles, else links.

    The extension is the one on ``PYTHONPATH`` (the bench's snapshot, see ``run.build_env``).

    Returns the page files (index excluded).
    """
    subprocess.run(["rm", "-rf", str(root)], check=True)
    source = root / "source"
    source.mkdir(parents=True)
    if cache is None:
        helpers.write_conf(
            root, extensions=["myst_parser"], myst_extensions=(), settings={"project": "bench"}
        )
    else:
        repos = {
            "django": {
                "url": up.url,
                "commit": up.commit,
                "packages": ["django"],
                "sources": ["cache", "git"],
            }
        }
        helpers.write_conf(
            root,
            repos,
            cache,
            myst_extensions=(),
            settings={"project": "bench"},
            default_repo="django",
        )
    files = []
    for number, page in enumerate(pages_of(anchors)):
        name = f"p{number:04d}"
        items = [f"- {_link(a, cache is not None)}: read it next to the prose above." for a in page]
        body = [
            f"# Page {number}: {page[0].symbol.module}",
            "",
            "This page walks through a few definitions; each link points at pinned lines.",
            "",
            *items,
            "",
        ]
        files.append(source / f"{name}.md")
        files[-1].write_text("\n".join(body), "utf-8")
    toc = "\n".join(f.stem for f in files)
    (source / "index.md").write_text(
        f"# Bench book\n\n```{{toctree}}\n:maxdepth: 1\n\n{toc}\n```\n", "utf-8"
    )
    return files


def _link(anchor: Anchor, role: bool) -> str:
    label = anchor.symbol.qualname + (" (statement)" if anchor.statement else "")
    if role:
        return f"{{src}}`{label} <{anchor.target}>`"
    return f"[{label}](https://example.org/django/{anchor.symbol.path})"
