"""Problems found in a file: where (file, sheet, row, column) and what was expected, in Chinese (pure).

A place stays structured until it is shown: `Cell(9, 4)` (`scoring.places`) becomes ``D9`` (or ``第9行第4列`` in a
CSV file, which has no sheets) only in `Problem.where`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import UserError
from scoring.places import Cell, column_letter

__all__ = ["Cell", "Problem", "WorkbookError", "column_letter"]  # Cell and column_letter re-exported


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: where (file, sheet, cell — each but the file may be absent) and a Chinese
    message. A cell without a sheet is a cell of a CSV file."""

    file: str
    sheet: str | None
    cell: Cell | None
    message: str

    @property
    def row(self) -> int | None:
        return self.cell.row if self.cell else None

    @property
    def where(self) -> str:
        """'round-1.xlsx 第3桌!D9', 'round-1.xlsx 第3桌', 'lots.csv 第3行第2列' or 'round-1.xlsx'."""
        if self.sheet and self.cell:
            return f"{self.file} {self.sheet}!{self.cell}"
        if self.sheet:
            return f"{self.file} {self.sheet}"
        if self.cell:
            return f"{self.file} 第{self.cell.row}行第{self.cell.column}列"
        return self.file

    def __str__(self) -> str:
        return f"{self.where}：{self.message}"

    def order(self) -> tuple[str, int, int]:
        """Sheet, then reading order (row, column); problems without a cell first."""
        return (self.sheet or "", self.cell.row if self.cell else 0, self.cell.column if self.cell else 0)


class WorkbookError(UserError, ValueError):
    """A workbook that cannot be used as it is; `problems` lists every problem found (all at once)."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def messages(self) -> list[str]:
        return [str(p) for p in self.problems]
