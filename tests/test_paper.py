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
from shuangsheng.render.materials import paper
from shuangsheng.render.materials.fonts import choose_fonts, system_candidates
from shuangsheng.render.results import round_results
from shuangsheng.storage import names
from shuangsheng.storage.event import default_event
from shuangsheng.storage.workbook.schema import HAND_COLUMNS, HEADER
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
    return paper.score_cards_pdf(default_event(), ROUND, TEAMS, fonts=fonts(), invariant=True)


# --- 计分卡 -----------------------------------------------------------------------------------------------------


def test_score_cards_one_page_per_table_and_a_blank_card(cards):
    assert pages(cards) == len(ROUND.pairings) + 1
    texts = page_texts(cards)
    assert "第1轮（半决赛）第1桌计分卡" in texts[0] and "第1轮（半决赛）第2桌计分卡" in texts[1]
    assert "第＿＿轮第＿＿桌计分卡（备用／续页）" in texts[2]  # a match of more than 16 hands goes on
    for text in texts:
        assert "离退休教职工双升级（双扣）比赛" in text
        assert "开始" in text and "结束" in text and "每场限时1小时" in text
        assert "甲方签名" in text and "乙方签名" in text and "裁判签名" in text
        assert "台下得分0分也写0" in text  # a blank 台下得分 is an error in the workbook too
    assert "第01组欧阳·买买提江、司马相如" in texts[0] and "第02组阿卜杜热合曼·买买提依明、诸葛䶮" in texts[0]


def test_score_cards_print_anywhere_in_large_print(cards):
    assert_printable(cards, smallest=12)


def test_card_columns_are_the_workbook_columns():
    """One definition, two renderers: the card's hand columns are the workbook schema's, in order."""
    assert paper.card_labels()[: len(HAND_COLUMNS)] == HEADER
    assert paper.card_labels()[len(HAND_COLUMNS):] == ("甲方级", "乙方级")


def header_cells(data: bytes, page: int = 0) -> list[str]:
    """The hand table's header as printed: the text of each header cell, read column by column."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        p = pdf.pages[page]
        row = next(w for w in p.extract_words() if w["text"] == "局")
        top = row["top"] - 14
        widths = paper.card_widths(p.width - 2 * 20 * mm - 12)
        x = 20 * mm + 6
        cells = []
        chars = [c for c in p.chars if top <= c["top"] <= top + 30]  # the two lines of the header, not row 1
        for width in widths:
            inside = sorted((c for c in chars if x <= c["x0"] < x + width), key=lambda c: (round(c["top"]), c["x0"]))
            cells.append("".join(c["text"] for c in inside))
            x += width
    return cells


def test_card_header_as_printed_equals_the_workbook_header(cards):
    assert header_cells(cards) == [*HEADER, "甲方级", "乙方级"]
    assert header_cells(cards, page=2) == [*HEADER, "甲方级", "乙方级"]


def test_card_has_sixteen_hand_rows_and_four_playoff_rows_of_at_least_8mm(cards):
    text = page_texts(cards)[0]
    assert re.search("".join(str(n) for n in range(1, 17)) + "加1是加2是加3是加4是", text)
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        p = pdf.pages[0]
        labels = [w for w in p.extract_words() if re.fullmatch(r"\d+|加\d", w["text"]) and w["x0"] < 20 * mm + 30]
        tops = [w["top"] for w in labels]
    assert len(tops) == 20
    steps = [b - a for a, b in itertools.pairwise(tops)]
    assert min(steps) >= 8 * mm - 0.1


def test_card_level_track_and_points_table(cards):
    text = page_texts(cards)[0]
    assert text.count("2345678910JQKA") == 2
    assert "灰底为必打级，2只在开局时必打" in text
    # the whole table in force, as the rule sheet has it: the negative totals, then the rule past either end
    assert "台下得分−40–−25−20–−50–1520–3540–5560–75庄家保庄升6级升5级升4级升3级升2级升1级" in text
    assert "台下得分80–95100–115120–135140–155160–175180–195200台下方上台不升级升1级升2级升3级升4级升5级升6级" in text
    assert "低于−40分或超过200分时每差20分多升一级" in text


def test_card_points_table_is_the_rule_sheets_table_in_force():
    """Every range and gain of `RuleSet.points_table` (from −40) is printed, measured from the PDF; with
    negative_points = "clamp" the table starts at 0 and says so."""
    import dataclasses

    from shuangsheng.game.rules import NegativePoints, RuleSet

    event = default_event()
    text = page_texts(paper.score_cards_pdf(event, None, {}, fonts=fonts(), invariant=True))[0]
    for row in event.rules.points_table(low=-40):
        assert (f"{row.low}" if row.low == row.high else f"{row.low}–{row.high}").replace("-", "−") in text
    clamp = dataclasses.replace(event, rules=RuleSet(negative_points=NegativePoints.CLAMP))
    text = page_texts(paper.score_cards_pdf(clamp, None, {}, fonts=fonts(), invariant=True))[0]
    assert "台下得分0以下按00–15" in text and "−40" not in text and "超过200分时每差20分多升一级" in text


def test_card_key_says_what_each_column_takes(cards):
    text = page_texts(cards)[0]
    assert "填法：庄家填甲或乙；台下得分、底牌分填5的倍数，台下得分0分也写0；抠底倍数填×2、×4…" in text
    assert "违规填台上／台下扣错底、出错牌" in text


def test_card_result_box_and_time_row_are_pen_rows(cards):
    """开始/结束, 胜方 and 终局级数 share one row at least 8 mm high; the spare card's rows carry no numbers."""
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        p = pdf.pages[0]
        words = p.extract_words()
        start = next(w for w in words if w["text"].startswith("开始"))
        assert any(w["text"].startswith("胜方") and abs(w["top"] - start["top"]) < 2 for w in words)
        assert any(w["text"].startswith("终局级数") and abs(w["top"] - start["top"]) < 2 for w in words)
        # the horizontal rules just above and below the time row are at least 8 mm apart
        edges = sorted({round(e["top"], 1) for e in p.edges if e["orientation"] == "h" and e["width"] > 300})
        above = max(y for y in edges if y < start["top"])
        below = min(y for y in edges if y > start["bottom"])
        assert below - above >= 8 * mm - 0.1
        for side in ("甲方", "乙方"):  # the team rows with the level track are pen rows too
            label = next(w for w in words if w["text"] == side)
            above = max(y for y in edges if y < label["top"])
            below = min(y for y in edges if y > label["bottom"])
            assert below - above >= 8 * mm - 0.1, side
        spare = pdf.pages[2]
        numbers = [w for w in spare.extract_words() if re.fullmatch(r"\d+", w["text"]) and w["x0"] < 20 * mm + 30]
        assert not numbers  # 备用／续页: the referee numbers the rows


def test_card_has_a_heavier_rule_every_four_rows(cards):
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        p = pdf.pages[0]
        heavy = [e for e in p.edges if e["orientation"] == "h" and e["linewidth"] > 1.2 and e["width"] > 300]
        labels = {w["text"]: w for w in p.extract_words() if re.fullmatch(r"\d+|加\d", w["text"]) and w["x0"] < 20 * mm + 30}
    for n in (4, 8, 12, 16):  # a heavy rule between row n and row n+1 (16: before 加1)
        after = labels[str(n + 1)] if n < 16 else labels["加1"]
        assert any(labels[str(n)]["bottom"] < e["top"] < after["top"] for e in heavy), n


def test_must_play_levels_are_shaded_on_the_track():
    """The shaded boxes are the must-play levels in force: 2, J, A by default; 2, 10, A when configured."""
    import dataclasses

    from shuangsheng.game.levels import Level
    from shuangsheng.game.rules import RuleSet

    def shaded(event) -> int:
        data = paper.score_cards_pdf(event, None, {}, fonts=fonts(), invariant=True)
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            p = pdf.pages[0]
            # one shaded box per must-play level, spanning the 甲方 and 乙方 rows of the track
            track = [r for r in p.rects if r["fill"] and r["width"] < 25 and r["height"] > 40]
        return len(track)

    default = default_event()
    assert shaded(default) == 3
    four = dataclasses.replace(default, rules=RuleSet(must_play=(Level.TWO, Level.TEN, Level.QUEEN, Level.ACE)))
    assert shaded(four) == 4


def test_long_and_rare_names_fit_their_box(cards):
    """Compound surnames, `·` and rare characters shrink or wrap inside the team cell, never past it."""
    with pdfplumber.open(io.BytesIO(cards)) as pdf:
        for p in pdf.pages[:2]:
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
    data = paper.score_cards_pdf(default_event(), r, teams, fonts=fonts(), invariant=True)
    assert pages(data) == 2  # the card and the blank card
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
    assert len(render_png(cards, tmp_path, "cards")) in (0, 3)


# --- 对阵表 -----------------------------------------------------------------------------------------------------


def test_draw_sheet_for_the_wall():
    data = paper.draw_sheet_pdf(default_event(), ROUND, TEAMS, fonts=fonts(), invariant=True)
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
    data = paper.draw_sheet_pdf(default_event(), r, TEAMS, fonts=fonts(), invariant=True)
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
    results = round_results(report.score, report.teams)
    t1, t2, t3, t4 = results.tables
    if t1.status is TableStatus.PASSED_A:
        assert f"第{t1.winner}组打过A获胜" in text
    else:
        assert t1.status is TableStatus.DECIDED and f"{t1.levels.a}：{t1.levels.b}第{t1.winner}组胜" in text
    assert "3：3需加赛：同为3级，乙方先坐庄" in text
    assert f"乙方弃权，第{t3.winner}组晋级" in text
    assert "记录有误（1处），见下表" in text
    assert "round-1.xlsx第4桌!D7台下得分应为0–200之间5的倍数，实际为“33”" in text
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
    assert f"第2桌双方同为3级甲方第{t2.a}组" in text and f"乙方第{t2.b}组" in text
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
    assert pages(cards) == len(drawn.pairings) + 1
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
    data = paper.draw_sheet_pdf(default_event(), r, teams, fonts=fonts(), invariant=True)
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
        assert pages(cards) == len(r.pairings) + 1
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


def test_the_entry_code_has_its_place_in_the_result_row_only_when_given():
    """No made-up code: without codes the card says nothing of one; with a table's code it sits in the result
    row, and the card is still one sheet."""
    plain = paper.score_cards_pdf(default_event(), ROUND, TEAMS, fonts=fonts(), invariant=True)
    assert "录分码" not in text_of(plain)
    coded = paper.score_cards_pdf(default_event(), ROUND, TEAMS, codes={1: "K7QM-3XRT"}, fonts=fonts(),
                                  invariant=True)
    texts = page_texts(coded)
    assert len(texts) == 3 and "终局级数甲＿乙＿录分码K7QM-3XRT" in texts[0] and "录分码" not in texts[1]
    with pdfplumber.open(io.BytesIO(coded)) as pdf:
        words = pdf.pages[0].extract_words()
        start, code = next(w for w in words if w["text"] == "开始"), next(w for w in words if w["text"] == "K7QM-3XRT")
    assert abs(code["top"] - start["top"]) < 2  # one row
