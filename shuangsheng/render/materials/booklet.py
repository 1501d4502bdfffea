"""What the two booklets share (秩序册 in `programme`, 成绩册 in `results_book`): a cover, a 目录 whose page numbers
are the pages' own (the booklet is laid out twice: once to find the pages, once with them), every part on a new
page under its heading, a running head on every page after the cover naming the booklet and the part (with its
section, as "第2轮", and （续） on the part's later pages), "第N页 共M页" at every page's foot after the cover, and
the officials' part (ruled blank lines for a list left empty).

The parts and their titles come from the booklet's template (`programme.j2`, `results_book.j2`): the blocks before
the first `@part` line are the cover; each `@name 标题` line is one part, in the template's order."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from shuangsheng.render.materials.flow import LEFT, WIDTH, Flow, Piece, baseline, draw_placed
from shuangsheng.render.materials.fonts import Align
from shuangsheng.render.materials.page import FOOTER_Y, INK, PAGE, break_lines, new_canvas
from shuangsheng.render.materials.wording import Block, BlockKind, MaterialsError, unknown_insert
from shuangsheng.storage.event import Officials

TOC = "目录"  # the insert `@目录 标题`
OFFICIALS = "组织机构"  # the insert `@组织机构 标题 | 组委会 | 仲裁委员会 | 裁判长 | 裁判员`
OFFICIAL_LABELS = ("组委会", "仲裁委员会", "裁判长", "裁判员")
BLANK_LINES = (3, 3, 1, 4)  # ruled lines for each list left empty in event.toml, to write the names in by hand
PEN_LINE = 11 * mm
COVER_TITLE = 28.0
COVER_NAME = 48.0  # the booklet's name on its cover
COVER_TEXT = 18.0


@dataclass
class Part:
    """One part of a booklet: its title (the 目录's entry and its heading), its pieces, and the 目录's entries
    within it: (the piece that opens it, its text), e.g. each round of the 成绩册's results."""

    title: str
    pieces: list[Piece]
    entries: list[tuple[Piece, str]] = field(default_factory=list)
    headed: bool = True  # False: the pieces open with the document's own title (对阵表, 签到表), printed alone


PartMaker = Callable[[tuple[str, ...]], Part | None]  # a part from its insert's texts (None: nothing to print yet)


def plan(flow: Flow, blocks: Sequence[Block], makers: Mapping[str, PartMaker]) -> tuple[list[Block], list[Part]]:
    """The cover's blocks (those before the first part, and `@目录`) and the parts the template names, in its
    order; the lines after a part's `@name` line are printed at its end (the timetable's note). A part whose
    maker has nothing to print (the first draw before round 1 is drawn) is left out, with its lines."""
    cover: list[Block] = []
    parts: list[Part | None] = []
    for block in blocks:
        if block.kind is BlockKind.INSERT and block.name == TOC and not parts:
            cover.append(block)
        elif block.kind is BlockKind.INSERT:
            if block.name not in makers:
                raise unknown_insert(block, [TOC, *makers])
            parts.append(makers[block.name](block.args))
        elif not parts:
            cover.append(block)
        elif (last := parts[-1]) is not None:
            last.pieces += flow.markup([block])
    return cover, [part for part in parts if part is not None]


def title_of(args: tuple[str, ...], default: str) -> str:
    return args[0].strip() if args and args[0].strip() else default


@dataclass(frozen=True)
class Booklet:
    """A booklet's name ('秩序册': on its cover and in its running heads) and the event's title."""

    name: str
    event_title: str

    @property
    def running(self) -> str:
        return f"{self.event_title}{self.name}"


def booklet_pdf(flow: Flow, cover: Sequence[Block], parts: Sequence[Part], *, invariant: bool) -> bytes:
    """The booklet: its cover, the 目录 (when the template has `@目录`) and the parts, each from a new page and
    laid out as a document of its own (a part whose last page would hold a few lines is refitted, as its own
    document would be); the 目录's numbers are the pages the parts and their entries land on."""
    names = [line for b in cover if b.kind is BlockKind.TITLE for line in b.lines]
    if not names:
        raise MaterialsError(["封面应有标题（以“# ”开头的行：比赛名称和册名）"])
    book = Booklet(names[-1], "".join(names[:-1]))
    toc = next((b for b in cover if b.kind is BlockKind.INSERT), None)
    laid: list[list[list[tuple[Piece, float]]]] = []
    entries: list[tuple[str, str, int]] = []  # (section, text, level)
    for part in parts:
        if part.headed or not part.pieces:
            heading = part_heading(flow, part.title)
            pieces = [heading, *part.pieces]
        else:  # its own title opens it
            heading, pieces = part.pieces[0], list(part.pieces)
        heading.section = part.title
        entries.append((part.title, part.title, 0))
        for piece, text in part.entries:
            piece.section = f"{part.title}　{text}"
            entries.append((piece.section, text, 1))
        laid.append(_laid(flow, book, pieces))
    front = [[(cover_piece(flow, [b for b in cover if b.kind is not BlockKind.INSERT]), flow.top)]]
    contents: list[list[tuple[Piece, float]]] = []
    if toc is not None:
        title = title_of(toc.args, TOC)
        placeholder = _laid(flow, book, toc_pieces(flow, title, entries, ["00"] * len(entries)))
        first = len(front) + len(placeholder) + 1
        where: dict[str, int] = {}
        for placed in laid:
            for n, page in enumerate(placed):
                for piece, _ in page:
                    if piece.section is not None:
                        where.setdefault(piece.section, first + n)
            first += len(placed)
        contents = _laid(flow, book, toc_pieces(flow, title, entries, [str(where[s]) for s, _, _ in entries]))
    return _draw(flow, book, [*front, *contents, *(page for placed in laid for page in placed)], invariant=invariant)


def _laid(flow: Flow, book: Booklet, pieces: Sequence[Piece]) -> list[list[tuple[Piece, float]]]:
    """A part's pieces on pages of their own, every page below the running head (its first too)."""
    heads = [book.running, *(f"{book.running}　{p.section}" for p in pieces if p.section)]
    room = max(flow.head_height(head) for head in heads)
    return flow.pages([Piece(room, _below_head), *pieces], book.running)


def _below_head(canvas: Canvas, top: float) -> None:
    """A part's first page starts below the running head, as its later pages do: the room it takes."""


def _draw(flow: Flow, book: Booklet, pages: Sequence[Sequence[tuple[Piece, float]]], *, invariant: bool) -> bytes:
    buffer = io.BytesIO()
    canvas = new_canvas(buffer, flow.fonts, title=book.running, invariant=invariant)
    section: str | None = None
    for number, placed in enumerate(pages, 1):
        canvas.setFillColor(INK)
        canvas.setStrokeColor(INK)
        first = next((piece for piece, _ in placed if not piece.gap and piece.draw is not _below_head), None)
        opens = first is not None and first.section is not None
        if number > 1:
            head = f"{book.running}　{first.section if opens and first else section or ''}".rstrip("　")
            flow.draw_head(canvas, head, more=not opens and section is not None)
            flow.fonts.draw(canvas, PAGE[0] / 2, FOOTER_Y, f"第{number}页  共{len(pages)}页", flow.sizes.note,
                            align=Align.CENTRE)
        draw_placed(canvas, placed)
        section = next((piece.section for piece, _ in reversed(placed) if piece.section), section)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def part_heading(flow: Flow, title: str) -> Piece:
    size = flow.sizes.title
    lines = break_lines(flow.fonts, title, size, [WIDTH])
    return flow.lines(lines, size, 1.45, align=Align.CENTRE, after=size * 0.8, keep=True)


def cover_piece(flow: Flow, blocks: Sequence[Block]) -> Piece:
    """The cover: the event's title and the booklet's name large in the upper half, the other lines (date, venue,
    organiser) centred in the lower third."""
    fonts = flow.fonts
    titles = [line for b in blocks if b.kind is BlockKind.TITLE for line in b.lines]
    upper: list[tuple[str, float]] = [(line, COVER_TITLE) for text in titles[:-1]
                                      for line in break_lines(fonts, text, COVER_TITLE, [WIDTH])]
    upper += [(line, COVER_NAME) for line in break_lines(fonts, titles[-1], COVER_NAME, [WIDTH])]
    lower = [(line, COVER_TEXT) for b in blocks if b.kind is not BlockKind.TITLE and b.text
             for line in _cover_lines(flow, b.text)]
    height = flow.top - flow.bottom

    def draw(canvas: Canvas, top: float) -> None:
        y = top - height * 0.22
        for k, (line, size) in enumerate(upper):
            if size == COVER_NAME and k and upper[k - 1][1] != COVER_NAME:
                y -= size * 0.8  # the booklet's name set off below the title
            fonts.draw(canvas, LEFT + WIDTH / 2, y - size, line, size, align=Align.CENTRE)
            y -= size * 1.45
        y = top - height * 0.68
        for line, size in lower:
            fonts.draw(canvas, LEFT + WIDTH / 2, y - size, line, size, align=Align.CENTRE)
            y -= size * 1.9

    text = tuple(line for line, _ in upper + lower)
    return Piece(height, draw, text=(text,))


def _cover_lines(flow: Flow, text: str) -> list[str]:
    """A line of the cover's lower block, broken where a reader would: before an opening bracket when that leaves
    the first part whole ("比赛地点：…服务中心" / "（后家属院体育馆201棋牌室）"), else by the house rules."""
    if flow.fonts.width(text, COVER_TEXT) <= WIDTH:
        return [text]
    cut = text.find("（")
    if cut > 0 and flow.fonts.width(text[:cut], COVER_TEXT) <= WIDTH:
        return [text[:cut], *break_lines(flow.fonts, text[cut:], COVER_TEXT, [WIDTH])]
    return break_lines(flow.fonts, text, COVER_TEXT, [WIDTH])


def toc_pieces(flow: Flow, title: str, entries: Sequence[tuple[str, str, int]], numbers: Sequence[str]) -> list[Piece]:
    """The 目录: each part (and the entries within one, indented) with a dotted leader to its page number."""
    size = flow.sizes.body
    heading = part_heading(flow, title)
    heading.section = title
    out = [heading]
    for (_, text, level), number in zip(entries, numbers, strict=True):
        out.append(_toc_line(flow, text, number, size, indent=2 * size * level))
    return out


def _toc_line(flow: Flow, text: str, number: str, size: float, *, indent: float) -> Piece:
    fonts = flow.fonts
    room = WIDTH - indent - 3 * size
    lines = break_lines(fonts, text, size, [room])
    leading = size * 1.9

    def draw(canvas: Canvas, top: float) -> None:
        for i, line in enumerate(lines):
            y = baseline(top - i * leading, leading, size)
            fonts.draw(canvas, LEFT + indent, y, line, size)
        y = baseline(top - (len(lines) - 1) * leading, leading, size)
        end = LEFT + indent + fonts.width(lines[-1], size) + size * 0.4
        fonts.draw(canvas, LEFT + WIDTH, y, number, size, align=Align.RIGHT)
        start_num = LEFT + WIDTH - fonts.width(number, size) - size * 0.4
        canvas.setDash(1, 3)
        canvas.setLineWidth(0.8)
        if start_num > end:
            canvas.line(end, y + 1, start_num, y + 1)
        canvas.setDash()

    return Piece(leading * len(lines), draw, text=(tuple(lines), (number,)))


def officials_part(flow: Flow, officials: Officials, args: tuple[str, ...]) -> Part:
    """组织机构与裁判人员: each list of event.toml's [officials] under its label, one person a line ("职务：姓名",
    a long one broken over two by the house rules); a list left empty as ruled lines to write in."""
    labels = [*(a.strip() for a in args[1:5]), *OFFICIAL_LABELS[len(args[1:5]):]]
    pieces: list[Piece] = []
    for label, (_, names), blanks in zip(labels, officials.groups, BLANK_LINES, strict=True):
        heading = flow.paragraph(f"{label}：")
        heading[-1].keep = True
        pieces += heading
        if names:
            pieces += [flow.lines([name], flow.sizes.body, 1.6, indent=0.0, x=LEFT + 2 * flow.sizes.body,
                                  width=WIDTH - 2 * flow.sizes.body) for name in _joined(flow, names)]
        else:
            pieces.append(ruled_lines(blanks))
        pieces.append(flow.space(flow.sizes.body))
    return Part(title_of(args, "组织机构与裁判人员"), pieces)


def _joined(flow: Flow, names: Sequence[str]) -> list[str]:
    """The names as lines, each broken by the house rules (a long one over two lines)."""
    room = WIDTH - 2 * flow.sizes.body
    return [line for name in names for line in break_lines(flow.fonts, name, flow.sizes.body, [room])]


def ruled_lines(count: int) -> Piece:
    """`count` ruled lines across the text frame, PEN_LINE apart, for names written by hand."""
    height = count * PEN_LINE

    def draw(canvas: Canvas, top: float) -> None:
        canvas.setLineWidth(0.6)
        for k in range(1, count + 1):
            y = top - k * PEN_LINE + 2
            canvas.line(LEFT + 2 * 16, y, LEFT + WIDTH, y)

    return Piece(height, draw)
