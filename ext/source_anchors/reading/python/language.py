"""Python as a :class:`~..language.Language`: definitions, the statement rule, change classes (pure).

The tree-level reading, dotted paths through Python's import model, is the
:class:`~.walker.Walker`'s; this is what the interface every language implements asks of one file. A
file of a tree is read from its module index (:meth:`~.files.SourceFiles.index`: parsed once, or
stored before); bytes given alone are parsed here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from typing import Any

from ...model.changeclass import ChangeClass
from ...model.errors import ResolveError, UpstreamFileError
from ...model.textlines import decode_source, split_lines
from ..collector import collector_paused
from ..language import Definition, Files, Language
from .changes import classify
from .files import SourceFiles
from .modindex import ModuleIndex, build
from .modules import module_name
from .statements import Span, compact_span

#: The kinds of binding that are definitions: what a missing anchor's suggestions are looked for
#: among, too.
KINDS = ("class", "function", "attribute")


def candidates(index: ModuleIndex) -> Iterator[tuple[str, str, int, int]]:
    """(qualified name, kind, first line, last line) of each definition of the module *index*, in its order."""
    for qual, binds in index.bindings.items():
        for bind in binds:
            if bind.kind in KINDS:
                yield qual, bind.kind, bind.start, bind.end


def statement_at(files: SourceFiles, path: str, module: str, hit: int, column: int) -> Span | None:
    """The statement of module *module* (file *path*) holding line *hit* where a match starts at *column*."""
    return compact_span(files.index(path, module).statements, hit, files.lines(path), column)


class PythonLanguage(Language):
    """Python, read by the standard library's ``ast``: nothing upstream is imported or run."""

    name = "Python"
    suffixes = (".py", ".pyi")
    wired = True

    def definitions(self, source: bytes) -> list[Definition]:
        """Every class, function and attribute of the module *source*, by its qualified name.

        Its lines are the binding's (from a definition's first decorator); its name line is the
        first of them.
        """
        return self.indexed(self._read(source)[0])

    @staticmethod
    def indexed(index: ModuleIndex) -> list[Definition]:
        """The definitions of a module from its *index* (:meth:`definitions` without a parse of its own)."""
        found = [
            Definition(tuple(qual.split(".")), kind, start, end, start)
            for qual, kind, start, end in candidates(index)
        ]
        return sorted(found, key=lambda definition: definition.start)

    def statement(self, source: bytes, start: int, end: int, match: str) -> tuple[int, int]:
        """The statement rule (:mod:`.statements`) at the one line of *start*..*end* that holds *match*."""
        index, lines = self._read(source)
        hits = [
            number
            for number in range(start, min(end, len(lines)) + 1)
            if match in lines[number - 1]
        ]
        if len(hits) != 1:
            where = (
                f"is on {len(hits)} lines ({', '.join(map(str, hits))})"
                if hits
                else "is on no line"
            )
            raise ResolveError(f"match text {match!r} {where} of lines {start}-{end}")
        found = compact_span(index.statements, hits[0], lines, lines[hits[0] - 1].find(match))
        return found if found is not None else (hits[0], hits[0])

    def statement_in(
        self, files: Files, path: str, hit: int, column: int, match: str
    ) -> tuple[int, int] | None:
        """The statement holding line *hit* of *path*, from the file's module index when *files* keep them."""
        if isinstance(files, SourceFiles):
            return statement_at(files, path, module_name(path, files.packages), hit, column)
        index, lines = self._read(files.data(path))
        return compact_span(index.statements, hit, lines, column)

    def change_class(self, old: bytes, new: bytes) -> ChangeClass:
        """The class of change between two Python texts (:func:`.changes.classify`)."""
        return classify(decode_source(old), decode_source(new))

    def classify(
        self, old: Sequence[str], new: Sequence[str], *, parts: tuple[Any, Any] | None = None
    ) -> ChangeClass:
        """The class of change between two excerpts, their statements' *parts* used when known (:class:`.Parts`)."""
        return classify(list(old), list(new), parts=parts)

    @staticmethod
    def _read(source: bytes) -> tuple[ModuleIndex, list[str]]:
        """The module index and the lines of *source* (a module of no package), or why it cannot be read."""
        try:
            text = decode_source(source)
            lines = split_lines(text)
            with collector_paused():
                tree = ast.parse(text)
                index = build(tree, lines, "<file>", package=False, walrus=":=" in text)
                del tree
        except UnicodeDecodeError as error:
            raise UpstreamFileError(f"not valid {error.encoding} (byte {error.start})") from error
        except SyntaxError as error:
            raise UpstreamFileError(f"syntax error at line {error.lineno}: {error.msg}") from error
        except (RecursionError, MemoryError, ValueError) as error:
            raise UpstreamFileError(f"cannot be parsed ({type(error).__name__})") from error
        return index, lines


#: The one Python language object, in the registry (:mod:`source_anchors.reading.registry`).
PYTHON = PythonLanguage()
