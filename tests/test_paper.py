"""The day's paper (shuangsheng.render.materials.paper): score cards, draw sheet, playoff slips, round results."""

from __future__ import annotations

import io
import itertools
import re

import pdfplumber
import pytest
from reportlab.lib.units import mm
from typer.testing import CliRunner

from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.knockout.teams import Team
from shuangsheng.render.materials import draw_sheet, paper
from shuangsheng.render.materials.fonts import choose_fonts, system_candidates
from shuangsheng.render.results import round_results
from shuangsheng.storage import names
from shuangsheng.storage.event import default_event
from shuangsheng.table.status import TableStatus
from shuangsheng.usecases.folder import open_folder
from shuangsheng.usecases.papers.score import write_score_papers
from tests.events import every_status_round, new_event
from tests.pdfcheck import assert_printable, page_texts, pages, render_png, text_of

INSTALLED = [s for s in system_candidates() if s.path.is_file()]
pytestmark = pytest.mark.skipif(not INSTALLED, reason="no Chinese TrueType font (apt install fonts-wqy-microhei)")

LONG_NAMES = (
    ("欧阳·买买提江", "司马相如"),
    ("阿卜杜热合曼·买买提依明", "诸葛䶮"),
    ("上官婉儿", "慕容·古丽娜尔·艾尼瓦尔"),
    ("王喆", "李堃"),
)
TEAMS = {f"{i:02d}": Team(f"{i:02d}", pair) for i, pair in enumerate(LONG_NAMES, start=1)}
ROUND = Round(1, tuple(TEAMS), (Pairing(1, "01", "02"), Pairing(2, "03", "04")), (), 20260315)


def fonts():
    return choose_fonts(candidates=INSTALLED)


@pytest.fixture(scope="module")
def cards() -> bytes:
    return paper.score_cards_pdf(default_event(), ROUND, TEAMS, digits=2, fonts=fonts(), invariant=True)


# --- 计分卡 -----------------------------------------------------------------------------------------------------


def test_score_cards_one_sheet_per_table_and_a_blank_card_printed_double_sided(cards):
    """Each card is a sheet printed on both sides: the card, and on its back the points table and the key."""
    assert pages(cards) == 2 * (len(ROUND.pairings) + 1)
    texts = page_texts(cards)
    fronts, backs = texts[0::2], texts[1::2]
    assert "第1轮（半决赛）第1桌计分卡" in fronts[0] and "第1轮（半决赛）第2桌计分卡" in fronts[1]
    assert "第＿＿轮第＿＿桌计分卡（备用／续页）" in fronts[2]  # a match of more than 16 hands goes on
    for i, (front, back) in enumerate(zip(fronts, backs, strict=True)):
        # the event's line on the front; these tables' long names take two lines, and with the signatures' pen row
        # their fronts are set `Fit.LEAN`: that line goes under the back's title (the blank card keeps it in front)
        head = front if i == len(fronts) - 1 else front + back
        assert "离退休教职工双升级（双扣）比赛" in head and "每场限时1小时" in head
        assert "开始" in front and "结束" in front
        assert "甲方签名" in front and "乙方签名" in front and "裁判签名" in front
        assert re.search(r"计分卡(（备用／续页）)?背面", back) and "台下得分0分也写0" in back and "升6级" in back
        assert "台下得分0分也写0" not in front and "升6级" not in front  # the key and the table moved over
    assert "第01组欧阳·买买提江、司马相如" in fronts[0] and "第02组阿卜杜热合曼·买买提依明、诸葛䶮" in fronts[0]


def test_score_cards_print_anywhere_in_large_print(cards):
    assert_printable(cards, smallest=12)


def test_card_columns_are_the_workbook_columns():
    """One definition, two renderers: the card's hand columns are the workbook schema's, in order, some under a
    group's label so that they fit; 违规 as a box to tick per offence; then both sides' level."""
    assert paper.card_labels() == (
        "局", "庄家方", "庄家级", "分数台下", "分数底牌", "抠底倍数", "级牌抠底", "罚张上", "罚张下", "扣错底上", "扣错底下",
        "出错牌上", "出错牌下", "加赛", "备注", "级数甲", "级数乙")  # fmt: skip
    assert [c.source for c in paper.card_columns() if c.tick] == ["台上扣错底", "台下扣错底", "台上出错牌", "台下出错牌"]


def header_words(data: bytes, page: int = 0) -> list[str]:
    """The hand table's header as printed: its words (characters side by side on one line), sorted."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        p = pdf.pages[page]
        first = next(w for w in p.extract_words() if w["text"] == "局")
        band = p.within_bbox((0, first["top"] - 20, p.width, first["bottom"] + 14))
        return sorted(w["text"] for w in band.extract_words())


def test_card_header_as_printed_fits_its_columns_on_one_or_two_lines(cards):
    """No header wraps a character alone (庄家/级, 底牌/分): groups over their columns, four-character labels on
    two lines of two."""
    expected = sorted(["局", "庄家", "方", "级", "分数", "台下", "底牌", "抠底", "倍数", "级牌", "抠底", "罚张", "上", "下",
                       "扣错底", "上", "下", "出错牌", "上", "下", "加赛", "备注", "级数", "甲", "乙"])
    assert header_words(cards) == expected
    assert header_words(cards, page=4) == expected  # the blank card: the same table


def cell_paddings(page) -> list[tuple[str, float]]:
    """Each character drawn inside a ruled cell (rules on all four sides) with its least distance to them."""
    rules = [e for e in page.edges if e.get("stroke", True) and e["object_type"] in ("line", "rect_edge")]
    horizontal = [e for e in rules if e["orientation"] == "h"]
    vertical = [e for e in rules if e["orientation"] == "v"]
    found = []
    for ch in page.chars:
        if not ch["text"].strip():
            continue
        mx, my = (ch["x0"] + ch["x1"]) / 2, (ch["top"] + ch["bottom"]) / 2
        left = [ch["x0"] - e["x0"] for e in vertical if e["top"] <= my <= e["bottom"] and e["x0"] <= mx]
        right = [e["x0"] - ch["x1"] for e in vertical if e["top"] <= my <= e["bottom"] and e["x0"] >= mx]
        above = [ch["top"] - e["top"] for e in horizontal if e["x0"] <= mx <= e["x1"] and e["top"] <= my]
        below = [e["top"] - ch["bottom"] for e in horizontal if e["x0"] <= mx <= e["x1"] and e["top"] >= my]
        if left and right and above and below:
            found.append((ch["text"], min(min(left), min(right), min(above), min(below))))
    return found


def test_every_cell_keeps_its_text_1_5_mm_from_its_rules(cards, scored):
    """台下罚张, 甲方级, 升6级, 120–135, the key box and 录分码 touched their rules: now at least 1.5 mm all round,
    on the card's front and back and on the playoff slip."""
    coded = paper.score_cards_pdf(default_event(), ROUND, TEAMS, digits=2, codes={1: "Q8SU-TGBQ"}, fonts=fonts(),
                                  invariant=True)
    slip = (scored[0] / "第1轮第2桌加赛单.pdf").read_bytes()
    for data in (cards, coded, slip):
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            for page in pdf.pages:
                paddings = cell_paddings(page)
                assert len(paddings) > 40
                tight = [(t, round(d / mm, 2)) for t, d in paddings if d < 1.5 * mm - 0.05]
                assert not tight, tight


def test_the_padding_check_would_catch_text_touching_its_rules():
    """The check itself, on the card as it was (3 pt padding in the team cell, 1.1 pt beside "10")."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    f = fonts()
    canvas.rect(100, 100, 15.5, 22.8)
    f.draw(canvas, 101.1, 106, "10", 12)
    canvas.save()
    with pdfplumber.open(io.BytesIO(buffer.getvalue())) as pdf:
        assert min(d for _, d in cell_paddings(pdf.pages[0])) < 1.5 * mm


def hand_row_tops(page) -> dict[str, float]:
    labels = [w for w in page.extract_words() if re.fullmatch(r"\d+|加\d+", w["text"]) and w["x0"] < 20 * mm + 30]
    return {w["text"]: w["top"] for w in labels}


def test_card_has_sixteen_hand_rows_and_four_playoff_rows_of_at_least_9mm(cards):
    text = page_texts(cards)[0]
    assert re.search("".join(str(n) for n in range(1, 17)) + "加1是加2是加3是加4是", text)
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        tops = list(hand_row_tops(pdf.pages[0]).values())
    assert len(tops) == 20
    steps = [b - a for a, b in itertools.pairwise(tops)]
    assert min(steps) >= 9 * mm - 0.05


def test_offences_are_four_boxes_to_tick_in_every_hand_row(cards):
    """违规 takes one of four offences (docs/workbooks.md): a box for each, under 扣错底 and 出错牌, 上 (台上方) and 下 (台下方)."""
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        p = pdf.pages[0]
        tops = hand_row_tops(p)
        boxes = [r for r in p.rects if 3.5 * mm < r["width"] < 5 * mm and abs(r["width"] - r["height"]) < 0.5]
    for label, top in tops.items():
        row = [b for b in boxes if top - 8 < b["top"] < top + 8]
        assert len(row) == 4, label


def test_card_level_track_and_the_key_on_the_back(cards):
    front, back = page_texts(cards)[:2]
    assert front.count("2345678910JQKA") == 2
    assert "加粗框、标“必打”的是必打级；2只在开局时必打" in back
    assert "扣错底、出错牌：在犯规一方的格里打√，上为台上方，下为台下方。" in back
    # the whole table in force, as the rule sheet has it: the negative totals, then the rule past either end
    keeps = ["−40–−25", "−20–−5", "0–15", "20–35", "40–55", "60–75"]
    takes = ["80–95", "100–115", "120–135", "140–155", "160–175", "180–195", "200"]
    gains = ["升6级", "升5级", "升4级", "升3级", "升2级", "升1级"]
    for row, (keep, gain) in enumerate(zip(keeps, gains, strict=True)):
        assert f"{keep}{gain}{takes[row]}" in back
    assert "200升6级" in back and "80–95不升级" in back
    assert "低于−40分或超过200分时，每差20分多升一级" in back


def test_card_points_table_is_the_rule_sheets_table_in_force():
    """Every range and gain of `RuleSet.points_table` (from −40) is printed, measured from the PDF; with
    negative_points = "clamp" the table starts at 0 and says so."""
    import dataclasses

    from shuangsheng.game.rules import NegativePoints, RuleSet

    event = default_event()
    text = page_texts(paper.score_cards_pdf(event, None, {}, digits=2, fonts=fonts(), invariant=True))[1]
    for row in event.rules.points_table(low=-40):
        assert (f"{row.low}" if row.low == row.high else f"{row.low}–{row.high}").replace("-", "−") in text
    clamp = dataclasses.replace(event, rules=RuleSet(negative_points=NegativePoints.CLAMP))
    text = page_texts(paper.score_cards_pdf(clamp, None, {}, digits=2, fonts=fonts(), invariant=True))[1]
    assert "0以下按0升4级" in text and "−40" not in text and "超过200分时，每差20分多升一级" in text


def result_boxes(page) -> list[dict]:
    """The heavy boxes of the result row, left to right."""
    start = next(w for w in page.extract_words() if w["text"] == "开始")
    return sorted((r for r in page.rects if r["stroke"] and r["linewidth"] > 1.2 and r["top"] - 5 < start["top"]
                   < r["bottom"] and r["width"] < 60), key=lambda r: r["x0"])


def test_card_result_boxes_are_12mm_and_the_same_on_every_card(cards):
    """开始/结束, 胜方 and 终局级数 (甲方, 乙方) share one row; the boxes written in are at least 12 mm each way, in
    the same places on the numbered and the blank card; the spare card's rows carry no numbers."""
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        p = pdf.pages[0]
        words = p.extract_words()
        start = next(w for w in words if w["text"].startswith("开始"))
        for label in ("胜方", "终局级数", "甲方", "乙方"):
            assert any(w["text"] == label and abs(w["top"] - start["top"]) < 2 for w in words), label
        boxes = [(round(b["x0"], 1), round(b["width"], 1)) for b in result_boxes(p)]
        assert len(boxes) == 3 and all(b["width"] >= 12 * mm and b["height"] >= 12 * mm for b in result_boxes(p))
        blank = pdf.pages[4]
        assert [(round(b["x0"], 1), round(b["width"], 1)) for b in result_boxes(blank)] == boxes
        edges = sorted({round(e["top"], 1) for e in p.edges if e["orientation"] == "h" and e["width"] > 300})
        for side in ("甲方", "乙方"):  # the team rows with the level track are pen rows too
            label = next(w for w in words if w["text"] == side and w["x0"] < 30 * mm)
            above = max(y for y in edges if y < label["top"])
            below = min(y for y in edges if y > label["bottom"])
            assert below - above >= 9 * mm - 0.1, side
        numbers = [w for w in blank.extract_words() if re.fullmatch(r"\d+", w["text"]) and w["x0"] < 20 * mm + 30]
        assert not numbers  # 备用／续页: the referee numbers the rows


def test_the_signatures_are_a_pen_row_of_their_own(cards):
    """The signature line sat 1.6 mm under the result row's rule with 6.6 mm to write in (issue 34): now a ruled
    row at least 9 mm high, each of 甲方签名, 乙方签名, 裁判签名 followed by a box as wide as a name."""
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        p = pdf.pages[0]
        words = p.extract_words()
        edges = sorted({round(e["top"], 1) for e in p.edges if e["orientation"] == "h" and e["width"] > 300})
        for label in ("甲方签名", "乙方签名", "裁判签名"):
            word = next(w for w in words if w["text"] == label)
            above = max(y for y in edges if y < word["top"])
            below = min(y for y in edges if y > word["bottom"])
            assert below - above >= 9 * mm - 0.1, label
            rules = sorted({round(e["x0"], 1) for e in p.edges if e["orientation"] == "v"
                            and e["top"] < word["bottom"] and e["bottom"] > word["top"] and e["x0"] > word["x1"]})
            assert rules[1] - rules[0] >= 30 * mm, label  # the box to sign in, after the label's own cell


def test_card_has_a_heavier_rule_every_four_rows(cards):
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        p = pdf.pages[0]
        heavy = [e for e in p.edges if e["orientation"] == "h" and e["linewidth"] > 1.2 and e["width"] > 300]
        labels = {w["text"]: w for w in p.extract_words() if re.fullmatch(r"\d+|加\d", w["text"]) and w["x0"] < 20 * mm + 30}
    for n in (4, 8, 12, 16):  # a heavy rule between row n and row n+1 (16: before 加1)
        after = labels[str(n + 1)] if n < 16 else labels["加1"]
        assert any(labels[str(n)]["bottom"] < e["top"] < after["top"] for e in heavy), n


def framed_levels(page) -> list[str]:
    """The levels in the heavy boxes of a card's track (one per must-play level, around its 甲方 and 乙方 boxes),
    each asserted to have 必打 just above it."""
    boxes = [r for r in page.rects if r["stroke"] and r["linewidth"] > 1.2 and r["width"] < 25 and r["height"] > 40]
    labels = [w for w in page.extract_words() if w["text"] == "必打"]
    levels = []
    for box in boxes:
        inside = {c["text"] for c in page.chars
                  if box["x0"] < c["x0"] < box["x1"] and box["top"] < c["top"] < box["bottom"]}
        assert any(box["x0"] - 12 < w["x0"] and w["x1"] < box["x1"] + 12 and 0 < box["top"] - w["bottom"] < 8
                   for w in labels), inside
        levels.append("".join(sorted(inside)))
    return sorted(levels)


def test_must_play_levels_are_framed_and_labelled_on_the_track():
    """The framed boxes, each with 必打 over it, are the must-play levels in force: 2, J, A by default; 2, 10, Q, A
    when configured."""
    import dataclasses

    from shuangsheng.game.levels import Level
    from shuangsheng.game.rules import RuleSet

    def framed(event) -> list[str]:
        data = paper.score_cards_pdf(event, None, {}, digits=2, fonts=fonts(), invariant=True)
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            return framed_levels(pdf.pages[0])

    default = default_event()
    assert framed(default) == ["2", "A", "J"]
    four = dataclasses.replace(default, rules=RuleSet(must_play=(Level.TWO, Level.TEN, Level.QUEEN, Level.ACE)))
    assert framed(four) == ["01", "2", "A", "Q"]


FITS = {  # a table's two pairs, and how closely their card is set (paper.Fit)
    "CLOSE": (("王一", "李二"), ("张三", "赵四")),
    "LEAN": LONG_NAMES[:2],
    "BARE": (("阿" * 20, "卜" * 20), ("欧阳·买买提江·艾尼瓦尔", "慕容" + "古" * 18)),  # three lines each: the longest
}


@pytest.mark.parametrize("fit", FITS)
def test_every_fit_keeps_the_front_on_one_page_with_must_play_labelled(fit):
    """However long the names, the card's front stays one page with its 录分码 and 必打 over each framed level:
    the event's line, then (names of three lines on both sides, 20 characters a player) the signature row, go to
    the back, the front saying where the signatures went."""
    pair_a, pair_b = FITS[fit]
    teams = {"01": Team("01", pair_a), "02": Team("02", pair_b)}
    round_ = Round(1, ("01", "02"), (Pairing(1, "01", "02"),), (), 20260315)
    data = paper.score_cards_pdf(default_event(), round_, teams, digits=2, codes={1: "Q8SU-TGBQ"}, blank=False,
                                 fonts=fonts(), invariant=True)
    assert pages(data) == 2  # one sheet: the front, and its back
    front, back = page_texts(data)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        assert framed_levels(pdf.pages[0]) == ["2", "A", "J"]
    assert "录分码Q8SU-TGBQ" in front and "局" in front and "终局级数" in front
    assert ("离退休教职工双升级（双扣）比赛" in front) == (fit == "CLOSE")
    signed_on_back = fit == "BARE"
    assert ("甲方签名" in back) == signed_on_back and ("甲方签名" in front) != signed_on_back
    assert (paper.SIGN_ON_BACK in front) == signed_on_back
    assert_printable(data, smallest=12)


def test_long_and_rare_names_fit_their_box(cards):
    """Compound surnames, `·` and rare characters shrink or wrap inside the team cell, never past it."""
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        for p in pdf.pages[0:4:2]:  # the fronts
            label = next(w for w in p.extract_words() if w["text"] == "甲方")
            cell_left = label["x1"]
            track = next(w for w in p.extract_words() if w["text"].startswith("2") and w["x0"] > 200)["x0"]
            for ch in p.chars:
                if label["top"] - 3 <= ch["top"] <= label["top"] + 40 and cell_left < ch["x0"] < track - 5:
                    assert ch["x1"] <= track - 3, ch["text"]
                    assert ch["size"] >= 12


def test_two_teams_of_long_names_still_get_one_sheet_each():
    long = ("阿卜杜热合曼·买买提依明·艾尼瓦尔", "慕容·古丽娜尔·艾尼瓦尔")  # three lines each in the team box
    teams = {"01": Team("01", long), "02": Team("02", long)}
    r = Round(1, ("01", "02"), (Pairing(1, "01", "02"),), (), 1)
    data = paper.score_cards_pdf(default_event(), r, teams, digits=2, fonts=fonts(), invariant=True)
    assert pages(data) == 4  # the card and the blank card, each front and back
    assert_printable(data, smallest=12)
    assert "甲方签名" in page_texts(data)[0]


@pytest.mark.parametrize(
    ("players", "lines"),
    [
        (("王喆", "李堃"), 1),
        (("欧阳·买买提江", "司马相如"), 2),
        (("阿卜杜热合曼·买买提依明", "慕容·古丽娜尔"), 2),
        (("阿卜杜热合曼·买买提依明·艾尼瓦尔", "慕容·古丽娜尔·艾尼瓦尔"), 3),
        (("王" * 30, "李" * 30), 5),
    ],
)
def test_team_lines_shrink_then_wrap_never_below_12pt(players, lines):
    f = fonts()
    size, printed = paper.team_lines(f, "第12组", players, 170)
    assert 12 <= size <= 15 and len(printed) == lines
    assert all(f.width(line, size) <= 170 for line in printed)
    assert "".join(printed).replace("　", "") == "第12组" + "、".join(players)


def test_cards_look_right(cards, tmp_path):
    assert len(render_png(cards, tmp_path, "cards")) in (0, 6)


# --- 对阵表 -----------------------------------------------------------------------------------------------------


def test_draw_sheet_for_the_wall():
    data = draw_sheet.draw_sheet_pdf(default_event(), ROUND, TEAMS, digits=2, fonts=fonts(), invariant=True)
    assert_printable(data, smallest=14)
    text = text_of(data)
    assert "第1轮（半决赛）对阵表" in text
    assert "1第01组欧阳·买买提江、司马相如对第02组" in text
    assert "随机种子20260315" in text and "工作人员可用此随机种子复核本轮抽签" in text
    assert "shuangsheng" not in text  # no command on the wall
    assert "按组号找桌号：组号桌号组号桌号组号桌号组号桌号011021032042" in text  # number order, four to a row
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        names = [c for c in pdf.pages[0].chars if c["text"] == "欧"]
    assert names and all(c["size"] >= 20 for c in names)  # readable from two metres


def test_draw_sheet_with_paper_lots_and_a_bye():
    lots = (("01", 1), ("02", 2), ("03", 3))
    r = Round(1, ("01", "02", "03"), (Pairing(1, "01", "02"),), ("03",), None, lots)
    data = draw_sheet.draw_sheet_pdf(default_event(), r, TEAMS, digits=2, fonts=fonts(), invariant=True)
    text = text_of(data)
    assert "桌号签号甲方签号乙方" in text
    assert "11第01组" in text and "2第02组" in text
    assert "轮空（本轮不赛，直接进入下一轮）：第03组（签号3）上官婉儿、慕容·古丽娜尔·艾尼瓦尔" in text
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        bye_names = [c for c in pdf.pages[0].chars if c["text"] == "慕"]
    assert bye_names and all(c["size"] >= 20 for c in bye_names)  # the byes are found on the wall too
    assert "本轮按纸签抽签：签号1与2对阵；签号3轮空（直接进入下一轮）；签号小的一方为甲方" in text
    assert "工作人员可用各组签号复核本轮抽签" in text and "--lots" not in text
    assert "01102103轮空" in text


# --- 第N轮成绩 and 加赛单 ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    folder = tmp_path_factory.mktemp("event")
    report = every_status_round(folder)
    return folder, report, write_score_papers(report, invariant=True)


def test_round_results_name_every_status_and_every_error_by_cell(scored):
    folder, report, papers = scored
    data = (folder / "第1轮成绩.pdf").read_bytes()
    assert_printable(data, smallest=14)
    text = text_of(data)
    results = round_results(report.score, report.teams, digits=report.digits)
    t1, t2, t3, t4 = results.tables
    if t1.status is TableStatus.PASSED_A:
        assert f"第{t1.winner}组打过A获胜" in text
    else:
        assert t1.status is TableStatus.DECIDED and f"{t1.levels.a}：{t1.levels.b}第{t1.winner}组胜" in text
    assert "3：3需加赛：同为3级，乙方先坐庄" in text
    assert f"乙方弃权，第{t3.winner}组晋级" in text
    assert "记录有误（1处），见下表" in text
    assert "第4桌记分表D7格台下得分应为0–200之间5的倍数，实际为“33”" in text  # the cell in words: no file
    assert "下一步：记分员改正上面列出的错误后重新计分" in text
    assert "shuangsheng" not in text and str(folder) not in text  # commands and paths go to the terminal


def test_playoff_slip_for_each_tied_table(scored):
    folder, report, papers = scored
    assert [p.name for p in papers.paths] == ["第1轮成绩.pdf", "第1轮第2桌加赛单.pdf", "第1轮成绩.png"]
    data = (folder / "第1轮第2桌加赛单.pdf").read_bytes()
    assert_printable(data, smallest=12)
    assert pages(data) == 1
    text = text_of(data)
    t2 = report.score.matches[1].match.pairing
    assert f"第2桌双方同为3级必打必打必打甲方第{t2.a}组" in text and f"乙方第{t2.b}组" in text
    assert f"第一局加赛由乙方（第{t2.b}组）坐庄，打3。" in text
    assert "加1是加2是加3是加4是加5是加6是加7是加8是加9是加10是" in text
    assert "round-1.xlsx" not in text and "score" not in text  # nothing for the computer operator
    assert "胜方" in text and "终局级数" in text and "升6级" in text
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        p = pdf.pages[0]
        big = {c["text"] for c in p.chars if c["size"] >= 24}
        assert {"2", "桌", "同", "3", "级"} <= big  # 第2桌 and 双方同为3级 in large type
        ring = [c for c in p.curves if 10 < c["width"] < 20]
        assert len(ring) == 2  # the tied level ringed on both tracks


def test_score_papers_are_regenerated_but_an_edited_one_is_kept(scored):
    from shuangsheng.storage.files import OutputExists

    folder, report, _ = scored
    write_score_papers(report, invariant=True)  # ours, unchanged: replaced freely
    (folder / "第1轮成绩.pdf").write_bytes(b"edited")
    with pytest.raises(OutputExists):
        write_score_papers(report, invariant=True)
    write_score_papers(report, force=True, invariant=True)
    assert (folder / "第1轮成绩.pdf").read_bytes().startswith(b"%PDF")


# --- the commands -----------------------------------------------------------------------------------------------


def test_draw_command_writes_the_draw_sheet_and_score_cards(tmp_path):
    from shuangsheng.cli import app

    new_event(tmp_path, 5)
    result = CliRunner().invoke(app, ["draw", str(tmp_path), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert f"已生成 {tmp_path / '第1轮对阵表.pdf'}" in result.output
    assert f"已生成 {tmp_path / '第1轮计分卡.pdf'}" in result.output
    drawn = open_folder(tmp_path).rounds[0].round
    cards = (tmp_path / "第1轮计分卡.pdf").read_bytes()
    assert pages(cards) == 2 * (len(drawn.pairings) + 1)
    assert "双面打印" in result.output  # each card a sheet: its back holds the points table and the key
    sheet = text_of((tmp_path / "第1轮对阵表.pdf").read_bytes())
    assert "随机种子3。复核：工作人员可用此随机种子复核本轮抽签" in sheet and "--seed" not in sheet
    assert "shuangsheng" not in sheet and str(tmp_path) not in sheet  # for the wall: no command, no path
    for p in drawn.pairings:
        assert f"{p.table}第{p.a}组" in sheet


def test_score_command_writes_the_results_and_a_slip_per_tied_table(tmp_path):
    import json

    from shuangsheng.cli import app

    every_status_round(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["score", str(tmp_path)])
    assert result.exit_code == 1  # 第4桌 has an error
    assert f"已生成 {tmp_path / '第1轮成绩.pdf'}" in result.output
    assert f"已生成 {tmp_path / '第1轮第2桌加赛单.pdf'}" in result.output
    assert not (tmp_path / "第1轮第1桌加赛单.pdf").exists()
    as_json = runner.invoke(app, ["score", str(tmp_path), "--json"])
    assert json.loads(as_json.stdout)["round"] == 1  # stdout stays one JSON document


def test_user_text_cannot_break_a_template_table():
    """Names are data: a `|` in one prints as typed inside its cell and never splits the row into more cells; a
    name beginning with a mark, or holding template syntax, is no markup either."""
    teams = {"01": Team("01", ("王|五", "赵六")), "02": Team("02", ("@记分", "#{{ br }}{% x %}"))}
    r = Round(1, ("01", "02"), (Pairing(1, "01", "02"),), (), 5)
    data = draw_sheet.draw_sheet_pdf(default_event(), r, teams, digits=2, fonts=fonts(), invariant=True)
    assert "1第01组王|五、赵六对第02组@记分、#{{br}}{%x%}" in text_of(data)


def test_a_character_wider_than_its_line_gets_a_line_of_its_own():
    from shuangsheng.render.materials.page import break_lines

    f = fonts()
    assert break_lines(f, "对", 22, [10]) == ["对"]
    assert break_lines(f, "甲对", 22, [10]) == ["甲", "对"]


def test_demo_produces_every_document_for_every_round(tmp_path):
    """Each round's draw sheet, score cards (a page per table and a blank one) and results, a playoff slip for
    the table that was tied when time was up (seed 6 has one), and the six event documents; all printable."""
    from shuangsheng.cli import app

    result = CliRunner().invoke(app, ["demo", "--out", str(tmp_path), "--teams", "6", "--seed", "6"])
    assert result.exit_code == 0, result.output
    state = open_folder(tmp_path)
    assert len(state.rounds) == 3
    smallest = {"对阵表": 14, "计分卡": 12, "成绩": 14, "加赛单": 12}
    for sheet in state.rounds:
        r = sheet.round
        cards = (tmp_path / names.score_cards_name(r.number)).read_bytes()
        assert pages(cards) == 2 * (len(r.pairings) + 1)  # a sheet each, printed on both sides
        for name in (names.draw_sheet_name(r.number), names.score_cards_name(r.number), names.results_name(r.number)):
            assert_printable((tmp_path / name).read_bytes(), smallest=smallest[name.removesuffix(".pdf")[3:]])
            assert name in result.output
    slip = tmp_path / names.playoff_slip_name(1, 2)
    assert slip.exists() and "第1轮第2桌加赛单.pdf" in result.output
    assert_printable(slip.read_bytes(), smallest=12)
    assert "第一局加赛由" in text_of(slip.read_bytes())
    assert "第05组胜（加赛1局）" in text_of((tmp_path / names.results_name(1)).read_bytes())
    from shuangsheng.storage.names import MATERIALS

    for name in MATERIALS:
        assert (tmp_path / name).exists()
    registration = text_of((tmp_path / "报名表.pdf").read_bytes())
    assert not re.search(r"\d{7}", registration.replace("2973620", ""))  # no made-up phone numbers


def test_the_operator_is_told_in_the_terminal_to_type_the_playoff_rows(tmp_path):
    """The line for the computer operator left the referee's slip: `score` says it."""
    from shuangsheng.render.report import next_after_score
    from shuangsheng.render.results import NextStep

    line = next_after_score(NextStep.PLAYOFF, "round-2.xlsx", tmp_path)
    assert "把这些局填入 round-2.xlsx 该桌的“加1、加2……”行，再运行 shuangsheng score" in line


def test_the_entry_code_has_its_place_above_the_names_only_when_given():
    """No made-up code: without codes the card says nothing of one; with a table's code it sits at the top left,
    above the team names and clear of every rule, and the card is still one sheet."""
    plain = paper.score_cards_pdf(default_event(), ROUND, TEAMS, digits=2, fonts=fonts(), invariant=True)
    assert "录分码" not in text_of(plain)
    coded = paper.score_cards_pdf(default_event(), ROUND, TEAMS, digits=2, codes={1: "K7QM-3XRT"}, fonts=fonts(),
                                  invariant=True)
    texts = page_texts(coded)
    assert len(texts) == 6 and "录分码K7QM-3XRT" in texts[0] and "录分码" not in "".join(texts[1:])
    with pdfplumber.open(io.BytesIO(coded)) as pdf:
        words = pdf.pages[0].extract_words()
        side, code = next(w for w in words if w["text"] == "甲方"), next(w for w in words if w["text"] == "K7QM-3XRT")
        ruled = [e for e in pdf.pages[0].edges if e["orientation"] == "h" and e["top"] < side["top"]]
    assert 0 < side["top"] - code["bottom"] < 12 * mm
    assert all(e["top"] - code["bottom"] >= 1.5 * mm for e in ruled if e["top"] > code["top"])
