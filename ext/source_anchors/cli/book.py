"""Find a book and read it as Sphinx does: every anchor record and the engine that checked them.

The book is read with Sphinx's ``dummy`` builder into a temporary directory, so anchors are found by
the same parser, with the same lines, as in a real build. What the CLI changes is passed in as
configuration overrides, the same path a ``conf.py`` value takes: ``source_anchors_quiet`` (no
warnings, no lock writes) and ``source_anchors_pin_commits`` (``--pin``).
"""

from __future__ import annotations

import io
import logging
import os
import re
import tempfile
from pathlib import Path

from ..engine.engine import Engine
from ..model.config import PREFIX
from ..model.records import AnchorRecord
from .unread import ImportWatch, Unimported

_PAGES = (".rst", ".md", ".txt", ".ipynb")


def find_book(cwd: Path, confdir: str | None, srcdir: str | None) -> tuple[Path, Path]:
    """(confdir, srcdir) of the book, as ``sphinx-build`` would be told them.

    Without ``--confdir``: the current directory when it holds ``conf.py``, else the first of
    ``source/``, ``docs/``, ``doc/`` that does (``sphinx-quickstart --sep`` puts it in
    ``source/``). Without ``--srcdir``: the conf directory itself (``sphinx-quickstart``'s
    layouts), unless it has a ``source/`` folder holding an ``index`` page and no ``conf.py`` of its
    own (``sphinx-build -c . source``, as this project's own book is built).
    """
    if confdir is not None:
        conf = (cwd / confdir).resolve()
    else:
        conf = next(
            (
                d
                for d in (cwd, cwd / "source", cwd / "docs", cwd / "doc")
                if (d / "conf.py").is_file()
            ),
            cwd,
        ).resolve()
    if srcdir is not None:
        return conf, (cwd / srcdir).resolve()
    pages = conf / "source"
    if not (pages / "conf.py").exists() and any(
        (pages / f"index{suffix}").is_file() for suffix in _PAGES
    ):
        return conf, pages
    return conf, conf


class BookError(Exception):
    """The book could not be read (bad config, bad lock, unknown --pin name)."""


def read_book(
    confdir: Path,
    srcdir: Path,
    *,
    pins: dict[str, str],
    paths: dict[str, Path] | None = None,
    unimported: list[Unimported] | None = None,
) -> tuple[list[AnchorRecord], Engine]:
    """Read the book quietly, with *pins* replacing pinned commits; every anchor record and the engine.

    *paths*, when given, receives each page's source file by document name; *unimported*, the
    objects autodoc could not import (their API links are not among the records, see
    :mod:`.unread`).
    """
    if not (confdir / "conf.py").is_file():
        raise BookError(
            f"no conf.py in {confdir}; run in the folder of conf.py or just above its source/, "
            "docs/ or doc/ folder, or pass --confdir"
        )
    from sphinx.application import Sphinx
    from sphinx.errors import SphinxError
    from sphinx.util.docutils import docutils_namespace, patch_docutils
    from sphinx.util.logging import NAMESPACE

    from ..sphinx_ext.apidomain import api_records
    from ..sphinx_ext.domain import get_domain
    from ..sphinx_ext.state import get_state

    # As sphinx-build does: roles, directives and nodes registered by this read are undone after it,
    # so a caller's own Sphinx application in the same process starts clean.
    with (
        tempfile.TemporaryDirectory(prefix="source-anchors-cli.") as tmp,
        patch_docutils(confdir),
        docutils_namespace(),
    ):
        warnings = io.StringIO()
        try:
            overrides = {f"{PREFIX}quiet": True, f"{PREFIX}pin_commits": pins}
            app = Sphinx(
                str(srcdir),
                str(confdir),
                os.path.join(tmp, "out"),
                os.path.join(tmp, "doctrees"),
                "dummy",
                confoverrides=overrides,
                status=None,
                warning=warnings,
                freshenv=True,
            )
            watch = ImportWatch(lambda: app.env.docname)
            logging.getLogger(NAMESPACE).addHandler(watch)
            try:
                app.build(force_all=True)
            finally:
                logging.getLogger(NAMESPACE).removeHandler(watch)
        except SphinxError as error:
            raise BookError(str(error)) from None
        except SystemExit:
            text = re.sub(
                r"\x1b\[[0-9;]*m", "", warnings.getvalue()
            ).strip()  # Sphinx colours its errors
            # printed after our "error: "
            text = re.sub(r"^(?:ERROR|WARNING): ", "", text, flags=re.MULTILINE)
            raise BookError(text or "the book's configuration is invalid") from None
        records = [
            *get_domain(app.env).all_anchors(),
            *api_records(app.env),
        ]  # API links into a pin, too
        if paths is not None:
            paths.update({doc: Path(app.env.doc2path(doc)) for doc in app.env.found_docs})
        if unimported is not None:
            unimported.extend(watch.found)
        engine = get_state(str(app.srcdir)).engine
    return sorted(records, key=lambda r: r.order), engine
