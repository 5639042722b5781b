"""The files of one pinned tree as Python reads them: bytes, decoded text, lines, syntax trees (pure).

Each file is read (and, for a distribution, vouched for by the tree itself) and decoded
once; :attr:`SourceFiles.parsed` counts the files parsed by ``ast`` or griffe.
"""

from __future__ import annotations

import ast

from .config import RepoPin
from .errors import UpstreamFileError
from .sources import Tree
from .textlines import decode_source, split_lines

#: Whole-file syntax trees kept for the griffe path. Few on purpose: trees are large, and keeping
#: many makes the garbage collector traverse them again and again while later files are parsed.
_MAX_ASTS = 4


class SourceFiles:
    """Reads, decodes and parses the files of *tree*; maps dotted module names to files."""

    def __init__(self, tree: Tree, pin: RepoPin, *, max_file_bytes: int) -> None:
        self.tree = tree
        self.max_file_bytes = max_file_bytes
        self.packages = pin.package_dirs()
        #: Files parsed so far, by ``ast`` or by griffe.
        self.parsed: set[str] = set()
        #: Files read for the resolution in progress (reset by the resolver for each target).
        self.touched: set[str] = set()
        self._texts: dict[str, str] = {}
        self._lines: dict[str, list[str]] = {}
        self._asts: dict[str, ast.Module] = {}

    def text(self, path: str) -> str:
        """The decoded text of *path* (read once)."""
        if path not in self._texts:
            data = self.tree.read_bytes(path, max_bytes=self.max_file_bytes)
            try:
                self._texts[path] = decode_source(data)
            except UnicodeDecodeError as error:
                name = "UTF-8" if error.encoding.replace("_", "-").lower().startswith("utf-8") else error.encoding
                raise UpstreamFileError(f"{path}: not valid {name} (byte {error.start}); not parsed") from error
        return self._texts[path]

    def lines(self, path: str) -> list[str]:
        """The text lines of *path*, counted as Python and code hosts count them."""
        if path not in self._lines:
            self._lines[path] = split_lines(self.text(path))
        return self._lines[path]

    def parse(self, path: str) -> ast.Module:
        """The whole syntax tree of *path* (a few recent ones are kept)."""
        tree = self._asts.pop(path, None)
        if tree is None:
            tree = ast.parse(self.text(path))
            self.parsed.add(path)
        self._asts[path] = tree  # most recently used last
        while len(self._asts) > _MAX_ASTS:
            self._asts.pop(next(iter(self._asts)))
        return tree

    def region(self, path: str, start: int, end: int) -> ast.Module:
        """A syntax tree holding the statement at lines *start*..*end*, with the file's line numbers.

        Only those lines are parsed (a statement anchor needs the tree of its symbol, not of its
        module); blank lines keep the numbering and an ``if 1:`` line carries an indented statement.
        The whole file is parsed when the lines are the whole file or do not parse on their own.
        """
        lines = self.lines(path)
        if start <= 1 and end >= len(lines):
            return self.parse(path)
        first = lines[start - 1]
        body = "\n".join(lines[start - 1:end])
        if first[:1] in (" ", "\t") and start > 1:
            source = "\n" * (start - 2) + "if 1:\n" + body
        else:
            source = "\n" * (start - 1) + body
        try:
            return ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return self.parse(path)

    def module_file(self, dotted: str) -> str | None:
        """The file of module *dotted* (``pkg/__init__.py`` or ``pkg/mod.py``), if the tree has it."""
        parts = dotted.split(".")
        base = "/".join([self.packages[parts[0]], *parts[1:]])
        for candidate in (f"{base}/__init__.py", f"{base}.py"):
            if self.tree.has(candidate):
                return candidate
        return None

    def submodule_names(self, package_file: str) -> set[str]:
        """Names of the modules and subpackages beside *package_file* (a ``__init__.py``)."""
        if not package_file.endswith("/__init__.py"):
            return set()
        folder = package_file[: -len("__init__.py")]
        names = set()
        for path in self.tree.blobs:
            if path.startswith(folder):
                rest = path[len(folder):]
                if "/" not in rest and rest.endswith(".py") and rest != "__init__.py":
                    names.add(rest.removesuffix(".py"))
                elif rest.count("/") == 1 and rest.endswith("/__init__.py"):
                    names.add(rest.split("/", 1)[0])  # a subpackage; folders without __init__ are not modules
        return names
