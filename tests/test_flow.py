"""The wording markup drawn on the canvas (shuangsheng.render.materials.flow): every kind of line, pages, tables, the house style."""

from __future__ import annotations

import io
import subprocess
import sys

import pdfplumber
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangsheng.render.materials.flow import (
    BOTTOM_Y,
    LEFT,
    ROOM,
    TOP_Y,
    WIDTH,
    Flow,
    Piece,
    flow_pdf,
    together,
)
from shuangsheng.render.materials.fonts import choose_fonts
from shuangsheng.render.materials.page import LARGE, REGULAR
from shuangsheng.render.materials.pagination import paginate
from shuangsheng.render.materials.wording import DATA_END, DATA_START, BlockKind, MaterialsError, blocks
from tests.pdfcheck import assert_printable, page_texts, pages, text_of

ALL_KINDS = [
    "# 第1轮　成绩",
    "< 离退休教职工双升级（双扣）比赛",
    "本轮各桌按时结束，" + "每桌的级数与胜负见下表，" * 8 + "请核对。",
    "+ 补充说明：加赛局由乙方先坐庄。",
    "~",
    "|= 20 40 40",
    "|# 桌号 | 甲方 | 乙方",
    "| 1 | 第01组\u2028张三、李四 | 第02组\u2028王五、赵六",
    "| 2 | 第03组 | 第04组",
    "> 离退休服务中心",
    "> 2026年11月30日",
]


def _chars(data: bytes) -> list[list[dict]]:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [page.chars for page in pdf.pages]


def pdf_of(lines, fonts, sizes, **options) -> bytes:
    return flow_pdf(blocks(lines), fonts, sizes, **options)


def test_the_markup_groups_into_blocks():
    kinds = [b.kind for b in blocks(ALL_KINDS)]
    K = BlockKind
    assert kinds == [K.TITLE, K.PLAIN, K.BODY, K.ASIDE, K.GAP, K.TABLE, K.SIGNATURE]
    (table,) = blocks(["|= 25 75 @14", "|# 甲 | 乙", "| a | b |", "| c"])
    assert table.table.rows == ((True, ("甲", "乙")), (False, ("a", "b")), (False, ("c", "")))
    assert table.table.widths == (0.25, 0.75) and table.table.size == 14
    (insert,) = blocks(["@对阵 开始 | 级数"])
    assert (insert.kind, insert.name, insert.args) == (K.INSERT, "对阵", ("开始", "级数"))
    assert blocks(["~x"])[0].kind is K.BODY and blocks(["# 一", "# 二"])[0].lines == ("一", "二")


def data(text: str) -> str:
    """Text as `{{ }}` inserts it (see wording._as_data)."""
    return f"{DATA_START}{text}{DATA_END}"


def test_what_data_inserted_is_never_markup():
    """A value from event.toml or teams.xlsx that looks like markup is text: no mark, no insert, no cell."""
    found = blocks([data("@获奖名单"), data("# 标题"), "< " + data("~"), data("|= 1 2"), data("> 落款"),
                    "| 1 | " + data("王|五") + " | x", "@对阵 " + data("a | b") + " | c", "# " + data("{{ br }}{% x %}")])
    K = BlockKind
    assert [b.kind for b in found] == [K.BODY, K.BODY, K.PLAIN, K.BODY, K.BODY, K.TABLE, K.INSERT, K.TITLE]
    assert [b.text for b in found[:5]] == ["@获奖名单", "# 标题", "~", "|= 1 2", "> 落款"]
    assert found[5].table.rows == ((False, ("1", "王|五", "x")),)
    assert found[6].args == ("a | b", "c")
    assert found[7].lines == ("{{ br }}{% x %}",)
    with pytest.raises(MaterialsError, match="“@”后面应紧跟"):
        Flow(choose_fonts(candidates=[]), LARGE).markup(blocks(["@" + data("得分表")]), {"得分表": lambda _: []})


def test_every_kind_of_line_prints_in_large_print_inside_the_margins(fonts):
    data = pdf_of(ALL_KINDS, fonts, LARGE, title="测试", invariant=True)
    assert_printable(data, smallest=14)
    text = text_of(data)
    for piece in ("第1轮　成绩".replace("　", ""), "离退休教职工双升级（双扣）比赛", "请核对。", "补充说明：加赛局由乙方先坐庄。",
                  "桌号甲方乙方", "第01组张三、李四", "离退休服务中心2026年11月30日"):
        assert piece in text


def test_regular_print_is_never_below_10pt(fonts):
    assert_printable(pdf_of(ALL_KINDS, fonts, REGULAR, title="测试", invariant=True), smallest=10)


def test_a_body_paragraph_is_indented_and_justified_to_the_right_edge(fonts):
    data = pdf_of(["本轮各桌按时结束，" + "每桌的级数与胜负见下表，" * 8 + "请核对。"], fonts, LARGE, title="t",
                    invariant=True)
    lines: dict[float, list[dict]] = {}
    for ch in _chars(data)[0]:
        lines.setdefault(round(ch["top"]), []).append(ch)
    rows = [sorted(chars, key=lambda c: c["x0"]) for _, chars in sorted(lines.items())]
    assert len(rows) >= 3
    assert rows[0][0]["x0"] == pytest.approx(LEFT + 2 * LARGE.body, abs=1)  # the first line two characters in
    assert rows[1][0]["x0"] == pytest.approx(LEFT, abs=1)
    for row in rows[:-1]:  # every line but the last reaches the right edge
        assert row[-1]["x1"] == pytest.approx(LEFT + WIDTH, abs=1.5)
    assert rows[-1][-1]["x1"] < LEFT + WIDTH - 2 * LARGE.body  # the last line is not stretched


def test_a_signature_sits_at_the_right_margin_its_lines_centred_on_each_other(fonts):
    data = pdf_of(["> 离退休服务中心", "> 2026年11月30日"], fonts, LARGE, title="t", invariant=True)
    lines: dict[float, list[dict]] = {}
    for ch in _chars(data)[0]:
        lines.setdefault(round(ch["top"]), []).append(ch)
    centres = [(min(c["x0"] for c in row) + max(c["x1"] for c in row)) / 2 for row in lines.values()]
    assert len(centres) == 2 and centres[0] == pytest.approx(centres[1], abs=1)
    assert max(c["x1"] for row in lines.values() for c in row) < LEFT + WIDTH
    assert centres[0] > LEFT + WIDTH / 2


def test_a_long_signature_wraps_inside_the_margins(fonts):
    organiser = "某某市某某区某某街道离退休教职工服务中心暨老年人体育协会双升级分会组织委员会办公室"
    data = pdf_of([f"> {organiser}", "> 2026年3月3日"], fonts, LARGE, title="t", invariant=True)
    assert_printable(data, smallest=14)
    assert organiser + "2026年3月3日" in text_of(data)


def test_a_long_table_repeats_its_header_on_every_page_with_page_numbers(fonts):
    rows = [f"| {n} | 第{n:02d}组 | 第{n + 100}组" for n in range(1, 61)]
    data = pdf_of(["# 第1轮成绩", "|= 20 40 40", "|# 桌号 | 甲方 | 乙方", *rows, "< 下一步：抽下一轮。"], fonts, LARGE,
                    title="t", invariant=True)
    assert_printable(data, smallest=14)
    texts = page_texts(data)
    assert len(texts) == pages(data) >= 3
    for number, text in enumerate(texts, start=1):
        assert "桌号甲方乙方" in text
        assert f"第{number}页共{len(texts)}页" in text
    assert "".join(texts).count("第01组") == 1 and "下一步：抽下一轮。" in texts[-1]


def test_a_one_page_document_has_no_page_number(fonts):
    assert "第1页" not in text_of(pdf_of(["# 标题", "< 一行。"], fonts, LARGE, title="t", invariant=True))


def test_the_header_goes_with_the_first_row_and_pen_rows_keep_their_height(fonts):
    pieces = Flow(fonts, LARGE).markup(blocks(["|= 50 50 h12", "|# 甲 | 乙", "| a | b", *["| | "] * 7]))
    assert len(pieces) == 9
    assert pieces[0].keep and not any(p.keep for p in pieces[1:])  # the header is kept with the first row
    small = Flow(fonts, LARGE).markup(blocks(["|= 50 50", "|# 甲 | 乙", *["| a | b"] * 6]))
    assert all(p.keep for p in small[:-1]) and not small[-1].keep  # a table of 6 rows or fewer: never broken
    assert not pieces[1].header and all(p.header == [pieces[0]] for p in pieces[2:])  # and comes again later
    assert pieces[2].height == pytest.approx(12 * 72 / 25.4)
    assert len({p.table for p in pieces}) == 1


def test_a_header_is_never_left_alone_at_the_foot_of_a_page(fonts):
    flow = Flow(fonts, LARGE)
    table = flow.table([["甲", "乙"], ["a", "b"], ["c", "d"]], [1, 1])
    filler = Piece(ROOM - table[0].height - 5, lambda canvas, top: None)  # room for the header, not the row
    pages = paginate([filler, *table])
    assert [len(page) for page in pages] == [1, 3] and pages[1][0][0] is table[0]


def test_pages_break_between_pieces_and_a_gap_never_opens_a_page():
    nothing = lambda canvas, top: None  # noqa: E731
    last = Piece(ROOM * 0.5, nothing)
    placed = paginate([Piece(ROOM * 0.6, nothing), Piece(ROOM * 0.35, nothing), Piece(ROOM * 0.1, nothing, gap=True),
                        last])
    assert [len(page) for page in placed] == [2, 1]
    assert placed[1] == [(last, TOP_Y)]  # the second page starts at the top with the piece, not with the gap


def test_a_group_starts_a_fresh_page_together_unless_it_is_taller_than_one():
    nothing = lambda canvas, top: None  # noqa: E731
    block = together([Piece(ROOM * 0.2, nothing), Piece(ROOM * 0.2, nothing)])
    pages = paginate([Piece(ROOM * 0.7, nothing), *block])
    assert [len(page) for page in pages] == [1, 2]
    tall = together([Piece(ROOM * 0.6, nothing), Piece(ROOM * 0.6, nothing)])
    pages = paginate([Piece(ROOM * 0.3, nothing), *tall])
    assert [len(page) for page in pages] == [2, 1]  # too tall for one page: it breaks where it must


def test_room_left_is_what_the_last_page_has_below_the_pieces(fonts):
    flow = Flow(fonts, LARGE)
    assert flow.room_left([]) == pytest.approx(ROOM)
    pieces = [Piece(ROOM * 0.7, lambda canvas, top: None), Piece(ROOM * 0.5, lambda canvas, top: None, after=10)]
    assert flow.room_left(pieces) == pytest.approx(ROOM * 0.5 - 10 - flow.head_height())  # below the running head
    # a gap that does not fit opens the next page: the room is that whole page
    assert flow.room_left([Piece(ROOM - 3, lambda canvas, top: None), flow.space(6)]) == pytest.approx(ROOM - flow.head_height())


def test_a_row_that_fits_a_page_only_without_the_repeated_header_is_printed_without_it(fonts):
    nothing = lambda canvas, top: None  # noqa: E731
    header = Piece(30, nothing, keep=True, table=1)
    first, tall = Piece(20, nothing, table=1), Piece(ROOM - 14, nothing, table=1, header=[header])
    pages = paginate([header, first, tall])
    assert [[p for p, _ in page] for page in pages] == [[header, first], [tall]]
    assert all(top - p.height >= BOTTOM_Y - 1e-6 for page in pages for p, top in page)


def test_inserts_are_pieces_the_document_makes(fonts):
    flow = Flow(fonts, LARGE)
    pieces = flow.markup(blocks(["# 标题", "@表格", "< 后记。"]), {"表格": lambda _: flow.table([["甲"], ["1"]], [1])})
    text = text_of(flow.pdf(pieces, title="t", invariant=True))
    assert "标题" in text and text.index("甲1") < text.index("后记。")


def test_an_insert_is_refused_naming_it(fonts):
    with pytest.raises(MaterialsError, match="@得分表.*不认识"):
        pdf_of(["# 标题", "@得分表"], fonts, LARGE, title="t", invariant=True)


def test_user_text_prints_literally(fonts):
    text = text_of(pdf_of(["< 王<b>五 & 赵&amp;六"], fonts, LARGE, title="t", invariant=True))
    assert "王<b>五&赵&amp;六" in text


@pytest.mark.parametrize("module", ["shuangsheng.render.materials.results", "shuangsheng.render.materials.documents", "shuangsheng.render.materials.bracket_chart", "shuangsheng.render.materials.announcement", "shuangsheng.render.materials.certificates", "shuangsheng.render.materials.paper"])
def test_no_document_imports_platypus(module):
    """Every document is drawn on the canvas: reportlab's layout engine is never imported (it cost `score` a
    third of its time)."""
    code = f"import sys, {module}; print(any(m.startswith('reportlab.platypus') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"


@st.composite
def piece_runs(draw):
    nothing = lambda canvas, top: None  # noqa: E731
    pieces = []
    for _ in range(draw(st.integers(0, 40))):
        height = draw(st.floats(0, ROOM * 1.2))
        kind = draw(st.sampled_from(["plain", "gap", "keep", "break"]))
        pieces.append(Piece(height, nothing, after=draw(st.floats(0, 20)), gap=kind == "gap", keep=kind == "keep",
                            new_page=kind == "break"))
    if draw(st.booleans()) and pieces:
        together(pieces[: draw(st.integers(1, len(pieces)))])
    if draw(st.booleans()):  # a table: a header kept with its first row, repeated above later pages' rows
        header = Piece(draw(st.floats(10, 60)), nothing, keep=True, table=1)
        rows = [Piece(draw(st.floats(10, ROOM)), nothing, table=1) for _ in range(draw(st.integers(1, 30)))]
        for row in rows[1:]:
            row.header = [header]
        pieces[draw(st.integers(0, len(pieces))):0] = [header, *rows]
    return pieces


@given(piece_runs())
@settings(max_examples=300, deadline=None)
def test_pagination_places_every_piece_once_in_order_inside_the_frame(pieces):
    pages = paginate(pieces)
    placed = [piece for page in pages for piece, _ in page if not piece.gap]
    real = [p for p in pieces if not p.gap and not p.new_page]
    first_times = [p for k, p in enumerate(placed) if not any(p is q for q in placed[:k])]
    assert [id(p) for p in first_times] == [id(p) for p in real]  # each once, in order
    repeats = [p for k, p in enumerate(placed) if any(p is q for q in placed[:k])]
    assert all(p.keep and p.table is not None for p in repeats)  # only a table's header comes again,
    seen: list[Piece] = []
    for page in pages:  # and only at the top of a page
        pieces_here = [p for p, _ in page]
        again = [k for k, p in enumerate(pieces_here) if any(p is q for q in seen)]
        assert again == list(range(len(again)))
        seen += pieces_here
    for page in pages:
        for piece, top in page:
            assert top <= TOP_Y + 1e-6
            if piece.height <= ROOM:  # a piece taller than a page is the only thing that may pass its foot
                assert top - piece.height >= BOTTOM_Y - 1e-6
    assert all(page for page in pages) or pages == [[]]
