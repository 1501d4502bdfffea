"""Chinese line breaking (shuangsheng.render.linebreak), the one rule of the help pages and the printed pages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuangsheng.render.linebreak import (
    KEEP,
    NO_LINE_END,
    NO_LINE_START,
    break_lines,
    breakable,
    can_break,
    forbidden,
    gives,
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
        if end in no:  # against the rules only where the line held no allowed break at all (but one that would
            allowed = [k for k in range(start + 2, end + 1) if k not in no]  # leave a character alone on its line)
            assert all(weight(text[start:k]) <= 1 for k in allowed), (text, lines)
        start = end


def weight(line: str) -> int:
    """A line's characters that are neither marks nor spaces."""
    return sum(1 for ch in line if ch != " " and ch not in NO_LINE_START and ch not in NO_LINE_END)


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
    assert width(pressed[0]) == 18
    assert pressing(pressed[0], width, 16) == [(0, 0), (0, 1), (0, 0), (0, 1)] + [(0, 0)] * 5  # on their right
    assert pressing("一二三，", width, 8) == [(0, 0)] * 4  # fits: nothing pressed
    assert break_lines("一二三四五六七八，九", width, [16], squeeze=True)[0] == "一二三四五六七"  # no mark to press


def test_marks_are_pressed_only_where_their_glyph_is_blank():
    """Issue 34's sign-off review: in WenQuanYi Micro Hei （ ） ！ ？ are centred in their em, so pressing （ on its
    left alone put it against the character before and opened a gap inside. A mark gives the blank really there
    beside its ink (`blanks`, from the font) less `KEEP` on each side, at most half its width in all."""
    centred = {"（": (0.38, 0.27), "）": (0.27, 0.38), "！": (0.44, 0.44), "，": (0.16, 0.68)}
    blanks = centred.get
    left, right = gives("（", 1.0, blanks)
    assert left == pytest.approx(0.38 - KEEP) and right == pytest.approx(0.27 - KEEP)  # both sides, its own shares
    assert gives("！", 1.0, blanks) == pytest.approx((0.25, 0.25))  # centred: a quarter each side (capped at half)
    assert sum(gives("，", 1.0, blanks)) == pytest.approx(0.5) and gives("，", 1.0, blanks)[0] < 0.1
    assert gives("（", 2.0) == (1.0, 0.0) and gives("）", 2.0) == (0.0, 1.0)  # no font: the usual design
    assert gives("明", 2.0, blanks) == (0.0, 0.0)
    line = "说明（罚分）：好"
    press = pressing(line, lambda ch: 1.0, 7.5, blanks)
    assert sum(a + b for a, b in press) == pytest.approx(0.5)
    assert press[2][0] > 0 and press[2][1] > 0 and press[5][0] > 0 and press[5][1] > 0  # both sides of each bracket


def test_the_typesetters_second_look_words_levels_and_short_lists_stay_whole():
    """Issue 34's review: 到/场时间, 抽/签方式, 才/能通过, 加/一级, 升/一级, 降至2、/J，, 第1、2……/桌）, 签号1与/2,
    and 级 alone on a line before an aside too long for the column."""
    def ends(text: str, n: int) -> list[str]:
        lines = columns(text, n)
        assert "".join(lines) == text
        return lines

    assert not any(line.endswith("到") for line in ends("请写上到场时间", 6))
    assert not any(line.endswith("抽") for line in ends("以淘汰赛抽签方式确定对手", 10))
    assert not any(line.endswith("才") for line in ends("必打级只有保庄才能通过", 14))
    assert not any(line.endswith(("加", "升")) for line in ends("再按每满二十分加一级", 18))
    assert not any(line.endswith(("加", "升")) for line in ends("不够时先升一级再算", 8))
    assert not any(line.endswith("、") for line in ends("打J、A时降至2、J，对方不升级", 15))
    assert not any(line.startswith("桌") for line in ends("对阵（依次为第1、2……桌）", 20))
    assert not any(line.endswith("至") for line in ends("第1轮至第3轮、第3轮至第5轮、第5轮至第7轮（决赛）", 16))
    assert breakable("（依次为第1、2……桌）", 7) and not breakable("降至2、J，", 4)  # an open list may break after 、
    assert not any(line.endswith("与") for line in ends("签号1与2、3与4对阵", 7))
    assert all(len(line) > 1 for line in ends("罚升5级遇必打级（第十三、十四条）", 14))


def test_a_numeral_keeps_its_measure_and_the_reviews_words_stay_whole():
    """The sign-off review (second round): 四 / 连对, 三等 / 奖, 两 / 副牌, 下 / 一副, 页 / 脚, 剩 / 下, 不 / 下台,
    少 / 升, 打 / 其他级."""
    assert not can_break("四", "连") and not can_break("两", "副") and not can_break("一", "副")
    cases = {"三连对×16，四连对×32": "四", "两场半决赛的负者并列三等奖": "等", "每页核对后在页脚签姓名缩写": "页",
             "第1轮后剩下的组数": "剩", "庄家一方不下台": "不", "停在必打级，少升的级数": "少",
             "继续坐庄。下一副": "下", "对方不升级；打其他级": "打"}  # fmt: skip
    for text, split in cases.items():
        at = text.rindex(split) + 1
        assert not breakable(text, at), (text, at)


def test_a_line_takes_in_a_word_by_pressing_its_marks():
    """A line that would end short before a word takes the word in when pressing its full-width marks (标点挤压)
    makes room, rather than ending short; a last line of one character is taken up the same way."""
    text = "甲、乙、丙、丁、戊己庚电话号码簿"
    assert columns(text, 24)[0] == "甲、乙、丙、丁、戊己庚"  # as set, 电话 does not fit: the line ends 2 columns short
    assert break_lines(text, width, [24], squeeze=True) == ["甲、乙、丙、丁、戊己庚电话", "号码簿"]
    short = "甲、乙、丙、丁、戊己庚辛壬才能通过。"  # a line that ends short as set takes a character in too
    assert columns(short, 25)[0] == "甲、乙、丙、丁、戊己庚辛"
    assert break_lines(short, width, [25], squeeze=True)[0] == "甲、乙、丙、丁、戊己庚辛壬"
    last = "甲、乙、丙、丁、戊己庚电话。"  # the paragraph's close hangs its blank half into the frame's padding
    assert len(break_lines(last, width, [23], squeeze=True)) == 2
    assert break_lines(last, width, [23], squeeze=True, hang=1) == [last]
    orphan = "甲、乙、丙、丁、戊己庚辛壬。"
    assert len(columns(orphan, 24)) == 2
    assert break_lines(orphan, width, [24], squeeze=True) == [orphan]
