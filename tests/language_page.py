"""A page with anchors into TSX, Go, Rust and C, for ``test_language_page.py`` and ``make languages-demo``.

The upstream is ``tests/roots/upstream/languages/`` (sources written for these tests, real-looking,
no upstream code), the page ``tests/roots/test-languages/index.md``, printed with the book's own print
settings (``conf.py``: Chinese, xeCJK). Also runnable by hand, to see the page as a reader does::

    python tests/language_page.py [OUT_DIR]

builds the page to HTML and to PDF (xelatex) in OUT_DIR (default ``_build/languages-demo``) and
writes two images there: ``html.png``, Chromium's headless screenshot of the HTML page, and
``pdf-1.png``, ``pdf-2.png`` … the PDF's pages by ``pdftoppm -png -r 80``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from helpers import ROOT, ROOTS, Upstream, build_env, copy_root, sphinx_argv, write_conf

#: Each permalink ends in its lines, as GitHub's do; the host is a placeholder (nothing is fetched).
PERMALINK = "https://example.org/blob/{commit}/{path}#L{start}-L{end}"
TREE = ROOTS / "upstream" / "languages"


def files() -> dict[str, str]:
    """The upstream's files by their path in the repository."""
    return {
        path.relative_to(TREE).as_posix(): path.read_text("utf-8")
        for path in sorted(TREE.rglob("*"))
        if path.is_file()
    }


def repos(url: str, commit: str) -> dict[str, dict[str, Any]]:
    """The book's one pin: no ``packages`` (there is no Python in this repository)."""
    return {"up": {"url": url, "commit": commit, "permalink": PERMALINK}}


def print_settings() -> dict[str, Any]:
    """The book's own title, language and print settings, as ``test_print.py`` reads them."""
    from test_print import PRINT_SETTINGS

    return dict(PRINT_SETTINGS)


def _run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)
    if done.returncode:
        raise SystemExit(
            f"{' '.join(argv[:3])} … failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return done


def demo(out: Path) -> list[Path]:
    """Build the page to HTML and PDF under *out*; return the PNG images written."""
    shutil.rmtree(out, ignore_errors=True)
    upstream = Upstream(out / "upstream")
    upstream.write_files(dict(files()))
    sha = upstream.commit("languages")
    book = out / "book"
    copy_root("languages", book)
    write_conf(
        book, repos(upstream.url, sha), out / "cache", default_repo="up", settings=print_settings()
    )
    env = build_env()
    html, latex = out / "html", out / "latex"
    _run(sphinx_argv(book, "-nW", "-q", outdir=html), env=env, cwd=book)
    _run(sphinx_argv(book, "-nW", "-q", "-b", "latex", outdir=latex), env=env, cwd=book)
    _run(["make", "-C", str(latex), "LATEXMKOPTS=-silent", "LATEXOPTS=-interaction=nonstopmode"])
    (pdf,) = latex.glob("*.pdf")
    shots = [out / "html.png"]
    _run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1100,1000",
            f"--screenshot={shots[0]}",
            (html / "languages.html").as_uri(),
        ]
    )
    _run(["pdftoppm", "-png", "-r", "80", str(pdf), str(out / "pdf")])
    return shots + sorted(out.glob("pdf-*.png"))


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_build" / "languages-demo"
    for image in demo(target.resolve()):
        print(image)
