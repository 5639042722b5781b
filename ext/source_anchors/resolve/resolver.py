"""Resolve a dotted path (and optional match text) to lines of a pinned tree (no Sphinx).

Each module is parsed once into a compact index (:mod:`source_anchors.reading.python.modindex`);
dotted paths are walked through those indexes (:mod:`.walk`): imports and star imports followed,
inherited members looked up in C3 order (:mod:`source_anchors.reading.python.mro`), and a name bound
more than once resolved to its definition by one rule per case
(:mod:`source_anchors.reading.python.rules`). A match text then narrows the span to one statement
(:mod:`source_anchors.reading.python.statements`); each further ``::`` level is looked up within the
statement the previous one gave. A file target (``/pyproject.toml``) names a file of the commit by
path (:mod:`.filetargets`). Files are read, vouched for and decoded by
:mod:`source_anchors.reading.python.files`. Nothing upstream is imported or executed.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from ..model.config import RepoPin
from ..model.errors import ResolveError, UpstreamFileError
from ..model.python import Python, running
from ..model.records import RESOLVER_VERSION, Location, line_range
from ..model.target import split_matches
from ..model.textlines import bytes_are_lines
from ..reading.language import Definition, Language
from ..reading.languages.parsed import Kept, LanguageFiles
from ..reading.python import (
    PYTHON,
    IndexStore,
    OutsideError,
    SourceFiles,
    Walker,
    is_namespace,
    module_name,
    statement_at,
)
from ..reading.registry import language_for, wired_language
from ..sources.trees import Tree
from . import definitions, filetargets

Span = tuple[int, int]
_SHA256 = hashlib.sha256

__all__ = ["RESOLVER_VERSION", "Location", "Resolver", "lines_hash"]


def lines_hash(lines: list[str], start: int, end: int) -> str:
    """sha256 of lines *start*..*end* joined with newlines, no trailing newline."""
    return hashlib.sha256("\n".join(lines[start - 1 : end]).encode("utf-8")).hexdigest()


def indexed_definitions(
    files: SourceFiles, language: Language, path: str
) -> list[Definition] | None:
    """The definitions of Python file *path* from its module index in *files*; None for another language.

    Only where the index's tests of the version are decided for the running Python, as
    :meth:`PythonLanguage.definitions <source_anchors.reading.python.PythonLanguage.definitions>`
    decides them; None too when the file cannot be indexed (the language then says why).
    """
    if language is not PYTHON or files.python not in (None, running()):
        return None
    try:
        return PYTHON.indexed(files.index(path, module_name(path, files.packages)))
    except (UpstreamFileError, ResolveError):
        return None


class Resolver:
    """Resolves targets in one pinned tree, parsing each needed module once."""

    def __init__(
        self,
        tree: Tree,
        pin: RepoPin,
        *,
        max_file_bytes: int,
        listing: Mapping[str, str] | None = None,
        fetch: Callable[[str], bytes] | None = None,
        python: Python | None = None,
        store: IndexStore | None = None,
        found: Callable[[str], bool] | None = None,
    ) -> None:
        # found, for API links only: whether a top-level module is found in the build's environment,
        # which then decides the import-availability branches (resolve/environment.py); None for
        # anchors.
        self.tree = tree
        self.pin = pin
        #: Every file of the commit with its blob id, as far as it is known (for file targets).
        self.listing = listing if listing is not None else (tree.listing or {})
        self.files = SourceFiles(
            tree, pin, max_file_bytes=max_file_bytes, fetch=fetch, python=python, store=store
        )
        self.walker = Walker(self.files, pin, found=found)
        #: The definitions of the files ``#`` targets name, each file read once
        #: (:mod:`.definitions`); a Python file's from its module index, the one parse it gets.
        self.languages = LanguageFiles(indexed=partial(indexed_definitions, self.files))
        #: Per file of a ``#`` target, once read and checked: its blob id, what :attr:`languages`
        #: keeps of it, whether its lines are its bytes split at newlines
        #: (:func:`~source_anchors.model.textlines.bytes_are_lines`), its language.
        self._read: dict[str, tuple[str, Kept, bool, Language]] = {}

    def definitions(self, path: str) -> list[Definition]:
        """Every definition of *path* in its language (none in a file of no language), read once.

        Raises :class:`ResolveError` (a file not in the tree, or that cannot be read) and
        :class:`~source_anchors.model.errors.MissingExtraError` (a language whose grammar is not
        installed).
        """
        language = language_for(path)
        if language is None:
            return []
        blob = self.tree.blobs.get(path, "")
        source = self.languages.source(path, blob)
        source = self.files.data(path) if source is None else source
        return self.languages.definitions(language, path, blob, source)

    def parses(self) -> Counter[str]:
        """The parses of each file so far, by path: the module indexes', a language's own."""
        return self.files.parses + self.languages.parses

    @property
    def files_read(self) -> int:
        """How many times a file's bytes were read so far."""
        return self.files.reads.total()

    def _within_packages(self, path: str) -> list[str]:
        """*path* under each pinned package where it resolves (``Client.send`` -> ``httpx.Client.send``)."""
        return [
            f"{package}.{path}"
            for package in sorted(self.files.packages)
            if self.walker.probe(f"{package}.{path}")
        ]

    def resolve(self, path: str, match: str | Sequence[str] | None = None) -> Location:
        """Resolve dotted *path* (or ``/file/path``, ``/file/path#Symbol.path``), narrowed by the match levels if given.

        *match* is the text after the first ``::`` (split into levels at each further ``::``) or
        the levels themselves.
        """
        matches = (
            tuple(split_matches(match) if isinstance(match, str) else match or ())
            if match is not None
            else ()
        )
        if path[:1] == "/":
            return self._resolve_file(path, matches)
        self.files.touched = set()
        try:
            ref = self.walker.object(path)
        except OutsideError as error:
            if path in self.listing or self.tree.has(path):  # ``LICENSE.txt`` meant as a file
                raise OutsideError(
                    f"{error}; for the file {path}, write '/{path}'",
                    target=error.target,
                    closest=error.closest,
                ) from None
            meant = self._within_packages(path)
            if meant:
                raise OutsideError(
                    f"{error}; did you mean {' or '.join(meant)}?",
                    target=error.target,
                    closest=tuple(meant),
                ) from None
            raise
        if is_namespace(ref.file):
            raise ResolveError(
                f"{path}: a namespace package (the folder {ref.file} has no __init__.py), with no "
                "source of its own: anchor one of its modules"
            )
        self.walker.index(ref)  # a module anchor, too, must be a module that parses
        file, lines = ref.file, self.files.lines(ref.file)
        rule, others, caveat = ref.rule, ref.others, ref.caveat
        if ref.bind is None:
            start, end, kind = 1, max(len(lines), 1), "module"
        else:
            start, end, kind = ref.bind.start, ref.bind.end, ref.bind.kind
        if matches:
            module = ref.module

            def statement(hit: int, column: int, match: str) -> Span | None:
                return statement_at(self.files, file, module, hit, column)

            start, end = _levels(self.files, file, (start, end), others, matches, path, statement)
            kind, rule, others = "statement", "", ()
        uses = tuple(sorted((used, self.tree.blobs[used]) for used in self.files.touched - {file}))
        return Location(
            path=file,
            start=start,
            end=end,
            kind=kind,
            sha256=lines_hash(lines, start, end),
            blob=self.tree.blobs[file],
            uses=uses,
            rule=rule,
            others=others,
            caveat=caveat,
        )

    @property
    def modules_parsed(self) -> int:
        """Upstream modules parsed so far (a measure for benchmarks)."""
        return len(self.files.parsed)

    @property
    def ast_parses(self) -> int:
        """``ast.parse`` calls so far, failed ones included (at most one per file)."""
        return self.files.ast_parses

    def file_lines(self, path: str) -> list[str]:
        """The text lines of an exported file (read and checked once; the bytes a ``#`` target read, if any)."""
        return self.files.lines(path, self.languages.source(path, self.tree.blobs.get(path, "")))

    def _resolve_file(self, path: str, matches: tuple[str, ...]) -> Location:
        """A file target: the whole file, or the line (the statement, in a language's file) the levels narrow to.

        The file's language is the registry's
        (:func:`~source_anchors.reading.registry.wired_language`); a file no language wired into
        anchors reads is text, where a match names its line. After ``#``, a definition of the file
        (:meth:`_resolve_definition`).
        """
        # split_symbol(path), inline: a '#' in the last part of the path starts the symbol.
        hash_ = path.find("#", path.rfind("/") + 1)
        if hash_ >= 0:  # the file: the path before that '#', without its leading '/'
            return self._resolve_definition(path, path[1:hash_], path[hash_ + 1 :], matches)
        file = path[1:]
        blob = self.tree.blobs.get(file)  # blob_of's usual case: an exported file
        if blob is None:
            blob = filetargets.blob_of(self.tree, self.pin, self.listing, file)
        if not matches:
            return filetargets.whole(self.files, file, blob)
        lines = filetargets.text_lines(self.files, file)
        language = wired_language(file)
        # A partial, not a closure: a closure's cells would cost every call, '#' targets' too.
        statement = (
            partial(language.statement_in, self.files, file) if language is not None else None
        )
        start, end = _levels(
            self.files, file, (1, max(len(lines), 1)), (), matches, path, statement
        )
        kind = "line" if language is None else "statement"
        return Location(
            path=file,
            start=start,
            end=end,
            kind=kind,
            sha256=lines_hash(lines, start, end),
            blob=blob,
        )

    def _resolve_definition(
        self, path: str, file: str, symbol: str, matches: tuple[str, ...]
    ) -> Location:
        """The definition *symbol* of *file* (:mod:`.definitions`), narrowed by the levels by its statement rule."""
        blob = self.tree.blobs.get(file)  # blob_of's usual case: an exported file
        if blob is None:
            blob = filetargets.blob_of(self.tree, self.pin, self.listing, file)
        read = self._read.get(file)
        if read is None or read[0] != blob:
            read = self._reading(file, blob, symbol)
        _, kept, same, language = read
        named = kept.named.get(symbol)  # LanguageFiles.candidates, inline
        candidates = (
            named[1]
            if named is not None and named[0] is language
            else self.languages.named(kept, language, file, blob, kept.source, symbol)
        )
        others: tuple[Span, ...] = ()
        if len(candidates) == 1:  # what every language's pick gives of one: the usual case
            found = candidates[0]
        else:
            found, others = definitions.chosen(
                self.languages, language, file, blob, kept.source, symbol, candidates
            )
        # The record's fields by position, in one step (path, kind, start, end, name_line,
        # qualified, body, conditional, rule, span).
        _, kind, start, end, _, _, _, _, rule, span = found
        if matches:
            source = kept.source
            lines = self.files.lines(file, source)
            statement = partial(language.statement_in, self.files, file)
            start, end = _levels(self.files, file, (start, end), others, matches, path, statement)
            kind, rule, others = "statement", "", ()
            digest = lines_hash(lines, start, end)
        elif same and span:  # the lines' hash from their bytes (bytes_are_lines)
            digest = _SHA256(kept.source[span[0] : span[1]]).hexdigest()
        else:
            digest = lines_hash(self.files.lines(file, kept.source), start, end)
        return Location.made(file, start, end, kind, digest, blob, (), rule, others)

    def _reading(self, file: str, blob: str, symbol: str) -> tuple[str, Kept, bool, Language]:
        """*file* at blob *blob* read for ``#`` targets, checked and kept, with its language.

        A file that does not decode is refused before its language is asked for (whose error
        names *symbol*).
        """
        source = self.languages.source(file, blob)
        source = self.files.data(file) if source is None else source
        same = bytes_are_lines(source)
        if not same:
            self.files.lines(file, source)  # decoded first: a file that does not decode is refused
        language = definitions.language_in(self.languages, file, symbol)
        read = self._read[file] = (blob, self.languages.kept(file, blob, source), same, language)
        return read


def _levels(
    files: SourceFiles,
    file: str,
    span: Span,
    others: tuple[Span, ...],
    matches: tuple[str, ...],
    path: str,
    statement: Callable[[int, int, str], Span | None] | None,
) -> Span:
    """Narrow *span* of *file* (its lines in *files*) by each match level in turn, each within the last.

    A level must occur on exactly one line of its range (the first, failing that, on one line of
    the *others*, a name's other bindings); with the language's *statement* rule (the statement
    holding a line, where the match starts at a column) it gives that statement, in a text file
    (*statement* None) the line itself.
    """
    lines = files.lines(file)
    count = len(matches)
    for number, match in enumerate(matches, 1):
        level = (number, count)
        where = f"{file}:{line_range(*span)}"
        if number > 1:
            where += f" (the range {matches[number - 2]!r} gave)"
        hit = filetargets.one_line(lines, (span,), match, path, where, level)
        if hit is None and others and number == 1:
            where += " or of the other bindings (" + ", ".join(line_range(*o) for o in others) + ")"
            hit = filetargets.one_line(lines, others, match, path, where, level)
        if hit is None:
            raise filetargets.not_found(match, path, where, level)
        found: Span | None = None
        if statement is not None:
            found = statement(hit, lines[hit - 1].find(match), match)
        found = found if found is not None else (hit, hit)
        if number > 1:  # never wider than the range it was looked up in
            found = (max(found[0], span[0]), min(found[1], span[1]))
        span = found
    return span
