"""teams.xlsx shown and edited from the console's 报名 page (shuangsheng/storage/workbook/teams_edit.py): the table
with each problem at its cell, a team added or corrected only when the file is unchanged and not open, checked by
the reader, text kept as text, everything else kept."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest
from openpyxl.comments import Comment
from openpyxl.styles import Font

from shuangsheng.knockout.teams import Team
from shuangsheng.storage import files, workbook
from shuangsheng.storage.workbook.loading import read_grids
from shuangsheng.storage.workbook.teams_edit import (
    TeamsInvalid,
    TeamsOpen,
    TeamsStale,
    add_team,
    correct_team,
    next_id,
    read_team_table,
)
from shuangsheng.vocabulary.places import Cell


@pytest.fixture
def template(tmp_path: Path) -> Path:
    path = tmp_path / "teams.xlsx"
    workbook.write_teams_template(path)
    return path


def listed(tmp_path: Path, rows, *, header=("组号", "队员1", "队员2", "联系电话", "备注")) -> Path:
    """A teams.xlsx as a person might have made it in Excel: only the columns given, a comment, a styled header,
    a column of their own and a width."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "报名表"
    ws.append(list(header))
    for row in rows:
        ws.append(list(row))
    ws.cell(1, 1).font = Font(bold=True, color="FF0000")
    ws.cell(1, len(header)).font = Font(bold=True, color="0000FF")
    ws.cell(2, 2).comment = Comment("队长", "办公室")
    ws.cell(1, len(header) + 2).value = "签到"  # a column of their own, one apart
    ws.column_dimensions["B"].width = 21
    path = tmp_path / "teams.xlsx"
    wb.save(path)
    return path


# --- the table ---


def test_the_table_shows_every_row_as_text_with_each_problem_at_its_cell(template):
    table = read_team_table(template)
    assert table.columns == ("组号", "队员1", "队员2", "联系电话", "备注", "单位", "种子", "候补")
    assert (table.sheet, table.header_row, table.positions) == ("报名表", 1, (1, 2, 3, 4, 5, 6, 7, 8))
    assert [(r.row, r.team_id, r.cells[:5]) for r in table.rows] == [
        (2, "01", ("01", "张三", "李四", "2973620", "示例，请删除")), (3, "02", ("02", "王五", "赵六", "", "示例，请删除"))]
    assert [(i.sheet, i.cell) for i in table.issues] == [("报名表", Cell(2, 5)), ("报名表", Cell(3, 5))]
    assert [r.issues for r in table.rows] == [(table.issues[0],), (table.issues[1],)]
    assert table.fingerprint == files.sha256(template.read_bytes())


def test_a_list_without_its_header_is_a_table_of_no_rows_and_the_reader_s_problem(tmp_path):
    path = tmp_path / "teams.xlsx"
    wb = openpyxl.Workbook()
    wb.active.title = "报名表"
    wb.active.append(["姓名", "电话"])
    wb.save(path)
    table = read_team_table(path)
    assert (table.sheet, table.rows, table.columns) == (None, (), ())
    assert "找不到表头行" in table.issues[0].detail


# --- adding ---


def test_the_first_team_added_to_init_s_list_takes_the_place_of_the_examples(template):
    before = template.read_bytes()
    edit = add_team(template, {"队员1": "张三", "队员2": "李四", "联系电话": "13800000000"}, read_team_table(template).fingerprint)
    assert (edit.team_id, edit.row, edit.added_columns) == ("01", 2, ())
    assert workbook.read_teams(template) == (Team("01", ("张三", "李四"), "13800000000"),)
    assert edit.table.issues == () and edit.fingerprint == files.sha256(template.read_bytes())
    assert edit.backup.parent == template.parent / "备份" and edit.backup.read_bytes() == before
    wb = openpyxl.load_workbook(template)
    assert wb.sheetnames == ["报名表", "填写说明"]  # the guide sheet kept
    assert [str(dv.sqref) for dv in wb["报名表"].data_validations.dataValidation] == ["A2:A200", "B2:B200", "C2:C200"]
    assert wb["报名表"]["A2"].number_format == "@"  # the text format of the prepared row kept
    assert not wb["报名表"]["B2"].font.italic and not wb["报名表"]["A3"].font.italic  # no longer the examples' look


@pytest.mark.parametrize(("ids", "expected"), [
    ([], "01"), (["01", "02", "07"], "08"), (["1", "2", "9"], "10"), (["A01", "A02"], "A03"),
    (["01", "99"], "100"), (["001", "2"], "003"), (["x", "B7"], "B8"), (["3", "03x"], "4"),
])
def test_the_next_free_id_follows_the_file_s_own_style(ids, expected):
    assert next_id(ids) == expected


def test_a_team_is_added_below_the_last_in_the_file_s_style_keeping_everything_else(tmp_path):
    path = listed(tmp_path, [(1, "张三", "李四", None, None), (2, "王五", "赵六", 2973620, "迟到")])
    edit = add_team(path, {"队员1": "孙七", "队员2": "周八", "单位": ""}, read_team_table(path).fingerprint)
    assert (edit.team_id, edit.row, edit.added_columns) == ("3", 4, ())  # no 单位 column for an empty 单位
    wb = openpyxl.load_workbook(path)
    ws = wb["报名表"]
    assert [[c.value for c in row] for row in ws.iter_rows(min_row=1, max_row=4, max_col=7)] == [
        ["组号", "队员1", "队员2", "联系电话", "备注", None, "签到"], [1, "张三", "李四", None, None, None, None],
        [2, "王五", "赵六", 2973620, "迟到", None, None], ["3", "孙七", "周八", None, None, None, None]]
    assert ws["B2"].comment.text == "队长" and ws.column_dimensions["B"].width == 21
    assert ws["A1"].font.color.rgb == "00FF0000"


def test_a_missing_optional_column_is_added_only_for_a_value_that_needs_it(tmp_path):
    path = listed(tmp_path, [("01", "张三", "李四", None, None)])
    edit = add_team(path, {"队员1": "王五", "队员2": "赵六", "单位": "化学系", "候补": "是"}, read_team_table(path).fingerprint)
    assert edit.added_columns == ("单位", "候补")
    ws = openpyxl.load_workbook(path)["报名表"]
    assert [ws.cell(1, c).value for c in range(1, 10)] == ["组号", "队员1", "队员2", "联系电话", "备注", None, "签到", "单位", "候补"]
    assert ws.cell(1, 8).font.color.rgb == "000000FF"  # the header's look, from its last column
    assert workbook.read_teams(path)[1] == Team("02", ("王五", "赵六"), unit="化学系", reserve=True)


@pytest.mark.parametrize("text", ["=1+1", "=HYPERLINK(\"x\")", "+8613800000000", "-5", "@SUM(A1)"])
def test_user_text_is_stored_as_text_never_as_a_formula(template, text):
    fingerprint = read_team_table(template).fingerprint
    add_team(template, {"队员1": text, "队员2": "李四", "备注": text}, fingerprint)
    data = template.read_bytes()
    grid = read_grids(data, "teams.xlsx")["报名表"]  # calamine, which reads a formula's saved value
    assert (grid.get(2, 2), grid.get(2, 5)) == (text, text)
    ws = openpyxl.load_workbook(io.BytesIO(data))["报名表"]
    assert (ws["B2"].value, ws["B2"].data_type, ws["E2"].data_type) == (text, "s", "s")
    assert workbook.read_teams(template)[0].players[0] == text


# --- correcting ---


def test_a_team_is_corrected_in_its_own_cells_only(tmp_path):
    path = listed(tmp_path, [(1, "张三", "李四", None, "老师"), (2, "王五", "赵六", 2973620, "迟到")])
    edit = correct_team(path, "02", {"队员2": "赵陆", "备注": ""}, read_team_table(path).fingerprint)
    assert (edit.team_id, edit.row) == ("02", 3)
    ws = openpyxl.load_workbook(path)["报名表"]
    assert [c.value for c in ws[3]][:5] == [2, "王五", "赵陆", 2973620, None]
    assert [c.value for c in ws[2]][:5] == [1, "张三", "李四", None, "老师"] and ws["B2"].comment.text == "队长"


def test_a_team_that_is_not_in_the_list_or_is_in_it_twice_is_not_corrected(tmp_path):
    path = listed(tmp_path, [(1, "张三", "李四"), ("01", "王五", "赵六")])
    fingerprint = read_team_table(path).fingerprint
    with pytest.raises(TeamsInvalid, match="报名表里没有组号 7"):
        correct_team(path, "7", {"队员1": "孙七"}, fingerprint)
    with pytest.raises(TeamsInvalid, match="有 2 行（第2行、第3行）"):
        correct_team(path, "1", {"队员1": "孙七"}, fingerprint)


def test_a_correction_that_leaves_the_row_wrong_is_refused_with_the_reader_s_problems(tmp_path):
    path = listed(tmp_path, [(1, "张三", "李四"), (2, "王五", "王五")])
    table = read_team_table(path)
    assert [i.row for i in table.issues] == [3]
    with pytest.raises(TeamsInvalid) as info:
        correct_team(path, "2", {"联系电话": "123"}, table.fingerprint)
    assert [i.row for i in info.value.issues] == [3]
    edit = correct_team(path, "2", {"队员2": "赵六"}, table.fingerprint)
    assert edit.table.issues == ()


# --- refusals: nothing written ---


def _untouched(path: Path, before: bytes) -> None:
    assert path.read_bytes() == before and not (path.parent / "备份").exists()
    assert sorted(p.name for p in path.parent.iterdir() if "备份" in p.name) == []


def test_a_new_problem_is_refused_with_the_reader_s_record_at_its_cell(tmp_path):
    path = listed(tmp_path, [(1, "张三", "李四")])
    before = path.read_bytes()
    with pytest.raises(TeamsInvalid) as info:
        add_team(path, {"队员1": "张三", "队员2": "王五", "种子": "第一"}, read_team_table(path).fingerprint)
    assert {(i.file, i.sheet, i.cell) for i in info.value.issues} == {("teams.xlsx", "报名表", Cell(3, 2)),
                                                                       ("teams.xlsx", "报名表", Cell(3, 8))}
    _untouched(path, before)


def test_an_old_problem_elsewhere_does_not_stop_an_edit(tmp_path):
    path = listed(tmp_path, [(1, "张三", "张三")])
    edit = add_team(path, {"队员1": "王五", "队员2": "赵六"}, read_team_table(path).fingerprint)
    assert [i.row for i in edit.table.issues] == [2]


def test_a_file_changed_since_it_was_read_is_not_written_over(template):
    fingerprint = read_team_table(template).fingerprint
    workbook.write_teams(template, [Team("01", ("甲", "乙"))], force=True)  # saved in Excel meanwhile
    before = template.read_bytes()
    with pytest.raises(TeamsStale, match="重新读取"):
        add_team(template, {"队员1": "张三", "队员2": "李四"}, fingerprint)
    _untouched(template, before)


@pytest.mark.parametrize("owner", ["~$teams.xlsx", "~$ams.xlsx", ".~lock.teams.xlsx#"])
def test_a_file_open_in_excel_or_wps_is_not_written(template, owner):
    (template.parent / owner).write_bytes(b"owner")
    before = template.read_bytes()
    with pytest.raises(TeamsOpen, match="Excel 或 WPS"):
        add_team(template, {"队员1": "张三", "队员2": "李四"}, read_team_table(template).fingerprint)
    assert template.read_bytes() == before


def test_a_write_the_system_refuses_is_said_as_the_file_being_open(template, monkeypatch):
    def refused(path, data, **kwargs):
        raise files.CannotWrite(path, PermissionError(13, "Permission denied"))

    before = template.read_bytes()
    monkeypatch.setattr(files, "write_bytes", refused)
    with pytest.raises(TeamsOpen, match="请先在 Excel/WPS 中关闭该文件"):
        add_team(template, {"队员1": "张三", "队员2": "李四"}, read_team_table(template).fingerprint)
    assert template.read_bytes() == before


def test_a_column_no_page_has_is_refused(template):
    with pytest.raises(TeamsInvalid, match="没有“组别”这一栏"):
        add_team(template, {"组别": "A"}, read_team_table(template).fingerprint)


def test_a_control_character_is_refused_at_its_cell(template):
    with pytest.raises(TeamsInvalid) as info:
        add_team(template, {"队员1": "张\x01三", "队员2": "李四"}, read_team_table(template).fingerprint)
    assert [(i.cell, i.detail) for i in info.value.issues] == [(Cell(2, 2), "含有不能写进表格的控制字符，请重新输入")]


def test_a_new_row_takes_the_look_of_the_row_above(tmp_path):
    path = listed(tmp_path, [(1, "张三", "李四")])
    wb = openpyxl.load_workbook(path)
    wb["报名表"]["B2"].font = Font(name="楷体", size=14)
    wb.save(path)
    add_team(path, {"队员1": "王五", "队员2": "赵六"}, read_team_table(path).fingerprint)
    font = openpyxl.load_workbook(path)["报名表"]["B3"].font
    assert (font.name, font.size) == ("楷体", 14)


def test_the_use_cases_edit_the_folder_s_team_list_holding_the_folder(template):
    from shuangsheng.storage.ledger.lock import FolderBusy, exclusive
    from shuangsheng.usecases import teams

    folder = template.parent
    table = teams.team_table(folder)
    assert table.row_of("1") is not None and table.row_of("1").row == 2 and table.row_of("9") is None
    with exclusive(folder), pytest.raises(FolderBusy):
        teams.add_team(folder, {"队员1": "张三", "队员2": "李四"}, table.fingerprint, patience=0.1)
    edit = teams.add_team(folder, {"队员1": "张三", "队员2": "李四"}, table.fingerprint)
    edit = teams.correct_team(folder, edit.team_id, {"队员2": "李肆"}, edit.fingerprint)
    assert workbook.read_teams(template) == (Team("01", ("张三", "李肆")),)
