"""How the written workbooks look, print and check what is typed: formats, validation, page setup (XlsxWriter).

Every workbook the program writes is opened by `new_workbook`, with XlsxWriter's conversions of strings off
(`strings_to_formulas`, `strings_to_urls`, `strings_to_numbers`): a name beginning with `=` is text, never a
formula, and a web address is text, never a link. Values go through `put`, which writes text with `write_string`.
Rows and columns are 1-based here, as in `schema` (XlsxWriter's own are 0-based).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import date, datetime, time
from pathlib import Path

import xlsxwriter
from xlsxwriter.format import Format
from xlsxwriter.utility import xl_rowcol_to_cell
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from shuangsheng.storage.files import write_bytes
from shuangsheng.storage.workbook.schema import Column
from shuangsheng.vocabulary.text import width as display_width

# Nothing a person typed may become a formula, a link or a number: every workbook is opened with these.
SAFE_OPTIONS = {"strings_to_formulas": False, "strings_to_urls": False, "strings_to_numbers": False}

GREY = "#808080"
HEADER_FILL = "#D9D9D9"
LABEL_FILL = "#F2F2F2"
BAD_FILL = "#FFC7CE"
BORDERED = {"border": 1, "border_color": GREY}
CENTERED = {"align": "center", "valign": "vcenter"}
WRAPPED = {"text_wrap": True, "valign": "top"}
BOLD = {"bold": True}
TITLE = {"bold": True, "font_size": 14}
LABEL = {"bold": True, "bg_color": LABEL_FILL}
EXAMPLE = {"italic": True, "font_color": GREY}
TEXT_FORMAT = {"num_format": "@"}  # a typed 03 stays 03
HEADER = {**BOLD, "bg_color": HEADER_FILL, **CENTERED, **BORDERED}
HAND_NUMBER = {"bg_color": LABEL_FILL, **CENTERED, **BORDERED}
INPUT = {**CENTERED, **BORDERED, "locked": False}
INPUT_TEXT = {**BORDERED, "locked": False}


def new_workbook(buffer: io.BytesIO, **defaults: object) -> Workbook:
    """A workbook written into `buffer` in memory (no temporary files), with the safe options; `defaults` are
    default format properties (font_name, font_size) for every cell."""
    options: dict[str, object] = {**SAFE_OPTIONS, "in_memory": True}
    if defaults:
        options["default_format_properties"] = defaults
    return xlsxwriter.Workbook(buffer, options)


class Formats:
    """The formats of one workbook, each made once from its properties (XlsxWriter formats belong to a workbook):
    `fm(BORDERED, CENTERED)`."""

    def __init__(self, wb: Workbook):
        self._wb = wb
        self._made: dict[tuple[tuple[str, object], ...], Format] = {}

    def __call__(self, *parts: Mapping[str, object]) -> Format | None:
        """The format with these properties (later parts win); None for no properties at all."""
        properties: dict[str, object] = {}
        for part in parts:
            properties.update(part)
        if not properties:
            return None
        key = tuple(sorted(properties.items()))
        made = self._made.get(key)
        if made is None:
            made = self._made[key] = self._wb.add_format(properties)
        return made


def put(ws: Worksheet, row: int, col: int, value: object, fmt: Format | None = None) -> None:
    """One cell at (row, col), 1-based: text always as text (never a formula or a link), numbers as numbers;
    a date or time as its ISO text; None as a blank cell with `fmt` (nothing without one)."""
    r, c = row - 1, col - 1
    if value is None:
        if fmt is not None:
            ws.write_blank(r, c, None, fmt)
    elif isinstance(value, bool):
        ws.write_boolean(r, c, value, fmt)
    elif isinstance(value, (int, float)) and _finite(value):
        ws.write_number(r, c, value, fmt)
    elif isinstance(value, (datetime, date, time)):
        ws.write_string(r, c, value.isoformat(), fmt)
    else:
        ws.write_string(r, c, str(value), fmt)


def _finite(number: float) -> bool:
    """Whether Excel can hold `number` as a number (not inf or nan, nor an integer beyond any float)."""
    try:
        return math.isfinite(number)
    except OverflowError:
        return False


def merge(ws: Worksheet, row: int, first_col: int, last_col: int, value: object, fmt: Format | None = None,
          *, last_row: int | None = None) -> None:
    """Merge a range (1-based) and put `value` in its first cell, written as `put` writes it."""
    ws.merge_range(row - 1, first_col - 1, (last_row or row) - 1, last_col - 1, "", fmt)
    put(ws, row, first_col, value, fmt)


# A column width as stored in the file counts the cell's padding (5 pixels of a 7-pixel digit); XlsxWriter's
# width is the one Excel shows, without it. The widths here are the stored ones (as openpyxl writes them).
PADDING = 5 / 7


def set_widths(ws: Worksheet, widths: Mapping[int, float]) -> None:
    """Column widths (1-based columns), in characters as stored in the file."""
    for col, width in widths.items():
        ws.set_column(col - 1, col - 1, max(1.0, width - PADDING))


def column_widths(rows: Iterable[Sequence[object]], *, minimum: float = 6, maximum: float = 40) -> dict[int, float]:
    out: dict[int, float] = {}
    for row in rows:
        for col, value in enumerate(row, start=1):
            if value is None:
                continue
            need = display_width(str(value)) + 3
            out[col] = min(maximum, max(out.get(col, minimum), need))
    return out


def print_setup(ws: Worksheet, *, title_row: int | None, one_page: bool = False) -> None:
    """A4 landscape, one page wide; `one_page` also fits the height (a table's score sheet on one sheet of paper);
    `title_row` (1-based) is repeated at the top of every printed page."""
    ws.set_landscape()
    ws.set_paper(9)  # A4
    ws.fit_to_pages(1, 1 if one_page else 0)
    ws.center_horizontally()
    if title_row:
        ws.repeat_rows(title_row - 1)


def protect(ws: Worksheet) -> None:
    """Sheet protection without a password: labels locked, input cells (formats with locked False) editable;
    columns and rows may still be resized."""
    ws.protect("", {"format_columns": True, "format_rows": True})


# --- what Excel and WPS refuse while a referee types (docs/workbooks.md, “Excel/WPS 里的输入检查”) ---------------


def points_rule(cell: str, other: str) -> str:
    """The custom validation formula of a 台下得分 or 底牌分 cell (`cell`, e.g. D7), whose partner is `other` (E7):
    a number, a whole multiple of 5 from 0 to 200, and the two together at most 200 (a partner not yet typed, or
    typed as text, counts 0). N() makes text 0 instead of an error, since AND evaluates every part. A blank cell
    is allowed by the validation itself, not by this formula."""
    value = f"N({cell})"
    return f"AND(ISNUMBER({cell}),{value}>=0,{value}<=200,MOD({value},5)=0,{value}+N({other})<=200)"


POINTS_ERROR = "应为 0–200 之间 5 的倍数（只填数字），且台下得分加底牌分不超过 200"


def validation(column: Column, first_row: int, last_row: int, col: int, *,
               points_partner: int | None = None) -> dict[str, object] | None:
    """The data validation of one hand column over rows first_row…last_row (1-based), or None.

    Lists warn but let other accepted spellings (x4, 甲方, √) stand; numbers stop. 台下得分 and 底牌分 (each given
    the other's column as `points_partner`) take `points_rule`; other whole numbers a range."""
    expect = column.expect
    if column.choices:
        options: dict[str, object] = {"validate": "list", "source": list(column.choices), "error_type": "warning"}
    elif points_partner is not None:
        cell = xl_rowcol_to_cell(first_row - 1, col - 1)
        other = xl_rowcol_to_cell(first_row - 1, points_partner - 1)
        options = {"validate": "custom", "value": points_rule(cell, other), "error_type": "stop"}
        expect = POINTS_ERROR
    elif column.whole:
        low, high = column.whole
        options = {"validate": "integer", "criteria": "between", "minimum": low, "maximum": high, "error_type": "stop"}
    else:
        return None
    return {
        **options,
        "ignore_blank": True,
        "input_title": column.label,
        "input_message": f"{column.label}{expect}",
        "error_title": f"{column.label}填写有误",
        "error_message": f"{column.label}{expect}。",
    }


def save(wb: Workbook, buffer: io.BytesIO, path: Path, *, force: bool,
         record: Callable[[bytes], object] | None = None) -> Path:
    """Close `wb` (written into `buffer`) and write the bytes to `path` atomically; `record` is called with the
    bytes once they are safely on disk, just before the rename that puts them in place (the ledger's fingerprint,
    as for every PDF: `shuangsheng.storage.ledger.generated.write_generated`)."""
    wb.close()
    data = buffer.getvalue()
    return write_bytes(Path(path), data, force=force, before_rename=(lambda: record(data)) if record else None)
