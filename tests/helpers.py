"""Helpers shared by the tests and the bench: git upstreams, books, conf.py, sphinx command lines, environments.

This module imports neither pytest nor Sphinx at import time: ``bench/`` loads it from its file
and uses the same conf.py writer, sphinx command line and environment builder as the tests.
Sphinx is imported only by :meth:`Book.build` when it builds in-process.

A test book is one directory: ``conf.py``, the pages and the lock side by side (Sphinx's own
layout, so ``SphinxTestApp`` can build it: its confdir is its srcdir); builds go below
``_build/`` there. Fixed pages live in ``tests/roots/test-<name>/`` and are copied with
:meth:`Book.from_root`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXT = ROOT / "ext"
ROOTS = Path(__file__).resolve().parent / "roots"
PY = sys.executable
#: Port 9 (discard) on the loopback: nothing listens there, a connection is refused at once.
DEAD = "http://127.0.0.1:9"
PROXIES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


# -- git
# -----------------------------------------------------------------------------------------------


def git(*args: str, cwd: Path, identity: Mapping[str, str] = GIT_IDENTITY) -> str:
    """Run git in *cwd* with a fixed identity; return stdout."""
    env = {**os.environ, **identity}
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=env
    ).stdout


@dataclass
class Upstream:
    """A git repository made by a test, served as a ``file://`` remote with blob filters allowed."""

    path: Path

    def __post_init__(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)
        git("init", "-q", "-b", "main", cwd=self.path)
        # As ``git config`` would write them, in one go: blob filters served; no automatic
        # maintenance after each commit (a process each time, for repositories that live one
        # session).
        with open(self.path / ".git" / "config", "a", encoding="utf-8") as config:
            config.write(
                "[uploadpack]\n\tallowFilter = true\n[maintenance]\n\tauto = false\n[gc]\n\tauto = 0\n"
            )

    @property
    def url(self) -> str:
        """The ``file://`` URL of this repository."""
        return self.path.as_uri()

    def write(self, rel: str, text: str) -> None:
        """Write a file (dedented) into the work tree."""
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text).lstrip("\n"), "utf-8")

    def write_files(self, files: Mapping[str, str | bytes]) -> None:
        """Write each file as given (text undedented, or bytes)."""
        for rel, content in files.items():
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, "utf-8")

    def remove(self, rel: str) -> None:
        """Delete a file from the work tree."""
        (self.path / rel).unlink()

    def clear(self) -> None:
        """Empty the work tree (``.git`` kept), so that the next commit holds only what is written next."""
        for entry in self.path.iterdir():
            if entry.name == ".git":
                continue
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()

    def commit(self, message: str = "change", *, tag: str | None = None) -> str:
        """Commit everything (and tag it); return the full SHA."""
        git("add", "-A", cwd=self.path)
        git("commit", "-q", "--allow-empty", "-m", message, cwd=self.path)
        if tag:
            git("tag", tag, cwd=self.path)
        return git("rev-parse", "HEAD", cwd=self.path).strip()

    def ls_tree(self, commit: str) -> dict[str, str]:
        """{path: blob id} of every blob of *commit*, straight from ``git ls-tree -r``."""
        listing = {}
        for line in git("ls-tree", "-r", commit, cwd=self.path).splitlines():
            info, _, path = line.partition("\t")
            _mode, kind, blob = info.split()
            if kind == "blob":
                listing[path] = blob
        return listing


@dataclass(frozen=True)
class SharedUpstream:
    """The session's read-only upstream: one commit (and tag) per directory of ``tests/roots/upstream/``."""

    upstream: Upstream
    commits: dict[str, str]

    @property
    def url(self) -> str:
        """The ``file://`` URL of the repository."""
        return self.upstream.url

    def text(self, tag: str, rel: str) -> str:
        """The text of *rel* at the commit tagged *tag*, as committed."""
        return (ROOTS / "upstream" / tag / rel).read_text("utf-8")


#: The order in which the trees of ``tests/roots/upstream/`` are committed (each commit holds its
#: own files only).
SHARED_TAGS = ("build-v1", "build-v2", "build-pushed", "ledger", "demo", "languages")


def commit_all(root: Path, message: str) -> str:
    """Stage everything in *root*, commit it as *message*, and return the new commit's id."""
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", message, cwd=root)
    return git("rev-parse", "HEAD", cwd=root).strip()


def make_shared_upstream(path: Path) -> SharedUpstream:
    """The repository at *path*: a commit per tree of ``tests/roots/upstream/``, tagged with its name."""
    upstream = Upstream(path)
    commits = {}
    for tag in SHARED_TAGS:
        upstream.clear()
        tree = ROOTS / "upstream" / tag
        files: dict[str, str | bytes] = {
            file.relative_to(tree).as_posix(): file.read_bytes()
            for file in sorted(tree.rglob("*"))
            if file.is_file()
        }
        # An empty __init__.py is the same blob as any project's: it is written here, never
        # committed.
        for folder in {
            rel.rpartition("/")[0] for rel in files if rel.endswith(".py") and "/" in rel
        }:
            files.setdefault(f"{folder}/__init__.py", b"")
        upstream.write_files(files)
        commits[tag] = upstream.commit(tag, tag=tag)
    return SharedUpstream(upstream, commits)


# -- conf.py, command lines, environments
# ------------------------------------------------------------------


def write_conf(
    root: Path,
    repos: Mapping[str, Any] | None = None,
    cache: Path | None = None,
    *,
    extensions: Sequence[str] = ("myst_parser", "source_anchors"),
    myst_extensions: Sequence[str] = ("colon_fence",),
    settings: Mapping[str, Any] | None = None,
    **values: Any,
) -> Path:
    """Write ``root/conf.py``: *extensions*, *repos*, the cache, ``source_anchors_<name>`` *values*, *settings*.

    The extension is found installed, as a user's is (the bench puts its snapshot first on
    ``PYTHONPATH``).
    *settings* are plain Sphinx values such as ``suppress_warnings``. Values are written with
    ``repr``, so any Python literal (even an invalid configuration) can be written.
    """
    lines = [f"extensions = {list(extensions)!r}"]
    if myst_extensions and "myst_parser" in extensions:
        lines.append(f"myst_enable_extensions = {list(myst_extensions)!r}")
    lines.append("exclude_patterns = ['_build']")
    if repos is not None:
        lines.append(f"source_anchors_repos = {_plain(repos)!r}")
    if cache is not None:
        lines.append(f"source_anchors_cache_dir = {str(cache)!r}")
    lines += [f"source_anchors_{key} = {value!r}" for key, value in values.items()]
    lines += [f"{key} = {value!r}" for key, value in (settings or {}).items()]
    path = root / "conf.py"
    root.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _plain(value: Any) -> Any:
    """Mappings as plain dicts (their repr is a literal), the rest as it is."""
    return dict(value) if isinstance(value, Mapping) and not isinstance(value, dict) else value


def sphinx_argv(
    srcdir: Path,
    *options: str,
    outdir: Path | None = None,
    confdir: Path | None = None,
    runner: Sequence[str] = (),
) -> list[str]:
    """``python [RUNNER] -m sphinx OPTIONS [-c CONFDIR] SRCDIR OUTDIR`` (OUTDIR: ``SRCDIR/_build/html``)."""
    conf = ["-c", str(confdir)] if confdir is not None else []
    return [
        PY,
        *runner,
        "-m",
        "sphinx",
        *options,
        *conf,
        str(srcdir),
        str(outdir or srcdir / "_build" / "html"),
    ]


def cli_argv(confdir: Path, *args: str) -> list[str]:
    """``python -m source_anchors --confdir CONFDIR --srcdir CONFDIR ARGS`` (the entry point, in a subprocess)."""
    return [PY, "-m", "source_anchors", *cli_args(confdir, *args)]


def cli_args(confdir: Path, *args: str) -> list[str]:
    """The arguments of ``source_anchors.cli.main.main`` for a test book (pages beside conf.py)."""
    return ["--confdir", str(confdir), "--srcdir", str(confdir), *args]


#: What GitHub Actions, GitLab CI and Read the Docs set that names the book's repository (a test
#: sets them).
SERVICE_VARIABLES = (
    "GITHUB_SERVER_URL",
    "GITHUB_REPOSITORY",
    "CI_PROJECT_URL",
    "READTHEDOCS_GIT_CLONE_URL",
)


def build_env(
    extra: Mapping[str, str | None] | None = None, *, pycache: bool = True, proxies: bool = False
) -> dict[str, str]:
    """Our environment less CI, SOURCE_ANCHORS_CACHE and proxies, plus *extra* (None removes a name).

    The extension is found as a user's is: installed in the venv (``requirements.txt`` installs this
    checkout, editable), never through ``PYTHONPATH``. *pycache* drops ``PYTHONDONTWRITEBYTECODE``,
    so that Python caches byte code where it always does: the extension's in its (git-ignored)
    ``__pycache__`` folders, written by the first build and read by the later ones; the standard
    library's and the venv's, compiled when they were installed, are read as they are. (A
    ``PYTHONPYCACHEPREFIX`` would ignore those and compile all of Sphinx again on a new machine:
    about 8 s of CPU over a ``make test`` in CI.) *proxies* keeps the proxy variables (for builds
    that download).
    """
    dropped = (
        "CI",
        "SOURCE_ANCHORS_CACHE",
        *SERVICE_VARIABLES,
        *([] if proxies else PROXIES),
        *(["PYTHONDONTWRITEBYTECODE"] if pycache else []),
    )
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    for key, value in (extra or {}).items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def pip_env(find_links: Path | None, cache: Path) -> dict[str, str | None]:
    """pip offline from one find-links directory, ignoring the machine's pip configuration files."""
    return {
        "PIP_CONFIG_FILE": os.devnull,
        "PIP_NO_INDEX": "1" if find_links else None,
        "PIP_FIND_LINKS": str(find_links) if find_links else None,
        "PIP_INDEX_URL": None,
        "PIP_EXTRA_INDEX_URL": None,
        "PIP_CACHE_DIR": str(cache),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }


# -- books
# -------------------------------------------------------------------------------------------------

#: ``make_app`` of ``sphinx.testing.fixtures`` (or ``SphinxTestApp`` itself): builds in-process.
AppFactory = Callable[..., Any]


def copy_root(name: str, dest: Path) -> None:
    """Copy the fixed files of ``tests/roots/test-<name>`` into *dest*."""
    shutil.copytree(ROOTS / f"test-{name}", dest, dirs_exist_ok=True)


@dataclass
class BuildResult:
    """Exit status, output and the output directory of one build (in-process or a subprocess)."""

    returncode: int
    stdout: str
    stderr: str
    outdir: Path
    srcdir: Path

    def report(self) -> list[dict[str, Any]]:
        """The build's ``source-anchors.json``."""
        data = json.loads((self.outdir / "source-anchors.json").read_text("utf-8"))
        assert isinstance(data, list)
        return data

    def stats(self) -> dict[str, Any]:
        """The build's ``source-anchors.stats.json``."""
        data = json.loads((self.outdir / "source-anchors.stats.json").read_text("utf-8"))
        assert isinstance(data, dict)
        return data

    def warnings(self) -> list[str]:
        """The lines of stderr that are warnings or errors, their paths relative to the book."""
        prefix = str(self.srcdir) + os.sep
        return [
            line.replace(prefix, "")
            for line in self.stderr.splitlines()
            if "WARNING" in line or "ERROR" in line
        ]

    def html(self, doc: str = "index") -> str:
        """The text of ``<doc>.html``."""
        return (self.outdir / f"{doc}.html").read_text("utf-8")


def build_the_book(outdir: Path, cache: Path, *, strict: bool = True) -> BuildResult:
    """This repository's book in a subprocess, with the anchor cache *cache* (distributions are
    downloaded: proxies kept). *strict* builds it as ``make book-strict`` does: locked
    (``CI=true``), ``-nW --keep-going -E``; otherwise as the preview (``make html``), where drift is
    marked, not fatal."""
    extra = {"SOURCE_ANCHORS_CACHE": str(cache), **({"CI": "true"} if strict else {})}
    options = ("-nW", "--keep-going", "-E") if strict else ("-q",)
    env = build_env(extra, pycache=False, proxies=True)
    done = subprocess.run(
        sphinx_argv(ROOT / "source", *options, "--no-color", outdir=outdir, confdir=ROOT),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=900,
        check=False,
    )
    return BuildResult(done.returncode, done.stdout, done.stderr, outdir, ROOT / "source")


def save_build(result: BuildResult, path: Path) -> None:
    """Write *result* as JSON, for another process to :func:`load_build`."""
    fields = {
        "returncode": result.returncode,
        "stdout": result.stdout,
        "stderr": result.stderr,
        "outdir": str(result.outdir),
        "srcdir": str(result.srcdir),
    }
    path.write_text(json.dumps(fields), "utf-8")


def load_build(path: Path) -> BuildResult:
    """The :class:`BuildResult` that :func:`save_build` wrote."""
    fields = json.loads(path.read_text("utf-8"))
    return BuildResult(
        fields["returncode"],
        fields["stdout"],
        fields["stderr"],
        Path(fields["outdir"]),
        Path(fields["srcdir"]),
    )


@dataclass
class Book:
    """A small book: conf.py and pages in ``root``, a private anchor cache; built in-process by default."""

    root: Path
    cache: Path
    repos: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Plain Sphinx values written into conf.py (e.g. ``suppress_warnings``).
    settings: dict[str, Any] = field(default_factory=dict)
    make_app: AppFactory | None = None
    #: The warning stream of the last in-process build (set even when the build stopped early).
    last_warnings: StringIO = field(default_factory=StringIO)

    def write_conf(self, **values: Any) -> None:
        """(Re)write conf.py with the current repos and any extra ``source_anchors_*`` values."""
        write_conf(self.root, self.repos, self.cache, settings=self.settings, **values)

    def from_root(self, name: str) -> Book:
        """Copy the pages of ``tests/roots/test-<name>`` into the book."""
        copy_root(name, self.root)
        return self

    def page(self, name: str, text: str) -> None:
        """Write ``<name>.md`` (dedented)."""
        target = self.root / f"{name}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text).lstrip("\n"), "utf-8")

    @property
    def lock(self) -> Path:
        """The lock file beside conf.py."""
        return self.root / "source-anchors.lock"

    def cli(self, *args: str) -> list[str]:
        """The arguments of ``cli.main`` for this book."""
        return cli_args(self.root, *args)

    def build(
        self,
        *,
        strict: bool = True,
        fresh: bool = False,
        out: str = "html",
        builder: str = "html",
        assert_pass: bool | None = None,
    ) -> BuildResult:
        """Build in-process with ``make_app``, as ``sphinx-build [-W] [-E]`` would.

        *strict* is ``-W`` (the status is 1 when there were warnings); *fresh* is ``-E``. With
        *assert_pass* (default: same as *strict*) the build must end with status 0 and no
        warning at all, as sphinx-design's ``SphinxBuilder.build(assert_pass=True)`` checks.
        A configuration the extension refuses raises ``SystemExit`` from here (the message is
        then in :attr:`last_warnings`).
        """
        assert self.make_app is not None, (
            "this book builds in a subprocess only (see build_subprocess)"
        )
        status, warning = StringIO(), StringIO()
        self.last_warnings = warning
        clean_global_state()  # a second app in one test would warn that the first one's nodes are registered
        try:
            app = self.make_app(
                builder,
                srcdir=self.root,
                builddir=self.root / "_build" / out,
                freshenv=fresh,
                warningiserror=strict,
                status=status,
                warning=warning,
            )
        except BaseException:
            clean_global_state()  # SphinxTestApp cleans up after an Exception only, not after SystemExit
            raise
        app.build()
        result = BuildResult(
            app.statuscode, status.getvalue(), warning.getvalue(), Path(app.outdir), self.root
        )
        if strict if assert_pass is None else assert_pass:
            assert result.returncode == 0 and not result.warnings(), result.stderr
        return result

    def build_subprocess(
        self, *options: str, out: str = "html", env: Mapping[str, str | None] | None = None
    ) -> BuildResult:
        """Run ``python -m sphinx OPTIONS`` in a subprocess, as a user would; CI is unset unless given."""
        outdir = self.root / "_build" / out
        done = subprocess.run(
            sphinx_argv(self.root, *options, outdir=outdir),
            capture_output=True,
            text=True,
            env=build_env(env),
            cwd=self.root,
            timeout=600,
        )
        return BuildResult(done.returncode, done.stdout, done.stderr, outdir, self.root)


def make_book(
    root: Path,
    cache: Path,
    *,
    repos: Mapping[str, dict[str, Any]] | None = None,
    make_app: AppFactory | None = None,
    pages: Iterable[tuple[str, str]] = (),
) -> Book:
    """A book in *root* (created), with *repos* and *pages*; conf.py is written when *repos* is given."""
    root.mkdir(parents=True, exist_ok=True)
    book = Book(root=root, cache=cache, repos=dict(repos or {}), make_app=make_app)
    for name, text in pages:
        book.page(name, text)
    if repos is not None:
        book.write_conf()
    return book


# -- in-process Sphinx
# -----------------------------------------------------------------------------------


def clean_global_state() -> None:
    """Undo what a Sphinx application registered in docutils (roles, directives, node visitors).

    ``SphinxTestApp.cleanup`` does this for the apps of ``make_app``; an application made
    elsewhere (the CLI's) or stopped by ``SystemExit`` in its constructor needs it done here,
    or the next application warns that its nodes are already registered.
    """
    from sphinx.testing.util import _clean_up_global_state

    _clean_up_global_state()


def run_cli(args: Sequence[str]) -> int:
    """``source_anchors.cli.main.main(args)`` in-process, then the global state cleaned up."""
    from source_anchors.cli.main import main

    try:
        return main(list(args))
    finally:
        clean_global_state()


class _SharedTemplates:
    """Jinja's compiled templates kept in memory across the in-process applications of one process.

    A Sphinx application compiles every theme template again (``BuiltinTemplateLoader.init`` makes a
    new Jinja environment per builder), about 9 templates and 40 ms a build. Jinja's own bytecode
    cache keys a template by its name and file and checks the checksum of its source, so a changed
    template or another theme's template of the same name is compiled anew: the HTML is the same as
    without it.

    The theme's static ``*_t`` files (``basic.css_t``, ``documentation_options.js_t`` …) are
    rendered through ``render_string``, which Jinja compiles from the text each time (no bytecode
    cache applies to ``from_string``): about 10 ms a build, 3 s of a ``make test``. Their compiled
    code is kept here by the text itself and the environment's compile settings, and rendered in
    each build's own environment with its own globals, as ``Environment.from_string`` does.
    """

    def __init__(self) -> None:
        import jinja2

        class Memory(jinja2.BytecodeCache):
            def __init__(self) -> None:
                self.store: dict[str, bytes] = {}

            def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
                if bucket.key in self.store:
                    bucket.bytecode_from_string(self.store[bucket.key])

            def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
                self.store[bucket.key] = bucket.bytecode_to_string()

        self.cache = Memory()
        self.compiled: dict[tuple[Any, ...], Any] = {}

    def install(self) -> Callable[[], None]:
        """Give every template loader made from now on this cache; return the function that undoes it."""
        from sphinx.jinja2glue import BuiltinTemplateLoader

        original, original_render = BuiltinTemplateLoader.init, BuiltinTemplateLoader.render_string
        cache, compiled = self.cache, self.compiled

        def init(loader: BuiltinTemplateLoader, *args: Any, **kwargs: Any) -> None:
            original(loader, *args, **kwargs)
            loader.environment.bytecode_cache = cache

        def render_string(
            loader: BuiltinTemplateLoader, source: str, context: dict[str, Any]
        ) -> str:
            env = loader.environment
            key = (
                source,
                type(env),
                tuple(sorted(env.extensions)),
                env.autoescape,
                env.newline_sequence,
            )
            if key not in compiled:
                compiled[key] = env.compile(source)
            return str(
                env.template_class.from_code(
                    env, compiled[key], env.make_globals(None), None
                ).render(context)
            )

        BuiltinTemplateLoader.init = init  # type: ignore[method-assign,assignment]
        BuiltinTemplateLoader.render_string = render_string  # type: ignore[method-assign,assignment]

        def undo() -> None:
            BuiltinTemplateLoader.init = original  # type: ignore[method-assign]
            BuiltinTemplateLoader.render_string = original_render  # type: ignore[method-assign]

        return undo


def share_compiled_templates() -> Callable[[], None]:
    """See :class:`_SharedTemplates`; returns the undo function."""
    return _SharedTemplates().install()


def latex_pdf(latex: Path) -> tuple[Path, str]:
    """Run what ``make pdf`` runs in Sphinx's LaTeX output *latex* (its Makefile: latexmk, xelatex).

    Returns the PDF and its text as ``pdftotext`` reads it (UTF-8); fails with the tail of the
    output when the PDF is not made.
    """
    done = subprocess.run(
        [
            "make",
            "-C",
            str(latex),
            "LATEXMKOPTS=-silent",
            "LATEXOPTS=-interaction=nonstopmode -halt-on-error",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    (pdf,) = latex.glob("*.pdf")
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    return pdf, text
