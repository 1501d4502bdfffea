"""A small streaming xlsx writer for the checked copy: values, a fixed set of styles, comments (pure; no files).

Why not openpyxl here: the checked copy of a 64-table round holds tens of thousands of cells, and openpyxl spends
tens of microseconds on each (style objects, then an element tree per cell) — more than reading the whole event
with calamine and scoring it. This writer emits SpreadsheetML text directly: inline strings, one stylesheet with
the handful of looks the copy needs (`Look`), column widths, row heights, merged cells, A4 landscape page setup
at a fixed print scale, and cell comments (with the VML drawing Excel needs to show them). Excel, WPS,
LibreOffice, openpyxl and calamine read what it writes (the tests open it with openpyxl and LibreOffice).
"""

from __future__ import annotations

import enum
import io
import re
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from xml.sax.saxutils import escape

from scoring.workbook.problems import column_letter

FONT_SIZE = 12  # the whole copy; printed at PRINT_SCALE it stays ≥ 10 pt
PRINT_SCALE = 85  # percent: 12 pt × 0.85 = 10.2 pt on paper
LINE_HEIGHT = 16.5  # points per line of wrapped 12 pt text


class Look(enum.IntEnum):
    """The cell styles of the stylesheet below, by their index in cellXfs."""

    PLAIN = 0
    HEADER = 1  # bold, grey, centred, wrapped, bordered
    CELL = 2  # bordered, centred
    TEXT = 3  # bordered, wrapped, top-left
    BAD = 4  # bordered, centred, red fill
    BOLD = 5
    TITLE = 6  # bold, 16 pt
    LABEL = 7  # bold, light grey, bordered
    WRAP = 8  # wrapped, top-left, no border
    BAD_TEXT = 9  # bordered, wrapped, red fill


_STYLES = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<fonts count="3"><font><sz val="{FONT_SIZE}"/><name val="宋体"/><family val="2"/><charset val="134"/></font>
<font><b/><sz val="{FONT_SIZE}"/><name val="宋体"/><family val="2"/><charset val="134"/></font>
<font><b/><sz val="16"/><name val="宋体"/><family val="2"/><charset val="134"/></font></fonts>
<fills count="5"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>
<fill><patternFill patternType="solid"><fgColor rgb="FFD9D9D9"/><bgColor indexed="64"/></patternFill></fill>
<fill><patternFill patternType="solid"><fgColor rgb="FFFFC7CE"/><bgColor indexed="64"/></patternFill></fill>
<fill><patternFill patternType="solid"><fgColor rgb="FFF2F2F2"/><bgColor indexed="64"/></patternFill></fill></fills>
<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border>
<border><left style="thin"><color rgb="FF808080"/></left><right style="thin"><color rgb="FF808080"/></right>
<top style="thin"><color rgb="FF808080"/></top><bottom style="thin"><color rgb="FF808080"/></bottom><diagonal/></border>
</borders>
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="10">
<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>
<xf numFmtId="0" fontId="1" fillId="2" borderId="1" xfId="0" applyFont="1" applyFill="1" applyBorder="1" applyAlignment="1"><alignment horizontal="center" vertical="center" wrapText="1"/></xf>
<xf numFmtId="0" fontId="0" fillId="0" borderId="1" xfId="0" applyBorder="1" applyAlignment="1"><alignment horizontal="center" vertical="center"/></xf>
<xf numFmtId="0" fontId="0" fillId="0" borderId="1" xfId="0" applyBorder="1" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>
<xf numFmtId="0" fontId="0" fillId="3" borderId="1" xfId="0" applyFill="1" applyBorder="1" applyAlignment="1"><alignment horizontal="center" vertical="center"/></xf>
<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>
<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/>
<xf numFmtId="0" fontId="1" fillId="4" borderId="1" xfId="0" applyFont="1" applyFill="1" applyBorder="1"/>
<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>
<xf numFmtId="0" fontId="0" fillId="3" borderId="1" xfId="0" applyFill="1" applyBorder="1" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>
</cellXfs>
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>
</styleSheet>"""

_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' \
      'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"


@dataclass
class Sheet:
    """One worksheet being assembled: cells by (row, column), styles, widths, heights, merges, comments."""

    title: str
    values: dict[tuple[int, int], object] = field(default_factory=dict)
    looks: dict[tuple[int, int], Look] = field(default_factory=dict)
    widths: dict[int, float] = field(default_factory=dict)
    heights: dict[int, float] = field(default_factory=dict)
    merges: list[tuple[int, int, int, int]] = field(default_factory=list)  # first row, col, last row, col
    comments: dict[tuple[int, int], str] = field(default_factory=dict)
    title_rows: tuple[int, int] | None = None  # rows repeated on every printed page
    selected: bool = False

    def put(self, row: int, col: int, value: object = None, look: Look | None = None) -> None:
        if value is not None:
            self.values[(row, col)] = value
        if look is not None:
            self.looks[(row, col)] = look

    def merge(self, row: int, first_col: int, last_col: int, last_row: int | None = None) -> None:
        self.merges.append((row, first_col, last_row or row, last_col))


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


_SPECIAL = re.compile('[&<>"\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


def _text(value: object) -> str:
    """Escaped for XML; characters XML cannot hold (control characters) are dropped."""
    text = str(value)
    if _SPECIAL.search(text) is None:  # most text: nothing to do
        return text
    return escape(_NOT_XML.sub("", text), {'"': "&quot;"})


def _cell_xml(ref: str, value: object, look: int) -> str:
    style = f' s="{look}"' if look else ""
    if value is None:
        return f'<c r="{ref}"{style}/>'
    if isinstance(value, bool):
        return f'<c r="{ref}"{style} t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}"{style}><v>{value!r}</v></c>'
    if isinstance(value, (datetime, date, time)):
        value = value.isoformat()
    return f'<c r="{ref}"{style} t="inlineStr"><is><t xml:space="preserve">{_text(value)}</t></is></c>'


def _dimension(cells: Iterable[tuple[int, int]]) -> str:
    """'A1:R46': the used range (readers that trust it, like openpyxl's read-only mode, need it)."""
    cells = list(cells)
    if not cells:
        return "A1"
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return f"A1:{column_letter(max(cols))}{max(rows)}"


def _sheet_xml(sheet: Sheet, has_comments: bool) -> str:
    cells = set(sheet.values) | set(sheet.looks)
    rows: dict[int, list[int]] = {}
    for r, c in cells:
        rows.setdefault(r, []).append(c)
    for r in sheet.heights:
        rows.setdefault(r, [])
    selected = ' tabSelected="1"' if sheet.selected else ""
    out = [f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet {_NS}>',
           '<sheetPr><pageSetUpPr fitToPage="0"/></sheetPr>',
           f'<dimension ref="{_dimension(cells)}"/>',
           f'<sheetViews><sheetView workbookViewId="0"{selected}/></sheetViews>',
           f'<sheetFormatPr defaultRowHeight="{LINE_HEIGHT}"/>']
    if sheet.widths:
        out.append("<cols>")
        out.extend(f'<col min="{c}" max="{c}" width="{w:.2f}" customWidth="1"/>' for c, w in sorted(sheet.widths.items()))
        out.append("</cols>")
    out.append("<sheetData>")
    for r in sorted(rows):
        height = sheet.heights.get(r)
        attrs = f' ht="{height:.2f}" customHeight="1"' if height else ""
        out.append(f'<row r="{r}"{attrs}>')
        for c in sorted(rows[r]):
            out.append(_cell_xml(f"{column_letter(c)}{r}", sheet.values.get((r, c)), sheet.looks.get((r, c), 0)))
        out.append("</row>")
    out.append("</sheetData>")
    if sheet.merges:
        out.append(f'<mergeCells count="{len(sheet.merges)}">')
        out.extend(f'<mergeCell ref="{column_letter(c1)}{r1}:{column_letter(c2)}{r2}"/>' for r1, c1, r2, c2 in sheet.merges)
        out.append("</mergeCells>")
    out.append('<printOptions horizontalCentered="1"/>')
    out.append('<pageMargins left="0.5" right="0.5" top="0.6" bottom="0.6" header="0.3" footer="0.3"/>')
    out.append(f'<pageSetup paperSize="9" scale="{PRINT_SCALE}" orientation="landscape"/>')
    if has_comments:
        out.append('<legacyDrawing r:id="rIdVml"/>')
    out.append("</worksheet>")
    return "".join(out)


def _comments_xml(comments: Mapping[tuple[int, int], str]) -> str:
    items = "".join(
        f'<comment ref="{column_letter(c)}{r}" authorId="0"><text><t xml:space="preserve">{_text(text)}</t></text></comment>'
        for (r, c), text in sorted(comments.items())
    )
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<comments {_NS}>'
            f"<authors><author>shuangsheng</author></authors><commentList>{items}</commentList></comments>")


def _vml(comments: Iterable[tuple[int, int]]) -> str:
    shapes = "".join(
        f'<v:shape id="_x0000_s{1025 + i}" type="#_x0000_t202" style="position:absolute;margin-left:80pt;'
        'margin-top:2pt;width:240pt;height:90pt;z-index:1;visibility:hidden" fillcolor="#ffffe1" o:insetmode="auto">'
        '<v:fill color2="#ffffe1"/><v:shadow on="t" color="black" obscured="t"/><v:path o:connecttype="none"/>'
        '<v:textbox style="mso-direction-alt:auto"><div style="text-align:left"/></v:textbox>'
        '<x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:AutoFill>False</x:AutoFill>'
        f"<x:Row>{r - 1}</x:Row><x:Column>{c - 1}</x:Column></x:ClientData></v:shape>"
        for i, (r, c) in enumerate(sorted(comments))
    )
    return ('<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" '
            'xmlns:x="urn:schemas-microsoft-com:office:excel">'
            '<o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="1"/></o:shapelayout>'
            '<v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe">'
            '<v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>'
            f"{shapes}</xml>")


def xlsx_bytes(sheets: Sequence[Sheet]) -> bytes:
    """The workbook as the bytes of an .xlsx file, sheets in the given order."""
    buffer = io.BytesIO()
    overrides = ['<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.'
                 'spreadsheetml.sheet.main+xml"/>',
                 '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.'
                 'spreadsheetml.styles+xml"/>']
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        book_sheets, book_rels, names = [], [], []
        for i, sheet in enumerate(sheets, start=1):
            has_comments = bool(sheet.comments)
            z.writestr(f"xl/worksheets/sheet{i}.xml", _sheet_xml(sheet, has_comments))
            overrides.append(f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="application/'
                             'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>')
            book_sheets.append(f'<sheet name="{_text(sheet.title)}" sheetId="{i}" r:id="rId{i}"/>')
            book_rels.append(f'<Relationship Id="rId{i}" Type="{_REL}/worksheet" Target="worksheets/sheet{i}.xml"/>')
            if sheet.title_rows:
                first, last = sheet.title_rows
                quoted = sheet.title.replace("'", "''")
                names.append(f'<definedName name="_xlnm.Print_Titles" localSheetId="{i - 1}">'
                             f"'{_text(quoted)}'!${first}:${last}</definedName>")
            if has_comments:
                z.writestr(f"xl/comments{i}.xml", _comments_xml(sheet.comments))
                z.writestr(f"xl/drawings/vmlDrawing{i}.vml", _vml(sheet.comments))
                overrides.append(f'<Override PartName="/xl/comments{i}.xml" ContentType="application/'
                                 'vnd.openxmlformats-officedocument.spreadsheetml.comments+xml"/>')
                z.writestr(f"xl/worksheets/_rels/sheet{i}.xml.rels",
                           f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="{_PKG_REL}">'
                           f'<Relationship Id="rIdVml" Type="{_REL}/vmlDrawing" Target="../drawings/vmlDrawing{i}.vml"/>'
                           f'<Relationship Id="rIdComments" Type="{_REL}/comments" Target="../comments{i}.xml"/>'
                           "</Relationships>")
        defined = f"<definedNames>{''.join(names)}</definedNames>" if names else ""
        z.writestr("xl/workbook.xml",
                   f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook {_NS}>'
                   f'<bookViews><workbookView activeTab="0"/></bookViews><sheets>{"".join(book_sheets)}</sheets>'
                   f"{defined}</workbook>")
        book_rels.append(f'<Relationship Id="rIdStyles" Type="{_REL}/styles" Target="styles.xml"/>')
        z.writestr("xl/_rels/workbook.xml.rels",
                   f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="{_PKG_REL}">'
                   f'{"".join(book_rels)}</Relationships>')
        z.writestr("xl/styles.xml", _STYLES)
        z.writestr("_rels/.rels",
                   f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="{_PKG_REL}">'
                   f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Default Extension="vml" ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/>'
                   f'{"".join(overrides)}</Types>')
    return buffer.getvalue()
