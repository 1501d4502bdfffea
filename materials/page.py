"""The page: A4 geometry, the large-print sizes, Chinese line breaking, and a canvas set up with our font.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.textsplit import ALL_CANNOT_START
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from materials.fonts import FontSet

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


# Chinese line-breaking rules (禁则): reportlab's CJK wrap knows only some of them (not ，：；！？” at a line
# start, nothing about （“《 at a line end), so paragraphs are broken here and handed over with <br/>.
NO_LINE_START = frozenset("，。、；：！？）》」』】〕〉”’…—·%‰℃,.;:!?)]}" + ALL_CANNOT_START)
NO_LINE_END = frozenset("（《「『【〔〈“‘([{")
_WORD = re.compile(r"[0-9A-Za-z]")


def break_lines(fonts: FontSet, text: str, size: float, widths: Sequence[float], who: str | None = None) -> list[str]:
    """Greedy line breaking for Chinese: as much as fits, then push characters down to the next line until the
    break does not put closing punctuation first, opening punctuation last, or split a number or Latin word.
    `widths` are the line widths (first line, then the rest)."""
    chars = [ch for ch in text if ch != "\r"]
    advance = [fonts.width(ch, size, who) for ch in chars]
    lines: list[str] = []
    start = 0
    while start < len(chars):
        limit = widths[min(len(lines), len(widths) - 1)] - 0.01
        used, end = 0.0, start
        while end < len(chars) and used + advance[end] <= limit:
            used += advance[end]
            end += 1
        if end == len(chars):
            lines.append("".join(chars[start:]))
            break
        end = max(end, start + 1)  # a character wider than the line still gets a line of its own
        if end == len(chars):
            lines.append("".join(chars[start:]))
            break
        cut = end
        while cut > start + 1 and not _can_break(chars[cut - 1], chars[cut]):
            cut -= 1
        if cut == start + 1 and not _can_break(chars[cut - 1], chars[cut]):
            cut = end  # nowhere better: break where the line is full
        lines.append("".join(chars[start:cut]))
        start = cut
        while start < len(chars) and chars[start] == " ":
            start += 1
    return lines


ORPHAN = 2  # a paragraph's last line with this many characters or fewer stands alone


def no_orphan(lines: list[str]) -> list[str]:
    """Move the last characters of the line before down to a last line of one or two characters (a small
    adjustment: at most three characters, only where a line may break), so a clause never ends with a lone
    character or two; the shorter line is then justified. Lines are returned unchanged where that cannot be."""
    if len(lines) < 2 or len(lines[-1].strip()) > ORPHAN:
        return lines
    prev, last = lines[-2], lines[-1]
    for k in range(1, 4):
        if len(prev) - k < 4:
            break
        head, moved = prev[:-k], prev[-k:]
        if len((moved + last).strip()) > ORPHAN and _can_break(head[-1], moved[0]):
            return [*lines[:-2], head, moved + last]
    return lines


def _can_break(before: str, after: str) -> bool:
    if after in NO_LINE_START or before in NO_LINE_END:
        return False
    if before == "-" and (after == "-" or _WORD.match(after)):  # a command-line option: --force
        return False
    return not (_WORD.match(before) and _WORD.match(after))


@dataclass(frozen=True)
class Cell:
    """Plain text for a table cell, laid out at the column's width; `who` names the person for glyph warnings;
    `align`: centre, left, or auto (centred while it takes one line)."""

    text: str
    who: str | None = None
    align: str = "centre"


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
        initialFontName=fonts.name,
        initialFontSize=14,
        pageCompression=1,
    )
    describe_pdf(canvas, title)
    return canvas


def describe_pdf(canvas: Canvas, title: str) -> None:
    canvas.setTitle(title)
    canvas.setAuthor("shuangsheng")
    canvas.setCreator("shuangsheng")
