"""第N轮扫码单 (`serve --lan`): one QR code per table of the round, two tables to an A4 sheet (cut along the
dashed line and put one half on each table). Each half shows the table number large, the QR code of the table
page's address (`<base_url>/t/<code>`), the 录分码 as printed on the 计分卡 and the address as text, for a phone
that cannot scan. Returns the PDF's bytes (reads event.toml for the title and font); writes nothing.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping

from reportlab.graphics.barcode import qrencoder
from reportlab.lib.units import mm

from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.knockout.teams import team_name
from shuangsheng.render.materials.fonts import Align, FontSet, choose_fonts
from shuangsheng.render.materials.page import INK, MARGIN, PAGE, new_canvas
from shuangsheng.storage.event import Event
from shuangsheng.table.codes import format_code

QR_SIDE = 66 * mm  # with its quiet zone: modules of 1.6 mm for an address of up to 62 characters (version 4,
# 33 modules), read by a phone held at arm's length from a seat
TABLE_SIZE = 44  # 第N桌
CODE_SIZE = 24
TEXT_SIZE = 14
ADDRESS_SIZE = 16
SMALLEST = 9  # a long title or address is set smaller rather than past the margins
HALF = PAGE[1] / 2  # the cut line
QUIET = 4  # modules of white around the code, as the QR standard asks
GAP = 4 * mm  # between the cut line and the lower half's first line


def table_address(base_url: str, code: str) -> str:
    """The table page's address that the QR code carries, e.g. http://192.168.1.5:8080/t/ABCD2345."""
    return f"{base_url.rstrip('/')}/t/{code}"


ADDRESS = re.compile(r"(https?://[^\s/]+)/t/[0-9A-Z]{8}")  # a table page's address as the sheet prints it


def sheet_address(pdf: bytes) -> str | None:
    """The server's address (`http://IP:port`) a 扫码单 shows under its first table's QR code; None when it is not
    such a sheet."""
    import pypdfium2  # only here: reading a sheet back is rare

    try:
        document = pypdfium2.PdfDocument(pdf)
        try:
            found = ADDRESS.search("".join(page.get_textpage().get_text_range() for page in document))
        finally:
            document.close()
    except pypdfium2.PdfiumError:
        return None
    return found.group(1) if found else None


def qr_sheet_pdf(event: Event, round_: Round, codes: Mapping[int, str], base_url: str, *,
                 fonts: FontSet | None = None, invariant: bool = False, digits: int = 2) -> bytes:
    """The 扫码单 of `round_`: every table that has a code in `codes` (table → 8 characters), in table order, two
    to a page. `base_url` is the server's LAN address (`http://IP:port`); `digits`: how wide the field's 组号 are
    printed (`id_digits` of the team list: '第007组' over 99 teams, as on every other paper)."""
    fonts = fonts or choose_fonts(event.print.font)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, fonts, title=f"{event.title} 第{round_.number}轮扫码单", invariant=invariant)
    pairings = [p for p in round_.pairings if p.table in codes]
    for i, pairing in enumerate(pairings):
        if i and i % 2 == 0:
            canvas.showPage()
        top = PAGE[1] - MARGIN if i % 2 == 0 else HALF - GAP
        _half(canvas, fonts, event, round_.number, pairing, codes[pairing.table], base_url, top, digits)
        if i % 2 == 0 and i + 1 < len(pairings):
            _cut_line(canvas)
    if not pairings:
        fonts.draw(canvas, PAGE[0] / 2, PAGE[1] / 2, f"第{round_.number}轮没有录分码", TEXT_SIZE, align=Align.CENTRE)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _half(canvas, fonts: FontSet, event: Event, number: int, pairing: Pairing, code: str, base_url: str,
          top: float, digits: int) -> None:
    """One table, from `top` down (less than HALF - MARGIN - GAP): title line, 第N桌, the teams, the QR code, the code and
    the address."""
    centre = PAGE[0] / 2
    y = top - TEXT_SIZE
    _fitted(canvas, fonts, centre, y, f"{event.title}　第{number}轮　扫码录分", TEXT_SIZE)
    y -= 4 * mm + TABLE_SIZE * 0.85
    fonts.draw(canvas, centre, y, f"第{pairing.table}桌", TABLE_SIZE, align=Align.CENTRE)
    y -= 3 * mm + TEXT_SIZE
    teams = f"甲方 {team_name(pairing.a, digits)}　对　乙方 {team_name(pairing.b, digits)}"
    fonts.draw(canvas, centre, y, teams, TEXT_SIZE, align=Align.CENTRE)
    address = table_address(base_url, code)
    y -= 1 * mm + QR_SIDE
    _qr(canvas, address, centre - QR_SIDE / 2, y)
    y -= CODE_SIZE * 0.9
    fonts.draw(canvas, centre, y, f"录分码 {format_code(code)}", CODE_SIZE, align=Align.CENTRE)
    y -= 2 * mm + TEXT_SIZE
    fonts.draw(canvas, centre, y, "用微信“扫一扫”，或在手机浏览器里输入：", TEXT_SIZE, align=Align.CENTRE)
    y -= 1 * mm + ADDRESS_SIZE
    _fitted(canvas, fonts, centre, y, address, ADDRESS_SIZE)


def _fitted(canvas, fonts: FontSet, x: float, y: float, text: str, size: float) -> None:
    """One line centred on x, set smaller until it fits between the margins."""
    width = PAGE[0] - 2 * MARGIN
    while size > SMALLEST and fonts.width(text, size) > width:
        size -= 0.5
    fonts.draw(canvas, x, y, text, size, align=Align.CENTRE)


def _qr(canvas, value: str, x: float, y: float) -> None:
    """The QR code of `value` (error correction M) in a QR_SIDE square with its lower left at x, y, its quiet zone
    of 4 modules inside the square. Drawn as filled runs of dark modules (renderPDF would reference Helvetica)."""
    code = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    code.addData(value)
    code.make()
    count = code.getModuleCount()
    module = QR_SIDE / (count + 2 * QUIET)
    canvas.saveState()
    canvas.setFillColor(INK)
    for row in range(count):
        top = y + QR_SIDE - (QUIET + row) * module
        column = 0
        while column < count:
            if not code.isDark(row, column):
                column += 1
                continue
            start = column
            while column < count and code.isDark(row, column):
                column += 1
            canvas.rect(x + (QUIET + start) * module, top - module, (column - start) * module, module,
                        stroke=0, fill=1)
    canvas.restoreState()


def _cut_line(canvas) -> None:
    canvas.saveState()
    canvas.setDash(4, 4)
    canvas.setLineWidth(0.5)
    canvas.line(MARGIN, HALF, PAGE[0] - MARGIN, HALF)
    canvas.restoreState()
