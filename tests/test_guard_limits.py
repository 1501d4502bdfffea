"""Bounded memory (issue 16, item 4): the guard counts rows and cells per sheet and over the whole workbook while it
unpacks, and refuses before any parser runs what no event needs — a round with thousands of pasted hand rows in
every sheet, a team list of a million cells — naming the file (and the sheet to blame). The largest real workbook,
round 1 of 512 teams, is read with twice its size to spare; a workbook just inside every limit is read. (What reading it costs is a budget in bench/run.py: peak memory of `score` ≤ 300 MB.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from shuangsheng.storage.workbook import guard
from shuangsheng.storage.workbook.guard import inspect
from shuangsheng.storage.workbook.problems import WorkbookError
from tests.big_workbooks import counts, fill_to, grid_rows, paste_hands, to_shared_strings, workbook_of
from tests.events import new_event
from tests.helpers import cli, digests


@pytest.fixture(scope="module")
def round_128(tmp_path_factory) -> bytes:
    """round-1.xlsx of a 128-team event as `draw` writes it: 64 table sheets."""
    folder = tmp_path_factory.mktemp("big") / "event"
    new_event(folder, 128, digits=3)
    cli("draw", folder, "--seed", 1)
    return (folder / "round-1.xlsx").read_bytes()


@pytest.fixture(scope="module")
def round_512(tmp_path_factory) -> bytes:
    """round-1.xlsx of a 512-team event, the largest field: 256 table sheets."""
    folder = tmp_path_factory.mktemp("largest") / "event"
    new_event(folder, 512, digits=3)
    cli("draw", folder, "--seed", 1)
    return (folder / "round-1.xlsx").read_bytes()


@pytest.fixture
def event_128(tmp_path, round_128) -> Path:
    folder = tmp_path / "event"
    new_event(folder, 128, digits=3)
    (folder / "round-1.xlsx").write_bytes(round_128)
    return folder


def score_refuses(folder: Path, content: bytes, expected: str) -> str:
    (folder / "round-1.xlsx").write_bytes(content)
    before = digests(folder)
    result = cli("score", folder, "--round", 1, code=1)
    assert expected in result.output, result.output
    assert len(result.output.splitlines()) <= 3, result.output  # one refusal, not a list of hand errors
    assert digests(folder) == before
    return result.output


def refusal(data: bytes, name: str = "round-1.xlsx") -> str:
    with pytest.raises(WorkbookError) as caught:
        inspect(data, name)
    return "\n".join(caught.value.messages)


def test_the_largest_real_round_is_well_inside_every_limit(round_512):
    """Round 1 of 512 teams (12,553 rows, 141,339 cells, 5.2 MB unpacked when measured): at least twice as much
    again fits under the whole-workbook limits, and the bytes unpacked have ten times."""
    tables, rows, cells, unpacked = counts(round_512)
    assert tables == 256
    assert rows * 2 < guard.MAX_TOTAL_ROWS and cells * 2 < guard.MAX_TOTAL_CELLS
    assert unpacked * 9 < guard.MAX_UNZIPPED_BYTES
    inspect(round_512, "round-1.xlsx")


def test_thousands_of_pasted_hand_rows_in_every_sheet_are_refused_before_parsing(event_128, round_128):
    """The attack of the issue: 9,990 rows in each of 64 sheets, about 10 MB; `score` took 3.4 GB."""
    attack = paste_hands(round_128, lambda table: 9990 - 46, cells=4, note=lambda row: "对")
    assert len(attack) < guard.MAX_FILE_BYTES
    output = score_refuses(event_128, attack, "round-1.xlsx：解压后有")
    assert "远大于本赛事的工作簿" in output and "请删去多余的内容后重新保存" in output


def test_too_many_rows_over_the_whole_workbook_are_refused_naming_the_fullest_sheet(event_128, round_128):
    """Some 400 pasted rows per sheet: no sheet is large, together they pass the limit."""
    tables, rows = counts(round_128)[:2]
    each = (guard.MAX_TOTAL_ROWS - rows) // tables + 1
    pasted = paste_hands(round_128, lambda table: each + (table == 7), cells=2)
    assert counts(pasted)[3] < guard.MAX_UNZIPPED_BYTES
    output = score_refuses(event_128, pasted, f"round-1.xlsx：整个工作簿（各工作表合计）有超过 {guard.MAX_TOTAL_ROWS} 行")
    assert "行数最多的是“第7桌”" in output


def test_too_many_cells_over_the_whole_workbook_are_refused(event_128, round_128):
    tables, rows, cells = counts(round_128)[:3]
    each = (guard.MAX_TOTAL_CELLS - cells) // (tables * 12) + 1  # 12 cells a row: fewer rows than the limit
    pasted = paste_hands(round_128, lambda table: each, cells=12)
    rows, cells = counts(pasted)[1:3]
    assert rows <= guard.MAX_TOTAL_ROWS < guard.MAX_TOTAL_CELLS < cells
    score_refuses(event_128, pasted, f"整个工作簿（各工作表合计）有超过 {guard.MAX_TOTAL_CELLS} 个单元格")


def test_a_team_list_of_a_million_cells_is_refused_naming_its_sheet(tmp_path):
    """The other attack of the issue: a teams.xlsx of 13.7 MB peaked at 1.26 GB before it was refused."""
    folder = tmp_path / "event"
    cli("init", folder)
    (folder / "teams.xlsx").write_bytes(workbook_of({"报名表": grid_rows(9_999, 100)}))
    before = digests(folder)
    result = cli("draw", folder, code=1)
    assert f"teams.xlsx 报名表：工作表有超过 {guard.MAX_SHEET_CELLS} 个单元格" in result.output
    assert digests(folder) == before


def test_a_sheet_of_many_rows_without_numbers_is_refused_by_its_count():
    """Row numbers are optional in the file format: the rows are counted, not only their numbers read."""
    def rows():
        yield b"<row><c><v>1</v></c></row>" * (guard.MAX_ROWS + 1)

    assert f"不会超过 {guard.MAX_ROWS} 行" in refusal(workbook_of({"名单": rows}), "teams.xlsx")
    assert "teams.xlsx 名单：" in refusal(workbook_of({"名单": rows}), "teams.xlsx")


def test_a_sheet_of_a_huge_area_is_refused():
    """Two cells at opposite corners: a parser may hold every cell in between."""
    def corners():
        yield b'<row r="1"><c r="A1"><v>1</v></c></row><row r="1999"><c r="ALL1999"><v>1</v></c></row>'

    assert f"本赛事的表格不会超过 {guard.MAX_SHEET_AREA} 格" in refusal(workbook_of({"表": corners}))


def test_one_long_text_shared_by_every_cell_is_refused():
    """A parser copies a shared string into each cell that refers to it: 4,000 cells × 9 KB make 36 MB."""
    long = "长" * 3000

    def sheet():
        for r in range(1, 401):
            yield (f'<row r="{r}">' + "".join(f'<c r="{c}{r}" t="inlineStr"><is><t>{long}</t></is></c>'
                                              for c in "ABCDEFGHIJ") + "</row>").encode()

    data = to_shared_strings(workbook_of({"表": sheet}))
    assert len(data) < 100_000
    assert "工作簿里最长的一段文字约 8 KB" in refusal(data)


def test_counting_is_exact_across_chunk_boundaries():
    """Rows and cells cut by the 64 KB chunks are counted once: exactly at both limits passes, one row or one
    cell more fails."""
    sheets, cells = 20, guard.MAX_TOTAL_CELLS // guard.MAX_TOTAL_ROWS
    rows = guard.MAX_TOTAL_ROWS // sheets
    full = {f"s{i}": grid_rows(rows, cells) for i in range(sheets)}
    inspect(workbook_of(full), "x.xlsx")
    one_row_more = {**full, "s0": grid_rows(rows - 1, cells), "extra": grid_rows(2, cells)}
    assert f"有超过 {guard.MAX_TOTAL_ROWS} 行" in refusal(workbook_of(one_row_more))

    def one_cell_more():
        yield from grid_rows(rows - 1, cells)()
        yield b'<row r="%d">' % rows + b'<c r="A%d"><v>1</v></c>' % rows * (cells + 1) + b"</row>"

    assert f"有超过 {guard.MAX_TOTAL_CELLS} 个单元格" in refusal(workbook_of({**full, "s7": one_cell_more}))


@pytest.mark.big  # about 17 s: with the other largest fields, its own step of .ci/run (pytest -m big)
def test_a_round_just_inside_every_limit_is_read_and_scored(event_128, round_128):
    """Every table sheet filled with pasted hands up to the whole-workbook limits (rows, cells, bytes unpacked):
    no guard refusal; `score` reads it and names the hand errors."""
    full = fill_to(round_128, rows=guard.MAX_TOTAL_ROWS, cells=guard.MAX_TOTAL_CELLS,
                   unpacked=guard.MAX_UNZIPPED_BYTES - 1024 * 1024)
    _, rows, cells, unpacked = counts(full)
    assert rows == guard.MAX_TOTAL_ROWS and cells > 0.9 * guard.MAX_TOTAL_CELLS
    assert unpacked > 0.9 * guard.MAX_UNZIPPED_BYTES
    (event_128 / "round-1.xlsx").write_bytes(full)
    result = cli("score", event_128, "--round", 1, code=1)
    assert "记录有误" in result.output and "round-1.xlsx 第1桌!" in result.output
    assert "不予读取" not in result.output and "工作簿（各工作表合计）" not in result.output


def test_the_documented_limits_are_the_ones_in_force():
    from shuangsheng.storage import files

    limits = (Path(__file__).resolve().parents[1] / "docs" / "limits.md").read_text(encoding="utf-8")
    assert f"解压后（按声明或实际）超过 {guard.MAX_UNZIPPED_BYTES // files.MB} MB" in limits
    assert f"超过 {guard.MAX_FILE_BYTES // files.MB} MB 的文件" in limits
    assert f"范围（行数×列数）超过 {guard.MAX_SHEET_AREA} 格" in limits
    assert f"一张工作表有超过 {guard.MAX_ROWS} 行或 {guard.MAX_SHEET_CELLS} 个单元格" in limits
    assert f"超过 {guard.MAX_TOTAL_ROWS} 行或 {guard.MAX_TOTAL_CELLS} 个单元格" in limits
    assert f"超过 {guard.MAX_SHARED_TEXT // files.MB} MB" in limits
    for kind in (files.EVENT_SETTINGS, files.MATCH_RECORD, files.WORKBOOK, files.LOTS_CSV):
        assert f"| {kind.limit // files.MB} MB |" in limits
