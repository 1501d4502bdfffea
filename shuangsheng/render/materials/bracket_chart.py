"""晋级图, the bracket chart of the end of the event (and of `bracket` at any time), on A3.

`bracket_pdf` takes the `Bracket` of `shuangsheng.knockout.bracket` (its rounds, levels, winners and placings) and
the event, and returns PDF bytes; nothing here decides a result. Wording comes from
`shuangsheng/render/templates/bracket.j2` (an event folder's own `templates/` wins). All text goes through `FontSet`,
so fonts are embedded, missing glyphs are reported, and names print as typed.

The chart is drawn on A3: one sheet at the largest size from 20 pt down to 9 pt at which the whole chart fits
(landscape or portrait). A field too large for that (from about 40 teams) is printed at 10–12 pt, at the size
that needs the fewest landscape sheets, each labelled with its part and overlapping the next by `OVERLAP_LINES`
lines, with a dashed cut line (run between two first-round slots, stopping short of the boxes it would cross)
and crop ticks in a gutter beside the chart where they are taped together. A box is drawn whole on a sheet or not
at all (it is then whole on the next), and the lines are spread so the sheets are full. Each match's winner is
marked ▶ and set in bold on a grey ground, so it shows on a pale monochrome print; a winner who passed A says 过A.
A chart of more than 8 rounds (over 256 teams) does not fit across even at 10 pt: it is cut in parts
(`chart_parts`), one for each match of a later round with all that led to it, printed as above, and a last part
from that round to the final with the placings.
Measured with WenQuanYi Micro Hei: 2–11 teams one sheet at 18.5–20 pt; 64 teams 3 sheets at 12 pt; 128 teams
5 sheets at 10–10.5 pt, the last one 88 % or more used (`layout_note` says how a chart prints)."""

from __future__ import annotations

import io
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from reportlab.lib.pagesizes import A3, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from shuangsheng.knockout.bracket import Bracket, Entry, Slot, SlotKind, entry_note, split
from shuangsheng.knockout.teams import Team, shown_id, team_name
from shuangsheng.render.materials.conventions import players_of, prize_rows, team_members
from shuangsheng.render.materials.fonts import Align, FontSet, choose_fonts
from shuangsheng.render.materials.page import INK, MARGIN, SHADE, break_lines
from shuangsheng.render.materials.wording import Block, BlockKind, check_kinds, render
from shuangsheng.storage.event import Event

MIN_SIZE = 9.0  # the chart's smallest text (the issue: one sheet while it fits at ≥ 9 pt)
MAX_SIZE = 20.0
SPLIT_MAX_SIZE = 12.0  # a chart over several sheets: between these sizes, as few sheets as they allow
SPLIT_MIN_SIZE = 10.0
LINE = 1.55  # a team's line, in font sizes
LABEL_EMS = 9.0  # a label wider than this (in ems) is shrunk, down to MIN_SIZE, then condensed, rather than
# widen every column
OVERLAP_LINES = 3  # lines shown on both of two neighbouring sheets
GUTTER = 4 * mm  # on several sheets, the chart keeps this clear at both sides for the crop ticks
STRETCH = 1.6  # on several sheets, lines may be spread up to this much to fill them
WINNER_MARK = "▶"  # before the winner of each match, who is also set in bold on a grey ground
MARK_SCALE = 1.5  # the mark's size, in the chart's text sizes (the triangle is small in its em)
FOOTNOTE_SIZE = 11.0


@dataclass(frozen=True)
class ChartLayout:
    """How the chart is printed: text `size`, `page` (width, height), where each sheet starts (points from the
    chart's top; one sheet: `(0.0,)`), and on several sheets the distance of the lines (`line`)."""

    size: float
    page: tuple[float, float]
    starts: tuple[float, ...]
    line: float | None = None  # a team's line on several sheets, stretched so that they are full

    @property
    def sheets(self) -> int:
        return len(self.starts)


@dataclass(frozen=True)
class _Widths:
    """A chart's widest note, team label and placings line at 1 pt: text widths grow with the size, so the sizes a
    layout tries (half a point at a time) are measured once, not once a size for every team."""

    note: float
    label: float
    places: float


def _widths(chart: Bracket, fonts: FontSet) -> _Widths:
    teams = {t.id: t for t in chart.teams}
    digits = chart.digits  # the event's one width
    slots = [s for c in chart.columns for s in c.slots] + ([chart.third_place] if chart.third_place else [])
    notes = {entry_note(s, e) for s in slots for e in s.entries}  # the notes it shows
    labels = {_label(teams, digits, e.team) for c in chart.columns for s in c.slots for e in s.entries if e.team}
    return _Widths(max(fonts.width(text, 1.0) for text in {"10级", *notes}),
                   max((fonts.width(text, 1.0) for text in labels), default=fonts.width("00 王王王、李李李", 1.0)),
                   max(fonts.width(text, 1.0) for text in _places(chart, teams, digits)))


def _label(teams: Mapping[str, Team], digits: int, team_id: str) -> str:
    players = players_of(teams, team_id)
    return f"{shown_id(team_id, digits)} {players}" if players else team_name(team_id, digits)


def _places(chart: Bracket, teams: Mapping[str, Team], digits: int) -> list[str]:
    unknown = "（不设）" if chart.placings.complete else "（待定）"  # a 2-team field has no 三等奖
    return [f"{prize}  {_label(teams, digits, t) if t else unknown}" for prize, t in prize_rows(chart.placings)]


class _Chart:
    """Measures of the chart at one text size: column and box widths, heights, in points. `widths`: the chart's
    `_widths`, when the caller measures it at several sizes."""

    def __init__(self, chart: Bracket, fonts: FontSet, size: float, *, line: float | None = None, panel: bool = True,
                 widths: _Widths | None = None):
        self.chart, self.fonts, self.size, self.panel = chart, fonts, size, panel  # panel: the placings, 3rd place
        self.teams = {t.id: t for t in chart.teams}
        self.digits = chart.digits  # 组号 as wide as the event's (`EventFolder.digits`)
        self.line = line or size * LINE  # a team's line; more than size * LINE when a single sheet has room
        self.pad = size * 0.35
        unit = widths or _widths(chart, fonts)
        self.note_w = unit.note * size
        self.label_w = min(unit.label * size, LABEL_EMS * size)
        self.mark_w = fonts.width(WINNER_MARK, size * MARK_SCALE) + self.pad * 0.4  # the winner's ▶, before the names
        self.box_w = self.pad * 2.7 + self.mark_w + self.label_w + self.note_w
        self.link = size * 1.5  # the horizontal room for connecting lines between columns
        self.pitch = self.box_w + self.link
        self.places = _places(chart, self.teams, self.digits)
        self.panel_w = max(self.box_w, unit.places * size + 2 * self.pad)
        self.width = (len(chart.columns) - 1) * self.pitch + (self.panel_w if panel else self.box_w)
        self.title_size = max(size * 1.5, 14.0)
        self.header = self.title_size * 1.5 + size * LINE * 2.2  # title, the part line, column titles
        self.footer = FOOTNOTE_SIZE * 1.45 * 2 + 4
        self.content = self.content_height()

    def label(self, team_id: str) -> str:
        return _label(self.teams, self.digits, team_id)

    @property
    def final(self) -> float:
        """The final's centre, in lines."""
        return self.chart.columns[-1].slots[0].y

    @property
    def panel_top(self) -> float:
        """The placings panel sits below the final (and the 3rd-place match), in its column; in lines."""
        return self.final + (6.0 if self.chart.third_place is not None else 2.0)

    @property
    def panel_lines(self) -> float:
        return len(self.places) + 1.6  # a heading line, the prizes, padding

    def content_height(self) -> float:
        if not self.panel:
            return self.chart.height * self.line
        return max(self.chart.height, self.panel_top + self.panel_lines) * self.line

    def room(self, page: tuple[float, float]) -> float:
        """The height left for the chart on a sheet."""
        return page[1] - 2 * MARGIN - self.header - self.footer

    def sheet_starts(self, room: float) -> tuple[float, ...]:
        """Where each sheet starts so that the cut line, in the middle of the overlap, runs through a gap between
        two slots of the first column (never through a name there) and past the final and the placings panel,
        whenever the overlap holds such a gap; else as low as it can, above the final if it would cut through it."""
        overlap = OVERLAP_LINES * self.line
        slots = self.chart.columns[0].slots
        final = self.chart.columns[-1].slots[0]  # the final, the 3rd-place match below it, then the panel
        panel = ((final.y - final.height / 2 - 0.5) * self.line, (self.panel_top + self.panel_lines + 0.5) * self.line)
        if not self.panel:  # a part of a chart cut in parts ends in a slot like any other
            panel = (self.content + 1, self.content + 1)
        gaps = [(a.y + a.height / 2 + b.y - b.height / 2) / 2 * self.line for a, b in itertools.pairwise(slots)]
        gaps = [g for g in gaps if not panel[0] < g < panel[1]]
        starts = [0.0]
        while starts[-1] + room < self.content:
            latest = starts[-1] + room - overlap / 2  # the lowest cut line this sheet can show
            earliest = starts[-1] + overlap + overlap / 2  # the next sheet must move on
            cut = max((g for g in gaps if earliest <= g <= latest), default=None)
            if cut is None:
                cut = max(panel[0], earliest) if panel[0] < latest < panel[1] else latest
            starts.append(cut - overlap / 2)
        return tuple(starts)

    def across(self, left: float, cut: float) -> list[tuple[float, float]]:
        """The x ranges of the boxes a line across the chart at `cut` (points from its top) would run through."""
        out = []
        for i, column in enumerate(self.chart.columns):
            for slot in column.slots:
                if (slot.y - slot.height / 2) * self.line - 2 < cut < (slot.y + slot.height / 2) * self.line + 2:
                    out.append((left + i * self.pitch - 3, left + i * self.pitch + self.box_w + 3))
        return out

    def fits(self, page: tuple[float, float]) -> bool:
        w, h = page
        return self.width <= w - 2 * MARGIN and self.header + self.content + self.footer <= h - 2 * MARGIN


def chart_layout(chart: Bracket, fonts: FontSet, *, panel: bool = True) -> ChartLayout:
    """The largest size at which the chart fits one A3 sheet; else the sheets it needs at a size it fits across
    (`chart_parts` cuts a chart too wide even at SPLIT_MIN_SIZE in parts first)."""
    pages = (landscape(A3), A3)
    size = MAX_SIZE
    widths = _widths(chart, fonts)
    while size >= MIN_SIZE:
        measure = _Chart(chart, fonts, size, panel=panel, widths=widths)
        for page in pages:
            if measure.fits(page):
                return ChartLayout(size, page, (0.0,))
        size -= 0.5
    # Several sheets: the fewest that any size from SPLIT_MIN_SIZE up (to what fits across) needs, at the
    # largest size that needs no more.
    page = landscape(A3)
    options = []
    size = SPLIT_MAX_SIZE
    while size >= SPLIT_MIN_SIZE:
        measure = _Chart(chart, fonts, size, panel=panel, widths=widths)
        if measure.width <= page[0] - 2 * (MARGIN + GUTTER):
            options.append(ChartLayout(size, page, measure.sheet_starts(measure.room(page))))
        size -= 0.5
    if not options:
        measure = _Chart(chart, fonts, MIN_SIZE, panel=panel, widths=widths)  # long names are condensed: fits across up to 8 rounds
        return _filled(chart, fonts, ChartLayout(MIN_SIZE, page, measure.sheet_starts(measure.room(page))), panel)
    fewest = min(o.sheets for o in options)
    return _filled(chart, fonts, next(o for o in options if o.sheets == fewest), panel)


@dataclass(frozen=True)
class ChartPart:
    """One part of the printed chart: its `chart` (the whole one, or a part of it from `knockout.bracket.split`),
    how it prints, whether it ends in the final (with the 3rd-place match and the placings: `panel`), and what it
    is (`name`: '' for a chart printed whole)."""

    chart: Bracket
    layout: ChartLayout
    panel: bool = True
    name: str = ""


def chart_parts(chart: Bracket, fonts: FontSet) -> tuple[ChartPart, ...]:
    """The chart as printed: whole, when it fits across A3 landscape at SPLIT_MIN_SIZE or more (up to 8 rounds,
    about 256 teams); else cut at the latest round whose columns before it fit across (7 rounds at 512 teams):
    one part for each match (or bye) of that round with all that led to it, each printed as its own sheets, then
    a last part from that round to the final, with the placings."""
    width = landscape(A3)[0] - 2 * (MARGIN + GUTTER)
    if len(chart.columns) < 3 or _Chart(chart, fonts, SPLIT_MIN_SIZE).width <= width:
        return (ChartPart(chart, chart_layout(chart, fonts)),)
    at = next((at for at in range(len(chart.columns) - 1, 2, -1)
               if all(_Chart(p, fonts, SPLIT_MIN_SIZE, panel=False).width <= width for p in split(chart, at)[0])), 2)
    parts, rest = split(chart, at)
    title = chart.columns[at - 1].title
    named = [ChartPart(p, chart_layout(p, fonts, panel=False), False, f"{title}{_slot_name(p.columns[-1].slots[0])}及之前")
             for p in parts]
    return (*named, ChartPart(rest, chart_layout(rest, fonts), True, f"{title}到决赛、获奖名单"))


def _slot_name(slot: Slot) -> str:
    if slot.kind is SlotKind.BYE:
        return "轮空"
    return f"第{slot.table}桌" if slot.kind is SlotKind.MATCH else f"第{slot.table}场（待抽签）"


def _filled(chart: Bracket, fonts: FontSet, layout: ChartLayout, panel: bool = True) -> ChartLayout:
    """The layout with its lines spread (up to STRETCH times) as far as the same number of sheets allows, so the
    last sheet is not left half empty."""
    base = _Chart(chart, fonts, layout.size, panel=panel)
    room = base.room(layout.page)
    best = ChartLayout(layout.size, layout.page, layout.starts, base.line)
    low, high = base.line, base.line * STRETCH
    for _ in range(10):
        line = (low + high) / 2
        starts = _Chart(chart, fonts, layout.size, line=line, panel=panel).sheet_starts(room)
        if len(starts) <= layout.sheets:
            best, low = ChartLayout(layout.size, layout.page, starts, line), line
        else:
            high = line
    return best


def bracket_pdf(
    chart: Bracket, event: Event, *, fonts: FontSet | None = None, template_dir: Path | None = None,
    invariant: bool = False,
) -> bytes:
    """晋级图: every round a column, each match between the earlier matches (or byes) its teams came from, with
    levels and the winner shaded; blank slots for what is still to play; the placings once known."""
    fonts = fonts or choose_fonts(event.print.font)
    heading, footnote = _chart_wording(render("bracket.j2", event, template_dir, _chart_context(chart)))
    parts = chart_parts(chart, fonts)
    page_w = landscape(A3)[0] if len(parts) > 1 else parts[0].layout.page[0]
    size = FOOTNOTE_SIZE
    notes = break_lines(fonts, footnote, size, [page_w - 2 * MARGIN])
    if len(notes) > 2:
        size = MIN_SIZE
        notes = break_lines(fonts, footnote, size, [page_w - 2 * MARGIN])[:2]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=parts[0].layout.page, invariant=1 if invariant else 0, initialFontName=fonts.name,  # type: ignore[arg-type]  # types-reportlab has it float
                    initialFontSize=parts[0].layout.size, pageCompression=1)
    canvas.setTitle(f"{chart.title}晋级图")
    canvas.setAuthor("shuangsheng")
    canvas.setCreator("shuangsheng")
    total = sum(part.layout.sheets for part in parts)
    done = 0
    for k, part in enumerate(parts):
        context = _Sheets(heading, (notes, size), total, done, (k + 1, len(parts)) if len(parts) > 1 else None)
        _draw_part(canvas, fonts, part, context)
        done += part.layout.sheets
    canvas.save()
    return buffer.getvalue()


@dataclass(frozen=True)
class _Sheets:
    """What every sheet of a part says besides the chart: the heading, the footnote's lines and size, the sheets
    in all and before this part, and which part of how many this is (None: the chart printed whole)."""

    heading: str
    notes: tuple[Sequence[str], float]
    total: int
    before: int
    part: tuple[int, int] | None


def _draw_part(canvas: Canvas, fonts: FontSet, part: ChartPart, sheets: _Sheets) -> None:
    """The sheets of one part of the chart (of the whole chart, when it is printed whole)."""
    layout, chart = part.layout, part.chart
    m = _Chart(chart, fonts, layout.size, line=layout.line, panel=part.panel)
    page_w, page_h = layout.page
    canvas.setPageSize(layout.page)
    room = m.room(layout.page)
    if layout.sheets == 1:  # spread the lines over the sheet, up to twice the usual distance
        m = _Chart(chart, fonts, layout.size, line=min(2 * m.line, m.line * room / m.content), panel=part.panel)
    overlap = OVERLAP_LINES * m.line
    notes, size = sheets.notes
    left = (page_w - m.width) / 2
    for sheet, start in enumerate(layout.starts):
        top = page_h - MARGIN  # the header starts here
        canvas.setFillColor(INK)
        canvas.setStrokeColor(INK)
        fonts.draw(canvas, page_w / 2, top - m.title_size, sheets.heading, m.title_size, align=Align.CENTRE)
        y = top - m.title_size * 1.5 - m.size * 1.2
        fonts.draw(canvas, page_w / 2, y, _part_line(part, sheets, sheet), m.size, align=Align.CENTRE)
        y -= m.size * LINE
        for i, column in enumerate(chart.columns):
            fonts.draw(canvas, left + i * m.pitch + m.box_w / 2, y, column.title, m.size, align=Align.CENTRE)
        frame_top = top - m.header
        frame_bottom = frame_top - room
        canvas.saveState()
        clip = canvas.beginPath()
        clip.rect(MARGIN, frame_bottom, page_w - 2 * MARGIN, room)
        canvas.clipPath(clip, stroke=0, fill=0)
        _draw_chart(canvas, m, left, frame_top + start, (frame_bottom, frame_top))
        canvas.restoreState()
        if layout.sheets > 1:
            cuts = [c + overlap / 2 for c in layout.starts[sheet : sheet + 2] if c > 0]  # this sheet's, the next's
            _cut_marks(canvas, page_w, [(frame_top - (c - start), m.across(left, c)) for c in cuts])
        for k, text in enumerate(notes):
            fonts.draw(canvas, MARGIN, MARGIN + size * 0.3 + (len(notes) - 1 - k) * size * 1.45, text, size)
        canvas.showPage()


@dataclass(frozen=True)
class Tiles:
    """The chart cut into pieces of `height` (points on the page) for a booklet's pages, scaled by `scale` to
    `width`: `starts` where each piece begins (points from the chart's top, as `ChartLayout.starts`); `columns`:
    how many of its columns they show (the others are shown by the tiles of `later_rounds`)."""

    measure: _Chart
    scale: float
    starts: tuple[float, ...]
    room: float  # the chart's height each piece shows, unscaled
    columns: int

    @property
    def width(self) -> float:
        """The width shown, unscaled: every column, or the first `columns` boxes."""
        m = self.measure
        if self.columns >= len(m.chart.columns):
            return m.width
        return (self.columns - 1) * m.pitch + m.box_w

    @property
    def size(self) -> float:
        """The text's size as printed."""
        return self.measure.size * self.scale


def chart_tiles(chart: Bracket, fonts: FontSet, width: float, height: float, size: float = 12.0, *,
                columns: int | None = None) -> Tiles:
    """The chart at `size` (its first `columns` columns, or all), scaled down to `width` where it is wider, cut
    into pieces `height` high, their column titles included (neighbouring pieces overlap by a few lines, as the
    sheets to tape together do)."""
    m = _Chart(chart, fonts, size)
    shown = Tiles(m, 1.0, (), 0.0, columns or len(chart.columns))
    scale = min(1.0, width / shown.width)
    room = height / scale - size * LINE
    return replace(shown, scale=scale, starts=m.sheet_starts(room), room=room)


def columns_across(chart: Bracket, fonts: FontSet, width: float, size: float) -> int:
    """How many columns of the chart at `size` fit `width` unscaled (at least two)."""
    m = _Chart(chart, fonts, size)
    return max(2, int((width - m.box_w) // m.pitch) + 1)


def later_rounds(chart: Bracket, first: int) -> Bracket:
    """The chart from column `first` on, its lines closed up: the slots of that column one line apart (they
    stood as far apart as the matches of the first round they came from), the later ones between them as
    before. For a booklet, whose page cannot hold a large field's chart across at a readable size: the early
    rounds on pages of their own, then these."""
    columns = chart.columns[first:]
    slots = columns[0].slots
    top = min(s.y - s.height / 2 for s in slots)
    factor = max(1.0, min(((b.y - a.y) / ((a.height + b.height) / 2 + 1) for a, b in itertools.pairwise(slots)),
                          default=1.0))

    def moved(slot: Slot) -> Slot:
        return replace(slot, y=(slot.y - top) / factor + 0.5)

    return replace(chart, columns=tuple(replace(c, slots=tuple(moved(s) for s in c.slots)) for c in columns),
                   third_place=moved(chart.third_place) if chart.third_place else None,
                   height=(chart.height - top) / factor + 1)


def draw_tile(canvas: Canvas, tiles: Tiles, k: int, left: float, top: float) -> None:
    """Piece `k` of the chart with its top left corner at (`left`, `top`): the column titles, then the chart
    (clipped to the columns the tiles show)."""
    m = tiles.measure
    canvas.saveState()
    canvas.translate(left, top)
    canvas.scale(tiles.scale, tiles.scale)
    canvas.setFillColor(INK)
    canvas.setStrokeColor(INK)
    for i, column in enumerate(m.chart.columns[:tiles.columns]):
        m.fonts.draw(canvas, i * m.pitch + m.box_w / 2, -m.size * 1.1, column.title, m.size, align=Align.CENTRE)
    frame_top = -m.size * LINE
    clip = canvas.beginPath()
    clip.rect(-2, frame_top - tiles.room, tiles.width + 4, tiles.room)
    canvas.clipPath(clip, stroke=0, fill=0)
    _draw_chart(canvas, m, 0.0, frame_top + tiles.starts[k], (frame_top - tiles.room, frame_top), tiles.columns)
    canvas.restoreState()


def _chart_wording(blocks: Sequence[Block]) -> tuple[str, str]:
    """From bracket.j2: the heading of every sheet (`#`) and the footnote (its paragraphs, run together)."""
    check_kinds(blocks, (BlockKind.TITLE, BlockKind.PLAIN, BlockKind.BODY), ())
    heading = "　".join(line for b in blocks if b.kind is BlockKind.TITLE for line in b.lines)
    return heading, "".join(b.text for b in blocks if b.kind is not BlockKind.TITLE)


def _chart_context(chart: Bracket) -> dict[str, object]:
    drawn = [c for c in chart.columns if c.drawn]
    done = chart.placings.complete
    return {
        "chart_title": chart.title,
        "status": "比赛结束" if done else (f"截至{drawn[-1].title}" if drawn else "尚未抽签"),
        "field": chart.field,
    }


def _part_line(part: ChartPart, sheets: _Sheets, sheet: int) -> str:
    status = _chart_context(part.chart)["status"]
    field = f"{status}　共{part.chart.field}组"
    count = part.layout.sheets
    if sheets.part is None and count == 1:
        return field
    joined = f"相邻两张重叠约{OVERLAP_LINES}行：剪去下一张上边虚线以上的部分，使两条虚线重合后粘贴"
    if sheets.part is None:
        return f"{field}　本图共{count}张，这是第{sheet + 1}张（自上而下第{sheet + 1}部分）。{joined}"
    k, parts = sheets.part
    where = f"本图共{sheets.total}张，这是第{sheets.before + sheet + 1}张：第{k}部分（共{parts}部分，{part.name}）"
    return f"{field}　{where}" + (f"的第{sheet + 1}张（共{count}张，自上而下）。{joined}" if count > 1 else "")


def _draw_chart(canvas: Canvas, m: _Chart, left: float, origin: float, view: tuple[float, float],
                columns: int | None = None) -> None:
    """Draw the slots and connecting lines within `view` (page y from, to; the rest is clipped, and text is only
    drawn on lines wholly inside it) of the first `columns` columns (all by default; the placings panel and the
    3rd-place match only with the last); content y (points down from the chart's top) maps to origin − y. Nothing
    is drawn outside what is shown: clipped away, text would still be in the page, off its edge."""
    chart = m.chart
    low, high = view
    canvas.setLineWidth(0.8)
    shown = len(chart.columns) if columns is None else columns
    for i, column in enumerate(chart.columns[:shown]):
        x = left + i * m.pitch
        for slot in column.slots:
            _draw_slot(canvas, m, slot, x, origin - slot.y * m.line, view)
            if i:
                _draw_links(canvas, m, chart.columns[i - 1].slots, slot, x, origin, view)
    x = left + (len(chart.columns) - 1) * m.pitch
    if not m.panel or shown < len(chart.columns):
        return
    if chart.third_place is not None:  # below the final: label line, then the match
        middle = origin - (m.final + 2.0) * m.line
        if low < middle - m.line / 2 and middle + m.line / 2 < high:
            m.fonts.draw(canvas, x, middle - m.size * 0.36, "三、四名决赛", m.size)
        _draw_slot(canvas, m, chart.third_place, x, origin - (m.final + 3.5) * m.line, view)
    _draw_placings(canvas, m, x, origin - m.panel_top * m.line, view)


def _seen(view: tuple[float, float], top: float, bottom: float) -> bool:
    return bottom < view[1] and top > view[0]


def _draw_links(canvas: Canvas, m: _Chart, previous: Sequence[Slot], slot: Slot, x: float, origin: float,
                view: tuple[float, float]) -> None:
    """The lines from the matches (or byes) of the column before to `slot`."""
    for k, source in enumerate(slot.sources):
        src_y = origin - previous[source].y * m.line
        dst_y = origin - (slot.y - slot.height / 2 + k + 0.5) * m.line
        if not _seen(view, max(src_y, dst_y), min(src_y, dst_y) - 1):
            continue
        x0, x1 = x - m.link, x
        mid = x0 + m.link / 2
        canvas.line(x0, src_y, mid, src_y)
        canvas.line(mid, src_y, mid, dst_y)
        canvas.line(mid, dst_y, x1, dst_y)


def _draw_placings(canvas: Canvas, m: _Chart, x: float, top: float, view: tuple[float, float]) -> None:
    """The placings panel, its top at `top`."""
    low, high = view
    height = m.panel_lines * m.line
    if not (low - 0.01 <= top - height and top <= high + 0.01):  # whole, or on the next sheet
        return
    canvas.setLineWidth(1.2)
    canvas.rect(x, top - height, m.panel_w, height, stroke=1, fill=0)
    heading = "获奖名单" if m.chart.placings.complete else "获奖名单（比赛进行中）"
    for k, text in enumerate([heading, *m.places]):
        middle = top - (k + 0.8) * m.line
        if low < middle - m.line / 2 and middle + m.line / 2 < high:
            m.fonts.draw(canvas, x + m.pad, middle - m.size * 0.36, text, m.size, who="获奖名单")


def _draw_slot(canvas: Canvas, m: _Chart, slot: Slot, x: float, centre: float, view: tuple[float, float]) -> None:
    """A match (or bye) drawn whole, or not at all: one cut by the sheet's edge is whole on the next sheet."""
    height = slot.height * m.line
    top = centre + height / 2
    if not (view[0] - 0.01 <= top - height and top <= view[1] + 0.01):
        return
    for k, entry in enumerate(slot.entries):
        row_top = top - k * m.line
        if entry.won:
            canvas.setFillColor(SHADE)
            canvas.rect(x, row_top - m.line, m.box_w, m.line, stroke=0, fill=1)
            canvas.setFillColor(INK)
        _draw_entry(canvas, m, slot, entry, x, row_top - m.line / 2)
    canvas.setLineWidth(1.2 if slot.winner else 0.8)
    if slot.kind is SlotKind.PENDING:
        canvas.setDash(3, 2)
    canvas.rect(x, top - height, m.box_w, height, stroke=1, fill=0)
    canvas.setDash()
    if slot.height == 2:
        canvas.setLineWidth(0.5)
        canvas.line(x, centre, x + m.box_w, centre)
    canvas.setLineWidth(0.8)


def _draw_entry(canvas: Canvas, m: _Chart, slot: Slot, entry: Entry, x: float, middle: float) -> None:
    if entry.team is None:
        return
    text = m.label(entry.team)
    size = m.size
    won = entry.won and slot.kind is SlotKind.MATCH
    width = m.fonts.width(text, size, team_members(entry.team, m.digits))
    if width > m.label_w:  # a long name: smaller, down to MIN_SIZE, then narrower letters at that size
        size = max(MIN_SIZE, size * m.label_w / width)
    condense = min(1.0, m.label_w / m.fonts.width(text, size, team_members(entry.team, m.digits)))
    if won:
        m.fonts.draw(canvas, x + m.pad * 0.7, middle - m.size * MARK_SCALE * 0.36, WINNER_MARK, m.size * MARK_SCALE)
    canvas.saveState()
    canvas.translate(x + m.pad * 0.7 + m.mark_w, middle - size * 0.36)
    canvas.scale(condense, 1)
    m.fonts.draw(canvas, 0, 0, text, size, who=team_members(entry.team, m.digits), bold=won)
    canvas.restoreState()
    note = entry_note(slot, entry)
    if note:
        m.fonts.draw(canvas, x + m.box_w - m.pad, middle - m.size * 0.36, note, m.size, align=Align.RIGHT, bold=won)


def _cut_marks(canvas: Canvas, page_w: float, cuts: Sequence[tuple[float, Sequence[tuple[float, float]]]]) -> None:
    """Where two sheets meet: at each y a dashed line across the sheet that stops short of the boxes in its way
    (given as x ranges), and crop ticks at both ends, in the gutter beside the chart."""
    canvas.setLineWidth(0.8)
    tick = 4 * mm
    for y, boxes in cuts:
        canvas.setDash(6, 4)
        x = MARGIN + tick
        for low, high in sorted(boxes):
            if low > x:
                canvas.line(x, y, low, y)
            x = max(x, high)
        if x < page_w - MARGIN - tick:
            canvas.line(x, y, page_w - MARGIN - tick, y)
        canvas.setDash()
        canvas.line(MARGIN, y, MARGIN + tick * 0.8, y)
        canvas.line(page_w - MARGIN - tick * 0.8, y, page_w - MARGIN, y)
        canvas.line(MARGIN + tick / 2, y - tick / 2, MARGIN + tick / 2, y + tick / 2)
        canvas.line(page_w - MARGIN - tick / 2, y - tick / 2, page_w - MARGIN - tick / 2, y + tick / 2)


def layout_note(parts: Sequence[ChartPart]) -> str:
    """'A3 横向 1 张，字号 19.5 磅' — how the chart prints (its parts, when it is cut in parts)."""
    layout = parts[0].layout
    side = "横向" if layout.page[0] > layout.page[1] else "纵向"
    if len(parts) > 1:
        sizes = sorted({p.layout.size for p in parts})
        size = f"{sizes[0]:g}" if len(sizes) == 1 else f"{sizes[0]:g}–{sizes[-1]:g}"
        sheets = sum(p.layout.sheets for p in parts)
        return (f"A3 横向 {sheets} 张，分 {len(parts)} 部分（每部分一条，沿虚线拼接；最后一部分是决赛和获奖名单），"
                f"字号 {size} 磅")
    return f"A3 {side} {layout.sheets} 张，字号 {layout.size:g} 磅" + ("，沿虚线拼接" if layout.sheets > 1 else "")
