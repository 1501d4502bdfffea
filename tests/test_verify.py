"""Double entry, `score DIR --round N --verify OTHER.xlsx` (shuangsheng.storage.workbook.verify): two independent
transcriptions compared cell by cell after the same lenient reading; every disagreement as 第3桌!D9：85 / 58."""

from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import openpyxl
import pypdf
import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.game.simulate import simulate_match
from shuangsheng.storage import workbook
from shuangsheng.storage.workbook.schema import HAND_HEADER_ROW, sheet_name
from tests.events import new_event
from tests.helpers import cli, sha

runner = CliRunner()
FIRST = HAND_HEADER_ROW + 1  # hand 1's row
POINTS = 4  # column D, 台下得分


def event_with_round(folder: Path, teams: int, seed: int = 7) -> Path:
    new_event(folder, teams, digits=3)
    cli("draw", folder, "--seed", seed, code=0)
    rng = random.Random(seed)
    tables = teams // 2 if teams & (teams - 1) == 0 else 2
    workbook.fill_round(folder / "round-1.xlsx", {t: simulate_match(rng)[0] for t in range(1, tables + 1)})
    return folder


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """128 teams: round 1 has 64 tables, every one filled."""
    return event_with_round(tmp_path_factory.mktemp("verify") / "event", 128)


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    return event_with_round(tmp_path_factory.mktemp("verify") / "event", 4)


def copy_of(folder: Path, tmp_path: Path) -> tuple[Path, Path]:
    """The event folder and a second entry of its round 1 (outside the folder, as a USB stick would bring it)."""
    event = Path(shutil.copytree(folder, tmp_path / "event"))
    other = tmp_path / "第二人录入.xlsx"
    shutil.copy(event / "round-1.xlsx", other)
    return event, other


def edit(path: Path, changes: dict[tuple[str, str], object]) -> None:
    wb = openpyxl.load_workbook(path)
    for (sheet, cell), value in changes.items():
        wb[sheet][cell] = value
    wb.save(path)


def test_a_single_swapped_digit_in_a_round_of_64_tables_is_caught(big, tmp_path):
    event, other = copy_of(big, tmp_path)
    wb = openpyxl.load_workbook(other)
    target = None
    for table in range(64, 0, -1):  # the last tables first: far from where anyone would look
        ws = wb[sheet_name(table)]
        for row in range(FIRST, FIRST + 30):
            value = ws.cell(row, POINTS).value
            if isinstance(value, int) and value >= 10 and str(value)[0] != str(value)[1]:
                text = str(value)
                swapped = int(text[1] + text[0] + text[2:])
                ws.cell(row, POINTS, swapped)
                target = (table, f"D{row}", value, swapped)
                break
        if target:
            break
    assert target is not None
    wb.save(other)
    before = {p: sha(p) for p in (event / "round-1.xlsx", other)}
    result = cli("score", event, "--round", 1, "--verify", other, code=1)
    table, cell, ours, theirs = target
    line = f"第{table}桌!{cell}：{ours} / {theirs}"
    assert "round-1.xlsx 与 第二人录入.xlsx 有 1 处不一致" in result.output
    assert f"  {line}\n" in result.output
    assert f"请对照纸质记分卡，改正录错的那一份，再运行 shuangsheng score {event} --round 1 --verify {other}\n" \
        in result.output  # the second file as typed (it is outside the event folder) and the round
    doc = json.loads(cli("score", event, "--round", 1, "--verify", other, "--json", code=1).stdout)
    assert doc["verify"] == {"file": "第二人录入.xlsx", "agree": False,
                             "differences": [{"where": f"第{table}桌!{cell}", "ours": str(ours), "theirs": str(theirs)}]}
    results = next(event.glob("第1轮成绩*.pdf"))
    text = "".join(page.extract_text() for page in pypdf.PdfReader(results).pages).replace("\n", "")
    assert "有 1 处不一致" in text and f"第{table}桌记分表 {cell} 格" in text and "xlsx" not in text  # in words
    assert {p: sha(p) for p in before} == before  # neither entry changed


def test_two_entries_that_agree_after_lenient_reading(small, tmp_path):
    event, other = copy_of(small, tmp_path)
    wb = openpyxl.load_workbook(other)
    ws = wb[sheet_name(1)]
    ws.cell(FIRST, 2, "甲方" if ws.cell(FIRST, 2).value == "甲" else "乙方")  # 庄家 written out
    ws.cell(FIRST, POINTS, f"{ws.cell(FIRST, POINTS).value}分".translate(str.maketrans("0123456789", "０１２３４５６７８９")))
    wb.save(other)
    result = cli("score", event, "--verify", other, code=0)
    assert "双人录入核对：round-1.xlsx 与 第二人录入.xlsx 逐格一致" in result.output
    assert json.loads(cli("score", event, "--verify", other, "--json", code=0).stdout)["verify"]["agree"] is True
    results = next(event.glob("第1轮成绩*.pdf"))
    text = "".join(page.extract_text() for page in pypdf.PdfReader(results).pages).replace("\n", "")
    assert "逐格一致" in text


def test_a_hand_typed_in_one_entry_only_and_a_forfeit_disagree(small, tmp_path):
    event, other = copy_of(small, tmp_path)
    wb = openpyxl.load_workbook(other)
    ws = wb[sheet_name(2)]
    last = max(r for r in range(FIRST, FIRST + 30) if ws.cell(r, 2).value)
    ws.cell(last, 2).value = None  # the second typist left out the last hand of table 2
    ws.cell(last, POINTS).value = None
    wb.save(other)
    matches = openpyxl.load_workbook(event / "round-1.xlsx")["对阵"]
    row = next(r for r in range(1, 30) if matches.cell(r, 1).value == 2 and matches.cell(r - 1, 1).value == 1)
    edit(event / "round-1.xlsx", {("对阵", f"D{row}"): "乙"})  # and the first marked table 2 as forfeited
    result = cli("score", event, "--verify", other, code=1)
    assert f"对阵!D{row}：乙 / 空" in result.output
    assert f"第2桌!B{last}：" in result.output and " / 空" in result.output


def test_a_second_entry_kept_in_the_event_folder_is_found_by_its_name(small, tmp_path):
    event, other = copy_of(small, tmp_path)
    inside = Path(shutil.move(other, event / other.name))
    edit(inside, {(sheet_name(1), f"D{FIRST}"): 195})
    result = cli("score", event, "--verify", inside.name, code=1)  # typed from another folder: the name alone
    assert f"{inside.name} 有 1 处不一致" in result.output and f"第1桌!D{FIRST}：" in result.output


def test_verify_refuses_another_round_and_the_same_file(small, big, tmp_path):
    event, _ = copy_of(small, tmp_path)
    result = cli("score", event, "--verify", big / "round-1.xlsx", code=1)
    assert "对阵与 round-1.xlsx 不同，不是同一轮、同一次抽签的另一份录入" in result.output
    result = cli("score", event, "--verify", event / "round-1.xlsx", code=1)
    assert "这就是 round-1.xlsx 本身" in result.output
    result = cli("score", event, "--verify", tmp_path / "nope.xlsx", code=1)
    assert f"nope.xlsx：找不到文件：{tmp_path / 'nope.xlsx'}" in result.output
    result = runner.invoke(app, ["score", str(event), "--verify", "nope.xlsx"])  # typed as a bare name: said once
    assert result.exit_code == 1 and "nope.xlsx：找不到文件\n" in result.output


@pytest.mark.skipif(not hasattr(os, "link"), reason="hard links")
def test_verify_refuses_a_hard_link_to_the_round_workbook(small, tmp_path):
    """Another name for the same file (same device and inode) is no second entry: it always 'agrees'."""
    event, _ = copy_of(small, tmp_path)
    alias = tmp_path / "第二人录入-链接.xlsx"
    os.link(event / "round-1.xlsx", alias)
    result = cli("score", event, "--verify", alias, code=1)
    assert "这就是 round-1.xlsx 本身（同一个文件）" in result.output and "逐格一致" not in result.output
    inside = event / "round-1 - 副本.xlsx"  # a hard link kept in the event folder, typed by its name alone
    os.link(event / "round-1.xlsx", inside)
    result = cli("score", event, "--verify", inside.name, code=1)
    assert "这就是 round-1.xlsx 本身" in result.output and "逐格一致" not in result.output


def test_a_difference_is_named_on_the_wall_as_every_problem_is():
    """The 对阵 sheet is 对阵表 (not 对阵记分表), a table's sheet its 记分表; a sheet missing from one file by name."""
    from shuangsheng.storage.workbook.problems import Cell
    from shuangsheng.storage.workbook.verify import Difference

    assert Difference("对阵", Cell(12, 8), "J", "K").in_words == "对阵表 H12 格"
    assert Difference("第3桌", Cell(9, 4), "85", "58").in_words == "第3桌记分表 D9 格"
    assert Difference("第3桌", None, "有", "没有").in_words == "第3桌记分表"
