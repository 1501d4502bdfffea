"""Writing `round-N.xlsx` for `draw`: the 对阵 sheet and one printable score sheet per table (writes files).

Each 第N桌 sheet has 30 numbered hand rows then 10 rows 加1…加10 with 加赛 prefilled “是”; only the input cells are
unlocked, and each column carries the validation its schema column asks for.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import copy
from pathlib import Path

from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from scoring.knockout import Pairing, Round
from scoring.levels import Side
from scoring.teams import Team
from scoring.text import width as display_width
from scoring.workbook.schema import (
    A_ROW,
    B_ROW,
    BYE_LABEL,
    BYE_SEPARATOR,
    GUIDE,
    GUIDE_ROW,
    HAND_COLUMNS,
    HAND_HEADER_ROW,
    MATCHES_HEADER,
    MATCHES_HEADER_ROW,
    MATCHES_INFO_ROW,
    MATCHES_RULES_ROW,
    MATCHES_SHEET,
    MATCHES_TITLE_ROW,
    NO_BYE,
    NO_SEED,
    NOTE_LABEL,
    NUMBER_LABEL,
    PLAYOFF_PREFIX,
    PLAYOFF_ROWS,
    POOL_HEADER,
    POOL_TITLE,
    REGULAR_ROWS,
    ROUND_LABEL,
    RULES_ROW,
    SEED_LABEL,
    THIRD_PLACE,
    TITLE_ROW,
    sheet_name,
)
from scoring.workbook.style import (
    BOLD,
    BORDER,
    CENTER,
    HAND_NUMBER,
    INPUT,
    INPUT_TEXT,
    LABEL_FILL,
    TITLE,
    UNLOCKED,
    WRAP,
    add_validation,
    column_widths,
    fit_columns,
    header_cell,
    new_workbook,
    print_setup,
    protect,
    save,
)


def players(team: Team | None) -> str:
    return "、".join(team.players) if team else ""


def team_of(teams: Mapping[str, Team], team_id: str) -> Team:
    try:
        return teams[team_id]
    except KeyError:
        raise ValueError(f"team {team_id!r} of the draw is not in the team list") from None


def write_round(
    path: Path, round: Round, teams: Mapping[str, Team], *, rules_note: str = "", force: bool = False
) -> Path:
    """`round-N.xlsx`: the 对阵 sheet (matches, 弃权 column, bye, seed, the ordered pool and lots) and one
    protected, printable 第{桌号}桌 score sheet per match with 30 hand rows and 10 加赛 rows."""
    wb = new_workbook()
    ws = wb.active
    ws.title = MATCHES_SHEET
    _write_matches_sheet(ws, round, teams, rules_note)
    for pairing in round.pairings:
        _write_match_sheet(wb.create_sheet(sheet_name(pairing.table)), round, pairing, teams, rules_note)
    return save(wb, path, force=force)


def _write_matches_sheet(ws: Worksheet, round: Round, teams: Mapping[str, Team], rules_note: str) -> None:
    ws.cell(MATCHES_TITLE_ROW, 1, f"第{round.number}轮 对阵表").font = TITLE
    byes = [team_of(teams, t) for t in round.byes]
    bye_note = f"{players(byes[0])}（本轮轮空，直接晋级）" if len(byes) == 1 else f"以上{len(byes)}组本轮轮空，直接晋级"
    info = (
        (ROUND_LABEL, round.number, ""),
        (SEED_LABEL, round.seed if round.seed is not None else NO_SEED, ""),
        (BYE_LABEL, BYE_SEPARATOR.join(round.byes) or NO_BYE, bye_note if byes else ""),
        ("弃权", "如有一方弃权，在该桌“弃权”栏选“甲”或“乙”（弃权的一方），该桌记分表不必填写", ""),
    )
    for r, (label, value, extra) in enumerate(info, start=MATCHES_INFO_ROW):
        ws.cell(r, 1, label).font = BOLD
        ws.cell(r, 1).fill = LABEL_FILL
        ws.cell(r, 2, value).alignment = Alignment(horizontal="left")
        if extra:
            ws.cell(r, 3, extra)
    if rules_note:
        ws.cell(MATCHES_RULES_ROW, 1, "规则").font = BOLD
        ws.cell(MATCHES_RULES_ROW, 2, rules_note)
    header_row = MATCHES_HEADER_ROW
    for col, label in enumerate(MATCHES_HEADER, start=1):
        header_cell(ws, header_row, col, label)
    rows: list[tuple[object, ...]] = [MATCHES_HEADER]
    for r, p in enumerate(round.pairings, start=header_row + 1):
        a, b = team_of(teams, p.a), team_of(teams, p.b)
        values = (p.table, p.a, p.b, None, players(a), players(b), THIRD_PLACE if p.third_place else None)
        rows.append(values)
        for col, value in enumerate(values, start=1):
            cell = ws.cell(r, col, value)
            cell.border = BORDER
            if col <= 3:
                cell.alignment = CENTER
        ws.cell(r, 4).protection = UNLOCKED
    last_match = header_row + len(round.pairings)
    if round.pairings:
        dv = DataValidation(type="list", formula1='"甲,乙"', allow_blank=True, errorStyle="warning",
                            showErrorMessage=True, showInputMessage=True)
        dv.errorTitle, dv.error = "弃权填写有误", "弃权应为空，或弃权的一方“甲”或“乙”。"
        dv.promptTitle, dv.prompt = "弃权", "弃权的一方：甲或乙；未弃权留空"
        dv.add(f"D{header_row + 1}:D{last_match}")
        ws.add_data_validation(dv)
    pool_title = last_match + 2
    ws.cell(pool_title, 1, POOL_TITLE).font = BOLD
    for col, label in enumerate(POOL_HEADER, start=1):
        header_cell(ws, pool_title + 1, col, label)
    lots = dict(round.lots)
    for i, team_id in enumerate(round.pool, start=1):
        values = (i, team_id, players(teams.get(team_id)), lots.get(team_id))
        rows.append(values)
        for col, value in enumerate(values, start=1):
            ws.cell(pool_title + 1 + i, col, value).border = BORDER
    widths = column_widths(rows)
    widths[2] = max(widths.get(2, 6), 12)
    fit_columns(ws, widths)
    ws.freeze_panes = f"A{header_row + 1}"
    print_setup(ws, title_rows=None)
    protect(ws)


def _write_match_sheet(ws: Worksheet, round: Round, p: Pairing, teams: Mapping[str, Team], rules_note: str) -> None:
    n = len(HAND_COLUMNS)
    last_col = get_column_letter(n)
    title = f"第{round.number}轮 第{p.table}桌 记分表" + (f"（{THIRD_PLACE}）" if p.third_place else "")
    ws.cell(TITLE_ROW, 1, title).font = TITLE
    ws.merge_cells(f"A{TITLE_ROW}:{last_col}{TITLE_ROW}")
    ws.cell(TITLE_ROW, 1).alignment = CENTER
    for row, side, team_id in ((A_ROW, Side.A, p.a), (B_ROW, Side.B, p.b)):
        ws.cell(row, 1, side.team).font = BOLD
        ws.cell(row, 1).fill = LABEL_FILL
        ws.cell(row, 2, team_id).font = BOLD
        ws.cell(row, 2).alignment = CENTER
        ws.cell(row, 3, players(team_of(teams, team_id)))
        ws.merge_cells(f"C{row}:F{row}")
    ws.cell(GUIDE_ROW, 1, GUIDE).alignment = WRAP
    ws.merge_cells(f"A{GUIDE_ROW}:{last_col}{GUIDE_ROW}")
    ws.row_dimensions[GUIDE_ROW].height = 45
    if rules_note:
        ws.cell(RULES_ROW, 1, rules_note).alignment = WRAP
        ws.merge_cells(f"A{RULES_ROW}:{last_col}{RULES_ROW}")
    for col, column in enumerate(HAND_COLUMNS, start=1):
        header_cell(ws, HAND_HEADER_ROW, col, column.label)
    first = HAND_HEADER_ROW + 1
    last = first + REGULAR_ROWS + PLAYOFF_ROWS - 1
    # Assigning a named style by name looks it up and copies it (slow, and 480 cells a sheet): each style is
    # assigned once by name, then its cell's formatting is copied, as openpyxl's own sheet copy does.
    styled: dict[str, Cell] = {}
    for i in range(REGULAR_ROWS + PLAYOFF_ROWS):
        r = first + i
        playoff = i >= REGULAR_ROWS
        for col, column in enumerate(HAND_COLUMNS, start=1):
            cell = ws.cell(r, col)
            if column.label == NUMBER_LABEL:
                cell.value = f"{PLAYOFF_PREFIX}{i - REGULAR_ROWS + 1}" if playoff else i + 1
                style = HAND_NUMBER
            else:
                style = INPUT_TEXT if column.label == NOTE_LABEL else INPUT
                if playoff and column.field == "playoff":
                    cell.value = "是"
            if style in styled:
                cell._style = copy(styled[style]._style)
            else:
                cell.style = style
                styled[style] = cell
    for col, column in enumerate(HAND_COLUMNS, start=1):
        letter = get_column_letter(col)
        add_validation(ws, column, f"{letter}{first}:{letter}{last}")
        width = column.width or display_width(column.label) + 4
        ws.column_dimensions[letter].width = width
    ws.column_dimensions["B"].width = max(ws.column_dimensions["B"].width, display_width(p.a + p.b) + 6, 8)
    ws.freeze_panes = f"B{first}"
    print_setup(ws, title_rows=f"{HAND_HEADER_ROW}:{HAND_HEADER_ROW}", one_page=True)
    protect(ws)
