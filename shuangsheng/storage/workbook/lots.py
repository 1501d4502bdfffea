"""Paper lots (签号) for `draw --lots`: an xlsx sheet or a CSV with 组号 and 签号 columns (reads files)."""

from __future__ import annotations

from pathlib import Path

from shuangsheng.storage.workbook.loading import csv_grid, read_file, read_grids
from shuangsheng.storage.workbook.parsers import blank, parse_team_id, parse_whole, quoted
from shuangsheng.storage.workbook.problems import Cell, Problem, WorkbookError
from shuangsheng.storage.workbook.schema import LOT_LABEL, LOTS_HEADER, TEAM_ID_LABEL


def read_lots(path: Path) -> tuple[tuple[str, int], ...]:
    """Paper lots as (team id, lot) in file order, from an xlsx sheet or a CSV (UTF-8 or GBK) with 组号 and 签号
    columns. Only parsing: whether the lots make a valid draw is the knockout's job. WorkbookError lists problems."""
    path = Path(path)
    name = path.name
    data = read_file(path)
    csv_file = path.suffix.lower() == ".csv"
    candidates = [csv_grid(data, name)] if csv_file else list(read_grids(data, name).values())
    hit = next(((g, found) for g in candidates if (found := g.find_header(LOTS_HEADER))), None)
    if hit is None:
        raise WorkbookError([Problem.of_cell(name, None, None, "找不到含“组号”“签号”两列的表头")])
    grid, (header_row, cols) = hit
    sheet = grid.name or None
    lots: list[tuple[str, int]] = []
    problems: list[Problem] = []
    for r in range(header_row + 1, grid.max_row + 1):
        raw_id, raw_lot = grid.get(r, cols[TEAM_ID_LABEL]), grid.get(r, cols[LOT_LABEL])
        if blank(raw_id) and blank(raw_lot):
            continue
        try:
            team_id = parse_team_id(raw_id)
            if not team_id:
                raise ValueError(raw_id)
        except ValueError:
            problems.append(Problem.of_cell(name, sheet, Cell(r, cols[TEAM_ID_LABEL]), f"组号应为文字或整数，实际为{quoted(raw_id)}"))
            continue
        try:
            lot = parse_whole(raw_lot, suffixes=("号",))
            if lot < 1:
                raise ValueError(raw_lot)
        except ValueError:
            problems.append(Problem.of_cell(name, sheet, Cell(r, cols[LOT_LABEL]), f"签号应为正整数，实际为{quoted(raw_lot)}"))
            continue
        lots.append((team_id, lot))
    if problems:
        raise WorkbookError(problems)
    return tuple(lots)
