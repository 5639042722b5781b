r"""Rewrite anchor targets in a page's source, and nothing else (pure).

What ``source-anchors fix`` edits. A target is found where the extension reads one:

- the role, MyST ``{src}`label <target>``` (any number of backticks) and reStructuredText
  ``:src:`label <target>``` or ```label <target>`:src:``;
- the directive's argument, MyST ````` ```{source-anchor} target````` or ``:::{source-anchor} target``
  and reStructuredText ``.. source-anchor:: target``.

Targets shown as code are not anchors and stay as they are: in MyST, fenced code blocks
other than the directive's own and inline code spans; in reStructuredText, inline literals
and literal blocks (``::`` and the code directives).

Only the target's own characters change: the label, the backticks, spacing and the text
around stay byte for byte. A target is rewritten only when it is written exactly as the
book wrote it (the text the outcome records); one holding escapes (``\<``) is left alone
and reported, since its raw form is not the text the role read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..model.target import split_label

_MYST_ROLE = re.compile(r"\{src\}(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)
_RST_ROLE = re.compile(r":src:(`)((?:[^`\\]|\\.)+?)`(?!`)|(?<![`:])(`)((?:[^`\\]|\\.)+?)`:src:", re.DOTALL)
_MYST_DIRECTIVE = re.compile(r"^([ \t]*(?:`{3,}|~{3,}|:{3,})\{source-anchor\}[ \t]+)(\S(?:.*\S)?)[ \t]*$", re.M)
_RST_DIRECTIVE = re.compile(r"^([ \t]*\.\.[ \t]+source-anchor::[ \t]+)(\S(?:.*\S)?)[ \t]*$", re.M)


@dataclass
class Rewritten:
    """A page's new text, how many targets changed, and the ones found but left alone (with why)."""

    text: str
    changed: int = 0
    skipped: list[str] = field(default_factory=list)
    #: The old targets that were found and replaced at least once.
    applied: set[str] = field(default_factory=set)


def rewrite(text: str, replacements: Mapping[str, str], *, rst: bool) -> Rewritten:
    """*text* with every anchor target written as a key of *replacements* replaced by its value."""
    out = Rewritten(text)
    if not replacements:
        return out
    pieces: list[str] = []
    at = 0
    for start, end, new in sorted(_edits(text, replacements, rst=rst, skipped=out.skipped)):
        if start < at:
            continue  # overlapping finds cannot happen with these patterns; kept safe
        out.applied.add(text[start:end])
        pieces += [text[at:start], new]
        at = end
        out.changed += 1
    out.text = "".join([*pieces, text[at:]])
    return out


def _edits(text: str, replacements: Mapping[str, str], *, rst: bool,
           skipped: list[str]) -> list[tuple[int, int, str]]:
    """(start, end, new text) for each target span to replace, outside code."""
    code = _rst_code(text) if rst else _myst_code(text)
    return [edit for edit in _all_edits(text, replacements, rst=rst, skipped=skipped)
            if not any(start <= edit[0] < end for start, end in code)]


_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$", re.M)
_TICKS = re.compile(r"`+")


def _myst_code(text: str) -> list[tuple[int, int]]:
    """Spans of MyST code: fenced blocks (not a directive's) and inline code spans (not a role's)."""
    spans: list[tuple[int, int]] = []
    lines = text.splitlines(keepends=True)
    offset, fence, fence_start, directive = 0, "", 0, False
    for line in lines:
        found = _FENCE.match(line)
        if fence:
            if found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence) \
                    and not found.group(2).strip():
                if not directive:
                    spans.append((fence_start, offset + len(line)))
                fence = ""
        elif found:
            fence, fence_start = found.group(1), offset
            directive = found.group(2).lstrip().startswith("{")
        offset += len(line)
    if fence and not directive:
        spans.append((fence_start, len(text)))
    fences = [(m.start(), m.end()) for m in _FENCE.finditer(text)]
    at = 0
    while (run := _TICKS.search(text, at)) is not None:
        if any(start <= run.start() < end for start, end in [*spans, *fences]):
            at = run.end()
            continue
        closing = re.compile(rf"(?<!`){run.group()}(?!`)").search(text, run.end())
        if closing is None:
            break
        if not text[:run.start()].endswith("}"):  # a role's backticks are not a code span
            spans.append((run.start(), closing.end()))
        at = closing.end()
    return spans


_LITERAL = re.compile(r"``.+?``", re.DOTALL)
_CODE_DIRECTIVE = re.compile(r"^([ \t]*)\.\.[ \t]+(?:code-block|code|sourcecode|literalinclude)::.*$", re.M)


def _rst_code(text: str) -> list[tuple[int, int]]:
    """Spans of reStructuredText code: inline literals, and blocks after ``::`` or a code directive."""
    spans = [(m.start(), m.end()) for m in _LITERAL.finditer(text)]
    lines = text.splitlines(keepends=True)
    offset, block_indent, block_start = 0, None, 0
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if block_indent is not None and line.strip() and indent <= block_indent:
            spans.append((block_start, offset))
            block_indent = None
        literal = line.rstrip().endswith("::") and not line.lstrip().startswith(".. ")
        if block_indent is None and (literal or _CODE_DIRECTIVE.match(line)):
            block_indent, block_start = indent, offset + len(line)
        offset += len(line)
    if block_indent is not None:
        spans.append((block_start, len(text)))
    return spans


def _all_edits(text: str, replacements: Mapping[str, str], *, rst: bool,
               skipped: list[str]) -> list[tuple[int, int, str]]:
    edits: list[tuple[int, int, str]] = []
    roles = _RST_ROLE if rst else _MYST_ROLE
    for found in roles.finditer(text):
        group = 2 if found.group(2) is not None else 4
        span = _role_target(found.group(group), replacements, skipped)
        if span is not None:
            begin = found.start(group)
            edits.append((begin + span[0], begin + span[1], replacements[span[2]]))
    for found in (_RST_DIRECTIVE if rst else _MYST_DIRECTIVE).finditer(text):
        argument = found.group(2)
        if argument in replacements:
            edits.append((found.start(2), found.end(2), replacements[argument]))
    return edits


def _role_target(content: str, replacements: Mapping[str, str],
                 skipped: list[str]) -> tuple[int, int, str] | None:
    """Where in a role's *content* its target is written, when it is one to replace: (start, end, old)."""
    label, target = split_label(content)
    if target not in replacements:
        return None
    del label
    stripped = content.rstrip()
    opening = _first_open(stripped) if stripped.endswith(">") else None
    if opening is not None:
        # ``label <target>``: the target runs from the first unescaped '<' to the final '>'.
        start, end = opening + 1, len(stripped) - 1
    else:
        start = len(content) - len(content.lstrip())
        end = len(stripped)
    raw = content[start:end]
    begin = start + len(raw) - len(raw.lstrip())
    finish = start + len(raw.rstrip())
    if content[begin:finish] != target:
        skipped.append(target)  # written with escapes: not the text the role read
        return None
    return begin, finish, target


def _first_open(text: str) -> int | None:
    """Where the target's ``<`` is, as :func:`~source_anchors.model.target.split_label` finds it, else None.

    The first ``<`` after the first character not escaped with a backslash (Sphinx's rule);
    failing that, a leading ``<`` (an empty label).
    """
    start = len(text) - len(text.lstrip())
    index = text.find("<", start + 1)
    while index > 0 and text[index - 1] == "\\":
        index = text.find("<", index + 1)
    if index > 0:
        return index
    return start if text[start:].startswith("<") else None
