"""Double entry: two independent transcriptions of the same round compared cell by cell (pure; works on what
`read_round` read; `same_file` alone asks the file system whether two names are one file).

Bridge scorers' oldest safeguard: two people type the same score cards into two copies of `round-N.xlsx`, and
every cell where they disagree is shown as ``第3桌!D9：85 / 58`` (this file's value / the other's). Cells are
compared after the same lenient reading as scoring (``85``, ``８５`` and ``85分`` agree; a blank 台下得分 and ``0``
do not: a blank one is an error; ``×4`` and ``4倍`` agree); a value neither reading accepts is compared as text. Hand rows are paired by
their place under the header row, so a row inserted in one copy shows as disagreements, not as silence.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.knockout.knockout import Pairing
from shuangsheng.storage.workbook.loading import Grid
from shuangsheng.storage.workbook.parsers import blank, parse_whole, show, squeeze
from shuangsheng.storage.workbook.problems import Cell
from shuangsheng.storage.workbook.round_reader import MatchSheet, RoundSheet, parse_forfeit
from shuangsheng.storage.workbook.schema import (
    FINAL_LABELS,
    FORFEIT_LABEL,
    HAND_COLUMNS,
    MATCHES_HEADER,
    MATCHES_SHEET,
    TABLE_LABEL,
    Column,
)
from shuangsheng.vocabulary.errors import Place

DATA_COLUMNS = tuple(c for c in HAND_COLUMNS if c.field)
LEVEL_COLUMN = next(c for c in HAND_COLUMNS if c.field == "level")  # 终局 levels read as 庄家级  # 局 is printed, 备注 is free text: neither is compared


@dataclass(frozen=True)
class Difference:
    """One cell the two entries disagree on: where (in this file) and both values as typed."""

    sheet: str
    cell: Cell | None  # None: the whole sheet (missing or unreadable in one of the files)
    ours: str
    theirs: str

    @property
    def where(self) -> str:
        return f"{self.sheet}!{self.cell}" if self.cell else self.sheet

    @property
    def in_words(self) -> str:
        """The place for papers on the wall, as every issue says it (`Place.in_words`): '对阵表 H12 格',
        '第3桌记分表 D9 格', '第3桌记分表'."""
        return Place(sheet=self.sheet, cell=self.cell).in_words

    def __str__(self) -> str:
        """'第3桌!D9：85 / 58'"""
        return f"{self.where}：{self.ours} / {self.theirs}"


@dataclass(frozen=True)
class Verification:
    """The result of comparing this round workbook with a second, independent entry `other` (its file name)."""

    other: str
    differences: tuple[Difference, ...]

    @property
    def agree(self) -> bool:
        return not self.differences


def same_file(a: Path, b: Path) -> bool:
    """`a` and `b` are one file: the same path, a link, or another name for it (a hard link: same device and
    inode; on Windows, another spelling of the name)."""
    if Path(a).resolve() == Path(b).resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them is missing: the reader names it
        return False


class NotTheSameRound(ValueError):
    """The second file is not an entry of the same drawn round (another round, another draw)."""


def compare(ours: RoundSheet, theirs: RoundSheet) -> Verification:
    """Every cell of the hand tables (and every 弃权 cell) where the two entries disagree, table by table."""
    if (ours.round.number, ours.round.pairings) != (theirs.round.number, theirs.round.pairings):
        raise NotTheSameRound(theirs.path.name)
    differences = list(_forfeits(ours, theirs)) + _finals(ours, theirs)
    for match in ours.matches:
        differences.extend(_hands(ours, match, theirs, theirs.match(match.table)))
    return Verification(theirs.path.name, tuple(differences))


def same(column: Column, a: object, b: object) -> bool:
    """Equal after the lenient reading of `column`; as text when either value does not read."""
    assert column.parse is not None  # a column with a parser (schema.py)
    try:
        return column.parse(a) == column.parse(b)
    except ValueError:
        return _text(a) == _text(b)


def _text(raw: object) -> str:
    return "" if blank(raw) else squeeze(show(raw)).lower()


def _shown(raw: object) -> str:
    return show(raw)  # 空 for a blank cell


def _hands(ours: RoundSheet, a: MatchSheet, theirs: RoundSheet, b: MatchSheet) -> list[Difference]:
    grid_a, grid_b = ours.grids.get(a.sheet), theirs.grids.get(b.sheet)
    if grid_a is None or grid_b is None or a.header_row is None or b.header_row is None:
        state_a, state_b = _state(grid_a, a), _state(grid_b, b)
        return [] if state_a == state_b else [Difference(a.sheet, None, state_a, state_b)]
    columns = [c for c in DATA_COLUMNS if c.field in a.columns and c.field in b.columns]
    last = max(_last_offset(grid_a, a), _last_offset(grid_b, b))
    found = []
    for offset in range(1, last + 1):
        for column in columns:
            assert column.field is not None
            raw_a = grid_a.get(a.header_row + offset, a.columns[column.field])
            raw_b = grid_b.get(b.header_row + offset, b.columns[column.field])
            if not same(column, raw_a, raw_b):
                cell = Cell(a.header_row + offset, a.columns[column.field])
                found.append(Difference(a.sheet, cell, _shown(raw_a), _shown(raw_b)))
    return found


def _state(grid: Grid | None, match: MatchSheet) -> str:
    if grid is None:
        return "没有这张工作表"
    return "找不到记分表头行" if match.header_row is None else "有记分表"


def _last_offset(grid: Grid, match: MatchSheet) -> int:
    """How far below the header the last typed hand cell is."""
    assert match.header_row is not None
    data = {match.columns[c.field] for c in DATA_COLUMNS if c.field is not None and c.field in match.columns}
    rows = [r for (r, c), v in grid.cells.items() if r > match.header_row and c in data and not blank(v)]
    return max(rows, default=match.header_row) - match.header_row


def _forfeits(ours: RoundSheet, theirs: RoundSheet) -> list[Difference]:
    cells_a, cells_b = _forfeit_cells(ours), _forfeit_cells(theirs)
    found = []
    for pairing in ours.round.pairings:
        (cell, raw_a), (_, raw_b) = cells_a.get(pairing.table, (None, None)), cells_b.get(pairing.table, (None, None))
        if not _same_forfeit(pairing, raw_a, raw_b):
            found.append(Difference(MATCHES_SHEET, cell, _shown(raw_a), _shown(raw_b)))
    return found


def _same_forfeit(pairing: Pairing, a: object, b: object) -> bool:
    if blank(a) or blank(b):
        return blank(a) and blank(b)
    try:
        return parse_forfeit(a, pairing) == parse_forfeit(b, pairing)
    except ValueError:
        return _text(a) == _text(b)


def _finals(ours: RoundSheet, theirs: RoundSheet) -> list[Difference]:
    """The 终局 cells (a lost card's final levels and why), table by table: levels as read, the reason as text."""
    found = []
    for label in FINAL_LABELS:
        cells_a, cells_b = _forfeit_cells(ours, label), _forfeit_cells(theirs, label)
        for pairing in ours.round.pairings:
            (cell, raw_a), (_, raw_b) = cells_a.get(pairing.table, (None, None)), cells_b.get(pairing.table, (None, None))
            alike = _text(raw_a) == _text(raw_b) if label == FINAL_LABELS[-1] else same(LEVEL_COLUMN, raw_a, raw_b)
            if cell is not None and not alike:
                found.append(Difference(MATCHES_SHEET, cell, _shown(raw_a), _shown(raw_b)))
    return found


def _forfeit_cells(sheet: RoundSheet, label: str = FORFEIT_LABEL) -> dict[int, tuple[Cell, object]]:
    """Each table's 弃权 cell (or `label`'s: a 终局 cell) on the 对阵 sheet and what it holds; none when the sheet has
    no such column (a workbook drawn before the 终局 columns)."""
    grid = sheet.grids.get(MATCHES_SHEET)
    found = grid.find_header(MATCHES_HEADER[:4]) if grid is not None else None
    if grid is None or found is None or label not in found[1]:
        return {}
    header, columns = found
    cells = {}
    r = header + 1
    while not blank(grid.get(r, columns[TABLE_LABEL])):  # the match rows end at the first blank 桌号, as the reader's
        try:
            table = parse_whole(grid.get(r, columns[TABLE_LABEL]))
        except ValueError:
            table = None
        if table is not None and table not in cells:
            cells[table] = (Cell(r, columns[label]), grid.get(r, columns[label]))
        r += 1
    return cells
