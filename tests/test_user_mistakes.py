"""Mistakes office staff really make, through the CLI: each gives a clear Chinese message naming the place, never a
traceback, and no file the user filled is changed or lost."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from scoring import workbook
from scoring.event import EventError, default_text, parse
from scoring.rules import RuleSet
from scoring.teams import Team

runner = CliRunner()


def cli(*args: object, code: int):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == code, f"{args}: exit {result.exit_code}\n{result.output}"
    return result


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def new_event(folder: Path, n: int = 4) -> Path:
    cli("init", folder, code=0)
    teams = [Team(f"{i:02d}", (f"张{i}", f"李{i}")) for i in range(1, n + 1)]
    workbook.write_teams(folder / "teams.xlsx", teams, force=True)
    return folder


def toml_problems(text: str) -> str:
    with pytest.raises(EventError) as info:
        parse(text, source="event.toml")
    return "\n".join(info.value.problems)


# --- files open in Excel/WPS (Windows refuses the write) ---


@pytest.fixture
def lock(monkeypatch):
    """Call it to make every atomic replace fail as on Windows when the target is open in Excel."""

    def refuse(src, dst):
        raise PermissionError(13, "另一个程序正在使用此文件，进程无法访问。", str(dst))

    return lambda: monkeypatch.setattr(os, "replace", refuse)


def test_draw_into_a_locked_file_is_a_message(tmp_path, lock):
    folder = new_event(tmp_path / "活动 一")
    lock()
    result = cli("draw", folder, "--seed", 1, code=1)
    assert "round-1.xlsx：无法写入" in result.output and "关闭" in result.output
    assert not (folder / "round-1.xlsx").exists() and not list(folder.glob(".*.tmp"))


def test_init_into_a_locked_folder_is_a_message(tmp_path, lock):
    lock()
    result = cli("init", tmp_path / "new", code=1)
    assert "event.toml：无法写入" in result.output


# --- init after event.toml was deleted: the filled team list is kept ---


def test_init_recreates_a_deleted_event_toml_and_keeps_the_team_list(tmp_path):
    folder = new_event(tmp_path / "event")
    (folder / "event.toml").unlink()
    before = sha(folder / "teams.xlsx")
    result = cli("init", folder, code=0)
    assert "teams.xlsx 已存在，保留原文件不变" in result.output
    assert (folder / "event.toml").read_text(encoding="utf-8") == default_text()
    assert sha(folder / "teams.xlsx") == before


def test_init_still_refuses_when_both_files_exist(tmp_path):
    folder = new_event(tmp_path / "event")
    before = sha(folder / "teams.xlsx")
    result = cli("init", folder, code=1)
    assert "已存在" in result.output and "--force" in result.output
    assert sha(folder / "teams.xlsx") == before


# --- event.toml typed in Notepad ---


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('title = "离退休教职工双升级（双扣）比赛"', 'title = "离退休教职工双升级（双扣）比赛', "引号没有配对"),
        ('title = "离退休教职工双升级（双扣）比赛"', "title = “离退休教职工双升级（双扣）比赛”", "中文引号"),
        ('venue = "', 'venue ＝ "', "全角"),
        ("end = 2026-03-09", "end = 2026-3-9", "2026-03-09"),
        ("large_print = true", "large_print = 是", "双引号"),
        ('font = ""', 'font = "C:\\Windows\\Fonts\\msyh.ttc"', "请改用 /"),
        ('dealer_table = "ceil"', 'dealer_table = "ceil"\ndealer_table = "floor"', "写了两次"),
    ],
)
def test_broken_toml_names_the_line_in_chinese(old, new, expected):
    text = default_text()
    assert old in text
    message = toml_problems(text.replace(old, new, 1))
    assert "格式有误" in message and expected in message and "第" in message
    assert not any(word in message for word in ("Invalid", "Expected", "Illegal", "Cannot"))


def test_misspelt_keys_and_sections_are_named():
    text = default_text().replace("contact = ", "contcat = ") + '\n[rule]\ndealer_table = "floor"\n'
    message = toml_problems(text)
    assert "[registration] 未知的设置项“contcat”" in message and "contact" in message
    assert "未知的一节“rule”" in message


def test_must_play_typed_as_one_string():
    for typed in ("2,J,A", "2、J、A", "2，J，A", "2 J A"):
        assert RuleSet.from_mapping({"must_play": typed}) == RuleSet()
    text = default_text().replace('must_play = ["2", "J", "A"]', 'must_play = "2,J,A"')
    assert parse(text, source="event.toml").rules == RuleSet()
