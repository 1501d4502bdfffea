"""The wording markup (`shuangsheng.render.materials.wording`) and the tables documents add to it, laid out on A4 and drawn straight
on a canvas.

Every document whose text comes from a template is made here: titles, paragraphs (the unmarked kind indented
and justified), signature blocks, asides, gaps, ruled tables (from the template or built by the document, e.g.
the points table of the rule sheet or the rows of the registration form) whose header rows repeat on every page
and never stand alone at a page foot, and blocks kept together on one page. Of reportlab it uses the canvas and
the fonts only, no layout engine: `score` prints its round results after every round and stays quick.

Layout is two passes: the content becomes `Piece`s of known height, the pieces are placed on pages (a table
breaks between rows, a long paragraph between lines), and only then is anything drawn, so the footer can say how
many pages there are.
"""

from __future__ import annotations

import functools
import io
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from shuangsheng.render.materials.fonts import Align, FontSet
from shuangsheng.render.materials.page import (
    ASIDE,
    BOTTOM,
    CELL_PADDING,
    FOOTER_Y,
    FRAME_PADDING,
    INK,
    LARGE,
    MARGIN,
    PAGE,
    REGULAR,
    RIGHT,
    RULE,
    SHADE,
    SIDE,
    TOP,
    Cell,
    Sizes,
    break_lines,
    draw_line,
    new_canvas,
)
from shuangsheng.render.materials.wording import LINE_BREAK, Block, BlockKind, unknown_insert
from shuangsheng.storage.event import Event

LEFT = SIDE + FRAME_PADDING
WIDTH = PAGE[0] - SIDE - RIGHT - 2 * FRAME_PADDING
TOP_Y = PAGE[1] - TOP - FRAME_PADDING
BOTTOM_Y = BOTTOM + FRAME_PADDING  # above the page footer
SHEET_INSET = 0.5  # a sheet without a footer (a score card) uses the page up to this close to the margins
ROOM = TOP_Y - BOTTOM_Y  # the height of the text frame
LEAD_IN = ("：", ":")  # a paragraph ending so introduces what follows: a heading, kept with it
HEAD_GAP = 8.0  # below a running head, with a thin rule in it
HEAD_SMALLEST = 10.0
COMPACT_TITLE = 18.0  # a card's title
TIGHT_LEADING = 0.88  # a refitted document's line spacing, as a share of its own (1.45 → 1.28)
TIGHT_PADDING = 0.5  # and its table rows' padding (blank rows to write in keep their height)
TIGHT_ROWS = 0.9  # and the leading of the lines in a table's cells (1.3 → 1.17)
FIT_SHARE = 0.4  # a last page holding less than this share of a page is avoided by fitting, where that can be
JUSTIFY_MOST = 0.04  # em: the most a justified line opens between two characters (unseen; more is letter-spacing)
GLYPH_MIDDLE = 0.38  # a Chinese glyph's middle, above its baseline, in em: lines are centred on it
CAPTION_GAP = 2.2 * mm  # the least space between a table and a line of text above or below it (a caption, a heading,
# the 轮空 line): with the lines' own leading the reader sees 2 mm or more, however tightly a document is refitted
NOTE_GREY = colors.Color(0.42, 0.42, 0.42)  # a note for staff, set apart from what the reader signs

Draw = Callable[[Canvas, float], None]  # draws a piece with its top edge at the given y
_ids = itertools.count(1)  # tables and keep-together groups: the pieces of one share an id


@dataclass
class Piece:
    """Something of fixed height placed whole on one page, followed by `after` points of space. `gap`: dropped at
    the top of a page. `keep`: no page break between this piece and the next. `group`: the pieces of one group
    start a fresh page together when they would not fit below (and fit on one page). `new_page`: starts one
    (and is not drawn). `table`: the table this row belongs to (its frame is drawn around its rows on each page);
    `header`: that table's header rows, drawn again above this row when it starts a page. `text`: the lines
    as laid out (a paragraph's, or each cell's), for the typesetting checks. `tighter`: (height, draw) of the
    same lines set tighter, for a document refitted onto a page fewer. `section`: the part of the document
    this heading opens; a continuation page within it says so in its running head."""

    height: float
    draw: Draw
    after: float = 0.0
    gap: bool = False
    keep: bool = False
    group: int | None = None
    new_page: bool = False
    table: int | None = None
    header: list[Piece] = field(default_factory=list)
    text: tuple[tuple[str, ...], ...] = ()  # the lines it prints, per paragraph or cell (what tests check)
    tighter: Callable[[], tuple[float, Draw]] | None = None  # the piece set tighter (smaller leading or padding)
    section: str | None = None  # a heading: the part it opens ("第2轮"), named on continuation pages after it


Insert = Callable[[tuple[str, ...]], Sequence[Piece]]  # what a document draws at `@name a | b`, given (a, b)


def sizes(event: Event) -> Sizes:
    """The type sizes `[print] large` asks for."""
    return LARGE if event.print.large_print else REGULAR


def flow_pdf(blocks: Sequence[Block], fonts: FontSet, sizes: Sizes, *, title: str, invariant: bool,
             running: str | None = None) -> bytes:
    """A rendered template's `blocks` (no inserts) as an A4 PDF; `running`: the running head of later pages
    (the title by default)."""
    flow = Flow(fonts, sizes)
    return flow.pdf(flow.markup(blocks), title=title, invariant=invariant, running=running)


def together(pieces: Sequence[Piece]) -> list[Piece]:
    """The pieces as one group: on a fresh page together when they fit on one."""
    group = next(_ids)
    for piece in pieces:
        piece.group = group
    return list(pieces)


class Flow:
    """Pieces in the house style for one document's fonts and sizes, and the PDF they make. `footer`: the page
    number at the foot of a document of several pages; without it (sheets that are each a document of their
    own, as score cards) the text reaches down to the margin."""

    def __init__(self, fonts: FontSet, sizes: Sizes, *, footer: bool = True):
        self.fonts = fonts
        self.sizes = sizes
        self.footer = footer
        self.top = TOP_Y if footer else PAGE[1] - MARGIN - SHEET_INSET
        self.bottom = BOTTOM_Y if footer else MARGIN + SHEET_INSET

    # --- the markup ---

    def markup(self, blocks: Sequence[Block], inserts: Mapping[str, Insert] | None = None, *,
               compact: bool = False, title_size: float = COMPACT_TITLE) -> list[Piece]:
        """The pieces of a rendered template; each `@name` insert is replaced by what `inserts[name](args)`
        makes. `compact`: titles (at `title_size`) and paragraphs set tighter than in a letter (a score card,
        a playoff slip)."""
        inserts = inserts or {}
        out: list[Piece] = []
        for block in blocks:
            if block.kind is BlockKind.INSERT:
                if block.name not in inserts:
                    raise unknown_insert(block, list(inserts))
                out += inserts[block.name](block.args)
            elif compact and block.kind in (BlockKind.TITLE, BlockKind.PLAIN, BlockKind.BODY):
                out += self._compact(block, title_size)
            else:
                out += self._block(block)
        return out

    def _block(self, block: Block) -> list[Piece]:
        s = self.sizes
        if block.kind is BlockKind.TITLE:
            lines = [ln for hard in block.lines for ln in break_lines(self.fonts, hard, s.title, [WIDTH])]
            return [self.lines(lines, s.title, 1.45, align=Align.CENTRE, after=s.title * 0.6, keep=True)]
        if block.kind in (BlockKind.PLAIN, BlockKind.BODY):
            pieces = self.paragraph(block.text, block.kind)
            if block.text.rstrip().endswith(LEAD_IN):  # a lead-in ("轮空：", "执行口径：") stays with what follows
                pieces[-1].keep = True
            return pieces
        if block.kind is BlockKind.GAP:
            return [self.space(s.body * 0.8)]
        if block.kind is BlockKind.SIGNATURE:  # a long organiser name wraps inside the text width
            lines = [ln for text in block.lines for ln in break_lines(self.fonts, text, s.body, [WIDTH - 2 * s.body])]
            width = max(self.fonts.width(line, s.body) for line in lines) + 2 * s.body
            return [self.lines(lines, s.body, 1.45, align=Align.CENTRE, after=s.body * 0.5,
                               x=LEFT + WIDTH - width, width=width)]
        if block.kind is BlockKind.ASIDE:
            return [self._aside(block.text)]
        spec = block.table
        assert spec is not None  # a TABLE block always carries its table
        rows = [[Cell(cell, align=Align.AUTO) for cell in cells] for _, cells in spec.rows]
        return self.table(rows, spec.widths, header_rows=spec.header_rows, size=spec.size,
                          pen_height=spec.pen_height * mm if spec.pen_height else None, padding=(4, 5),
                          header_rule=False, after=s.body * 0.5)

    def _compact(self, block: Block, title: float = COMPACT_TITLE) -> list[Piece]:
        """A card's or slip's title (18 pt unless `title`) and lines of text (14 pt, from the left), each
        followed by 2 pt."""
        if block.kind is BlockKind.TITLE:
            return [self.lines(break_lines(self.fonts, line, title, [WIDTH]), title, 20 / 18, align=Align.CENTRE,
                               after=2) for line in block.lines]
        return [self.lines(break_lines(self.fonts, block.text, 14, [WIDTH]), 14, 17 / 14, after=2)]

    # --- building blocks, for the documents' own inserts ---

    def space(self, height: float) -> Piece:
        return Piece(height, _nothing, gap=True)

    def page_break(self) -> Piece:
        return Piece(0.0, _nothing, new_page=True)

    def paragraph(self, text: str, kind: BlockKind = BlockKind.PLAIN, *, who: str | None = None) -> list[Piece]:
        """PLAIN: left-aligned body text; BODY: first line indented, justified."""
        s = self.sizes
        body = kind is BlockKind.BODY
        indent = 2 * s.body if body else 0.0
        lines = break_lines(self.fonts, text, s.body, [WIDTH - indent, WIDTH], who, squeeze=True,
                            hang=FRAME_PADDING) or [""]
        return self._lines(lines, s.body, 1.45, after=s.body * 0.12, indent=indent, justify=body)

    def grey_note(self, text: str, size: float) -> Piece:
        """A note for staff in small grey type, from the left (the sign-off sheet's event.toml keys)."""
        lines = self.lines(break_lines(self.fonts, text, size, [WIDTH], squeeze=True) or [""], size, 1.4,
                           after=size * 0.5)
        draw = lines.draw

        def grey(canvas: Canvas, top: float) -> None:
            canvas.setFillColor(NOTE_GREY)
            draw(canvas, top)
            canvas.setFillColor(INK)

        return replace(lines, draw=grey, tighter=None)

    def note(self, text: str, *, who: str | None = None) -> list[Piece]:
        """A paragraph in the smaller size, from the left."""
        s = self.sizes
        lines = break_lines(self.fonts, text, s.note, [WIDTH], who, squeeze=True) or [""]
        return self._lines(lines, s.note, 1.5, after=s.note * 0.12)

    def table(self, rows: Sequence[Sequence[Cell | str]], widths: Sequence[float], *, header_rows: int = 1,
              size: float | None = None, row_height: float | None = None, pen_height: float | None = None,
              padding: tuple[float, float] = (5, 6), header_rule: bool = True, after: float = 0.0) -> list[Piece]:
        """A ruled table at the frame's width (`widths` are fractions of it): each row a piece; the header rows
        shaded (a heavier rule below them with `header_rule`), glued to the first row and drawn again at the top
        of every later page. Text is vertically centred; a Cell's `align` is centre, left, or auto (a body cell
        centred while no body cell of its column takes several lines, else from the left as they are; a header
        cell centred when it takes one line). `row_height`: the least height of every body row; `pen_height`: of blank body rows."""
        size = max(size or self.sizes.table, self.sizes.table)
        leading = size * 1.3
        total = sum(widths)
        edges = [LEFT + WIDTH * sum(widths[:i]) / total for i in range(len(widths) + 1)]
        table = next(_ids)
        pieces: list[Piece] = []
        grid = [[value if isinstance(value, Cell) else Cell(value) for value in row] for row in rows]
        broken = [[self._cell_lines(cell, size, right - left - 2 * CELL_PADDING)
                   for cell, (left, right) in zip(cells, itertools.pairwise(edges), strict=False)]  # short: blank after
                  for cells in grid]
        # AUTO body cells of a column are all centred, or all from the left once any of them takes several lines
        several = {c for row in broken[header_rows:] for c, lines in enumerate(row) if len(lines) > 1}
        for r, (cells, row_lines) in enumerate(zip(grid, broken, strict=True)):
            header = r < header_rows
            laid = []
            for c, (cell, lines) in enumerate(zip(cells, row_lines, strict=False)):
                auto = len(lines) <= 1 if header else c not in several
                centred = cell.align is Align.CENTRE or (cell.align is Align.AUTO and auto)
                laid.append((lines or [""], centred))
            least = 0.0 if header else max(row_height or 0.0, 0.0 if any(c.text for c in cells) else pen_height or 0.0)
            rule = header_rule and r == header_rows - 1

            def drawn(pad: tuple[float, float], lead: float, laid=laid, least=least, header=header,
                      rule=rule) -> tuple[float, Draw]:
                height = max(max(len(lines) for lines, _ in laid) * lead + sum(pad), least)
                return height, self._row(laid, edges, size, lead, header, height, pad, rule)

            height, draw = drawn(padding, leading)
            tight = (padding[0] * TIGHT_PADDING, padding[1] * TIGHT_PADDING), leading * TIGHT_ROWS
            pieces.append(Piece(height, draw, keep=header, table=table, text=tuple(tuple(lines) for lines, _ in laid),
                                tighter=functools.partial(drawn, *tight)))
        headers = pieces[:header_rows]
        for piece in pieces[header_rows + 1:]:
            piece.header = headers
        if pieces:
            pieces[-1].after = after
        return pieces

    def _cell_lines(self, cell: Cell, size: float, inner: float) -> list[str]:
        """A cell's lines at `inner` width (its hard breaks kept)."""
        hard = cell.text.replace(LINE_BREAK, "\n").split("\n")
        return [ln for part in hard for ln in break_lines(self.fonts, part, size, [inner], cell.who, squeeze=True)]

    # --- the page ---

    def room_left(self, pieces: Sequence[Piece]) -> float:
        """The height left on the last page below `pieces` (what a form can fill with blank rows)."""
        probe = Piece(0.0, _nothing)  # where the next piece would go: a trailing gap may have opened a page
        pages = _paginate([*_spaced(pieces), probe], self.bottom, self.top, self.top - self.head_height(None))
        probe_top = next(top for piece, top in pages[-1] if piece is probe)
        return max(probe_top - self.bottom, 0.0)

    def pages(self, pieces: Sequence[Piece], running: str | None = None, *,
              fit: bool = True) -> list[list[tuple[Piece, float]]]:
        """The pieces placed on pages, as `pdf` draws them: (piece, top) per page. Continuation pages start
        below the running head; when the last page would hold only a few lines (less than `FIT_SHARE` of a
        page), the document is refitted onto one page fewer where that is enough: the space between pieces
        halved, then the lines set tighter too (`TIGHT_LEADING`, and tables' `TIGHT_PADDING`, `TIGHT_ROWS`),
        then with a quarter of the space between pieces, then none. Without `fit` (a booklet, whose parts each
        start a page) never refitted."""
        heads = [running or "", *(f"{running or ''}　{p.section}" for p in pieces if p.section)]
        later = self.top - max(self.head_height(head) for head in heads)
        pieces = _spaced(pieces)
        pages = _paginate(pieces, self.bottom, self.top, later)
        if not fit or len(pages) < 2 or _used(pages[-1], later) > FIT_SHARE * (later - self.bottom):
            return pages
        tight = [_tightened(p) for p in pieces]  # set tighter: smaller leading, tables' rows less padded
        for fitted, squeeze in ((pieces, 0.5), (tight, 0.5), (tight, 0.25), (tight, 0.0)):
            tighter = _paginate(_spaced([_squeezed(p, squeeze) for p in fitted]), self.bottom, self.top, later)
            if len(tighter) < len(pages):
                return tighter
        return pages

    def running_head(self, running: str) -> tuple[list[str], float]:
        """The running head of a continuation page: '…（续）' in the note size, down to 10 pt to keep one line."""
        text = f"{running}（续）"
        size = self.sizes.note
        while size > HEAD_SMALLEST and self.fonts.width(text, size) > WIDTH:
            size -= 0.5
        return break_lines(self.fonts, text, size, [WIDTH]), size

    def head_height(self, running: str | None = None) -> float:
        """The height a continuation page gives its running head (one line, unless `running` needs more)."""
        if not self.footer:
            return 0.0
        lines, size = self.running_head(running or "")
        return len(lines) * size * 1.3 + HEAD_GAP

    def pdf(self, pieces: Sequence[Piece], *, title: str, invariant: bool, running: str | None = None,
            page_note: str | None = None) -> bytes:
        """The pieces on A4 pages, with a '第N页  共M页' footer when there are several (and a `footer`), and on
        every page after the first a running head naming the document: `running` (the title by default), the
        section the page continues (a heading piece's `section`, as "第2轮"), and （续）. `page_note`: a line at
        the right of every page's footer (the sign-off sheet's initials)."""
        running = running or title
        pages = self.pages(pieces, running)
        buffer = io.BytesIO()
        canvas = new_canvas(buffer, self.fonts, title=title, invariant=invariant)
        for number, (placed, section) in enumerate(zip(pages, _sections(pages), strict=True), start=1):
            canvas.setFillColor(INK)
            canvas.setStrokeColor(INK)
            if number > 1 and self.footer:
                self.draw_head(canvas, f"{running}　{section}" if section else running)
            draw_placed(canvas, placed)
            if page_note:
                self.fonts.draw(canvas, LEFT + WIDTH, FOOTER_Y, page_note, self.sizes.note, align=Align.RIGHT)
            if len(pages) > 1 and self.footer:
                self.fonts.draw(canvas, PAGE[0] / 2, FOOTER_Y, f"第{number}页  共{len(pages)}页", self.sizes.note,
                                align=Align.CENTRE)
            canvas.showPage()
        canvas.save()
        return buffer.getvalue()

    def draw_head(self, canvas: Canvas, running: str, *, more: bool = True) -> None:
        """The running head over a thin rule: '…（续）' as `running_head` sets it, or without `more` (a booklet's
        page opening a part) the text alone at that size."""
        lines, size = self.running_head(running)
        if not more:
            lines = break_lines(self.fonts, running, size, [WIDTH])
        leading = size * 1.3
        for i, line in enumerate(lines):
            self.fonts.draw(canvas, LEFT + WIDTH / 2, baseline(self.top - i * leading, leading, size), line, size,
                            align=Align.CENTRE)
        rule = self.top - len(lines) * leading - HEAD_GAP / 2
        canvas.setLineWidth(0.6)
        canvas.line(LEFT, rule, LEFT + WIDTH, rule)

    # --- drawing ---

    def lines(self, lines: Sequence[str], size: float, spacing: float, *, align: Align = Align.LEFT, after: float = 0.0,
              indent: float = 0.0, justify: bool = False, ends: bool = True, x: float = LEFT,
              width: float = WIDTH, keep: bool = False) -> Piece:
        """Lines of one size drawn one under the other. `indent` moves the first line in; `justify` closes a
        line up to `width` (all but the paragraph's last, this piece's last line when it `ends` one) where that
        takes no more than a hair between its characters (`JUSTIFY_MOST`); a line short by more (a unit carried
        over whole) stays ragged rather than letter-spaced. A line wider than `width` (its marks pressed) is
        drawn pressed."""
        fonts, lines = self.fonts, list(lines)

        def drawn(leading: float) -> tuple[float, Draw]:
            def draw(canvas: Canvas, top: float) -> None:
                for i, line in enumerate(lines):
                    y = baseline(top - i * leading, leading, size)
                    left = x + (indent if i == 0 else 0.0)
                    room = x + width - left
                    spare = room - fonts.width(line, size)
                    if align is Align.CENTRE:
                        draw_line(fonts, canvas, x, y, line, size, width, align=Align.CENTRE)
                    elif (justify and len(line) > 1 and not (ends and i == len(lines) - 1)
                          and 0 < spare <= JUSTIFY_MOST * size * (len(line) - 1)):
                        fonts.draw(canvas, left, y, line, size, char_space=spare / (len(line) - 1))
                    else:
                        draw_line(fonts, canvas, left, y, line, size, room)

            return leading * len(lines), draw

        height, draw = drawn(size * spacing)
        return Piece(height, draw, after=after, keep=keep, text=(tuple(lines),),
                     tighter=lambda: drawn(size * spacing * TIGHT_LEADING))

    def _lines(self, lines: Sequence[str], size: float, spacing: float, *, after: float, indent: float = 0.0,
               justify: bool = False) -> list[Piece]:
        """A paragraph whole on one page; a long one (a third of a page or more) may break between its lines,
        keeping at least two lines on each side of the break."""
        if len(lines) * size * spacing < ROOM / 3 or len(lines) < 4:
            return [self.lines(lines, size, spacing, after=after, indent=indent, justify=justify)]
        chunks = [lines[:2], *([line] for line in lines[2:-2]), lines[-2:]]
        return [
            self.lines(chunk, size, spacing, indent=indent if k == 0 else 0.0, justify=justify,
                       ends=k == len(chunks) - 1, after=after if k == len(chunks) - 1 else 0.0)
            for k, chunk in enumerate(chunks)
        ]

    def _aside(self, text: str) -> Piece:
        """A 补充说明: indented, on a light tint with a rule at its left."""
        size, indent = self.sizes.note, 2 * self.sizes.body
        x, width = LEFT + indent, WIDTH - indent
        inner_left, inner_right = CELL_PADDING + 3, CELL_PADDING
        lines = break_lines(self.fonts, text, size, [width - inner_left - inner_right - 3], squeeze=True) or [""]
        body = self.lines(lines, size, 1.5, x=x + inner_left, width=width - inner_left - inner_right)
        height = body.height + 3 + 5

        def draw(canvas: Canvas, top: float) -> None:
            canvas.setFillColor(ASIDE)
            canvas.rect(x, top - height, width, height, stroke=0, fill=1)
            canvas.setStrokeColor(RULE)
            canvas.setLineWidth(3)
            canvas.line(x + 1.5, top - height, x + 1.5, top)
            canvas.setFillColor(INK)
            body.draw(canvas, top - 3)

        return Piece(height, draw, after=self.sizes.body * 0.4, text=body.text)

    def _row(self, cells: Sequence[tuple[Sequence[str], bool]], edges: Sequence[float], size: float, leading: float,
             header: bool, height: float, padding: tuple[float, float], rule: bool) -> Draw:
        fonts = self.fonts
        top_pad, bottom_pad = padding

        def draw(canvas: Canvas, top: float) -> None:
            bottom = top - height
            if header:
                canvas.setFillColor(SHADE)
                canvas.rect(edges[0], bottom, edges[-1] - edges[0], height, stroke=0, fill=1)
                canvas.setFillColor(INK)
            canvas.setStrokeColor(RULE)
            canvas.setLineWidth(0.8)
            canvas.rect(edges[0], bottom, edges[-1] - edges[0], height, stroke=1, fill=0)
            for x in edges[1:-1]:
                canvas.line(x, bottom, x, top)
            if rule:
                canvas.setLineWidth(1.6)
                canvas.line(edges[0], bottom, edges[-1], bottom)
            for (lines, centred), (left, right) in zip(cells, itertools.pairwise(edges), strict=False):
                first = top - (height - len(lines) * leading + top_pad - bottom_pad) / 2  # vertically centred
                for i, line in enumerate(lines):
                    y = baseline(first - i * leading, leading, size)
                    draw_line(fonts, canvas, left + CELL_PADDING, y, line, size, right - left - 2 * CELL_PADDING,
                              align=Align.CENTRE if centred else Align.LEFT)

        return draw


def draw_placed(canvas: Canvas, placed: Sequence[tuple[Piece, float]]) -> None:
    """One page's pieces, each at its top, and each table's outer frame around its rows on the page."""
    frames: dict[int, list[float]] = {}
    for piece, top in placed:
        piece.draw(canvas, top)
        if piece.table is not None:
            span = frames.setdefault(piece.table, [top, top - piece.height])
            span[1] = top - piece.height
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(1.6)
    for first, last in frames.values():
        canvas.rect(LEFT, last, WIDTH, first - last, stroke=1, fill=0)
    canvas.setFillColor(INK)


def _nothing(canvas: Canvas, top: float) -> None:
    pass


def baseline(top: float, leading: float, size: float) -> float:
    """Where a line of `size` goes in a line box of `leading` whose top is at `top`: its glyphs centred."""
    return top - leading / 2 - GLYPH_MIDDLE * size


def _span(pieces: Sequence[Piece], start: int, more: Callable[[int], bool]) -> tuple[int, float]:
    """(end, height) of the run of pieces from `start` while `more(i)` says the run goes on past piece i."""
    end, height = start, pieces[start].height
    while more(end) and end + 1 < len(pieces):
        height += pieces[end].after + pieces[end + 1].height
        end += 1
    return end, height


def _in_group(pieces: Sequence[Piece], group: int) -> Callable[[int], bool]:
    """`_span`'s test for a group: the piece after i belongs to `group`."""
    return lambda k: k + 1 < len(pieces) and pieces[k + 1].group == group


def _used(placed: Sequence[tuple[Piece, float]], top: float) -> float:
    """How far down a page its pieces reach, from `top`."""
    return max((top - (y - piece.height) for piece, y in placed), default=0.0)


def _squeezed(piece: Piece, factor: float) -> Piece:
    """The piece with the space after it (and a gap's own height) scaled by `factor`."""
    height = piece.height * factor if piece.gap else piece.height
    return replace(piece, height=height, after=piece.after * factor)


def _sections(pages: Sequence[Sequence[tuple[Piece, float]]]) -> list[str | None]:
    """Per page, the section it continues: the last one opened on the pages before, unless the page opens
    one itself at its top (its heading says it)."""
    out: list[str | None] = []
    current = None
    for placed in pages:
        first = next((piece for piece, _ in placed if not piece.gap), None)
        out.append(None if first is not None and first.section else current)
        current = next((piece.section for piece, _ in reversed(placed) if piece.section), current)
    return out


def _tightened(piece: Piece) -> Piece:
    """The piece set tighter, where it can be (its repeated header rows too)."""
    header = [_tightened(row) for row in piece.header]
    if piece.tighter is None:
        return replace(piece, header=header) if header else piece
    height, draw = piece.tighter()
    return replace(piece, height=height, draw=draw, header=header, tighter=None)


def _spaced(pieces: Sequence[Piece]) -> list[Piece]:
    """The pieces, with at least `CAPTION_GAP` after a table and after the text straight above a table (set on
    the pieces themselves: they are placed as they are)."""
    for a, b in itertools.pairwise(pieces):
        edge = (a.table is None) != (b.table is None) and not (a.gap or b.gap or a.new_page or b.new_page)
        if edge and a.height > 0 and b.height > 0 and a.after < CAPTION_GAP:
            a.after = CAPTION_GAP
    return list(pieces)


def _paginate(pieces: Sequence[Piece], bottom: float = BOTTOM_Y, top: float = TOP_Y,
              later: float | None = None) -> list[list[tuple[Piece, float]]]:
    """(piece, top) per page; `later`: where the pages after the first begin (below a running head)."""
    later = top if later is None else later
    pages: list[list[tuple[Piece, float]]] = [[]]
    y = top
    group = None
    for i, piece in enumerate(pieces):
        if piece.new_page:
            if pages[-1]:
                pages.append([])
                y = later
            continue
        if piece.gap and not pages[-1]:
            continue
        _, need = _span(pieces, i, lambda k: pieces[k].keep)  # kept with the pieces after it
        if piece.group is not None and piece.group != group:  # a group starts: all of it, where it fits whole
            group = piece.group
            _, whole = _span(pieces, i, _in_group(pieces, group))
            if whole <= later - bottom:
                need = max(need, whole)
        if need > later - bottom:
            need = piece.height
        if y - need < bottom and pages[-1]:
            pages.append([])
            y = later
            if piece.gap:
                continue
            if sum(row.height for row in piece.header) + piece.height <= later - bottom:  # a table carried over:
                for row in piece.header:  # its header again, unless the row would then not fit the page
                    pages[-1].append((row, y))
                    y -= row.height
        pages[-1].append((piece, y))
        y -= piece.height + piece.after
    return [page for page in pages if page] or [[]]
