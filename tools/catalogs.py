"""Compile the extension's message catalogs: ``python tools/catalogs.py [--check]``.

Each ``ext/source_anchors/locale/<lang>/LC_MESSAGES/source_anchors.po`` becomes the ``.mo``
beside it (with Babel, which Sphinx installs). ``--check`` compiles in memory and exits 1 when a
committed ``.mo`` is not its ``.po`` compiled.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent.parent / "ext" / "source_anchors" / "locale"


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes of *po*."""
    with po.open("rb") as handle:
        catalog = read_po(handle)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def main(argv: list[str]) -> int:
    """Write (or with ``--check``, compare) every catalog's ``.mo``."""
    stale = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo, data = po.with_suffix(".mo"), compiled(po)
        if "--check" in argv:
            if not mo.is_file() or mo.read_bytes() != data:
                stale.append(mo)
        else:
            mo.write_bytes(data)
            print(f"wrote {mo.relative_to(LOCALE.parent.parent.parent)}")
    for mo in stale:
        print(f"stale: {mo} (run 'make catalogs')", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
