"""The help as a Chinese office worker meets it: the frame, the order of the day, printed once, never cut off."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from shuangsheng import cli, cli_help
from shuangsheng.render.linebreak import NO_LINE_END, NO_LINE_START
from shuangsheng.vocabulary.text import width
from tests import forked
from tests.helpers import ROOT

runner = CliRunner()
ENGLISH = ("Usage", "Options", "Commands", "Arguments", "Show this message", "[OPTIONS]", "<bool>", "[default",
           "[required]", "SPEC")


def shuangsheng(*args: str, columns: int = 80) -> subprocess.CompletedProcess:
    """The command line as a process of its own (`cli.main`), `columns` wide."""
    return forked.shuangsheng(*args, env={"COLUMNS": str(columns)})


def commands() -> list[str]:
    return [c for c in typer.main.get_command(cli.app).commands]  # type: ignore[attr-defined]


def test_no_arguments_prints_the_help_once():
    result = shuangsheng()
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.count("用法：shuangsheng") == 1
    assert result.stdout == shuangsheng("--help").stdout


def test_the_frame_is_chinese():
    out = shuangsheng("--help").stdout
    assert out.startswith("用法：shuangsheng 命令 [选项] [参数]...\n")
    for heading in ("\n命令（按比赛当天的顺序）：\n", "\n选项：\n", "显示帮助并退出", "docs/"):
        assert heading in out
    assert not [word for word in ENGLISH if word in out]


@pytest.mark.parametrize("command", ["init", "materials", "draw", "score", "awards", "replay", "demo"])
def test_every_command_help_is_chinese(command):
    out = shuangsheng(command, "--help").stdout
    assert out.startswith(f"用法：shuangsheng {command} [选项]")
    assert "\n选项：\n" in out and "--help  " in out and "显示帮助并退出" in out
    assert not [word for word in ENGLISH if word in out]


def test_every_parameter_has_help_and_value_parameters_say_what_to_type():
    group = typer.main.get_command(cli.app)
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        assert command.help, name
        for param in command.params:
            assert param.help, (name, param.name)
            if param.param_type_name == "argument" or not param.is_flag:
                assert param.metavar and not param.metavar.isascii(), (name, param.name)  # 文件夹, 整数, …


def test_commands_are_listed_in_the_order_of_the_day():
    out = shuangsheng("--help").stdout
    listed = re.findall(r"^  ([a-z]+) ", out.split("命令（按比赛当天的顺序）：")[1].split("选项：")[0], re.M)
    expected = [c for c in cli_help.ORDER_OF_THE_DAY if c in commands()]
    assert listed == expected + [c for c in commands() if c not in cli_help.ORDER_OF_THE_DAY]
    assert listed[:5] == ["start", "init", "materials", "checkin", "draw"] and listed[-2:] == ["replay", "demo"]


def test_a_command_added_later_is_listed_after_the_known_ones():
    app = typer.Typer(cls=cli_help.ChineseGroup)
    for name in ("zeta", "demo", "awards", "init"):
        app.command(name)(lambda: None)
    group = typer.main.get_command(app)
    assert group.list_commands(None) == ["init", "awards", "demo", "zeta"]  # type: ignore[attr-defined]


@pytest.mark.parametrize("columns", [50, 80])
def test_descriptions_are_wrapped_not_cut_off(columns):
    out = shuangsheng("--help", columns=columns).stdout
    assert max(width(line) for line in out.splitlines()) <= columns
    assert "…" not in out
    flat = re.sub(r"\s+", "", out)
    group = typer.main.get_command(cli.app)
    for command in group.commands.values():  # type: ignore[attr-defined]
        first_paragraph = command.help.strip().split("\n\n")[0]
        assert re.sub(r"\s+", "", first_paragraph) in flat  # the whole description, every character
    for line in out.splitlines():  # Chinese line breaking: no line starts with closing punctuation
        assert not line.strip().startswith(("）", "，", "。", "、"))


def test_wrap_keeps_ascii_words_and_punctuation_rules():
    lines = cli_help.wrap("打印材料：通知、比赛规则、报名表（PDF）和 event.toml。", 22)
    assert all(width(line) <= 22 for line in lines)
    assert "".join(lines).replace(" ", "") == "打印材料：通知、比赛规则、报名表（PDF）和event.toml。"
    assert not any(line.startswith(("）", "。")) or line.endswith("（") for line in lines)
    assert any("event.toml" in line for line in lines)


@pytest.mark.parametrize("columns", range(10, 40))  # narrower cannot hold 是”）。
def test_wrap_never_starts_a_line_with_two_closing_marks(columns):
    text = "例如比赛（第一轮）。然后下一步（写好“是”）。再来一次，好。"
    lines = cli_help.wrap(text, columns)
    assert "".join(lines) == text
    assert all(width(line) <= columns for line in lines)
    assert not any(line[:1] in NO_LINE_START for line in lines)
    assert not any(line[-1:] in NO_LINE_END for line in lines)


def test_option_help_says_defaults_and_ranges_in_chinese():
    out = shuangsheng("demo", "--help").stdout
    assert "--teams 组数" in out and "[默认：11；范围：2–512]" in out
    assert "[默认：当前文件夹]" in shuangsheng("draw", "--help").stdout
    assert "[必填]" in shuangsheng("replay", "--help").stdout


def test_a_mistyped_command_gets_a_clean_hint():
    result = shuangsheng("scor")
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "没有这个命令：scor。您要的是不是 score？"
    assert lines[1] == "可用的命令：start、init、materials、checkin、draw、score、replace、bracket、serve、show、awards、rebuild、replay、demo"
    assert "Did you mean" not in result.stderr and "'" not in result.stderr


def test_help_texts_point_into_the_repository():
    out = shuangsheng("replay", "--help").stdout
    doc = re.search(r"docs/[\w./-]+\.md", out)
    assert doc and (ROOT / doc.group(0)).is_file()


def test_help_imports_no_pdf_or_spreadsheet_library():
    """`shuangsheng --help` stays fast: reportlab, openpyxl, XlsxWriter, calamine and jinja2 load only in the commands that use them."""
    code = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from shuangsheng import cli\n"
        "r = CliRunner().invoke(cli.app, ['--help'])\n"
        "assert r.exit_code == 0, r.output\n"
        "heavy = ('reportlab', 'openpyxl', 'xlsxwriter', 'python_calamine', 'jinja2')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("demo", "[默认：11；范围：2–512]"),
        ("draw", "[范围：0–999999999999999]"),
        ("materials", "[范围：1–512]"),
        ("score", "[至少 1]"),
        ("show", "[默认：8000；范围：0–65535]"),
    ],
)
def test_every_number_option_shows_the_range_its_check_holds(command, expected):
    flat = re.sub(r"\s+", "", shuangsheng(command, "--help", columns=200).stdout)
    assert re.sub(r"\s+", "", expected) in flat
