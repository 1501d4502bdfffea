"""Mistakes in the command line itself: Chinese messages, exit code 2, no traceback (through `cli.main`)."""

from __future__ import annotations

import pytest

from tests.forked import shuangsheng
from tests.helpers import ROOT

HINT = "用法说明：shuangsheng --help，或 shuangsheng 命令 --help"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["nosuch"], "没有这个命令：nosuch。\n可用的命令：start、init、materials、checkin、draw、score、replace、bracket、serve、show、awards、rebuild、replay、demo"),
        (["scor"], "没有这个命令：scor。您要的是不是 score？\n可用的命令：start、init、materials、checkin、draw、score、replace、bracket、serve、show、awards、rebuild、replay、demo"),
        (["draw", "--bogus"], "没有这个选项：--bogus"),
        (["draw", ".", "--bogus=3"], "没有这个选项：--bogus"),
        (["--bogus"], "没有这个选项：--bogus（选项写在命令后面，如 shuangsheng draw --seed 1）"),
        (["draw", ".", "--seed"], "选项 --seed 后面缺少值"),
        (["replay"], "缺少参数：文件"),
        (["replay", "."], "参数 文件 应为文件，“.”是文件夹"),
        (["score", ".", "--verify", "."], "参数 --verify 应为文件，“.”是文件夹"),
        (["draw", ".", "--lots", "."], "参数 --lots 应为文件，“.”是文件夹"),
        (["show", ".", "--export", "."], "参数 --export 应为文件，“.”是文件夹"),
        (["draw", "pyproject.toml"], "参数 文件夹 应为文件夹，“pyproject.toml”是文件"),
        (["demo", "--out", "pyproject.toml"], "参数 --out 应为文件夹，“pyproject.toml”是文件"),
        (["score", ".", "extra"], "多余的参数：extra（文件夹或文件路径中有空格时，请用英文引号括起来）"),
    ],
)
def test_usage_mistakes_are_explained_in_chinese(args, expected):
    result = shuangsheng(*args)
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"{expected}\n{HINT}\n"
    assert result.stdout == ""


# Every option that takes a number, with values below, above and beside its range: the program's own check and
# its own words, never click's English (which once said "应在 2 到 1 之间28." for --teams 200).
RANGED = [
    (["draw", "."], "--seed", "0 到 999999999999999 之间的整数", ["-1", "1000000000000000", "99999999999999999", "1.5", "abc", ""]),
    (["materials", "."], "--lots", "1 到 512 之间的整数", ["0", "513", "-3", "十", "1e3"]),
    (["demo"], "--teams", "2 到 512 之间的整数", ["1", "0", "513", "600", "-5", "x"]),
    (["demo"], "--seed", "整数", ["abc", "1.5", "", "--"]),
    (["score", "."], "--round", "不小于 1 的整数", ["0", "-1", "one"]),
    (["show", "."], "--port", "0 到 65535 之间的整数", ["-1", "65536", "70000", "http"]),
]


@pytest.mark.parametrize(("command", "option", "what", "values"), RANGED, ids=lambda v: v if isinstance(v, str) else None)
def test_every_number_option_states_its_true_range(command, option, what, values):
    space = " " if what[0].isdigit() else ""
    for value in values:
        result = shuangsheng(*command, f"{option}={value}")
        assert result.returncode == 2, (value, result.stderr)
        assert result.stderr == f"参数 {option} 应为{space}{what}，实际为“{value}”\n{HINT}\n", value


def test_a_range_takes_its_own_ends_and_full_width_digits():
    from shuangsheng.cli_help import WholeNumber

    teams = WholeNumber(2, 128)
    assert [teams("2"), teams("128"), teams("１２８"), teams(" +12 "), teams(11)] == [2, 128, 128, 12, 11]
    assert WholeNumber()("-7") == -7 and WholeNumber(1)("99999") == 99999


def test_the_port_limits_let_a_free_port_be_chosen(tmp_path):
    """`--port 0` (the range's low end) gets through the check: the folder is what is refused next."""
    result = shuangsheng("show", str(tmp_path / "nowhere"), "--port", "0")
    assert result.returncode == 1 and "不存在" in result.stderr


def test_help_and_success_keep_exit_0_and_errors_exit_1(tmp_path):
    assert shuangsheng("--help").returncode == 0
    assert shuangsheng("replay", str(ROOT / "examples" / "match.json")).returncode == 0
    missing = shuangsheng("replay", str(tmp_path / "nope.json"))
    assert missing.returncode == 1 and "找不到文件" in missing.stderr
