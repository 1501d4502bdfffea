"""Problems found in a file: where (file, sheet, cell) and what was expected, in Chinese (pure)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import UserError

@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file: where (file, sheet, cell — each may be absent) and a Chinese message."""

    file: str
    sheet: str | None
    cell: str | None
    message: str

    @property
    def where(self) -> str:
        """'round-1.xlsx 第3桌!D9', 'round-1.xlsx 第3桌' or 'round-1.xlsx'."""
        if self.sheet and self.cell:
            return f"{self.file} {self.sheet}!{self.cell}"
        if self.sheet:
            return f"{self.file} {self.sheet}"
        if self.cell:
            return f"{self.file} {self.cell}"
        return self.file

    def __str__(self) -> str:
        return f"{self.where}：{self.message}"


class WorkbookError(UserError, ValueError):
    """A workbook that cannot be used as it is; `problems` lists every problem found (all at once)."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @property
    def messages(self) -> list[str]:
        return [str(p) for p in self.problems]


def column_letter(col: int) -> str:
    """1 → 'A', 27 → 'AA' (as openpyxl's get_column_letter, without importing it)."""
    letters = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def cell_ref(row: int, col: int) -> str:
    return f"{column_letter(col)}{row}"


def problem_order(p: Problem) -> tuple:
    if p.cell:
        m = re.fullmatch(r"([A-Z]+)(\d+)", p.cell)
        if m:
            return (p.sheet or "", int(m.group(2)), len(m.group(1)), m.group(1))
    return (p.sheet or "", 0, 0, "")


def csv_cell_ref(row: int, col: int) -> str:
    return f"第{row}行第{col}列"
