"""Screenshots of one API object's ``[source]`` link in three themes, and its text in the PDF.

``python bench/api_screens.py``: itsdangerous 2.2.0's sdist (from PyPI) committed to a local git
repository tagged ``2.2.0``; ``itsdangerous.Signer`` documented by autodoc and built with furo,
pydata-sphinx-theme and sphinx-rtd-theme (HTML), and with LaTeX (a PDF, read back with
``pdftotext``). Chromium (Debian's, through Playwright) shoots the object in light and, where the
theme has one, dark mode. Everything goes to ``_build/api-screens/``; nothing is committed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import api_eval  # the same download and repository set-up (bench/ is the script's folder, first on the path)

OUT = api_eval.ROOT / "_build" / "api-screens"
THEMES = {
    "furo": ("furo", True),
    "pydata": ("pydata_sphinx_theme", True),
    "rtd": ("sphinx_rtd_theme", False),
}
PAGE = """\
Signer
======

.. autoclass:: itsdangerous.Signer
   :members: sign, get_signature, verify_signature
"""


def main() -> int:
    """Build, shoot, print the paths."""
    api_eval.OUT.mkdir(parents=True, exist_ok=True)
    sdist = api_eval._unpacked("itsdangerous==2.2.0")
    repo = OUT / "itsdangerous"
    shutil.rmtree(OUT, ignore_errors=True)
    shutil.copytree(sdist, repo)
    for name, (theme, _) in {**THEMES, "latex": ("alabaster", False)}.items():
        docs = repo / f"docs-{name}"
        docs.mkdir()
        (docs / "conf.py").write_text(
            'import os, sys\nsys.path.insert(0, os.path.abspath("../src"))\nproject = "itsdangerous"\n'
            f'extensions = ["sphinx.ext.autodoc", "source_anchors"]\nhtml_theme = "{theme}"\n'
            'source_anchors_api_links = "self"\nlatex_documents = [("index", "signer.tex", "Signer", "", "howto")]\n',
            "utf-8",
        )
        (docs / "index.rst").write_text(PAGE, "utf-8")
    env = {**os.environ, **api_eval._GIT}
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["commit", "-q", "-m", "sdist"],
        ["tag", "2.2.0"],
        ["remote", "add", "origin", "git@github.com:pallets/itsdangerous.git"],
    ):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)
    build_env = {**os.environ, "SOURCE_ANCHORS_CACHE": str(OUT / "cache")}
    for name in THEMES:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "sphinx",
                "-q",
                "-b",
                "html",
                str(repo / f"docs-{name}"),
                str(OUT / f"html-{name}"),
            ],
            check=True,
            env=build_env,
        )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-q",
            "-b",
            "latex",
            str(repo / "docs-latex"),
            str(OUT / "latex"),
        ],
        check=True,
        env=build_env,
    )
    subprocess.run(
        ["latexmk", "-pdf", "-interaction=nonstopmode", "-silent", "signer.tex"],
        cwd=OUT / "latex",
        check=True,
        capture_output=True,
    )
    pdf = OUT / "latex" / "signer.pdf"
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    (OUT / "signer.pdf.txt").write_text(text, "utf-8")
    shots = _shoot()
    for path in [*shots, pdf, OUT / "signer.pdf.txt"]:
        print(path.relative_to(api_eval.ROOT))
    return 0


def _shoot() -> list[Path]:
    from playwright.sync_api import sync_playwright

    shots = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        for name, (_, dark) in THEMES.items():
            for scheme in ("light", "dark") if dark else ("light",):
                page = browser.new_page(
                    viewport={"width": 1280, "height": 900}, color_scheme=scheme
                )
                page.goto((OUT / f"html-{name}" / "index.html").as_uri())
                if name == "pydata":
                    page.evaluate(f"document.documentElement.dataset.theme = '{scheme}'")
                if name == "furo":
                    page.evaluate(f"document.body.dataset.theme = '{scheme}'")
                element = page.locator('dt[id="itsdangerous.Signer.sign"]').locator("xpath=..")
                element.scroll_into_view_if_needed()
                link = page.locator(
                    'dt[id="itsdangerous.Signer.sign"] a.sa-api-source span.viewcode-link'
                )
                link.hover()
                out = OUT / f"{name}-{scheme}.png"
                element.screenshot(path=str(out))
                shots.append(out)
                page.close()
        browser.close()
    return shots


if __name__ == "__main__":
    raise SystemExit(main())
