"""The lock reader's quick check of a record against its explicit one (:func:`~source_anchors.lock.lockfile._problem`).

A lock holds thousands of records, so each is first checked at once (``_well_formed``); only a
record that fails is looked at field by field for the message. The oracle: over valid records and
records with one field broken in each way the explicit check names, the quick check passes exactly
those it finds no problem in.
"""

from __future__ import annotations

import random
import re
from typing import Any

from source_anchors.lock import lockfile, lockform
from source_anchors.model.records import LockRecord

_HEX = re.compile("[0-9a-f]*")


def _record(rng: random.Random) -> dict[str, Any]:
    def hexes(length: int) -> str:
        return "".join(rng.choice("0123456789abcdef") for _ in range(length))

    start = rng.randint(1, 50)
    raw: dict[str, Any] = {
        "commit": hexes(40),
        "path": "pkg/mod.py",
        "start": start,
        "end": start + rng.randint(0, 9),
        "sha256": hexes(64),
        "blob": hexes(40),
    }
    if rng.random() < 0.5:
        raw["uses"] = {f"pkg/m{n}.py": hexes(40) for n in range(rng.randint(0, 3))}
    return raw


_BAD_VALUES: tuple[Any, ...] = (
    None,
    1,
    True,
    1.5,
    "",
    "x",
    "A" * 40,
    "a" * 39,
    "a" * 41,
    "g" * 40,
    " " + "a" * 39,
    "a" * 38 + " a",
    "ａ" * 40,
    "0" * 64,
    [],
    {},
    0,
    -1,
)


def _broken(rng: random.Random, raw: dict[str, Any]) -> dict[str, Any]:
    broken = dict(raw)
    field = rng.choice(
        ["commit", "path", "start", "end", "sha256", "blob", "uses", "uses-value", "uses-key"]
    )
    if field == "uses-value":
        uses = dict(broken.get("uses") or {"pkg/a.py": "0" * 40})
        uses[next(iter(uses))] = rng.choice(_BAD_VALUES)
        broken["uses"] = uses
    elif field == "uses-key":
        broken["uses"] = {rng.choice([1, None, ("a",)]): "0" * 40}
    elif rng.random() < 0.1:
        broken.pop(field, None)
    else:
        broken[field] = rng.choice(_BAD_VALUES)
    return broken


def test_the_quick_check_passes_exactly_the_records_the_explicit_one_finds_no_problem_in() -> None:
    rng = random.Random(7)
    records = [_record(rng) for _ in range(3000)]
    raws: list[Any] = [*records, *(_broken(rng, raw) for raw in records for _ in range(3))]
    raws += [[], "record", None, 4]  # not objects
    disagree = [
        raw for raw in raws if lockform.well_formed(raw) != (lockfile._problem(raw) is None)
    ]
    assert not disagree[:3]
    assert sum(lockfile._problem(raw) is not None for raw in raws) > 5000
    # Uses of 39 and 41 digits make 80: each is counted.
    uneven = {**records[0], "uses": {"pkg/a.py": "a" * 39, "pkg/b.py": "b" * 41}}
    assert not lockform.well_formed(uneven) and lockfile._problem(uneven) is not None


def test_lower_hex_is_the_pattern_on_pairs() -> None:
    rng = random.Random(11)
    alphabet = "0123456789abcdefABCDEFgz \t\n\u0663é"
    texts = [
        "".join(rng.choice(alphabet) for _ in range(2 * rng.randint(0, 6))) for _ in range(20000)
    ]
    texts += [
        "".join(rng.choice("0123456789abcdef") for _ in range(2 * rng.randint(0, 80)))
        for _ in range(2000)
    ]
    assert [text for text in texts if lockform.lower_hex(text) != bool(_HEX.fullmatch(text))][
        :3
    ] == []
    assert sum(map(lockform.lower_hex, texts)) > 2000


def test_a_record_read_from_json_is_the_record_made_by_its_fields() -> None:
    rng = random.Random(3)
    for raw in (_record(rng) for _ in range(200)):
        made = LockRecord(
            raw["commit"],
            raw["path"],
            raw["start"],
            raw["end"],
            raw["sha256"],
            raw["blob"],
            tuple((raw.get("uses") or {}).items()),
        )
        read = LockRecord.from_json(raw)
        assert read == made and hash(read) == hash(made) and read.to_json() == made.to_json()
