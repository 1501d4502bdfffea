"""SIMULATION ONLY: typing hands into a drawn round workbook as a referee would, for `demo` and the tests.

Never used on a real event's files: it rewrites the workbook it is given (reads and writes files).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from scoring.hands import Hand, MatchRecord
from scoring.levels import Side
from scoring.workbook.loading import open_workbook, read_file
from scoring.workbook.schema import (
    HAND_COLUMNS,
    HAND_HEADER_ROW,
    MATCHES_HEADER,
    MATCHES_SHEET,
    PLAYOFF_ROWS,
    REGULAR_ROWS,
    sheet_name,
)
from scoring.workbook.style import save


def fill_round(
    path: Path, records: Mapping[int, MatchRecord], *, walkovers: Mapping[int, Side] | None = None
) -> Path:
    """Type hands into a drawn round workbook as a referee would (the demo's stand-in for the day): regular hands
    from hand row 1, 加赛 hands into the 加 rows; `walkovers` marks the 弃权 side on the 对阵 sheet. Only for a
    workbook this program drew for a simulated event: it rewrites `path`."""
    wb = open_workbook(read_file(Path(path)), Path(path).name, read_only=False)
    col = {c.field: i for i, c in enumerate(HAND_COLUMNS, start=1) if c.field}
    for table, record in records.items():
        ws = wb[sheet_name(table)]
        regular = [h for h in record.hands if not h.playoff]
        playoff = [h for h in record.hands if h.playoff]
        if len(regular) > REGULAR_ROWS or len(playoff) > PLAYOFF_ROWS:
            raise ValueError(f"{table}: {len(regular)} + {len(playoff)} hands do not fit the sheet")
        rows = [HAND_HEADER_ROW + 1 + i for i in range(len(regular))]
        rows += [HAND_HEADER_ROW + 1 + REGULAR_ROWS + i for i in range(len(playoff))]
        for r, hand in zip(rows, regular + playoff):
            for field, value in _typed(hand).items():
                ws.cell(r, col[field], value)
    if walkovers:
        ws = wb[MATCHES_SHEET]
        # Only the match rows: below the 桌号 header up to the first blank 桌号 (the pool table further down
        # also starts with a number, its 序号, and must not get a 弃权 mark in its 签号 column).
        header = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == MATCHES_HEADER[0])
        r = header + 1
        while (table := ws.cell(r, 1).value) is not None:
            if isinstance(table, int) and table in walkovers:
                ws.cell(r, 4, walkovers[table].cn)
            r += 1
    return save(wb, path, force=True)


def _typed(hand: Hand) -> dict[str, object]:
    """What a referee writes in each column for a hand (blank where the default holds)."""
    cells: dict[str, object] = {"dealer": hand.dealer.cn, "points": hand.points}
    if hand.level is not None:
        cells["level"] = hand.level.label
    if hand.bottom:
        cells["bottom"] = hand.bottom
    if hand.capture:
        cells["capture"] = f"×{hand.capture}"
    for field in ("level_card_capture", "playoff"):
        if getattr(hand, field):
            cells[field] = "是"
    for field in ("dealer_wrong_cards", "defender_wrong_cards"):
        if getattr(hand, field):
            cells[field] = getattr(hand, field)
    if hand.offense is not None:
        cells["offense"] = hand.offense.cn
    return cells
