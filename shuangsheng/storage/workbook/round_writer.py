"""Writing `round-N.xlsx` for `draw`: the 对阵 sheet and one printable score sheet per table (writes files).

Each 第N桌 sheet has 30 numbered hand rows then 10 rows 加1…加10 with 加赛 prefilled “是”; only the input cells are
unlocked, and each column carries the validation its schema column asks for (`style.validation`). Written with
XlsxWriter through `style`: team ids, names and the rules note are text cells whatever they begin with.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from shuangsheng.game.levels import Side
from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.knockout.teams import Team, id_digits, in_order, shown_id
from shuangsheng.storage.workbook.schema import (
    A_ROW,
    B_ROW,
    BYE_LABEL,
    BYE_SEPARATOR,
    FINAL_LABELS,
    FIRST_HAND_ROW,
    FIRST_PLAYOFF_ROW,
    FORFEIT_LABEL,
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
    SIDE_MARKS,
    THIRD_PLACE,
    TITLE_ROW,
    YES_MARK,
    sheet_name,
)
from shuangsheng.storage.workbook.style import (
    BOLD,
    BORDERED,
    CENTERED,
    HAND_NUMBER,
    HEADER,
    INPUT,
    INPUT_TEXT,
    LABEL,
    TITLE,
    WRAPPED,
    Formats,
    column_widths,
    merge,
    new_workbook,
    print_setup,
    protect,
    put,
    save,
    set_widths,
    validation,
)
from shuangsheng.vocabulary.text import width as display_width

if TYPE_CHECKING:
    from shuangsheng.storage.workbook.loading import Grid

# What has been typed into a workbook's input cells: sheet name → (row, column) → value (the referee simulation,
# `draw --redo`).
Typed = Mapping[str, Mapping[tuple[int, int], object]]
FORFEIT_COLUMN = MATCHES_HEADER.index(FORFEIT_LABEL) + 1
FINAL_COLUMNS = tuple(MATCHES_HEADER.index(label) + 1 for label in FINAL_LABELS)  # a lost card's 终局 cells
INPUT_COLUMNS = (FORFEIT_COLUMN, *FINAL_COLUMNS)


def players(team: Team | None) -> str:
    return "、".join(team.players) if team else ""


def team_of(teams: Mapping[str, Team], team_id: str) -> Team:
    try:
        return teams[team_id]
    except KeyError:
        raise ValueError(f"team {team_id!r} of the draw is not in the team list") from None


def write_round(
    path: Path, round: Round, teams: Mapping[str, Team], *, rules_note: str = "", typed: Typed | None = None,
    force: bool = False, record: Callable[[bytes], object] | None = None, digits: int | None = None,
) -> Path:
    """`round-N.xlsx`: the 对阵 sheet (matches, 弃权 column, bye, seed, the ordered pool and lots) and one
    protected, printable 第{桌号}桌 score sheet per match with 30 hand rows and 10 加赛 rows (`typed`: values
    already in the input cells, as `draw --redo` carries them over). `record`: called with the workbook's bytes
    just before the rename that puts them in place (the ledger's fingerprint, `Ledger.record_bytes`). `teams`: the
    event's whole team list; `digits`: how wide the 组号 cells are, the event's one width (`EventFolder.digits`:
    '007' over 99 teams) — without it, as wide as `teams` and the round make them (a workbook written on its own)."""
    names = {team_id: players(teams.get(team_id)) for team_id in round.pool}
    for team_id in (*round.byes, *(t for p in round.pairings for t in (p.a, p.b))):
        names[team_id] = players(team_of(teams, team_id))
    return render_round(path, round, names, rules_note=rules_note, typed=typed, force=force, record=record,
                        digits=id_digits([*teams, *names]) if digits is None else digits)


def render_round(path: Path, round: Round, names: Mapping[str, str], *, rules_note: str = "",
                 typed: Typed | None = None, force: bool = False, record: Callable[[bytes], object] | None = None,
                 digits: int = 2) -> Path:
    """`write_round` from each team's players as printed (id → "张三、李四"), with `typed` values in the input
    cells (the 弃权 column and the hand rows; for the referee simulation). `digits`: how wide a numbered 组号 is
    written (`id_digits` of the event's field); the reader takes either width back to the canonical id."""
    buffer = io.BytesIO()
    wb = new_workbook(buffer)
    formats = Formats(wb)
    typed = typed or {}
    _write_matches_sheet(wb, formats, round, names, rules_note, typed.get(MATCHES_SHEET, {}), digits)
    for pairing in round.pairings:
        _write_match_sheet(wb, formats, round, pairing, names, rules_note, typed.get(sheet_name(pairing.table), {}),
                           digits)
    return save(wb, buffer, path, force=force, record=record)


def entered(grid: Grid) -> dict[tuple[int, int], object]:
    """What a score sheet's input cells hold (the hand rows, right of 局), as `render_round(typed=…)` takes it."""
    rows = range(FIRST_HAND_ROW, FIRST_PLAYOFF_ROW + PLAYOFF_ROWS)
    return {(r, c): v for (r, c), v in grid.cells.items() if r in rows and 1 < c <= len(HAND_COLUMNS)}


def match_row(index: int) -> int:
    """The 对阵 sheet row of the round's `index`-th pairing (0-based)."""
    return MATCHES_HEADER_ROW + 1 + index


def _write_matches_sheet(wb: Workbook, fm: Formats, round: Round, names: Mapping[str, str], rules_note: str,
                         typed: Mapping[tuple[int, int], object], digits: int) -> None:
    ws = wb.add_worksheet(MATCHES_SHEET)
    put(ws, MATCHES_TITLE_ROW, 1, f"第{round.number}轮 对阵表", fm(TITLE))
    byes = in_order(round.byes)  # every list of team ids in number order (the draw's order is in event.db)
    bye_note = f"{names.get(byes[0], '')}（本轮轮空，直接晋级）" if len(byes) == 1 else f"以上{len(byes)}组本轮轮空，直接晋级"
    info: tuple[tuple[str, object, str], ...] = (
        (ROUND_LABEL, round.number, ""),
        (SEED_LABEL, round.seed if round.seed is not None else NO_SEED, ""),
        (BYE_LABEL, BYE_SEPARATOR.join(shown_id(t, digits) for t in byes) or NO_BYE, bye_note if byes else ""),
        (FORFEIT_LABEL, "如有一方弃权，在该桌“弃权”栏选“甲”或“乙”（弃权的一方），该桌记分表不必填写",
         "记分卡遗失或无法辨认时，在该桌填终局甲方级、终局乙方级（不能相同）和终局原因，记分表不填；该桌记为“未逐局核对”"),
    )
    for r, (label, value, extra) in enumerate(info, start=MATCHES_INFO_ROW):
        put(ws, r, 1, label, fm(LABEL))
        put(ws, r, 2, value, fm({"align": "left"}))
        if extra:
            put(ws, r, 3, extra)
    if rules_note:
        put(ws, MATCHES_RULES_ROW, 1, "规则", fm(BOLD))
        put(ws, MATCHES_RULES_ROW, 2, rules_note)
    for col, label in enumerate(MATCHES_HEADER, start=1):
        put(ws, MATCHES_HEADER_ROW, col, label, fm(HEADER))
    rows: list[tuple[object, ...]] = [MATCHES_HEADER]
    for i, p in enumerate(round.pairings):
        r = match_row(i)
        values = (p.table, shown_id(p.a, digits), shown_id(p.b, digits), typed.get((r, FORFEIT_COLUMN)), names.get(p.a, ""), names.get(p.b, ""),
                  THIRD_PLACE if p.third_place else None, *(typed.get((r, col)) for col in FINAL_COLUMNS))
        rows.append(values)
        for col, value in enumerate(values, start=1):
            if col in INPUT_COLUMNS:  # what the desk fills: 弃权 and a lost card's 终局 cells
                put(ws, r, col, value, fm(BORDERED, {"locked": False}))
            else:
                put(ws, r, col, value, fm(BORDERED, CENTERED) if col <= 3 else fm(BORDERED))
    last_match = MATCHES_HEADER_ROW + len(round.pairings)
    if round.pairings:
        ws.data_validation(MATCHES_HEADER_ROW, FORFEIT_COLUMN - 1, last_match - 1, FORFEIT_COLUMN - 1, {
            "validate": "list", "source": list(SIDE_MARKS), "ignore_blank": True, "error_type": "warning",
            "error_title": "弃权填写有误", "error_message": "弃权应为空，或弃权的一方“甲”或“乙”。",
            "input_title": FORFEIT_LABEL, "input_message": "弃权的一方：甲或乙；未弃权留空",
        })
    pool_title = last_match + 2
    put(ws, pool_title, 1, POOL_TITLE, fm(BOLD))
    for col, label in enumerate(POOL_HEADER, start=1):
        put(ws, pool_title + 1, col, label, fm(HEADER))
    lots = dict(round.lots)
    for i, team_id in enumerate(round.pool, start=1):
        values = (i, shown_id(team_id, digits), names.get(team_id, ""), lots.get(team_id))
        rows.append(values)
        for col, value in enumerate(values, start=1):
            put(ws, pool_title + 1 + i, col, value, fm(BORDERED))
    widths = column_widths(rows)
    widths[2] = max(widths.get(2, 6), 12)
    set_widths(ws, widths)
    ws.freeze_panes(MATCHES_HEADER_ROW, 0)
    print_setup(ws, title_row=None)
    protect(ws)


def _write_match_sheet(wb: Workbook, fm: Formats, round: Round, p: Pairing, names: Mapping[str, str],
                       rules_note: str, typed: Mapping[tuple[int, int], object], digits: int) -> None:
    ws = wb.add_worksheet(sheet_name(p.table))
    n = len(HAND_COLUMNS)
    title = f"第{round.number}轮 第{p.table}桌 记分表" + (f"（{THIRD_PLACE}）" if p.third_place else "")
    merge(ws, TITLE_ROW, 1, n, title, fm(TITLE, CENTERED))
    for row, side, team_id in ((A_ROW, Side.A, p.a), (B_ROW, Side.B, p.b)):
        put(ws, row, 1, side.team, fm(LABEL))
        put(ws, row, 2, shown_id(team_id, digits), fm(BOLD, CENTERED))
        merge(ws, row, 3, 6, names.get(team_id, ""))
    merge(ws, GUIDE_ROW, 1, n, GUIDE, fm(WRAPPED))
    ws.set_row(GUIDE_ROW - 1, 45)
    if rules_note:
        merge(ws, RULES_ROW, 1, n, rules_note, fm(WRAPPED))
    for col, column in enumerate(HAND_COLUMNS, start=1):
        put(ws, HAND_HEADER_ROW, col, column.label, fm(HEADER))
    first = HAND_HEADER_ROW + 1
    last = first + REGULAR_ROWS + PLAYOFF_ROWS - 1
    _write_hand_rows(ws, fm, first, typed)
    position = {c.field: col for col, c in enumerate(HAND_COLUMNS, start=1) if c.field}
    partners = {position["points"]: position["bottom"], position["bottom"]: position["points"]}
    for col, column in enumerate(HAND_COLUMNS, start=1):
        rule = validation(column, first, last, col, points_partner=partners.get(col))
        if rule is not None:
            ws.data_validation(first - 1, col - 1, last - 1, col - 1, rule)
    widths = {col: column.widths.workbook or display_width(column.label) + 4
              for col, column in enumerate(HAND_COLUMNS, start=1)}
    widths[2] = max(widths[2], display_width(shown_id(p.a, digits) + shown_id(p.b, digits)) + 6, 8)
    set_widths(ws, widths)
    ws.freeze_panes(first - 1, 1)
    print_setup(ws, title_row=HAND_HEADER_ROW, one_page=True)
    protect(ws)


def _write_hand_rows(ws: Worksheet, fm: Formats, first: int, typed: Mapping[tuple[int, int], object]) -> None:
    """The 30 numbered rows and the 10 加赛 rows (加赛 prefilled “是”), input cells unlocked. The columns are sorted
    out once (about 30,000 cells in a 64-table round): a cell left blank goes straight to `write_blank`."""
    number, entry, note = fm(HAND_NUMBER), fm(INPUT), fm(INPUT_TEXT)
    number_col = next(col for col, c in enumerate(HAND_COLUMNS, start=1) if c.label == NUMBER_LABEL)
    inputs = [(col, note if c.label == NOTE_LABEL else entry, YES_MARK if c.field == "playoff" else None)
              for col, c in enumerate(HAND_COLUMNS, start=1) if col != number_col]  # format, a 加赛 row's prefill
    for i in range(REGULAR_ROWS + PLAYOFF_ROWS):
        r = first + i
        playoff = i >= REGULAR_ROWS
        put(ws, r, number_col, f"{PLAYOFF_PREFIX}{i - REGULAR_ROWS + 1}" if playoff else i + 1, number)
        for col, fmt, prefill in inputs:
            value = typed.get((r, col))
            if value is None and playoff:
                value = prefill
            if value is None:
                ws.write_blank(r - 1, col - 1, None, fmt)
            else:
                put(ws, r, col, value, fmt)
