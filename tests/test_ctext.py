"""Comments blanked in C, C++ and Rust text (:func:`~source_anchors.reading.compiled.ctext.blanked`).

The oracle is a scanner written character by character from the rules (a string ends at its
unescaped quote on its line, a char literal holds one character or an escape of up to eight, ``//``
runs to the line's end, ``/*`` to the first ``*/`` or the end), compared on hand-made cases and on
the C headers of this machine.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from source_anchors.reading.compiled.ctext import (
    Lines,
    blanked,
    closing,
    split_top,
)


def _oracle(text: str, *, literals: bool = False) -> str:
    out = list(text)
    n, i = len(text), 0

    def blank(start: int, stop: int) -> None:
        for at in range(start, stop):
            if out[at] != "\n":
                out[at] = " "

    while i < n:
        char = text[i]
        if char in "\"'":
            end = _literal_end(text, i)
            if end and literals:
                blank(i, end)
            i = end if end else i + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            blank(i, end)
            i = end
        else:
            i += 1
    return "".join(out)


CASES = [
    'int a; // x "y"\nint b;',
    'char *s = "// not a comment /* nor this */";',
    'char *s = "escaped \\" quote // still string"; // comment',
    "char c = '\"'; /* a \" b */ int d;",
    "char c = '\\''; char e = '\\x41'; char f = '\\u00e9'; // tail",
    "/***/ int x; /* ** */ int y; /*/ still */ int z;",
    "/* multi\n   line * with / and ** stars\n*/ done",
    "/* never closed\n int x;",
    'char *s = "never closed\n // a comment after all',
    "fn f<'a>(x: &'a str) -> &'a str { x } // lifetimes",
    "a = b / c; d = e /c; /**/",
    'x = "a\\\nb"; // a spliced string is no string',
    "",
    "/",
    "'",
]


@pytest.mark.parametrize("text", CASES)
def test_comments_blanked_as_the_rules_say(text: str) -> None:
    comments, code = blanked(text)
    assert comments == _oracle(text)
    assert code == _oracle(text, literals=True)
    assert len(comments) == len(code) == len(text)
    assert comments.count("\n") == code.count("\n") == text.count("\n")


def test_real_headers_blanked_as_the_oracle_blanks_them() -> None:
    headers = sorted(Path("/usr/include").rglob("*.h"))[:600]
    if len(headers) < 50:
        pytest.skip("no C headers on this machine")
    compared = 0
    for header in headers:
        text = header.read_bytes().decode("utf-8", "replace")
        assert blanked(text) == (_oracle(text), _oracle(text, literals=True)), header
        compared += 1
    assert compared == len(headers)


@pytest.mark.parametrize("text", ["", "a", "a\n", "a\nb", "\n\n", "x\ny\n\nz"])
def test_lines_start_where_the_text_says(text: str) -> None:
    starts = Lines(text).starts
    assert starts == [0] + [at + 1 for at, char in enumerate(text) if char == "\n"]


def _closing_oracle(text: str, at: int) -> int:
    """The bracket closing the one at *at*, by a character scan that steps over literals as the rules say."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[text[at]]]
    i, n = at + 1, len(text)
    while i < n:
        char = text[i]
        if char in "\"'":
            end = _literal_end(text, i)
            i = end if end else i + 1
            continue
        if char in pairs:
            stack.append(pairs[char])
        elif char in ")]}":
            if char != stack[-1]:
                return -1
            stack.pop()
            if not stack:
                return i
        i += 1
    return -1


def _literal_end(text: str, i: int) -> int:
    """The offset after the string or char literal opening at *i*, or 0 when none opens there."""
    n = len(text)
    if text[i] == '"':
        j = i + 1
        while j < n and text[j] not in '"\n':
            if text[j] == "\\":
                if j + 1 < n and text[j + 1] != "\n":
                    j += 2
                    continue
                return 0
            j += 1
        return j + 1 if j < n and text[j] == '"' else 0
    if i + 2 < n and text[i + 1] not in "'\\\n" and text[i + 2] == "'":
        return i + 3
    if i + 1 < n and text[i + 1] == "\\":
        for size in range(8, 0, -1):
            body = text[i + 2 : i + 2 + size]
            if len(body) == size and "\n" not in body and text[i + 2 + size : i + 3 + size] == "'":
                return i + 3 + size
    return 0


def test_brackets_closed_as_a_character_scan_closes_them() -> None:
    texts = [
        "f(a, \")\", ')', g[1], {2})",
        'f(a, \'\\x29\', "\\")")',
        "f(unclosed",
        "f(]",
        'f("never closed) more)',
    ]
    texts += [
        p.read_bytes().decode("utf-8", "replace")
        for p in sorted(Path("/usr/include").rglob("*.h"))[:80]
    ]
    checked = 0
    for text in texts:
        for at, char in enumerate(text):
            if char in "([{":
                assert closing(text, at) == _closing_oracle(text, at), (text[at : at + 60], at)
                checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    ("text", "sep", "parts"),
    [
        ('a, "b, c", f(d, e), [g, h]', ",", ["a", ' "b, c"', " f(d, e)", " [g, h]"]),
        ("x; y {z; w}; ", ";", ["x", " y {z; w}"]),
        ('"unclosed, a', ",", ['"unclosed', " a"]),
        ("", ",", []),
    ],
)
def test_split_top_splits_outside_brackets_and_strings(
    text: str, sep: str, parts: list[str]
) -> None:
    found = split_top(text, 10, sep)
    assert [part for part, _ in found] == parts
    assert all(text[offset - 10 :].startswith(part) for part, offset in found)
