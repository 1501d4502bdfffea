"""The workbooks (SPEC §3): written, filled the way people really type, read back — also after LibreOffice."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import workbook as wbk
from scoring.files import OutputExists
from scoring.hands import Hand, HandError, MatchRecord, Offense
from scoring.knockout import Pairing, Round
from scoring.levels import Level, Side
from scoring.match import replay
from scoring.teams import Team
from scoring.workbook.problems import Cell
from scoring.workbook import (
    HEADER,
    WorkbookError,
    parse_capture,
    parse_flag,
    parse_level,
    parse_points,
    parse_side,
    read_lots,
    read_round,
    read_teams,
    write_checked,
    write_round,
    write_teams,
    write_teams_template,
)

A, B = Side.A, Side.B
TEAMS = {f"{i:02d}": Team(f"{i:02d}", (f"张{i}", f"李{i}")) for i in range(1, 6)}
ROUND = Round(1, tuple(TEAMS), (Pairing(1, "01", "02"), Pairing(2, "03", "04")), ("05",), 1234)
FIRST = 7  # first hand row of a match sheet

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


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def filled(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("round") / "round-1.xlsx"
    write_round(path, ROUND, TEAMS)
    return fill(path, {"第1桌": MESSY_1, "第2桌": MESSY_2})


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


# --- round trip ---


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


def test_round_metadata_round_trips_lots_third_place_and_walkover(tmp_path):
    final = Round(3, ("01", "02", "03", "04"), (Pairing(1, "01", "02"), Pairing(2, "03", "04", third_place=True)),
                  (), None, (("01", 3), ("02", 1), ("03", 4), ("04", 2)))
    path = write_round(tmp_path / "round-3.xlsx", final, TEAMS)
    fill(path, {"对阵": {"D9": "乙方"}})  # table 1's 乙方 forfeited
    sheet = read_round(path)
    assert sheet.round == final
    assert sheet.match(1).walkover is B
    assert sheet.match(2).walkover is None


# --- the lenient cell parsers ---

FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


def _render_number(n: int, form: int, suffix: str) -> object:
    text = str(n)
    return [n, float(n), text, text.translate(FULLWIDTH), f" {text} ", f"{text}{suffix}", f"{text.translate(FULLWIDTH)} {suffix}",
            f"\u3000{text}\u3000"][form]


@given(st.integers(0, 40).map(lambda k: 5 * k), st.integers(0, 7))
def test_any_point_value_in_any_accepted_form_parses_back(n, form):
    assert parse_points(_render_number(n, form, "分")) == n


@given(st.integers(0, 200).filter(lambda n: n % 5), st.integers(0, 7))
def test_points_not_a_multiple_of_5_are_refused(n, form):
    with pytest.raises(ValueError):
        parse_points(_render_number(n, form, "分"))


@given(st.integers(1, 5).map(lambda k: 2**k), st.sampled_from(["{}", "×{}", "x{}", "X{}", "ｘ{}", "*{}", "{}倍", " × {} 倍 ", "{}.0"]),
       st.booleans())
def test_any_capture_multiplier_spelling_parses_back(n, template, fullwidth):
    text = template.format(n)
    if fullwidth:
        text = text.translate(FULLWIDTH)
    assert parse_capture(text) == n
    assert parse_capture(n) == n


@pytest.mark.parametrize("raw", ["3", "×1", "x", "6倍", "四倍", 2.5, True, "×-4"])
def test_capture_refuses_what_is_not_a_power_of_two(raw):
    with pytest.raises(ValueError):
        parse_capture(raw)


@pytest.mark.parametrize("raw,expected", [
    ("是", True), ("√", True), ("✓", True), ("Y", True), ("y", True), ("yes", True), (1, True), (True, True),
    ("Ｙ", True), (None, False), ("", False), ("否", False), ("N", False), (0, False), (False, False),
])
def test_flag_spellings(raw, expected):
    assert parse_flag(raw) is expected


@pytest.mark.parametrize("raw", ["可能", "×", 2, "是的吧"])
def test_flag_refuses_other_text(raw):
    with pytest.raises(ValueError):
        parse_flag(raw)


@given(st.sampled_from([(A, "甲"), (B, "乙")]), st.sampled_from(["{}", "{}方", " {} ", "{}\u3000方"]))
def test_side_spellings(pair, template):
    side, cn = pair
    assert parse_side(template.format(cn)) is side


@pytest.mark.parametrize("raw,expected", [(2, Level.TWO), (10.0, Level.TEN), ("１０", Level.TEN), ("j", Level.JACK),
                                          ("A", Level.ACE), ("K级", Level.KING), (None, None)])
def test_level_spellings(raw, expected):
    assert parse_level(raw) is expected


# --- errors: exact cells, all at once ---


def test_every_bad_cell_is_named_with_value_and_expectation(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS)
    fill(path, {
        "对阵": {"D10": "丙"},
        "第1桌": {"B7": "甲", "D7": "８７分", "B8": "丙", "D8": 40, "B9": "甲", "D9": 85.5,
                 "B10": "甲", "C10": "1", "D10": "7"},
        "第2桌": {"B7": "乙", "D7": 40, "F7": "3", "E9": "20", "D10": "40",
                 "B11": "甲", "D11": 150, "E11": 100},
    })
    before = sha256(path)
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
    assert sha256(path) == before


def test_engine_errors_map_to_the_cell_of_the_hand_and_field(filled):
    match = read_round(filled).match(1)
    result = replay(match.record)
    assert [str(match.locate(e)) for e in result.errors] == [
        "round-1.xlsx 第1桌!G14：第6局级牌抠底：级牌抠底只在庄家打 J 或 A 时适用，甲方此局打8"
    ]
    assert match.cell(3, "level") == Cell(10, 3)
    assert match.cell(3, None) == Cell(10, 1)
    assert str(match.locate(HandError(None, None, "整场记录有误"))) == "round-1.xlsx 第1桌：整场记录有误"


def test_a_sheet_that_does_not_match_the_draw_is_reported(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS)
    wb = openpyxl.load_workbook(path)
    wb["第2桌"]["B2"] = "05"
    del wb["第1桌"]
    wb.save(path)
    problems = [str(p) for p in read_round(path).problems]
    assert problems == [
        "round-1.xlsx 第1桌：找不到工作表“第1桌”（对阵表第1桌的记分表）",
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


# --- the checked copy ---


def test_checked_copy_has_levels_marks_and_never_touches_the_input(filled, tmp_path):
    before = sha256(filled)
    sheet = read_round(filled)
    results = {m.table: replay(m.record) for m in sheet.matches}
    out = write_checked(tmp_path / "round-1-checked.xlsx", sheet, results)
    assert sha256(filled) == before
    assert wbk.checked_path(filled).name == "round-1-checked.xlsx"
    wb = openpyxl.load_workbook(out)
    assert wb.sheetnames[0] == "检查结果"
    ws = wb["第1桌"]
    header = [c.value for c in ws[6]]
    assert header[: len(HEADER)] == list(HEADER)
    assert header[len(HEADER):] == ["检查", "台下总分", "甲方级", "乙方级", "下局庄家", "说明"]
    assert [ws.cell(7, c).value for c in range(13, 18)] == ["✓", 35, "5", "2", "甲"]
    assert ws.cell(7, 18).value.startswith("第1局：甲方坐庄打2")
    assert ws["G14"].fill.fgColor.rgb.endswith("FFC7CE")
    assert "级牌抠底只在庄家打 J 或 A 时适用" in ws["G14"].comment.text
    assert ws.cell(14, 13).value == "✗"
    assert "级牌抠底只在庄家打 J 或 A 时适用" in ws.cell(14, 18).value
    assert "胜者 04" in wb["检查结果"]["G6"].value
    assert wb["检查结果"]["F5"].value == 1 and "1 处错误" in wb["检查结果"]["G5"].value
    assert wb["检查结果"]["A10"].value == "round-1.xlsx 第1桌!G14"
    assert wb["检查结果"]["D10"].value.startswith("第6局级牌抠底")
    with pytest.raises(OutputExists):
        write_checked(out, sheet, results)
    with pytest.raises(ValueError):
        write_checked(filled, sheet, results, force=True)


def test_checked_copy_refuses_a_source_changed_since_reading(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS)
    sheet = read_round(path)
    fill(path, {"第1桌": {"B7": "甲"}})
    with pytest.raises(WorkbookError, match="被修改过"):
        write_checked(tmp_path / "c.xlsx", sheet, {})


# --- the written workbook ---


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
    assert (lists["D7:D46"].type, lists["D7:D46"].formula1, lists["D7:D46"].formula2) == ("whole", "0", "200")
    assert lists["H7:H46"].type == "whole" and "张数" in lists["H7:H46"].error
    assert "台下得分应为 0–200 之间 5 的倍数" in lists["D7:D46"].error
    assert ws.protection.sheet and not ws.protection.password
    assert ws["A7"].protection.locked and ws["A6"].protection.locked and ws["B2"].protection.locked
    assert not ws["B7"].protection.locked and not ws["L46"].protection.locked
    assert ws.page_setup.orientation == "landscape" and int(ws.page_setup.paperSize) == 9  # A4
    assert ws.page_setup.fitToWidth == 1 and ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.page_setup.fitToHeight == 1  # one sheet of paper per table
    assert ws.print_title_rows.replace("$", "") == "6:6"
    assert ws.freeze_panes == "B7"
    assert ws.column_dimensions["D"].width >= 12  # 台下得分 fits
    assert not any(c.data_type == "f" for row in ws.iter_rows() for c in row)
    matches = wb["对阵"]
    assert [c.value for c in matches[8]][:4] == ["桌号", "甲方", "乙方", "弃权"]
    assert not matches["D9"].protection.locked and matches["B9"].protection.locked
    with pytest.raises(OutputExists):
        write_round(path, ROUND, TEAMS)


# --- teams.xlsx ---


def test_teams_template_example_rows_must_be_removed(tmp_path):
    path = write_teams_template(tmp_path / "teams.xlsx")
    ws = openpyxl.load_workbook(path)["报名表"]
    assert [c.value for c in ws[1]] == ["组号", "队员1", "队员2", "联系电话", "备注"]
    assert ws["A2"].number_format == "@"
    with pytest.raises(WorkbookError) as info:
        read_teams(path)
    assert info.value.messages[0].startswith("teams.xlsx 报名表!E2：这是模板里的示例行")


def test_teams_read_ids_as_text_and_name_every_bad_cell(tmp_path):
    path = write_teams_template(tmp_path / "teams.xlsx")
    wb = openpyxl.load_workbook(path)
    ws = wb["报名表"]
    ws.delete_rows(2, 2)  # the example rows
    rows = [
        (3, "张三", "李四", 2973620, None),
        ("０７", " 王  五 ", "赵六", "", "老年组"),
        ("12", "钱七", "", None, None),
        ("07", "孙八", "张三", None, None),
        (None, None, None, None, None),
        (3.5, "周九", "吴十", None, None),
        ("03", "郑一", "冯二", None, None),
    ]
    for r, values in enumerate(rows, start=2):
        for c, v in enumerate(values, start=1):
            ws.cell(r, c, v)
    wb.save(path)
    with pytest.raises(WorkbookError) as info:
        read_teams(path)
    assert info.value.messages == [
        "teams.xlsx 报名表!C4：每组应有两名队员，此处为空",
        "teams.xlsx 报名表!A5：组号“07”与第3行重复",
        "teams.xlsx 报名表!C5：队员“张三”已在第2行（第03组）报名，每人只能参加一组",
        "teams.xlsx 报名表!A7：组号应为文字或整数（如 01、12），实际为“3.5”",
        "teams.xlsx 报名表!A8：组号“03”与第2行重复",
    ]
    for r in (4, 5, 6, 7, 8):
        ws.cell(r, 1).value = None
        for c in range(2, 6):
            ws.cell(r, c).value = None
    wb.save(path)
    assert read_teams(path) == (Team("03", ("张三", "李四"), "2973620"), Team("07", ("王 五", "赵六"), "", "老年组"))


def test_write_teams_round_trips(tmp_path):
    teams = tuple(TEAMS.values())
    assert read_teams(write_teams(tmp_path / "teams.xlsx", teams)) == teams


# --- paper lots ---


def test_lots_from_csv_in_gbk_and_from_xlsx(tmp_path):
    csv_path = tmp_path / "lots.csv"
    csv_path.write_bytes("组号,签号\n01,3\n02,１号\n\n03,4\n".encode("gbk"))
    assert read_lots(csv_path) == (("01", 3), ("02", 1), ("03", 4))
    xlsx = tmp_path / "lots.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "签号"
    for row in (("说明：现场抽签",), ("组号", "签号"), ("01", 2), (5, "x"), ("", 3)):
        wb.active.append(row)
    wb.save(xlsx)
    with pytest.raises(WorkbookError) as info:
        read_lots(xlsx)
    assert info.value.messages == [
        "lots.xlsx 签号!B4：签号应为正整数，实际为“x”",
        "lots.xlsx 签号!A5：组号应为文字或整数，实际为空",
    ]
    csv_path.write_text("组号,签号\n01,0\n", encoding="utf-8")
    with pytest.raises(WorkbookError, match=r"lots.csv 第2行第2列：签号应为正整数，实际为“0”"):
        read_lots(csv_path)


def test_a_formula_without_a_saved_value_is_an_error_not_a_blank(tmp_path):
    path = write_round(tmp_path / "round-1.xlsx", ROUND, TEAMS)
    fill(path, {"第1桌": {"B7": "甲", "D7": "=40+45"}})
    assert [str(p) for p in read_round(path).problems] == [
        "round-1.xlsx 第1桌!D7：台下得分应为 0–200 之间 5 的倍数，实际为“公式 =40+45"
        "（文件中没有计算结果；请在 Excel/WPS 中打开后保存，或直接填写数值）”"
    ]


def test_a_problem_keeps_its_place_structured_until_shown():
    from scoring.workbook.problems import Problem, column_letter

    assert [column_letter(c) for c in (1, 26, 27, 52, 702, 703)] == ["A", "Z", "AA", "AZ", "ZZ", "AAA"]
    assert Problem("round-1.xlsx", "对阵", Cell(9, 1, last_column=3), "x").where == "round-1.xlsx 对阵!A9:C9"
    assert Problem("round-1.xlsx", "第3桌", Cell(9, 4), "x").where == "round-1.xlsx 第3桌!D9"
    assert str(Problem("lots.csv", None, Cell(3, 2), "签号应为正整数")) == "lots.csv 第3行第2列：签号应为正整数"
    assert Problem("teams.xlsx", "报名表", None, "x").where == "teams.xlsx 报名表"
    ordered = sorted([Problem("f", "s", Cell(10, 2), ""), Problem("f", "s", Cell(9, 27), ""), Problem("f", "s", None, "")],
                     key=Problem.order)
    assert [p.cell for p in ordered] == [None, Cell(9, 27), Cell(10, 2)]


def test_a_hand_error_is_worded_only_when_shown():
    error = HandError(3, "points", "应为 0–200 之间 5 的倍数，实际为 7")
    assert error.message == "第3局台下得分：应为 0–200 之间 5 的倍数，实际为 7"
    assert error.in_hand == "台下得分：应为 0–200 之间 5 的倍数，实际为 7"
    assert HandError(3, "extra", "未知的字段").message == "第3局：未知的字段"
    assert HandError(None, "rules", "rules 应为对象").message == "rules 应为对象"


def test_the_referee_simulation_types_into_cells_and_rows_the_file_lacks():
    from scoring.workbook.referee import _set_cells

    xml = ('<worksheet><sheetData><row r="2"><c r="A2" s="3"/><c r="C2" s="4" t="inlineStr"><is><t>x</t></is></c>'
           "</row></sheetData><mergeCells/></worksheet>")
    assert _set_cells(xml, {(2, 2): "甲", (2, 3): 5, (1, 1): "t", (4, 1): "<&>"}) == (
        '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>t</t></is></c></row>'
        '<row r="2"><c r="A2" s="3"/><c r="B2" t="inlineStr"><is><t>甲</t></is></c><c r="C2" s="4"><v>5</v></c></row>'
        '<row r="4"><c r="A4" t="inlineStr"><is><t>&lt;&amp;&gt;</t></is></c></row></sheetData><mergeCells/></worksheet>'
    )


def test_checked_copy_prints_every_explanation_whole_at_10_pt_or_more(filled, tmp_path):
    """Printed through LibreOffice: no text under 10 pt, and each row tall enough that no explanation is cut."""
    import pdfplumber

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed: apt-get install libreoffice-calc-nogui")
    sheet = read_round(filled)
    results = {m.table: replay(m.record) for m in sheet.matches}
    out = write_checked(tmp_path / "round-1-checked.xlsx", sheet, results)
    env = dict(os.environ, HOME=str(tmp_path))
    subprocess.run(
        [soffice, f"-env:UserInstallation=file://{tmp_path}/profile", "--headless", "--convert-to", "pdf",
         "--outdir", str(tmp_path), str(out)],
        check=True, capture_output=True, timeout=180, env=env,
    )
    column = ""  # the text of each page's rightmost column (说明 on the tables' pages), top to bottom
    with pdfplumber.open(tmp_path / "round-1-checked.pdf") as pdf:
        sizes = [c["size"] for page in pdf.pages for c in page.chars]
        for page in pdf.pages:
            xs = sorted({round(e["x0"]) for e in page.edges if e["orientation"] == "v"})
            column += "".join((page.crop((xs[-2], 0, xs[-1], page.height)).extract_text() or "").split())
    assert sizes and min(sizes) >= 10
    explanations = [o.explanation for r in results.values() for o in r.outcomes]
    assert len(explanations) >= 5
    for line in explanations:
        assert "".join(line.split()) in column
