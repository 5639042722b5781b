""":func:`textwrap.dedent`'s result without its regular expressions (pure; changed excerpts only)."""

from __future__ import annotations


def dedent(text: str) -> str:
    """:func:`textwrap.dedent`'s result, found with the text's own methods rather than its regular expressions.

    Lines of spaces and tabs alone become empty; the longest run of spaces and tabs that begins
    every other line is removed from each. ``textwrap.dedent`` finds both with multi-line patterns
    that try a match at each character: on the excerpts of a bump's changed classes (over a hundred
    thousand lines on django) that was a tenth of a ``check --pin``'s instructions.

    Most excerpts are a statement whose first line is the least indented and has no line of blanks:
    that line's indent is then the margin, which every other line has or is empty, and it is removed
    from the whole text at once. Any other text is read line by line.
    """
    # no line of blanks but empty ones
    if not (" \n" in text or "\t\n" in text or text.endswith((" ", "\t"))):
        body = text.lstrip("\n")
        margin = body[: len(body) - len(body.lstrip(" \t"))]  # the first line's that is not empty
        if not margin:
            return text
        lines = text.split("\n")
        starts = text.startswith(margin)
        # each has it, or is empty
        if text.count("\n" + margin) + starts + lines.count("") == len(lines):
            found = text.replace("\n" + margin, "\n")
            return found[len(margin) :] if starts else found
    return _dedent_lines(text)


def _dedent_lines(text: str) -> str:
    """:func:`dedent` of any text, line by line."""
    lines = text.split("\n")
    margin: str | None = None
    for number, line in enumerate(lines):
        content = line.lstrip(" \t")
        if not content:
            lines[number] = ""
            continue
        indent = line[: len(line) - len(content)]
        if margin is None or margin.startswith(indent):
            margin = indent
        elif not indent.startswith(margin):
            same = 0
            # neither begins the other: they differ before either ends
            while margin[same] == indent[same]:
                same += 1
            margin = margin[:same]
    cut = len(margin or "")
    return "\n".join(line[cut:] for line in lines) if cut else "\n".join(lines)
