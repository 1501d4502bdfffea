"""The card's ruled grids and the text that fits their boxes, drawn on reportlab's canvas: `Grid` (cells with
their text `PAD` clear of the rules, ticks, rings), `cell_text`, `row_height`, `team_lines`, and the grids as flow
`Piece`s (`grid_piece`, `stamp`: the same grid on every card, drawn once into a form). Used by the score card and
the playoff slip (`shuangsheng.render.materials.paper`)."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reportlab.lib.units import mm

from shuangsheng.render.materials.flow import GLYPH_MIDDLE, SHEET_INSET, Piece, baseline
from shuangsheng.render.materials.fonts import Align, FontSet
from shuangsheng.render.materials.page import INK, MARGIN, PAGE, RULE, SHADE, break_lines

RING_ROOM = 1.5  # between the ringed level's glyphs and the box the ring is drawn around (the ring passes √2 out)
RING_INSET = 1.7 * mm  # between the ring and its cell's rules: at least 1 mm once both lines' widths are taken off
DIGIT_HEIGHT = 0.74  # em: the height of a level's glyphs (digits, capitals) the ring encloses
CARD_TEXT = 12.0  # table text on cards and slips (≥ 12 pt)
PAD = 1.55 * mm  # between a cell's rules and its text, on every side: at least 1.5 mm
LEADING = 1.1  # line height of the cards' grids, in em
EM_BELOW = 0.125  # em: a line's em box (what a PDF reader measures) sits this much below its glyphs' middle;
# a cell's lines are centred halfway between the two, and its height leaves PAD clear of the em boxes
TICK = 4.2 * mm  # the side of a box to tick (违规)
# The card's grids reach to the margin (the text frame's padding is the cells' own): wide enough for every header
# on one or two lines at 12 pt with its padding.
CARD_LEFT = MARGIN + SHEET_INSET + 0.8  # the heavy frame's half width inside the margin
CARD_WIDTH = PAGE[0] - 2 * CARD_LEFT


# --- text that fits its box ------------------------------------------------------------------------------------


def team_lines(fonts: FontSet, team: str, players: Sequence[str], width: float, *,
               who: str | None = None) -> tuple[float, list[str]]:
    """A team's 组号 and players in a box `width` wide: one line, shrunk from 15 pt to 12 pt if need be; else two
    lines (组号 | players, or 组号 and the first player | the second player); else wrapped at 12 pt (a taller
    box, never smaller print)."""
    names = "、".join(players)
    one = f"{team}　{names}"
    sizes = [tenths / 10 for tenths in range(150, 119, -5)]
    options = [[one], [team, names]]
    if len(players) == 2:
        options.append([f"{team}　{players[0]}、", players[1]])
    for lines in options:
        for size in sizes:
            if all(fonts.width(line, size, who) <= width - 0.01 for line in lines):
                return size, lines
    return CARD_TEXT, break_lines(fonts, one, CARD_TEXT, [width], who)


def ring_size(fonts: FontSet, text: Text) -> tuple[float, float]:
    """(width, height) of the ellipse enclosing a cell's one-line text (the tied level, "10"): through the corners
    of its glyphs' box with `RING_ROOM` all round, so it clears the digits everywhere."""
    wide = max((fonts.width(line, text.size) for line in text.lines), default=0.0) + 2 * RING_ROOM
    high = DIGIT_HEIGHT * text.size * len(text.lines) + 2 * RING_ROOM
    return wide * 2**0.5, high * 2**0.5


def ringed_width(fonts: FontSet, label: str, size: float = CARD_TEXT) -> float:
    """How wide a cell must be for its `label` ringed with `RING_INSET` to each rule."""
    return ring_size(fonts, Text((label,), size))[0] + 2 * RING_INSET


def signature_grid(fonts: FontSet, labels: Sequence[str], height: float) -> Grid:
    """A row to sign in: each label (甲方签名, 乙方签名, 裁判签名) shaded, then a blank box to write in, the boxes
    sharing what the labels leave of the card's width; `height` at least a pen row."""
    widths = [fonts.width(label, CARD_TEXT) + 2 * PAD + 0.5 for label in labels]
    blank = max(CARD_WIDTH - sum(widths), 0.0) / max(len(labels), 1)
    grid = Grid([w for width in widths for w in (width, blank)], [])
    for i, (label, width) in enumerate(zip(labels, widths, strict=True)):
        grid.cells[(0, 2 * i)] = cell_text(fonts, label, width)
        grid.shaded.append((0, 2 * i, 0, 2 * i))
    grid.heights.append(row_height(list(grid.cells.values()), height))
    return grid


# --- ruled grids drawn on the canvas --------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """What a grid cell says: lines at one size, centred or from the left, for glyph warnings naming `who`."""

    lines: tuple[str, ...]
    size: float = CARD_TEXT
    align: Align = Align.CENTRE
    who: str | None = None


def cell_text(fonts: FontSet, text: str, width: float, *, size: float = CARD_TEXT, align: Align = Align.CENTRE) -> Text:
    return Text(tuple(break_lines(fonts, text, size, [width - 2 * PAD]) or [""]), size, align)


@dataclass
class Grid:
    """A ruled table of fixed column widths and row heights (pt): thin rules between the cells, a heavy frame,
    and what the card needs besides: shaded ranges (row, col, last row, last col), cells spanning several
    columns (`spans`) or rows (`tall`), heavy rules below some rows and before some columns, heavy boxes around
    some ranges (row, col, last row, last col), boxes to tick drawn inside some cells. Text is centred on its
    row (or rows) with at least `PAD` all round."""

    widths: list[float]
    heights: list[float]
    cells: dict[tuple[int, int], Text] = field(default_factory=dict)
    shaded: list[tuple[int, int, int, int]] = field(default_factory=list)
    spans: dict[tuple[int, int], int] = field(default_factory=dict)
    tall: dict[tuple[int, int], int] = field(default_factory=dict)
    heavy_rows: set[int] = field(default_factory=set)  # a heavy rule below these rows
    heavy_columns: set[int] = field(default_factory=set)  # a heavy rule before these columns
    boxed: list[tuple[int, int, int, int]] = field(default_factory=list)
    ringed: set[tuple[int, int]] = field(default_factory=set)  # a ring drawn around these cells' text
    ticks: set[tuple[int, int]] = field(default_factory=set)

    @property
    def height(self) -> float:
        return sum(self.heights)

    def _covered(self) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
        """The cells a wider cell covers (no rule before them) and a taller one (no rule above them)."""
        wide = {(r, c + k) for (r, c), n in self.spans.items() for k in range(1, n)}
        high = {(r + k, c + j) for (r, c), n in self.tall.items() for k in range(1, n)
                for j in range(self.spans.get((r, c), 1))}
        return wide, high

    def draw(self, canvas, fonts: FontSet, x: float, top: float) -> None:
        xs = [x + sum(self.widths[:i]) for i in range(len(self.widths) + 1)]
        ys = [top - sum(self.heights[:i]) for i in range(len(self.heights) + 1)]
        canvas.setFillColor(SHADE)
        for r0, c0, r1, c1 in self.shaded:
            canvas.rect(xs[c0], ys[r1 + 1], xs[c1 + 1] - xs[c0], ys[r0] - ys[r1 + 1], stroke=0, fill=1)
        canvas.setFillColor(INK)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.8)
        wide, high = self._covered()
        for r in range(len(self.heights)):
            for c in range(len(self.widths)):
                if c and (r, c) not in wide:
                    canvas.line(xs[c], ys[r + 1], xs[c], ys[r])
                if r and (r, c) not in high:
                    canvas.line(xs[c], ys[r], xs[c + 1], ys[r])
        for (r, c), text in self.cells.items():
            self._draw_text(canvas, fonts, text, xs[c], xs[c + self.spans.get((r, c), 1)],
                            ys[r], ys[r + self.tall.get((r, c), 1)])
        self._draw_ticks(canvas, xs, ys)
        self._draw_heavy(canvas, xs, ys)
        self._draw_rings(canvas, fonts, xs, ys)

    @staticmethod
    def _draw_text(canvas, fonts: FontSet, text: Text, left: float, right: float, top: float, bottom: float) -> None:
        leading = text.size * LEADING
        first = (top + bottom) / 2 + len(text.lines) * leading / 2 + EM_BELOW / 2 * text.size
        for i, line in enumerate(text.lines):
            y = baseline(first - i * leading, leading, text.size)
            if text.align is Align.CENTRE:
                fonts.draw(canvas, (left + right) / 2, y, line, text.size, align=Align.CENTRE, who=text.who)
            else:
                fonts.draw(canvas, left + PAD, y, line, text.size, who=text.who)

    def _draw_ticks(self, canvas, xs: Sequence[float], ys: Sequence[float]) -> None:
        canvas.setLineWidth(0.6)
        for r, c in self.ticks:
            middle, centre = (ys[r] + ys[r + 1]) / 2, (xs[c] + xs[c + 1]) / 2
            canvas.rect(centre - TICK / 2, middle - TICK / 2, TICK, TICK, stroke=1, fill=0)

    def _draw_rings(self, canvas, fonts: FontSet, xs: Sequence[float], ys: Sequence[float]) -> None:
        """A ring around the text of each ringed cell (the slip's tied level): an ellipse through the corners of
        the glyphs' box with `RING_ROOM` round it, centred on the glyphs, `RING_INSET` clear of the cell's rules
        (`ring_size`; the cell is made wide enough for it, `ringed_width`)."""
        canvas.setLineWidth(1.2)
        for r, c in self.ringed:
            text = self.cells.get((r, c)) or Text(("",))
            wide, high = ring_size(fonts, text)
            high = min(high, self.heights[r] - 2 * RING_INSET)
            wide = min(wide, xs[c + 1] - xs[c] - 2 * RING_INSET)
            glyphs = (ys[r] + ys[r + 1]) / 2 + (EM_BELOW / 2 - GLYPH_MIDDLE + DIGIT_HEIGHT / 2) * text.size
            x = (xs[c] + xs[c + 1]) / 2
            canvas.ellipse(x - wide / 2, glyphs - high / 2, x + wide / 2, glyphs + high / 2, stroke=1, fill=0)

    def _draw_heavy(self, canvas, xs: Sequence[float], ys: Sequence[float]) -> None:
        """The heavy rules and boxes, and the frame."""
        canvas.setLineWidth(1.6)
        for r in self.heavy_rows:
            canvas.line(xs[0], ys[r + 1], xs[-1], ys[r + 1])
        for c in self.heavy_columns:
            canvas.line(xs[c], ys[-1], xs[c], ys[0])
        for r0, c0, r1, c1 in self.boxed:
            canvas.rect(xs[c0], ys[r1 + 1], xs[c1 + 1] - xs[c0], ys[r0] - ys[r1 + 1], stroke=1, fill=0)
        canvas.rect(xs[0], ys[-1], xs[-1] - xs[0], ys[0] - ys[-1], stroke=1, fill=0)


def row_height(texts: Sequence[Text], least: float = 0.0) -> float:
    """A row tall enough for its cells' lines with `PAD` above and below their em boxes, or `least`."""
    return max(least, *(((len(t.lines) - 1) * LEADING + 1 + EM_BELOW) * t.size + 2 * PAD for t in texts))


def grid_piece(grid: Grid, fonts: FontSet, x: float = CARD_LEFT) -> Piece:
    return Piece(grid.height, lambda canvas, top: grid.draw(canvas, fonts, x, top))


BLEED = 2.0  # a stamp's form reaches past its grid by this much: room for the outer rule's half-width


def stamp(name: str, grid: Grid, fonts: FontSet) -> Piece:
    """A grid that is the same on every page of a document (the card's hand table and points table): drawn once
    into a PDF form XObject and placed on each page by reference. Its text stays extractable."""
    width, height = sum(grid.widths), grid.height

    def draw(canvas, top: float) -> None:
        if not canvas.hasForm(name):
            canvas.beginForm(name, -BLEED, -BLEED, width + BLEED, height + BLEED)
            grid.draw(canvas, fonts, 0, height)
            canvas.endForm()
        canvas.saveState()
        canvas.translate(CARD_LEFT, top - height)
        canvas.doForm(name)
        canvas.restoreState()

    return Piece(height, draw)


def stamped(name: str, pieces: Sequence[Piece]) -> Piece:
    """Pieces that are the same on every sheet of a document (the card's key on its back), laid out once, drawn
    once into a PDF form XObject across the page's width and placed on each sheet by reference, as `stamp` does
    for a grid. Their text stays extractable and is kept for the typesetting checks."""
    height = sum(p.height + p.after for p in pieces) - (pieces[-1].after if pieces else 0.0)

    def draw(canvas, top: float) -> None:
        if not canvas.hasForm(name):
            canvas.beginForm(name, 0, -BLEED, PAGE[0], height + BLEED)
            y = height
            for piece in pieces:
                piece.draw(canvas, y)
                y -= piece.height + piece.after
            canvas.endForm()
        canvas.saveState()
        canvas.translate(0, top - height)
        canvas.doForm(name)
        canvas.restoreState()

    return Piece(height, draw, after=pieces[-1].after if pieces else 0.0,
                 text=tuple(lines for piece in pieces for lines in piece.text))


def stamped_rows(grid: Grid, fonts: FontSet, rows: Sequence[int], first: int, x: float = CARD_LEFT) -> Piece:
    """`grid` as a piece whose one-line texts from column `first` on, the same in each of `rows` (the card's level
    track, 2 … A on both sides), are drawn once into a form placed on each row's middle: rows that differ in
    height (a side's names on two lines) still share it. Text stays extractable. Rows that are not alike are drawn
    as `grid_piece` draws them, and so are rows with a ringed cell."""
    texts = [tuple(grid.cells.get((r, c)) for c in range(first, len(grid.widths))) for r in rows]
    alike = all(t == texts[0] for t in texts) and all(t is not None and len(t.lines) == 1 and (r, c) not in grid.spans
                                                       for r in rows for c, t in enumerate(texts[0], start=first))
    if not rows or not alike or any(r in rows for r, _ in grid.ringed):  # a ring is drawn round its cell's text
        return grid_piece(grid, fonts, x)
    cells = {at: text for at, text in grid.cells.items() if not (at[0] in rows and at[1] >= first)}
    bare = dataclasses.replace(grid, cells=cells)
    xs = [sum(grid.widths[first:c]) for c in range(first, len(grid.widths) + 1)]
    name = "row_" + hashlib.sha1(repr((texts[0], xs)).encode()).hexdigest()[:12]
    left = x + sum(grid.widths[:first])

    def draw(canvas, top: float) -> None:
        bare.draw(canvas, fonts, x, top)
        if not canvas.hasForm(name):
            canvas.beginForm(name, -BLEED, -grid.height, xs[-1] + BLEED, grid.height)
            for i, text in enumerate(texts[0]):
                assert text is not None
                Grid._draw_text(canvas, fonts, text, xs[i], xs[i + 1], 1.0, -1.0)  # about the row's middle, 0
            canvas.endForm()
        ys = [top - sum(grid.heights[:i]) for i in range(len(grid.heights) + 1)]
        for r in rows:
            canvas.saveState()
            canvas.translate(left, (ys[r] + ys[r + 1]) / 2)
            canvas.doForm(name)
            canvas.restoreState()

    return Piece(grid.height, draw)


class Stamps:
    """The grids a document prints alike on many of its pages (a card's result row and signature row, whatever
    its template says there), each laid out once and drawn once into a form (`stamp`), known by what makes it."""

    def __init__(self, fonts: FontSet):
        self._fonts = fonts
        self._made: dict[tuple[str, tuple[str, ...]], Piece] = {}

    def __call__(self, kind: str, key: Sequence[str], make: Callable[[], Grid]) -> Piece:
        """The stamp of the grid `make()` builds for (`kind`, `key`): built the first time it is asked for."""
        known = (kind, tuple(key))
        piece = self._made.get(known)
        if piece is None:
            piece = self._made[known] = stamp(f"{kind}{len(self._made)}", make(), self._fonts)
        return piece
