"""Fuzzing the round and team workbook readers through the command line: random values and types in random cells,
and structural damage (merged cells, rows and columns deleted or inserted, sheets renamed or deleted, XML cut or
spoiled). Whatever the file holds: no exception escapes, every problem names its file (and its sheet, where it
has one), and the user's file is byte-identical afterwards."""

from __future__ import annotations

import datetime as dt
import io
import random
import shutil
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.utils.exceptions import IllegalCharacterError
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.game.simulate import simulate_match
from shuangsheng.storage import workbook
from shuangsheng.storage.workbook.problems import WorkbookError
from tests.events import new_event
from tests.helpers import sha

runner = CliRunner()
FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

VALUES = st.one_of(
    st.none(),
    st.integers(-(10**18), 10**18),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.datetimes(min_value=dt.datetime(1901, 1, 1), max_value=dt.datetime(2099, 1, 1)),
    st.sampled_from(["甲", "乙", "A", "８５分", "×4", "x3", "是", "否", "J", "10级", "台上扣错底", "03", "第3组",
                     "=1+1", "#REF!", " ", "加1", "局", "庄家", "台下得分", "对阵", "桌号", "组号", "队员1"]),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12),
    st.text(max_size=2).map(lambda t: t * 3000),  # a pasted page of text
)


def set_value(ws, row: int, column: int, value: object) -> None:
    if type(ws.cell(row, column)).__name__ == "MergedCell":  # inside a merged range: nobody can type there
        return
    cell = ws.cell(row, column)
    before = cell.value
    try:
        cell.value = value
    except (ValueError, TypeError, IllegalCharacterError):  # what openpyxl refuses, no spreadsheet program can type
        cell.value = before  # openpyxl marks the cell text before it refuses: a number left marked so cannot be saved


@st.composite
def damage(draw, sheets: int):
    """One change a person (or a broken program) could make to a workbook."""
    kind = draw(st.sampled_from(["value", "value", "value", "merge", "delete_rows", "insert_rows",
                                 "delete_cols", "insert_cols", "rename", "delete_sheet", "xml"]))
    sheet = draw(st.integers(0, sheets - 1))
    row, column = draw(st.integers(1, 45)), draw(st.integers(1, 14))
    extra = draw(st.integers(1, 4))
    value = draw(VALUES) if kind == "value" else draw(st.sampled_from(["第1桌", "第2桌", "第9桌", "对阵", "报名表",
                                                                     "Sheet1", "检查结果", "x"]))
    return kind, sheet, row, column, extra, value


SHEET_CHANGES = {  # kind -> what it does to the sheet, given (wb, ws, row, column, extra, value)
    "value": lambda wb, ws, row, column, extra, value: set_value(ws, row, column, value),
    "merge": lambda wb, ws, row, column, extra, value: ws.merge_cells(
        start_row=row, start_column=column, end_row=row + extra - 1, end_column=column + extra),
    "delete_rows": lambda wb, ws, row, column, extra, value: ws.delete_rows(row, extra),
    "insert_rows": lambda wb, ws, row, column, extra, value: ws.insert_rows(row, extra),
    "delete_cols": lambda wb, ws, row, column, extra, value: ws.delete_cols(column, extra),
    "insert_cols": lambda wb, ws, row, column, extra, value: ws.insert_cols(column, extra),
}


def change_workbook(wb, kind: str, ws, row: int, column: int, extra: int, value) -> None:
    if kind in SHEET_CHANGES:
        SHEET_CHANGES[kind](wb, ws, row, column, extra, value)
    elif kind == "rename" and value not in wb.sheetnames:
        ws.title = value
    elif kind == "delete_sheet" and len(wb.worksheets) > 1:
        wb.remove(ws)


def spoil_sheet_xml(data: bytes, sheet: int, seed: int) -> bytes:
    """Cut a worksheet's XML short or put junk in it, as a broken program or disk would."""
    rng = random.Random(seed)
    src = zipfile.ZipFile(io.BytesIO(data))
    parts = [n for n in src.namelist() if n.startswith("xl/worksheets/sheet")]
    target = parts[sheet % len(parts)]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in src.namelist():
            content = src.read(name)
            if name == target:
                at = rng.randrange(len(content))
                content = content[:at] + rng.choice([b"", b"<", b"&", b"<c r=\"ZZ9\">", b"\xff\xfe"]) + (
                    content[at:] if rng.random() < 0.5 else b"")
            dst.writestr(name, content)
    return buffer.getvalue()


def damaged(data: bytes, changes, seed: int) -> bytes:
    wb = openpyxl.load_workbook(io.BytesIO(data))
    spoil_xml = []
    for kind, sheet, row, column, extra, value in changes:
        if not wb.worksheets:
            break
        if kind == "xml":
            spoil_xml.append(sheet)
        else:
            change_workbook(wb, kind, wb.worksheets[sheet % len(wb.worksheets)], row, column, extra, value)
    out = io.BytesIO()
    wb.save(out)
    return spoil_sheet_xml(out.getvalue(), spoil_xml[0], seed) if spoil_xml else out.getvalue()


def run_cli(*args: object):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1), result.output
    assert "Traceback" not in result.output and "错误报告" not in result.output, result.output
    return result


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """An event folder with round 1 drawn (6 teams: 2 tables and 2 byes) and filled with simulated hands."""
    folder = tmp_path_factory.mktemp("fuzz") / "event"
    new_event(folder, 6)
    run_cli("draw", folder, "--seed", 5)
    rng = random.Random(5)
    workbook.fill_round(folder / "round-1.xlsx", {t: simulate_match(rng)[0] for t in (1, 2)})
    return folder


def check_problems(problems, name: str) -> None:
    for p in problems:
        assert p.file == name and p.message, p
        assert str(p).startswith(name)


@FUZZ
@given(changes=st.lists(damage(sheets=3), min_size=1, max_size=4), seed=st.integers(0, 1000))
def test_fuzzed_round_workbooks_never_escape(played, tmp_path_factory, changes, seed):
    folder = Path(shutil.copytree(played, tmp_path_factory.mktemp("case") / "event"))
    path = folder / "round-1.xlsx"
    path.write_bytes(damaged(path.read_bytes(), changes, seed))
    digest = sha(path)
    try:
        sheet = workbook.read_round(path)
    except WorkbookError as exc:
        check_problems(exc.problems, path.name)
    else:
        check_problems(sheet.problems, path.name)
        for match in sheet.matches:
            assert all(p.sheet for p in match.problems)  # a table's problem names its sheet (or the 对阵 sheet)
    result = run_cli("score", folder)
    if result.exit_code == 1:
        assert "round-1.xlsx" in result.output or "teams.xlsx" in result.output or "event.toml" in result.output
    run_cli("score", folder, "--json")
    assert sha(path) == digest


@FUZZ
@given(changes=st.lists(damage(sheets=1), min_size=1, max_size=4), seed=st.integers(0, 1000))
def test_fuzzed_team_lists_never_escape(played, tmp_path_factory, changes, seed):
    folder = tmp_path_factory.mktemp("case") / "event"
    folder.mkdir()
    shutil.copy(played / "event.toml", folder / "event.toml")
    path = folder / "teams.xlsx"
    path.write_bytes(damaged((played / "teams.xlsx").read_bytes(), changes, seed))
    digest = sha(path)
    try:
        teams = workbook.read_teams(path)
    except WorkbookError as exc:
        check_problems(exc.problems, path.name)
        assert all(p.cell is None or p.sheet for p in exc.problems)
    else:
        assert all(t.id and all(t.players) for t in teams)
    result = run_cli("draw", folder, "--seed", 1)
    if result.exit_code == 1:
        assert "teams.xlsx" in result.output
    assert sha(path) == digest
