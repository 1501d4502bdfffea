"""A page of text pasted into the score sheets (issue 16, item 4, attacked again): thousands of bad cells, all
holding one long shared text, must not cost time or memory in proportion to their number squared or to the text's
length per cell. Under the hand table they are one problem per sheet; inside it each is a problem, but the terminal
and the results sheet list only the first `SHOWN_PROBLEMS` of a table and say how many more; the checked copy cuts
long texts and comments a bounded number of cells. (Peak memory of `score` on the largest such workbook is a
budget in bench/run.py; here the counts that keep it bounded are checked.)"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.knockout.teams import Team
from shuangsheng.storage import workbook
from shuangsheng.storage.workbook.checked import CELL_TEXT_MAX, MAX_NOTES
from shuangsheng.storage.workbook.schema import FIRST_HAND_ROW, FIRST_PLAYOFF_ROW, PLAYOFF_ROWS
from shuangsheng.storage.workbook.style import BAD_FILL
from shuangsheng.vocabulary.errors import SHOWN_PROBLEMS
from tests.big_workbooks import fill_with_text, to_shared_strings
from tests.helpers import cli
from tests.pdfcheck import text_of

LONG = "x" * 10_500
LAST_HAND_ROW = FIRST_PLAYOFF_ROW + PLAYOFF_ROWS - 1  # the last 加赛 row
PARSED_COLUMNS = 10  # of the 12 (A–L): 局 and 备注 are not parsed


@pytest.fixture
def event(tmp_path) -> Path:
    folder = tmp_path / "event"
    cli("init", folder)
    workbook.write_teams(folder / "teams.xlsx", [Team(f"{i:02d}", (f"张{i}", f"李{i}")) for i in range(1, 5)],
                         force=True)
    cli("draw", folder, "--seed", 5)
    return folder


def pasted(folder: Path, data: bytes) -> str:
    (folder / "round-1.xlsx").write_bytes(to_shared_strings(data))
    return cli("score", folder, "--round", 1, code=1).output


def comments(path: Path) -> dict[str, int]:
    """Comments per sheet of an .xlsx (counted in its comment parts)."""
    book = openpyxl.load_workbook(path)
    return {ws.title: sum(1 for row in ws.iter_rows() for c in row if c.comment) for ws in book.worksheets}


def test_rows_pasted_under_the_hand_table_are_one_problem_per_sheet(event):
    rows = 40
    output = pasted(event, fill_with_text((event / "round-1.xlsx").read_bytes(), LONG, below=rows))
    for table in (1, 2):
        assert f"第{table}桌：" in output
        assert re.search(rf"round-1\.xlsx 第{table}桌!B{LAST_HAND_ROW + 1}：记分表最后一个加赛行（第{LAST_HAND_ROW}行）"
                         rf"下面还填了内容，等 {rows * PARSED_COLUMNS} 处错误，第一处：庄家应为“甲”或“乙”，实际为“x+…”", output)
    assert output.count("记录有误（1处）") == 2
    assert len(output.splitlines()) < 20, output  # not a line per cell
    assert max(len(line) for line in output.splitlines()) < 300  # the long text is quoted by its start only

    checked = event / "round-1-checked.xlsx"
    assert checked.stat().st_size < 200_000
    sheet = openpyxl.load_workbook(checked)["第1桌"]
    copied = sheet.cell(LAST_HAND_ROW + rows, 12).value
    assert copied.startswith("x" * CELL_TEXT_MAX + "…") and f"共 {len(LONG)} 字" in copied
    assert len(copied) < CELL_TEXT_MAX + 40


def test_a_table_full_of_bad_cells_lists_the_first_few_and_marks_the_rest(event):
    """Every cell of every hand row bad: 400 problems per table, each in the checked copy, the first 20 listed."""
    hand_rows = range(FIRST_HAND_ROW, LAST_HAND_ROW + 1)
    output = pasted(event, fill_with_text((event / "round-1.xlsx").read_bytes(), "xx", hand_rows))
    every = len(hand_rows) * PARSED_COLUMNS
    assert output.count(f"记录有误（{every}处），请改正：") == 2
    assert output.count(f"还有 {every - SHOWN_PROBLEMS} 处，检查副本里都已标出") == 2
    assert output.count("\n      round-1.xlsx 第1桌!") == SHOWN_PROBLEMS

    checked = event / "round-1-checked.xlsx"
    book = openpyxl.load_workbook(checked)
    listed = [row[0].value for row in book["检查结果"].iter_rows() if "第1桌" in str(row[0].value or "")]
    assert len(listed) == SHOWN_PROBLEMS + 1, listed  # the first 20, then how many more
    assert any(f"还有 {every - SHOWN_PROBLEMS} 处错误没有列在这里" in str(c.value)
               for row in book["检查结果"].iter_rows() for c in row)
    sheet = book["第1桌"]
    last = LAST_HAND_ROW
    assert sheet.cell(last, 13).value == "✗"  # every bad row marked, its 说明 saying all of the row's problems
    assert sheet.cell(last, 18).value.count("实际为“xx”") == PARSED_COLUMNS
    assert sheet.cell(last, 11).fill.fgColor.rgb[-6:] == BAD_FILL[1:]  # red beyond the commented cells too
    assert comments(checked)["第1桌"] == MAX_NOTES

    with zipfile.ZipFile(io.BytesIO(checked.read_bytes())) as z:
        assert sum(i.file_size for i in z.infolist()) < 3_000_000


def test_the_results_sheet_lists_the_first_problems_of_a_table(event):
    hand_rows = range(FIRST_HAND_ROW, LAST_HAND_ROW + 1)
    pasted(event, fill_with_text((event / "round-1.xlsx").read_bytes(), "xx", hand_rows))
    text = re.sub(r"\s+", "", text_of((event / "第1轮成绩.pdf").read_bytes()))
    left = 2 * (len(hand_rows) * PARSED_COLUMNS - SHOWN_PROBLEMS)
    assert f"另有{left}处没有列出" in text
    assert text.count("第1桌记分表") == SHOWN_PROBLEMS and "xlsx" not in text  # the wall sheet names no file
