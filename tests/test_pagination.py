"""Pieces on pages (shuangsheng.render.materials.pagination): a spill of a few lines refitted onto a page fewer (the
tables a size smaller as the last resort, never below the document's table size, pen rows keeping their height)
or, where that cannot be, the last pages balanced so the last is not a page of a few lines."""

from __future__ import annotations

import io
import re
from dataclasses import replace

import pdfplumber
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangsheng.render.materials.flow import BOTTOM_Y, ROOM, TIGHT_SIZE, TOP_Y, Flow, Piece
from shuangsheng.render.materials.page import LARGE
from shuangsheng.render.materials.pagination import FIT_SHARE, fitted, paginate, squeezed, tightened, used
from shuangsheng.render.materials.wording import blocks
from tests.pdfcheck import page_fills, page_texts


def nothing(canvas, top) -> None:
    pass


def numbered(count: int, height: float) -> list[Piece]:
    """`count` rows of one table, each carrying its number as its text."""
    header = Piece(20, nothing, keep=True, table=1, text=(("表头",),))
    rows = [Piece(height, nothing, table=1, text=((str(k),),)) for k in range(count)]
    for row in rows[1:]:
        row.header = [header]
    return [header, *rows]


def order(pages) -> list[str]:
    """The numbers of the pieces placed (gaps and the repeated header aside), page after page."""
    return [piece.text[0][0] for page in pages for piece, _ in page
            if piece.text and piece.text[0][0] != "表头" and not piece.gap]


def test_a_long_table_ending_on_a_few_rows_is_balanced_over_its_last_two_pages():
    """Rows that cannot be set tighter (a pen row's height): three pages and two rows over. As set, the last page
    holds the two; balanced, the page before it ends as much higher as keeps it four pages: the two share the
    rows (at most one apart), the pages before them stay full."""
    per_page = int((ROOM - 20) // 40)
    pieces = numbered(3 * per_page + 2, 40)
    as_set = paginate(pieces)
    assert len(as_set) == 4 and used(as_set[-1], TOP_Y) < FIT_SHARE * ROOM
    pages = fitted(pieces, BOTTOM_Y, TOP_Y, TOP_Y)
    assert len(pages) == 4
    assert order(pages) == [str(k) for k in range(3 * per_page + 2)]  # every row once, in order
    counts = [len(page) - 1 for page in pages]  # less the header each page carries
    assert pages[:2] == as_set[:2] and abs(counts[-1] - counts[-2]) <= 1, counts
    assert all(top - piece.height >= BOTTOM_Y - 1e-6 for page in pages for piece, top in page)
    assert all(page[0][0].text == (("表头",),) for page in pages)  # the header again on every page


def test_balancing_starts_after_the_last_forced_page_break():
    """What comes before a page break stays as set; only the run after it is balanced."""
    first = Piece(ROOM * 0.3, nothing, text=(("前",),))
    pieces = [first, Piece(0, nothing, new_page=True), *numbered(30, ROOM / 20)]
    pages = fitted(pieces, BOTTOM_Y, TOP_Y, TOP_Y)
    assert [piece for piece, _ in pages[0]] == [first]
    assert len(pages) == 3 and used(pages[-1], TOP_Y) >= FIT_SHARE * ROOM


def test_a_document_ending_on_a_page_of_its_own_is_not_balanced():
    """A last page that a page break opened holds what was put there, not a spill: it stays as it is."""
    pieces = [*numbered(10, ROOM / 12), Piece(0, nothing, new_page=True), Piece(ROOM * 0.1, nothing, text=(("后",),))]
    assert fitted(pieces, BOTTOM_Y, TOP_Y, TOP_Y) == paginate(pieces)


def wall_table(flow: Flow, rows: int) -> list[Piece]:
    return flow.table([["桌号", "甲方", "乙方"], *([str(r), "第01组\n赵丽华、萧海涛", "第02组\n钱国庆、孙秀英"]
                                              for r in range(rows))], [0.2, 0.4, 0.4], size=22)


def test_a_table_is_set_a_size_smaller_as_the_last_resort_never_below_the_table_size(fonts):
    """A 22 pt table a little over a page, more than closing up and tighter lines take back: set at 18.5 pt
    (`TIGHT_SIZE`) it fits one page; its text never falls below the document's table size, and a table at that size is not made
    smaller."""
    flow = Flow(fonts, LARGE)

    def tightest(rows: int) -> int:  # pages with no space between pieces and the lines set tighter
        return len(paginate([squeezed(tightened(p), 0.0) for p in wall_table(flow, rows)], flow.bottom, flow.top))

    rows = next(r for r in range(5, 40) if tightest(r) == 2)  # the first that tighter lines cannot save
    pieces = wall_table(flow, rows)
    assert len(flow.pages(pieces)) == 1
    data = flow.pdf(pieces, title="t", invariant=True)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        sizes = {round(c["size"], 1) for c in pdf.pages[0].chars if c["text"].strip()}
    assert sizes == {round(22 * TIGHT_SIZE * 2) / 2} == {18.5}
    assert "".join(page_texts(data)).count("赵丽华") == rows
    at_floor = flow.table([["甲", "乙"], ["1", "2"]], [1, 1], size=LARGE.table)
    assert all(piece.smaller is None for piece in at_floor)


def test_pen_rows_keep_their_height_however_the_table_is_refitted(fonts):
    flow = Flow(fonts, LARGE)
    rows = flow.table([["组号", "签名"], *([f"{k:02d}", ""] for k in range(40))], [0.3, 0.7], size=20, row_height=34,
                      pen_height=34)
    for piece in rows[1:]:
        assert piece.height >= 34
        assert piece.tighter is not None and piece.tighter()[0] >= 34
        assert piece.smaller is not None and piece.smaller()[0] >= 34
    data = flow.pdf(rows, title="签到", invariant=True)
    assert page_fills(data)[-1] >= FIT_SHARE


@st.composite
def documents(draw):
    """Pieces of any heights, some kept with the next, some page breaks, a table: each carries its number."""
    pieces = []
    for k in range(draw(st.integers(1, 40))):
        kind = draw(st.sampled_from(["plain", "gap", "keep", "break"]))
        pieces.append(Piece(draw(st.floats(1, ROOM * 0.7)), nothing, after=draw(st.floats(0, 20)),
                            gap=kind == "gap", keep=kind == "keep", new_page=kind == "break", text=((f"p{k}",),)))
    if draw(st.booleans()):
        pieces[draw(st.integers(0, len(pieces))):0] = numbered(draw(st.integers(1, 40)), draw(st.floats(10, 80)))
    return pieces


@given(documents())
@settings(max_examples=200, deadline=None)
def test_fitting_places_every_piece_once_in_order_on_no_more_pages_than_as_set(pieces):
    as_set = paginate(pieces, BOTTOM_Y, TOP_Y, TOP_Y - 30)
    pages = fitted(pieces, BOTTOM_Y, TOP_Y, TOP_Y - 30)
    real = [p.text[0][0] for p in pieces if not p.gap and not p.new_page and p.text[0][0] != "表头"]
    assert order(pages) == real
    assert len(pages) <= len(as_set)
    for number, page in enumerate(pages):
        for piece, top in page:
            assert top <= (TOP_Y if number == 0 else TOP_Y - 30) + 1e-6
            assert top - piece.height >= BOTTOM_Y - 1e-6 or piece.height > ROOM - 30


def body_rows(page) -> int:
    return sum(1 for piece, _ in page if piece.table is not None and not piece.keep)


def test_a_table_broken_across_pages_carries_at_least_two_body_rows_onto_each():
    """Whatever its length, a table never opens a page with its last row alone under the repeated header: the
    row before goes over with it (a table of one body row aside)."""
    per_page = int((ROOM - 20) // 40)
    for count in range(2, 3 * per_page + 3):
        pages = paginate(numbered(count, 40))
        assert order(pages) == [str(k) for k in range(count)]
        assert all(body_rows(page) >= 2 for page in pages), (count, [body_rows(page) for page in pages])
    one = paginate([Piece(ROOM - 30, nothing), *numbered(1, 40)])
    assert [body_rows(page) for page in one] == [0, 1]


def test_a_line_following_a_table_goes_over_with_its_last_two_rows():
    """A piece that `follows` (the 晋级下一轮 line under a round's results) is never the first thing on a page:
    when it does not fit below the table, it takes the table's last two rows with it."""
    per_page = int((ROOM - 20) // 40)
    for count in range(per_page - 3, per_page + 3):
        closing = Piece(30, nothing, follows=True, text=(("晋级",),))
        pages = paginate([*numbered(count, 40), closing])
        page = next(page for page in pages if any(piece is closing for piece, _ in page))
        assert page[0][0].text == (("表头",),) and body_rows(page) >= 2, count


def blocks_pieces(flow: Flow, lines: list[str]) -> list[Piece]:
    from shuangsheng.render.materials.wording import blocks

    return flow.markup(blocks(lines))


def test_a_template_line_right_under_a_table_stays_with_it_and_a_lead_in_does_not(fonts):
    flow = Flow(fonts, LARGE)
    table = ["|= 20 40 40", "|# 桌号 | 甲方 | 乙方", *(f"| {k} | 第0{k}组 | 第1{k}组" for k in range(1, 4))]
    pieces = blocks_pieces(flow, [*table, "< 轮空：第09组", "< 晋级下一轮（4组）：第01组", "< 需要改正的地方：",
                                  "|= 50 50", "| 甲 | 乙", "~", "< 本轮由电脑抽签。"])
    follows = {piece.text[0][0]: piece.follows for piece in pieces if piece.text and not piece.table}
    assert follows == {"轮空：第09组": True, "晋级下一轮（4组）：第01组": True, "需要改正的地方：": False,
                       "本轮由电脑抽签。": False}


def test_a_paragraph_with_a_line_break_prints_both_lines_as_one_piece(fonts):
    """The draw's seed and how staff check it ({{ br }} between them) are never split across pages."""
    flow = Flow(fonts, LARGE)
    pieces = blocks_pieces(flow, ["< 本轮由电脑抽签，随机种子 223371669。\u2028复核：工作人员可用此随机种子复核本轮抽签。"])
    assert [piece.text for piece in pieces] == [(("本轮由电脑抽签，随机种子 223371669。", "复核：工作人员可用此随机种子复核本轮抽签。"),)]


def test_a_table_under_its_caption_starts_a_page_with_it_rather_than_break(fonts):
    """The 对阵表's 按组号找桌号 index: whatever stands above it, the caption and the whole index are on one page
    (it fits one); a table too long for a page still breaks, its caption above its first rows."""
    flow = Flow(fonts, LARGE)
    index = ["< 按组号找桌号：", "|= 25 25 25 25 @18", "|# 组号 | 桌号 | 组号 | 桌号",
             *(f"| {2 * k + 1:03d} | {k + 1} | {2 * k + 2:03d} | {k + 1}" for k in range(14))]
    for lines in range(0, 40, 3):
        pieces = blocks_pieces(flow, [*(f"< 第{k}行说明文字。" for k in range(lines)), *index])
        pages = flow.pages(pieces, "对阵表", fit=False)
        holding = [n for n, page in enumerate(pages) if any(piece.table for piece, _ in page)]
        assert len(holding) == 1, lines
        assert any(piece.text == (("按组号找桌号：",),) for piece, _ in pages[holding[0]])
    long = blocks_pieces(flow, [*index[:3], *index[3:] * 4])
    assert len(flow.pages(long, "对阵表", fit=False)) > 1


def page_lines(data: bytes) -> list[list[str]]:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [(page.extract_text() or "").split("\n") for page in pdf.pages]


def index_pages(data: bytes) -> list[int]:
    """The pages (from 0) that print a row of the 按组号找桌号 index (a line of 组号 and 桌号 only)."""
    return [number for number, lines in enumerate(page_lines(data))
            if any(line.startswith("组号 桌号") or re.fullmatch(r"(\d+ (\d+|轮空) ?)+", line) for line in lines)]


@pytest.mark.parametrize(("teams", "large", "pairs"), [(13, True, 4), (100, True, 5), (128, False, 6)])
def test_a_draw_sheets_index_stands_whole_on_one_page_with_more_pairs_a_row_where_needed(fonts, teams, large, pairs):
    """At 4 pairs a row the index of 100 teams in large print (or of 128 in regular print) is taller than a page:
    it takes 5 (6) pairs a row, a size smaller, and stands whole on one page under its caption, every cell on one
    line; a small field keeps 4. Past what any layout holds (128 teams in large print) it breaks as a table does."""
    from shuangsheng.knockout.knockout import Pairing, Round
    from shuangsheng.knockout.teams import Team
    from shuangsheng.render.materials.draw_sheet import draw_sheet_pdf
    from shuangsheng.storage.event import default_event

    ids = [f"{k:0{len(str(teams)) if teams > 99 else 2}d}" for k in range(1, teams + 1)]
    field = {i: Team(i, (f"赵{i}", f"钱{i}")) for i in ids}
    byes = tuple(ids[: teams % 2])
    playing = ids[len(byes):]
    drawn = Round(1, tuple(ids), tuple(Pairing(k + 1, playing[2 * k], playing[2 * k + 1])
                                      for k in range(len(playing) // 2)), byes, 7)
    event = default_event()
    event = replace(event, print=replace(event.print, large_print=large))
    data = draw_sheet_pdf(event, drawn, field, digits=3 if teams > 99 else 2, fonts=fonts, invariant=True)
    holding = index_pages(data)
    assert len(holding) == 1, holding
    lines = page_lines(data)[holding[0]]
    assert "按组号找桌号：" in lines
    assert next(line for line in lines if line.startswith("组号")).split() == ["组号", "桌号"] * pairs
    rows = [line.split() for line in lines if re.fullmatch(r"(\d+ (\d+|轮空) ?)+", line)]
    assert [cell for row in rows for cell in row[::2]] == ids  # every team in number order, each row on one line
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[holding[0]]  # the index: from its caption down to the page number
        caption = min(c["top"] for c in page.chars if c["text"] == "按")
        footer = max(c["top"] for c in page.chars)
        assert min(c["size"] for c in page.chars if c["text"].strip() and caption <= c["top"] < footer - 1) >= 12


def test_a_last_page_more_than_a_spill_is_still_refitted_onto_a_page_fewer_where_that_is_enough():
    """A table whose last two rows carry four closing lines over (the 轮空, 晋级 and 下一步 lines under a round's
    results): the last page is over half full, more than a spill, yet closing up the space between the pieces puts
    it all on one page, as the 24-team 第1轮成绩 was before those lines were kept with the table."""
    rows = [Piece(ROOM / 16, nothing, table=1, text=((str(k),),), after=0.0) for k in range(9)]
    closing = [Piece(ROOM / 16, nothing, follows=True, text=((f"行{k}",),), after=ROOM / 30) for k in range(4)]
    heading = Piece(ROOM / 8, nothing, keep=True, text=(("标题",),), after=ROOM / 10)
    pieces = [heading, *rows, *closing]
    as_set = paginate(pieces)
    assert len(as_set) == 2 and used(as_set[-1], TOP_Y) > FIT_SHARE * ROOM  # not a spill of a few lines
    assert len(fitted(pieces, BOTTOM_Y, TOP_Y, TOP_Y)) == 1


def test_a_group_set_closer_stays_on_the_page_it_fits_closer_on():
    """A group that does not fit below as set but does with its lines tighter stays there, set so, rather than
    leaving the page part empty; one that fits neither way starts the next page whole (not loose) or breaks
    there (loose)."""
    def group(loose: bool, tight: float, free: float = 180, count: int = 6) -> list[Piece]:
        rows = [Piece(40, nothing, group=9, loose=loose, text=((str(k),),), tighter=lambda: (tight, nothing))
                for k in range(count)]
        return [Piece(ROOM - free, nothing, text=(("前文",),)), *rows]

    closer = paginate(group(False, 29), BOTTOM_Y, TOP_Y)  # 240 as set, 174 closer: 180 free
    assert len(closer) == 1 and [piece.height for piece, _ in closer[0][1:]] == [29] * 6
    moved = paginate(group(False, 39), BOTTOM_Y, TOP_Y)  # 234 closer: moved whole
    assert [len(page) for page in moved] == [1, 6]
    kept = paginate(group(True, 39), BOTTOM_Y, TOP_Y)  # loose, but the page before is 70 % full or more: moved
    assert [len(page) for page in kept] == [1, 6]
    broken = paginate(group(True, 39, free=0.4 * ROOM, count=8), BOTTOM_Y, TOP_Y)  # 60 % full: broken there
    assert len(broken) == 2 and len(broken[0]) > 3


def test_a_table_carried_over_repeats_its_caption_with_continued(fonts):
    """The 128-team 对阵表's index went on over a page with its header rows but no caption: the page after says
    "按组号找桌号（续）：" above them."""
    flow = Flow(fonts, LARGE)
    lines = ["按组号找桌号：", "|= 1 1", "|# 组号 | 桌号", *(f"| {k:03d} | {k % 7 + 1}" for k in range(60))]
    pieces = flow.markup(blocks(lines))
    texts = page_texts(flow.pdf(pieces, title="t", running="对阵表", invariant=True))
    assert len(texts) > 1 and "按组号找桌号：" in texts[0]
    assert all("按组号找桌号（续）：组号桌号" in text for text in texts[1:])


def test_a_heading_goes_with_the_group_it_is_kept_with():
    """A heading kept with a caption whose table (a group) moves whole to the next page went there without it,
    ending the page before (found by test_no_rule_broken_on_any_page): it goes along."""
    heading = Piece(40, nothing, keep=True, text=(("标题",),))
    group = [Piece(60, nothing, group=7, keep=k == 0, text=((f"{k}",),)) for k in range(5)]
    pages = paginate([Piece(ROOM - 200, nothing, text=(("前文",),)), heading, *group], BOTTOM_Y, TOP_Y)
    assert [len(page) for page in pages] == [1, 6] and pages[1][0][0] is heading


@st.composite
def documents_of_pieces(draw) -> list[Piece]:
    """Random pieces: lines (some kept with the next), gaps, forced breaks, groups (some loose) and tables."""
    pieces: list[Piece] = []
    groups = tables = 0
    for kind in draw(st.lists(st.sampled_from(["line", "gap", "break", "group", "table"]), min_size=4, max_size=24)):
        name = f"p{len(pieces)}"
        if kind == "gap":
            pieces.append(Piece(5, nothing, gap=True, text=((name,),)))
        elif kind == "break":
            pieces.append(Piece(0, nothing, new_page=True, text=((name,),)))
        elif kind == "line":
            pieces.append(Piece(draw(st.floats(3, 25)), nothing, draw(st.floats(0, 6)), keep=draw(st.booleans()),
                                text=((name,),)))
        elif kind == "group":
            groups += 1
            loose = draw(st.booleans())
            for k in range(draw(st.integers(1, 4))):
                pieces.append(Piece(draw(st.floats(2, 15)), nothing, draw(st.floats(0, 5)), group=groups, loose=loose,
                                    text=((f"{name}.{k}",),)))
        else:
            tables += 1
            header = Piece(8, nothing, keep=True, table=tables, text=((f"{name}.h",),))
            pieces.append(header)
            for k in range(draw(st.integers(2, 14))):
                pieces.append(Piece(draw(st.floats(6, 12)), nothing, table=tables, header=[header],
                                    text=((f"{name}.{k}",),)))
    return pieces


@settings(max_examples=200, deadline=None)
@given(documents_of_pieces())
def test_every_piece_is_placed_once_in_order_and_inside_the_page(pieces):
    """However refitted and balanced (a group set closer on the page before the last was once placed on both pages,
    the 6-team 成绩公告's 第2轮 table twice): each piece but gaps, breaks and repeated table headers exactly once,
    in order, above the bottom margin."""
    repeated = {p.text[0][0] for p in pieces if p.gap or p.new_page or (p.keep and p.table is not None)}
    want = [p.text[0][0] for p in pieces if p.text[0][0] not in repeated]
    pages = fitted(pieces, 0, 100, 90)
    placed = [p.text[0][0] for page in pages for p, _ in page if p.text[0][0] not in repeated]
    assert placed == want
    assert all(y - p.height >= -1e-6 for page in pages for p, y in page)


def test_a_group_set_closer_on_the_page_before_the_last_is_placed_once():
    """Nine rows, a group set closer to stay on the first page, one row over: balancing the last two pages placed
    the group's closer copy where it was and the group again on the next page (the reviewer's case)."""
    rows = [Piece(10, nothing, text=((f"r{k}",),)) for k in range(9)]
    group = [Piece(4, nothing, 3, group=1, text=(("g1",),)), Piece(4, nothing, group=1, text=(("g2",),))]
    pieces = [*rows, *group, Piece(10, nothing, text=(("t0",),))]
    pages = fitted(pieces, 0, 100, 100)
    assert [p.text[0][0] for page in pages for p, _ in page] == [p.text[0][0] for p in pieces]
