"""C and C++ headers (``.h``): read as C++ when the text shows C++, else as C, by GitHub linguist's rule.

Takes in: a header's bytes.
Gives out: :data:`HEADER`, a :class:`~source_anchors.reading.language.Language` that reads each
header with the C++ language (:mod:`..cpp`) or the C one (:mod:`..c`), and :func:`shows_cpp`, the
rule that decides.
May import: the C and C++ language folders. The rule is GitHub linguist's disambiguation of ``.h``
(``lib/linguist/heuristics.yml``, the ``.h`` entry and its ``cpp`` and ``objectivec`` named
patterns): among the first 50 KiB of the file (linguist's ``HEURISTICS_CONSIDER_BYTES``), a line
that matches one of its C++ patterns (``#include <vector>``, ``template <``, ``class Name``,
``namespace name``, ``public:``, ``std::name``, …) makes the header C++, unless an Objective-C
pattern (``@interface``, ``#import "x.h"``) matched first in linguist's order, which keeps it C here
(Objective-C is not read). A definition read as C++ says so in its rule, with the line that showed
it.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence

from ....model.changeclass import ChangeClass
from ...language import Definition, Files, Language
from ..c import C_LANGUAGE
from ..cpp import CPP
from ..grammar import TreeSitterLanguage

__all__ = ["HEADER", "CHeader", "shows_cpp"]

#: How much of a file linguist's heuristics read (``Linguist::Heuristics::HEURISTICS_CONSIDER_BYTES``).
CONSIDER = 50 * 1024
#: linguist's ``cpp`` named pattern, one alternative a line, as ``heuristics.yml`` writes them
#: (Ruby's ``^`` and ``$`` are line anchors: ``re.M``).
_CPP = re.compile(
    rb"^\s*#\s*include <(cstdint|string|vector|map|list|array|bitset|queue|stack|forward_list"
    rb"|unordered_map|unordered_set|(i|o|io)stream)>"
    rb"|^\s*template\s*<"
    rb"|^[ \t]*(try|constexpr)"
    rb"|^[ \t]*catch\s*\("
    rb"|^[ \t]*(class|(using[ \t]+)?namespace)\s+\w+"
    rb"|^[ \t]*(private|public|protected):$"
    rb"|__has_cpp_attribute|__cplusplus >"
    rb"|std::\w+",
    re.M,
)
#: linguist's ``objectivec`` named pattern, tried before the C++ one.
_OBJECTIVE_C = re.compile(
    rb"^\s*(@(interface|class|protocol|property|end|synchronised|selector|implementation)\b"
    rb"|#import\s+.+\.h[\">])",
    re.M,
)
#: How many headers' decisions are kept (the files of one page's anchors, typically).
_KEEP = 64


def shows_cpp(source: bytes) -> int:
    """The line (1-based) of *source* whose text shows C++ by linguist's ``.h`` rule, or 0 for C.

    Only the first :data:`CONSIDER` bytes are read, as linguist reads them; an Objective-C header
    (its pattern matched) is 0.
    """
    head = source[:CONSIDER]
    # Every Objective-C alternative writes "@" or "#import": without them the scan is skipped.
    if (b"@" in head or b"#import" in head) and _OBJECTIVE_C.search(head):
        return 0
    found = _CPP.search(head)
    return head.count(b"\n", 0, found.start()) + 1 if found else 0


def _note(line: int) -> str:
    return f".h read as C++, by GitHub linguist's rule: line {line} shows C++"


class CHeader(Language):
    """``.h`` files: each read by C++ or C, whichever :func:`shows_cpp` says its text is."""

    name = "C/C++"
    suffixes = (".h",)
    family = CPP.family
    rules = (
        ".h read as C++ when a line shows C++ (GitHub linguist's rule), else as C",
        *C_LANGUAGE.rules,
    )
    wired = True

    def __init__(self) -> None:
        self._decided: OrderedDict[bytes, int] = OrderedDict()

    def installed(self) -> bool:
        """Whether both grammars, C's and C++'s, can be imported."""
        return C_LANGUAGE.installed() and CPP.installed()

    def _line(self, source: bytes) -> int:
        line = self._decided.get(source)
        if line is None:
            line = self._decided[source] = shows_cpp(source)
            if len(self._decided) > _KEEP:
                self._decided.popitem(last=False)
        return line

    def reading(self, source: bytes) -> TreeSitterLanguage:
        """C++ when *source*, a whole header, shows C++; else C."""
        return CPP if self._line(source) else C_LANGUAGE

    def definitions(self, source: bytes) -> list[Definition]:
        """The definitions the header's language reads; read as C++, each says so in its rule."""
        return self._noted(source, self.reading(source).definitions(source))

    def named(self, source: bytes, dotted: str) -> list[Definition] | None:
        """The definitions of *dotted* the header's language reads where the name is written."""
        found = self.reading(source).named(source, dotted)
        return None if found is None else self._noted(source, found)

    def _noted(self, source: bytes, found: list[Definition]) -> list[Definition]:
        line = self._line(source)
        return [d._replace(rule=_note(line)) for d in found] if line else found

    def statement(self, source: bytes, start: int, end: int, match: str) -> tuple[int, int]:
        """The ``::match`` rule of the header's language."""
        return self.reading(source).statement(source, start, end, match)

    def statement_in(
        self, files: Files, path: str, hit: int, column: int, match: str
    ) -> tuple[int, int] | None:
        """The statement holding line *hit*, by the header's language."""
        return self.reading(files.data(path)).statement_in(files, path, hit, column, match)

    def change_class(self, old: bytes, new: bytes) -> ChangeClass:
        """The class of change by C++'s tokens when either text shows C++, else by C's.

        The texts are a changed anchor's lines, not whole files: where the whole file is at hand,
        :meth:`reading` of it gives the language instead (the drift stage asks it).
        """
        language = CPP if shows_cpp(old) or shows_cpp(new) else C_LANGUAGE
        return language.change_class(old, new)

    def choose(self, candidates: Sequence[Definition]) -> tuple[Definition, str] | None:
        """C's and C++'s rules (they are the same): a body before prototypes, the first ``#if`` branch."""
        return C_LANGUAGE.choose(candidates)

    def pick(
        self, dotted: str, candidates: Sequence[Definition], found: Sequence[Definition] = ()
    ) -> Definition:
        """As every language picks; where a rule chose among several, the ``.h`` note stays in front."""
        picked = super().pick(dotted, candidates, found)
        note = candidates[0].rule if candidates else ""
        if note.startswith(".h read as") and picked.rule and picked.rule != note:
            picked = picked._replace(rule=f"{note}; {picked.rule}")
        return picked


HEADER = CHeader()
