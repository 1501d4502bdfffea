"""Chinese line breaking (shuangsheng.render.linebreak), the one rule of the help pages and the printed pages."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shuangsheng.render.linebreak import (
    NO_LINE_END,
    NO_LINE_START,
    break_lines,
    breakable,
    can_break,
    forbidden,
    pressing,
)
from shuangsheng.vocabulary.text import width


def columns(text: str, n: int) -> list[str]:
    return break_lines(text, width, [n])


def test_closing_marks_never_start_and_opening_marks_never_end_a_line():
    for mark in "，。、；：？！…）】」』》〉”’":
        assert mark in NO_LINE_START
    for mark in "（【「『《〈“‘":
        assert mark in NO_LINE_END
    assert columns("比赛（第一轮）。", 12) == ["比赛", "（第一轮）。"]  # a short aside stays whole
    assert columns("（第一轮）。", 8) == ["（第一", "轮）。"]  # unless it is longer than the line
    assert columns("一二三四（五）", 10) == ["一二三四", "（五）"]


def test_ascii_words_numbers_file_names_and_options_stay_whole():
    assert not can_break("t", ".") and not can_break(".", "t") and not can_break("-", "-") and not can_break("2", "0")
    assert columns("请打开 event.toml 核对", 16) == ["请打开 ", "event.toml 核对"]
    assert columns("运行 draw --force 重抽", 14) == ["运行 ", "draw --force ", "重抽"]  # a command stays whole
    assert columns("开始 12:30 结束", 9) == ["开始 ", "12:30 ", "结束"]


def test_team_ids_tables_levels_and_asides_stay_whole():
    assert columns("甲方是第09组", 10) == ["甲方是", "第09组"]
    assert columns("请到第112桌就座", 10)[1].startswith("第112桌")
    assert columns("双方同为10级", 10) == ["双方同为", "10级"]
    assert columns("打过A级为胜", 6)[0] == "打"  # 过A and A级 hold together
    assert columns("抠底倍数填×2、×4", 12)[1].startswith("×2")
    assert columns("也可电话报名，报名电话：2973620）", 30)[1].endswith("：2973620）")  # a label with its number
    assert columns("第09组胜（加赛1局）", 16) == ["第09组胜", "（加赛1局）"]
    assert not breakable("第09组", 1) and not breakable("第09组", 3) and breakable("甲第09组", 1)


def test_a_paragraph_never_ends_with_one_character_alone():
    assert columns("一二三四五六七八九", 16) == ["一二三四五六", "七八九"]
    assert columns("一二三四五六七八九。", 16) == ["一二三四五六七", "八九。"]
    assert columns("一二三四五六七，八", 16) == ["一二三四五六", "七，八"]  # never ，at a line start
    assert columns("一二三四五六七八九十", 10) == ["一二三四五", "六七八九十"]  # two characters are fine


def test_a_space_at_a_break_is_dropped_and_nothing_else():
    assert columns("abc def", 4) == ["abc ", "def"]


def test_first_line_and_later_lines_may_differ():
    assert break_lines("一二三四五六", width, [4, 8]) == ["一二", "三四五六"]


def test_a_character_wider_than_the_line_gets_a_line_of_its_own():
    assert columns("甲对", 1) == ["甲", "对"]


@given(st.text(alphabet="一二三（）“”，。、ab1.-第组级桌:", max_size=60), st.integers(min_value=6, max_value=30))
def test_every_character_kept_lines_fit_and_a_line_breaks_against_the_rules_only_when_no_break_would(text, n):
    lines = columns(text, n)
    assert "".join(lines) == text
    assert all(width(line) <= n for line in lines)
    no = forbidden(text)
    start = 0
    for line in lines[:-1]:
        end = start + len(line)
        if end in no:  # against the rules only where the line held no allowed break at all
            assert all(k in no for k in range(start + 2, end + 1)), (text, lines)
        start = end


def test_numbers_ranges_levels_words_and_an_id_with_its_names_stay_whole():
    assert columns("并比照第十四条罚分", 12) == ["并比照", "第十四条罚分"]  # not 第十 / 四条
    assert columns("一二三四五六七八九", 16)[0] == "一二三四五六"  # a list of numerals may still break
    assert columns("如六零七八60–75分", 14) == ["如六零七八", "60–75分"]
    assert columns("如六零七100–115分", 14) == ["如六零七", "100–115分"]
    assert columns("从台下得分−40–−25起", 14)[1].startswith("−40–−25")
    assert columns("第08组打过A获胜", 12) == ["第08组", "打过A获胜"]
    assert columns("比赛的队员：第08组（余桂兰、赵振华）", 24) == ["比赛的队员：", "第08组（余桂兰、赵振华）"]
    assert columns("报名，报名电话：2973620", 14)[0] == "报名，报名"  # not 电 / 话
    assert columns("每张减十分。罚分后台下方得分", 24) == ["每张减十分。罚分后", "台下方得分"]  # never 后台


def test_marks_are_pressed_to_keep_a_closing_mark_on_its_line():
    text = "一，二，三四五六，七八甲乙"
    assert columns(text, 16) == ["一，二，三四五", "六，七八甲乙"]  # as set: 六 carried over with the mark
    pressed = break_lines(text, width, [16], squeeze=True)
    assert pressed == ["一，二，三四五六，", "七八甲乙"]  # the two ， pressed to half make room for 六，
    assert width(pressed[0]) == 18 and pressing(pressed[0], width, 16) == [0, 1, 0, 1, 0, 0, 0, 0, 0]
    assert pressing("一二三，", width, 8) == [0, 0, 0, 0]  # fits: nothing pressed
    assert break_lines("一二三四五六七八，九", width, [16], squeeze=True)[0] == "一二三四五六七"  # no mark to press
