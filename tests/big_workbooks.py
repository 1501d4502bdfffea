"""Large workbooks written directly as zip packages (the standard library only; bench/run.py uses them too): hand
rows pasted below the hand table of every table sheet of a round workbook, and minimal workbooks of many sheets.
Each sheet is streamed into the package, so even a workbook of hundreds of MB unpacked costs little memory."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Iterator

_TABLE_SHEET = re.compile(r"xl/worksheets/sheet(\d+)\.xml")  # sheet1 is 对阵; the rest are the tables
_LAST_ROW = re.compile(rb'<row r="(\d+)"')
_DIMENSION = re.compile(rb'<dimension ref="[^"]*"\s*/>')
COLUMNS = "ABCDEFGHIJKL"  # 局 庄家 庄家级 台下得分 底牌分 抠底倍数 级牌抠底 台上罚张 台下罚张 违规 加赛 备注


def _text(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def hand_row(row: int, cells: int = 12, note: str = "") -> bytes:
    """A hand as a person pastes it: 局, 庄家, 台下得分 …; `cells` of the 12 columns filled, the last with `note`."""
    values = [f'<c r="A{row}"><v>{row}</v></c>', _text(f"B{row}", "甲乙"[row % 2]), _text(f"C{row}", "2"),
              f'<c r="D{row}"><v>{(row * 5) % 200}</v></c>', f'<c r="E{row}"><v>10</v></c>',
              _text(f"F{row}", "×2"), _text(f"G{row}", ""), f'<c r="H{row}"><v>0</v></c>',
              f'<c r="I{row}"><v>0</v></c>', _text(f"J{row}", ""), _text(f"K{row}", "")]
    chosen = values[: max(0, cells - 1)] + [_text(f"L{row}", note or f"第{row}局")] if cells else []
    return f'<row r="{row}">{"".join(chosen)}</row>'.encode()


def _rows(first: int, count: int, cells: int, note: Callable[[int], str]) -> Iterator[bytes]:
    batch: list[bytes] = []
    for row in range(first, first + count):
        batch.append(hand_row(row, cells, note(row)))
        if len(batch) == 500:
            yield b"".join(batch)
            batch = []
    if batch:
        yield b"".join(batch)


def paste_hands(data: bytes, rows: Callable[[int], int], *, cells: int = 12,
                note: Callable[[int], str] = lambda row: "") -> bytes:
    """The round workbook `data` with `rows(table)` hand rows added below the last row of each table sheet
    (`cells` cells per row; `note(row)` the 备注 text)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as dst:
        for info in src.infolist():
            content = src.read(info)
            match = _TABLE_SHEET.fullmatch(info.filename)
            if match is None or match.group(1) == "1":
                dst.writestr(info.filename, content)
                continue
            last = max(int(r) for r in _LAST_ROW.findall(content))
            count = rows(int(match.group(1)) - 1)
            head, tail = content.split(b"</sheetData>", 1)
            head = _DIMENSION.sub(f'<dimension ref="A1:L{last + count}" />'.encode(), head, count=1)
            with dst.open(info.filename, "w", force_zip64=True) as part:
                part.write(head)
                for piece in _rows(last + 1, count, cells, note):
                    part.write(piece)
                part.write(b"</sheetData>" + tail)
    return out.getvalue()


def fill_with_text(data: bytes, text: str, rows: range | None = None, *, below: int = 0) -> bytes:
    """The round workbook `data` with every table sheet's rows `rows` (default: `below` rows under its last row)
    replaced by rows of 12 cells (A–L) all holding `text`; pass it through `to_shared_strings` to make them all
    refer to one shared string, as Excel saves a pasted text."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as dst:
        for info in src.infolist():
            content = src.read(info)
            match = _TABLE_SHEET.fullmatch(info.filename)
            if match is not None and match.group(1) != "1":
                last = max(int(r) for r in _LAST_ROW.findall(content))
                chosen = rows if rows is not None else range(last + 1, last + 1 + below)
                content = re.sub(rb'<row r="(\d+)"[^>]*>.*?</row>',
                                 lambda m, chosen=chosen: b"" if int(m.group(1)) in chosen else m.group(0), content, flags=re.S)
                head, tail = content.split(b"</sheetData>", 1)
                kept = re.findall(rb'<row r="(\d+)"', head)
                assert all(int(r) < chosen.start for r in kept), "rows are only replaced at the end of a sheet"
                filled = "".join(f'<row r="{r}">' + "".join(_text(f"{c}{r}", text) for c in COLUMNS) + "</row>"
                                 for r in chosen)
                content = _DIMENSION.sub(b"", head, count=1) + filled.encode() + b"</sheetData>" + tail
            dst.writestr(info.filename, content)
    return out.getvalue()


def workbook_of(sheets: dict[str, Callable[[], Iterator[bytes]]]) -> bytes:
    """A minimal .xlsx: one worksheet per name, its <sheetData> content streamed from the callable."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    names = list(sheets)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
                   'officedocument.spreadsheetml.sheet.main+xml"/>'
                   + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/'
                             f'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                             for i in range(1, len(names) + 1))
                   + "</Types>")
        z.writestr("_rels/.rels", f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
                   f'relationships"><Relationship Id="rId1" Type="{rel}/officeDocument" Target="xl/workbook.xml"/>'
                   "</Relationships>")
        z.writestr("xl/workbook.xml", f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets>'
                   + "".join(f'<sheet name="{n}" sheetId="{i}" r:id="rId{i}"/>' for i, n in enumerate(names, 1))
                   + "</sheets></workbook>")
        z.writestr("xl/_rels/workbook.xml.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/'
                   '2006/relationships">'
                   + "".join(f'<Relationship Id="rId{i}" Type="{rel}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                             for i in range(1, len(names) + 1))
                   + "</Relationships>")
        for i, name in enumerate(names, 1):
            with z.open(f"xl/worksheets/sheet{i}.xml", "w", force_zip64=True) as part:
                part.write(f'<worksheet xmlns="{main}"><sheetData>'.encode())
                for piece in sheets[name]():
                    part.write(piece)
                part.write(b"</sheetData></worksheet>")
    return out.getvalue()


def grid_rows(rows: int, cells: int, *, first: int = 1) -> Callable[[], Iterator[bytes]]:
    """`rows` rows of `cells` numbers each (a pasted table), as <sheetData> content."""
    def generate() -> Iterator[bytes]:
        for start in range(first, first + rows, 200):
            yield b"".join(
                b'<row r="%d">' % r + b"".join(b'<c r="%s%d"><v>%d</v></c>' % (_column(c).encode(), r, c)
                                                for c in range(1, cells + 1)) + b"</row>"
                for r in range(start, min(first + rows, start + 200)))
    return generate


def _column(number: int) -> str:
    letters = ""
    while number:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


_ROW_TAG = re.compile(rb"<(?:\w{1,32}:)?row[\s/>]")
_CELL_TAG = re.compile(rb"<(?:\w{1,32}:)?c[\s/>]")


def counts(data: bytes) -> tuple[int, int, int, int]:
    """(table sheets, rows, cells, bytes unpacked) of a round workbook."""
    tables = rows = cells = unpacked = 0
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            unpacked += info.file_size
            if info.filename.startswith("xl/worksheets/"):
                content = z.read(info)
                rows += len(_ROW_TAG.findall(content))
                cells += len(_CELL_TAG.findall(content))
                tables += info.filename != "xl/worksheets/sheet1.xml"
    return tables, rows, cells, unpacked


def fill_to(data: bytes, *, rows: int, cells: int, unpacked: int) -> bytes:
    """The round workbook `data` with pasted hand rows up to the limits given: `rows` and `cells` over the whole
    workbook, about `unpacked` bytes (each row's 备注 as long as the bytes left allow, every one different)."""
    tables, have_rows, have_cells, have_bytes = counts(data)
    added = rows - have_rows
    per_row = min(len(COLUMNS), (cells - have_cells) // added)
    base_row = len(hand_row(99999, per_row, "x"))
    note = max(1, (unpacked - have_bytes) // added - base_row - 16)  # 16: room for longer row numbers

    def share(table: int) -> int:
        return added // tables + (table <= added % tables)

    return paste_hands(data, share, cells=per_row, note=lambda row: f"{row:06d}".ljust(note, "x"))


_INLINE = re.compile(rb't="inlineStr"><is><t(?: [^>]*)?>(.*?)</t></is>', re.S)


def to_shared_strings(data: bytes) -> bytes:
    """The workbook as Excel saves it: every inline text moved to xl/sharedStrings.xml, each cell referring to it
    by number (a parser then copies the text into every cell that refers to it). Texts already shared (a workbook
    XlsxWriter wrote) keep their numbers; the moved ones follow them."""
    with zipfile.ZipFile(io.BytesIO(data)) as src:
        names = set(src.namelist())
        existing = src.read("xl/sharedStrings.xml") if "xl/sharedStrings.xml" in names else None
    kept = re.findall(rb"<si>.*?</si>", existing, re.S) if existing else []
    index: dict[bytes, int] = {}

    def shared(match: re.Match[bytes]) -> bytes:
        return b't="s"><v>%d</v>' % (len(kept) + index.setdefault(match.group(1), len(index)))

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as dst:
        for info in src.infolist():
            content = src.read(info)
            if info.filename == "xl/sharedStrings.xml":
                continue  # written below, with the moved texts after the kept ones
            if info.filename.startswith("xl/worksheets/"):
                content = _INLINE.sub(shared, content)
            elif info.filename == "xl/_rels/workbook.xml.rels" and existing is None:
                content = content.replace(b"</Relationships>", b'<Relationship Id="rIdShared" Type="http://schemas.'
                                          b'openxmlformats.org/officeDocument/2006/relationships/sharedStrings" '
                                          b'Target="sharedStrings.xml"/></Relationships>')
            elif info.filename == "[Content_Types].xml" and existing is None:
                content = content.replace(b"</Types>", b'<Override PartName="/xl/sharedStrings.xml" ContentType='
                                          b'"application/vnd.openxmlformats-officedocument.spreadsheetml.'
                                          b'sharedStrings+xml"/></Types>')
            dst.writestr(info.filename, content)
        with dst.open("xl/sharedStrings.xml", "w", force_zip64=True) as part:
            total = len(kept) + len(index)
            part.write(b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" '
                       b'uniqueCount="%d">' % (total, total))
            for item in kept:
                part.write(item)
            for text in index:
                part.write(b"<si><t>" + text + b"</t></si>")
            part.write(b"</sst>")
    return out.getvalue()


def with_formula(data: bytes) -> bytes:
    """The workbook with one formula cell (and its saved value) in the first table sheet: it is then read through
    openpyxl, twice (the formulas, then the values)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as dst:
        for info in src.infolist():
            content = src.read(info)
            if info.filename == "xl/worksheets/sheet2.xml":
                content = content.replace(b'<row r="1">', b'<row r="1"><c r="N1"><f>1+1</f><v>2</v></c>', 1)
            dst.writestr(info.filename, content)
    return out.getvalue()
