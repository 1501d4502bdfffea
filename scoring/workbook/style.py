"""How the written workbooks look and print: fonts, fills, borders, validation, page setup (openpyxl)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import openpyxl
from openpyxl.styles import Alignment, Border, Font, NamedStyle, PatternFill, Protection
from openpyxl.styles import Side as BorderSide
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from scoring.files import write_bytes
from scoring.text import width as display_width
from scoring.workbook.schema import Column

THIN = BorderSide(style="thin", color="808080")
BORDER = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
HEADER_FILL = PatternFill("solid", fgColor="D9D9D9")
LABEL_FILL = PatternFill("solid", fgColor="F2F2F2")
BOLD = Font(bold=True)
TITLE = Font(bold=True, size=14)
EXAMPLE = Font(italic=True, color="808080")
CENTER = Alignment(horizontal="center", vertical="center")
WRAP = Alignment(wrap_text=True, vertical="top")
UNLOCKED = Protection(locked=False)

# Named styles: a cell takes one by name (`cell.style = INPUT`), which costs openpyxl one lookup instead of
# hashing a border, an alignment and a protection for each of the thousands of cells of a round workbook.
HEADER = "表头"
HAND_NUMBER = "局号"
INPUT = "录入"
INPUT_TEXT = "录入文字"


def new_workbook() -> openpyxl.Workbook:
    """An empty workbook with the named styles registered."""
    wb = openpyxl.Workbook()
    for name, options in (
        (HEADER, {"font": BOLD, "fill": HEADER_FILL, "alignment": CENTER, "border": BORDER}),
        (HAND_NUMBER, {"fill": LABEL_FILL, "alignment": CENTER, "border": BORDER}),
        (INPUT, {"alignment": CENTER, "border": BORDER, "protection": UNLOCKED}),
        (INPUT_TEXT, {"border": BORDER, "protection": UNLOCKED}),
    ):
        wb.add_named_style(NamedStyle(name=name, **options))
    return wb


def fit_columns(ws: Worksheet, widths: Mapping[int, float]) -> None:
    for col, width in widths.items():
        ws.column_dimensions[get_column_letter(col)].width = width


def column_widths(rows: Iterable[Sequence[object]], *, minimum: float = 6, maximum: float = 40) -> dict[int, float]:
    out: dict[int, float] = {}
    for row in rows:
        for col, value in enumerate(row, start=1):
            if value is None:
                continue
            need = display_width(str(value)) + 3
            out[col] = min(maximum, max(out.get(col, minimum), need))
    return out


def header_cell(ws: Worksheet, row: int, col: int, label: str) -> None:
    ws.cell(row, col, label).style = HEADER


def print_setup(ws: Worksheet, *, title_rows: str | None, one_page: bool = False) -> None:
    """A4 landscape, one page wide; `one_page` also fits the height (a table's score sheet on one sheet of paper)."""
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 1 if one_page else 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.horizontalCentered = True
    if title_rows:
        ws.print_title_rows = title_rows


def protect(ws: Worksheet) -> None:
    """Sheet protection without a password: labels locked, input cells (marked unlocked) editable; columns and rows
    may still be resized."""
    ws.protection.sheet = True
    ws.protection.formatColumns = False
    ws.protection.formatRows = False


def add_validation(ws: Worksheet, column: Column, cells: str) -> None:
    if column.choices:
        dv = DataValidation(
            type="list",
            formula1='"' + ",".join(column.choices) + '"',
            allow_blank=True,
            showDropDown=False,  # openpyxl's flag is inverted: False shows the in-cell dropdown
            errorStyle="warning",  # accepted spellings typed by hand (x4, 甲方, √) may be kept after the warning
        )
    elif column.whole:
        low, high = column.whole
        dv = DataValidation(type="whole", operator="between", formula1=str(low), formula2=str(high),
                            allow_blank=True, errorStyle="stop")
    else:
        return
    dv.showErrorMessage = True
    dv.showInputMessage = True
    dv.errorTitle = f"{column.label}填写有误"
    dv.error = f"{column.label}{column.expect}。"
    dv.promptTitle = column.label
    dv.prompt = f"{column.label}{column.expect}"
    dv.add(cells)
    ws.add_data_validation(dv)


def save(wb: openpyxl.Workbook, path: Path, *, force: bool) -> Path:
    buffer = io.BytesIO()
    wb.save(buffer)
    return write_bytes(Path(path), buffer.getvalue(), force=force)
