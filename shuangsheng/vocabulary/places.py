"""A place in a spreadsheet: a cell or a range of cells, 1-based, shown as ``D9`` or ``A5:C5``. Pure.

Shared by the workbook package, which finds problems at cells, and the round results, which carry them to the
printed page and the TV display; neither reaches into the other for it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass


@functools.cache
def column_letter(col: int) -> str:
    """1 → 'A', 27 → 'AA' (as openpyxl's get_column_letter, without importing it)."""
    letters = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


@dataclass(frozen=True, order=True)
class Cell:
    """A cell (1-based row and column), or the cells from it to `last_column` and `last_row` (when given)."""

    row: int
    column: int
    last_column: int | None = None
    last_row: int | None = None

    @property
    def single(self) -> bool:
        return self.last_column is None and self.last_row is None

    def __str__(self) -> str:
        """'D9'; 'A5:C5' or 'D9:F12' for a range."""
        first = f"{column_letter(self.column)}{self.row}"
        if self.single:
            return first
        return f"{first}:{column_letter(self.last_column or self.column)}{self.last_row or self.row}"
