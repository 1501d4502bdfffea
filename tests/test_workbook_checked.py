"""shuangsheng.storage.workbook.checked: the checked copy — levels, marks and explanations per hand, readable in print."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.game.match import replay
from shuangsheng.storage.files import OutputExists
from shuangsheng.storage.names import checked_path
from shuangsheng.storage.workbook import HEADER, WorkbookError, read_round, write_checked, write_round
from tests.helpers import sha
from tests.workbook_cases import (
    ROUND,
    TEAMS,
    fill,
    filled_round,
)


@pytest.fixture(scope="module")
def filled(tmp_path_factory) -> Path:
    return filled_round(tmp_path_factory.mktemp("round"))


def test_checked_copy_has_levels_marks_and_never_touches_the_input(filled, tmp_path):
    before = sha(filled)
    sheet = read_round(filled)
    results = {m.table: replay(m.record) for m in sheet.matches}
    out = write_checked(tmp_path / "round-1-checked.xlsx", sheet, results)
    assert sha(filled) == before
    assert checked_path(filled).name == "round-1-checked.xlsx"
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
