"""SIMULATION ONLY: typing hands into a drawn round workbook as a referee would, for `demo` and the tests.

Never used on a real event's files: it rewrites the workbook it is given (reads and writes files). The values
are put straight into the worksheets' XML of the file (each typed cell keeps its style; cells and rows missing
from the file are added in order), so filling a 64-table round costs no full load and save.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from xml.sax.saxutils import escape

from defusedxml import ElementTree

from scoring.files import write_bytes
from scoring.hands import Hand, MatchRecord
from scoring.levels import Side
from scoring.workbook.loading import read_file, read_grids
from scoring.workbook.parsers import parse_whole
from scoring.workbook.problems import column_letter
from scoring.workbook.schema import (
    FIRST_HAND_ROW,
    FIRST_PLAYOFF_ROW,
    HAND_COLUMNS,
    MATCHES_HEADER,
    MATCHES_SHEET,
    PLAYOFF_ROWS,
    REGULAR_ROWS,
    sheet_name,
)

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


def fill_round(
    path: Path, records: Mapping[int, MatchRecord], *, walkovers: Mapping[int, Side] | None = None
) -> Path:
    """Type hands into a drawn round workbook as a referee would (the demo's stand-in for the day): regular hands
    from hand row 1, 加赛 hands into the 加 rows; `walkovers` marks the 弃权 side on the 对阵 sheet. Only for a
    workbook this program drew for a simulated event: it rewrites `path`."""
    path = Path(path)
    data = read_file(path)
    col = {c.field: i for i, c in enumerate(HAND_COLUMNS, start=1) if c.field}
    typed: dict[str, dict[tuple[int, int], object]] = {}
    for table, record in records.items():
        regular = [h for h in record.hands if not h.playoff]
        playoff = [h for h in record.hands if h.playoff]
        if len(regular) > REGULAR_ROWS or len(playoff) > PLAYOFF_ROWS:
            raise ValueError(f"{table}: {len(regular)} + {len(playoff)} hands do not fit the sheet")
        rows = [FIRST_HAND_ROW + i for i in range(len(regular))]
        rows += [FIRST_PLAYOFF_ROW + i for i in range(len(playoff))]
        cells = typed.setdefault(sheet_name(table), {})
        for r, hand in zip(rows, regular + playoff):
            for field, value in _typed(hand).items():
                cells[(r, col[field])] = value
    if walkovers:
        # Only the match rows: below the 桌号 header up to the first blank 桌号 (the pool table further down
        # also starts with a number, its 序号, and must not get a 弃权 mark in its 签号 column).
        grid = read_grids(data, path.name)[MATCHES_SHEET]
        found = grid.find_header(MATCHES_HEADER[:4])
        assert found is not None, "not a round workbook drawn by this program"
        header, cols = found
        r = header + 1
        while (raw := grid.get(r, cols["桌号"])) is not None:
            if parse_whole(raw) in walkovers:
                typed.setdefault(MATCHES_SHEET, {})[(r, cols["弃权"])] = walkovers[parse_whole(raw)].cn
            r += 1
    return write_bytes(path, _with_cells(data, typed), force=True)


def _with_cells(data: bytes, typed: Mapping[str, Mapping[tuple[int, int], object]]) -> bytes:
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


def _column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def _set_cells(xml: str, cells: Mapping[tuple[int, int], object]) -> str:
    """The worksheet XML with these cells set: an existing cell keeps its style, missing cells and rows are added
    in order."""
    by_row: dict[int, dict[int, object]] = {}
    for (r, c), value in cells.items():
        by_row.setdefault(r, {})[c] = value

    def row_xml(r: int, attrs: str, body: str) -> str:
        entries: dict[int, str] = {}
        for m in _CELL.finditer(body):
            entries[_column(m.group(1))] = m.group(0)
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


def _typed(hand: Hand) -> dict[str, object]:
    """What a referee writes in each column for a hand (blank where the default holds)."""
    cells: dict[str, object] = {"dealer": hand.dealer.cn, "points": hand.points}
    if hand.level is not None:
        cells["level"] = hand.level.label
    if hand.bottom:
        cells["bottom"] = hand.bottom
    if hand.capture:
        cells["capture"] = f"×{hand.capture}"
    for field in ("level_card_capture", "playoff"):
        if getattr(hand, field):
            cells[field] = "是"
    for field in ("dealer_wrong_cards", "defender_wrong_cards"):
        if getattr(hand, field):
            cells[field] = getattr(hand, field)
    if hand.offense is not None:
        cells["offense"] = hand.offense.cn
    return cells
