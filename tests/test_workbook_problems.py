"""shuangsheng.storage.workbook.problems: a problem's place stays (sheet, row, column) until it is shown."""

from __future__ import annotations

from shuangsheng.game.levels import Side
from shuangsheng.storage.workbook.problems import Cell

A, B = Side.A, Side.B


def test_a_problem_keeps_its_place_structured_until_shown():
    from shuangsheng.storage.workbook.problems import Problem, column_letter

    assert [column_letter(c) for c in (1, 26, 27, 52, 702, 703)] == ["A", "Z", "AA", "AZ", "ZZ", "AAA"]
    assert Problem.of_cell("round-1.xlsx", "对阵", Cell(9, 1, last_column=3), "x").where == "round-1.xlsx 对阵!A9:C9"
    assert Problem.of_cell("round-1.xlsx", "第3桌", Cell(9, 4), "x").where == "round-1.xlsx 第3桌!D9"
    assert str(Problem.of_cell("lots.csv", None, Cell(3, 2), "签号应为正整数")) == "lots.csv 第3行第2列：签号应为正整数"
    assert Problem.of_cell("teams.xlsx", "报名表", None, "x").where == "teams.xlsx 报名表"
    ordered = sorted([Problem.of_cell("f", "s", Cell(10, 2), ""), Problem.of_cell("f", "s", Cell(9, 27), ""), Problem.of_cell("f", "s", None, "")],
                     key=Problem.order)
    assert [p.cell for p in ordered] == [None, Cell(9, 27), Cell(10, 2)]
