"""The Excel validation of 台下得分 and 底牌分 (issue 17 item 10; docs/workbooks.md “Excel/WPS 里的输入检查”).

The rule's formula is taken from a round workbook as `draw` writes it, applied to test values in a small workbook,
and recalculated by LibreOffice (headless, CSV out): it must accept exactly the whole multiples of 5 from 0 to 200
whose sum with the other column stays within 200, typed as numbers.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.storage.workbook import write_round
from tests.workbook_cases import ROUND, TEAMS

DOCS = Path(__file__).resolve().parents[1] / "docs" / "workbooks.md"

# (this cell, the other of the two cells, accepted); None is a blank cell
CASES = [
    (0, None, True),
    (5, None, True),
    (85, None, True),
    (200, None, True),
    (85.0, None, True),
    (150, 50, True),
    (0, 200, True),
    (100, "85分", True),  # the other cell typed as text elsewhere counts 0 here (the reader judges it)
    (83, None, False),
    (84.5, None, False),
    (2.5, None, False),
    (-5, None, False),
    (205, None, False),
    (1000, None, False),
    (150, 55, False),
    (200, 5, False),
    (5, 200, False),
    ("85分", None, False),  # text: accepted by the reader from a file typed elsewhere, not while typing in Excel
    ("８５", None, False),
    ("85", None, False),
    (True, None, False),
]


@pytest.fixture(scope="module")
def rules(tmp_path_factory) -> dict[str, str]:
    """The custom formulas of 台下得分 (D7:D46) and 底牌分 (E7:E46), as written by draw."""
    path = write_round(tmp_path_factory.mktemp("drawn") / "round-1.xlsx", ROUND, TEAMS)
    ws = openpyxl.load_workbook(path)["第1桌"]
    found = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
    assert found["D7:D46"].type == found["E7:E46"].type == "custom"
    assert found["D7:D46"].errorStyle in (None, "stop") and found["D7:D46"].allow_blank
    return {"D": found["D7:D46"].formula1, "E": found["E7:E46"].formula1}


def at_row(formula: str, own: str, other: str, row: int) -> str:
    """The rule written for row 7 of columns `own` and `other`, moved to A{row} (this cell) and B{row} (the other)."""
    moved = re.sub(rf"\b{own}7\b", f"A{row}", formula)
    return "=" + re.sub(rf"\b{other}7\b", f"B{row}", moved)


def recalculated(tmp_path: Path, formulas: list[str]) -> list[str]:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice (soffice) is not installed: apt-get install libreoffice-calc-nogui")
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, ((value, other, _), formula) in enumerate(zip(CASES * 2, formulas, strict=True), start=1):
        ws.cell(row, 1, value)
        ws.cell(row, 2, other)
        ws.cell(row, 3, formula)
    book = tmp_path / "rules.xlsx"
    wb.save(book)
    env = dict(os.environ, HOME=str(tmp_path))
    subprocess.run(
        [soffice, f"-env:UserInstallation=file://{tmp_path}/profile", "--headless", "--convert-to", "csv",
         "--outdir", str(tmp_path), str(book)],
        check=True, capture_output=True, timeout=180, env=env,
    )
    with open(tmp_path / "rules.csv", encoding="utf-8") as fh:
        return [row[2].strip().upper() for row in csv.reader(fh)]


def test_points_cells_accept_exactly_whole_multiples_of_5_within_200(rules, tmp_path):
    n = len(CASES)
    formulas = [at_row(rules["D"], "D", "E", row) for row in range(1, n + 1)]
    formulas += [at_row(rules["E"], "E", "D", row) for row in range(n + 1, 2 * n + 1)]
    results = recalculated(tmp_path, formulas)
    expected = ["TRUE" if accepted else "FALSE" for _, _, accepted in CASES] * 2
    wrong = [(CASES[i % n][:2], "台下得分" if i < n else "底牌分", got)
             for i, (got, want) in enumerate(zip(results, expected, strict=True)) if got != want]
    assert wrong == []


def test_the_docs_name_only_values_the_rule_refuses():
    """docs/workbooks.md's examples of what Excel refuses in 台下得分/底牌分 are cases above, refused."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("### Excel/WPS 里的输入检查"):text.index("## 检查副本")]
    row = next(line for line in section.splitlines() if line.startswith("| 台下得分、底牌分 |"))
    accepted, refused = row.split("|")[2:4]
    assert "0、5、10……200" in accepted and "不超过 200" in accepted
    examples = re.findall(r"`([^`]+)`", refused)
    assert examples
    for example in examples:
        value = float(example) if re.fullmatch(r"-?\d+(\.\d+)?", example) else example
        assert (value, None, False) in CASES, example
