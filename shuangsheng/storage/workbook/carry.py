"""`draw --redo`: what people typed into a round workbook carried into the corrected one, table by table.

The corrected workbook is written by `round_writer` with the typed values in its input cells (the 弃权 and 终局
cells of each kept table's match row, and the hands and 备注 of its score sheet), as the referee simulation writes them; the
tables whose teams changed start blank (the old workbook is backed up first).
"""

from __future__ import annotations

from collections.abc import Collection

from shuangsheng.storage.workbook.round_reader import RoundSheet
from shuangsheng.storage.workbook.round_writer import INPUT_COLUMNS, Typed, entered, match_row
from shuangsheng.storage.workbook.schema import MATCHES_SHEET, sheet_name


def carried(old: RoundSheet, keep: Collection[int]) -> Typed:
    """What was typed in `old` for the tables `keep`, by sheet and cell, for `round_writer.render_round(typed=…)`
    of the corrected round (its tables in the same order, so in the same rows)."""
    typed: dict[str, dict[tuple[int, int], object]] = {}
    matches = old.grids.get(MATCHES_SHEET)
    if matches is not None:
        rows = (match_row(i) for i, p in enumerate(old.round.pairings) if p.table in keep)
        typed[MATCHES_SHEET] = {(r, col): v for r in rows for col in INPUT_COLUMNS
                                if (v := matches.get(r, col)) is not None}
    for table in keep:
        if (grid := old.grids.get(sheet_name(table))) is not None:
            typed[sheet_name(table)] = entered(grid)
    return typed
