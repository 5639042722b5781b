"""The Sphinx glue: setup, roles and directive, the domain, generated pages, diagnostics.

Takes in: the pages Sphinx reads (each ``{src}`` role and ``source-anchor`` directive) and
``conf.py``.
Gives out: nodes (chips, cards, tables), located warnings of one type with subtypes, the ledger and
licence-notes pages, the report and a locked build's exit status (:func:`~.extension.setup`);
per-document records merged for parallel builds (:mod:`.domain`), each kept as a tuple with its
document name and node id (:mod:`.envform`).
May import: the engine, the markup and every core stage, Sphinx and docutils. Not the CLI. Only this
package turns the core's records and errors into nodes, warnings and output.
"""
