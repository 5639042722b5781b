"""A definition's hash is the hash of its lines, whether taken from the file's bytes or its decoded lines.

A resolver hashes a ``#`` target's range from the bytes of the file where those bytes are its lines
joined (:func:`~source_anchors.model.textlines.bytes_are_lines`: UTF-8, no BOM, no coding line, no
``\\r``), else from the decoded lines. The oracle is written here: the text decoded as Python
decodes a file, split at ``\\r\\n``, ``\\r`` and ``\\n`` by a regular expression, the range's lines
joined with ``\\n``, encoded, hashed. Every form of one file (LF, CRLF, a BOM, non-ASCII text, no
final newline, "coding" in its first lines) is resolved through a real resolver over a git repository.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from helpers import Upstream
from source_anchors.engine.engine import Engine
from source_anchors.model.config import settings_from
from source_anchors.model.errors import UpstreamFileError
from source_anchors.model.textlines import bytes_are_lines
from source_anchors.reading.languages.grammar import TreeSitterLanguage
from source_anchors.reading.registry import language_for
from source_anchors.resolve.resolver import Resolver
from test_languages_lookup import WRITTEN

GO = (
    "package gen\n\n"
    "// Sum adds — with a note in UTF-8: café.\n"
    "func Sum(items []int) int {\n\ttotal := 0\n\tfor _, item := range items {\n"
    "\t\ttotal += item\n\t}\n\treturn total\n}\n\n"
    "type Point struct {\n\tX int\n}\n\n"
    "func (p *Point) Norm() int {\n\treturn p.X * p.X\n}\n"
)
NAMES = ("Sum", "Point", "Point.Norm")
#: The forms of one file: its bytes, and the encoding Python reads it with.
FORMS = {
    "lf.go": (GO.encode(), "utf-8"),
    "crlf.go": (GO.replace("\n", "\r\n").encode(), "utf-8"),
    "cr-in-a-comment.go": (GO.replace("café", "caf\ré").encode(), "utf-8"),
    "bom.go": (b"\xef\xbb\xbf" + GO.encode(), "utf-8-sig"),
    "no-final-newline.go": (GO.rstrip("\n").encode(), "utf-8"),
    "ascii.go": (GO.replace("— ", "").replace("é", "e").encode(), "utf-8"),
    # "coding" in its first two lines: decoded as Python decodes a file (a ``#`` coding comment
    # would name its encoding; this one is not such a comment, so the file is UTF-8).
    "coding.go": (("// coding: utf-8\n" + GO).encode(), "utf-8"),
}


def oracle(data: bytes, encoding: str, start: int, end: int) -> str:
    """sha256 of lines *start*..*end* of *data* joined with newlines, computed here."""
    lines = re.split(r"\r\n|\r|\n", data.decode(encoding))
    if lines[-1] == "":
        lines.pop()
    return hashlib.sha256("\n".join(lines[start - 1 : end]).encode("utf-8")).hexdigest()


def resolver(tmp_path: Path, files: dict[str, bytes]) -> Resolver:
    upstream = Upstream(tmp_path / "up")
    upstream.write_files(files)
    commit = upstream.commit()
    settings = settings_from(
        {
            "repos": {"up": {"url": upstream.url, "commit": commit}},
            "cache_dir": str(tmp_path / "cache"),
        },
        confdir=tmp_path,
        environ={},
    )
    return Engine(settings).resolver("up")


def test_a_definition_hash_is_its_lines_hash_in_every_form_of_a_file(tmp_path: Path) -> None:
    resolve = resolver(tmp_path, {name: data for name, (data, _) in FORMS.items()})
    plain = {name for name, (data, _) in FORMS.items() if bytes_are_lines(data)}
    assert plain == {"lf.go", "no-final-newline.go", "ascii.go"}
    for name, (data, encoding) in FORMS.items():
        for symbol in NAMES:
            location = resolve.resolve(f"/{name}#{symbol}")
            assert location.sha256 == oracle(data, encoding, location.start, location.end), (
                f"{name}#{symbol}"
            )
    # The same definition in every form, the same lines' hash; and its lines are the lines as they
    # are split (a lone \r breaks a line there, as it does for Python's universal newlines).
    digests = {resolve.resolve(f"/{name}#Point.Norm").sha256 for name in FORMS}
    assert len(digests) == 1
    for name, (data, encoding) in FORMS.items():
        lines = re.split(r"\r\n|\r|\n", data.decode(encoding))
        for symbol, head in (("Sum", "func Sum("), ("Point.Norm", "func (p *Point) Norm(")):
            start = next(i for i, line in enumerate(lines, 1) if line.startswith(head))
            assert resolve.resolve(f"/{name}#{symbol}").start == start, (name, symbol)


def test_a_file_that_does_not_decode_is_refused_before_its_definitions(tmp_path: Path) -> None:
    resolve = resolver(tmp_path, {"bad.go": GO.encode().replace("café".encode(), b"caf\xe9")})
    with pytest.raises(UpstreamFileError, match="not valid UTF-8"):
        resolve.resolve("/bad.go#Sum")
    with pytest.raises(UpstreamFileError, match="not valid UTF-8"):
        resolve.resolve("/bad.go#Missing")


#: C whose ranges do not start and end at a node: specifier macros the grammar reads as a
#: declaration of their own above a function, and a ``#define`` continued past a comment.
C_APART = (
    "#include <stddef.h>\n\n"
    "MEM_STATIC\nFORCE_INLINE_ATTR\nsize_t count(const char *s)\n{\n    return s ? 1 : 0;\n}\n\n"
    "#define TWICE(x) \\\n    ((x) /* doubled */ \\\n     * 2)\n\n"
    "int after(void) { return TWICE(1); }\n"
)
SPANNED = {**WRITTEN, "/apart.c": C_APART}


def test_c_ranges_apart_from_their_nodes_are_what_the_spans_cover() -> None:
    language = language_for("/apart.c")
    assert isinstance(language, TreeSitterLanguage)
    found = {d.dotted: (d.start, d.end) for d in language.definitions(C_APART.encode())}
    lines = C_APART.split("\n")
    assert found["count"] == (lines.index("MEM_STATIC") + 1, lines.index("}") + 1)
    assert found["TWICE"] == (lines.index("#define TWICE(x) \\") + 1, lines.index("     * 2)") + 1)


@pytest.mark.parametrize("path", sorted(SPANNED))
def test_every_definition_span_is_the_bytes_of_its_lines(path: str) -> None:
    language = language_for(path)
    assert isinstance(language, TreeSitterLanguage)
    source = SPANNED[path].encode()
    assert bytes_are_lines(source)
    lines = source.decode().split("\n")
    definitions = language.definitions(source)
    assert definitions
    for definition in definitions:
        span = definition.span
        assert len(span) == 2, definition.describe()
        first, last = span
        expected = "\n".join(lines[definition.start - 1 : definition.end]).encode()
        assert source[first:last] == expected, definition.describe()


def test_bytes_are_lines_only_where_the_decoded_lines_are_the_bytes() -> None:
    assert bytes_are_lines(b"")
    assert bytes_are_lines("a\nb = 'é'\n".encode())
    assert not bytes_are_lines(b"a\r\nb\n")
    assert not bytes_are_lines(b"a\rb\n")
    assert not bytes_are_lines(b"\xef\xbb\xbfa\n")
    assert not bytes_are_lines(b"a\n# -*- coding: utf-8 -*-\n")
    assert bytes_are_lines(b"a\nb\n# coding: latin-1 on the third line is not a coding line\n")
    assert not bytes_are_lines(b"caf\xe9\n")
