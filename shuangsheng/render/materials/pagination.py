"""Placing a document's pieces on pages (`flow.py` makes the pieces and draws the pages): breaks between pieces, a
heading kept with what follows and a line closing a table with its last rows, a group on a fresh page when it fits
whole, a table's header rows again on the pages it continues onto, with at least two of its body rows (never its
last row alone); and a spill avoided. When the last page would hold only a few lines (less than
`FIT_SHARE` of a page), the document is first refitted onto a page fewer where that is enough (`fitted`: the space
between pieces closed up, the lines set tighter, at last the tables a size smaller, never below the document's
table size); where that is not enough, or leaves a new last page as short, the run of pages after the last forced
page break is balanced (`balanced`: every page of the run ends a little higher, so the last one is filled about as
far as the others) rather than ending on a few lines. Pure: pieces in, (piece, top) per page out."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from shuangsheng.render.materials.page import BOTTOM, FRAME_PADDING, PAGE, TOP

TOP_Y = PAGE[1] - TOP - FRAME_PADDING  # the text frame of a page with a footer: its top
BOTTOM_Y = BOTTOM + FRAME_PADDING  # and its bottom, above the page footer
FIT_SHARE = 0.4  # a last page holding less than this share of a page is a spill: refitted or balanced away
SMALLER_PAGES = 3  # a document of at most this many pages may have its tables set a size smaller to save one
# (a long list set smaller to save its last page would read smaller throughout; and re-laying it costs)
REFIT_SHARE = 0.75  # one holding less than this is refitted onto a page fewer where that is enough: the lines a
# table's last rows carry over with them (the 轮空, 晋级 and 下一步 lines) and an index kept whole on its own page
# fill a last page past FIT_SHARE that closing up the pages before would have saved
FILL_SHARE = 0.7  # a page a `loose` group would leave filled less than this far: the group breaks there instead
BALANCE_STEPS = 12  # halvings of the search for how much higher a balanced run's pages end (a page / 4096)
CAPTION_GAP = 2.2 * mm  # the least space between a table and a line of text above or below it (a caption, a heading,
# the 轮空 line): with the lines' own leading the reader sees 2 mm or more, however tightly a document is refitted

Draw = Callable[[Canvas, float], None]  # draws a piece with its top edge at the given y
Lines = tuple[tuple[str, ...], ...]  # the lines a piece prints, per paragraph or cell


@dataclass
class Piece:
    """Something of fixed height placed whole on one page, followed by `after` points of space. `gap`: dropped at
    the top of a page. `keep`: no page break between this piece and the next. `follows`: no page break between this piece and the one before (a line
    that closes the table above it, as "晋级下一轮：…"). `group`: the pieces of one group
    start a fresh page together when they would not fit below (and fit on one page), set closer where that fits
    them below. `new_page`: starts one
    (and is not drawn). `table`: the table this row belongs to (its frame is drawn around its rows on each page);
    `header`: that table's header rows, drawn again above this row when it starts a page. `text`: the lines
    as laid out (a paragraph's, or each cell's), for the typesetting checks. `tighter`: (height, draw) of the
    same lines set tighter, for a document refitted onto a page fewer; `smaller`: (height, draw, text) of a
    table's row set tighter and a size smaller, the last resort of that refitting. `section`: the part of the
    document this heading opens; a continuation page within it says so in its running head."""

    height: float
    draw: Draw
    after: float = 0.0
    gap: bool = False
    keep: bool = False
    follows: bool = False
    group: int | None = None
    new_page: bool = False
    table: int | None = None
    header: list[Piece] = field(default_factory=list)
    text: Lines = ()  # the lines it prints, per paragraph or cell (what tests check)
    tighter: Callable[[], tuple[float, Draw]] | None = None  # the piece set tighter (smaller leading or padding)
    smaller: Callable[[], tuple[float, Draw, Lines]] | None = None  # a table row tighter and a size smaller
    section: str | None = None  # a heading: the part it opens ("第2轮"), named on continuation pages after it
    loose: bool = False  # a piece of a group: the group may break (as its pieces allow) rather than leave the
    # page it would start on less than `FILL_SHARE` filled (a table in running text; not an index to look up)


Pages = list[list[tuple[Piece, float]]]  # (piece, top) per page


def fitted(pieces: Sequence[Piece], bottom: float, top: float, later: float) -> Pages:
    """The pieces on pages with no last page of a few lines where that can be helped: as set; else (a last page
    under `REFIT_SHARE`) refitted onto a page fewer (the space between pieces halved; then the lines set tighter
    too; then a quarter of the space, none; then the tables a size smaller too, with half the space, a quarter,
    none), the first of those that is enough; and the last run of pages balanced when its last page is still
    short. A document whose every page a forced break opens (score cards) is left as set."""
    pages = paginate(pieces, bottom, top, later)
    if not _short(pages, bottom, later, REFIT_SHARE):
        return pages
    if len(pages) <= 1 + sum(p.new_page for p in pieces):
        return pages  # every page opened by a forced break (the score cards' fronts and backs): none to save
    smaller = len(pages) <= SMALLER_PAGES
    last = [tightened(p, smaller=smaller) for p in pieces]  # the tightest setting, set once
    if len(paginate(spaced([squeezed(p, 0.0) for p in last]), bottom, top, later)) >= len(pages):
        return balanced(pieces, bottom, top, later, pages)  # the last resort is not enough: none is
    for refit, squeeze in _refits(pieces, last, smaller=smaller):
        closer = spaced([squeezed(p, squeeze) for p in refit])
        fewer = paginate(closer, bottom, top, later)
        if len(fewer) < len(pages):
            return balanced(closer, bottom, top, later, fewer)
    return balanced(pieces, bottom, top, later, pages)


def _last_break(pieces: Sequence[Piece]) -> int:
    """Where the run after the last forced page break begins (0: there is none)."""
    return max((k for k, p in enumerate(pieces) if p.new_page), default=-1) + 1


def spaced(pieces: Sequence[Piece]) -> list[Piece]:
    """The pieces, with at least `CAPTION_GAP` after a table and after the text straight above a table (set on
    the pieces themselves: they are placed as they are, refitted or not)."""
    for a, b in itertools.pairwise(pieces):
        edge = (a.table is None) != (b.table is None) and not (a.gap or b.gap or a.new_page or b.new_page)
        if edge and a.height > 0 and b.height > 0 and a.after < CAPTION_GAP:
            a.after = CAPTION_GAP
    return list(pieces)


def _refits(pieces: Sequence[Piece], last: Sequence[Piece], *, smaller: bool
            ) -> Iterator[tuple[Sequence[Piece], float]]:
    """The pieces refitted, each way tighter than the one before, and how much of the space between them is kept;
    `last`: the pieces at the tightest setting (the tables a size smaller when `smaller`, else the lines tighter),
    already set; the lines set tighter only when the looser ways were not enough."""
    yield pieces, 0.5
    tight = [tightened(p) for p in pieces] if smaller else last
    for squeeze in (0.5, 0.25, 0.0):
        yield tight, squeeze
    if smaller:
        for squeeze in (0.5, 0.25, 0.0):
            yield last, squeeze


def balanced(pieces: Sequence[Piece], bottom: float, top: float, later: float, pages: Pages) -> Pages:
    """`pages` (the pieces as paginated) with the last two pages of the run after the last forced page break
    balanced when its last page is short: the page before it ends as much higher as it can without the run taking
    a page more, so what spilled onto the last page is shared by the two; the pages before them stay full, as a
    typesetter balances a document's last spread. A run of one page (a part opening on a fresh page and ending
    there) is left as it is: nothing spilled onto it."""
    if not _short(pages, bottom, later):
        return pages
    cut = _last_break(pieces)
    before = [page for page in paginate(pieces[:cut], bottom, top, later) if page]
    laid = _laid(pieces[cut:], bottom, later if before else top, later)
    run = laid.pages
    if len(before) + len(run) != len(pages) or len(run) < 2:
        return pages
    opening = [placed for placed, k in zip(run[-2], laid.at[-2], strict=True) if k is None]  # a table's header again
    rest = [k for k in laid.at[-2] if k is not None]
    if not rest:
        return pages
    first = rest[0]
    start = next(y for (_, y), k in zip(run[-2], laid.at[-2], strict=True) if k == first)
    low, high = 0.0, start - bottom  # how much higher the page before the last ends: low keeps the run's length
    best = [[placed for placed, k in zip(run[-2], laid.at[-2], strict=True) if k is not None], run[-1]]
    for _ in range(BALANCE_STEPS):
        middle = (low + high) / 2
        tried = paginate(laid.pieces[first:], bottom + middle, start, later)
        if len(tried) == 2:
            low, best = middle, tried
        else:
            high = middle
    return [*before, *run[:-2], opening + best[0], *best[1:]]


def _short(pages: Pages, bottom: float, later: float, share: float = FIT_SHARE) -> bool:
    """A document of several pages whose last holds less than `share` of a page."""
    return len(pages) > 1 and used(pages[-1], later) < share * (later - bottom)


def used(placed: Sequence[tuple[Piece, float]], top: float) -> float:
    """How far down a page its pieces reach, from `top`."""
    return max((top - (y - piece.height) for piece, y in placed), default=0.0)


def squeezed(piece: Piece, factor: float) -> Piece:
    """The piece with the space after it (and a gap's own height) scaled by `factor`."""
    height = piece.height * factor if piece.gap else piece.height
    return replace(piece, height=height, after=piece.after * factor)


def tightened(piece: Piece, *, smaller: bool = False) -> Piece:
    """The piece set tighter, where it can be (its repeated header rows too); `smaller`: a table's row a size
    smaller as well."""
    header = [tightened(row, smaller=smaller) for row in piece.header]
    if smaller and piece.smaller is not None:
        height, draw, text = piece.smaller()
        return replace(piece, height=height, draw=draw, text=text, header=header, tighter=None, smaller=None)
    if piece.tighter is None:
        return replace(piece, header=header) if header else piece
    height, draw = piece.tighter()
    return replace(piece, height=height, draw=draw, header=header, tighter=None, smaller=None)


def _span(pieces: Sequence[Piece], start: int, more: Callable[[int], bool]) -> tuple[int, float]:
    """(end, height) of the run of pieces from `start` while `more(i)` says the run goes on past piece i."""
    end, height = start, pieces[start].height
    while more(end) and end + 1 < len(pieces):
        height += pieces[end].after + pieces[end + 1].height
        end += 1
    return end, height


def _held(pieces: Sequence[Piece], k: int) -> bool:
    """No page break between piece k and the next: k is kept with it, the next follows k, or the next is the last
    body row of k's table (a table broken across pages carries at least two body rows onto the new page)."""
    if pieces[k].keep:
        return True
    if k + 1 >= len(pieces):
        return False
    after, table = pieces[k + 1], pieces[k].table
    last = table is not None and after.table == table and (k + 2 == len(pieces) or pieces[k + 2].table != table)
    return after.follows or last


def _in_group(pieces: Sequence[Piece], group: int) -> Callable[[int], bool]:
    """`_span`'s test for a group: the piece after i belongs to `group`."""
    return lambda k: k + 1 < len(pieces) and pieces[k + 1].group == group


def _chain_need(pieces: Sequence[Piece], start: int, page: float) -> float:
    """The height of the piece at `start` and those kept with it; where they run into a group that fits a page
    whole (a heading kept with a caption and its table), up to the end of that group: the group goes to the next
    page whole, and what is kept with it goes along."""
    end, need = _span(pieces, start, lambda k: _held(pieces, k))
    for k in range(start + 1, end + 1):
        group = pieces[k].group
        if group is not None and group != pieces[k - 1].group:
            before = sum(piece.height + piece.after for piece in pieces[start:k - 1]) + pieces[k - 1].height
            _, whole = _span(pieces, k, _in_group(pieces, group))
            if before + pieces[k - 1].after + whole <= page:
                need = max(need, before + pieces[k - 1].after + whole)
            break
    return need


def _group_need(pieces: list[Piece], start: int, room: float, page: float) -> float:
    """The height needed below for the group starting at `start` (and the pieces kept with it), `room` being free
    on the page of `page`: the whole group where it fits a page, set closer where that fits it in `room` (its
    pieces replaced), unless it is loose and the page would be left less than `FILL_SHARE` filled."""
    group = pieces[start].group
    assert group is not None  # called where a group starts
    end, whole = _span(pieces, start, _in_group(pieces, group))
    if room < page and whole > room and _closed_fits(pieces, start, end, room):
        _, whole = _span(pieces, start, _in_group(pieces, group))
    _, need = _span(pieces, start, lambda k: _held(pieces, k))
    if whole <= page and not (_loose(pieces, start, end) and _part_empty(room, page)):
        need = max(need, whole)
    return need


def _loose(pieces: Sequence[Piece], start: int, end: int) -> bool:
    return any(piece.loose for piece in pieces[start:end + 1])


def _part_empty(room: float, page: float) -> bool:
    """Whether a page with `room` of its `page` height still free is less than `FILL_SHARE` filled."""
    return room > (1 - FILL_SHARE) * page


def _closed_fits(pieces: list[Piece], start: int, end: int, room: float) -> bool:
    """Whether the group `pieces[start:end + 1]`, which does not fit `room` as set, does once set closer (its lines
    and rows tighter, half the space between them, as a refit sets them); if so, its pieces are replaced by those.
    A group moved whole to the next page would leave this one part empty (the rules' points table and its
    note left 40 % of a page free)."""
    closer = [squeezed(tightened(piece), 0.5) for piece in pieces[start:end + 1]]
    height = sum(piece.height + piece.after for piece in closer) - closer[-1].after
    if height > room:
        return False
    pieces[start:end + 1] = closer
    return True


def paginate(pieces: Sequence[Piece], bottom: float = BOTTOM_Y, top: float = TOP_Y,
             later: float | None = None) -> Pages:
    """(piece, top) per page, the pieces placed between `top` and `bottom`; `later`: where the pages after the
    first begin (below a running head)."""
    return _laid(pieces, bottom, top, later).pages


@dataclass(frozen=True)
class _Laid:
    """Pieces paginated: the `pages`; the pieces as set (`pieces`: a group perhaps set closer); and for each placed
    piece its position among them (`at`, parallel to `pages`: None for a carried table's header placed again)."""

    pages: Pages
    pieces: list[Piece]
    at: list[list[int | None]]


def _laid(pieces: Sequence[Piece], bottom: float, top: float, later: float | None) -> _Laid:
    later = top if later is None else later
    pieces = list(pieces)  # a group may be set closer where that keeps it on the page begun
    pages: Pages = [[]]
    at: list[list[int | None]] = [[]]
    y = top
    group = None
    for i, piece in enumerate(pieces):
        if piece.new_page:
            if pages[-1]:
                pages.append([])
                at.append([])
                y = later
            continue
        if piece.gap and not pages[-1]:
            continue
        if piece.group is not None and piece.group != group:  # a group starts: all of it, where it fits whole
            group = piece.group
            need = _group_need(pieces, i, y - bottom if pages[-1] else later - bottom, later - bottom)
            piece = pieces[i]  # perhaps set closer
        else:
            need = _chain_need(pieces, i, later - bottom)  # kept with the pieces after it
        if need > later - bottom:
            need = piece.height
        if y - need < bottom and pages[-1]:
            pages.append([])
            at.append([])
            y = later
            if piece.gap:
                continue
            if sum(row.height + row.after for row in piece.header) + piece.height <= later - bottom:  # a table
                for row in piece.header:  # carried over: its header again (and its caption, with （续）), unless
                    pages[-1].append((row, y))  # the row would then not fit the page
                    at[-1].append(None)
                    y -= row.height + row.after
        pages[-1].append((piece, y))
        at[-1].append(i)
        y -= piece.height + piece.after
    kept = [k for k, page in enumerate(pages) if page]
    return _Laid([pages[k] for k in kept] or [[]], pieces, [at[k] for k in kept] or [[]])
