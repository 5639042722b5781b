"""The Sphinx glue: setup, roles, the domain, generated pages, diagnostics and the CLI.

Only this package turns the core's records and errors into nodes, located warnings and output.
"""
