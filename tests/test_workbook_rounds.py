"""round-N.xlsx (docs/workbooks.md): written, filled the way people really type, read back — also after LibreOffice; every bad cell named."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangsheng.game.hands import Hand, HandError, MatchRecord, Offense
from shuangsheng.game.levels import Level, Side
from shuangsheng.game.match import replay
from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.knockout.teams import Team
from shuangsheng.storage import workbook as wbk
from shuangsheng.storage.files import OutputExists
from shuangsheng.storage.workbook import HEADER, WorkbookError, read_round, read_teams, write_checked, write_round
from shuangsheng.storage.workbook.problems import Cell
from shuangsheng.storage.workbook.style import points_rule
from tests.helpers import sha
from tests.workbook_cases import (
    RECORD_1,
    RECORD_2,
    ROUND,
    ROWS_1,
    TEAMS,
    fill,
    filled_round,
)

A, B = Side.A, Side.B


@pytest.fixture(scope="module")
def filled(tmp_path_factory) -> Path:
    return filled_round(tmp_path_factory.mktemp("round"))



@pytest.fixture(scope="module")
def via_libreoffice(filled, tmp_path_factory) -> dict[str, Path]:
    """The filled workbook, and one with a formula typed in, each re-saved by LibreOffice (one soffice run)."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed: apt-get install libreoffice-calc-nogui")
    work = tmp_path_factory.mktemp("soffice")
    (work / "in").mkdir()
    shutil.copy(filled, work / "in" / "round-1.xlsx")
    formula = write_round(work / "in" / "round-2.xlsx", ROUND, TEAMS)
    fill(formula, {"第1桌": {"B7": "甲", "D7": "=40+40"}})
    out = work / "out"
    env = dict(os.environ, HOME=str(work))
    subprocess.run(
        [soffice, f"-env:UserInstallation=file://{work}/profile", "--headless", "--convert-to", "xlsx",
         "--outdir", str(out), str(work / "in" / "round-1.xlsx"), str(formula)],
        check=True, capture_output=True, timeout=180, env=env,
    )
    converted = {name: out / f"{name}.xlsx" for name in ("round-1", "round-2")}
    assert all(p.exists() for p in converted.values())
    return converted


def test_round_trip_reads_back_the_records_written(filled):
    sheet = read_round(filled)
    assert sheet.problems == ()
    assert sheet.round == ROUND
    one, two = sheet.matches
    assert (one.sheet, two.sheet) == ("第1桌", "第2桌")
    assert one.record == RECORD_1
    assert one.rows == ROWS_1
    assert two.record == RECORD_2
    assert two.rows == (7, 37)
    assert one.walkover is None and not one.open


def test_a_reading_known_to_the_caller_is_given_back_only_while_the_file_holds_the_same_bytes(filled, tmp_path):
    """`read_round(path, known)`: the caller's earlier reading stands for the file while its bytes are the same; a
    file changed since, or another path, is read anew."""
    path = tmp_path / "round-1.xlsx"
    shutil.copy(filled, path)
    first = read_round(path)
    assert read_round(path, first) is first
    assert read_round(path, read_round(filled)) == first and read_round(path, read_round(filled)).path == path
    wbk.fill_round(path, {1: RECORD_2})
    again = read_round(path, first)
    assert again.sha256 != first.sha256 and again.match(1).record != first.match(1).record
    assert again == read_round(path)


def test_libreoffice_resave_reads_back_the_same(filled, via_libreoffice, tmp_path):
    again = read_round(via_libreoffice["round-1"])
    first = read_round(filled)
    assert again.problems == ()
    assert again.round == first.round
    assert [m.record for m in again.matches] == [RECORD_1, RECORD_2]
    assert [m.rows for m in again.matches] == [m.rows for m in first.matches]
    out = write_checked(tmp_path / "checked.xlsx", again, {m.table: replay(m.record) for m in again.matches})
    assert openpyxl.load_workbook(out)["第1桌"]["G14"].comment is not None


def test_a_formula_saved_by_a_spreadsheet_application_reads_as_its_value(via_libreoffice):
    sheet = read_round(via_libreoffice["round-2"])
    assert sheet.problems == ()
    assert sheet.match(1).record.hands == (Hand(A, 80),)


def test_blank_round_reads_as_open_matches(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS)
    sheet = read_round(path)
    assert sheet.problems == ()
    assert all(m.open and m.record.hands == () for m in sheet.matches)


def test_several_byes_round_trip_through_the_bye_cell(tmp_path):
    teams = {f"{i:02d}": Team(f"{i:02d}", (f"张{i}", f"李{i}")) for i in range(1, 12)}
    first = Round(1, tuple(teams), (Pairing(1, "01", "02"), Pairing(2, "03", "04"), Pairing(3, "05", "06")),
                  ("07", "08", "09", "10", "11"), 99)
    path = write_round(tmp_path / "round-1.xlsx", first, teams)
    assert read_round(path).round == first


def test_the_bye_cell_lists_the_byes_in_number_order(tmp_path):
    """d13's round-1.xlsx 对阵!B4 read "10、06、08" (the draw's order): every list of team ids in number order, and
    the sheet still reads as the same draw as event.db's (byes compared as a set)."""
    from shuangsheng.usecases.folder import same_draw

    teams = {f"{i:02d}": Team(f"{i:02d}", (f"张{i}", f"李{i}")) for i in range(1, 14)}
    first = Round(1, tuple(teams), (Pairing(1, "01", "02"), Pairing(2, "03", "04"), Pairing(3, "05", "07"),
                                    Pairing(4, "09", "13"), Pairing(5, "11", "12")), ("10", "06", "08"), 7)
    path = write_round(tmp_path / "round-1.xlsx", first, teams)
    assert openpyxl.load_workbook(path)["对阵"]["B4"].value == "06、08、10"
    assert same_draw(read_round(path).round, first)


def test_round_metadata_round_trips_lots_third_place_and_walkover(tmp_path):
    final = Round(3, ("01", "02", "03", "04"), (Pairing(1, "01", "02"), Pairing(2, "03", "04", third_place=True)),
                  (), None, (("01", 3), ("02", 1), ("03", 4), ("04", 2)))
    path = write_round(tmp_path / "round-3.xlsx", final, TEAMS)
    fill(path, {"对阵": {"D9": "乙方"}})  # table 1's 乙方 forfeited
    sheet = read_round(path)
    assert sheet.round == final
    assert sheet.match(1).walkover is B
    assert sheet.match(2).walkover is None


def test_every_bad_cell_is_named_with_value_and_expectation(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS)
    fill(path, {
        "对阵": {"D10": "丙"},
        "第1桌": {"B7": "甲", "D7": "８７分", "B8": "丙", "D8": 40, "B9": "甲", "D9": 85.5,
                 "B10": "甲", "C10": "1", "D10": "7"},
        "第2桌": {"B7": "乙", "D7": 40, "F7": "3", "E9": "20", "D10": "40",
                 "B11": "甲", "D11": 150, "E11": 100},
    })
    before = sha(path)
    sheet = read_round(path)
    assert [str(p) for p in sheet.problems] == [
        "round-1.xlsx 对阵!D10：弃权应为空，或弃权的一方“甲”或“乙”（也可写组号 03 或 04），实际为“丙”",
        "round-1.xlsx 第1桌!D7：台下得分应为 0–200 之间 5 的倍数，实际为“８７分”",
        "round-1.xlsx 第1桌!B8：庄家应为“甲”或“乙”，实际为“丙”",
        "round-1.xlsx 第1桌!D9：台下得分应为 0–200 之间 5 的倍数，实际为“85.5”",
        "round-1.xlsx 第1桌!C10：庄家级应为 2…10、J、Q、K、A 或空，实际为“1”",
        "round-1.xlsx 第1桌!D10：台下得分应为 0–200 之间 5 的倍数，实际为“7”",
        "round-1.xlsx 第2桌!F7：抠底倍数应为空（庄家保底）或 ×2、×4、×8、×16、×32…（2 的乘方，两副牌最多 ×8192），实际为“3”",
        "round-1.xlsx 第2桌!B9：这一行填了底牌分，但庄家和台下得分都是空的；请补上庄家和台下得分，如这一局没有打请清空这一行",
        "round-1.xlsx 第2桌!B10：庄家应为“甲”或“乙”，实际为空",
        "round-1.xlsx 第2桌!E11：底牌分：台下得分 150 加底牌分 100 超过了两副牌的总分 200",
    ]
    assert not sheet.match(1).ok
    assert sha(path) == before


def test_engine_errors_map_to_the_cell_of_the_hand_and_field(filled):
    match = read_round(filled).match(1)
    result = replay(match.record)
    assert [str(match.locate(e)) for e in result.errors] == [
        "round-1.xlsx 第1桌!G14：第6局级牌抠底：级牌抠底只在庄家打 J 或 A 时适用，甲方此局打8"
    ]
    assert match.cell(3, "level") == Cell(10, 3)
    assert match.cell(3, None) == Cell(10, 1)
    assert str(match.locate(HandError.of_hand(None, None, "整场记录有误"))) == "round-1.xlsx 第1桌：整场记录有误"


def test_a_sheet_that_does_not_match_the_draw_is_reported(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS)
    wb = openpyxl.load_workbook(path)
    wb["第2桌"]["B2"] = "05"
    del wb["第1桌"]
    wb.save(path)
    problems = [str(p) for p in read_round(path).problems]
    assert problems == [
        "round-1.xlsx 第1桌：找不到工作表“第1桌”（对阵表第1桌的记分表）；如是误删：在 Excel/WPS 里右键另一桌的工作表"
        "标签（本轮只有一桌时，可从上一轮的工作簿里取），选“移动或复制”并勾选“建立副本”，把副本改名为“第1桌”；"
        "点“审阅→撤销工作表保护”（没有密码），把 B2、B3 改为本桌甲方“01”、乙方“02”，清空已录的各局，再照第1桌的记分卡录入",
        "round-1.xlsx 第2桌!B2：记分表甲方组号为“05”，与对阵表第2桌甲方“03”不一致",
    ]


@pytest.mark.parametrize("content,expected", [
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "旧版 Excel（.xls）"),
    (b"\xef\xbb\xbf\xe7\xbb\x84\xe5\x8f\xb7,\xe9\x98\x9f\xe5\x91\x981\n", "不是 xlsx 工作簿"),
    (b"PK\x03\x04garbage", "文件不完整"),  # a zip cut short: its directory at the end is missing
])
def test_a_file_that_is_not_an_xlsx_is_a_chinese_error(tmp_path, content, expected):
    path = tmp_path / "round-1.xlsx"
    path.write_bytes(content)
    for reader in (read_round, read_teams):
        with pytest.raises(WorkbookError) as info:
            reader(path)
        assert expected in str(info.value)
        assert str(info.value).startswith("round-1.xlsx：")


def test_a_zip_that_is_not_a_workbook_is_a_chinese_error(tmp_path):
    import zipfile

    path = tmp_path / "round-1.xlsx"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("hello.txt", "hi")
    with pytest.raises(WorkbookError, match="压缩包里没有 Excel 工作簿的内容"):
        read_round(path)
    with pytest.raises(WorkbookError, match="找不到文件"):
        read_round(tmp_path / "nope.xlsx")


def test_round_workbook_layout_validation_protection_and_print(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS, rules_note="规则：台下得分不够80分，每少20分庄家升一级")
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["对阵", "第1桌", "第2桌"]
    ws = wb["第1桌"]
    assert [c.value for c in ws[6]] == list(HEADER)
    assert (ws["B2"].value, ws["C2"].value, ws["B3"].value) == ("01", "张1、李1", "02")
    assert [ws.cell(r, 1).value for r in (7, 36, 37, 46)] == [1, 30, "加1", "加10"]
    assert ws["K37"].value == "是" and ws["K36"].value is None
    lists = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
    assert lists["B7:B46"].formula1 == '"甲,乙"'
    assert lists["C7:C46"].formula1 == '"2,3,4,5,6,7,8,9,10,J,Q,K,A"'
    assert lists["F7:F46"].formula1 == '"×2,×4,×8,×16,×32"'
    assert lists["G7:G46"].formula1 == lists["K7:K46"].formula1 == '"是"'
    assert lists["J7:J46"].formula1 == '"台上扣错底,台下扣错底,台上出错牌,台下出错牌"'
    assert (lists["D7:D46"].type, lists["D7:D46"].formula1) == ("custom", points_rule("D7", "E7"))
    assert (lists["E7:E46"].type, lists["E7:E46"].formula1) == ("custom", points_rule("E7", "D7"))
    assert lists["D7:D46"].allow_blank and lists["D7:D46"].errorStyle in (None, "stop")
    assert lists["H7:H46"].type == "whole" and "张数" in lists["H7:H46"].error
    assert "台下得分应为 0–200 之间 5 的倍数" in lists["D7:D46"].error
    assert ws.protection.sheet and not ws.protection.password
    assert ws["A7"].protection.locked and ws["A6"].protection.locked and ws["B2"].protection.locked
    assert not ws["B7"].protection.locked and not ws["L46"].protection.locked
    assert ws.page_setup.orientation == "landscape" and int(ws.page_setup.paperSize) == 9  # A4
    # fitToWidth and fitToHeight default to 1 in the file format (left out when 1)
    assert ws.page_setup.fitToWidth in (None, 1) and ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.page_setup.fitToHeight in (None, 1)  # one sheet of paper per table
    assert ws.print_title_rows.replace("$", "") == "6:6"
    assert ws.freeze_panes == "B7"
    assert ws.column_dimensions["D"].width >= 12  # 台下得分 fits
    assert not any(c.data_type == "f" for row in ws.iter_rows() for c in row)
    matches = wb["对阵"]
    assert [c.value for c in matches[8]][:4] == ["桌号", "甲方", "乙方", "弃权"]
    assert not matches["D9"].protection.locked and matches["B9"].protection.locked
    with pytest.raises(OutputExists):
        write_round(path, ROUND, TEAMS)


def test_a_formula_without_a_saved_value_is_an_error_not_a_blank(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS)
    fill(path, {"第1桌": {"B7": "甲", "D7": "=40+45"}})
    assert [str(p) for p in read_round(path).problems] == [
        "round-1.xlsx 第1桌!D7：台下得分应为 0–200 之间 5 的倍数，实际为“公式 =40+45"
        "（文件中没有计算结果；请在 Excel/WPS 中打开后保存，或直接填写数值）”"
    ]


def test_the_referee_simulation_keeps_the_drawn_workbook_and_what_was_typed_before(tmp_path):
    """fill_round writes the workbook anew: the look, validation and protection `draw` gave it, the values typed
    by an earlier fill, and the new ones, each in its input cell."""
    note = "规则：台下得分不够80分，每少20分庄家升一级"
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS, rules_note=note)

    def layout(ws):
        rules = {(str(dv.sqref), dv.type, dv.formula1) for dv in ws.data_validations.dataValidation}
        return rules, [ws.column_dimensions[c].width for c in "ABCDL"], ws.freeze_panes, ws.protection.sheet

    drawn = openpyxl.load_workbook(path)
    wbk.fill_round(path, {1: RECORD_1})
    wbk.fill_round(path, {2: RECORD_2}, walkovers={})
    sheet = read_round(path)
    assert sheet.problems == ()
    assert [m.record for m in sheet.matches] == [RECORD_1, RECORD_2]
    filled = openpyxl.load_workbook(path)
    for title in drawn.sheetnames:
        assert layout(filled[title]) == layout(drawn[title]), title
    ws = filled["第1桌"]
    assert (ws["B7"].value, ws["D7"].value, ws["A5"].value) == ("甲", 35, note)
    assert not ws["D7"].protection.locked and ws["D7"].border.left.style == "thin"
    assert ws["C2"].value == "张1、李1" and filled["对阵"]["B6"].value == note


@st.composite
def recorded_hands(draw, *, playoff: bool) -> Hand:
    """Any hand a referee can record: values each column accepts, and nothing check_hand refuses."""
    points = draw(st.integers(0, 40)) * 5
    bottom = draw(st.integers(0, (200 - points) // 5)) * 5
    capture = draw(st.sampled_from([0, 2, 4, 8, 16, 32]))
    return Hand(
        dealer=draw(st.sampled_from(list(Side))),
        points=points,
        bottom=bottom,
        capture=capture,
        level_card_capture=bool(capture) and draw(st.booleans()),
        dealer_wrong_cards=draw(st.integers(0, 4)),
        defender_wrong_cards=draw(st.integers(0, 4)),
        offense=draw(st.none() | st.sampled_from(list(Offense))),
        playoff=playoff,
        level=draw(st.none() | st.sampled_from(list(Level))),
    )


@st.composite
def table_records(draw) -> MatchRecord:
    regular = draw(st.lists(recorded_hands(playoff=False), max_size=wbk.REGULAR_ROWS))
    playoff = draw(st.lists(recorded_hands(playoff=True), max_size=wbk.PLAYOFF_ROWS))
    return MatchRecord(tuple(regular + playoff))


@pytest.fixture(scope="module")
def blank_round(tmp_path_factory) -> Path:
    return write_round(tmp_path_factory.mktemp("blank") / "round-1.xlsx", ROUND, TEAMS)


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.sampled_from([1, 2]), table_records(), min_size=1), st.sampled_from([None, 1, 2]))
def test_a_round_filled_as_a_referee_would_reads_back_the_same_hands(blank_round, tmp_path_factory, records,
                                                                     walkover):
    path = tmp_path_factory.mktemp("filled") / "round-1.xlsx"
    shutil.copy(blank_round, path)
    walkovers = {walkover: Side.B} if walkover else {}
    wbk.fill_round(path, records, walkovers=walkovers)
    sheet = read_round(path)
    assert sheet.problems == ()
    for match in sheet.matches:
        assert match.record.hands == records.get(match.table, MatchRecord(())).hands
        assert match.walkover is (Side.B if match.table == walkover else None)
