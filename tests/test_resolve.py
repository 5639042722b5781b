"""Tests for ``source_anchors.resolve.resolver`` through the Engine, on git repositories made by the tests.

Each upstream is a real git repository exported through the real ``file://`` fetch; the resolver
reads it statically (ast, never an import). Expected lines are computed from the text each test
wrote (``line_of``), never copied from the resolver's output.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import Upstream, git
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.errors import ResolveError
from source_anchors.model.records import Outcome
from source_anchors.model.target import Target
from source_anchors.model.textlines import decode_source
from source_anchors.resolve.resolver import Location, lines_hash


def line_of(text: str, needle: str) -> int:
    """The 1-based number of the only line of *text* containing *needle*."""
    hits = [number for number, line in enumerate(text.split("\n"), start=1) if needle in line]
    assert len(hits) == 1, f"{needle!r} is on lines {hits}, expected exactly one"
    return hits[0]


def lines_with(text: str, needle: str) -> list[int]:
    """Every 1-based line number of *text* holding *needle*."""
    return [number for number, line in enumerate(text.split("\n"), start=1) if needle in line]


def line_count(text: str) -> int:
    """Lines as a code host counts them: newline-terminated lines, plus an unterminated last one."""
    return text.count("\n") + (0 if text.endswith("\n") else 1)


@dataclass
class Repo:
    """An upstream with the texts written into it, pinned and opened by an Engine."""

    upstream: Upstream
    texts: dict[str, str]
    engine: Engine
    sha: str

    def check(self, path: str, match: str | None = None) -> Outcome:
        return self.engine.check(Target("up", path, match))

    def resolve(self, path: str, match: str | None = None) -> Location:
        return self.engine.resolver("up").resolve(path, match=match)

    def span(self, rel: str, start: str, end: str) -> tuple[int, int]:
        """Lines of *rel* from the line holding *start* to the line holding *end*."""
        return line_of(self.texts[rel], start), line_of(self.texts[rel], end)


def make_repo(
    upstream: Upstream,
    tmp: Path,
    files: dict[str, str | bytes],
    packages: tuple[str, ...] = ("pkg",),
) -> Repo:
    """Commit *files* (alone: the work tree is emptied first) and open the pinned commit with an Engine.

    *upstream* is usually the session's ``tree_upstream``: each call adds a commit to it, and
    the commits of other tests are never changed.
    """
    upstream.clear()
    texts: dict[str, str] = {}
    for rel, content in files.items():
        if isinstance(content, bytes):
            target = upstream.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        else:
            upstream.write(rel, content)
            texts[rel] = (upstream.path / rel).read_text("utf-8")
    sha = upstream.commit()
    settings = settings_from(
        {
            "repos": {"up": {"url": upstream.url, "commit": sha, "packages": list(packages)}},
            "cache_dir": str(tmp / "cache"),
        },
        confdir=tmp,
        environ={},
    )
    return Repo(upstream, texts, Engine(settings), sha)


# -- one shared tree for the location tests ------------------------------------

INIT = '''\
"""The package."""

from .core import Thing
from .api import Gadget, Widget
'''

API = '''\
"""Re-exports, one hop further."""

from .core import Thing as Widget
from .impl import Gadget
'''

IMPL = '''\
"""The real home of Gadget."""


class Gadget:
    """Made here, exported by pkg.api and then pkg."""

    def spin(self):
        return "spinning"
'''

CORE = '''\
"""Core objects."""

import functools
import os
from os.path import join
from typing import overload

LIMIT = 10

TABLE = {
    "a": 1,
    "b": 2,
}

if os.environ.get("PKG_DEBUG"):
    DEBUG_LEVEL = 2

try:
    RETRIES = int(os.environ["PKG_RETRIES"])
except (KeyError, ValueError):
    FALLBACK_RETRIES = 3


def process(data):
    """Process data."""
    if not data:
        return None
    total = 0
    for item in data:
        total += item
    return total


@functools.lru_cache(
    maxsize=8,
)
@functools.wraps(process)
def cached(x):
    return [x]


@functools.total_ordering
class Thing:
    """A thing."""

    kind = "thing"

    def __init__(self, size):
        self.size = size
        self.parts = [
            size,
            size * 2,
        ]

    def grow(self, by):
        return self.size + by

    @property
    def area(self):
        return self.size ** 2

    @area.setter
    def area(self, value):
        self._area = value

    @staticmethod
    def make():
        return Thing(1)

    @classmethod
    def build(cls, size):
        return cls(size)


@overload
def convert(x: int) -> int: ...


@overload
def convert(x: str) -> str: ...


def convert(x):
    if isinstance(x, int):
        return x + 0
    return str(x)
'''

BASE = """\
class Base:
    def method(self):
        return "base"

    def other(self):
        return "base other"
"""

SHAPES = """\
from .base import Base


class Middle(Base):
    def other(self):
        return "middle other"


class Child(Middle):
    pass
"""

FILES = {
    "pkg/__init__.py": INIT,
    "pkg/api.py": API,
    "pkg/impl.py": IMPL,
    "pkg/core.py": CORE,
    "pkg/base.py": BASE,
    "pkg/shapes.py": SHAPES,
    "README.md": "not exported\n",
}


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    tmp = tmp_path_factory.mktemp("shared")
    repo = make_repo(Upstream(tmp / "upstream"), tmp, dict(FILES))
    assert repo.texts["pkg/core.py"] == CORE  # the constants are the files' exact text
    return repo


@pytest.mark.parametrize(
    ("path", "start", "end", "kind"),
    [
        pytest.param("pkg.core.process", "def process", "return total", "function", id="function"),
        # A decorated definition starts at its first decorator (here a multi-line one).
        pytest.param(
            "pkg.core.cached",
            "@functools.lru_cache(",
            "return [x]",
            "function",
            id="decorated-function",
        ),
        pytest.param(
            "pkg.core.Thing", "@functools.total_ordering", "return cls(size)", "class", id="class"
        ),
        pytest.param(
            "pkg.core.Thing.grow", "def grow", "return self.size + by", "function", id="method"
        ),
        pytest.param("pkg.core.Thing.__init__", "def __init__", "        ]", "function", id="init"),
        # A property is the getter from '@property'; the setter is not included.
        pytest.param(
            "pkg.core.Thing.area", "@property", "return self.size ** 2", None, id="property"
        ),
        pytest.param(
            "pkg.core.Thing.make", "@staticmethod", "return Thing(1)", "function", id="staticmethod"
        ),
        pytest.param(
            "pkg.core.Thing.build", "@classmethod", "return cls(size)", "function", id="classmethod"
        ),
        # @overload: the implementation, from its 'def' to its end; the overload stubs are not
        # included.
        pytest.param(
            "pkg.core.convert", "def convert(x):", "return str(x)", "function", id="overload"
        ),
        # Attributes: the whole assignment statement.
        pytest.param(
            "pkg.core.LIMIT", "LIMIT = 10", "LIMIT = 10", "attribute", id="module-attribute"
        ),
        pytest.param("pkg.core.TABLE", "TABLE = {", "}", "attribute", id="multiline-assignment"),
        pytest.param(
            "pkg.core.Thing.kind",
            'kind = "thing"',
            'kind = "thing"',
            "attribute",
            id="class-attribute",
        ),
        pytest.param(
            "pkg.core.Thing.size",
            "self.size = size",
            "self.size = size",
            "attribute",
            id="instance-attribute",
        ),
        pytest.param(
            "pkg.core.Thing.parts",
            "self.parts = [",
            "        ]",
            "attribute",
            id="multiline-instance-attribute",
        ),
        # Names bound under module-level if / try / except.
        pytest.param(
            "pkg.core.DEBUG_LEVEL", "DEBUG_LEVEL = 2", "DEBUG_LEVEL = 2", "attribute", id="under-if"
        ),
        pytest.param(
            "pkg.core.RETRIES", "RETRIES = int(", "RETRIES = int(", "attribute", id="under-try"
        ),
        pytest.param(
            "pkg.core.FALLBACK_RETRIES",
            "FALLBACK_RETRIES = 3",
            "FALLBACK_RETRIES = 3",
            "attribute",
            id="under-except",
        ),
    ],
)
def test_object_spans(shared: Repo, path: str, start: str, end: str, kind: str | None) -> None:
    location = shared.resolve(path)
    assert location.path == "pkg/core.py"
    assert (location.start, location.end) == shared.span("pkg/core.py", start, end)
    if kind is not None:
        assert location.kind == kind


def test_property_setter_is_outside_the_span(shared: Repo) -> None:
    location = shared.resolve("pkg.core.Thing.area")
    assert location.end < line_of(CORE, "@area.setter")
    assert location.start == line_of(CORE, "@property")


def test_overload_stubs_are_outside_the_span(shared: Repo) -> None:
    location = shared.resolve("pkg.core.convert")
    stubs = lines_with(CORE, "def convert(x: ")
    assert len(stubs) == 2
    assert all(stub < location.start for stub in stubs)


def test_location_hashes_and_blob(shared: Repo) -> None:
    location = shared.resolve("pkg.core.process")
    lines = CORE.split("\n")
    assert location.sha256 == lines_hash(lines, location.start, location.end)
    blob = shared.upstream.path / "pkg/core.py"
    assert location.blob == git("hash-object", str(blob), cwd=shared.upstream.path).strip()


# -- re-exports and inheritance ----------------------------------------------------


@pytest.mark.parametrize(
    ("path", "file", "start", "end", "kind"),
    [
        # pkg/__init__.py: from .core import Thing
        pytest.param(
            "pkg.Thing",
            "pkg/core.py",
            "@functools.total_ordering",
            "return cls(size)",
            "class",
            id="re-export",
        ),
        pytest.param(
            "pkg.Thing.grow",
            "pkg/core.py",
            "def grow",
            "return self.size + by",
            "function",
            id="member-of-re-export",
        ),
        # pkg -> pkg.api -> pkg.impl
        pytest.param(
            "pkg.Gadget", "pkg/impl.py", "class Gadget:", 'return "spinning"', "class", id="chain"
        ),
        pytest.param(
            "pkg.Gadget.spin",
            "pkg/impl.py",
            "def spin",
            'return "spinning"',
            "function",
            id="member-through-chain",
        ),
        # pkg -> pkg.api (renamed: Thing as Widget) -> pkg.core
        pytest.param(
            "pkg.Widget",
            "pkg/core.py",
            "@functools.total_ordering",
            "return cls(size)",
            "class",
            id="renamed-chain",
        ),
        # Inherited members resolve where they are defined, nearest class first.
        pytest.param(
            "pkg.shapes.Child.method",
            "pkg/base.py",
            "def method",
            'return "base"',
            "function",
            id="inherited-two-levels",
        ),
        pytest.param(
            "pkg.shapes.Child.other",
            "pkg/shapes.py",
            "def other",
            'return "middle other"',
            "function",
            id="inherited-override",
        ),
        pytest.param(
            "pkg.shapes.Base.method",
            "pkg/base.py",
            "def method",
            'return "base"',
            "function",
            id="imported-name",
        ),
    ],
)
def test_followed_to_definition(
    shared: Repo, path: str, file: str, start: str, end: str, kind: str
) -> None:
    location = shared.resolve(path)
    assert location.path == file
    assert (location.start, location.end) == shared.span(file, start, end)
    assert location.kind == kind


def test_alias_to_outside_the_packages_is_missing(shared: Repo) -> None:
    outcome = shared.check("pkg.core.join")  # from os.path import join
    assert outcome.status == "missing"
    assert outcome.location is None
    assert "up:pkg.core.join" in outcome.message
    assert "os.path.join" in outcome.message
    assert "'os' is not a package of up" in outcome.message
    assert "packages: pkg" in outcome.message


# -- module anchors ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "file"), [("pkg.core", "pkg/core.py"), ("pkg", "pkg/__init__.py")]
)
def test_module_anchor_is_the_whole_file(shared: Repo, path: str, file: str) -> None:
    outcome = shared.check(path)
    assert outcome.status == "new"
    location = outcome.location
    assert location is not None
    assert location.kind == "module"
    assert location.whole_file
    assert (location.path, location.start, location.end) == (
        file,
        1,
        line_count(shared.texts[file]),
    )
    assert outcome.permalink == f"{shared.upstream.url}/blob/{shared.sha}/{file}"
    assert "#L" not in outcome.permalink


def test_statement_anchor_permalink_has_line_fragment(shared: Repo) -> None:
    outcome = shared.check("pkg.core.process")
    start, end = shared.span("pkg/core.py", "def process", "return total")
    assert (
        outcome.permalink == f"{shared.upstream.url}/blob/{shared.sha}/pkg/core.py#L{start}-L{end}"
    )


# -- match text --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "match", "start", "end"),
    [
        # A clause header gives the clause.
        ("pkg.core.process", "for item in data:", "for item in data:", "total += item"),
        ("pkg.core.convert", "if isinstance(x, int):", "if isinstance(x, int):", "return x + 0"),
        # A line of a simple statement gives that statement; a multi-line one whole, from its first
        # line.
        ("pkg.core.process", "total += item", "total += item", "total += item"),
        ("pkg.core.Thing.__init__", "self.parts = [", "self.parts = [", "        ]"),
        # An item of a multi-line list display gives that item (the element rule).
        ("pkg.core.Thing.__init__", "size * 2", "size * 2", "size * 2"),
        # Only the object's own lines are searched: 'return' is on many lines of the file, one of
        # make().
        ("pkg.core.Thing.make", "return", "return Thing(1)", "return Thing(1)"),
    ],
)
def test_match_text_narrows(shared: Repo, path: str, match: str, start: str, end: str) -> None:
    assert len(lines_with(CORE, match)) >= 1
    location = shared.resolve(path, match)
    assert (location.start, location.end) == shared.span("pkg/core.py", start, end)
    assert location.kind == "statement"


def test_match_text_on_no_line(shared: Repo) -> None:
    outcome = shared.check("pkg.core.process", "no such text")
    start, end = shared.span("pkg/core.py", "def process", "return total")
    assert outcome.status == "missing"
    assert "'no such text' occurs on no line" in outcome.message
    assert f"pkg/core.py:L{start}–L{end}" in outcome.message


def test_match_text_on_two_lines_lists_them(shared: Repo) -> None:
    outcome = shared.check("pkg.core.process", "return")
    first, second = line_of(CORE, "return None"), line_of(CORE, "return total")
    assert outcome.status == "missing"
    assert "occurs on 2 lines" in outcome.message
    assert f"(lines {first}, {second})" in outcome.message
    assert "exactly one line" in outcome.message


# -- missing names ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "where", "closest", "shown"),
    [
        (
            "pkg.core.procss",
            "pkg.core has no member 'procss'",
            "pkg.core.process",
            "closest: pkg.core.process",
        ),
        (
            "pkg.core.Thing.grwo",
            "pkg.core.Thing has no member 'grwo'",
            "pkg.core.Thing.grow",
            "closest: pkg.core.Thing.grow",
        ),
        # Submodules are names of a package too.
        ("pkg.cor.process", "pkg has no member 'cor'", "pkg.core", "closest: pkg.core"),
        (
            "pkg.impl.Gadgt",
            "pkg.impl has no member 'Gadgt'",
            "pkg.impl.Gadget",
            "closest: pkg.impl.Gadget",
        ),
        # An unknown top-level package: the message lists the pinned packages.
        ("pgk.core", "'pgk' is not a package of up", "pkg", "(packages: pkg)"),
    ],
)
def test_unknown_name_is_missing_with_closest(
    shared: Repo, path: str, where: str, closest: str, shown: str
) -> None:
    with pytest.raises(ResolveError) as caught:
        shared.resolve(path)
    assert closest in caught.value.closest
    outcome = shared.check(path)
    assert outcome.status == "missing"
    assert outcome.location is None
    assert outcome.message.startswith(f"missing: up:{path}: ")
    assert where in outcome.message
    assert shown in outcome.message


def test_misspelt_inherited_member_suggests_it(shared: Repo) -> None:
    outcome = shared.check("pkg.shapes.Child.methd")
    assert outcome.status == "missing"
    assert "pkg.shapes.Child.method" in outcome.message


def test_only_package_files_are_exported(shared: Repo) -> None:
    tree = shared.engine.tree("up")
    assert tree.has("pkg/core.py")
    assert not tree.has("README.md")


# -- layouts, static reading, broken files, laziness ---------------------------------------------


def test_src_layout(tree_upstream: Upstream, tmp_path: Path) -> None:
    text = "import os\n\n\ndef f():\n    return os.sep\n"
    repo = make_repo(
        tree_upstream,
        tmp_path,
        {"src/pkg/__init__.py": "", "src/pkg/mod.py": text},
        packages=("src/pkg",),
    )
    location = repo.resolve("pkg.mod.f")
    assert location.path == "src/pkg/mod.py"
    assert (location.start, location.end) == repo.span("src/pkg/mod.py", "def f", "return os.sep")
    module = repo.check("pkg.mod")
    assert module.permalink == f"{tree_upstream.url}/blob/{repo.sha}/src/pkg/mod.py"
    missing = repo.check("src.pkg.mod.f")
    assert missing.status == "missing"
    assert "'src' is not a package of up" in missing.message


def test_upstream_code_is_never_run(tree_upstream: Upstream, tmp_path: Path) -> None:
    marker = tmp_path / "imported.marker"
    text = f"""\
MARKER = {str(marker)!r}
open(MARKER, "w").write("imported")
import pkg.helper


def after_the_side_effect():
    return MARKER
"""
    helper = f'open({str(marker)!r}, "w").close()\n\n\ndef helped():\n    return 1\n'
    init = f'open({str(marker)!r}, "w").close()\nfrom .danger import after_the_side_effect\n'
    repo = make_repo(
        tree_upstream,
        tmp_path,
        {"pkg/__init__.py": init, "pkg/danger.py": text, "pkg/helper.py": helper},
    )
    location = repo.resolve("pkg.after_the_side_effect")
    assert (location.path, location.start) == (
        "pkg/danger.py",
        line_of(text, "def after_the_side_effect"),
    )
    assert repo.resolve("pkg.helper.helped").path == "pkg/helper.py"
    assert not marker.exists()


SYNTAX = "def fine():\n    return 1\n\n\ndef broken(:\n    pass\n"
SYNTAX_LINE = line_of(SYNTAX, "def broken(:")
WRONG_COOKIE = b"# -*- coding: ascii -*-\ndef f():\n    return '\xc3\xa9'\n"
BROKEN_FILES: dict[str, str | bytes] = {
    "pkg/__init__.py": '"""Fine."""\n',
    "pkg/good.py": "def fine():\n    return 1\n",
    "pkg/syntax.py": SYNTAX,
    "pkg/binary.py": b"\xff\xfe\x00\x01def f():\n    return 1\n",
    "pkg/nul.py": "def f():\n    return 1\n\x00\n",
    "pkg/wrongcookie.py": WRONG_COOKIE,
}


@pytest.mark.parametrize(
    "data",
    [
        b"def f():\n    return '\xc3\xa9'\n",
        b"\xef\xbb\xbfdef f():\n    return 1\n",
        b"# -*- coding: latin-1 -*-\nx = '\xe9'\n",
        b"#!/usr/bin/env python\n# coding: latin-1\nx = '\xe9'\n",
        b"x = 1\n# coding: latin-1\ny = '\xe9'\n",  # not a coding line: not a comment line
        b"#!/usr/bin/env python\n\n# coding: latin-1\n",  # third line: not read
        b"one line, no newline",
        b"",
        *BROKEN_FILES.values(),
    ],
)
def test_decode_source_decodes_as_tokenize_decides(data: str | bytes) -> None:
    """decode_source's UTF-8 path, taken without tokenize, gives what tokenize's encoding gives."""
    data = data.encode("utf-8") if isinstance(data, str) else data
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    try:
        expected: str | tuple[str, int] = data.decode(encoding)
    except UnicodeDecodeError as error:
        expected = (error.encoding, error.start)
    try:
        found: str | tuple[str, int] = decode_source(data)
    except UnicodeDecodeError as error:
        found = (error.encoding, error.start)
    assert found == expected


@pytest.fixture
def broken(tree_upstream: Upstream, tmp_path: Path) -> Repo:
    return make_repo(tree_upstream, tmp_path, dict(BROKEN_FILES))


@pytest.mark.parametrize(
    ("path", "message_part"),
    [
        # Even a well-formed function of a module with a syntax error cannot be anchored.
        ("pkg.syntax.fine", f"pkg/syntax.py: syntax error at line {SYNTAX_LINE}"),
        ("pkg.syntax", f"pkg/syntax.py: syntax error at line {SYNTAX_LINE}"),
        ("pkg.binary.f", "pkg/binary.py: not valid UTF-8 (byte 0)"),
        ("pkg.binary", "pkg/binary.py: not valid UTF-8"),
        # A NUL byte has no line number: the message says so without "line None".
        ("pkg.nul.f", "pkg/nul.py: syntax error: source code string cannot contain null bytes"),
        # A coding line is honoured, so bytes it does not cover are named against it.
        (
            "pkg.wrongcookie.f",
            f"pkg/wrongcookie.py: not valid ascii (byte {WRONG_COOKIE.index(0xC3)})",
        ),
    ],
)
def test_unusable_upstream_file_is_an_upstream_error(
    broken: Repo, path: str, message_part: str
) -> None:
    outcome = broken.check(path)
    assert outcome.status == "error"
    assert outcome.subtype == "upstream"
    assert outcome.location is None
    assert message_part in outcome.message
    assert f"up:{path}" in outcome.message
    # Another module of the same package still resolves after the failure.
    good = broken.check("pkg.good.fine")
    assert good.status == "new"
    assert good.location is not None
    assert (good.location.path, good.location.start, good.location.end) == ("pkg/good.py", 1, 2)


def test_broken_module_is_not_counted_as_parsed(broken: Repo) -> None:
    first = broken.check("pkg.syntax.fine")
    second = broken.check("pkg.syntax.broken")
    assert first.status == second.status == "error"
    assert first.subtype == second.subtype == "upstream"
    # Both name the same failure of the same file.
    assert first.message.removeprefix("up:pkg.syntax.fine: ") == second.message.removeprefix(
        "up:pkg.syntax.broken: "
    )
    # pkg/syntax.py failed; pkg/__init__.py never names 'syntax', so it need not be parsed to reach
    # it.
    assert broken.engine.resolver("up").modules_parsed == 0


def test_alias_cycle_is_missing_not_a_crash(tree_upstream: Upstream, tmp_path: Path) -> None:
    repo = make_repo(
        tree_upstream,
        tmp_path,
        {"pkg/__init__.py": "", "pkg/a.py": "from .b import X\n", "pkg/b.py": "from .a import X\n"},
    )
    outcome = repo.check("pkg.a.X")
    assert outcome.status == "missing"
    assert "cycle" in outcome.message


def test_resolving_parses_only_the_modules_needed(tree_upstream: Upstream, tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        f"pkg/m{n}.py": f"def f{n}():\n    return {n}\n" for n in range(10)
    }
    # The package re-exports from three modules; the aliases are not followed unless asked for.
    files["pkg/__init__.py"] = "from .m0 import f0\nfrom .m1 import f1\nfrom .m2 import f2\n"
    repo = make_repo(tree_upstream, tmp_path, files)
    resolver = repo.engine.resolver("up")
    assert resolver.modules_parsed == 0
    location = repo.resolve("pkg.m7.f7")
    assert (location.path, location.start, location.end) == ("pkg/m7.py", 1, 2)
    assert resolver.modules_parsed == 1  # pkg/m7.py: a plain definition needs no ancestor package
    repo.resolve("pkg.m7.f7")
    repo.resolve("pkg.m7")
    assert resolver.modules_parsed == 1  # each module is parsed once
    repo.resolve(
        "pkg.f1"
    )  # an import: the resolver reads pkg/__init__.py and follows the alias to pkg.m1
    assert resolver.modules_parsed == 3


# -- line numbers are the code host's ------------------------------------------------------------


def test_form_feed_does_not_shift_line_numbers(tree_upstream: Upstream, tmp_path: Path) -> None:
    text = "def first():\n    return 1\n\x0c\ndef second():\n    return 2\n"
    repo = make_repo(tree_upstream, tmp_path, {"pkg/__init__.py": "", "pkg/paged.py": text})
    location = repo.resolve("pkg.paged.second")
    assert (location.start, location.end) == (
        line_of(text, "def second"),
        line_of(text, "return 2"),
    )


def test_line_separator_in_a_string_is_not_a_syntax_error(
    tree_upstream: Upstream, tmp_path: Path
) -> None:
    text = 'SEPARATOR = "a\u2028b"\n\n\ndef after():\n    return SEPARATOR\n'
    compile(text, "sep.py", "exec")  # valid Python
    repo = make_repo(tree_upstream, tmp_path, {"pkg/__init__.py": "", "pkg/sep.py": text})
    outcome = repo.check("pkg.sep.after")
    assert outcome.status == "new", outcome.message
    assert outcome.location is not None
    assert outcome.location.start == line_of(text, "def after")


def test_star_re_export(tree_upstream: Upstream, tmp_path: Path) -> None:
    core = '__all__ = ["Star"]\n\n\nclass Star:\n    pass\n'
    repo = make_repo(
        tree_upstream, tmp_path, {"pkg/__init__.py": "from .core import *\n", "pkg/core.py": core}
    )
    outcome = repo.check("pkg.Star")
    assert outcome.status == "new", outcome.message
    assert outcome.location is not None
    assert (outcome.location.path, outcome.location.start) == (
        "pkg/core.py",
        line_of(core, "class Star"),
    )


def test_method_named_like_its_class(tree_upstream: Upstream, tmp_path: Path) -> None:
    text = "class Node:\n    size = 1\n\n    def Node(self):\n        return self.size\n"
    repo = make_repo(tree_upstream, tmp_path, {"pkg/__init__.py": "", "pkg/tree.py": text})
    location = repo.resolve("pkg.tree.Node.Node")
    assert (location.start, location.end) == repo.span(
        "pkg/tree.py", "def Node", "return self.size"
    )
    whole_class = repo.resolve("pkg.tree.Node")
    assert (whole_class.start, whole_class.end) == repo.span(
        "pkg/tree.py", "class Node", "return self.size"
    )


DIFFERENTIAL = """
import functools
from functools import cached_property, lru_cache
from typing import overload
from .m0 import f0 as reexported

CONSTANT = 1
ANNOTATED: int = (
    2
)
first = second = 3
a, b = 4, 5
if CONSTANT:
    CONDITIONAL = 6
else:
    CONDITIONAL = 7
try:
    import json
except ImportError:
    json = None


@functools.lru_cache
def cached(x):
    return x


def twice():
    return 1


def twice():  # noqa: F811
    return 2


@overload
def over(x: int) -> int: ...
@overload
def over(x: str) -> str: ...
def over(x):
    return x


class Base:
    LIMIT = 10

    def inherited(self):
        return 1


@functools.total_ordering
class Child(Base):
    # A class comment.

    kind: str = "child"

    def __init__(self, value):
        self.value = value
        self.kind = "instance"

    @property
    def prop(self):
        return self.value

    @prop.setter
    def prop(self, new):
        self.value = new

    @staticmethod
    def static():
        return 3

    @functools.cached_property
    def cached_prop(self):
        return 5

    @cached_property
    def imported_cached(self):
        return 6

    @lru_cache(maxsize=2)
    def called_decorator(self):
        return 7

    class Inner:
        def method(self):
            return 4
"""


def test_every_binding_of_a_varied_module_resolves(tree_upstream: Upstream, tmp_path: Path) -> None:
    repo = make_repo(
        tree_upstream,
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/m0.py": "def f0():\n    return 0\n",
            "pkg/diff.py": DIFFERENTIAL,
        },
    )
    names = [
        "",
        "CONSTANT",
        "ANNOTATED",
        "first",
        "second",
        "a",
        "b",
        "CONDITIONAL",
        "cached",
        "twice",
        "over",
        "reexported",
        "Base",
        "Base.LIMIT",
        "Base.inherited",
        "Child",
        "Child.kind",
        "Child.__init__",
        "Child.value",
        "Child.prop",
        "Child.static",
        "Child.cached_prop",
        "Child.imported_cached",
        "Child.called_decorator",
        "Child.inherited",
        "Child.LIMIT",
        "Child.Inner",
        "Child.Inner.method",
    ]
    for name in names:
        location = repo.resolve("pkg.diff" + (f".{name}" if name else ""))
        assert location.path == ("pkg/m0.py" if name == "reexported" else "pkg/diff.py"), name
    # try: import json / except: json = None: the first branch, an import of a module outside the
    # packages.
    assert "'json' is not a package of up" in repo.check("pkg.diff.json").message
    # Tuple unpacking binds attributes: the whole statement (version 4; griffe bound neither name).
    assert (repo.resolve("pkg.diff.a").start, repo.resolve("pkg.diff.b").end) == repo.span(
        "pkg/diff.py", "a, b = 4, 5", "a, b = 4, 5"
    )


REGIONS = '''
import os


@staticmethod
def decorated(
    a,
    b,
):
    """A docstring
over lines, one of them flush left."""
    if a:
        x = 1
    elif b:
        x = 2
    else:
        x = 3
    try:
        y = [
    1,
        ]
    except ValueError as error:
        y = error
    else:
        y = 4
    finally:
        z = 5
    for i in range(3):
        w = i
    else:
        w = -1
    match x:
        case [
            1,
        ]:
            v = 6
        case _:
            v = 7
    total = a \\
        + b
    return x, y, z, w, v, total


class Outer:
    class Inner:
        @property
        def deep(self):
            with open(os.devnull) as handle:
                text = handle.read()
            while text:
                text = text[1:]
            else:
                text = None
            return text


class Tabbed:
\tdef tabbed(self):
\t\tif self:
\t\t\treturn 1
\t\treturn 2
'''


def test_statement_narrowing_parses_the_symbol_alone_with_the_same_result(
    tree_upstream: Upstream, tmp_path: Path
) -> None:
    """Narrowing parses only the symbol's lines; every line must land where a whole-file parse puts it."""
    import ast

    from source_anchors.reading.python.statements import statement_span

    repo = make_repo(
        tree_upstream,
        tmp_path,
        {"pkg/__init__.py": "", "pkg/regions.py": REGIONS.replace("\\t", "\t")},
    )
    text = repo.texts["pkg/regions.py"]
    lines = text.split("\n")
    whole = ast.parse(text)
    checked = 0
    for symbol in (
        "decorated",
        "Outer",
        "Outer.Inner",
        "Outer.Inner.deep",
        "Tabbed",
        "Tabbed.tabbed",
    ):
        location = repo.resolve(f"pkg.regions.{symbol}")
        own = lines[location.start - 1 : location.end]
        for number in range(location.start, location.end + 1):
            needle = lines[number - 1].strip()
            if not needle or sum(needle in line for line in own) != 1:
                continue
            narrowed = repo.resolve(f"pkg.regions.{symbol}", needle)
            expected = statement_span(whole, number, lines) or (number, number)
            assert (narrowed.start, narrowed.end) == expected, (symbol, number, needle)
            checked += 1
    assert checked > 60


def test_coding_line_is_honoured(tree_upstream: Upstream, tmp_path: Path) -> None:
    """PEP 263: a Latin-1 module with its coding line is read as Python reads it."""
    text = "# -*- coding: latin-1 -*-\nNAME = 'café'\n\n\ndef greet():\n    return NAME + ' ½'\n"
    repo = make_repo(
        tree_upstream, tmp_path, {"pkg/__init__.py": "", "pkg/latin.py": text.encode("latin-1")}
    )
    location = repo.resolve("pkg.latin.greet")
    lines = text.split("\n")
    assert (location.start, location.end) == (
        line_of(text, "def greet"),
        line_of(text, "return NAME"),
    )
    assert location.sha256 == lines_hash(
        lines, location.start, location.end
    )  # hashed as text, not bytes
    assert repo.resolve("pkg.latin.greet", "½").start == line_of(text, "return NAME")
    assert repo.resolve("pkg.latin.NAME").start == line_of(text, "NAME = 'café'")
