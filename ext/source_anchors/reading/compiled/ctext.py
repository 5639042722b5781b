"""Text of C, C++ and Rust as binding readers need it: comments blanked, brackets matched, arguments split (pure).

Every function keeps offsets: a blanked text has the same length and the same lines as the file, so
an offset found in it is a line of the file.
"""

from __future__ import annotations

import bisect
import re

_OPEN = {"(": ")", "[": "]", "{": "}"}
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_CHAR = re.compile(r"'(?:[^'\\\n]|\\.{1,8})'")


#: A string or char literal, or a comment: what :func:`blanked` scans for. The string and the
#: closed ``/* */`` comment are written as runs of what cannot end them (Friedl's "unrolled loop"):
#: the same matches as ``"(?:[^"\\\n]|\\.)*"`` and ``/\*.*?\*/``, a run per step instead of a
#: character (a third fewer instructions over contourpy's C++).
_LITERAL_OR_COMMENT = re.compile(
    r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"'
    r"|'(?:[^'\\\n]|\\.{1,8})'"
    r"|//[^\n]*"
    r"|/\*[^*]*\*+(?:[^/*][^*]*\*+)*/"
    r"|/\*(?s:.*)"  # a comment never closed runs to the end
)


def blanked(text: str) -> tuple[str, str]:
    """*text* with its comments blanked (strings untouched), and its code alone (literals blanked too).

    Each comment, string or char literal is replaced by spaces, its line breaks kept, so that an
    offset in either text is the same line of the file. One scan by the regular expression engine
    gives both: a literal is matched to be stepped over whole (or blanked, in the code), the text
    between is copied in slices. What follows a name is read in the code: a binding's ``"name"``
    and a docstring's words are not code.
    """
    comments: list[str] = []
    code: list[str] = []
    last = last_code = 0
    for match in _LITERAL_OR_COMMENT.finditer(text):
        start, stop = match.span()
        piece = text[start:stop]
        spaces = (
            " " * len(piece)  # one line
            if "\n" not in piece
            else "\n".join(" " * len(line) for line in piece.split("\n"))
        )
        code.append(text[last_code:start])
        code.append(spaces)
        last_code = stop
        if text[start] == "/":  # a comment (a Rust lifetime's ' matches none: one character on)
            comments.append(text[last:start])
            comments.append(spaces)
            last = stop
    comments.append(text[last:])
    code.append(text[last_code:])
    return "".join(comments), "".join(code)


class Lines:
    """Offsets of a text to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        """The line holding *offset* (the first line for an offset before the text)."""
        return max(1, bisect.bisect_right(self.starts, offset))


#: A string or char literal whole, or one character :func:`closing` stops at: a bracket, or a
#: quote that opens no literal (stepped over alone). One scan steps over a literal at once.
_STEP = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"' r"|'(?:[^'\\\n]|\\.{1,8})'" r"|[\"'()\[\]{}]")


def closing(text: str, at: int) -> int:
    """The offset of the bracket that closes the one at *at*, or -1 (strings and char literals skipped)."""
    stack = [_OPEN[text[at]]]
    for found in _STEP.finditer(text, at + 1):  # the characters between cannot matter
        pos = found.start()
        char = text[pos]
        if char == '"' or char == "'":
            continue  # a literal, or a lone quote
        if char in _OPEN:
            stack.append(_OPEN[char])
        else:
            if char != stack[-1]:
                return -1
            stack.pop()
            if not stack:
                return pos
    return -1


#: What :func:`split_top` steps by, by separator: a string literal whole, a bracket, a lone
#: quote, the separator.
_SPLIT_STEPS: dict[str, re.Pattern[str]] = {}


def split_top(text: str, base: int = 0, sep: str = ",") -> list[tuple[str, int]]:
    """*text* split at the *sep* characters outside brackets and strings: (part, offset of the part + *base*)."""
    steps = _SPLIT_STEPS.get(sep)
    if steps is None:
        steps = _SPLIT_STEPS[sep] = re.compile(
            r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|[\"()\[\]{}]|' + re.escape(sep)
        )
    parts: list[tuple[str, int]] = []
    depth, start = 0, 0
    for found in steps.finditer(text):  # the characters between cannot matter
        pos = found.start()
        char = text[pos]
        if char == '"':
            continue  # a string, or a lone quote
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif depth == 0:  # the separator
            parts.append((text[start:pos], base + start))
            start = pos + 1
    if text[start:].strip():
        parts.append((text[start:], base + start))
    return parts


def string_of(text: str) -> str | None:
    """The value of *text* when it is one string literal, or adjacent ones (``"a" "b"``); else None."""
    text = text.strip()
    pieces = _STRING.findall(text)
    if not pieces or _STRING.sub("", text).strip():
        return None
    return "".join(piece[1:-1] for piece in pieces)


def ident_of(text: str) -> str | None:
    """The identifier *text* names through casts and ``&`` (``(PyCFunction)(void(*)(void))func`` -> ``func``)."""
    text = re.sub(r"^\s*_?PyCFunction_CAST\s*\(", "", text.strip())
    text = text.rstrip(") ")
    match = re.search(r"&?\s*([A-Za-z_]\w*)\s*$", text)
    return match.group(1) if match else None
