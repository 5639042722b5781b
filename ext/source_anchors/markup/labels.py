r"""A role's text ``label <target>``: split as Sphinx's reference roles split it, escapes included (pure).

Both markups hand a role the same grammar, Sphinx's convention for reference roles: the label ends
at the first ``<`` not written as ``\<``, and the target runs to the final ``>``. They differ in how
the text arrives: reStructuredText (docutils) marks each escaped character with a NUL before it,
MyST hands over the backtick content as written, where ``\<`` is the one escape the role reads;
:func:`escape_markers` brings the second form to the first.
"""

from __future__ import annotations


def escape_markers(text: str) -> str:
    r"""Mark ``\<`` as escaped the way docutils does (NUL before the character).

    Text that carries docutils' marks is left alone: in it, every backslash follows a NUL.
    """
    if "\x00" in text or "\\" not in text:
        return text
    return text.replace("\\<", "\x00<")


def _unescape(text: str) -> str:
    """Drop docutils' escape marks (as ``docutils.utils.unescape`` does)."""
    if "\x00" not in text:
        return text
    for mark in ("\x00 ", "\x00\n", "\x00"):
        text = "".join(text.split(mark))
    return text


def split_label(text: str) -> tuple[str, str]:
    r"""Split role text ``label <target>`` into (label, target); a bare target is its own label.

    The label ends at the first ``<`` not written as ``\<``, and the target runs to the final ``>``,
    so a match text may hold ``<`` and ``>`` freely (``f <pkg.f::if a < b:>``). A bare target that
    holds ``<`` and ends in ``>`` must escape its first ``<`` (``pkg.f::?P\<name>``). An empty label
    (``<pkg.f>``) falls back to the target. *text* is docutils' escaped form or MyST's raw form (see
    :func:`escape_markers`).
    """
    marked = escape_markers(text.strip())
    if marked.endswith(">"):
        # What ``ReferenceRole.explicit_title_re`` matches, ``^(.+?)\s*(?<!\x00)<(.*?)>$``, found
        # without the regex's backtracking: the first '<' after the first character that no NUL
        # marks as escaped.
        index = marked.find("<", 1)
        while index > 0 and marked[index - 1] == "\x00":
            index = marked.find("<", index + 1)
        if index > 0:
            label, target = (
                _unescape(marked[:index]).strip(),
                _unescape(marked[index + 1 : -1]).strip(),
            )
            return (label or target, target)
    if marked.startswith("<") and marked.endswith(">"):
        target = _unescape(marked[1:-1]).strip()
        return target, target
    plain = _unescape(marked)
    return plain, plain


def label_looks_like_target(label: str, target: str) -> bool:
    """Whether an explicit *label* holds ``::``, as a target's match does: likely a ``<`` to escape."""
    return label != target and "::" in label
