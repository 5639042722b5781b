"""The command line ``source-anchors``: a table of commands (``main.COMMANDS``), each in its module.

Takes in: argv (:func:`~.main.main` ``(argv) -> int``); the book, read quietly by Sphinx
(:mod:`.book`).
Gives out: the report, the lock rewritten, page and ``conf.py`` rewrites, an exit status; the
``source-anchors-cli`` directive (:mod:`.reference`) that shows the commands' help in a page.
May import: everything below it, the Sphinx glue included (to read the book); nothing imports it but
the package's ``setup`` and ``__main__``.
"""
