"""C3 linearisation, as Python computes a class's ``__mro__`` from its bases (pure).

:func:`merge` takes the linearisations of the bases followed by the list of the bases
themselves and returns their merge, or raises :class:`InconsistentError` when no order
keeps every list's order (Python's "Cannot create a consistent method resolution order").
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

T = TypeVar("T")


class InconsistentError(ValueError):
    """The bases admit no consistent order; the message names the heads left."""


def merge(sequences: Sequence[Sequence[T]], *, key: Callable[[T], Hashable]) -> list[T]:
    """The C3 merge of *sequences*; entries are the same when their *key* is."""
    lists = [list(seq) for seq in sequences if seq]
    result: list[T] = []
    while lists:
        for candidate in (seq[0] for seq in lists):
            wanted = key(candidate)
            if not any(wanted in (key(x) for x in seq[1:]) for seq in lists):
                break
        else:
            heads = ", ".join(dict.fromkeys(str(_label(seq[0])) for seq in lists))
            raise InconsistentError(heads)
        result.append(candidate)
        lists = [
            rest for rest in (seq[1:] if key(seq[0]) == wanted else seq for seq in lists) if rest
        ]
    return result


def _label(entry: object) -> str:
    module, qual = getattr(entry, "module", None), getattr(entry, "qual", None)
    return f"{module}.{qual}" if module is not None and qual else str(entry)
