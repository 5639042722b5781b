"""Build the book, serve it on 127.0.0.1 and drive Debian's headless Chromium over it.

Used by ``test_browser.py``; also runnable by hand to take light/dark screenshots while styling::

    python tests/browser_site.py [SITE_DIR] [OUT_DIR]

SITE_DIR is an already built ``html`` directory (built into a temporary one when omitted);
OUT_DIR defaults to ``_build/screenshots/styling``.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from helpers import ROOT, build_the_book

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# A phone is a touch device without hover: the page sees (hover: none), as on a real one.
PHONE_EXTRAS = {"is_mobile": True, "has_touch": True}


def missing_reason() -> str | None:
    """Why the browser tests cannot run here, or None when Chromium and Playwright are both present."""
    if not CHROMIUM.is_file() or not os.access(CHROMIUM, os.X_OK):
        return f"browser test skipped: {CHROMIUM} not found (install Debian's chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser test skipped: playwright not installed (pip install playwright; its driver is enough)"
    return None


def build_site(outdir: Path, cache: Path) -> Path:
    """Build the book (non-strict preview) into *outdir*; return *outdir*. Raises with Sphinx's output on failure."""
    done = build_the_book(outdir, cache, strict=False)
    if done.returncode != 0 or not (outdir / "index.html").is_file():
        raise RuntimeError(
            f"sphinx-build failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    return outdir


class _Server(http.server.ThreadingHTTPServer):
    # Chromium opens several connections at once; the default backlog of 5 can drop a SYN on a busy
    # machine, and each retry waits twice as long as the one before.
    request_queue_size = 128
    daemon_threads = True


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve *directory* over HTTP on 127.0.0.1 (a free port) in a thread; yield the base URL ending in '/'."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, under Playwright (closed on exit)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


# How long a page may take to load or a locator to appear: generous, since CI runs the browser
# beside other test workers on two cores (one 30 s default timeout was hit there once).
TIMEOUT_MS = 90_000


def new_context(browser: Any, **options: Any) -> Any:
    """A fresh browser context with the generous timeouts above."""
    context = browser.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    return context


def set_dark(page: Any) -> None:
    """Switch the pydata/book theme to dark, as its theme switcher would."""
    page.emulate_media(color_scheme="dark")
    page.evaluate("""() => {
        document.documentElement.dataset.theme = 'dark';
        document.documentElement.dataset.mode = 'dark';
    }""")


def styling_shots(site: Path, out: Path) -> list[Path]:
    """Screenshots for judging the anchor styling: chapter and guide, light and dark, desktop and phone."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []
    with serve(site) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                for theme in ("light", "dark"):
                    context = new_context(
                        browser, viewport=viewport, **(PHONE_EXTRAS if name == "phone" else {})
                    )
                    page = context.new_page()
                    for doc in ("gpt-researcher/hybrid", "guide", "ledger"):
                        page.goto(base + doc + ".html", wait_until="load")
                        if theme == "dark":
                            set_dark(page)
                        stem = doc.rsplit("/", 1)[-1]
                        for part, selector in (
                            ("top", None),
                            ("step3", "#gr-hybrid-step-3"),
                            ("card", ".sa-card"),
                        ):
                            if selector and page.locator(selector).count() == 0:
                                continue
                            if selector:
                                page.locator(selector).first.scroll_into_view_if_needed()
                                page.evaluate("window.scrollBy(0, -80)")
                            path = out / f"{stem}-{part}-{name}-{theme}.png"
                            page.screenshot(path=str(path))
                            shots.append(path)
                    context.close()
        finally:
            browser.close()
    return shots


def main(argv: list[str]) -> int:
    """Take the styling screenshots (see the module docstring)."""
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "_build" / "screenshots" / "styling"
    if argv:
        site = Path(argv[0])
    else:
        tmp = Path(tempfile.mkdtemp(prefix="book-site-"))
        site = build_site(tmp / "html", tmp / "cache")
    for path in styling_shots(site, out):
        print(path)
    return 0


# -- colours, as the browser computes them ------------------------------------------------------


def rgba(value: str) -> tuple[float, float, float, float]:
    """A computed CSS colour (``rgb()``, ``rgba()`` or ``color(srgb …)``) as 0–1 RGBA."""
    if not value.startswith(("rgb", "color(srgb ")):
        raise ValueError(f"unexpected computed colour {value!r}")
    numbers = [float(n) for n in re.findall(r"[-\d.]+(?:e[-\d]+)?", value)]
    if value.startswith("color("):
        r, g, b = numbers[:3]
        return r, g, b, numbers[3] if len(numbers) > 3 else 1.0
    r, g, b = (n / 255 for n in numbers[:3])
    return r, g, b, numbers[3] if len(numbers) > 3 else 1.0


def over(
    top: tuple[float, float, float, float], under: tuple[float, float, float]
) -> tuple[float, float, float]:
    r, g, b, alpha = top
    return (
        r * alpha + under[0] * (1 - alpha),
        g * alpha + under[1] * (1 - alpha),
        b * alpha + under[2] * (1 - alpha),
    )


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    def luminance(c: tuple[float, float, float]) -> float:
        lin = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in c]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def chip_colours(page: Any, selector: str) -> dict[str, Any]:
    colours: dict[str, Any] = page.evaluate(
        """sel => {
        const el = document.querySelector(sel);
        el.scrollIntoView({block: 'center'});
        let under = el.parentElement, bg = 'rgba(0, 0, 0, 0)';
        while (under) {
            bg = getComputedStyle(under).backgroundColor;
            if (!/rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) break;
            under = under.parentElement;
        }
        if (!under) bg = 'rgb(255, 255, 255)';  // no background anywhere: the canvas, white (no color-scheme set)
        const s = getComputedStyle(el), after = getComputedStyle(el, '::after');
        return {color: s.color, background: s.backgroundColor, page: bg, border: s.borderTopColor,
                borderStyle: s.borderTopStyle, after: after.content, afterColor: after.color};
    }""",
        selector,
    )
    return colours


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
