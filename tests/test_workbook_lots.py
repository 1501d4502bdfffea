"""shuangsheng.storage.workbook.lots: paper lots from an xlsx sheet or a CSV file in UTF-8 or GBK."""

from __future__ import annotations

import openpyxl
import pytest

from shuangsheng.storage.workbook import WorkbookError, read_lots


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
