"""Shared cases of the workbook tests: a drawn two-table round, filled the messy way people type."""

from __future__ import annotations

from pathlib import Path

import openpyxl

from shuangsheng.game.hands import Hand, MatchRecord, Offense
from shuangsheng.game.levels import Level, Side
from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.knockout.teams import Team
from shuangsheng.storage.workbook import write_round

A, B = Side.A, Side.B

TEAMS = {f"{i:02d}": Team(f"{i:02d}", (f"张{i}", f"李{i}")) for i in range(1, 6)}
ROUND = Round(1, tuple(TEAMS), (Pairing(1, "01", "02"), Pairing(2, "03", "04")), ("05",), 1234)

# Table 1: every column, typed messily, with blank rows between hands.
MESSY_1 = {
    "B7": "甲方", "C7": "２", "D7": "３５分",
    "B8": " 甲 ", "C8": 5, "D8": 50.0, "E8": "25", "F8": "x4",
    # row 9 left blank
    "B10": "乙", "D10": "85 分", "H10": 0, "I10": "３", "L10": "有人甩牌失败",
    "B11": "乙方", "J11": " 台下扣错底 ",
    "B12": "乙", "D12": "１２０", "E12": "１０分", "F12": "×8", "H12": "1张",
    # row 13 left blank
    "B14": "甲", "D14": 0, "E14": "0", "F14": "X2", "G14": "√",
}
RECORD_1 = MatchRecord((
    Hand(A, 35, level=Level.TWO),
    Hand(A, 50, 25, 4, level=Level.FIVE),
    Hand(B, 85, defender_wrong_cards=3),
    Hand(B, offense=Offense.DEFENDER_WRONG_BURY),
    Hand(B, 120, 10, 8, dealer_wrong_cards=1),
    Hand(A, 0, capture=2, level_card_capture=True),
))
ROWS_1 = (7, 8, 10, 11, 12, 14)

# Table 2: tied at time, the 加赛 hand typed into the first prefilled 加赛 row (加赛 = 是 already there).
MESSY_2 = {"B7": "甲", "D7": "80", "B37": "乙方", "D37": 40, "F37": "4倍", "E37": "5", "K7": "否"}
RECORD_2 = MatchRecord((Hand(A, 80), Hand(B, 40, 5, 4, playoff=True)))


def fill(path: Path, cells: dict[str, dict[str, object]]) -> Path:
    wb = openpyxl.load_workbook(path)
    for sheet, values in cells.items():
        for ref, value in values.items():
            wb[sheet][ref] = value
    wb.save(path)
    return path


def filled_round(folder: Path) -> Path:
    """round-1.xlsx in `folder`, drawn and filled with MESSY_1 and MESSY_2 (each test module's `filled`)."""
    path = folder / "round-1.xlsx"
    write_round(path, ROUND, TEAMS)
    return fill(path, {"第1桌": MESSY_1, "第2桌": MESSY_2})
