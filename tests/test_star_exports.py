"""What a star import binds, read from the star module's ``__all__`` with as little parsing as it takes.

Each case writes a package with git: ``pkg/__init__.py`` star-imports ``pkg.other`` (which defines
``Small``) and then ``pkg.big``, so ``pkg.Small`` is ``big``'s when ``big`` exports it and
``other``'s when not. The oracle is Python itself: the test imports the package it wrote (never
upstream code) in a fresh interpreter and asks which module ``pkg.Small`` comes from. The resolver
must agree whether it read ``big``'s head, its whole text, or neither.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.records import Location
from source_anchors.model.target import Target

INIT = "from .other import *\nfrom .big import *\n"
OTHER = "def Small():\n    return 'other'\n"
BODY = "".join(f"def helper{k}(x):\n    return x + {k}\n\n\n" for k in range(40))
SMALL = "def Small():\n    return 'big'\n"

CASES = {  # big.py, then whether big is parsed whole, and whether its head is parsed first
    # A static __all__ near the top that does not list Small: only the head is parsed.
    "head": (
        f'__all__ = ["Big", "helper1"]\n\n\nclass Big:\n    pass\n\n\n{BODY}{SMALL}',
        False,
        True,
    ),
    # Small listed as an implicit concatenation: the head lists it, so big is then read whole.
    "concatenated": (
        f'__all__ = ["Big", "Sm" "all"]\n\n\nclass Big:\n    pass\n\n\n{BODY}{SMALL}',
        True,
        True,
    ),
    # A docstring that shows an __all__ at the start of a line: the head ends inside it, does not
    # parse.
    "docstring": (f'"""Usage:\n\n__all__ = ["Big"]\n"""\n\n{BODY}{SMALL}', True, True),
    # __all__ extended later, under an if: the head runs to the last __all__.
    "extended": (
        f'__all__ = ["Big"]\n\nif True:\n    __all__ += ["helper2"]\n\n\nclass Big:\n    pass\n\n\n'
        f"{BODY}{SMALL}",
        False,
        True,
    ),
    # Brackets in a string and a comment on the __all__ line.
    "bracket": (
        f'__all__ = ["Big", "x]"]  # [Small\nglobals()["x]"] = 1\n\n\nclass Big:\n    pass\n\n\n'
        f"{BODY}{SMALL}",
        False,
        True,
    ),
    # __all__ in the second half of the file: parsing the head would not be worth it.
    "late": (f'{BODY}{SMALL}\n\n__all__ = ["helper3"]\n', True, False),
    # No __all__ at all: every public name is exported; big is read whole for its bindings.
    "none": (f"{BODY}{SMALL}", True, False),
    # __all__ extended with what is not a list of strings: Small is in it at runtime, so big is read
    # whole.
    "dynamic": (
        f'__all__ = ["Big"]\n__all__ += ["Sm" + "all"]\n\n\nclass Big:\n    pass\n\n\n{BODY}{SMALL}',
        True,
        True,
    ),
    # Appended to in a function (numpy's extend_all): the static list is only part of it.
    "appended": (
        f'__all__ = ["Big"]\n\n\ndef export(name):\n    __all__.append(name)\n\n\nexport("Sm" + "all")\n'
        f"\n\nclass Big:\n    pass\n\n\n{BODY}{SMALL}",
        True,
        True,
    ),
    # Only read in a function (a lazy module's __dir__): the static list is all of it.
    "read": (
        f'__all__ = ["Big"]\n\n\ndef __dir__():\n    return list(__all__)\n\n\nclass Big:\n    pass\n\n\n'
        f"{BODY}{SMALL}",
        False,
        True,
    ),
    # __all__ spelled in full-width letters: Python reads it NFKC-normalised as __all__.
    "nfkc": (f'__\uff41ll__ = ["Big"]\n\n\nclass Big:\n    pass\n\n\n{BODY}{SMALL}', True, False),
}


class Repo:
    """The package written and committed, opened by an Engine."""

    def __init__(self, upstream: Upstream, tmp: Path, files: dict[str, str]) -> None:
        upstream.write_files(files)
        self.texts = files
        self.engine = Engine(
            settings_from(
                {
                    "repos": {
                        "up": {
                            "url": upstream.url,
                            "commit": upstream.commit(),
                            "packages": ["pkg"],
                        }
                    },
                    "cache_dir": str(tmp / "cache"),
                },
                confdir=tmp,
                environ={},
            )
        )

    def resolve(self, path: str) -> Location:
        return self.engine.resolver("up").resolve(path)

    def line(self, rel: str, needle: str) -> int:
        return next(
            n for n, text in enumerate(self.texts[rel].splitlines(), start=1) if needle in text
        )


def python_says(root: Path) -> str:
    """The module ``pkg.Small`` comes from, as Python imports the package (the test's own code)."""
    done = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            "import sys; sys.path.insert(0, '.'); import pkg; print(pkg.Small.__module__)",
        ],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("case", sorted(CASES))
def test_star_import_binds_what_python_binds(upstream: Upstream, tmp_path: Path, case: str) -> None:
    big, whole, head = CASES[case]
    repo = Repo(
        upstream, tmp_path, {"pkg/__init__.py": INIT, "pkg/other.py": OTHER, "pkg/big.py": big}
    )
    expected = python_says(upstream.path)
    outcome = repo.engine.check(Target("up", "pkg.Small", None))
    assert outcome.location is not None, outcome.message
    assert outcome.location.path == expected.replace(".", "/") + ".py", (case, outcome.message)
    # The answer depends on big's __all__ whichever file defines Small: a change to big invalidates
    # it.
    assert "pkg/big.py" in {outcome.location.path, *dict(outcome.location.uses)}
    files = repo.engine.resolver("up").files
    assert ("pkg/big.py" in files.parsed) == whole, case
    # One ast.parse per file parsed whole, and one for big's head where it was tried.
    assert files.ast_parses == len(files.parsed) + head, case


def test_a_file_whose_head_was_read_is_parsed_whole_once_when_its_bindings_are_needed(
    upstream: Upstream, tmp_path: Path
) -> None:
    repo = Repo(
        upstream,
        tmp_path,
        {"pkg/__init__.py": INIT, "pkg/other.py": OTHER, "pkg/big.py": CASES["head"][0]},
    )
    files = repo.engine.resolver("up").files
    assert repo.resolve("pkg.Small").path == "pkg/other.py"
    assert (files.ast_parses, "pkg/big.py" in files.parsed) == (
        3,
        False,
    )  # package, other, big's head
    big = repo.resolve("pkg.Big")
    assert (big.path, big.start) == ("pkg/big.py", repo.line("pkg/big.py", "class Big:"))
    assert repo.resolve("pkg.helper1").start == repo.line("pkg/big.py", "def helper1(x):")
    assert (files.ast_parses, "pkg/big.py" in files.parsed) == (
        4,
        True,
    )  # big whole, once, for both


def test_a_star_through_an_all_not_read_in_full_says_so(upstream: Upstream, tmp_path: Path) -> None:
    big = CASES["appended"][0]
    repo = Repo(
        upstream, tmp_path, {"pkg/__init__.py": INIT, "pkg/other.py": OTHER, "pkg/big.py": big}
    )
    outcome = repo.engine.check(Target("up", "pkg.Small", None))
    assert outcome.location is not None and outcome.location.path == "pkg/big.py"
    assert (
        "pkg.big.__all__ is not read statically in full: taken to hold the public name 'Small'"
        in outcome.message
    )


def test_a_submodule_not_listed_in_an_all_not_read_in_full_is_not_what_the_star_binds(
    upstream: Upstream, tmp_path: Path
) -> None:
    # django.contrib.gis.db.models star-imports django.db.models, whose __all__ is a sum of imported
    # lists: 'aggregates' is not in it, so gis's own submodule is meant, not
    # django.db.models.aggregates.
    files = {
        "pkg/__init__.py": "from .lib import *\n",
        "pkg/tool.py": "def mine():\n    return 1\n",
        "pkg/lib/__init__.py": 'from .names import NAMES\n\n__all__ = NAMES + ["helper"]\n\n\ndef helper():\n'
        "    return 2\n",
        "pkg/lib/names.py": "NAMES = []\n",
        "pkg/lib/tool.py": "def theirs():\n    return 3\n",
    }
    repo = Repo(upstream, tmp_path, files)
    assert repo.resolve("pkg.tool.mine").path == "pkg/tool.py"
    assert repo.resolve("pkg.helper").path == "pkg/lib/__init__.py"
    done = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            "import sys; sys.path.insert(0, '.'); import pkg; "
            "print('tool' in vars(pkg), pkg.helper.__module__)",
        ],
        cwd=upstream.path,
        capture_output=True,
        text=True,
    )
    assert done.stdout.split() == ["False", "pkg.lib"], done.stderr
