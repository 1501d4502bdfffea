"""Chinese line breaking (scoring.linebreak), the one rule of the help pages and the printed pages."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.linebreak import NO_LINE_END, NO_LINE_START, break_lines, can_break
from scoring.text import width


def columns(text: str, n: int) -> list[str]:
    return break_lines(text, width, [n])


def test_closing_marks_never_start_and_opening_marks_never_end_a_line():
    for mark in "，。、；：？！…）】」』》〉”’":
        assert mark in NO_LINE_START
    for mark in "（【「『《〈“‘":
        assert mark in NO_LINE_END
    assert columns("比赛（第一轮）。", 12) == ["比赛（第一", "轮）。"]
    assert columns("一二三四（五）", 10) == ["一二三四", "（五）"]


def test_ascii_words_numbers_file_names_and_options_stay_whole():
    assert not can_break("t", ".") and not can_break(".", "t") and not can_break("-", "-") and not can_break("2", "0")
    assert columns("请打开 event.toml 核对", 16) == ["请打开 ", "event.toml 核对"]
    assert columns("运行 draw --force 重抽", 14) == ["运行 draw ", "--force 重抽"]


def test_a_space_at_a_break_is_dropped_and_nothing_else():
    assert columns("abc def", 4) == ["abc ", "def"]


def test_first_line_and_later_lines_may_differ():
    assert break_lines("一二三四五六", width, [4, 8]) == ["一二", "三四五六"]


def test_a_character_wider_than_the_line_gets_a_line_of_its_own():
    assert columns("甲对", 1) == ["甲", "对"]


@given(st.text(alphabet="一二三（）“”，。、ab1.-", max_size=60), st.integers(min_value=6, max_value=30))
def test_every_character_kept_lines_fit_and_a_line_breaks_against_the_rules_only_when_full(text, n):
    lines = columns(text, n)
    assert "".join(lines) == text
    assert all(width(line) <= n for line in lines)
    for before, after in zip(lines, lines[1:], strict=False):
        assert can_break(before[-1], after[0]) or width(before) + width(after[0]) > n
