"""Pictures for the WeChat group, where the players look: 第N轮成绩.png (from `score`) and 成绩公告.png (from
`awards`), laid out for a phone.

A rendered A4 page would put 12 pt text at about 22 px on a 1080 px picture, too small on a phone, so the content
has a layout of its own: one narrow column (119 mm, i.e. 337.5 pt, so that 1080 px are 3.2 px a point), every
text at least 13 pt (41.6 px), each match a block with its table on the left, the winner marked ▶ and in bold,
and one tall page. The page is drawn on reportlab's canvas with the documents' fonts (`FontSet`: per-character
fallback, warnings naming the person) and Chinese line breaking (`page.break_lines`), then rendered to PNG with
pypdfium2 (PDFium, offline; no browser, no network). A picture taller than `MAX_HEIGHT` is cut between blocks into
parts (成绩公告.png, 成绩公告-2.png, …), each part after the first headed （续）. The PNG keeps the fingerprint of the
page it was drawn from (`drawn_from` reads it back from a file), so that a picture already there, unedited and drawn
from the same page is left as it is (`shuangsheng.usecases.papers.pictures` writes them: `score` run again after a
correction elsewhere draws nothing).

The wording comes from `shuangsheng/render/templates/round_picture.j2` and, for the announcement, the same `announcement.j2` as the
PDF; nothing is recomputed here: results, placings and levels come from the domain records.
"""

from __future__ import annotations

import hashlib
import io
import math
import struct
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from shuangsheng.knockout.bracket import PASSED_A, UNCHECKED_MARK, Bracket, Slot, SlotKind, entry_note
from shuangsheng.knockout.teams import Team, in_order, shown_id, team_label, team_name
from shuangsheng.render.materials.conventions import players_of, prize_rows
from shuangsheng.render.materials.fonts import BOLD_STROKE, Align, FontSet, choose_fonts
from shuangsheng.render.materials.page import INK, RULE, break_lines, describe_pdf
from shuangsheng.render.materials.wording import Block, BlockKind, check_kinds, render
from shuangsheng.render.results import RoundResults
from shuangsheng.storage.event import Event
from shuangsheng.table.record import TableRecord
from shuangsheng.table.status import TableStatus

PX = 3.2  # pixels a point
PICTURE_PX = 1080  # the picture's width
WIDTH = PICTURE_PX / PX  # 337.5 pt, 119 mm
SIDE = 15.0  # the side margins, in points
TEXT_W = WIDTH - 2 * SIDE
TITLE = 20.0
HEADING = 16.0
BODY = 14.0
SMALL = 13.0  # the smallest text: 41.6 px
LEADING = 1.45
MAX_HEIGHT = 6000.0  # points (19 200 px): a taller picture is cut into parts
MARK = "▶"  # before each match's winner, who is also in bold
MARK_SCALE = 1.4  # the triangle is small in its em
PICTURE_KINDS = (BlockKind.TITLE, BlockKind.PLAIN, BlockKind.BODY, BlockKind.GAP, BlockKind.SIGNATURE,
                 BlockKind.ASIDE, BlockKind.INSERT)
ROUND_TABLES = "各桌成绩"  # round_picture.j2's insert
ANNOUNCE_PRIZES = "获奖名单"  # announcement.j2's inserts, as in the PDF
ANNOUNCE_ROUNDS = "各轮成绩"


# What the page's fingerprint covers besides the page: how it is drawn (change it when `png` draws differently).
DRAWING = f"{PICTURE_PX} px, 16 greys"
SOURCE_KEY = b"shuangsheng-source"  # the PNG text chunk holding the fingerprint
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
GREY_STEP = 17  # 256 levels → 16 greys: 0, 17, …, 255
GREY_LEVELS = [v // GREY_STEP for v in range(256)]  # a grey → its index among the 16


@dataclass(frozen=True)
class Picture:
    """A phone picture before it is drawn: the one-page PDF it is rendered from."""

    pdf: bytes

    @property
    def source(self) -> str:
        """The fingerprint of what the picture shows (the page, and how it is drawn)."""
        return hashlib.sha256(DRAWING.encode("utf-8") + self.pdf).hexdigest()

    def png(self) -> bytes:
        return png(self.pdf, source=self.source)


def drawn_from(path: Path) -> str | None:
    """The fingerprint a PNG this program wrote was drawn from (its text chunk), or None."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(PNG_SIGNATURE):
        return None
    at = 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"tEXt":
            key, _, value = data[at + 8:at + 8 + length].partition(b"\0")
            if key == SOURCE_KEY:
                return value.decode("latin-1")
        at += 12 + length
    return None


@dataclass(frozen=True)
class _Item:
    """A block of the column: its height and how it draws itself with its top at y. `keep`: stays with the next
    item (a heading)."""

    height: float
    draw: Callable[[Canvas, float], None]
    keep: bool = False
    section: str = ""  # the heading it comes under ('第3轮'), for a part that starts in the middle of it


@dataclass(frozen=True)
class Entry:
    """One team's line in a match block: the team, what stands after it (its level, 过A, 弃权), whether it won."""

    team: str | None
    note: str
    won: bool


HEAVY = ((-1, -1), (1, -1), (-1, 1), (1, 1))  # a bold line's four fills, in half strokes from where it stands


def _draw(fonts: FontSet, canvas: Canvas, x: float, y: float, text: str, size: float, *, align: Align = Align.LEFT,
          who: str | None = None, bold: bool = False) -> None:
    """One line of text on the picture's page. Bold is four fills, each offset by half the outline `FontSet.draw`
    strokes a bold line's glyphs with, which looks the same once rendered: PDFium strokes every glyph's outline
    anew but takes a fill from its glyph cache, so a round's results render three times faster (measured on the
    256-pair demo's pictures: half their time went on stroking the winners' names). The page is only ever
    rendered to pixels, never kept, so its text being there four times is read by no one."""
    if not bold:
        fonts.draw(canvas, x, y, text, size, align=align, who=who)
        return
    half = size * BOLD_STROKE / 2
    if align in (Align.CENTRE, Align.RIGHT):  # where it starts, measured once for the four
        x -= fonts.width(text, size, who) / (2 if align is Align.CENTRE else 1)
    for dx, dy in HEAVY:
        fonts.draw(canvas, x + dx * half, y + dy * half, text, size, who=who)


class Column:
    """The phone layout: items one under the other in a column `TEXT_W` wide."""

    def __init__(self, fonts: FontSet, teams: Mapping[str, Team], digits: int, *, tables: int = 99):
        self.fonts, self.teams, self.digits = fonts, teams, digits  # digits: the event's 组号 width
        self.items: list[_Item] = []
        self.section = ""
        self.tables = tables  # the highest table number shown: its label's width is the tables' column
        self.table_w = fonts.width(f"第{'0' * len(str(max(tables, 10)))}桌", BODY) + 8

    def lines(self, text: str, size: float, *, align: Align = Align.LEFT, bold: bool = False, who: str | None = None,
              after: float = 0.0, keep: bool = False, x: float = SIDE, width: float = TEXT_W) -> None:
        """A paragraph (or a title, centred) broken into lines of `width`."""
        rows = break_lines(self.fonts, text, size, [width], who) or [""]
        fonts = self.fonts

        def draw(canvas: Canvas, top: float) -> None:
            for k, row in enumerate(rows):
                y = top - size * (k * LEADING + 1.05)
                at = {Align.CENTRE: x + width / 2, Align.RIGHT: x + width}.get(align, x)
                _draw(fonts, canvas, at, y, row, size, align=align, who=who, bold=bold)

        self.items.append(_Item(len(rows) * size * LEADING + after, draw, keep, self.section))

    def gap(self, height: float) -> None:
        self.items.append(_Item(height, lambda canvas, top: None, section=self.section))

    def heading(self, text: str) -> None:
        """A section's heading, bold; kept with what follows."""
        self.section = ""
        self.lines(text, HEADING, bold=True, keep=True, after=4)
        self.section = text

    def match(self, table: str, entries: Sequence[Entry], status: str = "") -> None:
        """A match: the table on the left; each team (▶ and bold for the winner) with its note on the right; a
        status line under them when there is something to say; a rule below."""
        fonts, teams, digits = self.fonts, self.teams, self.digits
        mark_w = fonts.width(MARK, BODY * MARK_SCALE) + 3
        note_w = max((fonts.width(e.note, BODY) for e in entries), default=0.0) + 6
        name_x = SIDE + self.table_w + mark_w
        name_w = WIDTH - SIDE - note_w - name_x
        laid = []
        for e in entries:
            who = f"{team_name(e.team, digits)}的队员" if e.team else None
            label = _label(teams, e.team, digits)
            laid.append((e, who, break_lines(fonts, label, BODY, [name_w], who) or [""]))
        status_rows = break_lines(fonts, status, SMALL, [WIDTH - SIDE - name_x + mark_w]) if status else []
        line = BODY * LEADING
        height = sum(len(rows) for _, _, rows in laid) * line + len(status_rows) * SMALL * LEADING + 10

        def draw(canvas: Canvas, top: float) -> None:
            y = top - 4
            _draw(fonts, canvas, SIDE, y - BODY * 1.05, table, BODY, bold=True)
            for e, who, rows in laid:
                if e.won:
                    fonts.draw(canvas, SIDE + self.table_w, y - BODY * 1.1, MARK, BODY * MARK_SCALE)
                for k, row in enumerate(rows):
                    _draw(fonts, canvas, name_x, y - BODY * 1.05 - k * line, row, BODY, who=who, bold=e.won)
                _draw(fonts, canvas, WIDTH - SIDE, y - BODY * 1.05, e.note, BODY, align=Align.RIGHT, bold=e.won)
                y -= len(rows) * line
            for k, row in enumerate(status_rows):
                fonts.draw(canvas, name_x - mark_w, y - SMALL * (1.05 + k * LEADING), row, SMALL)
            canvas.setStrokeColor(RULE)
            canvas.setLineWidth(0.5)
            canvas.line(SIDE, top - height + 1, WIDTH - SIDE, top - height + 1)

        self.items.append(_Item(height, draw, section=self.section))

    # --- the pictures ---

    def parts(self) -> list[list[_Item]]:
        """The items cut into parts no taller than MAX_HEIGHT, of about equal height, between items, never after a
        heading."""
        total = sum(item.height for item in self.items)
        limit = min(MAX_HEIGHT, total / math.ceil(total / MAX_HEIGHT) * 1.05)
        parts: list[list[_Item]] = [[]]
        used = 0.0
        for k, item in enumerate(self.items):
            kept = item.height + (self.items[k + 1].height if item.keep and k + 1 < len(self.items) else 0.0)
            if parts[-1] and used + kept > limit:
                parts.append([])
                used = 0.0
            parts[-1].append(item)
            used += item.height
        return parts

    def pdf(self, items: Sequence[_Item], *, title: str) -> bytes:
        """One tall narrow page holding the items (never saved: invariant, so that the same page has the same
        fingerprint; uncompressed, since PDFium reads it straight from memory: compressing it only to have it
        inflated again cost a fifth of making it)."""
        height = sum(i.height for i in items) + 2 * SIDE
        buffer = io.BytesIO()
        canvas = Canvas(buffer, pagesize=(WIDTH, height), invariant=1,
                        initialFontName=self.fonts.name, initialFontSize=BODY, pageCompression=0)  # type: ignore[arg-type]  # types-reportlab has it float
        describe_pdf(canvas, title)
        canvas.setFillColor(INK)
        canvas.setStrokeColor(INK)
        top = height - SIDE
        for item in items:
            item.draw(canvas, top)
            canvas.setFillColor(INK)
            canvas.setStrokeColor(INK)
            top -= item.height
        canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def pictures(self, *, event: str, name: str) -> list[Picture]:
        """The pictures (`Picture.png`: 1080 px wide): one, or the parts of a very tall one, each after the first
        headed with the event, '`name`（续）' and, when it starts inside a section, '第3轮（续）'."""
        out = []
        for k, items in enumerate(self.parts()):
            if k:
                head = Column(self.fonts, self.teams, self.digits, tables=self.tables)
                head.lines(event, HEADING, align=Align.CENTRE)
                head.lines(f"{name}（续）", TITLE, align=Align.CENTRE, bold=True, after=8)
                if items[0].section and not items[0].keep:
                    head.heading(f"{items[0].section}（续）")
                items = [*head.items, *items]
            out.append(Picture(self.pdf(items, title=f"{event} {name}")))
        return out

    # --- a template's blocks ---

    def markup(self, blocks: Sequence[Block], inserts: Mapping[str, Callable[[], None]]) -> None:
        """A rendered template in the phone layout: `#` titles centred, paragraphs, `>` the organiser on the
        right, `~` gaps, `+` asides in the small size; each `@name` drawn by `inserts[name]`."""
        check_kinds(blocks, PICTURE_KINDS, list(inserts))
        for block in blocks:
            if block.kind is BlockKind.INSERT:
                inserts[block.name]()
            elif block.kind is BlockKind.TITLE:
                for k, line in enumerate(block.lines):
                    last = k == len(block.lines) - 1
                    self.lines(line, TITLE if last else HEADING, align=Align.CENTRE, bold=last, after=8 if last else 0)
            elif block.kind is BlockKind.GAP:
                self.gap(BODY)
            elif block.kind is BlockKind.SIGNATURE:
                self.gap(6)
                for line in block.lines:
                    self.lines(line, BODY, align=Align.RIGHT)
            else:
                self.lines(block.text, SMALL if block.kind is BlockKind.ASIDE else BODY, after=6)


def png(pdf: bytes, *, source: str | None = None) -> bytes:
    """The first page of `pdf` as a greyscale PNG (16 greys), PICTURE_PX wide; `source` kept in a text chunk."""
    import pypdfium2  # only here: the pictures need it, the PDFs do not

    document = pypdfium2.PdfDocument(pdf)
    try:
        page = document[0]
        image = page.render(scale=PX, grayscale=True).to_pil()
        page.close()
    finally:
        document.close()
    if image.width != PICTURE_PX:  # a rounding pixel
        image = image.crop((0, 0, PICTURE_PX, image.height))
    # 16 greys are plenty for black text on white: a 4-bit PNG is a third smaller and twice as fast to write.
    # The greys' indices (0–15) are packed two a byte straight from the grey image (Pillow's "L;4").
    levels = image.point(GREY_LEVELS)
    return grey_png(levels.width, levels.height, levels.tobytes("raw", "L;4"), source=source)


def grey_png(width: int, height: int, packed: bytes, *, source: str | None = None) -> bytes:
    """A PNG of 16 greys from its pixels, two a byte (palette indices 0–15, each row whole bytes: Pillow's raw
    "L;4"), with `source` in a text chunk. The PNG is put together here (the chunks as `drawn_from` reads them)
    rather than by Pillow's writer, which deflates row by row: the rows go to zlib in one call, with the
    run-length strategy zlib has for PNG image data, in a third of the time for a 1080 × 12 000 picture and about
    a tenth smaller. The pixels are the same (tests decode it with Pillow)."""
    stride = (width + 1) // 2
    rows = b"".join(b"\0" + packed[at:at + stride] for at in range(0, stride * height, stride))  # filter 0: none
    deflate = zlib.compressobj(6, zlib.DEFLATED, 15, 8, zlib.Z_RLE)
    chunks = [(b"IHDR", struct.pack(">IIBBBBB", width, height, 4, 3, 0, 0, 0)),  # 4 bits, palette; no interlace
              (b"PLTE", bytes(level * GREY_STEP for level in range(16) for _ in range(3)))]
    if source is not None:
        chunks.append((b"tEXt", SOURCE_KEY + b"\0" + source.encode("latin-1")))
    chunks += [(b"IDAT", deflate.compress(rows) + deflate.flush()), (b"IEND", b"")]
    return PNG_SIGNATURE + b"".join(struct.pack(">I", len(data)) + kind + data
                                    + struct.pack(">I", zlib.crc32(kind + data)) for kind, data in chunks)


def _label(teams: Mapping[str, Team], team_id: str | None, digits: int) -> str:
    if team_id is None:
        return "（待定）"
    players = players_of(teams, team_id)
    return f"{shown_id(team_id, digits)} {players}" if players else team_name(team_id, digits)


# --- 第N轮成绩.png ---


def _table_entries(t: TableRecord) -> list[Entry]:
    entries = []
    for side, team in (("a", t.a), ("b", t.b)):
        level = getattr(t.levels, side) if t.levels is not None else None
        won = t.winner == team
        if t.status is TableStatus.WALKOVER:
            note = "弃权" if not won else ""
        elif won and t.status is TableStatus.PASSED_A:
            note = PASSED_A
        else:
            note = f"{level}级" if level is not None else ""
        entries.append(Entry(team, note, won))
    return entries


def _table_status(t: TableRecord, digits: int) -> str:
    """What the hall should know about a table beyond its levels and winner, in plain words."""
    if t.status is TableStatus.WALKOVER:
        loser = t.b if t.winner == t.a else t.a
        return f"{team_name(loser, digits)}弃权，{team_name(t.winner, digits)}晋级" if t.winner else ""
    if t.status is TableStatus.NEEDS_PLAYOFF and t.playoff is not None:
        return f"需加赛：同为{t.playoff.level}级"
    if t.status is TableStatus.INVALID:
        return "成绩正在核对"
    if t.status is TableStatus.OPEN:
        return "成绩尚未录入"
    if t.unchecked:  # a lost card's match, given by its 终局 cells: marked so everywhere
        return UNCHECKED_MARK.strip()
    if t.playoff_hands and t.winner:
        return f"加赛{t.playoff_hands}局决出"
    return ""


def round_picture(event: Event, results: RoundResults, *, fonts: FontSet | None = None,
                  template_dir: Path | None = None) -> list[Picture]:
    """第N轮成绩 for a phone (see `round_column`), ready to draw."""
    column = round_column(event, results, fonts=fonts, template_dir=template_dir)
    return column.pictures(event=event.title, name=f"{results.title}成绩")


def round_column(event: Event, results: RoundResults, *, fonts: FontSet | None = None,
                 template_dir: Path | None = None) -> Column:
    """第N轮成绩 laid out for a phone: every table (levels, the winner marked, what is still open), the byes and
    who goes on, in number order; the wording of round_picture.j2."""
    fonts = fonts or choose_fonts(event.print.font)
    digits = results.digits  # the event's one width
    column = Column(fonts, results.teams, digits, tables=max((t.table for t in results.tables), default=1))

    def tables() -> None:
        for t in sorted(results.tables, key=lambda t: t.table):
            label = f"第{t.table}桌"
            column.match(label, _table_entries(t), ("三、四名决赛；" if t.third_place else "") + _table_status(t, digits))
        column.gap(8)

    context = {
        "results": results,
        "byes": [team_label(results.teams, t, digits) for t in in_order(results.byes)],  # with names, as the PDF
        "advancing": [team_name(t, digits) for t in in_order(results.advancing)],
        "step": results.next_step.value,
    }
    column.markup(render("round_picture.j2", event, template_dir, context), {ROUND_TABLES: tables})
    return column


# --- 成绩公告.png ---


def _slot_entries(slot: Slot) -> list[Entry]:
    return [Entry(e.team, entry_note(slot, e), e.won) for e in slot.entries]


def _slot_status(slot: Slot, *, third: bool) -> str:
    """What 第N轮成绩.png says under a match beyond its levels, as its record carries it: the 三、四名决赛, and the 加赛
    hands that decided it."""
    said = ["三、四名决赛"] if third else []
    if slot.playoff_hands and slot.winner:
        said.append(f"加赛{slot.playoff_hands}局决出")
    return "；".join(said)


def announcement_picture(chart: Bracket, event: Event, *, date: str, fonts: FontSet | None = None,
                         template_dir: Path | None = None) -> list[Picture]:
    """成绩公告 for a phone (see `announcement_column`), ready to draw."""
    column = announcement_column(chart, event, date=date, fonts=fonts, template_dir=template_dir)
    return column.pictures(event=event.title, name="成绩公告")


def announcement_column(chart: Bracket, event: Event, *, date: str, fonts: FontSet | None = None,
                        template_dir: Path | None = None) -> Column:
    """成绩公告 laid out for a phone: the wording of announcement.j2 (as the PDF), the prizes with players, then
    every round's matches and byes."""
    fonts = fonts or choose_fonts(event.print.font)
    teams = {t.id: t for t in chart.teams}
    digits = chart.digits  # the event's one width
    tables = [s.table or 0 for col in chart.columns for s in col.slots]
    if chart.third_place is not None:
        tables.append(chart.third_place.table or 0)
    column = Column(fonts, teams, digits, tables=max(tables, default=1))

    def prizes() -> None:
        none = "（不设）" if not chart.placings.third else "（空缺）"
        for prize, team_id in prize_rows(chart.placings):
            players = players_of(teams, team_id) if team_id else ""
            text = f"{team_name(team_id, digits)}　{players}" if team_id else none
            column.lines(f"{prize}　{text}", HEADING, bold=True, who=f"{team_name(team_id, digits)}的队员" if team_id else None,
                         after=4)
        for note in chart.placings.notes:
            column.lines(note, SMALL, after=4)
        column.gap(8)

    def rounds() -> None:
        for col in chart.columns:
            column.heading(col.title)
            matches = sorted((s for s in col.slots if s.kind is SlotKind.MATCH), key=lambda s: s.table or 0)
            if chart.third_place is not None and chart.third_place.round == col.number:
                matches.append(chart.third_place)
            for slot in matches:
                third = slot is chart.third_place
                column.match(f"第{slot.table}桌", _slot_entries(slot), _slot_status(slot, third=third))
            byes = in_order([s.entries[0].team for s in col.slots if s.kind is SlotKind.BYE and s.entries[0].team])
            if byes:
                column.lines("轮空（直接晋级）：" + "、".join(team_name(t, digits) for t in byes), SMALL, after=4)
            column.gap(10)

    context = {"date": date, "field": chart.field, "rounds": len(chart.columns)}
    wording = render("announcement.j2", event, template_dir, context)
    column.markup(wording, {ANNOUNCE_PRIZES: prizes, ANNOUNCE_ROUNDS: rounds})
    return column
