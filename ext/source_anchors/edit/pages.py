r"""Rewrite anchor targets in a page's source, and nothing else (pure).

What ``source-anchors fix`` edits. A target is found where the extension reads one:

- the role, MyST ``{src}`label <target>``` (any number of backticks) and reStructuredText
  ``:src:`label <target>``` or ```label <target>`:src:``;
- the directive's argument, MyST ````` ```{source-anchor} target````` or ``:::{source-anchor}
  target`` and reStructuredText ``.. source-anchor:: target``.

Targets shown as code are not anchors and stay as they are: in MyST, fenced code blocks
other than the directive's own and inline code spans; in reStructuredText, inline literals
and literal blocks (``::`` and the code directives).

Only the target's own characters change: the label, the backticks, spacing and the text
around stay byte for byte. A target is rewritten only when it is written exactly as the
book wrote it (the text the outcome records); one holding escapes (``\<``) is left alone
and reported, since its raw form is not the text the role read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..markup.base import Markup, outside
from ..markup.labels import split_label


@dataclass
class Rewritten:
    """A page's new text, how many targets changed, and the ones found but left alone (with why)."""

    text: str
    changed: int = 0
    skipped: list[str] = field(default_factory=list)
    #: The old targets that were found and replaced at least once.
    applied: set[str] = field(default_factory=set)


def rewrite(text: str, replacements: Mapping[str, str], markup: Markup) -> Rewritten:
    """*text* with every anchor target written as a key of *replacements* replaced by its value.

    *markup* (:func:`~source_anchors.markup.registry.markup_for` the page) says where the page
    writes roles, directives and code.
    """
    out = Rewritten(text)
    if not replacements:
        return out
    pieces: list[str] = []
    at = 0
    for start, end, new in sorted(_edits(text, replacements, markup, out.skipped)):
        if start < at:
            continue  # overlapping finds cannot happen with these patterns; kept safe
        out.applied.add(text[start:end])
        pieces += [text[at:start], new]
        at = end
        out.changed += 1
    out.text = "".join([*pieces, text[at:]])
    return out


def _edits(
    text: str, replacements: Mapping[str, str], markup: Markup, skipped: list[str]
) -> list[tuple[int, int, str]]:
    """(start, end, new text) for each target span to replace, outside code."""
    code = markup.code(text)
    return [
        edit for edit in _all_edits(text, replacements, markup, skipped) if outside(code, edit[0])
    ]


def _all_edits(
    text: str, replacements: Mapping[str, str], markup: Markup, skipped: list[str]
) -> list[tuple[int, int, str]]:
    edits: list[tuple[int, int, str]] = []
    for _, (begin, end) in markup.roles(text):
        span = _role_target(text[begin:end], replacements, skipped)
        if span is not None:
            edits.append((begin + span[0], begin + span[1], replacements[span[2]]))
    for _, (begin, end) in markup.directives(text):
        argument = text[begin:end]
        if argument in replacements:
            edits.append((begin, end, replacements[argument]))
    return edits


def _role_target(
    content: str, replacements: Mapping[str, str], skipped: list[str]
) -> tuple[int, int, str] | None:
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
    """Where the target's ``<`` is, as :func:`~.labels.split_label` finds it, else None.

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
