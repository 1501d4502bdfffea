"""The wording markup (`materials.wording`) laid out on A4 and drawn straight on a canvas, without platypus.

`score` prints its round results after every round; importing platypus and laying the page out through it cost
more than reading the round's workbook. This module draws the same markup in the same house style: titles,
paragraphs (the unmarked kind indented and justified), signature blocks, asides, gaps and ruled tables whose
header rows repeat on every page. A document built here has no inserts (`@…` is refused, naming the line).

Layout is two passes: the blocks become pieces of known height, the pieces are placed on pages (a table breaks
between rows, a long paragraph between lines), and only then is anything drawn, so the footer can say how
many pages there are.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from materials.fonts import FontSet
from materials.page import (
    ASIDE,
    BOTTOM,
    CELL_PADDING,
    FOOTER_Y,
    FRAME_PADDING,
    INK,
    LARGE,
    PAGE,
    REGULAR,
    RIGHT,
    RULE,
    SHADE,
    SIDE,
    TOP,
    Sizes,
    break_lines,
    new_canvas,
    no_orphan,
)
from materials.wording import LINE_BREAK, Block, blocks, table_spec, unknown_insert
from scoring.event import Event

LEFT = SIDE + FRAME_PADDING
WIDTH = PAGE[0] - SIDE - RIGHT - 2 * FRAME_PADDING
TOP_Y = PAGE[1] - TOP - FRAME_PADDING
BOTTOM_Y = BOTTOM + FRAME_PADDING
GLYPH_MIDDLE = 0.38  # a Chinese glyph's middle, above its baseline, in em: lines are centred on it
CELL_TOP, CELL_BOTTOM = 4.0, 5.0  # table cell padding above and below the text


Draw = Callable[[Canvas, float], None]  # draws a piece with its top edge at the given y


@dataclass
class Piece:
    """Something of fixed height placed whole on one page. `gap`: dropped at the top of a page. `table`: the
    table this row belongs to (its frame is drawn around its rows on each page) and `header`: that table's
    header rows, repeated when a page starts with this row."""

    height: float
    draw: Draw
    after: float = 0.0
    gap: bool = False
    table: int | None = None
    header: list[Piece] = field(default_factory=list)


def sizes(event: Event) -> Sizes:
    """The type sizes `[print] large` asks for."""
    return LARGE if event.print.large_print else REGULAR


def flow_pdf(lines: Sequence[str], fonts: FontSet, sizes: Sizes, *, title: str, invariant: bool) -> bytes:
    """The rendered template `lines` as an A4 PDF with a '第N页  共M页' footer when it runs to several pages."""
    pieces = [piece for block in blocks(lines) for piece in _pieces(block, fonts, sizes)]
    pages = _paginate(pieces)
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, fonts, title=title, invariant=invariant)
    for number, placed in enumerate(pages, start=1):
        canvas.setFillColor(INK)
        canvas.setStrokeColor(INK)
        frames: dict[int, list[float]] = {}
        for piece, top in placed:
            piece.draw(canvas, top)
            if piece.table is not None:
                span = frames.setdefault(piece.table, [top, top - piece.height])
                span[1] = top - piece.height
        canvas.setLineWidth(1.6)  # each table's outer frame, around its rows on this page
        for first, last in frames.values():
            canvas.rect(LEFT, last, WIDTH, first - last, stroke=1, fill=0)
        if len(pages) > 1:
            canvas.setFillColor(INK)
            fonts.draw(canvas, PAGE[0] / 2, FOOTER_Y, f"第{number}页  共{len(pages)}页", sizes.note, align="centre")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _paginate(pieces: Sequence[Piece]) -> list[list[tuple[Piece, float]]]:
    pages: list[list[tuple[Piece, float]]] = [[]]
    y = TOP_Y
    for piece in pieces:
        if piece.gap and not pages[-1]:
            continue
        if y - piece.height < BOTTOM_Y and pages[-1]:
            pages.append([])
            y = TOP_Y
            if piece.gap:
                continue
            for row in piece.header:  # a table carried over: its header again
                pages[-1].append((row, y))
                y -= row.height
        pages[-1].append((piece, y))
        y -= piece.height + piece.after
    return [page for page in pages if page] or [[]]


# --- blocks into pieces ----------------------------------------------------------------------------------------


def _pieces(block: Block, fonts: FontSet, sizes: Sizes) -> list[Piece]:
    text = block.lines[0] if block.lines else ""
    if block.kind == "title":
        lines = [ln for hard in block.lines for ln in break_lines(fonts, hard, sizes.title, [WIDTH])]
        return [_text(fonts, lines, sizes.title, 1.45, align="centre", after=sizes.title * 0.6)]
    if block.kind == "plain":
        lines = no_orphan(break_lines(fonts, text, sizes.body, [WIDTH])) or [""]
        return _paragraph(fonts, lines, sizes.body, after=sizes.body * 0.12)
    if block.kind == "body":
        indent = 2 * sizes.body
        lines = no_orphan(break_lines(fonts, text, sizes.body, [WIDTH - indent, WIDTH])) or [""]
        return _paragraph(fonts, lines, sizes.body, after=sizes.body * 0.12, indent=indent, justify=True)
    if block.kind == "gap":
        return [Piece(sizes.body * 0.8, lambda canvas, top: None, gap=True)]
    if block.kind == "signature":
        return [_signature(fonts, block.lines, sizes.body)]
    if block.kind == "aside":
        return [_aside(fonts, text, sizes)]
    if block.kind == "table":
        return _table(fonts, block.lines, sizes)
    raise unknown_insert(text, ())


def _baseline(top: float, leading: float, size: float) -> float:
    return top - leading / 2 - GLYPH_MIDDLE * size


def _text(fonts: FontSet, lines: Sequence[str], size: float, spacing: float, *, align: str = "left",
          after: float = 0.0, indent: float = 0.0, justify: bool = False, ends: bool = True, x: float = LEFT,
          width: float = WIDTH) -> Piece:
    """Lines of one size drawn one under the other. `indent` moves the first line in; `justify` stretches the
    lines to `width`, all but the paragraph's last (this piece's last line, when it `ends` the paragraph)."""
    leading = size * spacing
    lines = list(lines)

    def draw(canvas: Canvas, top: float) -> None:
        for i, line in enumerate(lines):
            y = _baseline(top - i * leading, leading, size)
            left = x + (indent if i == 0 else 0.0)
            if align == "centre":
                fonts.draw(canvas, x + width / 2, y, line, size, align="centre")
            elif justify and len(line) > 1 and not (ends and i == len(lines) - 1):
                spare = max(x + width - left - fonts.width(line, size), 0.0)
                fonts.draw(canvas, left, y, line, size, char_space=spare / (len(line) - 1))
            else:
                fonts.draw(canvas, left, y, line, size)

    return Piece(leading * len(lines), draw, after=after)


def _paragraph(fonts: FontSet, lines: Sequence[str], size: float, *, after: float, indent: float = 0.0,
               justify: bool = False) -> list[Piece]:
    """A paragraph whole on one page; a long one (a third of a page or more) may break between its lines,
    keeping at least two lines on each side of the break."""
    leading = size * 1.45
    if len(lines) * leading < (TOP_Y - BOTTOM_Y) / 3 or len(lines) < 4:
        return [_text(fonts, lines, size, 1.45, after=after, indent=indent, justify=justify)]
    chunks = [lines[:2], *([line] for line in lines[2:-2]), lines[-2:]]
    return [
        _text(fonts, chunk, size, 1.45, indent=indent if k == 0 else 0.0, justify=justify,
              ends=k == len(chunks) - 1, after=after if k == len(chunks) - 1 else 0.0)
        for k, chunk in enumerate(chunks)
    ]


def _signature(fonts: FontSet, lines: Sequence[str], size: float) -> Piece:
    """落款: a block at the right margin, its lines centred on each other (organiser over date)."""
    width = max(fonts.width(line, size) for line in lines) + 2 * size
    return _text(fonts, lines, size, 1.45, align="centre", after=size * 0.5, x=LEFT + WIDTH - width, width=width)


def _aside(fonts: FontSet, text: str, sizes: Sizes) -> Piece:
    """A 补充说明: indented, on a light tint with a rule at its left."""
    size, indent = sizes.note, 2 * sizes.body
    x, width = LEFT + indent, WIDTH - indent
    inner_left, inner_right = CELL_PADDING + 3, CELL_PADDING
    lines = no_orphan(break_lines(fonts, text, size, [width - inner_left - inner_right - 3])) or [""]
    body = _text(fonts, lines, size, 1.5, x=x + inner_left, width=width - inner_left - inner_right)
    height = body.height + 3 + 5

    def draw(canvas: Canvas, top: float) -> None:
        canvas.setFillColor(ASIDE)
        canvas.rect(x, top - height, width, height, stroke=0, fill=1)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(3)
        canvas.line(x + 1.5, top - height, x + 1.5, top)
        canvas.setFillColor(INK)
        body.draw(canvas, top - 3)

    return Piece(height, draw, after=sizes.body * 0.4)


_tables = itertools.count(1)  # an id for each table laid out in this process (the rows of one table share it)


def _table(fonts: FontSet, rows: Sequence[str], sizes: Sizes) -> list[Piece]:
    """A ruled table: each row a piece; single-line cells centred, wrapped ones left-aligned, all vertically
    centred; the header rows shaded and repeated on every page, and never left alone at the foot of one."""
    spec = table_spec(rows)
    size = max(spec.size or sizes.table, sizes.table)
    leading = size * 1.3
    widths = [w * WIDTH for w in spec.widths]
    edges = [LEFT + sum(widths[:i]) for i in range(len(widths) + 1)]
    table = next(_tables)
    pieces: list[Piece] = []
    for header, texts in spec.rows:
        cells = []
        for text, width in zip(texts, widths):
            inner = width - 2 * CELL_PADDING
            lines = [ln for hard in text.split(LINE_BREAK)
                     for ln in no_orphan(break_lines(fonts, hard, size, [inner]))] or [""]
            cells.append(lines)
        height = max(len(lines) for lines in cells) * leading + CELL_TOP + CELL_BOTTOM
        if spec.pen_height and not header and not any(texts):
            height = max(height, spec.pen_height * mm)
        pieces.append(Piece(height, _row(fonts, cells, edges, size, leading, header, height), table=table))
    headers, body = pieces[: spec.header_rows], pieces[spec.header_rows:]
    if headers and body:  # the header goes with the first row (a page never ends on a lone header) …
        first = body[0]
        body[0] = Piece(sum(p.height for p in headers) + first.height, _stacked([*headers, first]), table=table)
        for piece in body[1:]:  # … and comes again above the first row of every later page
            piece.header = headers
        pieces = body
    pieces[-1].after = sizes.body * 0.5
    return pieces


def _stacked(pieces: Sequence[Piece]) -> Draw:
    def draw(canvas: Canvas, top: float) -> None:
        for piece in pieces:
            piece.draw(canvas, top)
            top -= piece.height

    return draw


def _row(fonts: FontSet, cells: Sequence[Sequence[str]], edges: Sequence[float], size: float, leading: float,
         header: bool, height: float) -> Draw:
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
        for lines, left, right in zip(cells, edges, edges[1:]):
            first = top - (height - len(lines) * leading + CELL_TOP - CELL_BOTTOM) / 2  # vertically centred
            for i, line in enumerate(lines):
                y = _baseline(first - i * leading, leading, size)
                if len(lines) == 1:
                    fonts.draw(canvas, (left + right) / 2, y, line, size, align="centre")
                else:
                    fonts.draw(canvas, left + CELL_PADDING, y, line, size)

    return draw
