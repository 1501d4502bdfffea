"""Mistakes in the command line itself: Chinese messages, exit code 2, no traceback (through `cli.main`)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import ROOT


def shuangsheng(*args: str) -> subprocess.CompletedProcess:
    code = "import sys, cli; sys.argv[0] = 'shuangsheng'; cli.main()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["nosuch"], "没有这个命令：nosuch。\n可用的命令：init、materials、draw、score、bracket、show、awards、replay、demo"),
        (["draw", "--seed", "abc"], "参数 --seed 的值不对：应为整数"),
        (["score", "--round", "0"], "参数 --round 的值不对：应不小于 1"),
        (["draw", "--bogus"], "没有这个选项：--bogus"),
        (["replay"], "缺少参数：文件"),
        (["replay", "."], "是文件夹，这里应为文件"),
        (["score", ".", "extra"], "多余的参数：extra"),
    ],
)
def test_usage_mistakes_are_explained_in_chinese(args, expected):
    result = shuangsheng(*args)
    assert result.returncode == 2, result.stderr
    assert expected in result.stderr
    assert "shuangsheng --help" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_help_and_success_keep_exit_0_and_errors_exit_1(tmp_path):
    assert shuangsheng("--help").returncode == 0
    assert shuangsheng("replay", str(ROOT / "examples" / "match.json")).returncode == 0
    missing = shuangsheng("replay", str(tmp_path / "nope.json"))
    assert missing.returncode == 1 and "找不到文件" in missing.stderr
