"""The platypus side of the house style: paragraph styles in the large-print sizes and the PDF assembly for the
two documents laid out by platypus, the score cards and the playoff slips (their hand tables, level tracks and
boxes are platypus tables; `materials.paper`). Every other document is drawn by `materials.flow`.
"""

from __future__ import annotations

import io

from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate

from materials.fonts import FontSet
from materials.page import (
    BOTTOM,
    FOOTER_Y,
    FRAME_PADDING,
    INK,
    LARGE,
    MARGIN,
    PAGE,
    REGULAR,
    RIGHT,
    SIDE,
    TOP,
    describe_pdf,
)


class Para(Paragraph):
    """A Paragraph that remembers its layout at the last width: a table asks each cell's size several times
    (measuring rows, splitting across pages, drawing), and breaking Chinese text into lines is the costly part."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        if self.__dict__.get("_laid_out_at") == availWidth and "blPara" in self.__dict__:  # split() drops it
            return self.width, self.height
        size = super().wrap(availWidth, availHeight)
        self._laid_out_at = availWidth
        return size


class HouseStyle:
    """Paragraph styles bound to a FontSet; every piece of text is made through `para`."""

    def __init__(self, fonts: FontSet, *, large: bool = True):
        self.fonts = fonts
        self.sizes = LARGE if large else REGULAR
        s = self.sizes
        base = ParagraphStyle(
            "body",
            fontName=fonts.name,
            fontSize=s.body,
            leading=s.body * 1.45,
            textColor=INK,
            wordWrap="CJK",
            alignment=TA_JUSTIFY,
            firstLineIndent=2 * s.body,
            spaceAfter=s.body * 0.12,
            bulletFontName=fonts.name,
            justifyBreaks=1,  # lines end in our own <br/> breaks and should still be justified
        )
        self.styles = {
            "body": base,
            "plain": ParagraphStyle("plain", parent=base, firstLineIndent=0, alignment=TA_LEFT),
            "title": ParagraphStyle(
                "title",
                parent=base,
                fontSize=s.title,
                leading=s.title * 1.45,
                alignment=TA_CENTER,
                firstLineIndent=0,
                spaceBefore=0,
                spaceAfter=s.title * 0.6,
            ),
            "centre": ParagraphStyle("centre", parent=base, alignment=TA_CENTER, firstLineIndent=0, spaceAfter=0),
            "right": ParagraphStyle("right", parent=base, alignment=TA_RIGHT, firstLineIndent=0, spaceAfter=0),
            "note": ParagraphStyle(
                "note", parent=base, fontSize=s.note, leading=s.note * 1.5, firstLineIndent=0, alignment=TA_LEFT
            ),
            "cell": ParagraphStyle(
                "cell",
                parent=base,
                fontSize=s.table,
                leading=s.table * 1.35,
                firstLineIndent=0,
                alignment=TA_LEFT,
                spaceAfter=0,
            ),
        }
        self.styles["cell_centre"] = ParagraphStyle("cell_centre", parent=self.styles["cell"], alignment=TA_CENTER)

    @property
    def frame_width(self) -> float:
        return PAGE[0] - SIDE - RIGHT - 2 * FRAME_PADDING


def build_pdf(
    story: list[Flowable], style: HouseStyle, *, title: str, invariant: bool, numbered: bool = True
) -> bytes:
    """Lay out a story on A4 portrait with a '第N页 共M页' footer; return the PDF. `numbered=False`: no footer,
    and the text frame reaches down to the margin (sheets that are each a document of their own, as score cards)."""
    fonts = style.fonts
    footer_size = style.sizes.note

    class NumberedCanvas(Canvas):
        # Pages are kept until save() so the footer can say how many pages there are.
        def __init__(self, *args, **kwargs):
            kwargs.update(initialFontName=fonts.name, initialFontSize=14)
            super().__init__(*args, **kwargs)
            describe_pdf(self, title)
            self._pages: list[dict] = []

        def showPage(self):
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self):
            total = len(self._pages)
            for number, state in enumerate(self._pages, start=1):
                self.__dict__.update(state)
                if total > 1 and numbered:
                    self.setFillColor(INK)
                    fonts.draw(self, PAGE[0] / 2, FOOTER_Y, f"第{number}页  共{total}页", footer_size, align="centre")
                super().showPage()
            super().save()

    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=PAGE,
        leftMargin=SIDE,
        rightMargin=RIGHT,
        topMargin=TOP,
        bottomMargin=BOTTOM if numbered else MARGIN,
        title=title,
        author="shuangsheng",
        creator="shuangsheng",
        invariant=1 if invariant else 0,
        initialFontName=fonts.name,
        initialFontSize=14,
    )
    doc.build(story, canvasmaker=NumberedCanvas)
    return buffer.getvalue()
