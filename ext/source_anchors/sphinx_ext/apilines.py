"""Where an API object is described on its page: the line its warnings and CI annotations point at.

A hand-written ``py:`` directive's signature carries its own page line. Autodoc's do not: autodoc
parses the text it generates with the docstring as the source (``…/pkg/mod.py:docstring of pkg.f``,
the Python file, not the page), so once the page is read nothing in the tree says where the
``.. autoclass::`` stood. Each autodoc directive is therefore registered again, at
``builder-inited`` (after autodoc has registered its own on ``config-inited``), as a subclass that
stamps the page and the line of the directive on every object description (and module target) it
produced: members listed by ``:members:`` get the line of the ``automodule`` or ``autoclass`` that
listed them. The stamp is two node attributes, kept with the doctree.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx import addnodes
from sphinx.application import Sphinx

#: The attributes an autodoc directive stamps on each object description it produced.
SOURCE, LINE = "sa_page_source", "sa_page_line"
_LOCATED: dict[type[Directive], type[Directive]] = {}


def _autodoc_classes() -> tuple[type[Directive], ...]:
    """Autodoc's directive classes: Sphinx 9 has a new one beside the legacy one (8.x has only the latter)."""
    found: list[type[Directive]] = []
    try:
        from sphinx.ext.autodoc.directive import AutodocDirective as Legacy
    except ImportError:  # a Sphinx without the legacy module
        pass
    else:
        found.append(Legacy)
    try:
        from sphinx.ext.autodoc._directive import AutodocDirective as Current
    except ImportError:  # Sphinx 8
        pass
    else:
        found.append(Current)
    return tuple(found)


def locate_autodoc(app: Sphinx) -> None:
    """Register each directive that is autodoc's (``automodule``, ``autoclass``, …) again, located.

    Called on ``builder-inited``: Sphinx 9's autodoc registers its directives on ``config-inited``.
    """
    if "sphinx.ext.autodoc" not in app.extensions:
        return
    autodoc = _autodoc_classes()
    # docutils keeps the directives Sphinx registers in this module-level table
    # (``register_directive``).
    for name, cls in sorted(directives._directives.items()):
        if isinstance(cls, type) and issubclass(cls, autodoc) and cls not in _LOCATED.values():
            app.add_directive(name, _located(cls), override=True)


def _located(cls: type[Directive]) -> type[Directive]:
    """*cls* with a ``run`` that stamps every object description of its result (one subclass per class)."""
    if cls not in _LOCATED:

        def run(self: Any) -> list[nodes.Node]:
            result: list[nodes.Node] = cls.run(self)
            source, line = self.get_source_info()
            for node in result:
                if isinstance(node, nodes.Element):
                    for placed in node.findall(_stamped):
                        # an autodoc directive nested in generated content stamped it first
                        if LINE not in placed:
                            placed[SOURCE], placed[LINE] = source or "", line or 0
            return result

        _LOCATED[cls] = type(
            cls.__name__, (cls,), {"run": run, "__module__": cls.__module__, "__doc__": cls.__doc__}
        )
    return _LOCATED[cls]


def _stamped(node: nodes.Node) -> bool:
    """An object description, or a module's target (``automodule`` writes no description for the module)."""
    return isinstance(node, addnodes.desc) or (
        isinstance(node, nodes.target) and bool(node.get("ismod"))
    )


def page_line(node: nodes.Element, page: str) -> int:
    """The line of *page* where the object description holding *node* is written (at least 1).

    Its own line when it comes from the page (a hand-written ``py:`` directive); else the line its
    autodoc directive stamped (``automodule``'s for the members it listed); else the first ancestor
    from the page (a description in an included file: the line of what holds it); else 1, the page
    itself, so that every annotation has a line a code host can show.
    """
    at: nodes.Node | None = node
    while at is not None:
        if isinstance(at, nodes.Element):
            if at.get(SOURCE) == page and at.get(LINE):
                return int(at[LINE])
            if at.source == page and at.line:
                return int(at.line)
        at = at.parent
    return 1


def module_line(doctree: nodes.document, node_id: str, page: str) -> int:
    """The page line of the module whose target has *node_id* (its ``py:module`` or ``automodule``)."""
    for target in doctree.findall(nodes.target):
        if target.get("ismod") and (node_id in target["ids"] or target.get("refid") == node_id):
            return page_line(target, page)
    return 1
