"""Reliability and security suite of source_anchors (see conftest.py for the figures it prints).

A package, so that its ``conftest`` module is ``reliability.conftest`` and the root
``tests/conftest.py`` stays importable as ``conftest`` for every other test module.
"""
