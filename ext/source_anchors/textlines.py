"""Lines as Python, markdown-it and code hosts count them (pure)."""

from __future__ import annotations


def split_lines(text: str) -> list[str]:
    r"""Split *text* at ``\n``, ``\r\n`` and ``\r`` only.

    ``str.splitlines`` also splits at form feeds, vertical tabs and U+2028,
    which would shift every later line number against what readers see.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines
