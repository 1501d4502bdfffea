"""The checked copy `round-N-checked.xlsx`: the round workbook annotated hand by hand (reads and writes files).

A 检查结果 sheet first (each table's levels and result, then every problem with its place); then every sheet of
the round workbook with the values as they were read, each at its own cell, so `第3桌!D9` in a message is D9 in
the copy too. Right of each table's hands: the defenders' total, both levels, the next dealer and the
explanation; every bad cell is filled red, commented and marked ✗. The workbook the user filled is never written.

The copy is rendered from what the reader holds (`RoundSheet.grids`) through `sheetml`, not by loading and
re-saving the user's file with openpyxl: for a 64-table round that took four times as long as all the rest of
`score`. So it keeps values, not the user's own formatting. It prints A4 landscape at a scale where its text is
at least 10 pt, with each row as tall as its wrapped explanation.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from scoring.files import write_bytes
from scoring.levels import Side
from scoring.text import width as display_width
from scoring.workbook.loading import Grid, read_file
from scoring.workbook.problems import Problem, WorkbookError
from scoring.workbook.round_reader import MatchSheet, RoundSheet
from scoring.workbook.schema import (
    A_ROW,
    BAD_MARK,
    CHECK_COLUMNS,
    CHECK_SHEET,
    CHECK_SUMMARY_HEADER,
    CHECK_SUMMARY_HEADER_ROW,
    GOOD_MARK,
    HAND_COLUMNS,
    MATCHES_HEADER,
    NUMBER_LABEL,
    POOL_HEADER,
)
from scoring.workbook.sheetml import LINE_HEIGHT, Look, Sheet, xlsx_bytes

if TYPE_CHECKING:
    from scoring.match import MatchResult

# Column widths in the copy (characters; a Chinese character takes two). Headers wrap, so the hand table and the
# check columns together fit A4 landscape at the print scale.
HAND_WIDTHS = {"局": 4, "庄家": 4, "庄家级": 5, "台下得分": 5, "底牌分": 5, "抠底倍数": 5, "级牌抠底": 5,
               "台上罚张": 5, "台下罚张": 5, "违规": 8, "加赛": 4, "备注": 8}
CHECK_WIDTHS = {"检查": 4, "台下总分": 5, "甲方级": 4, "乙方级": 4, "下局庄家": 5, "说明": 28}
SUMMARY_WIDTHS = {1: 5, 2: 9, 3: 9, 4: 6, 5: 6, 6: 6, 7: 56}
PLAIN_MAX_WIDTH = 24  # longer texts in the 对阵 sheet run over their empty neighbours instead of widening a column
assert set(HAND_WIDTHS) == {c.label for c in HAND_COLUMNS} and set(CHECK_WIDTHS) == set(CHECK_COLUMNS)


def checked_path(path: Path) -> Path:
    """round-1.xlsx → round-1-checked.xlsx, next to it."""
    path = Path(path)
    return path.with_name(f"{path.stem}-checked{path.suffix}")


def match_problems(match: MatchSheet, result: MatchResult | None) -> tuple[Problem, ...]:
    """The reader's problems of a match plus the engine's errors, each at its cell."""
    engine = tuple(match.locate(e) for e in result.errors) if result is not None else ()
    return match.problems + engine


def write_checked(
    path: Path, source: RoundSheet, results: Mapping[int, MatchResult], *, force: bool = False
) -> Path:
    """Write the checked copy of `source` to `path` (never over the source itself). `results` maps table → the
    engine's MatchResult (absent for walkovers and unreadable sheets). WorkbookError if the source file changed
    since it was read."""
    path = Path(path)
    if path.resolve() == Path(source.path).resolve():
        raise ValueError("the checked copy must not overwrite the workbook that was read")
    return write_bytes(path, checked_bytes(source, results), force=force)


def checked_bytes(source: RoundSheet, results: Mapping[int, MatchResult]) -> bytes:
    """The checked copy of `source` as the bytes of an .xlsx file (see `write_checked`)."""
    name = Path(source.path).name
    if hashlib.sha256(read_file(source.path)).hexdigest() != source.sha256:
        raise WorkbookError([Problem.of_cell(name, None, None, "文件在读取之后又被修改过，请重新运行 score")])
    everything: list[Problem] = []
    summary_rows: list[tuple[object, ...]] = []
    by_sheet: dict[str, tuple[MatchSheet, MatchResult | None, str]] = {}
    for match in source.matches:
        result = results.get(match.table)
        problems = match_problems(match, result)
        everything.extend(p for p in problems if all(p is not q for q in everything))
        summary_rows.append(_summary_row(match, result, problems))
        by_sheet[match.sheet] = (match, result, str(summary_rows[-1][-1]))
    bad: dict[str, dict[tuple[int, int], list[str]]] = {}
    for p in everything:
        if p.sheet and p.cell:  # a range (merged cells, a 对阵 row) is marked at its first cell
            messages = bad.setdefault(p.sheet, {}).setdefault((p.cell.row, p.cell.column), [])
            if p.message not in messages:
                messages.append(p.message)
    sheets = [_check_sheet(source, summary_rows, everything)]
    for title, grid in source.grids.items():
        if title == CHECK_SHEET:
            continue  # a checked copy given back as the round workbook: its old results are not copied
        marks = bad.get(title, {})
        if title in by_sheet and by_sheet[title][0].header_row is not None:
            sheets.append(_match_sheet(grid, *by_sheet[title], marks))
        else:
            sheets.append(_plain_sheet(grid, marks))
    return xlsx_bytes(sheets)


def _lines(text: object, width: float) -> int:
    """How many lines `text` wraps to in a column `width` characters wide (a column character is a little wider
    than half a Chinese character; rounded so that the row is rather too tall than cut off)."""
    if text is None:
        return 1
    per_line = max(1.0, width * 1.15 - 1)
    return max(1, sum(math.ceil(max(1, display_width(part)) / per_line) for part in str(text).split("\n")))


def _mark(sheet: Sheet, marks: Mapping[tuple[int, int], Sequence[str]], *, text_columns: Sequence[int] = ()) -> None:
    for (r, c), messages in marks.items():
        sheet.put(r, c, look=Look.BAD_TEXT if c in text_columns else Look.BAD)
        sheet.comments[(r, c)] = "\n".join(messages)


def _result_text(match: MatchSheet, result: MatchResult | None, problems: Sequence[Problem]) -> str:
    from scoring.match import (
        result_summary,  # the one place a result becomes a sentence
    )

    p = match.pairing
    if match.walkover is not None:
        winner = match.walkover.other
        return f"{match.walkover.team}弃权，{winner.team}（{p.a if winner is Side.A else p.b}）晋级"
    if problems:
        return f"有 {len(problems)} 处错误，请改正后重新检查"
    if result is None:
        return "尚无记录"
    text = result_summary(result)
    if result.winner is not None:
        text += f"；胜者 {p.a if result.winner is Side.A else p.b}"
    return text


def _summary_row(match: MatchSheet, result: MatchResult | None, problems: Sequence[Problem]) -> tuple[object, ...]:
    """桌号 | 甲方 | 乙方 | 甲方级 | 乙方级 | 错误数 | 结果"""
    levels = result.levels if result is not None and result.outcomes else None
    return (
        match.table,
        match.pairing.a,
        match.pairing.b,
        levels.a.label if levels else None,
        levels.b.label if levels else None,
        len(problems),
        _result_text(match, result, problems),
    )



def _match_sheet(grid: Grid, match: MatchSheet, result: MatchResult | None, summary: str,
                 marks: Mapping[tuple[int, int], Sequence[str]]) -> Sheet:
    """A table's score sheet: its values where they were, the check columns right of the hands."""
    sheet = Sheet(grid.name)
    header = match.header_row
    assert header is not None
    first = match.extra_column
    labels = {col: label for label, col in _header_labels(grid, header).items()}
    number_col = match.columns.get(NUMBER_LABEL)
    prefilled = {number_col, match.columns.get("playoff")}
    last = max([header, *match.rows, *(r for r, _ in marks),
                *(r for (r, c) in grid.cells if r > header and c not in prefilled)])
    table_width = 0.0
    for col in range(1, first):
        width = HAND_WIDTHS.get(labels.get(col, ""), 6)
        sheet.widths[col] = width
        table_width += width
    for i, label in enumerate(CHECK_COLUMNS):
        sheet.widths[first + i] = CHECK_WIDTHS[label]
    for (r, c), value in grid.cells.items():
        if r <= last:
            sheet.put(r, c, value)
    for r in range(1, header):  # title, teams, guide and rules note: a lone long text wraps across the table
        row = [c for (rr, c) in grid.cells if rr == r]
        if row == [1] and display_width(str(grid.get(r, 1))) > sheet.widths.get(1, 6) * 2:
            sheet.merge(r, 1, first - 1)
            sheet.put(r, 1, look=Look.TITLE if r == 1 else Look.WRAP)
            sheet.heights[r] = (24 if r == 1 else LINE_HEIGHT * _lines(grid.get(r, 1), table_width))
    sheet.put(A_ROW, first, "结果", Look.BOLD)
    sheet.put(A_ROW, first + 1, summary, Look.BOLD)
    for col in range(1, first + len(CHECK_COLUMNS)):
        sheet.put(header, col, CHECK_COLUMNS[col - first] if col >= first else None, Look.HEADER)
    sheet.heights[header] = LINE_HEIGHT * max(_lines(sheet.values.get((header, c)), w) for c, w in sheet.widths.items())
    outcomes = {o.hand: o for o in result.outcomes} if result is not None else {}
    hand_of_row = {row: position for position, row in enumerate(match.rows, start=1)}
    note_col = match.columns.get("备注")
    explain = first + len(CHECK_COLUMNS) - 1
    for r in range(header + 1, last + 1):
        for col in range(1, first):
            sheet.put(r, col, look=Look.TEXT if col == note_col else Look.CELL)
        messages = [m for (mr, _), ms in sorted(marks.items()) if mr == r for m in ms]
        o = outcomes.get(hand_of_row.get(r, 0))
        values: tuple[object, ...] = (
            BAD_MARK if messages else (GOOD_MARK if o else None),
            o.points if o else None,
            o.after.a.label if o else None,
            o.after.b.label if o else None,
            o.next_dealer.cn if o else None,
            "；".join(messages) if messages else (o.explanation if o else None),
        )
        for i, value in enumerate(values):
            sheet.put(r, first + i, value, Look.TEXT if first + i == explain else Look.CELL)
        lines = max(_lines(values[-1], CHECK_WIDTHS["说明"]),
                    _lines(grid.get(r, note_col), HAND_WIDTHS["备注"]) if note_col else 1)
        if lines > 1:
            sheet.heights[r] = LINE_HEIGHT * lines
    _mark(sheet, marks, text_columns=(note_col,) if note_col else ())
    sheet.title_rows = (header, header)
    return sheet


def _header_labels(grid: Grid, header: int) -> dict[str, int]:
    return {str(v).strip(): c for (r, c), v in grid.cells.items() if r == header and isinstance(v, str)}


def _plain_sheet(grid: Grid, marks: Mapping[tuple[int, int], Sequence[str]]) -> Sheet:
    """The 对阵 sheet (or any other): values where they were; its tables bordered under grey headers."""
    sheet = Sheet(grid.name)
    for (r, c), value in grid.cells.items():
        sheet.put(r, c, value)
    if (1, 1) in grid.cells:
        sheet.put(1, 1, look=Look.TITLE)
    for header_labels in (MATCHES_HEADER[:4], POOL_HEADER[:2]):
        found = grid.find_header(header_labels)
        if found is None:
            continue
        row, columns = found
        span = range(min(columns.values()), max(columns.values()) + 1)
        for c in span:
            sheet.put(row, c, look=Look.HEADER)
        r = row + 1
        while grid.get(r, span[0]) is not None:
            for c in span:
                sheet.put(r, c, look=Look.CELL)
            r += 1
    widths: dict[int, float] = {}
    for (r, c), value in grid.cells.items():
        need = display_width(str(value)) + 2
        if need <= PLAIN_MAX_WIDTH:
            widths[c] = max(widths.get(c, 6), need)
    sheet.widths = widths
    _mark(sheet, marks)
    return sheet


def _check_sheet(source: RoundSheet, summary_rows: Sequence[tuple[object, ...]], problems: Sequence[Problem]) -> Sheet:
    sheet = Sheet(CHECK_SHEET, selected=True)
    name = Path(source.path).name
    sheet.put(1, 1, f"第{source.round.number}轮 检查结果", Look.TITLE)
    sheet.heights[1] = 24
    sheet.put(2, 1, f"这是 {name} 的检查副本，仅供核对；如需改正，请在原文件 {name} 中修改后重新运行 score。")
    for col, label in enumerate(CHECK_SUMMARY_HEADER, start=1):
        sheet.put(CHECK_SUMMARY_HEADER_ROW, col, label, Look.HEADER)
    for r, values in enumerate(summary_rows, start=CHECK_SUMMARY_HEADER_ROW + 1):
        for col, value in enumerate(values, start=1):
            sheet.put(r, col, value, Look.TEXT if col == len(values) else Look.CELL)
        lines = _lines(values[-1], SUMMARY_WIDTHS[len(values)])
        if lines > 1:
            sheet.heights[r] = LINE_HEIGHT * lines
    r = CHECK_SUMMARY_HEADER_ROW + len(summary_rows) + 2
    sheet.put(r, 1, "错误清单" if problems else "没有发现错误", Look.BOLD)
    if problems:  # 位置 spans 桌号…乙方, 问题 spans 甲方级…结果
        message_width = sum(SUMMARY_WIDTHS[c] for c in range(4, 8))
        for col in range(1, 8):
            sheet.put(r + 1, col, {1: "位置", 4: "问题"}.get(col), Look.HEADER)
        sheet.merge(r + 1, 1, 3)
        sheet.merge(r + 1, 4, 7)
        for i, p in enumerate(problems, start=r + 2):
            for col in range(1, 8):
                sheet.put(i, col, {1: p.where, 4: p.message}.get(col), Look.TEXT)
            sheet.merge(i, 1, 3)
            sheet.merge(i, 4, 7)
            lines = max(_lines(p.message, message_width), _lines(p.where, sum(SUMMARY_WIDTHS[c] for c in range(1, 4))))
            sheet.heights[i] = LINE_HEIGHT * lines
    sheet.widths = dict(SUMMARY_WIDTHS)
    return sheet
