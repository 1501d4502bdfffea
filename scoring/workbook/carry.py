"""`draw --redo`: what people typed into a round workbook carried into the corrected one, table by table.

The corrected workbook is written blank by `round_writer`; every cell of the old workbook that differs from the
blank one of the same draw (the hands, 弃权, 终局 and 备注 a person entered) is copied across for the tables kept,
and dropped for the tables whose teams changed (the old workbook is backed up first).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Collection, Mapping
from pathlib import Path, PurePosixPath
from xml.sax.saxutils import escape

from defusedxml import ElementTree

from scoring.files import write_bytes
from scoring.workbook.guard import column_number
from scoring.workbook.loading import Grid, read_file, read_grids
from scoring.workbook.parsers import parse_whole
from scoring.workbook.problems import column_letter
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
    return write_bytes(path, with_cells(data, typed), force=True) if typed else path


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


# The cells are put straight into the worksheets' XML (moved here from the referee simulation, which now
# writes its workbooks anew with XlsxWriter). To do: write the corrected workbook with these values through
# round_writer.render_round(typed=...) instead of patching its XML.

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def with_cells(data: bytes, typed: Mapping[str, Mapping[tuple[int, int], object]]) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    parts = _sheet_parts(source)
    changed = {parts[name]: cells for name, cells in typed.items()}
    out = io.BytesIO()
    with source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            content = source.read(info)
            if info.filename in changed:
                content = _set_cells(content.decode("utf-8"), changed[info.filename]).encode("utf-8")
            target.writestr(info, content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _sheet_parts(archive: zipfile.ZipFile) -> dict[str, str]:
    """Sheet name → the zip member holding its XML."""
    book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels}
    parts = {}
    for sheet in book.iter(f"{_MAIN}sheet"):
        target = targets[sheet.get(_REL_ID)]
        parts[sheet.get("name")] = target.lstrip("/") if target.startswith("/") else str(PurePosixPath("xl") / target)
    return parts


_ROW = re.compile(r'<row r="(\d+)"([^>]*?)\s*(?:/>|>(.*?)</row>)', re.S)
_CELL = re.compile(r'<c r="([A-Z]+)\d+"([^>]*?)\s*(?:/>|>.*?</c>)', re.S)
_STYLE = re.compile(r'\ss="\d+"')


def _cell_xml(row: int, col: int, style: str, value: object) -> str:
    ref = f"{column_letter(col)}{row}"
    if isinstance(value, int):
        return f'<c r="{ref}"{style}><v>{value}</v></c>'
    return f'<c r="{ref}"{style} t="inlineStr"><is><t>{escape(str(value))}</t></is></c>'


def _set_cells(xml: str, cells: Mapping[tuple[int, int], object]) -> str:
    """The worksheet XML with these cells set: an existing cell keeps its style, missing cells and rows are added
    in order."""
    by_row: dict[int, dict[int, object]] = {}
    for (r, c), value in cells.items():
        by_row.setdefault(r, {})[c] = value

    def row_xml(r: int, attrs: str, body: str) -> str:
        entries: dict[int, str] = {}
        for m in _CELL.finditer(body):
            entries[column_number(m.group(1))] = m.group(0)
        for c, value in by_row.pop(r).items():
            style = _STYLE.search(_CELL.match(entries[c]).group(2)) if c in entries else None
            entries[c] = _cell_xml(r, c, style.group(0) if style else "", value)
        return f'<row r="{r}"{attrs}>' + "".join(entries[c] for c in sorted(entries)) + "</row>"

    def replace_row(m: re.Match[str]) -> str:
        r = int(m.group(1))
        if r not in by_row:
            return m.group(0)
        return row_xml(r, m.group(2), m.group(3) or "")

    head, sheet_data, tail = re.split(r"(<sheetData\s*/>|<sheetData>.*?</sheetData>)", xml, maxsplit=1, flags=re.S)
    body = _ROW.sub(replace_row, sheet_data)
    if by_row:  # rows the file did not have: insert each before the first row below it
        rows = [(int(m.group(1)), m.group(0)) for m in _ROW.finditer(body)]
        rows += [(r, row_xml(r, "", "")) for r in list(by_row)]
        body = "<sheetData>" + "".join(x for _, x in sorted(rows)) + "</sheetData>"
    return head + body + tail
