"""Where a rule used to guess, the resolver gives Python's own answer (issue: properties, conditions, fallbacks).

Each test writes a package skeleton of its own with git and resolves through the Engine; then it
imports a copy of that same skeleton (the test's own code, never upstream) and asks Python where the
name is: ``__mro__``, ``inspect.getattr_static`` on the class or an instance, ``co_firstlineno``.
Expected lines are found in the text the test wrote, never copied from the resolver.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
from collections import namedtuple
from pathlib import Path
from typing import Any

import pytest
from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.lock.lockfile import read_lock
from source_anchors.model.config import settings_from
from source_anchors.model.errors import ConfigError, LockError, ResolveError
from source_anchors.model.records import RESOLVER_VERSION, Location, LockRecord, Status
from source_anchors.model.target import Target
from source_anchors.reading.python.conditions import Python, branches, decide, parse_python
from source_anchors.reading.python.rules import DEAD
from source_anchors.resolve.resolver import lines_hash
from test_binding_rules import imported, line_of

HERE = f"{sys.version_info[0]}.{sys.version_info[1]}"


class Skeleton:
    """A package the test wrote, committed, resolved by an Engine (with *python* set, if given)."""

    def __init__(
        self,
        upstream: Upstream,
        tmp: Path,
        files: dict[str, str],
        python: str | None = None,
        lock: str = "source-anchors.lock",
    ) -> None:
        for rel, text in files.items():
            upstream.write(rel, text)
        self.files, self.tmp, self.upstream = files, tmp, upstream
        self.sha = upstream.commit()
        self.engine = self.make_engine(python, lock)

    def make_engine(self, python: str | None, lock: str = "source-anchors.lock") -> Engine:
        values: dict[str, Any] = {
            "repos": {"up": {"url": self.upstream.url, "commit": self.sha, "packages": ["pkg"]}},
            "cache_dir": str(self.tmp / "cache"),
            "lock_file": lock,
        }
        if python is not None:
            values["python"] = python
        return Engine(settings_from(values, confdir=self.tmp, environ={}))

    def resolve(self, path: str) -> Location:
        return self.engine.resolver("up").resolve(path)

    def line(self, rel: str, needle: str) -> int:
        return line_of(self.files[rel], needle)


def holder(cls: type, name: str) -> type:
    """The class of *cls*'s ``__mro__`` whose ``__dict__`` Python finds *name* in first."""
    return next(k for k in cls.__mro__ if name in vars(k))


def code_line(value: Any) -> int:
    """``co_firstlineno`` of what a class attribute wraps (a property's getter, a staticmethod's function)."""
    for attr in ("fget", "__func__", "__wrapped__"):
        if hasattr(value, attr):
            value = getattr(value, attr)
    return int(value.__code__.co_firstlineno)


def contains(location: Location, line: int) -> bool:
    return location.start <= line <= location.end


PROPERTIES = '''\
from typing import Generic, TypeVar

T = TypeVar("T")


class Field:
    """A descriptor of the package with __set__: a data descriptor."""

    def __get__(self, obj, owner=None):
        return 1

    def __set__(self, obj, value):
        pass


class Typed(Generic[T]):
    """A generic data descriptor: ``Typed[int]()`` makes an instance of Typed."""

    def __get__(self, obj, owner=None):
        return 1

    def __set__(self, obj, value):
        pass


class memo:
    """A descriptor of the package without __set__ (a memoizing decorator): not a data descriptor."""

    def __init__(self, func):
        self.func = func

    def __get__(self, obj, owner=None):
        return self.func(obj)


class kept(property):
    """A subclass of the builtin property: a data descriptor."""


class Base:
    @property
    def readonly(self):  # readonly getter
        return 1

    @property
    def debug(self):  # debug getter
        return self._debug

    @debug.setter
    def debug(self, value):  # debug setter
        self._debug = value

    field = Field()  # field descriptor
    typed = Typed[int]()  # typed descriptor

    @memo
    def cached(self):  # cached memo
        return 2

    @kept
    def status(self):  # status kept
        return 3

    def _get_code(self):
        return self._code

    def _set_code(self, value):
        self._code = value

    code = property(_get_code, _set_code)  # code property call

    def eos(self):  # eos def
        return 4

    eos = property(eos, doc="end of stream")  # eos wrapping


class App(Base):
    def __init__(self):
        self.debug = True  # app debug assignment
        self.field = 5  # app field assignment
        self.typed = 10  # app typed assignment
        self.cached = 6  # app cached assignment
        self.code = 8  # app code assignment

    def run(self):  # never called: these properties have no setter, Python would raise
        self.readonly = 0  # app readonly assignment
        self.status = 7  # app status assignment
        self.eos = 9  # app eos assignment


class Left(object):
    def __init__(self):
        self.value = 1  # left value assignment


class Right(object):
    @property
    def value(self):  # right value getter
        return self._value

    @value.setter
    def value(self, new):  # right value setter
        self._value = new


class Diamond(Left, Right):
    pass
'''


@pytest.mark.parametrize(
    ("name", "needle", "rule"),
    [
        ("readonly", "# readonly getter", "property-over-instance"),
        ("debug", "# debug getter", "getter-over-accessors+property-over-instance"),
        ("field", "# field descriptor", "property-over-instance"),
        (
            "typed",
            "# typed descriptor",
            "property-over-instance",
        ),  # D[int](): an instance of D, as in Python
        ("status", "# status kept", "property-over-instance"),
        ("code", "# code property call", "property-over-instance"),
        ("eos", "# eos def", "definition-over-wrapper+property-over-instance"),
        ("cached", "# app cached assignment", ""),  # bound once in App: no rule to apply
    ],
)
def test_a_data_descriptor_comes_before_self_x_as_python_finds_it(
    upstream: Upstream,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    needle: str,
    rule: str,
) -> None:
    files = {"pkg/__init__.py": "", "pkg/props.py": PROPERTIES}
    repo = Skeleton(upstream, tmp_path, files)
    location = repo.resolve(f"pkg.props.App.{name}")
    assert location.start == repo.line("pkg/props.py", needle) or (
        location.start + 1 == repo.line("pkg/props.py", needle)
    )  # a def's span starts at its decorator
    assert location.rule == rule
    with imported(files, tmp_path / "site", monkeypatch):
        props = importlib.import_module("pkg.props")  # the test's own skeleton

        app = props.App()
        found = inspect.getattr_static(app, name)
        if name == "cached":  # no __set__: the instance's own attribute comes first
            assert found == 6 and "cached" in vars(app)
            return
        owner = holder(props.App, name)
        assert owner is props.Base and found is vars(props.Base)[name] and name not in vars(app)
        if name in (
            "field",
            "typed",
            "code",
        ):  # made by a call in the class body: a line of the class found
            source, first = inspect.getsourcelines(owner)
            assert first <= location.start < first + len(source)
            assert isinstance(
                found, {"field": props.Field, "typed": props.Typed, "code": property}[name]
            )
        else:
            assert contains(location, code_line(found)), (name, location, code_line(found))


def test_the_assignments_are_other_bindings_and_the_message_says_why(
    upstream: Upstream, tmp_path: Path
) -> None:
    repo = Skeleton(upstream, tmp_path, {"pkg/__init__.py": "", "pkg/props.py": PROPERTIES})
    outcome = repo.engine.check(Target("up", "pkg.props.App.debug", None))
    assert outcome.location is not None
    assignment = repo.line("pkg/props.py", "# app debug assignment")
    setter = repo.line("pkg/props.py", "# debug setter")
    assert (assignment, assignment) in outcome.location.others
    assert any(start <= setter <= end for start, end in outcome.location.others)
    assert "rule getter-over-accessors+property-over-instance" in outcome.message
    assert (
        f"self.debug = … at pkg/props.py:L{assignment} goes through the property" in outcome.message
    )
    # A ::match reaches the assignment, one of the other bindings.
    assert (
        repo.engine.resolver("up").resolve("pkg.props.App.debug", "self.debug = True").start
        == assignment
    )


def test_a_diamond_finds_the_property_of_a_later_base(
    upstream: Upstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"pkg/__init__.py": "", "pkg/props.py": PROPERTIES}
    repo = Skeleton(upstream, tmp_path, files)
    diamond, left = repo.resolve("pkg.props.Diamond.value"), repo.resolve("pkg.props.Left.value")
    with imported(files, tmp_path / "site", monkeypatch):
        props = importlib.import_module("pkg.props")

        assert [k.__name__ for k in props.Diamond.__mro__] == ["Diamond", "Left", "Right", "object"]
        instance = props.Diamond()  # Left.__init__ assigns self.value: Right's setter runs
        found = inspect.getattr_static(instance, "value")
        assert isinstance(found, property) and holder(props.Diamond, "value") is props.Right
        assert "value" not in vars(instance)
        assert contains(diamond, code_line(found))
        # Left alone has no property in its MRO: its instance attribute is the answer.
        assert inspect.getattr_static(props.Left(), "value") == 1
    assert diamond.rule == "getter-over-accessors+property-over-instance"
    assert left.start == repo.line("pkg/props.py", "# left value assignment")


CONDITIONS = """\
import os
import sys
from typing import TYPE_CHECKING

if sys.version_info >= (3, 99):
    def future():  # future branch
        return 1
else:
    def future():  # present branch
        return 2

def stub(a, *rest) -> int:  # typed stub
    ...

if not TYPE_CHECKING:
    def stub(*rest):  # runtime stub
        return 3

if TYPE_CHECKING:
    def checked() -> int:  # checked declaration
        ...
else:
    def checked():  # checked runtime
        return 4

def modern():  # modern first
    return 5

if sys.version_info[:2] >= (3, 8):
    def modern():  # modern rebinding
        return 6

if sys.platform == "win32":
    def where():  # windows where
        return 7
elif sys.platform.startswith("linux"):
    def where():  # linux where
        return 8
else:
    def where():  # other where
        return 9

if sys.platform != "linux" and (3, 0) <= sys.version_info < (3, 99):
    def odd():  # not linux odd
        return 10
else:
    def odd():  # linux odd
        return 11

if os.environ.get("PKG_FAST"):
    def fast():  # fast first
        return 12
else:
    def fast():  # fast second
        return 13

if sys.version_info < (3, 0):
    def legacy():  # legacy only
        return 14

from sys import hexversion as hv


def _batched(n):  # batched fallback
    return n

if hv >= 0x40000A2:
    def batched(n):  # batched wrapper
        return n
else:
    batched = _batched  # batched alias
"""


@pytest.mark.skipif(
    sys.platform != "linux", reason="the default platform is linux; Python's answer is this one's"
)
@pytest.mark.parametrize(
    ("name", "needle", "rule"),
    [
        ("future", "# present branch", "static-condition"),
        ("stub", "# runtime stub", "static-condition+last-rebinding"),
        ("checked", "# checked runtime", "runtime-over-typing"),
        ("modern", "# modern rebinding", "static-condition+last-rebinding"),
        ("where", "# linux where", "static-condition"),
        ("odd", "# linux odd", "static-condition"),
        (
            "fast",
            "# fast first",
            "first-branch",
        ),  # not decidable statically: the first branch, as documented
        (
            "batched",
            "# batched alias",
            "static-condition",
        ),  # 0x40000A2 is 4.0.0a2: the else branch runs
    ],
)
def test_version_platform_and_typing_tests_are_decided_as_python_runs_them(
    upstream: Upstream,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    needle: str,
    rule: str,
) -> None:
    files = {"pkg/__init__.py": "", "pkg/cond.py": CONDITIONS}
    repo = Skeleton(upstream, tmp_path, files)
    location = repo.resolve(f"pkg.cond.{name}")
    assert (location.start, location.rule) == (repo.line("pkg/cond.py", needle), rule)
    monkeypatch.delenv("PKG_FAST", raising=False)
    with imported(files, tmp_path / "site", monkeypatch):
        cond = importlib.import_module("pkg.cond")

        python = getattr(cond, name).__code__.co_firstlineno
    if name == "fast":
        assert (
            python != location.start
        )  # the documented rule, where Python's answer depends on the run
    elif (
        name == "batched"
    ):  # the binding that runs is `batched = _batched`: Python's object is _batched's
        assert python == repo.line("pkg/cond.py", "# batched fallback")
    else:
        assert python == location.start


def test_the_message_names_the_condition_and_how_it_was_decided(
    upstream: Upstream, tmp_path: Path
) -> None:
    repo = Skeleton(upstream, tmp_path, {"pkg/__init__.py": "", "pkg/cond.py": CONDITIONS})
    future = repo.engine.check(Target("up", "pkg.cond.future", None)).message
    assert f"sys.version_info >= (3, 99) is false for Python {HERE}" in future
    assert f"other bindings L{repo.line('pkg/cond.py', '# future branch')}" in future
    stub = repo.engine.check(Target("up", "pkg.cond.stub", None)).message
    assert "not TYPE_CHECKING is true at run time: the branch always runs" in stub
    where = repo.engine.check(Target("up", "pkg.cond.where", None)).message
    assert "sys.platform == 'win32' is false for sys.platform 'linux'" in where
    assert "sys.platform.startswith('linux') is true for sys.platform 'linux'" in where
    # A name bound only where nothing runs is not bound; the message says why and what to set.
    with pytest.raises(
        ResolveError,
        match=r"bound only in branches that do not run \(sys\.version_info < "
        rf"\(3, 0\) is false for Python {HERE}\): source_anchors_python",
    ):
        repo.resolve("pkg.cond.legacy")


def test_the_python_setting_decides_for_another_version_and_platform(
    upstream: Upstream, tmp_path: Path
) -> None:
    repo = Skeleton(
        upstream, tmp_path, {"pkg/__init__.py": "", "pkg/cond.py": CONDITIONS}, python="3.99 win32"
    )
    assert repo.resolve("pkg.cond.future").start == repo.line("pkg/cond.py", "# future branch")
    assert repo.resolve("pkg.cond.where").start == repo.line("pkg/cond.py", "# windows where")
    legacy = Skeleton.make_engine(repo, "2.7")
    assert legacy.resolver("up").resolve("pkg.cond.legacy").start == repo.line(
        "pkg/cond.py", "# legacy only"
    )
    assert str(parse_python("3.12")) == "3.12" and parse_python("3.12 darwin") == Python(
        (3, 12), "darwin"
    )
    for bad in ("three", "3", "3.11 Win32", 3.11):
        with pytest.raises(
            ConfigError, match=r"source_anchors_python: expected a Python version such as '3\.11'"
        ):
            settings_from({"python": bad}, confdir=tmp_path, environ={})


_Info = namedtuple("_Info", "major minor micro releaselevel serial")


@pytest.mark.parametrize(
    "test",
    [
        "sys.version_info >= (3, 8)",
        "sys.version_info >= (3, 11)",
        "sys.version_info > (3, 11)",
        "sys.version_info == (3, 11)",
        "sys.version_info != (3, 11)",
        "sys.version_info < (3, 11)",
        "sys.version_info <= (3, 11)",
        "sys.version_info >= (3,)",
        "sys.version_info < (4,)",
        "sys.version_info >= (3, 11, 2)",
        "sys.version_info >= (3, 10, 2)",
        "sys.version_info[:2] == (3, 11)",
        "sys.version_info[:2] >= (3, 12)",
        "sys.version_info[:3] > (3, 11)",
        "sys.version_info[0] == 3",
        "sys.version_info[1] >= 11",
        "sys.version_info.minor < 9",
        "sys.version_info.major >= 3",
        "(3, 9) <= sys.version_info",
        "(3, 9) <= sys.version_info < (3, 12)",
        "sys.version_info[1:] >= (11,)",
        "sys.version_info < (3, 9, 0, 'final')",
        "not sys.version_info >= (3, 13)",
        "sys.version_info >= (3, 8) and sys.platform == 'linux'",
        "sys.version_info < (3, 8) or sys.platform == 'x'",
        "sys.platform in ('linux', 'darwin')",
        "sys.platform not in ('win32',)",
        "sys.platform.startswith(('win', 'cyg'))",
    ],
)
@pytest.mark.parametrize("version", [(3, 8), (3, 11), (3, 13)])
def test_each_decided_test_is_what_python_computes_for_every_micro_release(
    test: str, version: tuple[int, int]
) -> None:
    # Python's own comparison on sys.version_info as it is for micro releases 0 and 99: a test they
    # agree on is decided so; one they do not agree on is not decided.
    answers = set()
    for micro in (0, 99):
        fake = type(sys)("sys")
        fake.version_info = _Info(*version, micro, "final", 0)  # type: ignore[attr-defined]
        fake.platform = "linux"  # type: ignore[attr-defined]
        answers.add(bool(eval(test, {"sys": fake})))
    expected = answers.pop() if len(answers) == 1 else None
    assert decide(ast.parse(test, mode="eval").body, Python(version), set()) is expected


@pytest.mark.parametrize(
    "test",
    [
        "sys.hexversion >= 0x30D00A2",
        "sys.hexversion < 0x30D00A2",
        "sys.hexversion >= 0x030B0000",
        "sys.hexversion >= 0x030B00F0",
        "sys.hexversion > 0x030BFFFF",
        "sys.hexversion == 0x030B04F0",
        "sys.hexversion != 0x03000000",
        "0x030800F0 <= sys.hexversion",
        "hexversion >= 0x30D00A2",
        "not hexversion < 0x03090000",
    ],
)
@pytest.mark.parametrize("version", [(3, 8), (3, 11), (3, 13)])
def test_each_decided_hexversion_test_is_what_python_computes_for_every_release(
    test: str, version: tuple[int, int]
) -> None:
    # Python's own comparison for every release of the minor (micro 0-255, alpha to final, serial
    # 0-15): decided when all agree. A bare name is read as imported by ``from sys import
    # hexversion``.
    code = compile(test, "<test>", "eval")
    answers = set()
    for micro in range(256):
        for level in (0xA, 0xB, 0xC, 0xF):
            for serial in range(16):
                value = version[0] << 24 | version[1] << 16 | micro << 8 | level << 4 | serial
                fake = type(sys)("sys")
                fake.hexversion = value  # type: ignore[attr-defined]
                answers.add(bool(eval(code, {"sys": fake, "hexversion": value})))
    expected = answers.pop() if len(answers) == 1 else None
    tree = ast.parse(f"if {test}:\n    pass\n").body[0]
    assert isinstance(tree, ast.If)
    body, _, note = branches(tree, 0, Python(version), {"hexversion": "hexversion"})
    assert (None if note is None else not body & DEAD) is expected, note


FALLBACKS = """\
try:
    from pkg_missing_for_this_test.socks import ProxyManager  # outside import
except ImportError:
    def ProxyManager(*args, **kwargs):  # fallback definition
        raise RuntimeError("no socks")

try:
    from pkg_missing_for_this_test import json_speedups as speedups  # outside speedups
except ImportError:
    speedups = None  # stand-in value

try:
    from pkg_missing_for_this_test import Codec  # outside codec
except ImportError:
    try:
        from pkg_missing_too_for_this_test import Codec  # outside codec again
    except ImportError:
        from pkg.props import Field as Codec  # inside codec


def traced(func):
    def inner(*args):
        return func(*args)
    inner.__wrapped__ = func
    return inner


def helper(x):  # helper def
    return x
helper = traced(helper)  # helper wrapped by hand


class Tool:
    def run():  # run def
        return 1

    run = staticmethod(run)  # run wrapped
"""


def test_a_fallback_inside_the_packages_wins_over_an_import_from_outside(
    upstream: Upstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"pkg/__init__.py": "", "pkg/fallback.py": FALLBACKS, "pkg/props.py": PROPERTIES}
    repo = Skeleton(upstream, tmp_path, files)
    outcome = repo.engine.check(Target("up", "pkg.fallback.ProxyManager", None))
    assert outcome.location is not None
    assert outcome.location.start == repo.line("pkg/fallback.py", "# fallback definition")
    assert outcome.location.rule == "first-branch+inside-over-outside"
    outside = repo.line("pkg/fallback.py", "# outside import")
    assert (
        f"the branch at L{outside} imports pkg_missing_for_this_test.socks.ProxyManager, outside the "
        "pinned packages"
    ) in outcome.message
    # A stand-in value is no definition: the import stays the answer, and leads out of the packages.
    with pytest.raises(ResolveError, match="'pkg_missing_for_this_test' is not a package of up"):
        repo.resolve("pkg.fallback.speedups")
    # Past another branch that leaves the packages too, to an import from inside them.
    codec = repo.engine.check(Target("up", "pkg.fallback.Codec", None))
    assert codec.location is not None and codec.location.path == "pkg/props.py"
    assert codec.location.start == repo.line("pkg/props.py", "class Field:")
    assert "inside-over-outside" in codec.location.rule
    with imported(files, tmp_path / "site", monkeypatch):
        fallback = importlib.import_module("pkg.fallback")

        assert fallback.ProxyManager.__code__.co_firstlineno == outcome.location.start
        assert fallback.speedups is None
        assert fallback.Codec is importlib.import_module("pkg.props").Field


def test_a_wrapping_line_right_after_def_leaves_the_def_the_definition(
    upstream: Upstream, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"pkg/__init__.py": "", "pkg/fallback.py": FALLBACKS, "pkg/props.py": PROPERTIES}
    repo = Skeleton(upstream, tmp_path, files)
    helper, run = repo.resolve("pkg.fallback.helper"), repo.resolve("pkg.fallback.Tool.run")
    eos = repo.resolve("pkg.props.Base.eos")
    assert (helper.start, helper.rule) == (
        repo.line("pkg/fallback.py", "# helper def"),
        "definition-over-wrapper",
    )
    assert helper.others == ((repo.line("pkg/fallback.py", "# helper wrapped"),) * 2,)
    assert (run.start, run.rule) == (
        repo.line("pkg/fallback.py", "# run def"),
        "definition-over-wrapper",
    )
    assert (eos.start, eos.kind) == (
        repo.line("pkg/props.py", "# eos def"),
        "attribute",
    )  # a property now
    with imported(files, tmp_path / "site", monkeypatch):
        fallback, props = (
            importlib.import_module("pkg.fallback"),
            importlib.import_module("pkg.props"),
        )

        assert code_line(fallback.helper) == helper.start
        assert code_line(vars(fallback.Tool)["run"]) == run.start
        assert (
            isinstance(vars(props.Base)["eos"], property)
            and code_line(vars(props.Base)["eos"]) == eos.start
        )


def test_an_existing_lock_reports_what_the_new_rules_moved_then_update_relocks(
    upstream: Upstream, tmp_path: Path
) -> None:
    repo = Skeleton(upstream, tmp_path, {"pkg/__init__.py": "", "pkg/props.py": PROPERTIES})
    text = repo.files["pkg/props.py"].split("\n")
    old = repo.line(
        "pkg/props.py", "# app debug assignment"
    )  # what the rules before version 10 gave
    blob = repo.resolve("pkg.props.App").blob
    record = LockRecord(
        commit=repo.sha,
        path="pkg/props.py",
        start=old,
        end=old,
        sha256=lines_hash(text, old, old),
        blob=blob,
    )
    lock = {
        "version": 1,
        "anchors": {
            "up": {
                "pkg.props.App.debug": record.to_json(),
                "pkg.props.App": LockRecord.at(repo.sha, repo.resolve("pkg.props.App")).to_json(),
            }
        },
    }
    (tmp_path / "source-anchors.lock").write_text(json.dumps(lock), "utf-8")
    engine = repo.make_engine(None)
    moved = engine.check(Target("up", "pkg.props.App.debug", None))
    assert moved.status is Status.moved
    assert "rule getter-over-accessors+property-over-instance" in moved.message
    assert (
        f"the same commit, resolved anew (resolver version before 10 → {RESOLVER_VERSION})"
        in moved.message
    )
    assert engine.check(Target("up", "pkg.props.App", None)).status is Status.ok
    # A record edited by hand (its lines are not what it says) is no resolution of this commit:
    # changed.
    forged = {
        **lock,
        "anchors": {"up": {"pkg.props.App.debug": {**record.to_json(), "sha256": "0" * 64}}},
    }
    (tmp_path / "forged.lock").write_text(json.dumps(forged), "utf-8")
    assert (
        repo.make_engine(None, "forged.lock")
        .check(Target("up", "pkg.props.App.debug", None))
        .status
        is Status.changed
    )
    # update relocks it, and records what it resolved with: the next check is ok.
    outcomes = [
        engine.check(Target("up", key, None)) for key in ("pkg.props.App.debug", "pkg.props.App")
    ]
    engine.relock(outcomes)
    relocked = read_lock(tmp_path / "source-anchors.lock")
    assert relocked.resolver == {"version": RESOLVER_VERSION, "python": HERE}
    assert (
        repo.make_engine(None).check(Target("up", "pkg.props.App.debug", None)).status is Status.ok
    )


def test_another_python_re_resolves_and_moves_what_depends_on_it(
    upstream: Upstream, tmp_path: Path
) -> None:
    repo = Skeleton(
        upstream, tmp_path, {"pkg/__init__.py": "", "pkg/cond.py": CONDITIONS}, python="3.99"
    )
    future = Target("up", "pkg.cond.future", None)
    first = repo.engine.check(future)
    repo.engine.lock_new([first])
    repo.engine.remember([first])
    assert read_lock(tmp_path / "source-anchors.lock").resolver == {
        "version": RESOLVER_VERSION,
        "python": "3.99",
    }
    # The same cache and lock, read for this Python: resolved again (the cache is keyed by the
    # setting).
    now = repo.make_engine(None).check(future)
    assert now.status is Status.moved and now.location is not None
    assert now.location.start == repo.line("pkg/cond.py", "# present branch")
    assert f"source_anchors_python 3.99 → {HERE}" in now.message
    assert f"sys.version_info >= (3, 99) is false for Python {HERE}" in now.message


def test_a_lock_with_a_broken_resolver_record_is_a_located_error(tmp_path: Path) -> None:
    lock = tmp_path / "source-anchors.lock"
    lock.write_text(
        '{\n  "anchors": {},\n  "resolver": {"python": 3.11},\n  "version": 1\n}\n', "utf-8"
    )
    with pytest.raises(
        LockError,
        match=r"source-anchors\.lock:3: 'resolver' must be an object with 'version' "
        r"\(an integer\) and 'python' \(a string\); restore it .* or run update",
    ):
        read_lock(lock)
