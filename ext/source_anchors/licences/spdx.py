"""Licence names and trove classifiers normalised to SPDX licence identifiers (no Sphinx)."""

from __future__ import annotations

import re

__all__ = ["normalise"]

_CANONICAL = (
    "0BSD", "AFL-3.0", "AGPL-3.0-only", "AGPL-3.0-or-later", "Apache-1.1", "Apache-2.0", "Artistic-2.0",
    "BSD-1-Clause", "BSD-2-Clause", "BSD-3-Clause", "BSD-3-Clause-Clear", "BSD-4-Clause", "BSL-1.0",
    "CC-BY-4.0", "CC-BY-SA-4.0", "CC0-1.0", "CDDL-1.0", "EPL-1.0", "EPL-2.0", "EUPL-1.2", "GPL-2.0-only",
    "GPL-2.0-or-later", "GPL-3.0-only", "GPL-3.0-or-later", "HPND", "ISC", "LGPL-2.1-only",
    "LGPL-2.1-or-later", "LGPL-3.0-only", "LGPL-3.0-or-later", "MIT", "MIT-0", "MPL-1.1", "MPL-2.0",
    "MS-PL", "NCSA", "OFL-1.1", "PSF-2.0", "Python-2.0", "Unlicense", "UPL-1.0", "WTFPL", "Zlib", "ZPL-2.1",
)  # fmt: skip
_BY_KEY = {re.sub(r"[^a-z0-9+]", "", spdx.lower()): spdx for spdx in _CANONICAL}

# Names people write (and trove classifiers' last part), keyed as _key() folds them.
_ALIASES = {
    "mitlicense": "MIT",
    "themitlicense": "MIT",
    "expat": "MIT",
    "mitx11": "MIT",
    "apache": "Apache-2.0",
    "apache2": "Apache-2.0",
    "apache20": "Apache-2.0",
    "apachev2": "Apache-2.0",
    "apachelicense2": "Apache-2.0",
    "apachelicense20": "Apache-2.0",
    "apachelicenseversion20": "Apache-2.0",
    "apachesoftwarelicense": "Apache-2.0",
    "apachesoftwarelicense20": "Apache-2.0",
    "asl2": "Apache-2.0",
    "asl20": "Apache-2.0",
    "al2": "Apache-2.0",
    "bsd3clause": "BSD-3-Clause",
    "bsd3": "BSD-3-Clause",
    "newbsd": "BSD-3-Clause",
    "modifiedbsd": "BSD-3-Clause",
    "revisedbsd": "BSD-3-Clause",
    "bsd3clauselicense": "BSD-3-Clause",
    "bsd2clause": "BSD-2-Clause",
    "bsd2": "BSD-2-Clause",
    "simplifiedbsd": "BSD-2-Clause",
    "freebsd": "BSD-2-Clause",
    "isclicense": "ISC",
    "isclicenseiscl": "ISC",
    "gplv2": "GPL-2.0-only",
    "gpl2": "GPL-2.0-only",
    "gnugeneralpubliclicensev2gplv2": "GPL-2.0-only",
    "gplv2+": "GPL-2.0-or-later",
    "gnugeneralpubliclicensev2orlatergplv2+": "GPL-2.0-or-later",
    "gplv3": "GPL-3.0-only",
    "gpl3": "GPL-3.0-only",
    "gnugeneralpubliclicensev3gplv3": "GPL-3.0-only",
    "gplv3+": "GPL-3.0-or-later",
    "gnugeneralpubliclicensev3orlatergplv3+": "GPL-3.0-or-later",
    "gpl20": "GPL-2.0-only",
    "gpl30": "GPL-3.0-only",
    "gpl20+": "GPL-2.0-or-later",
    "gpl30+": "GPL-3.0-or-later",
    "lgplv3": "LGPL-3.0-only",
    "lgplv2": "LGPL-2.1-only",
    "gnulessergeneralpubliclicensev3lgplv3": "LGPL-3.0-only",
    "gnulessergeneralpubliclicensev3orlaterlgplv3+": "LGPL-3.0-or-later",
    "gnuafferogeneralpubliclicensev3": "AGPL-3.0-only",
    "agplv3": "AGPL-3.0-only",
    "mpl2": "MPL-2.0",
    "mpl20": "MPL-2.0",
    "mozillapubliclicense20mpl20": "MPL-2.0",
    "unlicense": "Unlicense",
    "theunlicense": "Unlicense",
    "theunlicenseunlicense": "Unlicense",
    "cc0": "CC0-1.0",
    "cc010universal": "CC0-1.0",
    "cc010universalcc010publicdomaindedication": "CC0-1.0",
    "psf": "PSF-2.0",
    "pythonsoftwarefoundationlicense": "PSF-2.0",
    "zliblibpnglicense": "Zlib",
    "boostsoftwarelicense10bsl10": "BSL-1.0",
    "universalpermissivelicenseupl": "UPL-1.0",
    "eclipsepubliclicense20epl20": "EPL-2.0",
}
# A classifier's licence part that names a family, not one licence: not recognised.
_AMBIGUOUS = frozenset(
    {
        "bsd",
        "bsdlicense",
        "gpl",
        "lgpl",
        "gnugeneralpubliclicensegpl",
        "osiapproved",
        "otherproprietarylicense",
        "publicdomain",
        "freelydistributable",
    }
)


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9+]", "", text.lower().replace(" or later", "+"))


def _one(token: str) -> str | None:
    key = _key(token)
    if not key or key in _AMBIGUOUS:
        return None
    return _BY_KEY.get(key) or _ALIASES.get(key) or _ALIASES.get(key.removesuffix("license"))


def normalise(value: str) -> frozenset[str]:
    """The SPDX identifiers *value* names, or an empty set when it is not recognised.

    *value* is an SPDX expression (``"MIT OR Apache-2.0"``), a licence's usual name
    (``"MIT License"``, ``"Apache 2"``), or a trove classifier (``"License :: OSI Approved ::
    MIT License"``). Every licence an expression names must be recognised, else nothing is.
    """
    text = value.strip()
    if text.lower().startswith("license ::"):
        text = text.rsplit("::", 1)[-1]
    # a whole licence text is not a declaration of an id
    if not text or len(text) > 200 or "\n" in text:
        return frozenset()
    whole = _one(text)
    if whole is not None:
        return frozenset({whole})
    parts = [
        p for p in re.split(r"\s+(?:OR|AND|or|and)\s+|[()]|\s+WITH\s+\S+|/|,", text) if p.strip()
    ]
    found = [_one(part) for part in parts]
    if len(parts) > 1 and all(found):
        return frozenset(f for f in found if f)
    return frozenset()
