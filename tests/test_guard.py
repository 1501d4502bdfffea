"""Hostile or broken workbooks (shuangsheng.storage.workbook.guard and the readers): each gets a clear Chinese refusal saying
what to do, nothing is written, and the user's file is unchanged — through `score`, `draw` and `materials`."""

from __future__ import annotations

import hashlib
import io
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.storage import workbook
from shuangsheng.storage.workbook.guard import MAX_ENTRIES, MAX_ROWS, inspect
from shuangsheng.storage.workbook.problems import WorkbookError
from tests.events import new_event, team_list
from tests.helpers import cli, digests

SHEET = "xl/worksheets/sheet2.xml"  # 第1桌 (sheet1 is 对阵)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> Path:
    """An event folder with round 1 drawn (4 teams, 2 tables)."""
    folder = tmp_path_factory.mktemp("drawn") / "event"
    new_event(folder, 4)
    cli("draw", folder, "--seed", 1, code=0)
    return folder


@pytest.fixture
def event(drawn, tmp_path) -> Path:
    return Path(shutil.copytree(drawn, tmp_path / "event"))


def rezip(data: bytes, changes: dict[str, bytes | None] = {}, *, extra: dict[str, bytes] = {}) -> bytes:  # noqa: B006
    """The package with some parts replaced (None: removed) and some added."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            content = changes.get(info.filename, src.read(info))
            if content is not None:
                dst.writestr(info.filename, content)
        for name, content in extra.items():
            dst.writestr(name, content)
    return out.getvalue()


def sheet_xml(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read(SHEET)


def refused_by_score(event: Path, content: bytes, expected: str) -> str:
    """round-1.xlsx replaced by `content`: score refuses with `expected`, writes nothing, changes nothing."""
    (event / "round-1.xlsx").write_bytes(content)
    before = digests(event)
    result = cli("score", event, code=1)
    assert expected in result.output, result.output
    assert "round-1.xlsx" in result.output
    assert digests(event) == before
    return result.output


BILLION_LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [\n <!ENTITY lol "lol">\n'
    + b"".join(b' <!ENTITY lol%d "%s">\n' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
               for i in range(1, 10))
    + b']>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">'
    b'<c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>'
)


def test_xml_entities_are_refused_before_parsing(event):
    data = rezip((event / "round-1.xlsx").read_bytes(), {SHEET: BILLION_LAUGHS})  # would expand to 3 GB
    refused_by_score(event, data, "含有 XML 实体声明（DOCTYPE）")
    utf16 = BILLION_LAUGHS.replace(b'<?xml version="1.0"?>', b"").decode().encode("utf-16-le")
    with pytest.raises(WorkbookError, match="XML 实体声明"):
        inspect(rezip(data, {SHEET: utf16}), "round-1.xlsx")


def test_the_parser_behind_the_guard_is_the_safe_one_too(event):
    """Even a file that reached openpyxl directly would not expand: it parses through defusedxml."""
    import defusedxml
    import openpyxl.xml

    assert openpyxl.xml.DEFUSEDXML
    data = rezip((event / "round-1.xlsx").read_bytes(), {SHEET: BILLION_LAUGHS})
    with pytest.raises(ValueError) as info:
        openpyxl.load_workbook(io.BytesIO(data), read_only=False)
    assert isinstance(info.value.__cause__, defusedxml.EntitiesForbidden)  # refused, not expanded


def declare_size(data: bytes, size: int) -> bytes:
    """Every part's declared uncompressed size in the central directory set to `size`."""
    out = bytearray(data)
    at = out.find(b"PK\x01\x02")
    while at != -1:
        out[at + 24: at + 28] = size.to_bytes(4, "little")
        at = out.find(b"PK\x01\x02", at + 4)
    return bytes(out)


def test_a_zip_bomb_is_refused_by_its_declared_size(event):
    data = declare_size((event / "round-1.xlsx").read_bytes(), 0xFFFF0000)
    refused_by_score(event, data, "解压后有")


def test_a_zip_of_thousands_of_parts_is_refused_by_its_entry_count(event):
    parts = {f"xl/media/p{i}.bin": b"" for i in range(MAX_ENTRIES + 1)}
    refused_by_score(event, rezip((event / "round-1.xlsx").read_bytes(), extra=parts), "个部件")


def test_a_part_larger_than_declared_is_refused_as_damaged(event):
    data = (event / "round-1.xlsx").read_bytes()
    small = len(sheet_xml(data)) // 2
    out = bytearray(data)  # declare the sheet half its real size: zipfile stops there and the check sum fails
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        header = archive.getinfo(SHEET).header_offset
    central = out.find(b"PK\x01\x02")
    while central != -1:
        if int.from_bytes(out[central + 42: central + 46], "little") == header:
            out[central + 24: central + 28] = small.to_bytes(4, "little")
        central = out.find(b"PK\x01\x02", central + 4)
    refused_by_score(event, bytes(out), "文件已损坏")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b'<dimension ref="A1:L46"/>', b'<dimension ref="A1:L1048576"/>'),  # claims a million rows
        (b'<dimension ref="A1:L46"/>', b'<dimension ref="A1:XFD46"/>'),  # claims 16,384 columns
        (b"</sheetData>", b'<row r="2000000"><c r="A2000000"><v>1</v></c></row></sheetData>'),  # holds one
    ],
)
def test_a_sheet_claiming_millions_of_rows_is_refused(event, old, new):
    data = (event / "round-1.xlsx").read_bytes()
    xml = sheet_xml(data)
    assert old in xml
    output = refused_by_score(event, rezip(data, {SHEET: xml.replace(old, new)}), f"不会超过 {MAX_ROWS} 行")
    assert "round-1.xlsx 第1桌：工作表的范围写到了" in output


def test_a_truncated_file_is_refused(event):
    data = (event / "round-1.xlsx").read_bytes()
    refused_by_score(event, data[: len(data) // 2], "文件不完整（可能没有复制或下载完）")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj", "这是 PDF 文件"),
        ("组号,队员1,队员2\n01,张三,李四\n".encode("gbk"), "不是 xlsx 工作簿（可能是改了扩展名的其他文件"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "旧版 Excel（.xls）、WPS 表格（.et）或设置了打开密码的文件"),
    ],
)
def test_a_file_of_another_kind_renamed_xlsx_is_refused(event, content, expected):
    output = refused_by_score(event, content, expected)
    assert "另存为" in output or "原来的 .xlsx" in output


def test_a_word_document_and_an_ods_renamed_xlsx_are_named(event):
    docx = io.BytesIO()
    with zipfile.ZipFile(docx, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", "<document/>")
    refused_by_score(event, docx.getvalue(), "这是 Word 文档")
    ods = io.BytesIO()
    with zipfile.ZipFile(ods, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", "<office:document-content/>")
    refused_by_score(event, ods.getvalue(), ".ods 表格")


def test_a_macro_workbook_renamed_xlsx_is_refused(event):
    data = rezip((event / "round-1.xlsx").read_bytes(), extra={"xl/vbaProject.bin": b"\0" * 64})
    refused_by_score(event, data, "带宏的工作簿（.xlsm，改了扩展名）")


@pytest.mark.parametrize(
    ("suffix", "expected"),
    [
        (".xlsm", "带宏的 Excel 工作簿（.xlsm）"),
        (".xls", "旧版 Excel 文件（.xls）"),
        (".et", "WPS 表格文件（.et）"),
    ],
)
def test_xlsm_xls_and_et_say_how_to_save_as_xlsx(event, tmp_path, suffix, expected):
    lots = tmp_path / f"lots{suffix}"
    wb = openpyxl.Workbook()
    wb.active.append(["组号", "签号"])
    wb.save(lots)
    before = digests(event)
    result = cli("draw", event, "--force", "--lots", lots, code=1)
    assert expected in result.output
    assert "“文件 → 另存为”，保存类型选“Excel 工作簿（*.xlsx）”" in result.output
    assert digests(event) == before


def test_a_team_list_of_thousands_of_rows_is_refused(tmp_path):
    folder = tmp_path / "event"
    new_event(folder, 1000, digits=4)
    before = digests(folder)
    result = cli("draw", folder, code=1)
    assert "报名表第2–1001行填了 1000 行，本程序最多支持 512 组（每行一组）" in result.output
    assert len(result.output.splitlines()) < 5
    assert digests(folder) == before
    teams = team_list(5000, digits=4)  # more rows than any sheet of ours
    workbook.write_teams(folder / "teams.xlsx", teams, force=True)
    before = digests(folder)
    result = cli("draw", folder, code=1)
    assert f"teams.xlsx 报名表：工作表的范围写到了第 5001 行、第 8 列，本赛事的表格不会超过 {MAX_ROWS} 行" in result.output
    assert "可能粘贴了别的表格" in result.output
    assert digests(folder) == before


# --- merged and damaged cells in the hand table ---


def test_merged_cells_over_hand_rows_are_named_and_the_checked_copy_is_still_written(event):
    path = event / "round-1.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb["第1桌"]
    for row, points in ((7, 35), (8, 50)):
        ws.cell(row, 2, "甲")
        ws.cell(row, 4, points)
    ws.merge_cells("D9:F10")  # over hand rows: Excel keeps D9's value only
    ws.merge_cells("M2:P2")  # over where the checked copy writes its result
    wb["对阵"].merge_cells("D5:E5")  # over a 弃权 cell
    wb.save(path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    result = cli("score", event, code=1)
    assert "round-1.xlsx 第1桌!D9:F10：这几个单元格被合并了；记分表的每一格要单独填写" in result.output
    assert "取消合并" in result.output
    checked = openpyxl.load_workbook(event / "round-1-checked.xlsx")
    copy = checked["第1桌"]
    assert copy["D9"].comment is not None and "合并" in copy["D9"].comment.text
    assert "D9:F10" not in {str(r) for r in copy.merged_cells.ranges}
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_merged_cells_outside_the_hand_table_are_no_problem(event):
    path = event / "round-1.xlsx"
    wb = openpyxl.load_workbook(path)
    wb["第1桌"].merge_cells("N3:O4")  # right of the team block, above the hand table
    wb.save(path)
    result = cli("score", event, code=0)
    assert "合并" not in result.output


def test_a_date_cell_far_outside_any_date_is_named_not_a_crash(event):
    """calamine's Rust date code panics on it; the file is read another way and the cell is named."""
    import datetime as dt

    path = event / "round-1.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb["第1桌"]
    ws["B7"] = "甲"
    ws["D7"] = dt.datetime(2026, 3, 15)  # a date format, then a number no date can be
    ws["D7"].value = -3e11
    wb.save(path)
    result = cli("score", event, code=1)
    assert "round-1.xlsx 第1桌!D7：台下得分应为 0–200 之间 5 的倍数" in result.output
    assert "panicked" not in result.output


def test_entities_in_a_part_not_named_xml_are_refused_too(event):
    """A parser follows the package's relationships, so a sheet may hide under any name."""
    data = (event / "round-1.xlsx").read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        rels = archive.read("xl/_rels/workbook.xml.rels").replace(b"worksheets/sheet2.xml", b"worksheets/sheet2.png")
    moved = rezip(data, {SHEET: None, "xl/_rels/workbook.xml.rels": rels},
                  extra={"xl/worksheets/sheet2.png": BILLION_LAUGHS})
    with pytest.raises(WorkbookError, match="XML 实体声明"):
        inspect(moved, "round-1.xlsx")
