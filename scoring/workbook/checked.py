"""The checked copy `round-N-checked.xlsx`: the round workbook annotated hand by hand (reads and writes files).

Per hand row the defenders' total, both levels, the next dealer and the explanation; a 检查结果 sheet first; every
bad cell filled, commented and marked ✗. The workbook the user filled is never written.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from openpyxl.comments import Comment
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from scoring.levels import Side
from scoring.text import width as display_width
from scoring.workbook.loading import open_workbook, read_file
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
)
from scoring.workbook.style import (
    BAD_FILL,
    BOLD,
    BORDER,
    CENTER,
    TITLE,
    WRAP,
    fit_columns,
    header_cell,
    print_setup,
    save,
)

if TYPE_CHECKING:
    from scoring.match import MatchResult


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
    """A copy of the round workbook with, per hand row, the defenders' total P, both levels, the next dealer and
    the explanation; a 检查结果 sheet first; every bad cell filled, commented and marked ✗. Never writes the source.
    `results` maps table → the engine's MatchResult (absent for walkovers and unreadable sheets)."""
    path = Path(path)
    if path.resolve() == Path(source.path).resolve():
        raise ValueError("the checked copy must not overwrite the workbook that was read")
    data = read_file(source.path)
    name = Path(source.path).name
    if hashlib.sha256(data).hexdigest() != source.sha256:
        raise WorkbookError([Problem(name, None, None, "文件在读取之后又被修改过，请重新运行 score")])
    wb = open_workbook(data, name, read_only=False)
    everything: list[Problem] = []
    summary_rows: list[tuple[object, ...]] = []
    for match in source.matches:
        result = results.get(match.table)
        problems = match_problems(match, result)
        everything.extend(p for p in problems if all(p is not q for q in everything))
        summary_rows.append(_summary_row(match, result, problems))
        if match.sheet in wb.sheetnames and match.header_row is not None:
            _annotate_match(wb[match.sheet], match, result, problems, summary_rows[-1][-1])
    for problem in everything:
        if problem.sheet in wb.sheetnames and problem.cell and problem.cell.single:
            _mark_bad(wb[problem.sheet].cell(problem.cell.row, problem.cell.column), problem.message)
    _write_check_sheet(wb, source, summary_rows, everything)
    return save(wb, path, force=force)


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


def _mark_bad(cell, message: str) -> None:
    cell.fill = BAD_FILL
    if cell.comment is not None and message not in cell.comment.text:
        message = f"{cell.comment.text}\n{message}"
    elif cell.comment is not None:
        return
    comment = Comment(message, "shuangsheng")
    comment.width, comment.height = 320, 120
    cell.comment = comment


def _annotate_match(ws: Worksheet, match: MatchSheet, result: MatchResult | None,
                    problems: Sequence[Problem], summary: str) -> None:
    first = match.extra_column
    header = match.header_row
    assert header is not None
    for i, label in enumerate(CHECK_COLUMNS):
        header_cell(ws, header, first + i, label)
        ws.column_dimensions[get_column_letter(first + i)].width = 60 if label == "说明" else display_width(label) + 4
    ws.cell(A_ROW, first, "结果").font = BOLD
    ws.cell(A_ROW, first + 1, summary).font = BOLD
    outcomes = {o.hand: o for o in result.outcomes} if result is not None else {}
    by_row: dict[int, list[str]] = {}
    for p in problems:
        if p.cell and p.cell.single and p.sheet == match.sheet:
            by_row.setdefault(p.cell.row, []).append(p.message)
    for position, row in enumerate(match.rows, start=1):
        o = outcomes.get(position)
        messages = by_row.pop(row, [])
        values: tuple[object, ...] = (
            BAD_MARK if messages else (GOOD_MARK if o else None),
            o.points if o else None,
            o.after.a.label if o else None,
            o.after.b.label if o else None,
            o.next_dealer.cn if o else None,
            "；".join(messages) if messages else (o.explanation if o else None),
        )
        for i, value in enumerate(values):
            cell = ws.cell(row, first + i, value)
            cell.border = BORDER
            cell.alignment = WRAP if i == len(values) - 1 else CENTER
    for row, messages in by_row.items():  # bad rows that did not become hands
        ws.cell(row, first, BAD_MARK).alignment = CENTER
        ws.cell(row, first + len(CHECK_COLUMNS) - 1, "；".join(messages)).alignment = WRAP



def _write_check_sheet(wb, source: RoundSheet, summary_rows: Sequence[tuple[object, ...]],
                       problems: Sequence[Problem]) -> None:
    ws = wb.create_sheet(CHECK_SHEET, 0)
    wb.active = 0
    for other in wb.worksheets[1:]:
        other.sheet_view.tabSelected = False
    name = Path(source.path).name
    ws.cell(1, 1, f"第{source.round.number}轮 检查结果").font = TITLE
    ws.cell(2, 1, f"这是 {name} 的检查副本，仅供核对；如需改正，请在原文件 {name} 中修改后重新运行 score。")
    for col, label in enumerate(CHECK_SUMMARY_HEADER, start=1):
        header_cell(ws, CHECK_SUMMARY_HEADER_ROW, col, label)
    for r, values in enumerate(summary_rows, start=CHECK_SUMMARY_HEADER_ROW + 1):
        for col, value in enumerate(values, start=1):
            cell = ws.cell(r, col, value)
            cell.border = BORDER
            cell.alignment = WRAP if col == len(values) else CENTER
    r = CHECK_SUMMARY_HEADER_ROW + len(summary_rows) + 2
    ws.cell(r, 1, "错误清单" if problems else "没有发现错误").font = BOLD
    if problems:  # 位置 spans 桌号…乙方, 问题 spans 甲方级…结果
        header_cell(ws, r + 1, 1, "位置")
        header_cell(ws, r + 1, 4, "问题")
        ws.merge_cells(start_row=r + 1, start_column=1, end_row=r + 1, end_column=3)
        ws.merge_cells(start_row=r + 1, start_column=4, end_row=r + 1, end_column=7)
        for i, p in enumerate(problems, start=r + 2):
            ws.cell(i, 1, p.where)
            ws.cell(i, 4, p.message).alignment = WRAP
            ws.merge_cells(start_row=i, start_column=1, end_row=i, end_column=3)
            ws.merge_cells(start_row=i, start_column=4, end_row=i, end_column=7)
            ws.row_dimensions[i].height = 15 * (1 + display_width(p.message) // 90)
    fit_columns(ws, {1: 8, 2: 12, 3: 12, 4: 8, 5: 8, 6: 8, 7: 60})
    print_setup(ws, title_rows=None)
