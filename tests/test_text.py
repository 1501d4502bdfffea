"""shuangsheng.vocabulary.text: display widths and commands as the user types them."""

from __future__ import annotations

from pathlib import Path

from shuangsheng.vocabulary.text import command_line, pad, width


def test_cjk_counts_two_columns():
    assert width("第1轮") == 5 and pad("组", 4) == "组  "


def test_a_command_quotes_each_argument_holding_a_space_and_nothing_else():
    assert command_line("draw", Path("活动")) == "shuangsheng draw 活动"
    assert command_line("score", Path("我的 比赛"), "--round", 2, "--verify", "第二 份.xlsx") == (
        'shuangsheng score "我的 比赛" --round 2 --verify "第二 份.xlsx"')
    assert command_line("init") == "shuangsheng init"
