"""The commands quoted in the use-cases' messages, said on the console as its buttons (render/console_page.py's
`console_words`): every command a message names has its place, the numbered ones their round."""

from __future__ import annotations

import pytest

from shuangsheng.render.console_page import console_words
from shuangsheng.vocabulary.text import command_line

FOLDER = "D:/比赛 2026/春季"  # a folder with a space: quoted in the command line


@pytest.mark.parametrize(("args", "said"), [
    (("score",), "在控制台“本轮”页点“计分”"),
    (("score", "--round", "2"), "在控制台“更正”页点“第2轮计分”"),
    (("draw",), "在控制台“抽签”页点“抽签”"),
    (("draw", "--redo", "3"), "在控制台“更正”页点“重排第3轮”"),
    (("draw", "--check", "1"), "在控制台“抽签”页点第1轮的“复核”"),
    (("materials",), "在控制台“材料”页点“生成材料”"),
    (("awards",), "在控制台“颁奖”页点“生成成绩公告、证书和成绩册”"),
    (("checkin", "--close"), "在控制台“本轮”页点“报到”"),
    (("replace", "--team", "03"), "在控制台“本轮”页点“换人”"),
    (("rebuild",), "点下面的“重建比赛记录”"),
])
def test_a_command_in_a_message_is_said_as_the_console_s_button(args, said):
    command, *options = args
    typed = f"{command_line(command, FOLDER)}{' ' + ' '.join(options) if options else ''}"
    assert console_words(f"请运行 {typed}，然后再看。") == f"请{said}，然后再看。"


def test_a_message_naming_no_command_is_left_as_it_is():
    assert console_words("第3桌的庄家写错了") == "第3桌的庄家写错了"


def test_the_check_in_refusal_of_a_draw_names_no_command_on_the_console():
    hint = (f"没到的组在迟到时间之后判弃权（或等他们来），然后在裁判台按“结束报到”，或运行 "
            f"{command_line('checkin', FOLDER)} --close；再运行 {command_line('draw', FOLDER)}")
    said = console_words(hint)
    assert "shuangsheng" not in said and "--" not in said
    assert said.endswith("或在控制台“本轮”页点“报到”；再在控制台“抽签”页点“抽签”")
