"""Inherited members resolve in Python's method resolution order (C3), checked against ``__mro__``.

Each test writes a skeleton of plain classes, spread over modules of a package that import
each other (some through the package's re-exports), commits it with git, and resolves
through the Engine. The same skeleton, flattened into one source text written by the test,
is ``exec``'d here to obtain Python's own ``__mro__``: only the test's own code is run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.errors import ResolveError
from source_anchors.model.target import Target
from source_anchors.reading.python.refs import Ref
from source_anchors.resolve.resolver import Resolver

MODULES = 3


def engine_for(upstream: Upstream, tmp: Path, files: dict[str, str]) -> Engine:
    """Write *files*, commit them, and open the commit with an Engine (repository ``up``, package ``pkg``)."""
    for rel, text in files.items():
        upstream.write(rel, text)
    sha = upstream.commit()
    settings = settings_from(
        {
            "repos": {"up": {"url": upstream.url, "commit": sha, "packages": ["pkg"]}},
            "cache_dir": str(tmp / "cache"),
        },
        confdir=tmp,
        environ={},
    )
    return Engine(settings)


@dataclass
class Skeleton:
    """Classes ``C0``…: their bases and the attributes each defines (value: ``"Cn.attr"``)."""

    bases: dict[str, list[str]]
    attrs: dict[str, list[str]]

    def module_of(self, name: str) -> str:
        return f"m{int(name[1:]) % MODULES}"

    def flat_source(self) -> str:
        """The whole skeleton in one module, for exec."""
        out = []
        for name, bases in self.bases.items():
            out.append(f"class {name}({', '.join(bases)}):")
            out += [f"    {attr} = {f'{name}.{attr}'!r}" for attr in self.attrs[name]] or [
                "    pass"
            ]
        return "\n".join(out) + "\n"

    def files(self) -> dict[str, str]:
        """The package: classes spread over modules; bases imported directly or through the package."""
        texts: dict[str, list[str]] = {f"m{n}": [] for n in range(MODULES)}
        imports: dict[str, list[str]] = {f"m{n}": [] for n in range(MODULES)}
        for name, bases in self.bases.items():
            here = self.module_of(name)
            for base in bases:
                there = self.module_of(base)
                if there != here:
                    via = (
                        "." if int(base[1:]) % 2 else f".{there}"
                    )  # odd classes through pkg's re-export
                    imports[here].append(f"from {via} import {base}")
            texts[here].append(f"\n\nclass {name}({', '.join(bases)}):")
            texts[here] += [f"    {attr} = {f'{name}.{attr}'!r}" for attr in self.attrs[name]] or [
                "    pass"
            ]
        files = {
            f"pkg/{m}.py": (
                "\n".join(dict.fromkeys(imports[m])) + "\n".join(texts[m]) + "\n"
            ).lstrip("\n")
            for m in texts
        }
        files["pkg/__init__.py"] = "".join(
            f"from .{self.module_of(n)} import {n}\n" for n in self.bases
        )
        return files


def random_skeleton(
    seed: int, count: int = 14, names: tuple[str, ...] = ("a", "b", "c", "d")
) -> Skeleton:
    """A random hierarchy Python accepts: each class has up to three earlier classes as bases."""
    rng = random.Random(seed)
    made: dict[str, type] = {}
    bases: dict[str, list[str]] = {}
    for n in range(count):
        name = f"C{n}"
        chosen = rng.sample(sorted(made), k=min(len(made), rng.choice((0, 1, 2, 2, 3, 3))))
        try:
            made[name] = type(name, tuple(made[b] for b in chosen), {})
        except TypeError:  # no consistent order: keep the class, without bases
            chosen, made[name] = [], type(name, (), {})
        bases[name] = chosen
    attrs = {name: [a for a in names if rng.random() < 0.3] for name in bases}
    return Skeleton(bases, attrs)


def python_classes(skeleton: Skeleton) -> dict[str, type]:
    namespace: dict[str, object] = {}
    exec(skeleton.flat_source(), namespace)  # the test's own skeleton, never upstream code
    return {name: value for name, value in namespace.items() if isinstance(value, type)}


def breadth_first_owner(skeleton: Skeleton, name: str, attr: str) -> str | None:
    """The owner the old breadth-first search over direct bases found (to show the cases differ)."""
    queue, seen = [name], {name}
    if attr in skeleton.attrs[name]:
        return name
    while queue:
        for base in skeleton.bases[queue.pop(0)]:
            if base in seen:
                continue
            seen.add(base)
            if attr in skeleton.attrs[base]:
                return base
            queue.append(base)
    return None


def mro_names(resolver: Resolver, path: str) -> list[str]:
    ref = resolver.walker.object(path)
    return [entry.qual if isinstance(entry, Ref) else entry for entry in resolver.walker.mro(ref)]


def line_of(text: str, needle: str) -> int:
    hits = [n for n, line in enumerate(text.split("\n"), start=1) if needle in line]
    assert len(hits) == 1, (needle, hits)
    return hits[0]


def check_against_python(engine: Engine, skeleton: Skeleton) -> int:
    """Every class's MRO and every (class, attribute) against Python; return how many BFS got wrong."""
    classes, files = python_classes(skeleton), skeleton.files()
    resolver = engine.resolver("up")
    breadth_first_wrong = 0
    for name, cls in classes.items():
        path = f"pkg.{skeleton.module_of(name)}.{name}"
        assert mro_names(resolver, path) == [k.__name__ for k in cls.__mro__[:-1]], (
            name
        )  # object is implicit
        for attr in sorted({a for names in skeleton.attrs.values() for a in names}):
            owner = next((k.__name__ for k in cls.__mro__ if attr in vars(k)), None)
            outcome = engine.check(Target("up", f"{path}.{attr}", None))
            if owner is None:
                assert outcome.status == "missing", (name, attr)
                continue
            rel = f"pkg/{skeleton.module_of(owner)}.py"
            assert outcome.location is not None, outcome.message
            assert (outcome.location.path, outcome.location.start) == (
                rel,
                line_of(files[rel], f"{attr} = '{owner}.{attr}'"),
            ), (name, attr, owner)
            breadth_first_wrong += breadth_first_owner(skeleton, name, attr) != owner
    return breadth_first_wrong


DIAMONDS = Skeleton(
    bases={
        "C0": [],
        "C1": ["C0"],
        "C2": [],
        "C3": ["C1", "C2"],  # C3 -> C1 -> C0 before C2
        "C4": ["C0"],
        "C5": ["C4"],
        "C6": ["C5", "C1"],  # deeper: C6 -> C5 -> C4 -> C1 -> C0
        "C7": ["C3", "C6"],
        "C8": ["C2"],
        "C9": ["C7", "C8"],
    },
    attrs={
        "C0": ["a", "b"],
        "C1": [],
        "C2": ["a", "c"],
        "C3": [],
        "C4": [],
        "C5": [],
        "C6": ["c"],
        "C7": [],
        "C8": ["b", "d"],
        "C9": [],
    },
)


def test_diamonds_follow_python_mro_where_breadth_first_differs(
    upstream: Upstream, tmp_path: Path
) -> None:
    engine = engine_for(upstream, tmp_path, DIAMONDS.files())
    assert check_against_python(engine, DIAMONDS) >= 3


@pytest.mark.parametrize("seed", range(6))
def test_random_hierarchies_follow_python_mro(
    upstream: Upstream, tmp_path: Path, seed: int
) -> None:
    skeleton = random_skeleton(seed)
    engine = engine_for(upstream, tmp_path, skeleton.files())
    check_against_python(engine, skeleton)


def test_random_hierarchies_include_cases_breadth_first_gets_wrong(tmp_path: Path) -> None:
    wrong = 0
    for seed in range(6):
        skeleton = random_skeleton(seed)
        classes = python_classes(skeleton)
        for name, cls in classes.items():
            for attr in ("a", "b", "c", "d"):
                owner = next((k.__name__ for k in cls.__mro__ if attr in vars(k)), None)
                wrong += breadth_first_owner(skeleton, name, attr) != owner
    assert wrong >= 5


INCONSISTENT = """\
class A:
    x = 1


class B(A):
    pass


class C(A, B):
    pass
"""


def test_inconsistent_hierarchy_is_an_error_that_says_so(
    upstream: Upstream, tmp_path: Path
) -> None:
    with pytest.raises(TypeError, match="consistent method resolution"):
        exec(INCONSISTENT, {})
    engine = engine_for(upstream, tmp_path, {"pkg/__init__.py": "", "pkg/bad.py": INCONSISTENT})
    outcome = engine.check(Target("up", "pkg.bad.C.x", None))
    assert outcome.status == "missing"
    assert "no consistent method resolution order" in outcome.message
    assert "pkg.bad.A" in outcome.message and "pkg.bad.B" in outcome.message


UNREAD = """\
from collections import OrderedDict

from .base import Known, make_base


class Made(make_base(), Known):
    pass


class Ordered(OrderedDict, Known):
    own = 1
"""


def test_bases_not_read_statically_are_named(upstream: Upstream, tmp_path: Path) -> None:
    base = "class Known:\n    known = 1\n\n\ndef make_base():\n    return object\n"
    engine = engine_for(
        upstream, tmp_path, {"pkg/__init__.py": "", "pkg/base.py": base, "pkg/use.py": UNREAD}
    )
    # Not found: the message names the bases that could hold it.
    missing = engine.check(Target("up", "pkg.use.Made.nothing", None))
    assert missing.status == "missing"
    assert "make_base() (an expression)" in missing.message
    outside = engine.check(Target("up", "pkg.use.Ordered.nothing", None))
    assert (
        "OrderedDict (= collections.OrderedDict) (outside the pinned packages)" in outside.message
    )
    # Found past such a base: the answer says the base could hide it.
    found = engine.check(Target("up", "pkg.use.Ordered.known", None))
    assert found.location is not None and found.location.path == "pkg/base.py"
    assert "OrderedDict" in found.location.caveat and "OrderedDict" in found.message
    # Found before it: nothing to say.
    own = engine.check(Target("up", "pkg.use.Ordered.own", None))
    assert own.location is not None and own.location.caveat == ""


def test_class_named_like_its_imported_base(upstream: Upstream, tmp_path: Path) -> None:
    """'class Thing(Thing)' subclasses the Thing bound before the statement, not itself."""
    use = "from .base import Thing\n\n\nclass Thing(Thing):\n    pass\n"
    engine = engine_for(
        upstream,
        tmp_path,
        {"pkg/__init__.py": "", "pkg/base.py": "class Thing:\n    x = 1\n", "pkg/use.py": use},
    )
    location = engine.resolver("up").resolve("pkg.use.Thing.x")
    assert (location.path, location.start) == ("pkg/base.py", 2)


def test_base_cycle_is_an_error(upstream: Upstream, tmp_path: Path) -> None:
    engine = engine_for(
        upstream,
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from .b import B\n\n\nclass A(B):\n    pass\n",
            "pkg/b.py": "from .a import A\n\n\nclass B(A):\n    pass\n",
        },
    )
    with pytest.raises(ResolveError, match="cycle"):
        engine.resolver("up").resolve("pkg.a.A.x")


def test_a_member_the_class_binds_itself_does_not_read_its_bases(
    upstream: Upstream, tmp_path: Path
) -> None:
    """The class is first in its own MRO: an own member needs none of its bases' files."""
    engine = engine_for(
        upstream,
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/base.py": "class Base:\n    x = 0\n    y = 1\n",
            "pkg/child.py": "from .base import Base\n\n\nclass Child(Base):\n    x = 2\n",
        },
    )
    own = engine.check(Target("up", "pkg.child.Child.x", None))
    assert own.status == "new" and own.location is not None
    assert (own.location.path, own.location.start) == ("pkg/child.py", 5)
    assert "pkg/base.py" not in dict(own.location.uses)
    assert engine._resolvers.ast_parses() == 1
    inherited = engine.check(Target("up", "pkg.child.Child.y", None))
    assert inherited.location is not None and inherited.location.path == "pkg/base.py"
    assert engine._resolvers.ast_parses() == 2
