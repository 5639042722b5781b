"""Suggestions when a missing definition changed its name or level (``suggest/elsewhere.py``), on git repositories.

One test per rule, each run with and without git's history (the rules use the two trees only), and
for each rule a case where it must not suggest: code deleted while something of the same name or
shape appeared elsewhere.
"""

from __future__ import annotations

import pytest
from helpers import Book, Upstream, run_cli
from source_anchors.engine.engine import Engine
from source_anchors.lock.lockfile import read_lock
from source_anchors.model.config import settings_from
from source_anchors.model.target import Target

BODY = """\
        if truncate is None:
            truncate = translate("String to return when truncating text", "%(truncated_text)s…")
        if "%(truncated_text)s" in truncate:
            return truncate % {"truncated_text": text}
        if text.endswith(truncate):
            return text
        return f"{text}{truncate}"
"""
TAGS = """{
        "area", "base", "br", "col", "embed", "hr", "img", "input",
        "link", "meta", "param", "source", "track", "wbr",
    }"""


def dedent(body: str, by: int = 4) -> str:
    """*body* with *by* fewer spaces on every line (a method's body as a function's)."""
    return "".join(
        line[by:] if line.startswith(" " * by) else line for line in body.splitlines(keepends=True)
    )


def suggest(
    book: Book, upstream: Upstream, old: str, new: str, target: str, *, history: bool
) -> tuple[str | None, str | None]:
    """Lock *target* at *old*, then (key, reason) of its suggestion at *new* (None, None when there is none)."""
    path, _, match = target.partition("::")
    book.page("index", f"# P\n\n{{src}}`x <{target}>`\n")
    book.repos = {"up": {"url": upstream.url, "commit": old, "packages": ["pkg"]}}
    book.write_conf(default_repo="up")
    assert run_cli(book.cli("update")) == 0
    record = read_lock(book.lock).get("up", Target("up", path, match or None).key)
    assert record is not None
    settings = settings_from(
        {
            "repos": {"up": {"url": upstream.url, "commit": new, "packages": ["pkg"]}},
            "cache_dir": str(book.cache),
            "lock_file": str(book.lock),
        },
        confdir=book.root,
        environ={},
    )
    engine = Engine(settings)
    engine._suggesters.use_history = history
    found = engine._suggesters.suggester("up", old).suggest(
        Target("up", path, match or None), record
    )
    return (found.key, found.reason) if found else (None, None)


both = pytest.mark.parametrize("history", [False, True], ids=["without-history", "with-history"])


# -- same name at another level ----------------------------------------------------------------


@both
def test_a_method_that_became_a_module_function_of_the_same_name(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/text.py",
        "class Truncator:\n    def chars(self, n):\n        return n\n\n"
        "    def add_text(self, text, truncate=None):\n" + BODY,
    )
    old = upstream.commit("v1")
    upstream.write(
        "pkg/text.py",
        "def add_text(text, truncate=None):\n"
        + dedent(BODY)
        + "\n\nclass Truncator:\n    def chars(self, n):\n        return n\n",
    )
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.text.Truncator.add_text", history=history) == (
        "pkg.text.add_text",
        "same name",
    )


@both
def test_a_deleted_method_gets_no_unrelated_definition_of_its_name(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/text.py",
        "class Truncator:\n    def chars(self, n):\n        return n\n\n"
        "    def add_text(self, text, truncate=None):\n" + BODY,
    )
    old = upstream.commit("v1")
    upstream.write("pkg/text.py", "class Truncator:\n    def chars(self, n):\n        return n\n")
    upstream.write(
        "pkg/other.py",
        "def add_text(lines, sep):\n    joined = sep.join(lines)\n    return joined.strip()\n",
    )
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.text.Truncator.add_text", history=history) == (
        None,
        None,
    )


# -- the same lines under another name ----------------------------------------------------------


@both
def test_a_class_constant_renamed_and_moved_to_another_module(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/parse.py",
        f"class Parser:\n    SELF_CLOSING = {TAGS}\n\n    def feed(self, data):\n"
        "        return data\n",
    )
    old = upstream.commit("v1")
    # The old module imports the new name now: the suggestion is still its definition, not that
    # import.
    upstream.write(
        "pkg/parse.py",
        "from pkg.html import VOID_ELEMENTS\n\n\n"
        "class Parser:\n    def feed(self, data):\n        return data in VOID_ELEMENTS\n",
    )
    upstream.write("pkg/html.py", f"VOID_ELEMENTS = {dedent(TAGS)}\n")
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.parse.Parser.SELF_CLOSING", history=history) == (
        "pkg.html.VOID_ELEMENTS",
        "same lines, renamed",
    )


@both
def test_a_short_deleted_constant_is_not_matched_by_its_value(
    upstream: Upstream, book: Book, history: bool
) -> None:
    """``LIMIT = settings.get("timeout", 30)`` gone and the same value new elsewhere: too short to tell."""
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/http.py",
        "class Client:\n    LIMIT = settings.get('timeout', 30)\n\n"
        "    def get(self, url):\n        return url\n",
    )
    old = upstream.commit("v1")
    upstream.write("pkg/http.py", "class Client:\n    def get(self, url):\n        return url\n")
    upstream.write("pkg/files.py", "DEFAULT_WAIT = settings.get('timeout', 30)\n")
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.http.Client.LIMIT", history=history) == (
        None,
        None,
    )


# -- a member renamed in its class ----------------------------------------------------------------

WRAPPER = """\
import functools


class Wrapper:
    def connect(self):
        return self

{members}
"""
OLD_MEMBER = """\
    @functools.cached_property
    def cx_oracle_version(self):
        return tuple(int(x) for x in Database.version.split("."))
"""
NEW_MEMBER = """\
    @functools.cached_property
    def oracledb_version(self):
        return get_version_tuple(Database.__version__)
"""


@both
def test_a_member_renamed_with_its_body_rewritten(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/base.py", WRAPPER.format(members=OLD_MEMBER))
    old = upstream.commit("v1")
    upstream.write("pkg/base.py", WRAPPER.format(members=NEW_MEMBER))
    new = upstream.commit("v2")
    assert suggest(
        book, upstream, old, new, "pkg.base.Wrapper.cx_oracle_version", history=history
    ) == ("pkg.base.Wrapper.oracledb_version", "renamed member")


@both
def test_two_new_members_that_fit_are_not_told_apart(
    upstream: Upstream, book: Book, history: bool
) -> None:
    """The signature decides only when one new member fits: with two, there is no suggestion."""
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/base.py", WRAPPER.format(members=OLD_MEMBER))
    old = upstream.commit("v1")
    upstream.write(
        "pkg/base.py",
        WRAPPER.format(
            members=NEW_MEMBER + "\n" + NEW_MEMBER.replace("oracledb_version", "oracle_db_version")
        ),
    )
    new = upstream.commit("v2")
    assert suggest(
        book, upstream, old, new, "pkg.base.Wrapper.cx_oracle_version", history=history
    ) == (None, None)


# -- a module-level name that became a local ---------------------------------------------------

HELPERS = 'from pkg.forms import CheckboxInput\n\nNAME = "_selected"\n{checkbox}\n'
CHECKBOX = 'checkbox = CheckboxInput({"class": "action-select"}, lambda value: False)\n'
OPTIONS_OLD = """\
from pkg import helpers


class ModelAdmin:
    def action_checkbox(self, obj):
        return helpers.checkbox.render(helpers.NAME, str(obj.pk))
"""
OPTIONS_NEW = """\
from pkg import helpers
from pkg.forms import CheckboxInput


class ModelAdmin:
    def action_checkbox(self, obj):
        attrs = {"class": "action-select", "aria-label": str(obj)}
        checkbox = CheckboxInput(attrs, lambda value: False)
        return checkbox.render(helpers.NAME, str(obj.pk))
"""


@both
def test_a_module_name_that_became_a_local_of_its_user(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/forms.py",
        "class CheckboxInput:\n    def __init__(self, attrs, check):\n        self.attrs = attrs\n",
    )
    upstream.write("pkg/helpers.py", HELPERS.format(checkbox=CHECKBOX))
    upstream.write("pkg/options.py", OPTIONS_OLD)
    old = upstream.commit("v1")
    upstream.write("pkg/helpers.py", HELPERS.format(checkbox=""))
    upstream.write("pkg/options.py", OPTIONS_NEW)
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.helpers.checkbox", history=history) == (
        "pkg.options.ModelAdmin.action_checkbox::checkbox = CheckboxInput(attrs, lambda value: False)",
        "now a local of pkg.options.ModelAdmin.action_checkbox",
    )


@both
def test_a_local_of_the_same_name_in_code_that_did_not_use_it_is_not_suggested(
    upstream: Upstream, book: Book, history: bool
) -> None:
    """The module's ``checkbox`` deleted; a new function has a local ``checkbox`` of its own."""
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/forms.py",
        "class CheckboxInput:\n    def __init__(self, attrs, check):\n        self.attrs = attrs\n",
    )
    upstream.write("pkg/helpers.py", HELPERS.format(checkbox=CHECKBOX))
    upstream.write(
        "pkg/options.py", OPTIONS_OLD.replace("helpers.checkbox.render", "helpers.render")
    )
    old = upstream.commit("v1")
    upstream.write("pkg/helpers.py", HELPERS.format(checkbox=""))
    upstream.write("pkg/options.py", OPTIONS_NEW)
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.helpers.checkbox", history=history) == (
        None,
        None,
    )


@both
def test_a_version_dropped_while_another_was_added_is_not_a_rename(
    upstream: Upstream, book: Book, history: bool
) -> None:
    """``is_postgresql_14`` removed, ``is_postgresql_17`` added: names that differ in numbers only."""
    member = (
        "    @functools.cached_property\n    def is_postgresql_{n}(self):\n"
        "        return self.connection.pg_version >= {n}0000\n"
    )
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/base.py", WRAPPER.format(members=member.format(n=14)))
    old = upstream.commit("v1")
    upstream.write("pkg/base.py", WRAPPER.format(members=member.format(n=17)))
    new = upstream.commit("v2")
    assert suggest(
        book, upstream, old, new, "pkg.base.Wrapper.is_postgresql_14", history=history
    ) == (None, None)


@both
def test_a_short_member_deleted_is_not_a_same_named_one_of_another_class(
    upstream: Upstream, book: Book, history: bool
) -> None:
    """``self.obj = obj`` of a class that lost it, and a new class elsewhere that sets its own ``obj``."""
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/errors.py",
        "class DecodeError(Exception):\n    def __init__(self, obj, *args):\n"
        "        self.obj = obj\n        super().__init__(*args)\n",
    )
    old = upstream.commit("v1")
    upstream.write(
        "pkg/errors.py",
        "class DecodeError(Exception):\n    def __init__(self, *args):\n"
        "        super().__init__(*args)\n",
    )
    upstream.write(
        "pkg/expressions.py",
        "class Sliced:\n    def __init__(self, obj, subscript):\n"
        "        self.obj = obj\n        self.subscript = subscript\n",
    )
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.errors.DecodeError.obj", history=history) == (
        None,
        None,
    )


# -- a name of many words, and a class's own member rewritten -------------------------------------

CHECK_OLD = """\
def check_string_if_invalid_is_string(app_configs, **kwargs):
    errors = []
    for conf in settings.TEMPLATES:
        value = conf.get("OPTIONS", {}).get("string_if_invalid", "")
        if not isinstance(value, str):
            errors.append(E002)
    return errors
"""
CHECK_NEW = """\
class Templates:
    def _check_string_if_invalid_is_string(self):
        if not isinstance(self.engine.string_if_invalid, str):
            return [Error("string_if_invalid must be a string", obj=self, id="templates.E002")]
        return []
"""


@both
def test_a_rewritten_function_of_a_distinctive_name_became_a_private_method(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/checks.py", "settings = None\nE002 = None\n\n\n" + CHECK_OLD)
    old = upstream.commit("v1")
    upstream.write("pkg/checks.py", "settings = None\nE002 = None\n")
    upstream.write("pkg/backends.py", CHECK_NEW)
    new = upstream.commit("v2")
    assert suggest(
        book, upstream, old, new, "pkg.checks.check_string_if_invalid_is_string", history=history
    ) == ("pkg.backends.Templates._check_string_if_invalid_is_string", "same distinctive name")


@both
def test_a_distinctive_name_defined_twice_says_nothing(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/checks.py", "settings = None\nE002 = None\n\n\n" + CHECK_OLD)
    old = upstream.commit("v1")
    upstream.write("pkg/checks.py", "settings = None\nE002 = None\n")
    upstream.write("pkg/backends.py", CHECK_NEW + "\n\n" + CHECK_NEW.replace("Templates", "Jinja"))
    new = upstream.commit("v2")
    assert suggest(
        book, upstream, old, new, "pkg.checks.check_string_if_invalid_is_string", history=history
    ) == (None, None)


GEO_OLD = """\
class GeoIP2:
    def country(self, query):
        enc_query = self._check_query(query, city_or_country=True)
        return Country(self._country_or_city(enc_query))

    def coords(self, query, ordering=("longitude", "latitude")):
        cdict = self.city(query)
        return tuple(cdict[o] for o in ordering)

    def city(self, query):
        enc_query = self._check_query(query, city=True)
        return City(self._city.city(enc_query))
"""
GEO_NEW = GEO_OLD.replace(
    """        enc_query = self._check_query(query, city=True)
        return City(self._city.city(enc_query))""",
    """        response = self._query(query, require_city=True)
        region = response.subdivisions[0] if response.subdivisions else None
        return {"city": response.city.name, "region_code": region.iso_code if region else None}""",
)


@both
def test_a_member_of_a_moved_class_rewritten_is_that_class_member(
    upstream: Upstream, book: Book, history: bool
) -> None:
    """The class went to another module (its members with it); its own ``city`` there was rewritten."""
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/geo/__init__.py", "")
    upstream.write("pkg/geo/base.py", GEO_OLD)
    old = upstream.commit("v1")
    upstream.remove("pkg/geo/base.py")
    upstream.remove("pkg/geo/__init__.py")
    upstream.write("pkg/geo.py", GEO_NEW)
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.geo.base.GeoIP2.city", history=history) == (
        "pkg.geo.GeoIP2.city",
        "member of pkg.geo.GeoIP2, rewritten",
    )


# -- the same name in another module: moved, or a copy that took over
# --------------------------------

PROTO_OLD = """\
from pkg.lib import std_call, voidptr_output

register_all = voidptr_output(std_call("GDALAllRegister"), [], errcheck=False)
get_driver = voidptr_output(std_call("GDALGetDriver"), [c_int])
"""
DS_OLD = """\
from pkg.lib import lgdal, voidptr_output

get_driver = voidptr_output(lgdal.OGRGetDriver, [c_int])
"""


@both
def test_a_copy_removed_when_its_twin_took_over_its_lines(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/lib.py",
        "c_int = lgdal = None\n\n\ndef std_call(name):\n    return name\n\n\n"
        "def voidptr_output(func, argtypes, errcheck=True):\n    return func\n",
    )
    upstream.write("pkg/raster.py", PROTO_OLD)
    upstream.write("pkg/ds.py", DS_OLD)
    old = upstream.commit("v1")
    upstream.write("pkg/raster.py", "from pkg.lib import std_call, voidptr_output\n")
    upstream.write("pkg/ds.py", DS_OLD.replace("OGRGetDriver", "GDALGetDriver"))
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.raster.get_driver", history=history) == (
        "pkg.ds.get_driver",
        "same name, took over its lines",
    )


@both
def test_a_same_named_definition_that_changed_otherwise_did_not_take_over(
    upstream: Upstream, book: Book, history: bool
) -> None:
    """``ds.get_driver`` changed in the range, but to something the removed one did not say."""
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/lib.py",
        "c_int = lgdal = None\n\n\ndef std_call(name):\n    return name\n\n\n"
        "def voidptr_output(func, argtypes, errcheck=True):\n    return func\n",
    )
    upstream.write("pkg/raster.py", PROTO_OLD)
    upstream.write("pkg/ds.py", DS_OLD)
    old = upstream.commit("v1")
    upstream.write("pkg/raster.py", "from pkg.lib import std_call, voidptr_output\n")
    upstream.write("pkg/ds.py", DS_OLD.replace("OGRGetDriver", "OGRGetDriverV2"))
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.raster.get_driver", history=history) == (
        None,
        None,
    )


MOVED_METHOD = """\
    def render(self, name, value, attrs=None, renderer=None):
        context = self.get_context(name, value, attrs)
        template = self.template_name if renderer is None else renderer.template
        return self._render(template, context, renderer)
"""


@both
def test_a_method_moved_to_a_new_class_elsewhere_keeps_its_name(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/widgets.py", "class Widget:\n    def value(self):\n        return 1\n\n" + MOVED_METHOD
    )
    old = upstream.commit("v1")
    upstream.write("pkg/widgets.py", "class Widget:\n    def value(self):\n        return 1\n")
    upstream.write("pkg/renderers.py", "class RenderableMixin:\n" + MOVED_METHOD)
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.widgets.Widget.render", history=history) == (
        "pkg.renderers.RenderableMixin.render",
        "same name",
    )


@both
def test_a_deleted_method_is_not_a_new_one_of_its_name_elsewhere(
    upstream: Upstream, book: Book, history: bool
) -> None:
    """A ``render`` deleted, and a new class elsewhere whose ``render`` is only somewhat like it."""
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/widgets.py", "class Widget:\n    def value(self):\n        return 1\n\n" + MOVED_METHOD
    )
    old = upstream.commit("v1")
    upstream.write("pkg/widgets.py", "class Widget:\n    def value(self):\n        return 1\n")
    upstream.write(
        "pkg/renderers.py",
        "class Table:\n"
        + MOVED_METHOD.replace(
            "self.get_context(name, value, attrs)", "{'rows': self.rows, 'name': name}"
        ).replace("self._render(template, context, renderer)", "template.render(context)"),
    )
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.widgets.Widget.render", history=history) == (
        None,
        None,
    )


@both
def test_a_deprecation_class_of_one_release_is_not_the_next_ones(
    upstream: Upstream, book: Book, history: bool
) -> None:
    """``RemovedIn50Warning`` removed, ``RemovedIn60Warning`` added: similar lines, but two versions."""
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/deprecation.py",
        "class RemovedIn50Warning(DeprecationWarning):\n    pass\n\n\n"
        "class RemovedIn51Warning(PendingDeprecationWarning):\n    pass\n",
    )
    old = upstream.commit("v1")
    upstream.write(
        "pkg/deprecation.py",
        "class RemovedIn51Warning(DeprecationWarning):\n    pass\n\n\n"
        "class RemovedIn60Warning(PendingDeprecationWarning):\n    pass\n",
    )
    new = upstream.commit("v2")
    assert suggest(
        book, upstream, old, new, "pkg.deprecation.RemovedIn50Warning", history=history
    ) == (None, None)


# -- made private; a copy kept ---------------------------------------------------------------------

ARGUMENT = """\
class Argument:
    def __init__(self, obj, dest, nargs=1):
        self.dest = dest
        self.nargs = nargs
        self.obj = obj

    def process(self, value, state):
        if self.nargs > 1:
            holes = sum(1 for x in value if x is None)
            if holes == len(value):
                value = None
        state.opts[self.dest] = value
"""
ARGUMENT_NEW = """\
class _Argument:
    def __init__(self, obj: CoreArgument, dest: str | None, nargs: int = 1) -> None:
        self.dest: str | None = dest
        self.nargs: int = nargs
        self.obj: CoreArgument = obj

    def process(self, value: cabc.Sequence[str | None] | T_UNSET, state: _ParsingState) -> None:
        # We failed to collect any argument value, so we consider the argument as unset.
        if value == () or (isinstance(value, cabc.Sequence) and all(x is UNSET for x in value)):
            value = UNSET
        state.record(self.dest, value, origin=ParameterSource.COMMANDLINE)
"""


@both
def test_a_class_made_private_and_rewritten(upstream: Upstream, book: Book, history: bool) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/parser.py", ARGUMENT)
    old = upstream.commit("v1")
    upstream.write("pkg/parser.py", ARGUMENT_NEW)
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.parser.Argument", history=history) == (
        "pkg.parser._Argument",
        "same name, made private",
    )


@both
def test_a_private_namesake_in_another_module_is_not_made_private(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write("pkg/parser.py", ARGUMENT + "\n\nclass Option:\n    pass\n")
    old = upstream.commit("v1")
    upstream.write("pkg/parser.py", "class Option:\n    pass\n")
    upstream.write("pkg/shell.py", ARGUMENT_NEW)
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.parser.Argument", history=history) == (None, None)


VALIDATORS = """\
class DomainNameValidator:
    ul = "\\u00a1-\\uffff"  # Unicode letters range (must not be a raw string).
    units = "m"


class URLValidator:
{members}
    def __call__(self, value):
        return value
"""


@both
def test_a_duplicate_removed_points_to_the_copy_kept(
    upstream: Upstream, book: Book, history: bool
) -> None:
    upstream.write("pkg/__init__.py", "")
    upstream.write(
        "pkg/validators.py",
        VALIDATORS.format(
            members='    ul = "\\u00a1-\\uffff"  # Unicode letters range (must not be a raw string).\n    units = "m"\n'
        ),
    )
    old = upstream.commit("v1")
    upstream.write("pkg/validators.py", VALIDATORS.format(members=""))
    new = upstream.commit("v2")
    assert suggest(book, upstream, old, new, "pkg.validators.URLValidator.ul", history=history) == (
        "pkg.validators.DomainNameValidator.ul",
        "same name, a copy kept",
    )
    assert suggest(
        book, upstream, old, new, "pkg.validators.URLValidator.units", history=history
    ) == (None, None)


def test_renamed_tokens_are_the_patterns_on_real_definitions() -> None:
    """The tokens of the locked lines renamed, made from theirs, against renaming by the pattern and tokenizing."""
    import ast
    import re
    import sysconfig
    from pathlib import Path

    from source_anchors.suggest.elsewhere import _TOKENS, renamed_tokens

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    checked = 0
    for name in ("argparse.py", "textwrap.py", "difflib.py"):
        source = (stdlib / name).read_text("utf-8")
        lines = source.split("\n")
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) or node.end_lineno is None:
                continue
            text = "\n".join(line.strip() for line in lines[node.lineno - 1 : node.end_lineno])
            tell = renamed_tokens(text, _TOKENS.findall(text), node.name)
            if tell is None:
                continue
            for other in ("renamed", node.name.upper(), "_" + node.name, "Ünïcode", "self"):
                assert tell(other) == _TOKENS.findall(
                    re.sub(rf"\b{re.escape(node.name)}\b", other, text).casefold()
                )
                checked += 1
    assert checked > 1000
    assert renamed_tokens("def é(): pass", ["def", "é", "(", ")", ":", "pass"], "é") is None
