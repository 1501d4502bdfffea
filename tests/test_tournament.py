"""Direct tests of the use-cases on an event folder (`shuangsheng.usecases`: folder, draw, score, scoring) and of
the folder's file names (`shuangsheng.storage.names`): what the folder adds up to (the CLI tests go end to end)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.game.simulate import simulate_match
from shuangsheng.storage import workbook
from shuangsheng.storage.names import round_file, round_files, round_number, round_path
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.draw import draw_next
from shuangsheng.usecases.folder import TournamentError, open_folder
from shuangsheng.usecases.score import score as run_score
from shuangsheng.usecases.scoring import score_as_json
from tests.events import new_event


@pytest.fixture
def folder(tmp_path) -> Path:
    return new_event(tmp_path, 6)


def test_open_folder_refuses_a_gap_in_the_round_files(folder):
    draw_next(folder, seed=1)
    shutil.copy(round_path(folder, 1), round_path(folder, 3))
    with pytest.raises(TournamentError) as info:
        open_folder(folder)
    assert info.value.messages == [f"{folder}：缺少 round-2.xlsx，却有 round-3.xlsx；轮次文件应从 round-1 起连续"]


def test_score_names_a_round_that_does_not_exist(folder):
    with pytest.raises(TournamentError, match="还没有抽签"):
        run_score(folder)
    draw_next(folder, seed=1)
    with pytest.raises(TournamentError, match="没有第2轮（只有第1轮）"):
        run_score(folder, 2)


def test_score_json_while_undecided_lists_known_winners_and_blockers(folder):
    drawn = draw_next(folder, seed=1).round
    workbook.fill_round(round_path(folder, 1), {1: simulate_match(random.Random(1))[0]})
    doc = score_as_json(run_score(folder).score)
    first = doc["matches"][0]
    assert first["status"] in ("decided", "passed_a")
    assert doc["matches"][1]["status"] == "open" and doc["matches"][1]["winner"] is None
    assert doc["byes"] == list(drawn.byes) and len(drawn.byes) == 2  # 6 teams: 2 matches, 2 byes
    assert doc["advancing"] == [first["winner"], *drawn.byes]
    assert doc["blockers"] == ["第2桌：尚未录入"]


def test_invalid_match_reason_names_its_cells(folder):
    draw_next(folder, seed=1)
    path = round_path(folder, 1)
    workbook.fill_round(path, {t: simulate_match(random.Random(t))[0] for t in (1, 2)})
    wb = openpyxl.load_workbook(path)
    for row in range(7, 12):  # five bad 台下得分 cells: the reason shows three, then 等
        wb["第2桌"][f"D{row}"] = 3
    wb.save(path)
    score = run_score(folder).score
    reason = score.matches[1].outcome.reason
    assert reason == "5处错误：round-1.xlsx 第2桌!D7、round-1.xlsx 第2桌!D8、round-1.xlsx 第2桌!D9等"
    with pytest.raises(TournamentError) as info:
        draw_next(folder)
    lines = info.value.messages
    assert sum(line.startswith("  round-1.xlsx 第2桌!D") for line in lines) == 5
    assert lines[-1].startswith("请先在 round-1.xlsx 中补全或改正这些比赛")


def test_a_sheet_with_value_and_sequence_errors_lists_all_of_them_in_row_order(folder):
    """Hand 2 has the wrong dealer (甲 kept the deal), hand 4 an impossible score, hand 5 an unreadable one."""
    from shuangsheng.game.hands import Hand, MatchRecord
    from shuangsheng.game.levels import Side

    draw_next(folder, seed=1)
    path = round_path(folder, 1)
    hands = (Hand(Side.A, 35), Hand(Side.B, 40), Hand(Side.A, 60), Hand(Side.A, 60), Hand(Side.A, 60))
    workbook.fill_round(path, {1: MatchRecord(hands)})
    wb = openpyxl.load_workbook(path)
    ws = wb[workbook.sheet_name(1)]
    first = workbook.HAND_HEADER_ROW + 1
    ws.cell(first + 3, 4, 83)  # D: 台下得分
    ws.cell(first + 4, 4, "六十")
    wb.save(path)
    report = run_score(folder, 1)
    match = report.score.matches[0]
    cells = [str(p.cell) for p in match.problems]
    assert cells == [f"B{first + 1}", f"D{first + 3}", f"D{first + 4}"]
    assert "应为甲方坐庄" in match.problems[0].message
    assert match.outcome.status is TableStatus.INVALID
    assert [o.hand for o in match.result.outcomes] == [1]  # replayed up to the first bad row


def test_round_file_names_have_one_spelling(tmp_path):
    assert round_file(12) == "round-12.xlsx"
    assert [round_number(n) for n in ("round-12.xlsx", "round-1-checked.xlsx", "round-x.xlsx",
                                                   "round-.xlsx", "round-１.xlsx", "teams.xlsx")] == [12, None, None,
                                                                                                  None, None, None]
    for name in ("round-10.xlsx", "round-2.xlsx", "round-2-checked.xlsx", "round-1.xlsx.bak"):
        (tmp_path / name).touch()
    assert [p.name for p in round_files(tmp_path)] == ["round-2.xlsx", "round-10.xlsx"]
