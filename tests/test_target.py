"""Tests for ``source_anchors.model.target``: the ``[repo:]dotted.path[::match text]`` grammar (pure)."""

from __future__ import annotations

import pytest
from source_anchors.markup.labels import split_label
from source_anchors.model.errors import SourceAnchorsError, TargetError
from source_anchors.model.target import Target, parse_target

# -- valid forms ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "default_repo", "expected"),
    [
        # Bare dotted paths take the default repository.
        ("pkg", "up", Target("up", "pkg")),
        ("pkg.a.b", "up", Target("up", "pkg.a.b")),
        ("pkg.Class.__init__", "up", Target("up", "pkg.Class.__init__")),
        ("pkg._private.x1", "up", Target("up", "pkg._private.x1")),
        (
            "pkg.名前",
            "up",
            Target("up", "pkg.名前"),
        ),  # non-ASCII identifiers are Python identifiers
        # An explicit repository wins over the default and needs none.
        ("repo:pkg.a", None, Target("repo", "pkg.a")),
        ("repo:pkg.a", "up", Target("repo", "pkg.a")),
        ("my-repo.v2_x:pkg.a", None, Target("my-repo.v2_x", "pkg.a")),
        ("9lives:pkg", None, Target("9lives", "pkg")),
        # Match text: everything after the first '::', stripped.
        ("pkg.f::some text", "up", Target("up", "pkg.f", "some text")),
        ("pkg.f::   padded text   ", "up", Target("up", "pkg.f", "padded text")),
        ("repo:pkg.f::if x:", None, Target("repo", "pkg.f", "if x:")),
        # Later '::' belong to the match text.
        ("repo:pkg.f::a::b", None, Target("repo", "pkg.f", "a::b")),
        ("pkg.f::x[::2]", "up", Target("up", "pkg.f", "x[::2]")),
        ("pkg.f::d = {a: 1}", "up", Target("up", "pkg.f", "d = {a: 1}")),
        # Surrounding whitespace is not part of anything.
        ("  \tpkg.a.b \n", "up", Target("up", "pkg.a.b")),
        (" repo : pkg.a ", None, Target("repo", "pkg.a")),
    ],
)
def test_parse_valid(text: str, default_repo: str | None, expected: Target) -> None:
    assert parse_target(text, default_repo=default_repo) == expected


@pytest.mark.parametrize(
    ("target", "key", "shown"),
    [
        (Target("up", "pkg.a"), "pkg.a", "up:pkg.a"),
        (Target("up", "pkg.f", "a::b"), "pkg.f::a::b", "up:pkg.f::a::b"),
    ],
)
def test_key_and_str_round_trip(target: Target, key: str, shown: str) -> None:
    assert target.key == key
    assert str(target) == shown
    assert parse_target(str(target), default_repo=None) == target


def test_limit_is_inclusive_and_measured_after_stripping() -> None:
    path = "pkg." + "a" * 996  # exactly 1000 characters
    assert len(path) == 1000
    assert parse_target(f"  {path}  ", default_repo="up") == Target("up", path)


# -- errors -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "default_repo", "message_part"),
    [
        # Empty or only whitespace.
        ("", "up", "empty anchor target"),
        ("   \t\n ", "up", "empty anchor target"),
        # '::' with nothing (or only spaces) after it.
        ("pkg.f::", "up", "nothing after '::'"),
        ("pkg.f::   ", "up", "nothing after '::'"),
        ("repo:pkg.f::", None, "nothing after '::'"),
        # Match text on several lines.
        ("pkg.f::first\nsecond", "up", "spans several lines"),
        # Repository prefixes that are not repository names.
        ("bad repo:pkg.a", None, "invalid repository name 'bad repo'"),
        (":pkg.a", "up", "invalid repository name ''"),
        ("-x:pkg.a", None, "invalid repository name '-x'"),
        ("_x:pkg.a", None, "invalid repository name '_x'"),
        ("re/po:pkg.a", None, "invalid repository name 're/po'"),
        # A repository but no path.
        ("repo:", None, "no dotted path"),
        ("repo:   ::text", None, "no dotted path"),
        # Empty parts: '..', leading or trailing dot.
        ("pkg..a", "up", "an empty part is not a Python identifier"),
        (".pkg.a", "up", "an empty part is not a Python identifier"),
        ("pkg.a.", "up", "an empty part is not a Python identifier"),
        ("repo:pkg..a::text", None, "an empty part is not a Python identifier"),
        # Parts that are not identifiers.
        ("pkg.1a", "up", "'1a' is not a Python identifier"),
        ("pkg.a-b", "up", "'a-b' is not a Python identifier"),
        ("pkg.a b", "up", "'a b' is not a Python identifier"),
        ("pkg.f()", "up", "'f()' is not a Python identifier"),
        ("pkg/mod.py", "up", "'pkg/mod' is not a Python identifier"),
        ("a:b:c", None, "'b:c' is not a Python identifier"),
        # No repository prefix and no default.
        ("pkg.a", None, "no repository for 'pkg.a'"),
        ("pkg.a", "", "no repository for 'pkg.a'"),
        ("pkg.f::text", None, "no repository for 'pkg.f::text'"),
    ],
)
def test_parse_errors(text: str, default_repo: str | None, message_part: str) -> None:
    with pytest.raises(TargetError) as caught:
        parse_target(text, default_repo=default_repo)
    assert message_part in str(caught.value)
    assert isinstance(caught.value, SourceAnchorsError)


def test_no_repository_message_says_how_to_give_one() -> None:
    with pytest.raises(TargetError) as caught:
        parse_target("pkg.a", default_repo=None)
    message = str(caught.value)
    assert "'repo:pkg.a'" in message
    assert "source-repo" in message
    assert "source_anchors_default_repo" in message


@pytest.mark.parametrize(
    "text",
    [
        "pkg." + "a" * 997,  # 1001 characters of path
        "up:pkg.f::" + "x" * 1000,  # a long match text
        "  " + "pkg." + "b" * 2000 + "  ",
    ],
)
def test_too_long(text: str) -> None:
    length = len(text.strip())
    assert length > 1000
    with pytest.raises(TargetError) as caught:
        parse_target(text, default_repo="up")
    assert f"is {length} characters long" in str(caught.value)
    assert "limit is 1000" in str(caught.value)


def test_error_message_quotes_the_text() -> None:
    with pytest.raises(TargetError) as caught:
        parse_target("up:pkg.bad-part::x", default_repo=None)
    assert "'pkg.bad-part'" in str(caught.value)


# -- split_label ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A bare target is its own label.
        ("pkg.a.b", ("pkg.a.b", "pkg.a.b")),
        ("  up:pkg.f::x  ", ("up:pkg.f::x", "up:pkg.f::x")),
        # ``label <target>``.
        ("the entry point <pkg.a.b>", ("the entry point", "pkg.a.b")),
        ("研究入口 <up:pkg.f::if x:>", ("研究入口", "up:pkg.f::if x:")),
        ("  label   <  pkg.a  >  ", ("label", "pkg.a")),
        # An empty label falls back to the target.
        ("<pkg.a>", ("pkg.a", "pkg.a")),
        ("   <pkg.a>", ("pkg.a", "pkg.a")),
        # Sphinx's convention (issue 13): the first unescaped '<' opens the target, which may hold
        # '<' and '>'; a '<' in the label is written '\<' (docutils marks it with NUL, MyST keeps
        # the backslash).
        ("a < b <pkg.a>", ("a", "b <pkg.a")),
        ("a \x00< b <pkg.a>", ("a < b", "pkg.a")),
        ("a \\< b <pkg.a>", ("a < b", "pkg.a")),
        ("conv <pkg.mod.f::{'pk': <IntConverter>", ("conv", "pkg.mod.f::{'pk': <IntConverter")),
        ("f <pkg.f::if 0 <= i < n:>", ("f", "pkg.f::if 0 <= i < n:")),
        (
            "pkg.f::if 0 <= index < self.layer_count:",
            ("pkg.f::if 0 <= index < self.layer_count:",) * 2,
        ),
        ("pkg.f::?P\\<exponent1>", ("pkg.f::?P<exponent1>", "pkg.f::?P<exponent1>")),
        ("pkg.f::?P\x00<exponent1>", ("pkg.f::?P<exponent1>", "pkg.f::?P<exponent1>")),
        # A '<' without a closing '>' at the end is no target.
        ("x < y", ("x < y", "x < y")),
        ("<pkg.a> trailing", ("<pkg.a> trailing", "<pkg.a> trailing")),
    ],
)
def test_split_label(text: str, expected: tuple[str, str]) -> None:
    assert split_label(text) == expected


def test_split_label_then_parse() -> None:
    label, target = split_label("Hybrid branch <up:pkg.mod.f::ReportSource.Hybrid.value>")
    assert label == "Hybrid branch"
    assert parse_target(target, default_repo=None) == Target(
        "up", "pkg.mod.f", "ReportSource.Hybrid.value"
    )
