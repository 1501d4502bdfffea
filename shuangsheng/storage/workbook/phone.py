"""The phone's hands written into a table's sheet, as the referee would have typed them (pure: works on the grids
`read_round` read). The checked copy of a round is then the whole record for the archive: a table entered by
phone only shows its hands, levels and explanations like a table typed from its card (docs/workbooks.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from shuangsheng.game.hands import Hand, MatchRecord
from shuangsheng.storage.workbook.loading import Grid
from shuangsheng.storage.workbook.round_reader import MatchSheet, RoundSheet
from shuangsheng.storage.workbook.schema import REGULAR_ROWS, YES_MARK


def typed(hand: Hand) -> dict[str, object]:
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
            cells[field] = YES_MARK
    for field in ("dealer_wrong_cards", "defender_wrong_cards"):
        if getattr(hand, field):
            cells[field] = getattr(hand, field)
    if hand.offense is not None:
        cells["offense"] = hand.offense.cn
    return cells


def with_phone_hands(sheet: RoundSheet, hands: Mapping[int, Sequence[Hand]]) -> RoundSheet:
    """`sheet` with each table of `hands` (table → the phone's hands; tables whose sheet holds no hand) typed into
    its hand table: regular hands from the first hand row, 加赛 hands from the first 加赛 row."""
    grids = dict(sheet.grids)
    matches = []
    for match in sheet.matches:
        entered = hands.get(match.table)
        if entered and match.header_row is not None and not match.record.hands and match.sheet in grids:
            grid, match = _typed_in(grids[match.sheet], match, entered)
            grids[match.sheet] = grid
        matches.append(match)
    return replace(sheet, matches=tuple(matches), grids=grids)


def _typed_in(grid: Grid, match: MatchSheet, hands: Sequence[Hand]) -> tuple[Grid, MatchSheet]:
    assert match.header_row is not None
    first = match.header_row + 1
    regular = [h for h in hands if not h.playoff]
    playoff = [h for h in hands if h.playoff]
    rows = [first + i for i in range(len(regular))] + [first + REGULAR_ROWS + i for i in range(len(playoff))]
    cells = dict(grid.cells)
    for row, hand in zip(rows, regular + playoff, strict=True):
        for field, value in typed(hand).items():
            column = match.columns.get(field)
            if column is not None:
                cells[(row, column)] = value
    record = MatchRecord(tuple(regular + playoff), match.record.start)
    return Grid(grid.name, cells, grid.merged), replace(match, record=record, rows=tuple(rows))
