"""The day's papers as a typesetter checks them (issue 34): read back from the PDFs the demo prints at 5, 13 and
128 teams (pdfplumber), every document paged, numbered and continued as every multi-page paper must be, ids in number order and one
width, 过A told from A级, no line letter-spaced and no break inside a number, a range, a level with its words, a word
of the wording or an id with its names' bracket."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from shuangsheng.render.materials.flow import Flow
from shuangsheng.render.materials.page import REGULAR
from tests.pdfcheck import cell_clearances, letter_spaced, line_texts, page_fills, page_texts, pages, text_lines

# Papers laid out as text (the score cards and slips are forms of boxes, checked in test_paper.py).
TEXT_PAPERS = ("通知.pdf", "比赛规则.pdf", "规则口径确认单.pdf", "报名表.pdf", "纪念品领取签收表.pdf", "成绩公告.pdf",
               "第1轮对阵表.pdf", "第1轮成绩.pdf", "第2轮成绩.pdf", "签到表.pdf", "抽签签条.pdf", "秩序册.pdf")  # fmt: skip
# A line ending so and the next beginning so: a break the reader misreads ("罚分 / 后台下方" reads 后台).
FORBIDDEN_JOINS = (
    (r"电$", r"^话"), (r"罚分$", r"^后"), (r"罚分后$", r"^台"), (r"第十$", r"^[一二三四五六七八九]条"), (r"打$", r"^过"),
    (r"第\d+组$", r"^（"), (r"\d$", r"^[–−]"), (r"[–−]$", r"^[\d−]"), (r"十$", r"^[一二三四五六七八九]"),
    # the typesetter's second look (issue 34): 到/场时间, 抽/签方式, 才/能通过, 加/一级, 升/一级, 降至2、/J，,
    # 第1、2……/桌）, 签号1与/2
    (r"到$", r"^场"), (r"抽$", r"^签"), (r"才$", r"^能"), (r"[加升降]$", r"^[一二三四五六七八九十\d]+级"),
    (r"[\dJQKA][、与]$", r"^[\dJQKA]"), (r"…$", r"^[桌组轮]"), (r"必打$", r"^级"),
    # the sign-off review (second round): a numeral parted from its measure (四 / 连对, 三等 / 奖, 两 / 副牌, 下 / 一副)
    # and 页 / 脚, 剩 / 下, 不 / 下台, 少 / 升, 打 / 其他级
    (r"[一二三四五六七八九十两]$", r"^[副等连场轮局张级名组桌人次个条项倍届页位对]"), (r"等$", r"^奖"), (r"页$", r"^脚"),
    (r"剩$", r"^下"), (r"下$", r"^一副"), (r"不$", r"^下台"), (r"少$", r"^升"), (r"打$", r"^其他"),
)  # fmt: skip


def demo(tmp_path_factory, teams: int):
    from shuangsheng.cli import app

    folder = tmp_path_factory.mktemp(f"demo{teams}")
    result = CliRunner().invoke(app, ["demo", "--out", str(folder), "--teams", str(teams)])
    assert result.exit_code == 0, result.output
    SAID[folder] = result.output
    return folder


SAID: dict = {}  # what each demo said in the terminal, by its folder


@pytest.fixture(scope="module", params=[5, 13, 128])
def field(request, tmp_path_factory):
    return request.param, demo(tmp_path_factory, request.param)


@pytest.fixture
def papers(field):
    return field[1]


def bad_joins(pages: list[list[str]]) -> list[str]:
    found = []
    for number, lines in enumerate(pages, start=1):
        for line, after in zip(lines, lines[1:], strict=False):
            for end, start in FORBIDDEN_JOINS:
                if re.search(end, line) and re.search(start, after):
                    found.append(f"p{number}: {line[-10:]!r} | {after[:10]!r}")
    return found


def test_no_paper_line_is_letter_spaced(papers):
    """'2 . 报 名 地 点 ：' on the notice, '4 0' on the rules: a line short of the width stays ragged (or has
    its marks pressed), never spread out."""
    for name in TEXT_PAPERS:
        assert not letter_spaced((papers / name).read_bytes()), name


def short_lines(data: bytes, em: float = 1.0) -> list[str]:
    """The lines inside a paragraph (the next line, at the same size just below, is not indented: not a new
    paragraph) that end more than `em` short of the page's measure, other than at a full stop, colon or
    closing bracket."""
    from tests.pdfcheck import text_lines

    found = []
    for number, runs in enumerate(text_lines(data), start=1):
        right = max(run[-1]["x1"] for run in runs)
        for run, after in zip(runs, runs[1:], strict=False):
            size, text = run[0]["size"], "".join(c["text"] for c in run)
            follows = after[0]["size"] == size and abs(after[0]["top"] - run[0]["top"]) <= 2 * size
            if len(run) < 15 or not follows or after[0]["x0"] > run[0]["x0"] + size / 2 or text.endswith(("。", "：", "）")):
                continue
            if right - run[-1]["x1"] > em * size:
                found.append(f"p{number}: {text}")
    return found


def test_the_rules_lines_reach_the_measure(papers):
    """比赛规则's lines inside a paragraph ended 1.0–1.6 em short ("四、抢庄…即为 / 庄家。", p2, p3: nine in all at 13
    teams) where a word or a unit would not fit: its marks pressed (标点挤压, the paragraph's close hanging into
    the frame's padding) take it in. At most one is left, where even pressing cannot (相应的 / 级数。)."""
    short = short_lines((papers / "比赛规则.pdf").read_bytes())
    assert len(short) <= 1 and not any("四、抢庄" in line or "补充说明" in line for line in short), short


FULL_WIDTH_MARKS = "，。、；：！？）》」』】〕〉”’（《「『【〔〈“‘"


def mark_gaps(data: bytes, fonts) -> list[tuple[str, float | None, float | None, bool]]:
    """Per full-width bracket, ！？：； on the pages: (its context, the ink gap to its outer neighbour and to its
    inner one in ems, whether a neighbour is itself a mark). Ink from where pdfplumber puts each character's
    advance and the blank the font leaves beside its glyph (`FontSet.blanks`, read from the font's 'glyf')."""
    def ink(ch: dict) -> tuple[float, float]:
        left, right = fonts.blanks(ch["text"], ch["size"]) or (0.0, 0.0)
        return ch["x0"] + left, ch["x1"] - right

    found = []
    for runs in text_lines(data):
        for run in runs:
            chars = [ch for ch in run if ch["text"].strip()]
            for i, ch in enumerate(chars):
                if ch["text"] not in "（）！？：；":
                    continue
                before = chars[i - 1] if i and ch["x0"] - chars[i - 1]["x1"] < 0.3 * ch["size"] else None
                after = chars[i + 1] if i + 1 < len(chars) and chars[i + 1]["x0"] - ch["x1"] < 0.3 * ch["size"] else None
                left, right = ink(ch)
                gap_before = (left - ink(before)[1]) / ch["size"] if before else None
                gap_after = (ink(after)[0] - right) / ch["size"] if after else None
                outer, inner = (gap_before, gap_after) if ch["text"] == "（" else (gap_after, gap_before)
                marks = any(other is not None and other["text"] in FULL_WIDTH_MARKS for other in (before, after))
                context = "".join(other["text"] for other in chars[max(i - 3, 0):i + 4])
                found.append((context, outer, inner, marks))
    return found


def test_pressed_marks_keep_clear_of_both_neighbours(papers, fonts):
    """Issue 34's sign-off review: （ ） ！ ？ are centred in WenQuanYi Micro Hei's em, and pressing them on one side
    only (标点挤压) set "补充说明( 罚分怎样计 ):", "这一副( 保庄 )才能", "祝贺 !感谢". Every bracket and mark stands
    at least a tenth of an em clear of the ink beside it, and a bracket's inside gap is never much wider than its
    outside one (pressed, each mark gives the blank really there on each side of its glyph)."""
    for name in ("通知.pdf", "比赛规则.pdf", "规则口径确认单.pdf", "成绩公告.pdf", "第1轮成绩.pdf"):
        for context, outer, inner, marks in mark_gaps((papers / name).read_bytes(), fonts):
            assert outer is None or outer >= 0.1, (name, context, outer)
            assert inner is None or inner >= 0.1, (name, context, inner)
            assert marks or outer is None or inner is None or inner - outer <= 0.1, (name, context, outer, inner)


def test_the_lots_explanation_never_ends_a_line_far_short(papers):
    """抽签签条's opening paragraph at 13 and 128 teams: "…9与10对阵（依次为" ended 7.5 em short of the measure
    before "第1、2……桌）" (held whole): the open list may break after its 、, the paragraph's marks are pressed, and
    every line but its last reaches within 1.5 em of the measure."""
    from tests.pdfcheck import text_lines

    runs = [run for run in text_lines((papers / "抽签签条.pdf").read_bytes())[0] if abs(run[0]["x0"] - 56.69) < 1]
    assert len(runs) >= 2
    right = 595.28 - 56.69  # A4 less the 20 mm margin
    for run in runs[:-1]:
        assert right - run[-1]["x1"] <= 1.5 * run[-1]["size"], "".join(ch["text"] for ch in run)


def test_no_line_of_the_notice_ends_short_inside_its_paragraph(papers):
    """通知: "（也可电话报名，报名 / 电话：2973620）" left a line 4.6 em short; no line the next line continues (that
    starts at the left edge, not indented as a new paragraph) ends over 1.5 em short of the measure."""
    from tests.pdfcheck import text_lines

    runs = [run for run in text_lines((papers / "通知.pdf").read_bytes())[0] if len(run) > 1]
    left, right = min(run[0]["x0"] for run in runs), max(run[-1]["x1"] for run in runs)
    for run, after in zip(runs, runs[1:], strict=False):
        size = run[-1]["size"]
        body = run[0]["x0"] <= left + 2 * size + 1  # not the signature, set to the right
        if body and abs(after[0]["x0"] - left) < 1 and after[0]["size"] == size and after[0]["top"] - run[0]["top"] < 2 * size:
            assert right - run[-1]["x1"] <= 1.5 * size, "".join(ch["text"] for ch in run)


def test_the_results_book_keeps_round_ranges_whole_and_counts_chart_sheets_apart(papers):
    """成绩册 at 128 teams: "第5轮至 / 第7轮（决赛）" broke a range of rounds, and the bracket part's caption
    "第2页，共7页" read like the page's folio "第18页 共28页": the parts count their sheets (第2张，共7张)."""
    pages = line_texts((papers / "成绩册.pdf").read_bytes())
    joins = [(line, after) for lines in pages for line, after in zip(lines, lines[1:], strict=False)
             if re.search(r"\d+[轮页桌]至$", line) and after.startswith("第")]
    assert not joins, joins
    text = "".join(line for lines in pages for line in lines)
    assert not re.search(r"第\d+页，共\d+页", text)
    if "晋级图第一部分" in text:
        assert re.search(r"晋级图第一部分：第1轮至第\d+轮　?第1张，共\d+张", text)


def test_no_paper_breaks_inside_a_unit(papers):
    """电/话, 罚分/后台下方, 第十/四条, 打/过A, 第08组/（…）, 60–/75分, 100/–115分: none on any paper."""
    for name in TEXT_PAPERS:
        assert not bad_joins(line_texts((papers / name).read_bytes())), name


def test_no_cell_of_the_signoff_sheet_leaves_a_character_alone(papers):
    """"罚升5级遇必打级（第十三、十四条）" left 级 alone on a line of its label column: no line of one character
    (a number aside) in any cell of the sign-off sheet."""
    lines = [line for page in line_texts((papers / "规则口径确认单.pdf").read_bytes()) for line in page]
    assert not [line for line in lines if len(line) == 1 and not line.isdigit()]


def test_the_named_texts_come_out_whole(papers):
    """The texts the print review found broken, read back whole from their lines."""
    def lines(name: str) -> list[str]:
        return [line for page in line_texts((papers / name).read_bytes()) for line in page]

    assert any("电话：2973620" in line for line in lines("通知.pdf"))  # 电话 whole, its number with it
    assert any("第十四条" in line for line in lines("比赛规则.pdf"))
    assert any("罚分后" in line for line in lines("比赛规则.pdf"))
    signoff = lines("规则口径确认单.pdf")
    assert any("第十六条" in line for line in signoff)
    assert any(re.search(r"\d+–\d+分", line) for line in signoff)
    ranges = "".join(lines("比赛规则.pdf"))
    assert "至−" not in ranges and re.search(r"−\d+–−\d+", ranges)  # one range notation: the en dash
    assert "—" in "".join(lines("通知.pdf"))  # between the dates of the registration period
    assert any("到场时间" in line for line in lines("签到表.pdf"))  # the header of a column of its own


def test_a_break_check_would_catch_what_the_review_found():
    """The checks themselves: the faults as the review saw them are caught."""
    assert bad_joins([["请打电", "话报名"], ["罚分", "后台下方"], ["比照第十", "四条罚分"], ["第08组", "（余桂兰）"],
                      ["0–", "75分"], ["100", "–115分"]]) and len(bad_joins([["罚分", "后台下方"]])) == 1
    second = [["罚升5级遇必打", "级"], ["每满20分加", "一级"], ["先升", "一级"], ["保庄才", "能通过"], ["降至2、", "J，"],
              ["到", "场时间"], ["抽", "签方式"], ["（依次为第1、2……", "桌）"], ["签号1与", "2"]]
    assert all(bad_joins([pair]) for pair in second), [pair for pair in second if not bad_joins([pair])]


# --- every document at 5, 13 and 128 teams ----------------------------------------------------------------------

# Documents laid out as running text and tables (a page numbered, its continuations headed) by the word their
# head carries; the score cards (a sheet a table, both sides), playoff slips, certificates, lots and the bracket
# chart (its own tiling, checked below) are sheets of their own.
RUNNING = {"通知": "通知", "比赛规则": "比赛规则", "规则口径确认单": "规则口径确认单", "报名表": "报名表",
           "纪念品领取签收表": "纪念品领取签收表", "签到表": "签到表", "成绩公告": "成绩公告", "对阵表": "对阵表",
           "成绩": "成绩"}  # fmt: skip
FOOTER = re.compile(r"第(\d+)页共(\d+)页")


def running_papers(folder):
    """(file, the word its head carries) of every running document the demo wrote, every round's included."""
    found = []
    for path in sorted(folder.glob("*.pdf")):
        kind = re.sub(r"^第\d+轮", "", path.stem)
        if kind in RUNNING:
            found.append((path, RUNNING[kind]))
    assert len(found) >= 9
    return found


def test_every_document_is_numbered_and_continued_under_its_name(field):
    """第N页 共M页 on every page of a multi-page document and on none of a single page; （续） and the document's
    name at the head of every page after the first."""
    teams, papers = field
    for path, head in running_papers(papers):
        texts = page_texts(path.read_bytes())
        if len(texts) == 1:
            assert not FOOTER.search(texts[0]), path.name
            continue
        for number, text in enumerate(texts, start=1):
            assert text.endswith(f"第{number}页共{len(texts)}页"), (teams, path.name, number)
            if number > 1:
                first = text.split("（续）")[0]
                assert "（续）" in text and head in first and len(first) < 40, (teams, path.name, number, text[:60])


SPILL = 0.4  # a last page filled less than this far down is a spill (the 128-team 对阵表's 8 index rows: 36 %)


def test_no_document_ends_on_a_page_of_a_few_lines(field):
    """A last page holds more than a spill of a few lines: it is filled at least 40 % of the way down (SPILL), as a
    page balanced with the ones before it is. The 128-team 对阵表 ended on 8 rows of its index (36 %), its 第4轮 on the
    index alone (35 %), the 签到表 on 5 pen rows (37 %)."""
    teams, papers = field
    for path, _ in running_papers(papers):
        data = path.read_bytes()
        if pages(data) > 1:
            assert page_fills(data)[-1] >= SPILL, (teams, path.name, page_fills(data))


def booklet_parts(data: bytes) -> list[tuple[str, list[float]]]:
    """A booklet's parts after its cover, each with how far down each of its pages is filled: a page continues the
    part before when its running head says （续）."""
    parts: list[tuple[str, list[float]]] = []
    for text, fill in list(zip(page_texts(data), page_fills(data), strict=True))[1:]:
        head = re.match(r".*?册(.*?)第\d+页共\d+页", text)
        assert head, text[:40]
        if "（续）" in head[1]:
            parts[-1][1].append(fill)
        else:
            parts.append((head[1], [fill]))
    return parts


def test_no_booklet_part_ends_on_a_page_of_a_few_lines(field):
    """Each part of the 秩序册 and the 成绩册 starts a page, and one of several pages ends on a page filled as far
    as a document's last page is (SPILL): the 13-team 秩序册's first draw put its 组号→桌号 index (4 rows) on a page
    of its own (34 %), the 128-team one its last 8 rows (36 %) and its 签到表 5 rows (37 %)."""
    teams, papers = field
    for name in ("秩序册.pdf", "成绩册.pdf"):
        parts = booklet_parts((papers / name).read_bytes())
        assert len(parts) >= 6
        for title, fills in parts:
            if len(fills) > 1:
                assert fills[-1] >= SPILL, (teams, name, title, fills)


def test_no_page_ends_on_a_heading(field):
    """A heading (a round's, the index's, a line ending in '：') is never the last line above a page's footer."""
    teams, papers = field
    for path, _ in running_papers(papers):
        pages_ = line_texts(path.read_bytes())
        for number, lines in enumerate(pages_[:-1], start=1):
            body = [line for line in lines if not FOOTER.fullmatch(line) and "签缩写" not in line]
            assert not re.fullmatch(r"第\d+轮(（.+）)?|.*：", body[-1]), (teams, path.name, number, body[-1])


def test_team_ids_are_one_width_and_every_list_is_in_number_order(field):
    """第05组 at 5 and 13 teams, 第005组 at 128, on every paper; byes, winners and placings listed in 组号 order;
    the 组号 cells of the team lists as wide as the rest."""
    teams, papers = field
    digits = 3 if teams > 99 else 2
    cards = sorted(papers.glob("第*轮计分卡.pdf"))  # the cards of one round stand for all (hundreds of pages)
    for path in sorted(papers.glob("*.pdf")):
        if path in cards[:-1]:
            continue
        text = "".join(page_texts(path.read_bytes()))
        assert {len(i) for i in re.findall(r"第(\d+)组", text)} <= {digits}, path.name
        for listed in re.findall(r"第\d+组(?:、第\d+组)+", text):
            numbers = [int(n) for n in re.findall(r"\d+", listed)]
            assert numbers == sorted(numbers), (path.name, listed)
    for name in ("签到表.pdf", "报名表.pdf"):  # 组号 | … : a cell of digits alone is a 组号 (phones are longer)
        cells = [line for page in line_texts((papers / name).read_bytes()) for line in page
                 if line.isdigit() and len(line) <= 3]
        assert len(cells) >= teams and {len(c) for c in cells} == {digits}, name
    souvenir = " ".join(line for page in line_texts((papers / "纪念品领取签收表.pdf").read_bytes()) for line in page)
    assert ("001" in souvenir) == (digits == 3)


def test_the_terminal_names_teams_as_the_papers_print_them(field):
    """A font's warning names the pair by its 组号 as printed ('第026组的队员' among 128 teams)."""
    teams, papers = field
    named = re.findall(r"第(\d+)组", SAID[papers])
    assert named and {len(n) for n in named} == {3 if teams > 99 else 2}


def test_passing_a_is_told_from_reaching_a_on_every_results_paper(field):
    """No bare 'A' as a level: 过A or A级 on the round results and the announcement; the chart's own notes too."""
    teams, papers = field
    for path in [*papers.glob("第*轮成绩.pdf"), papers / "成绩公告.pdf", papers / "晋级图.pdf"]:
        text = "".join(page_texts(path.read_bytes())).replace("只是打到A", "")
        assert not re.findall(r"(?<!过)A(?!级)", text), (teams, path.name)


def test_the_bracket_chart_says_which_sheet_each_page_is(field):
    teams, papers = field
    texts = page_texts((papers / "晋级图.pdf").read_bytes())
    if len(texts) > 1:
        for number, text in enumerate(texts, start=1):
            assert f"本图共{len(texts)}张，这是第{number}张" in text, (teams, number)


# --- pagination ---------------------------------------------------------------------------------------------


def test_a_few_lines_never_take_a_page_of_their_own(field):
    """The 5-team 成绩公告 (its page 2 held only the final and the signature), the 13-team 对阵表 (its index
    spilled onto page 2), as the 秩序册 prints it too, and 13 lots (one slip on page 2) each fit one page now."""
    teams, papers = field
    if teams > 13:
        pytest.skip("a small field's papers: every document at 128 teams is checked below")
    assert pages((papers / "第1轮对阵表.pdf").read_bytes()) == 1
    assert pages((papers / "抽签签条.pdf").read_bytes()) == 1
    parts = dict(booklet_parts((papers / "秩序册.pdf").read_bytes()))  # below the booklet's running head too
    assert len(parts["第1轮对阵"]) == 1, parts
    if teams == 5:
        assert pages((papers / "成绩公告.pdf").read_bytes()) == 1


def test_every_page_is_numbered_and_every_continuation_names_its_document(papers):
    heads = {"通知.pdf": "关于举办", "比赛规则.pdf": "双升级（双扣）比赛规则", "规则口径确认单.pdf": "规则口径确认单",
             "报名表.pdf": "报名表", "纪念品领取签收表.pdf": "纪念品领取签收表", "成绩公告.pdf": "成绩公告",
             "第1轮对阵表.pdf": "第1轮对阵表", "第1轮成绩.pdf": "成绩"}  # fmt: skip
    for name, head in heads.items():
        texts = page_texts((papers / name).read_bytes())
        if len(texts) == 1:
            assert "第1页" not in texts[0], name
            continue
        for number, text in enumerate(texts, start=1):
            assert text.endswith(f"第{number}页共{len(texts)}页"), (name, number)
            if number > 1:
                first = text.split("（续）")[0]
                assert "（续）" in text and head in first and len(first) < 40, (name, number, text[:60])


def rounds_document(flow: Flow, filler: int):
    """成绩公告's shape: some text, then each round's heading (a section, kept with its table) and table."""
    pieces = [p for _ in range(filler) for p in flow.paragraph("各轮比赛结果附后，请核对。" * 3)]
    for number, rows in ((1, 30), (2, 40)):
        heading = flow.paragraph(f"第{number}轮")
        heading[-1].keep = True
        heading[0].section = f"第{number}轮"
        table = flow.table([["桌号", "甲方", "乙方"], *([str(r), "第01组", "第02组"] for r in range(rows))],
                           [0.2, 0.4, 0.4])
        pieces += [*heading, *table]
    return pieces


def test_a_heading_stays_with_its_table_and_continuation_pages_name_the_round(fonts):
    flow = Flow(fonts, REGULAR)
    for filler in range(0, 12, 3):  # the second heading falls at various heights of a page
        pieces = rounds_document(flow, filler)
        for placed in flow.pages(pieces, "成绩公告")[:-1]:
            assert not placed[-1][0].keep  # never a heading (or a table header) at a page foot
        texts = page_texts(flow.pdf(pieces, title="成绩公告", invariant=True))
        assert len(texts) >= 3
        seen = ""
        for text in texts[1:]:
            assert text.startswith("成绩公告"), text[:30]
            head = text.split("（续）")[0]
            if text[len(head) + 3:].startswith("第2轮"):  # the page opens round 2 itself: its heading says it
                assert head == "成绩公告"
            else:
                assert head in ("成绩公告\u3000第1轮", "成绩公告\u3000第2轮", "成绩公告第1轮", "成绩公告第2轮"), head
                assert seen <= head[-3:]
                seen = head[-3:]
        assert seen == "第2轮"


def test_a_spill_is_refitted_with_tighter_lines_before_a_page_is_added(fonts):
    """Text a few lines over a page: refitted (gaps, then leading and table padding) it fits one page whole."""
    from shuangsheng.render.materials.pagination import paginate

    flow = Flow(fonts, REGULAR)

    def document(n: int):
        return [*(p for _ in range(n) for p in flow.paragraph("本轮各桌按时结束，每桌的级数与胜负见下表，请核对。" * 3)),
                *flow.table([["桌号", "甲方", "乙方"], *([str(r), "第01组", "第02组"] for r in range(6))], [1, 2, 2])]

    def as_set(pieces) -> int:
        return len(paginate(pieces, flow.bottom, flow.top, flow.top - flow.head_height()))

    n = next(n for n in range(1, 40) if as_set(document(n)) == 2)  # the first that spills
    pieces = document(n + 1)  # a paragraph more: more than closing up the gaps can take back
    assert as_set(pieces) == 2 and as_set([replace(p, after=0.0) for p in pieces]) == 2
    assert len(flow.pages(pieces)) == 1
    text = "".join(page_texts(flow.pdf(pieces, title="t", invariant=True)))
    assert text.count("请核对") == (n + 1) * 3 and "（续）" not in text and "第02组" in text


def test_lots_take_a_denser_sheet_rather_than_a_sheet_for_one_slip(fonts):
    from shuangsheng.render.materials.documents import lots_pdf
    from shuangsheng.storage.event import default_event

    for count, sheets in ((12, 1), (13, 1), (14, 1), (15, 1), (16, 1), (17, 2), (25, 2), (32, 2), (33, 3), (128, 8)):
        data = lots_pdf(default_event(), count, fonts=fonts, invariant=True)
        assert pages(data) == sheets, count
        assert all(str(n) in "".join(page_texts(data)) for n in range(1, count + 1))


# --- the playoff slip ---------------------------------------------------------------------------------------


def slip_pages(papers: Path) -> Iterator[tuple[Path, Any]]:
    """Each 加赛单 of the demo with its page (pdfplumber's, open while the caller looks); skipped when none tied."""
    import pdfplumber

    slips = sorted(papers.glob("*加赛单.pdf"))
    if not slips:
        pytest.skip("no table tied in this demo")
    for slip in slips:
        with pdfplumber.open(slip) as pdf:
            yield slip, pdf.pages[0]


def test_the_slip_title_is_its_largest_text_and_the_ring_encloses_the_level(papers):
    for slip, page in slip_pages(papers):
        largest = max(c["size"] for c in page.chars)
        assert {c["text"] for c in page.chars if c["size"] == largest} == set("加赛单"), slip.name
        rings = [c for c in page.curves if c["height"] < 30]
        assert len(rings) == 2, slip.name  # the tied level on both teams' tracks
        for ring in rings:
            inside = [c for c in page.chars if c["top"] >= ring["top"] - 1 and c["bottom"] <= ring["bottom"] + 1
                      and ring["x0"] - 4 < (c["x0"] + c["x1"]) / 2 < ring["x1"] + 4]
            assert inside, slip.name
            glyphs = (min(c["x0"] for c in inside), max(c["x1"] for c in inside))  # "10": both digits
            assert ring["x0"] < glyphs[0] and glyphs[1] < ring["x1"], (slip.name, ring, glyphs)
            assert ring_clearance(page, ring) >= 1.0, (slip.name, ring_clearance(page, ring))


def ring_clearance(page, ring: dict) -> float:
    """mm between the ring and the nearest rule of its cell (left, right, above, below), line widths taken off:
    the ring around 10 touched both cell rules (issue 34)."""
    sides = [e["x0"] for e in page.edges if e["orientation"] == "v" and e["top"] <= ring["top"]
             and e["bottom"] >= ring["bottom"]]
    left = max(x for x in sides if x <= ring["x0"])
    right = min(x for x in sides if x >= ring["x1"])
    middle = (ring["x0"] + ring["x1"]) / 2
    rows = [e["top"] for e in page.edges if e["orientation"] == "h" and e["x0"] <= middle <= e["x1"]]
    above = max(y for y in rows if y <= ring["top"])
    below = min(y for y in rows if y >= ring["bottom"])
    gaps = (ring["x0"] - left, right - ring["x1"], ring["top"] - above, below - ring["bottom"])
    return (min(gaps) - 1.0) / mm  # half the ring's line and half the rule's


# --- consistency ------------------------------------------------------------------------------------------------


def passed_a_chart():
    """A 4-team knockout whose final was won by passing A (A：10) and whose first semi-final was won by a team
    that only reached A (5：A)."""
    from shuangsheng.game.levels import Level, Levels
    from shuangsheng.knockout.bracket import build
    from shuangsheng.knockout.knockout import MatchOutcome
    from shuangsheng.table.status import TableStatus
    from tests.test_bracket import play, teams

    rounds, outcomes, levels = play(4)
    final = rounds[-1].pairings[0]
    outcomes[rounds[-1].number] = [MatchOutcome(final.table, TableStatus.PASSED_A, final.a)]
    levels[rounds[-1].number, final.table] = Levels(Level.ACE, Level.TEN)
    return build(rounds, outcomes, teams(4), levels=levels, title="晋级图")


def test_a_level_is_told_from_passing_a():
    from shuangsheng.knockout.bracket import level_word

    assert [level_word(label, passed_a=False) for label in ("10", "K", "A")] == ["10", "K", "A级"]
    assert level_word("A", passed_a=True) == "过A"


def test_passing_a_and_reaching_a_are_told_apart_on_the_announcement_and_the_tv(fonts):
    """成绩公告 and the TV's bracket printed '10：A' / 'A' for both a pass and a mere A."""
    from shuangsheng.render.materials.announcement import announcement_pdf
    from shuangsheng.render.venue import bracket_view
    from shuangsheng.storage.event import default_event

    chart = passed_a_chart()
    text = "".join(page_texts(announcement_pdf(chart, default_event(), day=None, fonts=fonts, invariant=True)))
    assert "过A：10" in text and "5：A级" in text and "：A第" not in text
    view = bracket_view(chart, {t.id: t for t in chart.teams})
    assert view is not None
    notes = [note for node in view.nodes for note in node.notes]
    assert "过A" in notes and "A级" in notes and "A" not in notes


def test_the_round_results_say_passed_a_beside_the_levels():
    from shuangsheng.game.levels import Level, Levels
    from shuangsheng.render.results import level_words
    from shuangsheng.table.record import TableRecord
    from shuangsheng.table.status import TableStatus

    record = TableRecord(table=1, third_place=False, a="03", b="08", status=TableStatus.PASSED_A, levels=Levels(Level.TEN, Level.ACE),
                         winner="08")
    assert level_words(record) == ("10", "过A")
    reached = TableRecord(table=1, third_place=False, a="03", b="08", status=TableStatus.DECIDED, levels=Levels(Level.ACE, Level.KING),
                          winner="03")
    assert level_words(reached) == ("A级", "K")


def test_the_placings_are_listed_in_number_order(papers):
    """三等奖 13 / 05 on the chart, the announcement and the terminal: 05 first, wherever they are listed."""
    from shuangsheng.usecases.folder import open_folder

    text = "".join(page_texts((papers / "成绩公告.pdf").read_bytes()))
    thirds = re.findall(r"三等奖第?(\d+)", text)
    assert len(thirds) == 2 and thirds == sorted(thirds, key=int)
    chart = "".join(page_texts((papers / "晋级图.pdf").read_bytes()))
    listed = re.findall(r"三等奖\s*第?(\d+)", chart)
    assert listed == sorted(listed, key=int)
    assert open_folder(papers) is not None


def test_ids_are_three_digits_wide_in_a_field_over_99(fonts):
    """01–99 then 100–128 mixed widths: in a field over 99 every 组号 printed or shown has three digits (005),
    while the canonical form (JSON, event.db) stays '05'."""
    from shuangsheng.knockout.knockout import Pairing, Round
    from shuangsheng.knockout.teams import Team, canonical_id, id_digits, shown_id, team_label
    from shuangsheng.render.materials import draw_sheet, paper
    from shuangsheng.render.venue import team_view
    from shuangsheng.storage.event import default_event

    assert id_digits(["05", "99"]) == 2 and id_digits(["05", "105"]) == 3
    assert shown_id("5", 3) == "005" and shown_id("105", 3) == "105" and shown_id("A3", 3) == "A3"
    assert canonical_id("005") == "05"
    teams = {"05": Team("05", ("王喆", "李堃")), "105": Team("105", ("张三", "李四")), "12": Team("12", ("赵一", "钱二"))}
    r = Round(1, ("05", "105"), (Pairing(1, "05", "105"),), ("12",), 1)
    card = page_texts(paper.score_cards_pdf(default_event(), r, teams, digits=3, fonts=fonts, invariant=True))[0]
    assert "第005组王喆、李堃" in card and "第105组张三、李四" in card
    sheet = "".join(page_texts(draw_sheet.draw_sheet_pdf(default_event(), r, teams, digits=3, fonts=fonts, invariant=True)))
    assert "第005组" in sheet and "第012组" in sheet and "第05组" not in sheet
    assert team_view(teams, "05", 3).name == "第005组" and team_label(teams, "12", 3) == "第012组（赵一、钱二）"


# --- captions and their tables ----------------------------------------------------------------------------------

CAPTION = re.compile(r"^(第\d+轮|轮空|按组号找桌号)")


def caption_gaps(data: bytes) -> list[tuple[int, str, float]]:
    """(page, caption, mm) for each caption line (a round's heading, the 轮空 line, the index's) and the nearest
    table rule below it and above it on its page."""
    import io

    import pdfplumber

    found = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            rules = [(o["top"], o["bottom"]) for o in (*page.rects, *page.lines) if o["width"] > 100]
            for line in page.extract_text_lines():
                if not CAPTION.match(line["text"]) or "（续）" in line["text"]:
                    continue
                below = [top - line["bottom"] for top, _ in rules if top >= line["bottom"] - 0.5]
                above = [line["top"] - bottom for _, bottom in rules if bottom <= line["top"] + 0.5]
                found += [(number, line["text"][:8], min(gaps) / mm) for gaps in (below, above) if gaps]
    return found


mm = 72 / 25.4


def test_a_caption_stands_clear_of_its_table(field):
    """The 5-team 成绩公告 set its round headings 0.4 mm above their tables and the 轮空 line 1.4 mm under its
    table; the 13-team 对阵表 its 轮空 and index captions 0.3 mm above theirs: at least 2 mm, refitted or not."""
    teams, papers = field
    for name in ("成绩公告.pdf", "第1轮对阵表.pdf", "第1轮成绩.pdf"):
        gaps = caption_gaps((papers / name).read_bytes())
        assert gaps, name
        assert all(gap >= 2.0 for _, _, gap in gaps), (teams, name, [g for g in gaps if g[2] < 2.0])


TABLE_PAPERS = ("第1轮对阵表.pdf", "规则口径确认单.pdf", "比赛规则.pdf", "成绩公告.pdf", "第1轮成绩.pdf", "报名表.pdf",
                "签到表.pdf", "纪念品领取签收表.pdf", "秩序册.pdf")  # fmt: skip
CELL_CLEAR_MM = 1.5  # between a table cell's text (its em box) and each of its rules
CELL_TOLERANCE_MM = 0.05


def test_table_text_stands_clear_of_every_rule_of_its_cell(papers):
    """The second review measured text sitting on the bottom rule of table cells: 桌号 2.3 mm below the top rule
    but 0.6 mm above the bottom one, 彭长青、许家豪 0.6 mm, the sign-off sheet's 升2级） 0.7 mm and its
    （第八、十四条） 0.4 mm from the left rule, the rules' tables 0.7 mm, 奖项 0.9 mm: every cell's lines are
    centred on their em boxes now, at least 1.5 mm from all four rules, refitted or not."""
    for name in TABLE_PAPERS:
        found = cell_clearances((papers / name).read_bytes())
        assert found, name
        close = [(page, text, round(mm, 2)) for page, text, mm in found if mm < CELL_CLEAR_MM - CELL_TOLERANCE_MM]
        assert not close, (name, close[:5])


FULL = 0.7  # a page of running text before another of the same document is filled at least this far down


def test_the_rules_fill_each_page_before_the_next(field):
    """比赛规则's page 2 was 52 % full at every size (the 秩序册's the same): the points table with its note (and
    the 补充说明 announcing it) moved whole to page 3 though most of it fitted below. Set closer it fits, or else
    the table breaks there with its header again on the next page."""
    teams, papers = field
    fills = page_fills((papers / "比赛规则.pdf").read_bytes())
    parts = dict(booklet_parts((papers / "秩序册.pdf").read_bytes()))
    for shares in (fills, parts["竞赛规程"]):  # the last two may share what spilled over (`balanced`), no more
        assert all(fill >= FULL for fill in shares[:-2]), (teams, shares)
        assert all(fill >= 0.4 for fill in shares[-2:]), (teams, shares)
    texts = page_texts((papers / "比赛规则.pdf").read_bytes())
    carried = [text for text in texts if "台下方得分结果升级" in text]
    assert carried, texts  # the points table's header, again on the page it is carried over to (if it is)


def test_the_index_carried_over_says_so(field):
    """The 128-team 对阵表's 组号→桌号 index went on from page 7 to page 8 with its header rows but no caption: a
    page it continues on starts "按组号找桌号（续）："."""
    teams, papers = field
    texts = page_texts((papers / "第1轮对阵表.pdf").read_bytes())
    first = next(k for k, text in enumerate(texts) if "按组号找桌号：" in text)
    for text in texts[first + 1:]:
        assert re.search(r"（续）按组号找桌号（续）：组号桌号", text), text[:60]
    if teams == 128:
        assert first < len(texts) - 1


def rule_gaps_mm(data: bytes) -> list[float]:
    """Per page, the heights (mm) between the table's horizontal rules one under the other (more than 2 mm apart:
    rows, not a rule's two edges)."""
    import io

    import pdfplumber

    gaps = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            ys = sorted({round(o["top"], 1) for o in page.lines if abs(o["top"] - o["bottom"]) < 0.5}
                        | {round(o["top"], 1) for o in page.rects if o.get("stroke")})
            gaps += [(b - a) * 25.4 / 72 for a, b in zip(ys, ys[1:], strict=False) if (b - a) * 25.4 / 72 > 2]
    return gaps


def test_signature_rows_and_slips_are_refitted_rather_than_end_on_a_few(field):
    """At 128 teams the 纪念品领取签收表 ended on a page of 8 rows (25 %) and the 抽签签条 on a page of 2 slips: the
    signature rows a little lower (never under 9 mm) and the slips 16 a sheet (their numbers 30 pt or more, the
    line under them smaller to keep them so) take those pages back."""
    import pdfplumber

    teams, papers = field
    souvenir = (papers / "纪念品领取签收表.pdf").read_bytes()
    fills = page_fills(souvenir)
    assert len(fills) == 1 or fills[-1] >= 0.5, fills
    assert min(rule_gaps_mm(souvenir)) >= 9 - 0.05
    lots = (papers / "抽签签条.pdf").read_bytes()
    with pdfplumber.open(str(papers / "抽签签条.pdf")) as pdf:
        numbers = [[c for c in page.chars if c["size"] >= 30] for page in pdf.pages]
    slips = [len({round(c["top"]) * 1000 + round(c["x0"] // 100) for c in page}) for page in numbers]
    assert all(slips), slips  # every slip's number 30 pt or more
    assert pages(lots) == 1 or slips[-1] >= 4, slips
    if teams == 128:
        assert pages(souvenir) == 14 and pages(lots) == 8


def test_the_slip_key_stands_clear_of_the_result_box(papers):
    """加赛单 (13 teams): "低于−40分或超过200分时…见计分卡背面。" sat 0.8 mm above the result box's top rule: 2 mm or
    more from its em boxes to the rule below."""
    for slip, page in slip_pages(papers):
        key = [c for c in page.chars if c["text"] == "背"]
        bottom = max(c["bottom"] for c in key)
        rules = [o["top"] for o in (*page.lines, *page.rects) if o["top"] > bottom - 0.1]
        assert (min(rules) - bottom) * 25.4 / 72 >= 2, slip.name


def test_a_small_round_table_is_never_broken_in_the_results_book(field):
    """成绩册 (13 teams): round 2's 4-row table was split 2/2 over pages 4 and 5; a table of 6 rows or fewer goes
    whole with its heading, so a round that small ends (晋级下一轮 / 决赛结束) on the page its heading is on."""
    teams, papers = field
    texts = page_texts((papers / "成绩册.pdf").read_bytes())
    found = 0
    for text in texts:
        for heading in re.finditer(r"第(\d+)轮(?:（[^）]*）)?成绩桌号", text):
            if teams > 13 and int(heading[1]) < 5:  # 128 teams: rounds 1-4 have 8 tables or more
                continue
            rest = re.split(r"第\d+轮(?:（[^）]*）)?成绩桌号", text[heading.end():])[0]
            assert re.search(r"晋级下一轮|决赛结束", rest), (teams, heading[0], rest[-40:])
            found += 1
    assert found >= 3
