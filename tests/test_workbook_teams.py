"""shuangsheng.storage.workbook.teams: teams.xlsx written with its template rows and read back, every bad cell named."""

from __future__ import annotations

import openpyxl
import pytest

from shuangsheng.knockout.teams import Team
from shuangsheng.storage.workbook import WorkbookError, read_teams, write_teams, write_teams_template
from tests.workbook_cases import TEAMS


def test_teams_template_example_rows_must_be_removed(tmp_path):
    path = write_teams_template(tmp_path / "teams.xlsx")
    ws = openpyxl.load_workbook(path)["报名表"]
    assert [c.value for c in ws[1]] == ["组号", "队员1", "队员2", "联系电话", "备注", "单位", "种子", "候补"]
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
        "teams.xlsx 报名表!A7：组号只能由数字和英文字母组成（至少一个数字，最多 6 位，如 01、12、A3），实际为“3.5”",
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


def test_units_seeds_and_reserves_round_trip(tmp_path):
    teams = (Team("01", ("甲一", "甲二"), unit="化学系", seed=2), Team("02", ("乙一", "乙二"), unit="物理系", reserve=True),
             Team("03", ("丙一", "丙二"), seed=1))
    assert read_teams(write_teams(tmp_path / "teams.xlsx", teams)) == teams


def test_unit_seed_and_reserve_cells_are_checked(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "报名表"
    ws.append(["组号", "队员1", "队员2", "种子", "单位", "候补"])  # any order: found by the header
    ws.append(["01", "甲一", "甲二", 1, "化学系", None])
    ws.append(["02", "乙一", "乙二", "1", None, "是"])
    ws.append(["03", "丙一", "丙二", "0", "系" * 31, "否"])
    ws.append(["04", "丁一", "丁二", 2.0, " 化学系 ", "是 "])
    ws.append(["05", "戊一", "戊二", "第三", None, None])
    wb.save(tmp_path / "teams.xlsx")
    with pytest.raises(WorkbookError) as info:
        read_teams(tmp_path / "teams.xlsx")
    assert info.value.messages == [
        "teams.xlsx 报名表!D3：1 号种子已在第2行，每个种子号只能用一次",
        "teams.xlsx 报名表!D4：种子应填 1、2、3… 或不填，实际为“0”",
        "teams.xlsx 报名表!E4：单位最多 30 个字，实际有 31 个字",
        "teams.xlsx 报名表!F4：候补栏只能填“是”或不填，实际为“否”",
        "teams.xlsx 报名表!D6：种子应填 1、2、3… 或不填，实际为“第三”",
    ]
    for r in (3, 4, 6):
        ws.cell(r, 4).value = None
    ws.cell(4, 5).value = ws.cell(4, 6).value = None
    wb.save(tmp_path / "teams.xlsx")
    teams = read_teams(tmp_path / "teams.xlsx")
    assert [(t.id, t.unit, t.seed, t.reserve) for t in teams] == [
        ("01", "化学系", 1, False), ("02", "", None, True), ("03", "", None, False), ("04", "化学系", 2, True),
        ("05", "", None, False)]


def test_an_old_teams_list_without_the_new_columns_reads_as_before(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "报名表"
    ws.append(["组号", "队员1", "队员2", "联系电话", "备注"])
    ws.append(["01", "甲一", "甲二", "123", "老"])
    ws.append(["02", "乙一", "乙二", None, None])
    wb.save(tmp_path / "teams.xlsx")
    assert read_teams(tmp_path / "teams.xlsx") == (Team("01", ("甲一", "甲二"), "123", "老"), Team("02", ("乙一", "乙二")))


@pytest.mark.parametrize(("count", "first", "last"), [(128, "001", "128"), (12, "01", "12")])
def test_a_team_list_writes_its_ids_as_wide_as_the_field_and_reads_them_back_as_ever(tmp_path, count, first, last):
    """The demo's teams.xlsx at 128 pairs held 01–99 then 100–128: a numbered 组号 is written as wide as the field's
    (three digits over 99); reading takes either width, so the ids read are the canonical ones written."""
    from tests.events import team_list

    teams = team_list(count)  # 01, 02, … 128: the canonical ids
    path = write_teams(tmp_path / "teams.xlsx", teams)
    ws = openpyxl.load_workbook(path).active
    cells = [ws.cell(row, 1).value for row in range(2, count + 2)]
    assert cells[0] == first and cells[-1] == last and {len(c) for c in cells} == {len(last)}
    assert [t.id for t in read_teams(path)] == [t.id for t in teams]
