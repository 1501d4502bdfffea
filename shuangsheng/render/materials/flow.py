"""The wording markup (`shuangsheng.render.materials.wording`) and the tables documents add to it, laid out on A4 and drawn straight
on a canvas.

Every document whose text comes from a template is made here: titles, paragraphs (the unmarked kind indented
and justified), signature blocks, asides, gaps, ruled tables (from the template or built by the document, e.g.
the points table of the rule sheet or the rows of the registration form) whose header rows repeat on every page
and never stand alone at a page foot, and blocks kept together on one page. Of reportlab it uses the canvas and
the fonts only, no layout engine: `score` prints its round results after every round and stays quick.

Layout is two passes: the content becomes `Piece`s of known height (each also as it would be set tighter), the
pieces are placed on pages by `pagination` (a table breaks between rows, a long paragraph between lines; a last
page of a few lines refitted or balanced away), and only then is anything drawn, so the footer can say how many
pages there are.
"""

from __future__ import annotations

import functools
import io
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from shuangsheng.render.linebreak import NO_LINE_END
from shuangsheng.render.materials.fonts import Align, FontSet
from shuangsheng.render.materials.page import (
    ASIDE,
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
    Cell,
    Sizes,
    break_lines,
    draw_line,
    new_canvas,
)
from shuangsheng.render.materials.pagination import (
    BOTTOM_Y,
    CAPTION_GAP,
    TOP_Y,
    Draw,
    Lines,
    Piece,
    fitted,
    paginate,
    spaced,
)
from shuangsheng.render.materials.wording import LINE_BREAK, Block, BlockKind, unknown_insert
from shuangsheng.storage.event import Event

LEFT = SIDE + FRAME_PADDING
WIDTH = PAGE[0] - SIDE - RIGHT - 2 * FRAME_PADDING
SHEET_INSET = 0.5  # a sheet without a footer (a score card) uses the page up to this close to the margins
ROOM = TOP_Y - BOTTOM_Y  # the height of the text frame
LEAD_IN = ("：", ":")  # a paragraph ending so introduces what follows: a heading, kept with it
HEAD_GAP = 8.0  # below a running head, with a thin rule in it
HEAD_SMALLEST = 10.0
COMPACT_TITLE = 18.0  # a card's title
TIGHT_LEADING = 0.88  # a refitted document's line spacing, as a share of its own (1.45 → 1.28)
TIGHT_PADDING = 0.5  # and its table rows' padding (blank rows to write in keep their height)
TIGHT_ROWS = 0.85  # and the leading of the lines in a table's cells (1.3 → 1.1, the score card's)
TIGHT_SIZE = 0.85  # at last its tables a size smaller (20 → 17 pt), never below the document's table size
JUSTIFY_MOST = 0.04  # em: the most a justified line opens between two characters (unseen; more is letter-spacing)
GLYPH_MIDDLE = 0.38  # a Chinese glyph's middle, above its baseline, in em: lines are centred on it
EM_BELOW = 0.125  # em: a line's em box (what a PDF reader measures) sits this much below its glyphs' middle
EM_SHIFT = EM_BELOW / 2  # em: a cell's lines are centred halfway between their em boxes and their glyphs (as the score
# card's grid sets them): the em boxes half this below the middle, the glyphs as much above it
CELL_CLEAR = 1.5 * mm + 0.15  # the least space between a table cell's em boxes and its rules (to their middle, as a
# typesetter measures; a hair on top of 1.5 mm): a cell's lines are centred on their em boxes
SMALL_TABLE = 6  # a table of this many body rows or fewer is never broken: it goes whole, with its heading
NOTE_GREY = colors.Color(0.42, 0.42, 0.42)  # a note for staff, set apart from what the reader signs

_ids = itertools.count(1)  # tables and keep-together groups: the pieces of one share an id


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


def together(pieces: Sequence[Piece], *, loose: bool = False) -> list[Piece]:
    """The pieces as one group: on a fresh page together when they fit on one; `loose`: unless that would leave
    the page before less than `pagination.FILL_SHARE` filled (then broken as its pieces allow)."""
    group = next(_ids)
    for piece in pieces:
        piece.group = group
        piece.loose = loose
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
        out: list[Piece] = []
        closing = False  # the blocks so far end with a table and the lines closing it
        caption: list[Piece] = []  # the block before, when it is a lead-in ("按组号找桌号：")
        for block in blocks:
            made = self._made(block, inserts or {}, compact, title_size)
            if block.kind is BlockKind.TABLE and caption:  # a table under its caption: on a fresh page with it
                together([*caption, *made])  # when it would break there but fits whole on one, and the caption
                self._caption_again(caption[-1], made)  # again, with （续）, on the pages it is carried over to
            closing = _closes_table(block, closing)
            if made and closing and block.kind is not BlockKind.TABLE:
                made[0].follows = True  # the line closing a table stays with its last rows
            caption = made if is_lead_in(block) else []
            out += made
        return out

    def _caption_again(self, caption: Piece, rows: Sequence[Piece]) -> None:
        """A table's caption ("按组号找桌号：") repeated above its header on the pages the table continues on, as
        "按组号找桌号（续）："."""
        text = "".join(caption.text[-1]) if caption.text else ""
        if not text or not any(row.header for row in rows):
            return
        stem = text.rstrip().rstrip("".join(LEAD_IN))
        again = replace(self.paragraph(f"{stem}（续）{text.rstrip()[len(stem):]}")[-1], keep=True)
        again.after = max(again.after, CAPTION_GAP)
        for row in rows:
            if row.header:
                row.header = [again, *row.header]

    def _made(self, block: Block, inserts: Mapping[str, Insert], compact: bool, title_size: float) -> list[Piece]:
        """One block's pieces (`markup`'s)."""
        if block.kind is BlockKind.INSERT:
            if block.name not in inserts:
                raise unknown_insert(block, list(inserts))
            return list(inserts[block.name](block.args))
        if compact and block.kind in (BlockKind.TITLE, BlockKind.PLAIN, BlockKind.BODY):
            return self._compact(block, title_size)
        return self._block(block)

    def _block(self, block: Block) -> list[Piece]:
        s = self.sizes
        if block.kind is BlockKind.TITLE:
            lines = [ln for hard in block.lines for ln in break_lines(self.fonts, hard, s.title, [WIDTH])]
            return [self.lines(lines, s.title, 1.45, align=Align.CENTRE, after=s.title * 0.6, keep=True)]
        if block.kind in (BlockKind.PLAIN, BlockKind.BODY):
            pieces = self.paragraph(block.text, block.kind)
            if is_lead_in(block):  # a lead-in ("轮空：", "执行口径：") stays with what follows
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
        """PLAIN: left-aligned body text; BODY: first line indented, justified. A `{{ br }}` in it starts a new line
        of the same paragraph (two sentences kept together, as the draw's seed and how to check it)."""
        s = self.sizes
        body = kind is BlockKind.BODY
        indent = 2 * s.body if body else 0.0
        lines = [line for k, hard in enumerate(text.split(LINE_BREAK))
                 for line in break_lines(self.fonts, hard, s.body, [WIDTH - indent if k == 0 else WIDTH, WIDTH], who,
                                         squeeze=True, hang=FRAME_PADDING)] or [""]
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
        of every later page; a table of `SMALL_TABLE` body rows or fewer never breaks. Text is vertically centred; a Cell's `align` is centre, left, or auto (a body cell
        centred while no body cell of its column takes several lines, else from the left as they are; a header
        cell centred when it takes one line). `row_height`: the least height of every body row; `pen_height`: of blank body rows."""
        size = max(size or self.sizes.table, self.sizes.table)
        small = max(round(size * TIGHT_SIZE * 2) / 2, self.sizes.table)  # the last resort of a refit
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
            least = 0.0 if header else max(row_height or 0.0, 0.0 if any(c.text for c in cells) else pen_height or 0.0)
            rule = header_rule and r == header_rows - 1

            def drawn(size: float, pad: tuple[float, float], spacing: float, laid: list | None = None, cells=cells,
                      least=least, header=header, rule=rule) -> tuple[float, Draw, Lines]:
                laid = laid or self._lay_row(cells, edges, size, header, several)  # at another size: broken anew
                lead = size * spacing
                height = max(row_height_for(max(len(lines) for lines, _ in laid), size, lead, pad), least)
                return height, self._row(laid, edges, size, lead, header, height, rule), _texts(laid)

            laid = _aligned(cells, row_lines, header, several)
            height, draw, text = drawn(size, padding, 1.3, laid)
            tight = (padding[0] * TIGHT_PADDING, padding[1] * TIGHT_PADDING), 1.3 * TIGHT_ROWS
            few = len(grid) - header_rows <= SMALL_TABLE and r < len(grid) - 1  # kept with the next row
            pieces.append(Piece(height, draw, keep=header or few, table=table, text=text,
                                tighter=functools.partial(_first_two, functools.partial(drawn, size, *tight, laid)),
                                smaller=functools.partial(drawn, small, *tight) if small < size else None))
        headers = pieces[:header_rows]
        for piece in pieces[header_rows + 1:]:
            piece.header = headers
        if pieces:
            pieces[-1].after = after
        return pieces

    def _lay_row(self, cells: Sequence[Cell], edges: Sequence[float], size: float, header: bool,
                 several: set[int]) -> list[tuple[list[str], bool]]:
        """Each cell's lines at `size` in its column (a short row: blank after), and whether they are centred."""
        lines = [self._cell_lines(cell, size, right - left - 2 * CELL_PADDING)
                 for cell, (left, right) in zip(cells, itertools.pairwise(edges), strict=False)]
        return _aligned(cells, lines, header, several)

    def _cell_lines(self, cell: Cell, size: float, inner: float) -> list[str]:
        """A cell's lines at `inner` width (its hard breaks kept)."""
        hard = cell.text.replace(LINE_BREAK, "\n").split("\n")
        return [ln for part in hard for ln in break_lines(self.fonts, part, size, [inner], cell.who, squeeze=True)]

    # --- the page ---

    def room_left(self, pieces: Sequence[Piece]) -> float:
        """The height left on the last page below `pieces` (what a form can fill with blank rows)."""
        probe = Piece(0.0, _nothing)  # where the next piece would go: a trailing gap may have opened a page
        pages = paginate([*spaced(pieces), probe], self.bottom, self.top, self.top - self.head_height(None))
        probe_top = next(top for piece, top in pages[-1] if piece is probe)
        return max(probe_top - self.bottom, 0.0)

    def pages(self, pieces: Sequence[Piece], running: str | None = None, *,
              fit: bool = True) -> list[list[tuple[Piece, float]]]:
        """The pieces placed on pages, as `pdf` draws them: (piece, top) per page. Continuation pages start
        below the running head; a last page that would hold only a few lines is avoided by refitting the document
        onto a page fewer or balancing its last pages (`pagination.fitted`). Without `fit`, placed as they come."""
        heads = [running or "", *(f"{running or ''}　{p.section}" for p in pieces if p.section)]
        later = self.top - max(self.head_height(head) for head in heads)
        pieces = spaced(pieces)
        if fit:
            return fitted(pieces, self.bottom, self.top, later)
        return paginate(pieces, self.bottom, self.top, later)

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
             header: bool, height: float, rule: bool) -> Draw:

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
                y = cell_baseline(top - height / 2, len(lines), size, leading)
                for i, line in enumerate(lines):
                    self._cell_line(canvas, left + CELL_PADDING, y - i * leading, line, size,
                                    right - left - 2 * CELL_PADDING, centred)

        return draw

    def _cell_line(self, canvas: Canvas, x: float, y: float, line: str, size: float, width: float,
                   centred: bool) -> None:
        """One line of a cell in `width` from `x`: a line pressed to fit keeps an opening mark at its start where it
        is set (pressing it would move it into the padding), its other marks taking up the pressing."""
        fonts = self.fonts
        if len(line) > 1 and line[0] in NO_LINE_END and fonts.width(line, size) > width:
            mark = fonts.width(line[0], size)
            fonts.draw(canvas, x, y, line[0], size)
            draw_line(fonts, canvas, x + mark, y, line[1:], size, width - mark)
            return
        draw_line(fonts, canvas, x, y, line, size, width, align=Align.CENTRE if centred else Align.LEFT)


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


def is_lead_in(block: Block) -> bool:
    """A paragraph introducing what follows (ending in a colon: "轮空：", "按组号找桌号：")."""
    return block.kind in (BlockKind.PLAIN, BlockKind.BODY) and block.text.rstrip().endswith(LEAD_IN)


def _closes_table(block: Block, closing: bool) -> bool:
    """Whether `block` is a table or a line closing the one above it ("晋级下一轮（4组）：…" right under the
    table, after `closing` blocks): a paragraph with no gap between, not itself a lead-in to what follows."""
    if block.kind is BlockKind.TABLE:
        return True
    return closing and block.kind in (BlockKind.PLAIN, BlockKind.BODY) and not is_lead_in(block)


def _first_two(lay: Callable[[], tuple[float, Draw, Lines]]) -> tuple[float, Draw]:
    height, draw, _ = lay()
    return height, draw


def _texts(laid: Sequence[tuple[Sequence[str], bool]]) -> Lines:
    return tuple(tuple(lines) for lines, _ in laid)


def _nothing(canvas: Canvas, top: float) -> None:
    pass


def row_height_for(count: int, size: float, leading: float, padding: tuple[float, float]) -> float:
    """The height of a table row whose tallest cell has `count` lines: the lines with their `padding`, and never
    less than their em boxes `CELL_CLEAR` clear of both rules (with the half of `EM_BELOW` they sit off centre)."""
    ems = (count - 1) * leading + size
    return max(count * leading + sum(padding), ems + 2 * CELL_CLEAR + EM_SHIFT * size)


def cell_baseline(middle: float, count: int, size: float, leading: float) -> float:
    """The first baseline of `count` lines centred on `middle` halfway between their em boxes and their glyphs (as
    the score card's grid sets them): the em boxes as far from the rule above as from the rule below, less a
    sixteenth of an em lower, their glyphs as much higher."""
    ems = (count - 1) * leading + size
    em_top = middle + ems / 2 - EM_SHIFT / 2 * size
    return em_top - (GLYPH_MIDDLE - EM_BELOW + 0.5) * size


def baseline(top: float, leading: float, size: float) -> float:
    """Where a line of `size` goes in a line box of `leading` whose top is at `top`: its glyphs centred."""
    return top - leading / 2 - GLYPH_MIDDLE * size


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


def _aligned(cells: Sequence[Cell], lines: Sequence[list[str]], header: bool,
             several: set[int]) -> list[tuple[list[str], bool]]:
    """Each cell's lines and whether they are centred: an AUTO body cell centred while no body cell of its column
    takes several lines (`several`: the columns where one does), a header cell while it takes one line."""
    laid = []
    for c, (cell, cell_lines) in enumerate(zip(cells, lines, strict=False)):
        auto = len(cell_lines) <= 1 if header else c not in several
        laid.append((cell_lines or [""], cell.align is Align.CENTRE or (cell.align is Align.AUTO and auto)))
    return laid
