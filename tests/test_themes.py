"""Chips and cards are readable in every common theme, light and dark, measured in the real browser.

A small book (one linked chip, one unresolved chip, one card) is built with each theme and opened
in headless Chromium. The text contrast of the chip (label on its tinted fill over the page) and
of the card's meta line must be at least 4.5:1 (WCAG AA), from computed styles. Themes without a
dark mode are checked with the system set to dark too: the chip must stay readable on their light
page. Screenshots go to ``_build/screenshots/themes/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_site import (
    DESKTOP,
    chip_colours,
    contrast,
    missing_reason,
    new_context,
    over,
    rgba,
    serve,
)
from helpers import ROOT, Book, SharedUpstream

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(missing_reason() is not None, reason=str(missing_reason())),
]

SHOTS = ROOT / "_build" / "screenshots" / "themes"
PAGE = """\
# Themes

An ok anchor: {src}`the alpha function <pkg.mod.alpha>`; one that cannot link: {src}`nothing <pkg.mod.nothing>`.

```{source-anchor} pkg.mod.alpha
:caption: alpha, as a card
```
"""
#: theme -> how it turns dark (None: it has no dark mode).
THEMES: dict[str, str | None] = {
    "alabaster": None,
    "sphinx_rtd_theme": None,
    "furo": "body",
    "pydata_sphinx_theme": "html",
    "sphinx_book_theme": "html",
}


def build(book: Book, shared_upstream: SharedUpstream, theme: str) -> Path:
    sha = shared_upstream.commits["build-v1"]
    book.repos = {
        "up": {"url": shared_upstream.url, "commit": sha, "packages": ["pkg"], "host": "github"}
    }
    book.settings = {"html_theme": theme, "suppress_warnings": ["source-anchors.missing"]}
    book.write_conf(default_repo="up")
    book.page("index", PAGE)
    return book.build(out=theme).outdir


def colours_of(page: Any, selector: str) -> float:
    found = chip_colours(page, selector)
    page_bg = rgba(found["page"])[:3]
    fill = over(rgba(found["background"]), page_bg)
    return contrast(over(rgba(found["color"]), fill), fill)


@pytest.fixture(scope="module")
def page(browser: Any) -> Iterator[Any]:
    """One page for the file's themes: each site is loaded in it, light and then dark (a reload under
    the dark system setting), instead of a new context per theme and mode at three times the CPU."""
    context = new_context(browser, viewport=DESKTOP)
    try:
        yield context.new_page()
    finally:
        context.close()


def measure(page: Any, url: str, theme: str, mode: str) -> dict[str, float]:
    """Load the site's index under the system colour *mode*, turn the theme dark as its switcher would,
    and return the three contrasts (a screenshot and the figures go to SHOTS)."""
    page.emulate_media(color_scheme=mode)
    page.goto(url + "index.html")
    page.add_style_tag(content="* { transition: none !important; }")
    where = THEMES[theme]
    if mode == "dark" and where == "html":
        page.evaluate(
            "() => { document.documentElement.dataset.theme = 'dark'; "
            "document.documentElement.dataset.mode = 'dark'; }"
        )
    elif mode == "dark" and where == "body":
        page.evaluate("() => { document.body.dataset.theme = 'dark'; }")
    figures = {
        "chip": colours_of(page, "a.sa-anchor"),
        "unresolved chip": colours_of(page, "span.sa-anchor.sa-missing"),
        "card meta": colours_of(page, "div.sa-card .sa-card-meta"),
    }
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("div.sa-card").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"{theme}-{mode}.png"))
    (SHOTS / f"{theme}-{mode}.json").write_text(json.dumps(figures, indent=1) + "\n", "utf-8")
    return figures


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_chip_and_card_text_contrast_is_at_least_aa(
    page: Any, book: Book, shared_upstream: SharedUpstream, theme: str
) -> None:
    """Light and dark from one build of the book: the mode is the reader's, not the build's."""
    site = build(book, shared_upstream, theme)
    with serve(site) as url:
        measured = {mode: measure(page, url, theme, mode) for mode in ("light", "dark")}
    low = {
        f"{mode}: {name}": round(value, 2)
        for mode, figures in measured.items()
        for name, value in figures.items()
        if value < 4.5
    }
    assert not low, f"{theme}: contrast below 4.5:1: {low}; all: {measured}"
