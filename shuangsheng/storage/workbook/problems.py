"""Problems found in a file: where (file, sheet, row, column) and what was expected, in Chinese (pure).

A problem is the one record of what a user can fix, `shuangsheng.vocabulary.errors.Issue`, whose place names a file: `Cell(9, 4)`
(`shuangsheng.vocabulary.places`) becomes ``D9`` (or ``第9行第4列`` in a CSV file, which has no sheets) only when it is shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from shuangsheng.vocabulary.errors import Issue, UserError
from shuangsheng.vocabulary.places import Cell, column_letter

__all__ = ["Cell", "Problem", "WorkbookError", "column_letter"]  # Cell and column_letter re-exported

Problem = Issue  # built with `Problem.of_cell(file, sheet, cell, message)`: a sheet, a cell, each may be absent


class WorkbookError(UserError, ValueError):
    """A workbook that cannot be used as it is; `problems` (= `issues`) lists every problem found (all at once)."""

    def __init__(self, problems: Sequence[Problem]):
        super().__init__(problems)

    @property
    def problems(self) -> tuple[Problem, ...]:
        return self.issues
