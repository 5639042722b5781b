"""The change classifier: what a ``changed`` anchor's lines went through (pure, no git, no Sphinx)."""

from __future__ import annotations

import argparse
import difflib
import inspect
import io
import pathlib
import re
import textwrap
import tokenize

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from source_anchors.model.changeclass import ChangeClass, parse_classes, valid_classes
from source_anchors.reading.python.changes import classify

METHOD = '''
    @functools.lru_cache(maxsize=None)
    @staticmethod
    def delta(items: List[str], limit: Optional[int] = None) -> Dict[str, int]:
        """Count the items.

        Up to *limit* of them.
        """
        counts: Dict[str, int] = {}
        for item in items[:limit]:  # the first ones
            counts[item] = counts.get(item, 0) + 1
        return counts
'''


def lines(text: str) -> list[str]:
    """The lines of *text* as an anchor holds them (leading newline dropped)."""
    return text.lstrip("\n").rstrip("\n").split("\n")


def edit(text: str, *pairs: tuple[str, str]) -> list[str]:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return lines(text)


def test_classes_are_ordered_code_first() -> None:
    assert list(ChangeClass) == ["code", "annotations", "comments", "formatting"]
    assert [c.rank for c in ChangeClass] == [0, 1, 2, 3]
    assert valid_classes() == "formatting, comments, annotations, code"


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        # Formatting: whitespace, line breaks, quotes, trailing commas, a re-indented block.
        ((("counts.get(item, 0) + 1", "counts.get(item,0)+1"),), "formatting"),
        (
            (
                (
                    "def delta(items: List[str], limit: Optional[int] = None)",
                    "def delta(\n        items: List[str],\n        limit: Optional[int] = None,\n    )",
                ),
            ),
            "formatting",
        ),
        ((("maxsize=None", "maxsize = None"), ("counts: Dict", "counts:  Dict")), "formatting"),
        # Comments and docstrings.
        ((("# the first ones", "# the leading ones"),), "comments"),
        ((("Up to *limit* of them.", "At most *limit* of them."),), "comments"),
        (
            (('        """Count the items.\n\n        Up to *limit* of them.\n        """\n', ""),),
            "comments",
        ),
        (
            (("# the first ones", "# the leading ones"), ("items[:limit]", "items[ : limit]")),
            "comments",
        ),
        # Annotations, modernised (with comments and formatting changed too).
        ((("Optional[int]", "int | None"),), "annotations"),
        ((("List[str]", "list[str]"), ("Dict[str, int]", "dict[str, int]")), "annotations"),
        (
            (("-> Dict[str, int]", "-> dict[str,int]"), ("# the first ones", "# first")),
            "annotations",
        ),
        ((("counts: Dict[str, int] = {}", "counts: dict[str, int] = {}"),), "annotations"),
        # Code: a real change, also beside annotation and comment changes.
        ((("+ 1", "+ 2"),), "code"),
        ((("Optional[int]", "int | None"), ("+ 1", "+ 2")), "code"),
        ((("maxsize=None", "maxsize=128"),), "code"),
        ((("    @staticmethod\n", ""),), "code"),
        (
            (
                (
                    "counts[item] = counts.get(item, 0) + 1\n        return counts",
                    "counts[item] = counts.get(item, 0) + 1\n            return counts",
                ),
            ),
            "code",
        ),  # return inside the loop
    ],
)
def test_a_method_with_decorators(pairs: tuple[tuple[str, str], ...], expected: str) -> None:
    assert classify(lines(METHOD), edit(METHOD, *pairs)) == expected


def test_indentation_of_the_whole_excerpt_is_formatting() -> None:
    moved_into_a_class = textwrap.indent(textwrap.dedent(METHOD), "    ")
    assert classify(lines(METHOD), lines(moved_into_a_class)) == "formatting"
    two_spaces = METHOD.replace("        ", "\t").replace("    ", "  ").replace("\t", "    ")
    assert (
        classify(lines(METHOD), lines(two_spaces)) == "formatting"
    )  # docstring lines re-indented alike


CLAUSE = """
    elif y == 1:
        # one of them
        return "one"
"""


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ((('"one"', "'one'"),), "formatting"),
        ((("y == 1", "(y == 1)"),), "formatting"),
        ((("# one of them", "# the first"),), "comments"),
        ((("y == 1", "y == 2"),), "code"),
        ((("elif", "if"),), "code"),
    ],
)
def test_a_clause_that_does_not_parse_alone(
    pairs: tuple[tuple[str, str], ...], expected: str
) -> None:
    assert classify(lines(CLAUSE), edit(CLAUSE, *pairs)) == expected


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("    if x:\n        a()\n    b()", "    if x:\n        a()\n        b()", "code"),
        ("if x:\n    a()", "if x:\n  a()", "formatting"),
        (
            "    except KeyError:\n        pass",
            "    except KeyError:  # absent\n        pass",
            "comments",
        ),
        (
            "    except KeyError:\n        pass",
            "    except (KeyError, IndexError):\n        pass",
            "code",
        ),
        ("    case [x]:\n        f(x)", "    case [x]:\n        f( x )", "formatting"),
        ("    finally:\n        close()", "    finally:\n        close(1)", "code"),
    ],
)
def test_clauses_and_blocks(old: str, new: str, expected: str) -> None:
    assert classify(old, new) == expected


def test_an_if_clause_with_its_body() -> None:
    old = ["    if limit is not None:", "        items = items[:limit]  # cut", "    return items"]
    assert (
        classify(old, [old[0], "        items = items[:limit]  # keep the first", old[2]])
        == "comments"
    )
    assert (
        classify(old, [old[0], "        items = items[: limit]", old[2]]) == "comments"
    )  # comment gone
    assert classify(old, [old[0], "        items = items[:limit - 1]", old[2]]) == "code"


def test_excerpts_that_do_not_parse_are_compared_by_tokens() -> None:
    # It tokenizes, but a generator beside another argument must be parenthesized.
    old_text = '    g(x for x in y,\n      "a")  # why'
    assert classify(old_text, old_text.replace("# why", "# because")) == "comments"
    assert (
        classify(old_text, old_text.replace('"a"', "'a'")) == "code"
    )  # a token differs, no tree says why
    assert classify(old_text, old_text.replace("  # why", "   # why")) == "formatting"
    # A docstring found by tokens: a lone string first in its block, after a line ending in ':'.
    broken = 'def f() ->:\n    """Doc."""\n    return 1'
    assert classify(broken, broken.replace("Doc.", "Docs.")) == "comments"
    assert classify(broken, broken.replace("return 1", "return 2")) == "code"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("x = f(1,", "x = f(1,  "),  # a bracket never closed
        ('s = """open', 's = """open '),  # a string never closed
        ("def f():\n    return 1", "def f(:\n    return 1"),  # one side no longer parses
        ("if x:\n        a\n    b", "if x:\n        a\n    b "),  # a dedent to no outer level
    ],
)
def test_excerpts_that_do_not_tokenize_or_stop_parsing_are_code(old: str, new: str) -> None:
    assert classify(old, new) == "code"


def test_annotations_of_arguments_returns_and_assignments() -> None:
    old = "async def f(a: int, /, *args: str, k: 'T' = 1, **kw: Any) -> None:\n    x: int = 1\n    return x"
    new = "async def f(a: float, /, *args: bytes, k: T = 1, **kw: object) -> int:\n    x: float = 1\n    return x"
    assert classify(old, new) == "annotations"
    assert classify(old, new.replace("x: float = 1", "x: float = 2")) == "code"
    assert classify(old, new.replace("k: T = 1", "k = 1")) == "annotations"  # an annotation removed


def test_a_module_docstring_and_a_class_docstring() -> None:
    old = '"""Module."""\n\nclass A:\n    """A class."""\n\n    x = 1'
    assert classify(old, old.replace("Module.", "The module.")) == "comments"
    assert classify(old, old.replace("A class.", "The class.")) == "comments"
    assert (
        classify(old, old.replace("x = 1", "x = '''A class.'''")) == "code"
    )  # a string that is no docstring


def test_non_python_text_is_formatting_or_code() -> None:
    old = ["[tool.x]", "name  =  'a'", ""]
    assert classify(old, ["[tool.x]", "name = 'a'"], python=False) == "formatting"
    assert classify(old, ["[tool.x]", "name = 'b'"], python=False) == "code"
    assert classify("# a", "# b", python=False) == "code"  # no comments outside Python


def test_parse_classes() -> None:
    assert parse_classes("annotations") == {ChangeClass.annotations}
    assert parse_classes(" formatting, comments ,") == {
        ChangeClass.formatting,
        ChangeClass.comments,
    }
    with pytest.raises(ValueError, match="unknown change class 'typo'"):
        parse_classes("formatting,typo")
    with pytest.raises(ValueError, match="unknown change classes 'a', 'b'"):
        parse_classes("a,b")
    with pytest.raises(ValueError, match="no change class"):
        parse_classes(",")


def test_clause_keywords_are_found_without_a_space() -> None:
    assert classify("elif(x):\n    a()", "elif(x):\n    a( )") == "formatting"
    assert (
        classify("except(KeyError):\n    a()", "except(KeyError):  # no key\n    a()") == "comments"
    )


def test_no_warning_for_an_invalid_escape(recwarn: pytest.WarningsRecorder) -> None:
    assert classify('x = "\\d"', 'x = "\\d"  # digit') == "comments"
    assert not recwarn.list


@pytest.mark.parametrize(
    "terms", [500, 2000, 20000]
)  # a tree too deep to walk; then too deep to parse
def test_deep_trees_are_compared_by_tokens(terms: int) -> None:
    deep = "x = " + " + ".join(["1"] * terms)
    assert classify(deep, deep.replace("1", "2", 1)) == "code"
    assert classify(deep, deep + "  # deep") == "comments"
    assert classify(deep, deep.replace(" + ", "+")) == "formatting"


@settings(max_examples=300, database=None, deadline=None)
@given(
    st.text(alphabet="ab ():#\"'\n\t=elifdeftry", max_size=60),
    st.text(alphabet="ab ():#\"'\n=", max_size=60),
)
def test_classify_never_raises_and_equal_text_is_formatting(old: str, new: str) -> None:
    assert classify(old, new) in set(ChangeClass)
    assert classify(old, new, python=False) in {"formatting", "code"}
    if classify(old, old) is not ChangeClass.code:  # an excerpt that tokenizes
        assert classify(old, old) == "formatting"


#: Strings holding comment signs, quotes and keywords; comments holding quotes; a string continued
#: by a backslash.
TRICKY = (
    "\n".join(
        [
            "import os  # a comment with 'quotes' and \"return\"",
            'x = \'a # not a comment\' + "it\'s" + r\'\\\\\' + b"\\"return\\""  # after strings',
            'y = """a docstring with \'\'\' and \\""" and # and',
            'return and class"""',
            'z = f"{x!r:#>10}" + f\'{"raise"}\' + \'two\\',
            "lines # still a string'",
            'def f(a: "int" = 1) -> None:',
            "    try:",
            "        del a  # del",
            "    except* (KeyError,):",
            "        raise",
            "    finally:",
            "        return  # return",
            "class C: pass  # noqa",
            "while 0: break",
        ]
    )
    + "\n"
)


@pytest.mark.parametrize(
    "source",
    [
        TRICKY,
        *(
            pathlib.Path(str(module.__file__)).read_text("utf-8")
            for module in (textwrap, tokenize, difflib, inspect, argparse)
        ),
    ],
)
def test_comments_and_statement_keywords_by_pattern_are_the_tokenizer_s(source: str) -> None:
    # A source that parses, before Python 3.12, is read for its comments and statement keywords by a
    # pattern, not the (slow) tokenizer: both must find the same.
    from source_anchors.reading.python.changes import _READ_BY_PATTERN, _STATEMENTS, _Excerpt

    if not _READ_BY_PATTERN:
        pytest.skip("from Python 3.12 the tokenizer reads them (f-strings nest)")
    excerpt = _Excerpt.read(source)
    assert excerpt.tree is not None
    toks = list(tokenize.generate_tokens(io.StringIO(excerpt.source).readline))
    words = set(re.findall(r"[a-z]+", _STATEMENTS.pattern.replace("(?:", " "))) - {"b"}
    assert excerpt.pattern_comments == [
        t.string.rstrip() for t in toks if t.type == tokenize.COMMENT
    ]
    assert excerpt.statements == [
        t.string for t in toks if t.type == tokenize.NAME and t.string in words
    ]
    assert excerpt.statements  # the sources hold statements


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("def f():\n    return 1", "def f():\n    raise 1", "code"),  # both parse
        ("def f():\n    return 1", "def f(:\n    raise 1", "code"),  # one parses
        (
            "def f(:\n    return 1",
            "def f(:\n    raise 1",
            "code",
        ),  # neither parses: the tokens differ
        (
            'def f():\n    """Doc."""',
            "def f():\n    pass",
            "comments",
        ),  # pass is not a statement keyword here
        (
            "if a:\n    b()\nelif c:\n    d()",
            "if a:\n    b()\nelse:\n    if c:\n        d()",
            "formatting",
        ),
    ],
)
def test_statement_keywords_decide_code_only_when_one_side_parses(
    old: str, new: str, expected: str
) -> None:
    assert classify(old, new) == expected
