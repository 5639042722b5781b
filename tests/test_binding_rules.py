"""One rule for every name bound more than once, tuple and starred assignments, shadowed submodules.

Each test writes a small package with git and resolves through the Engine. Expected lines
are found in the text the test wrote (``line_of``), never copied from the resolver.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers import Book, Upstream, run_cli
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.errors import ResolveError
from source_anchors.model.records import Location, line_range
from source_anchors.model.target import Target
from source_anchors.reading.python.rules import markdown_table

ROOT = Path(__file__).resolve().parent.parent


def line_of(text: str, needle: str) -> int:
    hits = [n for n, line in enumerate(text.split("\n"), start=1) if needle in line]
    assert len(hits) == 1, (needle, hits)
    return hits[0]


class Repo:
    """A package written by the test, committed, opened by an Engine."""

    def __init__(self, upstream: Upstream, tmp: Path, files: dict[str, str]) -> None:
        for rel, text in files.items():
            upstream.write(rel, text)
        self.texts = {rel: (upstream.path / rel).read_text("utf-8") for rel in files}
        self.sha = sha = upstream.commit()
        self.engine = Engine(
            settings_from(
                {
                    "repos": {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}},
                    "cache_dir": str(tmp / "cache"),
                },
                confdir=tmp,
                environ={},
            )
        )

    def resolve(self, path: str, match: str | None = None) -> Location:
        return self.engine.resolver("up").resolve(path, match)

    def line(self, rel: str, needle: str) -> int:
        return line_of(self.texts[rel], needle)


@contextmanager
def imported(files: dict[str, str], copy: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The package the test wrote, copied to *copy* and importable there; its modules forgotten after."""
    for rel, text in files.items():
        (copy / rel).parent.mkdir(parents=True, exist_ok=True)
        (copy / rel).write_text(text, "utf-8")

    def forget() -> None:
        for name in [m for m in sys.modules if m == "pkg" or m.startswith("pkg.")]:
            del sys.modules[name]

    forget()  # another test's in-process build (autodoc) may have imported a package of that name
    monkeypatch.syspath_prepend(str(copy))
    try:
        yield
    finally:
        forget()


RULED = """\
from typing import TYPE_CHECKING, overload

__all__ = ["convert"]
__all__ += ["Thing"]

if TYPE_CHECKING:
    Alias = int  # typing-only alias
else:
    Alias = object  # runtime alias

if TYPE_CHECKING:
    Declared: int  # declaration only

try:
    Fast = int("1")  # try branch
except ValueError:
    Fast = None  # except branch

if Fast:
    Mode = "fast"  # if branch
else:
    Mode = "slow"  # else branch

Again = 1  # first binding
Again = 2  # second binding

Base = 1  # unconditional
if Fast:
    Base = 3  # conditional override


@overload
def convert(x: int) -> int: ...
@overload
def convert(x: str) -> str: ...
def convert(x):  # implementation
    return x


class Thing:
    kind = "class"  # class attribute

    if TYPE_CHECKING:
        size: int  # typing-only size
    else:
        size = 0  # runtime size

    def __init__(self):
        self.kind = "instance"  # instance kind
        self.late = 2  # init late

    def setup(self):
        self.late = 1  # setup late
        self.early = 0  # setup early

    def later(self):
        self.early = 5  # later early

    @property
    def area(self):  # getter
        return self._area

    @area.setter
    def area(self, value):
        self._area = value  # setter body

    @area.deleter
    def area(self):
        del self._area  # deleter body


class Sub(Thing):
    def reset(self):
        self.area = 0  # through the base's setter
        self.extra = 1  # instance only


class Holder:
    cli: int  # bare annotation


class App(Holder):
    def __init__(self):
        self.cli = 1  # the app's own
"""


MANUAL = (ROOT / "docs" / "binding-rules.md").read_text("utf-8")


@pytest.fixture(scope="module")
def ruled(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    tmp = tmp_path_factory.mktemp("ruled")
    return Repo(Upstream(tmp / "up"), tmp, {"pkg/__init__.py": "", "pkg/ruled.py": RULED})


@pytest.mark.parametrize(
    ("path", "chosen", "rule", "others"),
    [
        ("__all__", "__all__ = [", "assignment-over-augmented", ["__all__ +="]),
        ("Alias", "# runtime alias", "runtime-over-typing", ["# typing-only alias"]),
        ("Declared", "# declaration only", "", []),
        ("Fast", "# try branch", "first-branch", ["# except branch"]),
        ("Mode", "# if branch", "first-branch", ["# else branch"]),
        ("Again", "# second binding", "last-rebinding", ["# first binding"]),
        ("Base", "# unconditional", "unconditional-over-branches", ["# conditional override"]),
        (
            "convert",
            "# implementation",
            "implementation-over-overloads",
            ["def convert(x: int)", "def convert(x: str)"],
        ),
        ("Thing.kind", "# class attribute", "class-over-instance", ["# instance kind"]),
        ("Thing.size", "# runtime size", "runtime-over-typing", ["# typing-only size"]),
        ("Thing.late", "# init late", "first-instance-assignment", ["# setup late"]),
        ("Thing.early", "# setup early", "first-instance-assignment", ["# later early"]),
        ("Thing.area", "@property", "getter-over-accessors", ["@area.setter", "@area.deleter"]),
        # ``self.x = …`` in a subclass binds no class attribute: ``Sub.area`` is the base's
        # property.
        (
            "Sub.area",
            "@property",
            "getter-over-accessors+property-over-instance",
            ["@area.setter", "@area.deleter", "# through the base's setter"],
        ),
        ("Sub.extra", "# instance only", "", []),
        # A bare annotation in a base binds nothing at runtime: the subclass's ``self.cli = …`` is
        # it.
        ("App.cli", "# the app's own", "", []),
        ("Holder.cli", "# bare annotation", "", []),
    ],
)
def test_each_rule(ruled: Repo, path: str, chosen: str, rule: str, others: list[str]) -> None:
    outcome = ruled.engine.check(Target("up", f"pkg.ruled.{path}", None))
    location = outcome.location
    assert location is not None, outcome.message
    assert location.start == ruled.line("pkg/ruled.py", chosen)
    assert location.rule == rule
    # Each rule the resolver names is a row of the manual's table (a rule the code gives and the
    # manual does not document fails here).
    documented = {line.split("`")[1] for line in MANUAL.splitlines() if line.startswith("| `")}
    assert set(filter(None, location.rule.split("+"))) <= documented, location.rule
    assert len(location.others) == len(others)
    for (start, end), other in zip(location.others, others, strict=True):
        assert start <= ruled.line("pkg/ruled.py", other) <= end, other
    # The check's message says which rule applied and where the other bindings are.
    if rule:
        assert f"rule {rule}" in outcome.message
        assert (
            "other bindings " + ", ".join(line_range(*o) for o in location.others)
            in outcome.message
        )
    # The cached form keeps them.
    assert Location.from_json(json.loads(json.dumps(location.to_json()))) == location


def test_check_says_the_rule_and_the_other_bindings_of_an_ok_anchor(
    upstream: Upstream, tmp_path: Path, book: Book, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = Repo(upstream, tmp_path, {"pkg/__init__.py": "", "pkg/ruled.py": RULED})
    book.repos = {"up": {"url": upstream.url, "commit": repo.sha, "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    book.page(
        "index",
        "# P\n\n{src}`area <pkg.ruled.Thing.area>` and {src}`convert <pkg.ruled.convert>`.\n",
    )
    assert run_cli(book.cli("update")) == 0
    capsys.readouterr()
    assert run_cli(book.cli("check")) == 0
    rows = {line.split()[1]: line for line in capsys.readouterr().out.splitlines()[:-1]}
    area = repo.resolve("pkg.ruled.Thing.area")
    getter = repo.line("pkg/ruled.py", "@property")
    assert area.start == getter
    assert rows["up:pkg.ruled.Thing.area"] == (
        f"ok       up:pkg.ruled.Thing.area  pkg/ruled.py:{line_range(area.start, area.end)} "
        f"(rule getter-over-accessors; other bindings {', '.join(line_range(*o) for o in area.others)})  [index:3]"
    )
    assert len(area.others) == 2 and area.others[0][0] == repo.line("pkg/ruled.py", "@area.setter")
    assert "(rule implementation-over-overloads; other bindings " in rows["up:pkg.ruled.convert"]


def test_property_span_is_the_getter_alone(ruled: Repo) -> None:
    location = ruled.resolve("pkg.ruled.Thing.area")
    assert location.end == ruled.line("pkg/ruled.py", "return self._area")
    assert location.kind == "attribute"


def test_only_overload_stubs_give_the_first(upstream: Upstream, tmp_path: Path) -> None:
    text = (
        "from typing import overload\n\n\nclass P:\n    @overload\n    def f(self, x: int) -> int: ...\n"
        "    @overload\n    def f(self, x: str) -> str: ...\n"
    )
    repo = Repo(upstream, tmp_path, {"pkg/__init__.py": "", "pkg/stubs.py": text})
    location = repo.resolve("pkg.stubs.P.f")
    assert (location.start, location.rule) == (
        repo.line("pkg/stubs.py", "def f(self, x: int)") - 1,
        "first-overload",
    )


def test_match_reaches_the_other_bindings(ruled: Repo) -> None:
    setter = ruled.resolve("pkg.ruled.Thing.area", "# setter body")
    assert (setter.start, setter.end) == (ruled.line("pkg/ruled.py", "# setter body"),) * 2
    assert setter.kind == "statement"
    overload = ruled.resolve("pkg.ruled.convert", "def convert(x: str)")
    # The match is in the stub's header, before its '...' body on the same line: the stub, from its
    # decorator.
    stub = ruled.line("pkg/ruled.py", "def convert(x: str)")
    assert (overload.start, overload.end) == (stub - 1, stub)
    # Text in the definition itself is looked for there first.
    getter = ruled.resolve("pkg.ruled.Thing.area", "return self._area")
    assert getter.start == ruled.line("pkg/ruled.py", "return self._area")
    missing = ruled.engine.check(Target("up", "pkg.ruled.Thing.area", "no such text"))
    assert "or of the other bindings" in missing.message


def test_inherited_name_declared_for_typing_in_one_base_defined_in_another(
    upstream: Upstream, tmp_path: Path
) -> None:
    text = """\
from typing import TYPE_CHECKING


class Declares:
    if TYPE_CHECKING:
        value: int  # declared


class Defines:
    value = 1  # defined


class Both(Declares, Defines):
    pass


class OnlyDeclared(Declares):
    pass
"""
    repo = Repo(upstream, tmp_path, {"pkg/__init__.py": "", "pkg/typed.py": text})
    both = repo.resolve("pkg.typed.Both.value")
    assert both.start == repo.line("pkg/typed.py", "# defined")
    assert "runtime-over-typing" in both.rule
    assert repo.resolve("pkg.typed.OnlyDeclared.value").start == repo.line(
        "pkg/typed.py", "# declared"
    )


ASSIGNED = """\
import contextlib

HORIZONTAL, VERTICAL = 1, 2
first, *rest = [
    1, 2, 3,
]
(left, right), [up, down] = (1, 2), (3, 4)

for LOOPED in range(2):
    pass

with contextlib.suppress(ValueError) as (GUARD, OTHER):
    pass


class Box:
    width, height = 3, 4
    *front, back = "abc"
"""


@pytest.mark.parametrize(
    ("name", "start", "lines"),
    [
        ("HORIZONTAL", "HORIZONTAL, VERTICAL", 1),
        ("VERTICAL", "HORIZONTAL, VERTICAL", 1),
        ("first", "first, *rest", 3),
        ("rest", "first, *rest", 3),
        ("right", "(left, right)", 1),
        ("down", "(left, right)", 1),
        ("LOOPED", "for LOOPED", 2),
        ("GUARD", "with contextlib", 2),
        ("OTHER", "with contextlib", 2),
        ("Box.width", "width, height", 1),
        ("Box.front", "*front, back", 1),
        ("Box.back", "*front, back", 1),
    ],
)
def test_tuple_starred_for_and_with_targets_are_attributes(
    upstream: Upstream, tmp_path: Path, name: str, start: str, lines: int
) -> None:
    repo = Repo(upstream, tmp_path, {"pkg/__init__.py": "", "pkg/assigned.py": ASSIGNED})
    location = repo.resolve(f"pkg.assigned.{name}")
    first = repo.line("pkg/assigned.py", start)
    assert (location.kind, location.start, location.end) == ("attribute", first, first + lines - 1)


def test_submodule_shadowed_by_a_package_member(upstream: Upstream, tmp_path: Path) -> None:
    init = "from .tool import tool\n\nhelper = 1  # member helper\n"
    repo = Repo(
        upstream,
        tmp_path,
        {
            "pkg/__init__.py": init,
            "pkg/tool.py": "def tool():\n    return 1\n",
            "pkg/helper.py": "def run():\n    return 2\n",
            "pkg/plain.py": "def alone():\n    return 3\n",
        },
    )
    # pkg.tool is the function 'from .tool import tool' binds: what pkg.tool is after 'import pkg'.
    tool = repo.resolve("pkg.tool")
    assert (tool.path, tool.kind, tool.start) == ("pkg/tool.py", "function", 1)
    helper = repo.engine.check(Target("up", "pkg.helper", None))
    assert helper.location is not None
    assert (helper.location.path, helper.location.start) == (
        "pkg/__init__.py",
        repo.line("pkg/__init__.py", "# member helper"),
    )
    assert helper.location.rule == "member-over-submodule"
    assert "pkg/helper.py" in helper.message
    # A longer path the member does not have goes on in the submodule.
    run = repo.resolve("pkg.helper.run")
    assert (run.path, run.start) == ("pkg/helper.py", 1)
    # A name the package never binds is the submodule, without parsing the package.
    assert repo.resolve("pkg.plain").kind == "module"
    assert "pkg/__init__.py" in dict(repo.resolve("pkg.plain.alone").uses)


def test_a_member_from_outside_the_packages_leaves_a_longer_path_to_the_submodule(
    upstream: Upstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # sphinx.builders.latex binds 'nodes' to docutils.nodes beside its submodule nodes.py; pydantic
    # binds 'typing' to the standard library's beside pydantic/typing.py. Where the member leaves
    # the pinned packages, a longer path is what importing it gives: the submodule's
    # (pkgutil.resolve_name, below).
    init = "import typing\nfrom os import path\n"
    files = {
        "pkg/__init__.py": init,
        "pkg/typing.py": "def thing():\n    return 1\n",
        "pkg/path.py": "import os\n\n\nclass Run:\n    pass\n",
    }
    repo = Repo(upstream, tmp_path, files)
    for dotted, rel, needle in (
        ("pkg.typing.thing", "pkg/typing.py", "def thing"),
        ("pkg.path.Run", "pkg/path.py", "class Run"),
    ):
        location = repo.resolve(dotted)
        assert (location.path, location.start) == (rel, repo.line(rel, needle)), dotted
    # Python's own answer, from the package the test wrote (imported from a copy, never run from
    # upstream).
    with imported(files, tmp_path / "site", monkeypatch):
        assert pkgutil.resolve_name("pkg.typing.thing").__module__ == "pkg.typing"
        assert pkgutil.resolve_name("pkg.path.Run").__module__ == "pkg.path"
    # What the submodule does not have is still missing, with the member's reason.
    with pytest.raises(ResolveError, match="'os' is not a package of up"):
        repo.resolve("pkg.path.nothing")


def test_namespace_packages_inside_a_package_are_walked_through_as_python_imports_them(
    upstream: Upstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # numpy's tests folders and setuptools' _distutils/compilers have no __init__.py: PEP 420
    # namespace packages, which Python imports only when no module or regular package of the name is
    # there.
    files = {
        "pkg/__init__.py": "",
        "pkg/ns/deep/mod.py": "class Thing:\n    pass\n",
        "pkg/ns/tool.py": "def run():\n    return 1\n",
        "pkg/both.py": "x = 1\n",
        "pkg/both/inner.py": "y = 2\n",
    }
    repo = Repo(upstream, tmp_path, files)
    for dotted, rel, needle in (
        ("pkg.ns.deep.mod.Thing", "pkg/ns/deep/mod.py", "class Thing"),
        ("pkg.ns.tool.run", "pkg/ns/tool.py", "def run"),
        ("pkg.both.x", "pkg/both.py", "x = 1"),
    ):
        location = repo.resolve(dotted)
        assert (location.path, location.start) == (rel, repo.line(rel, needle)), dotted
    assert repo.resolve("pkg.ns.deep.mod").kind == "module"
    with pytest.raises(
        ResolveError,
        match=r"pkg\.ns: a namespace package \(the folder pkg/ns/ has no __init__\.py\)",
    ):
        repo.resolve("pkg.ns")
    with pytest.raises(ResolveError, match=r"pkg\.ns has no member 'tol'; closest: pkg\.ns\.tool"):
        repo.resolve("pkg.ns.tol")
    with pytest.raises(
        ResolveError, match="has no member 'inner'"
    ):  # pkg/both.py comes before the folder
        repo.resolve("pkg.both.inner")
    # Python's own answers, from a copy of the package the test wrote.
    with imported(files, tmp_path / "site", monkeypatch):
        assert pkgutil.resolve_name("pkg.ns.deep.mod.Thing").__module__ == "pkg.ns.deep.mod"
        assert pkgutil.resolve_name("pkg.ns.tool.run").__module__ == "pkg.ns.tool"
        assert importlib.import_module("pkg.ns").__file__ is None  # a namespace package: no file
        assert str(importlib.import_module("pkg.both").__file__).endswith("both.py")
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("pkg.both.inner")


def test_a_member_spelled_in_another_unicode_form_still_shadows_the_submodule(
    upstream: Upstream, tmp_path: Path
) -> None:
    # Python reads identifiers NFKC-normalised: '\ufb01eld' (the fi ligature) binds 'field', which
    # the package's text never spells; the text search that skips a package's parse must not miss
    # it.
    init = "\ufb01eld = 1\n"
    repo = Repo(
        upstream, tmp_path, {"pkg/__init__.py": init, "pkg/field.py": "def run():\n    return 2\n"}
    )
    field = repo.engine.check(Target("up", "pkg.field", None))
    assert field.location is not None
    assert (field.location.path, field.location.rule) == (
        "pkg/__init__.py",
        "member-over-submodule",
    )


def test_rules_table_in_the_docs_is_the_code_s() -> None:
    assert markdown_table() in MANUAL


def test_each_file_is_parsed_once_whatever_the_order(upstream: Upstream, tmp_path: Path) -> None:
    files = {
        f"pkg/m{n}.py": "".join(f"def f{k}():\n    return {k}\n\n\n" for k in range(5))
        for n in range(8)
    }
    files["pkg/__init__.py"] = ""
    repo = Repo(upstream, tmp_path, files)
    resolver = repo.engine.resolver("up")
    for k in range(
        5
    ):  # module after module, five times over: the order a small tree cache thrashed on
        for n in range(8):
            repo.engine.check(Target("up", f"pkg.m{n}.f{k}", "return" if k % 2 else None))
    assert resolver.ast_parses == resolver.modules_parsed == 8
    assert repo.engine.stats["ast_parses"] == 8
