"""The page: A4 geometry, the large-print sizes, Chinese line breaking, and a canvas set up with our font.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from shuangsheng.render import linebreak
from shuangsheng.render.materials.fonts import Align, FontSet

# Streams are Flate-compressed only, not also ASCII85-encoded: 25 % smaller files, and the encoding was a
# large share of the time spent writing a PDF. (reportlab reads the setting when it writes each stream.)
rl_config.useA85 = 0

PAGE = A4  # portrait
MARGIN = 20 * mm  # nothing is drawn closer than this to any page edge
SIDE = MARGIN  # text frame, left
RIGHT = MARGIN  # right; nothing hangs past it, as paragraphs are broken by `break_lines`
TOP = MARGIN
BOTTOM = MARGIN + 10 * mm  # leaves room for the page footer, which stays inside MARGIN
FOOTER_Y = MARGIN + 2 * mm  # baseline; descenders stay inside MARGIN
FRAME_PADDING = 6  # reportlab's default Frame padding
CELL_PADDING = 5

INK = colors.black
RULE = colors.black
SHADE = colors.Color(0.88, 0.88, 0.88)  # table header background; header also differs by its text
ASIDE = colors.Color(0.93, 0.93, 0.93)  # the tint behind a 补充说明


def break_lines(fonts: FontSet, text: str, size: float, widths: Sequence[float], who: str | None = None, *,
                squeeze: bool = False, hang: float = 0.0) -> list[str]:
    """Chinese line breaking (shuangsheng.render.linebreak) by the font's character widths; `widths` are the line widths
    (first line, then the rest). Every document's text goes through here, so one rule set holds everywhere: no
    unit split (team ids, tables, levels, numbers, times, file names, commands, short asides), no mark where it
    may not stand, no last line of one character. A line keeps 0.01 pt clear of its width.

    A text wholly in the main face and clearly narrower than the first line is that line, as the rules would
    have it (most table cells and labels: their characters are not measured one by one).

    `squeeze`: a line may keep a closing mark by pressing its full-width marks (标点挤压); such a line is wider
    than its width as set, and is drawn by `draw_line`; a closing mark ending a line may hang its right
    blank past the width by at most `hang` (a paragraph's, into the text frame's padding)."""
    limits = [w - 0.01 for w in widths]
    if text and "\r" not in text and fonts.covers(text) and fonts.width(text, size) <= limits[0] - CLEARLY:
        return [text]
    return linebreak.break_lines(text, lambda ch: fonts.width(ch, size, who), limits, squeeze=squeeze, hang=hang,
                                 blanks=lambda ch: fonts.blanks(ch, size))


def draw_line(fonts: FontSet, canvas: Canvas, x: float, y: float, line: str, size: float, width: float, *,
              align: Align = Align.LEFT, who: str | None = None) -> None:
    """One line of a text broken with `squeeze`, in `width` from `x` (or centred in it): as set when it fits,
    else with its full-width marks pressed together by what it is over (never by spacing its letters), each on
    the side(s) where its glyph really has blank space (`FontSet.blanks`: a centred （ gives on both sides)."""
    if fonts.width(line, size, who) <= width:
        fonts.draw(canvas, x + width / 2 if align is Align.CENTRE else x, y, line, size, align=align, who=who)
        return
    press = linebreak.pressing(line, lambda ch: fonts.width(ch, size, who), width, lambda ch: fonts.blanks(ch, size))
    segments: list[tuple[str, float, float]] = []  # runs drawn as one: pressed on the left of their first
    for ch, (left, right) in zip(line, press, strict=True):  # character and on the right of their last only
        if segments and not segments[-1][2] and not left:
            segments[-1] = (segments[-1][0] + ch, segments[-1][1], right)
        else:
            segments.append((ch, left, right))
    for text, left, right in segments:  # a mark pressed on its left is drawn that much to the left
        fonts.draw(canvas, x - left, y, text, size, who=who)
        x += fonts.width(text, size, who) - left - right


CLEARLY = 0.5  # points: far more than the rounding between a text's width and the sum of its characters' widths


@dataclass(frozen=True)
class Cell:
    """Plain text for a table cell, laid out at the column's width; `who` names the person for glyph warnings;
    `align`: CENTRE, LEFT, or AUTO (centred while it takes one line)."""

    text: str
    who: str | None = None
    align: Align = Align.CENTRE


@dataclass(frozen=True)
class Sizes:
    title: float
    body: float
    table: float
    note: float


LARGE = Sizes(title=22, body=16, table=15, note=14)
REGULAR = Sizes(title=20, body=12, table=12, note=10.5)


def new_canvas(buffer: io.BytesIO, fonts: FontSet, *, title: str, invariant: bool) -> Canvas:
    """A canvas whose initial font is ours, so no Helvetica (base-14, never embedded) is referenced."""
    canvas = Canvas(
        buffer,
        pagesize=PAGE,
        invariant=1 if invariant else 0,
        initialFontName=fonts.name,  # type: ignore[arg-type]  # types-reportlab has it float
        initialFontSize=14,
        pageCompression=1,
    )
    describe_pdf(canvas, title)
    return canvas


def describe_pdf(canvas: Canvas, title: str) -> None:
    canvas.setTitle(title)
    canvas.setAuthor("shuangsheng")
    canvas.setCreator("shuangsheng")
