"""SIMULATION ONLY: typing hands into a drawn round workbook as a referee would: `typed_cells` for `demo`, `fill_round`
for the tests.

Never used on a real event's files: `fill_round` rewrites the workbook it is given (reads and writes files). The
workbook is read (the drawn round, each team's players, the rules note and whatever is already typed in its input
cells) and written anew by `round_writer` with the new values in their cells, so the result is the workbook `draw`
wrote as a referee leaves it after typing: the same look, validation and protection, each typed value in its input
cell. `typed_cells` is what a referee types, for `round_writer` to write in the same pass as the drawn workbook (the
demo: one workbook written per round instead of two).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from shuangsheng.game.hands import MatchRecord
from shuangsheng.game.levels import Side
from shuangsheng.storage.workbook.loading import Grid
from shuangsheng.storage.workbook.parsers import parse_team_id
from shuangsheng.storage.workbook.phone import typed
from shuangsheng.storage.workbook.round_reader import RoundSheet, read_round
from shuangsheng.storage.workbook.round_writer import FINAL_COLUMNS, FORFEIT_COLUMN, entered, match_row, render_round
from shuangsheng.storage.workbook.schema import (
    FIRST_HAND_ROW,
    FIRST_PLAYOFF_ROW,
    HAND_COLUMNS,
    MATCHES_RULES_ROW,
    MATCHES_SHEET,
    PLAYERS_LABEL,
    PLAYOFF_ROWS,
    POOL_HEADER,
    REGULAR_ROWS,
    TEAM_ID_LABEL,
    sheet_name,
)

RULES_LABEL = "规则"


def fill_round(
    path: Path, records: Mapping[int, MatchRecord], *, walkovers: Mapping[int, Side] | None = None,
    known: RoundSheet | None = None,
) -> Path:
    """Type hands into a drawn round workbook as a referee would (the demo's stand-in for the day): regular hands
    from hand row 1, 加赛 hands into the 加 rows; `walkovers` marks the 弃权 side on the 对阵 sheet. What was typed
    before stays unless typed over. Only for a workbook this program drew for a simulated event: it rewrites
    `path`. `known`: the caller's reading of `path` (`read_round`)."""
    path = Path(path)
    sheet = read_round(path, known)
    drawn = sheet.round
    matches = sheet.grids[MATCHES_SHEET]
    typed: dict[str, dict[tuple[int, int], object]] = {
        title: entered(grid) for title, grid in sheet.grids.items() if title != MATCHES_SHEET
    }
    forfeits = typed[MATCHES_SHEET] = {}
    for i, pairing in enumerate(drawn.pairings):
        r = match_row(i)
        side = (walkovers or {}).get(pairing.table)
        before = matches.get(r, FORFEIT_COLUMN)
        if side is not None or before is not None:
            forfeits[(r, FORFEIT_COLUMN)] = side.cn if side is not None else before
        forfeits.update({(r, col): matches.get(r, col) for col in FINAL_COLUMNS if matches.get(r, col) is not None})
    for title, cells in typed_cells(records).items():
        typed.setdefault(title, {}).update(cells)
    rules = matches.get(MATCHES_RULES_ROW, 2) if matches.get(MATCHES_RULES_ROW, 1) == RULES_LABEL else None
    names = _names(matches, below=match_row(len(drawn.pairings)))
    return render_round(path, drawn, names, rules_note=str(rules or ""), typed=typed, force=True, digits=sheet.digits)


def typed_cells(records: Mapping[int, MatchRecord]) -> dict[str, dict[tuple[int, int], object]]:
    """What a referee types for `records` (table → its hands), sheet by sheet, as `write_round(typed=…)` takes it:
    regular hands from hand row 1, 加赛 hands into the 加 rows. ValueError if a match does not fit its sheet."""
    return {sheet_name(table): _record_cells(table, record) for table, record in records.items()}


def _names(matches: Grid, *, below: int) -> dict[str, str]:
    """Each team's players as the 对阵 sheet's 抽签名单 (below the matches) prints them (canonical id → "张三、李四")."""
    found = matches.find_header(POOL_HEADER[:3], start=below)
    assert found is not None, "not a round workbook drawn by this program"
    header, cols = found
    names: dict[str, str] = {}
    r = header + 1
    while (team_id := matches.get(r, cols[TEAM_ID_LABEL])) is not None:
        names[parse_team_id(team_id)] = str(matches.get(r, cols[PLAYERS_LABEL]) or "")
        r += 1
    return names


def _record_cells(table: int, record: MatchRecord) -> dict[tuple[int, int], object]:
    col = {c.field: i for i, c in enumerate(HAND_COLUMNS, start=1) if c.field}
    regular = [h for h in record.hands if not h.playoff]
    playoff = [h for h in record.hands if h.playoff]
    if len(regular) > REGULAR_ROWS or len(playoff) > PLAYOFF_ROWS:
        raise ValueError(f"{table}: {len(regular)} + {len(playoff)} hands do not fit the sheet")
    rows = [FIRST_HAND_ROW + i for i in range(len(regular))]
    rows += [FIRST_PLAYOFF_ROW + i for i in range(len(playoff))]
    cells: dict[tuple[int, int], object] = {}
    for r, hand in zip(rows, regular + playoff, strict=True):
        for field, value in typed(hand).items():
            cells[(r, col[field])] = value
    return cells
