"""Issue 16's "Why" bullets on intake and points, through the CLI where the organiser meets them: a 组号 that
would leave the event stuck is refused at `draw` with its cell named; an invisible character does not make one
player two; a forgotten 台下得分 is an error, not 0."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.storage import workbook
from tests.events import new_event
from tests.helpers import cli, sha
from tests.workbook_cases import fill

# --- 组号 intake: 无, A,1, A、B used to get a bye, and `score` then refused the workbook `draw` wrote ---


def set_team_cells(folder: Path, cells: dict[str, object]) -> None:
    path = folder / "teams.xlsx"
    wb = openpyxl.load_workbook(path)
    for ref, value in cells.items():
        wb["报名表"][ref] = value
    wb.save(path)


@pytest.mark.parametrize(("typed", "why"), [
    ("无", "“无”是程序在对阵表里自己用的字"),
    ("A,1", "实际为“A,1”；每行只填一组"),
    ("A、B", "实际为“A、B”；每行只填一组"),
    ("轮空", "“轮空”是程序在对阵表里自己用的字"),
])
def test_draw_refuses_a_team_id_that_would_break_the_round_trip(tmp_path, typed, why):
    folder = new_event(tmp_path / "event", teams=5)
    set_team_cells(folder, {"A6": typed})
    before = sha(folder / "teams.xlsx")
    result = cli("draw", folder, "--seed", 1, code=1)
    assert "teams.xlsx 报名表!A6：组号只能由数字和英文字母组成（至少一个数字，最多 6 位，如 01、12、A3）" in result.output
    assert why in result.output
    assert not (folder / "round-1.xlsx").exists()
    assert sha(folder / "teams.xlsx") == before


def test_draw_refuses_a_team_id_of_zeros_and_a_letter_id_written_twice(tmp_path):
    """'000' would print as 第00组; 'A01' and 'A1' are one 组号 as '01' and '1' are (docs/workbooks.md)."""
    folder = new_event(tmp_path / "event", teams=5)
    set_team_cells(folder, {"A3": "000", "A4": "A01", "A5": "a1"})
    output = cli("draw", folder, "--seed", 1, code=1).output
    assert "teams.xlsx 报名表!A3：组号不能全是 0（实际为“00”）：组号从 1 起编" in output
    assert "teams.xlsx 报名表!A5：组号“A1”与第4行的“A01”（组号里的数字按数值比较，算同一个组号）重复" in output
    assert not (folder / "round-1.xlsx").exists()


def test_every_bad_team_id_is_named_at_once(tmp_path):
    folder = new_event(tmp_path / "event", teams=5)
    set_team_cells(folder, {"A3": "无", "A4": "A,1", "A5": "A、B"})
    output = cli("draw", folder, "--seed", 1, code=1).output
    assert [line.split("：")[0] for line in output.splitlines() if line.startswith("teams.xlsx")] == [
        "teams.xlsx 报名表!A3", "teams.xlsx 报名表!A4", "teams.xlsx 报名表!A5"]


def test_letters_and_full_width_ids_are_drawn_and_scored(tmp_path):
    folder = new_event(tmp_path / "event", teams=3)
    set_team_cells(folder, {"A2": "ａ１", "A3": "Ｂ２", "A4": " 3 "})  # typed with a Chinese IME
    cli("draw", folder, "--seed", 1)
    drawn = workbook.read_round(folder / "round-1.xlsx").round
    assert sorted(drawn.pool) == ["03", "A1", "B2"] and drawn.byes
    report = cli("score", folder)  # nothing typed yet: no error about the workbook draw itself wrote
    assert "不能有" not in report.output


# --- names: an invisible character used to make one player two ---


@pytest.mark.parametrize("mark", ["\u200b", "\u2060", "\ufeff", "\u00ad", "\u200d"], ids=lambda ch: f"U+{ord(ch):04X}")
def test_draw_refuses_one_player_in_two_teams_behind_an_invisible_character(tmp_path, mark):
    folder = new_event(tmp_path / "event", teams=4)  # row 2: 张1甲 / 李1乙
    set_team_cells(folder, {"B4": f"张{mark}1甲"})
    result = cli("draw", folder, "--seed", 1, code=1)
    assert "teams.xlsx 报名表!B4：队员“张1甲”已在第2行（第01组）报名，每人只能参加一组" in result.output


def test_names_print_without_invisible_characters(tmp_path):
    folder = new_event(tmp_path / "event", teams=2)
    set_team_cells(folder, {"B2": "\ufeff王\u200b五\u00ad", "C2": "Ｌｉ\u2060 Ｍｉｎｇ"})
    cli("draw", folder, "--seed", 1)
    ws = openpyxl.load_workbook(folder / "round-1.xlsx")["对阵"]
    assert "王五、Li Ming" in [c.value for row in ws.iter_rows() for c in row]
    assert not any("\u200b" in str(c.value) or "\ufeff" in str(c.value) for row in ws.iter_rows() for c in row)


# --- 台下得分: a forgotten cell silently counted as 0 and decided a match ---


def drawn(tmp_path: Path) -> Path:
    folder = new_event(tmp_path / "event", teams=4)
    cli("draw", folder, "--seed", 1)
    return folder


def test_score_refuses_a_blank_points_cell_beside_a_dealer(tmp_path):
    folder = drawn(tmp_path)
    fill(folder / "round-1.xlsx", {"第1桌": {"B7": "甲", "C7": "2"}, "第2桌": {"B7": "甲", "D7": 35}})
    result = cli("score", folder, code=1)
    assert "round-1.xlsx 第1桌!D7：台下得分不能空着：台下方一分未得请填 0" in result.output
    assert "升4级" not in result.output


def test_a_written_zero_is_scored(tmp_path):
    folder = drawn(tmp_path)
    fill(folder / "round-1.xlsx", {"第1桌": {"B7": "甲", "D7": 0}, "第2桌": {"B7": "甲", "D7": "０"}})
    result = cli("score", folder)
    assert "台下得分不能空着" not in result.output


@pytest.mark.parametrize("offense", ["台上扣错底", "台下扣错底", "台上出错牌", "台下出错牌"])
def test_blank_points_are_allowed_where_an_offence_makes_them_irrelevant(tmp_path, offense):
    folder = drawn(tmp_path)
    fill(folder / "round-1.xlsx", {"第1桌": {"B7": "甲", "J7": offense}, "第2桌": {"B7": "甲", "D7": 35}})
    assert "台下得分不能空着" not in cli("score", folder).output


def test_blank_points_are_allowed_in_a_level_card_capture_row(tmp_path):
    folder = drawn(tmp_path)
    # 甲 holds three times with 0 points: 2 → 6 → 10 → J; then plays J and the defenders capture the bottom with a J.
    hands = {"B7": "甲", "D7": 0, "B8": "甲", "D8": 0, "B9": "甲", "D9": 0,
             "B10": "甲", "C10": "J", "E10": 20, "F10": "×2", "G10": "是"}
    fill(folder / "round-1.xlsx", {"第1桌": hands, "第2桌": {"B7": "甲", "D7": 35}})
    result = cli("score", folder)
    assert "台下得分不能空着" not in result.output


def test_verify_tells_a_blank_points_cell_from_a_zero(tmp_path):
    folder = drawn(tmp_path)
    second = folder / "round-1-第二人.xlsx"
    shutil.copyfile(folder / "round-1.xlsx", second)
    fill(folder / "round-1.xlsx", {"第1桌": {"B7": "甲", "D7": 0}, "第2桌": {"B7": "甲", "D7": 35}})
    fill(second, {"第1桌": {"B7": "甲"}, "第2桌": {"B7": "甲", "D7": 35}})
    result = cli("score", folder, "--verify", second, code=1)
    assert "第1桌!D7：0 / 空" in result.output
