"""shuangsheng.storage.workbook.parsers: the lenient cell parsers accept what people really type and refuse the rest."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuangsheng.game.levels import Level, Side
from shuangsheng.storage.workbook import parse_capture, parse_flag, parse_level, parse_points, parse_side

A, B = Side.A, Side.B


FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def _render_number(n: int, form: int, suffix: str) -> object:
    text = str(n)
    return [n, float(n), text, text.translate(FULLWIDTH), f" {text} ", f"{text}{suffix}", f"{text.translate(FULLWIDTH)} {suffix}",
            f"\u3000{text}\u3000"][form]


@given(st.integers(0, 40).map(lambda k: 5 * k), st.integers(0, 7))
def test_any_point_value_in_any_accepted_form_parses_back(n, form):
    assert parse_points(_render_number(n, form, "分")) == n


@given(st.integers(0, 40).map(lambda k: 5 * k), st.integers(0, 7))
def test_trick_points_read_as_points_but_blank_is_no_value(n, form):
    from shuangsheng.storage.workbook.parsers import parse_trick_points

    assert parse_trick_points(_render_number(n, form, "分")) == n
    assert [parse_trick_points(raw) for raw in (None, "", " ", "\u3000")] == [None] * 4
    assert parse_points(None) == 0  # 底牌分: blank is 0


@given(st.integers(0, 200).filter(lambda n: n % 5), st.integers(0, 7))
def test_points_not_a_multiple_of_5_are_refused(n, form):
    with pytest.raises(ValueError):
        parse_points(_render_number(n, form, "分"))


@given(st.integers(1, 5).map(lambda k: 2**k), st.sampled_from(["{}", "×{}", "x{}", "X{}", "ｘ{}", "*{}", "{}倍", " × {} 倍 ", "{}.0"]),
       st.booleans())
def test_any_capture_multiplier_spelling_parses_back(n, template, fullwidth):
    text = template.format(n)
    if fullwidth:
        text = text.translate(FULLWIDTH)
    assert parse_capture(text) == n
    assert parse_capture(n) == n


@pytest.mark.parametrize("raw", ["3", "×1", "x", "6倍", "四倍", 2.5, True, "×-4"])
def test_capture_refuses_what_is_not_a_power_of_two(raw):
    with pytest.raises(ValueError):
        parse_capture(raw)


@pytest.mark.parametrize("raw,expected", [
    ("是", True), ("√", True), ("✓", True), ("Y", True), ("y", True), ("yes", True), (1, True), (True, True),
    ("Ｙ", True), (None, False), ("", False), ("否", False), ("N", False), (0, False), (False, False),
])
def test_flag_spellings(raw, expected):
    assert parse_flag(raw) is expected


@pytest.mark.parametrize("raw", ["可能", "×", 2, "是的吧"])
def test_flag_refuses_other_text(raw):
    with pytest.raises(ValueError):
        parse_flag(raw)


@given(st.sampled_from([(A, "甲"), (B, "乙")]), st.sampled_from(["{}", "{}方", " {} ", "{}\u3000方"]))
def test_side_spellings(pair, template):
    side, cn = pair
    assert parse_side(template.format(cn)) is side


@pytest.mark.parametrize("raw,expected", [(2, Level.TWO), (10.0, Level.TEN), ("１０", Level.TEN), ("j", Level.JACK),
                                          ("A", Level.ACE), ("K级", Level.KING), (None, None)])
def test_level_spellings(raw, expected):
    assert parse_level(raw) is expected
