"""Opening a workbook the user gave us, safely, into plain grids of values (reads files; calamine, openpyxl).

The file is read into memory once and never written. Before any parser sees it, `guard.inspect` refuses what is
not a sane .xlsx (old or foreign formats, truncated files, zip bombs, XML entities, sheets of millions of rows) and
tells whether any cell holds a formula. Values and each sheet's merged ranges are read with calamine (Rust; its
XML parser expands no entities); the values of workbooks holding formulas go through openpyxl, which parses XML
through defusedxml (a dependency). Nothing the program writes holds a formula; a formula a user typed is read by
the value the spreadsheet application saved with it, and one without a saved value becomes `Uncached` (no parser
accepts it).
"""

from __future__ import annotations

import csv
import io
import os
import sys
import warnings
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from shuangsheng.storage import files
from shuangsheng.storage.files import decode_text
from shuangsheng.storage.workbook.guard import inspect
from shuangsheng.storage.workbook.parsers import squeeze
from shuangsheng.storage.workbook.problems import Cell, Problem, WorkbookError

HEADER_SEARCH_ROWS = 30


@dataclass(frozen=True, order=True)
class Span:
    """A rectangle of cells, 1-based and inclusive (a merged range)."""

    row: int
    column: int
    last_row: int
    last_column: int

    @property
    def cell(self) -> Cell:
        return Cell(self.row, self.column, last_column=self.last_column, last_row=self.last_row)

    def __str__(self) -> str:
        return str(self.cell)

    def touches(self, rows: range, columns: range) -> bool:
        return self.row < rows.stop and self.last_row >= rows.start and self.column < columns.stop \
            and self.last_column >= columns.start


@dataclass
class Grid:
    """One worksheet's non-blank values by (row, column), 1-based."""

    name: str
    cells: dict[tuple[int, int], object]
    merged: tuple[Span, ...] = ()  # merged ranges, as the file declares them (calamine reads them)
    _labels: list[tuple[int, int, str]] | None = field(default=None, init=False, repr=False, compare=False)
    _fingerprint: str | None = field(default=None, init=False, repr=False, compare=False)

    def get(self, row: int, col: int) -> object:
        return self.cells.get((row, col))

    @property
    def max_row(self) -> int:
        return max((r for r, _ in self.cells), default=0)

    def fingerprint(self) -> str:
        """The sheet's content as read (`fingerprint_of` its cells), worked out once: a round is compared with
        what was recorded by every later `score` (the earlier rounds' changes), and a grid is not changed once read."""
        if self._fingerprint is None:
            self._fingerprint = self.fingerprint_of(self.cells)
        return self._fingerprint

    @staticmethod
    def fingerprint_of(cells: Mapping[tuple[int, int], object]) -> str:
        """sha256 of repr(sorted (cell, text) pairs), fed piece by piece: a text shared by thousands of cells is
        quoted once, and the list's repr is never built whole. Recorded in event.db: it must not change."""
        import hashlib

        quoted: dict[str, bytes] = {}
        digest = hashlib.sha256(b"[")
        for i, (cell, text) in enumerate(sorted((k, str(v)) for k, v in cells.items())):
            if text not in quoted:
                quoted[text] = repr(text).encode("utf-8")
            digest.update(b"%s(%s, %s)" % (b", " if i else b"", repr(cell).encode(), quoted[text]))
        digest.update(b"]")
        return digest.hexdigest()

    def labels(self) -> list[tuple[int, int, str]]:
        """Every text cell as (row, column, text squeezed of spaces and full-width forms), in reading order."""
        if self._labels is None:  # each distinct text squeezed once: a text shared by 20,000 cells is one copy
            squeezed: dict[str, str] = {}
            self._labels = sorted((r, c, squeezed[v] if v in squeezed else squeezed.setdefault(v, squeeze(v)))
                                  for (r, c), v in self.cells.items() if isinstance(v, str))
        return self._labels

    def find_header(self, required: Sequence[str], *, start: int = 1) -> tuple[int, dict[str, int]] | None:
        """The first row at or after `start` holding every label in `required` → (row, label → column)."""
        rows: dict[int, dict[str, int]] = {}
        for r, c, text in self.labels():
            if start <= r <= start + HEADER_SEARCH_ROWS:
                rows.setdefault(r, {}).setdefault(text, c)
        for r in sorted(rows):
            if all(label in rows[r] for label in required):
                return r, rows[r]
        return None

    def find_label(self, label: str, *, before_row: int | None = None) -> tuple[int, int] | None:
        for r, c, text in self.labels():
            if before_row is not None and r >= before_row:
                break
            if text == label:
                return r, c
        return None


def read_file(path: Path) -> bytes:
    """The bytes of a workbook (or a lots CSV) the user gave: a regular file within its kind's size limit."""
    name = Path(path).name
    kind = files.LOTS_CSV if Path(path).suffix.lower() == ".csv" else files.WORKBOOK
    try:
        return files.read_user_file(Path(path), kind)
    except files.Unreadable as exc:
        reason = exc.reason
        if exc.missing and str(path) != name:
            reason = f"找不到文件：{path}"  # the full path only when it says more than the name
        raise WorkbookError([Problem.of_cell(name, None, None, reason)]) from None


def _unreadable(name: str, exc: BaseException) -> WorkbookError:
    return WorkbookError([Problem.of_cell(
        name, None, None, f"无法作为 xlsx 工作簿打开（文件可能已损坏：{type(exc).__name__}）；请在 Excel 或 WPS 中重新保存"
    )])


def open_workbook(data: bytes, name: str, *, read_only: bool = True, data_only: bool = False):  # -> Workbook
    """The workbook in openpyxl, after the same checks as `read_grids` (for a workbook holding formulas)."""
    inspect(data, name)
    import openpyxl  # only here: reading goes through calamine
    from openpyxl.utils.exceptions import InvalidFileException

    try:
        return openpyxl.load_workbook(io.BytesIO(data), read_only=read_only, data_only=data_only)
    # openpyxl reports a broken package in many ways; each is a file we cannot read, said once in Chinese.
    except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, TypeError, SyntaxError, OSError) as exc:
        raise _unreadable(name, exc) from None


@dataclass(frozen=True)
class Uncached:
    """A formula cell whose file holds no computed value (e.g. written by a program, never opened in Excel): no
    parser accepts it, so it is reported instead of being read as blank."""

    formula: str

    def __str__(self) -> str:
        return f"公式 {self.formula}（文件中没有计算结果；请在 Excel/WPS 中打开后保存，或直接填写数值）"


def read_grids(data: bytes, name: str) -> dict[str, Grid]:
    """Every worksheet's non-blank values, in workbook order.

    Read with calamine (fast), which gives a formula cell the value the spreadsheet application saved with it.
    calamine cannot tell a formula saved without a value from a blank cell, so a workbook holding any formula
    (rare: our workbooks have none, and people seldom type one) is read with openpyxl instead, where such a cell
    becomes `Uncached` and is reported.
    """
    if inspect(data, name).formulas:
        return _grids_with_formulas(data, name)
    try:
        with _rust_panics_unprinted():
            return _calamine_grids(data)
    except BaseException as exc:
        # calamine gives up on some files openpyxl reads: a date-formatted cell holding a number far outside any
        # date makes its Rust date library panic (PanicException, which is not even an Exception). Such a file
        # is read again with openpyxl, which marks that cell as an error value, so the problem names the cell.
        if not _calamine_gave_up(exc):
            raise
    return _grids_with_formulas(data, name)


def _calamine_gave_up(exc: BaseException) -> bool:
    """calamine's ways of refusing a file (any other exception is a bug to be raised)."""
    from python_calamine import CalamineError

    return isinstance(exc, (CalamineError, ValueError, OSError, ArithmeticError)) \
        or type(exc).__name__ == "PanicException"


@contextmanager
def _rust_panics_unprinted() -> Iterator[None]:
    """A Rust panic is printed to file descriptor 2 before it becomes an exception; the user would see English
    noise for a cell we then read another way. Descriptor 2 points at nothing while calamine runs (a console
    only: under a test runner stderr has no descriptor and is left alone)."""
    try:
        sys.stderr.flush()
        fd: int | None = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is None:
        yield
        return
    saved = os.dup(fd)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), fd)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)


def _calamine_grids(data: bytes) -> dict[str, Grid]:
    from python_calamine import CalamineWorkbook, SheetTypeEnum

    book = CalamineWorkbook.from_filelike(io.BytesIO(data))
    grids: dict[str, Grid] = {}
    texts: dict[str, str] = {}  # one object per distinct text: calamine gives every cell its own copy of a shared one
    for meta in book.sheets_metadata:
        if meta.typ != SheetTypeEnum.WorkSheet:
            continue
        sheet = book.get_sheet_by_name(meta.name)
        merged = _spans(sheet.merged_cell_ranges)  # before the values: converting a value may panic
        cells: dict[tuple[int, int], object] = {}
        for r, row in enumerate(sheet.to_python(skip_empty_area=False), start=1):
            for c, value in enumerate(row, start=1):
                if isinstance(value, str):
                    if not value.strip():
                        continue
                    value = texts.setdefault(value, value)
                cells[(r, c)] = value
        grids[meta.name] = Grid(meta.name, cells, merged)
    return grids


def _spans(ranges: Sequence[tuple[tuple[int, int], tuple[int, int]]] | None) -> tuple[Span, ...]:
    """calamine's merged ranges ((first row, column), (last row, column)), 0-based, as 1-based `Span`s."""
    return tuple(sorted(Span(r1 + 1, c1 + 1, r2 + 1, c2 + 1) for (r1, c1), (r2, c2) in ranges or ()))


def _calamine_merges(data: bytes) -> dict[str, tuple[Span, ...]]:
    """Each worksheet's merged ranges, read with calamine (for a workbook whose values openpyxl reads); none when
    calamine cannot open the file at all."""
    from python_calamine import CalamineWorkbook, SheetTypeEnum

    try:
        with _rust_panics_unprinted():
            book = CalamineWorkbook.from_filelike(io.BytesIO(data))
            return {meta.name: _spans(book.get_sheet_by_name(meta.name).merged_cell_ranges)
                    for meta in book.sheets_metadata if meta.typ == SheetTypeEnum.WorkSheet}
    except BaseException as exc:
        if not _calamine_gave_up(exc):
            raise
    return {}


def _sheet_cells(wb) -> dict[str, dict[tuple[int, int], object]]:
    out: dict[str, dict[tuple[int, int], object]] = {}
    for ws in wb.worksheets:
        ws.reset_dimensions()  # do not trust the stored dimension: read every row there is
        cells: dict[tuple[int, int], object] = {}
        for row in ws.iter_rows():
            for cell in row:
                value = cell.value
                if value is None or (isinstance(value, str) and not value.strip()):
                    continue
                cells[(cell.row, cell.column)] = value
        out[ws.title] = cells
    return out


def _grids_with_formulas(data: bytes, name: str) -> dict[str, Grid]:
    """openpyxl, twice: the formulas, then the values saved with them."""
    try:
        with warnings.catch_warnings():  # its English warnings (a date out of range) become the cell's error value
            warnings.simplefilter("ignore")
            return _openpyxl_grids(data, name)
    except WorkbookError:
        raise
    # read-only openpyxl parses each sheet while it is read, so a damaged sheet fails here, in many ways
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, SyntaxError, OSError, EOFError, ArithmeticError,
            AttributeError, IndexError) as exc:
        raise _unreadable(name, exc) from None


def _openpyxl_grids(data: bytes, name: str) -> dict[str, Grid]:
    wb = open_workbook(data, name, data_only=False)
    try:
        cells = _sheet_cells(wb)
    finally:
        wb.close()
    formulas = {
        (sheet, pos): value
        for sheet, sheet_cells in cells.items()
        for pos, value in sheet_cells.items()
        if isinstance(value, str) and value.startswith("=") and len(value) > 1
    }
    if formulas:
        wb = open_workbook(data, name, data_only=True)
        try:
            cached = _sheet_cells(wb)
        finally:
            wb.close()
        for (sheet, pos), formula in formulas.items():
            value = cached.get(sheet, {}).get(pos)
            cells[sheet][pos] = Uncached(formula) if value is None else value
    merged = _calamine_merges(data)
    return {title: Grid(title, sheet_cells, merged.get(title, ())) for title, sheet_cells in cells.items()}


def csv_grid(data: bytes, name: str) -> Grid:
    text = decode_text(data)
    if text is None:
        raise WorkbookError([Problem.of_cell(name, None, None, "无法识别文件编码（应为 UTF-8 或 GBK）")])
    if "\x00" in text:  # csv would stop at it ("line contains NUL"), or a value would carry it into the papers
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise WorkbookError([Problem.of_cell(name, None, None, f"第{line}行有空字符（NUL），不是表格软件保存的 CSV 文件；"
                                             "请用 Excel 或 WPS 打开，另存为“CSV（逗号分隔）”后再用")])
    cells: dict[tuple[int, int], object] = {}
    for r, row in enumerate(csv.reader(io.StringIO(text)), start=1):
        for c, value in enumerate(row, start=1):
            if value.strip():
                cells[(r, c)] = value
    return Grid("", cells)
