"""Markup: what a page's text says about anchors, one module per markup (pure).

Takes in: a page's text and its path (the suffix chooses the markup: :func:`.registry.markup_for`).
Gives out: the page's front matter and role lines (:class:`.page.PageSource`); a role's label and
target (:func:`.labels.split_label`); the anchors a page writes, without Sphinx
(:func:`.collect.anchors`: line, target text, label); the page with targets rewritten
(:func:`.rewrite.rewrite`, what ``fix`` writes). MyST Markdown is :mod:`.myst`, reStructuredText
:mod:`.rst`; each says where its pages write roles, directives, code and front matter
(:class:`.base.Markup`).
May import: :mod:`source_anchors.model` only.
"""
