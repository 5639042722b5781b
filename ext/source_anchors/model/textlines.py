"""Lines as Python, markdown-it and code hosts count them (pure)."""

from __future__ import annotations

import codecs
import io
import tokenize


def split_lines(text: str) -> list[str]:
    r"""Split *text* at ``\n``, ``\r\n`` and ``\r`` only.

    ``str.splitlines`` also splits at form feeds, vertical tabs and U+2028,
    which would shift every later line number against what readers see.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def bytes_are_lines(data: bytes) -> bool:
    r"""Whether the lines of *data* (:func:`split_lines` of :func:`decode_source`) are its bytes split at ``\n``.

    So they are when the text is UTF-8 with neither a BOM nor a coding line (what
    :func:`decode_source` reads without ``tokenize``) and holds no ``\r``: lines *s* to *e* joined
    with ``\n`` and encoded are then the bytes from line *s*'s first byte to line *e*'s newline,
    and a hash of those bytes is the hash of those lines, without decoding or splitting the file.
    """
    if b"\r" in data or data.startswith(codecs.BOM_UTF8):
        return False
    second = data.find(b"\n", data.find(b"\n") + 1)
    if data.find(b"coding", 0, second if second >= 0 else len(data)) >= 0:
        return False
    if data.isascii():
        return True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def decode_source(data: bytes) -> str:
    """The text of a Python file as Python reads it: a BOM or a PEP 263 coding line, else UTF-8.

    Raises :class:`UnicodeDecodeError` when the bytes do not decode; its ``encoding``
    names the encoding that was tried.
    """
    # Without a BOM and without "coding" in its first two lines, a file is UTF-8 (the usual case,
    # and what detect_encoding would say, at a tenth of its cost).
    second = data.find(b"\n", data.find(b"\n") + 1)
    head = second if second >= 0 else len(data)
    if not data.startswith(codecs.BOM_UTF8) and data.find(b"coding", 0, head) < 0:
        return data.decode("utf-8")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    # an unknown coding, or first lines that are not UTF-8: tried as UTF-8 below
    except SyntaxError:
        encoding = "utf-8"
    return data.decode(encoding)
