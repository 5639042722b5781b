"""Reliability and security suite of source_anchors (see figures.py for the figures it prints).

A package, so that its modules import each other relatively (``.figures``, ``.support``)
beside the top-level ``helpers`` module that every test uses.
"""
