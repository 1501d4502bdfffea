"""`draw --redo`: what people typed into a round workbook carried into the corrected one, table by table.

The corrected workbook is written blank by `round_writer`; every cell of the old workbook that differs from the
blank one of the same draw (the hands, 弃权, 终局 and 备注 a person entered) is copied across for the tables kept,
and dropped for the tables whose teams changed (the old workbook is backed up first).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from scoring.files import write_bytes
from scoring.workbook.loading import Grid, read_file, read_grids
from scoring.workbook.parsers import parse_whole
from scoring.workbook.referee import _with_cells
from scoring.workbook.round_reader import RoundSheet
from scoring.workbook.schema import MATCHES_HEADER, MATCHES_SHEET, sheet_name


def _value(value: object) -> object:
    """A value as it is written back: whole floats (as calamine reads numbers) become ints."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _typed(old: Grid, new: Grid, rows: Collection[int] | None = None) -> dict[tuple[int, int], object]:
    """Cells of `old` that differ from `new` (in `rows` only, when given)."""
    cells = {}
    for (r, c), value in old.cells.items():
        if (rows is None or r in rows) and new.get(r, c) != value:
            cells[(r, c)] = _value(value)
    return cells


def carry_entries(path: Path, old: RoundSheet, keep: Collection[int]) -> Path:
    """Copy into the freshly written `path` what was typed in `old` for the tables `keep` (the match rows of
    the 对阵 sheet and each kept table's sheet)."""
    data = read_file(path)
    new = read_grids(data, Path(path).name)
    typed: dict[str, dict[tuple[int, int], object]] = {}
    rows = {_match_row(new[MATCHES_SHEET], t) for t in keep} - {None}
    if MATCHES_SHEET in old.grids and rows:
        typed[MATCHES_SHEET] = _typed(old.grids[MATCHES_SHEET], new[MATCHES_SHEET], rows)  # type: ignore[arg-type]
    for table in keep:
        name = sheet_name(table)
        if name in old.grids and name in new:
            typed[name] = _typed(old.grids[name], new[name])
    typed = {k: v for k, v in typed.items() if v}
    return write_bytes(path, _with_cells(data, typed), force=True) if typed else path


def _match_row(grid: Grid, table: int) -> int | None:
    """The 对阵 sheet's row of `table`: below the 桌号 header, up to the first blank 桌号 (the pool list further
    down also starts with a number)."""
    found = grid.find_header(MATCHES_HEADER[:4])
    if found is None:
        return None
    header, cols = found
    r = header + 1
    while (raw := grid.get(r, cols["桌号"])) is not None:
        try:
            if parse_whole(raw) == table:
                return r
        except ValueError:
            return None
        r += 1
    return None
