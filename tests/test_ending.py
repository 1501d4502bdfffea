"""The end of the event on paper (shuangsheng.render.materials: bracket_chart, announcement, certificates): the bracket
chart, the results announcement and the certificates, measured from the PDFs."""

from __future__ import annotations

import datetime as dt
import io
import itertools
import random
import re
from collections import Counter

import pdfplumber
import pypdf
import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.game.levels import Level, Levels
from shuangsheng.knockout.advance import next_round
from shuangsheng.knockout.bracket import build
from shuangsheng.knockout.knockout import MatchOutcome, Round
from shuangsheng.knockout.teams import Team
from shuangsheng.render.materials import announcement, bracket_chart, certificates
from shuangsheng.render.materials.fonts import choose_fonts, formal_candidates, system_candidates
from shuangsheng.render.materials.page import MARGIN
from shuangsheng.render.materials.wording import MaterialsError
from shuangsheng.storage.event import default_event
from shuangsheng.table.status import TableStatus
from tests.events import new_event
from tests.pdfcheck import text_of

INSTALLED = [s for s in system_candidates() if s.path.is_file()]
pytestmark = pytest.mark.skipif(not INSTALLED, reason="no Chinese TrueType font (apt install fonts-wqy-microhei)")

DAY = dt.date(2026, 3, 20)
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾萧田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢"
LONG = ("阿卜杜热合曼·买买提江", "欧阳堃堃堃堃堃")  # long names, one with a rare character


def team_list(n: int, *, long_names: bool = True) -> list[Team]:
    """Teams with three-character names; team 02 (when there is one) has the long ones."""
    rng = random.Random(n)
    teams = [
        Team(f"{i:02d}", (rng.choice(SURNAMES) + "建国秀英"[i % 3 :][:2], rng.choice(SURNAMES) + "玉珍德华"[i % 3 :][:2]))
        for i in range(1, n + 1)
    ]
    if long_names and n >= 2:
        teams[1] = Team("02", LONG)
    return teams


def play(teams: list[Team], *, seed: int = 3, third_place: str = "shared", rounds_to_play: int | None = None,
         passed_a: bool = False):
    """A whole event (or its first rounds) through the knockout: 甲方 wins, A:10 (`passed_a`: by passing A)."""
    rng = random.Random(seed)
    ids = [t.id for t in teams]
    rounds: list[Round] = []
    outcomes: dict[int, list[MatchOutcome]] = {}
    levels: dict[tuple[int, int], Levels] = {}
    while (nxt := next_round(ids, rounds, outcomes, third_place=third_place)) is not None:
        if rounds_to_play is not None and len(rounds) == rounds_to_play:
            break
        r = nxt.draw(rng.randrange(10**9))
        rounds.append(r)
        status = TableStatus.PASSED_A if passed_a else TableStatus.DECIDED
        outcomes[r.number] = [MatchOutcome(p.table, status, p.a) for p in r.pairings]
        levels.update({(r.number, p.table): Levels(Level.ACE, Level.TEN) for p in r.pairings})
    return build(rounds, outcomes, teams, levels=levels, title="测试比赛", third_place=third_place)


@pytest.fixture(scope="module")
def fonts():
    return choose_fonts(candidates=INSTALLED)


def pages_of(data: bytes) -> list[dict]:
    """Per page: its size, every character (text, size, box) and the graphics."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return [
            {
                "width": page.width,
                "height": page.height,
                "chars": [(c["text"], round(c["size"], 2), c["x0"], c["x1"], c["top"], c["bottom"]) for c in page.chars],
                "text": re.sub(r"\s+", "", page.extract_text() or ""),
            }
            for page in pdf.pages
        ]


def check_printable(data: bytes, *, smallest: float) -> list[dict]:
    """Fonts embedded (TrueType, no base-14), every character within the margins and at least `smallest` pt."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    for page in reader.pages:
        for ref in page["/Resources"].get("/Font", {}).values():
            font = ref.get_object()
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            assert "/FontFile2" in descendant["/FontDescriptor"].get_object(), font["/BaseFont"]
    pages = pages_of(data)
    for page in pages:
        assert page["chars"]
        for text, size, x0, x1, top, bottom in page["chars"]:
            assert size >= smallest, (text, size)
            assert x0 >= MARGIN - 0.5 and x1 <= page["width"] - MARGIN + 0.5, (text, x0, x1)
            assert top >= MARGIN - 0.5 and bottom <= page["height"] - MARGIN + 0.5, (text, top, bottom)
    return pages


# --- 晋级图 ---


@pytest.mark.parametrize(("n", "sheets"), [(2, 1), (3, 1), (11, 1), (64, (2, 4)), (128, (3, 6))])
def test_chart_fits_its_sheets_at_the_minimum_size(n, sheets, fonts):
    teams = team_list(n)
    chart = play(teams)
    layout = bracket_chart.chart_layout(chart, fonts)
    data = bracket_chart.bracket_pdf(chart, default_event(), fonts=fonts, invariant=True)
    pages = check_printable(data, smallest=bracket_chart.MIN_SIZE)
    assert len(pages) == layout.sheets
    if sheets == 1:
        assert layout.sheets == 1 and layout.size >= 12  # small fields print large
    else:
        low, high = sheets
        assert low <= layout.sheets <= high and layout.size >= 10  # readable at 128 teams
        assert all(p["width"] > p["height"] and round(p["width"]) == 1191 for p in pages)  # A3 landscape
        for k, page in enumerate(pages, start=1):
            assert f"本图共{layout.sheets}张，这是第{k}张" in page["text"]
    # nothing is lost where the sheets meet: every team and both players on some sheet
    text = "".join(p["text"] for p in pages)
    for team in teams:
        assert f"{team.id}{team.players[0]}、{team.players[1]}" in text, team
    assert "一等奖" in text and text.count("三等奖") >= (2 if n >= 4 else 1)


def test_cut_lines_fall_between_first_column_slots(fonts):
    chart = play(team_list(128))
    layout = bracket_chart.chart_layout(chart, fonts)
    m = bracket_chart._Chart(chart, fonts, layout.size, line=layout.line)
    slots = chart.columns[0].slots
    gaps = [(a.y + a.height / 2, b.y - b.height / 2) for a, b in itertools.pairwise(slots)]
    overlap = bracket_chart.OVERLAP_LINES * m.line
    for start in layout.starts[1:]:
        cut = (start + overlap / 2) / m.line
        assert any(top - 1e-6 <= cut <= bottom + 1e-6 for top, bottom in gaps)
    assert all(b - a >= overlap for a, b in itertools.pairwise(layout.starts))


@pytest.mark.parametrize("n", [34, 40, 48, 50, 100])
def test_no_cut_line_runs_through_the_final_or_the_placings_panel(n, fonts):
    chart = play(team_list(n))
    layout = bracket_chart.chart_layout(chart, fonts)
    assert layout.sheets > 1
    m = bracket_chart._Chart(chart, fonts, layout.size, line=layout.line)
    overlap = bracket_chart.OVERLAP_LINES * m.line
    for start in layout.starts[1:]:
        cut = (start + overlap / 2) / m.line
        final = chart.columns[-1].slots[0]
        assert not final.y - final.height / 2 - 0.5 < cut < m.panel_top + m.panel_lines + 0.5, (n, cut)
    text = text_of(bracket_chart.bracket_pdf(chart, default_event(), fonts=fonts, invariant=True))
    assert "获奖名单" in text and "一等奖" in text


def test_chart_while_the_event_runs_leaves_what_is_to_come_blank(fonts):
    teams = team_list(11)
    chart = play(teams, rounds_to_play=1)
    pages = check_printable(bracket_chart.bracket_pdf(chart, default_event(), fonts=fonts, invariant=True), smallest=9)
    text = pages[0]["text"]
    assert "截至第1轮" in text and "第4轮（决赛）" in text and "获奖名单（比赛进行中）" in text
    assert "一等奖（待定）" in text


def test_chart_of_a_third_place_playoff(fonts):
    chart = play(team_list(8), third_place="playoff")
    text = pages_of(bracket_chart.bracket_pdf(chart, default_event(), fonts=fonts, invariant=True))[0]["text"]
    assert "三、四名决赛" in text and text.count("三等奖") == 1


def test_the_winner_of_each_match_is_marked_and_bold_and_passing_a_is_said(fonts):
    teams = team_list(8, long_names=False)
    chart = play(teams, passed_a=True)
    data = bracket_chart.bracket_pdf(chart, default_event(), fonts=fonts, invariant=True)
    text = pages_of(data)[0]["text"]
    labels = {t.id: f"{t.id}{'、'.join(t.players)}" for t in teams}
    for column in chart.columns:
        for slot in column.slots:
            winner, loser = (e.team for e in sorted(slot.entries, key=lambda e: not e.won))
            assert f"{bracket_chart.WINNER_MARK}{labels[winner]}过A" in text  # the mark, and 过A (not A级) for the winner
            assert f"{labels[loser]}10级" in text
    assert text.count(bracket_chart.WINNER_MARK) == 7 + 1  # seven matches, and the footnote's key
    assert b" 2 Tr" in pypdf.PdfReader(io.BytesIO(data)).pages[0].get_contents().get_data()  # bold: fill + stroke


def test_at_128_teams_boxes_are_whole_cut_lines_miss_them_and_the_sheets_are_used(fonts):
    chart = play(team_list(128))
    layout = bracket_chart.chart_layout(chart, fonts)
    m = bracket_chart._Chart(chart, fonts, layout.size, line=layout.line)
    room = m.room(layout.page)
    assert (m.content - layout.starts[-1]) / room > 0.6  # the last sheet is not left mostly empty
    data = bracket_chart.bracket_pdf(chart, default_event(), fonts=fonts, invariant=True)
    frame = (MARGIN + m.header - 0.5, MARGIN + m.header + room + 0.5)  # from the sheet's top, as pdfplumber
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        assert len(pdf.pages) == layout.sheets
        for page in pdf.pages:
            boxes = [r for r in page.rects if r["width"] > 20]
            assert boxes and all(frame[0] <= r["top"] and r["bottom"] <= frame[1] for r in boxes)  # no fragments
            left = min(r["x0"] for r in boxes)
            ticks = [ln for ln in page.lines if ln["x1"] < left]  # crop ticks: beside the chart, off the boxes
            ys = {round(t["top"], 2) for t in ticks if abs(t["top"] - t["bottom"]) < 0.01}
            assert len(ys) == (1 if page in (pdf.pages[0], pdf.pages[-1]) else 2)
            marks = [ln for ln in page.lines if round(ln["top"], 2) in ys and (ln["dash"][0] or ln in ticks)]
            assert all(any(ln["dash"][0] and round(ln["top"], 2) == y for ln in marks) for y in ys)
            for cut in marks:
                assert not any(r["x0"] - 0.5 < cut["x1"] and cut["x0"] < r["x1"] + 0.5
                               and r["top"] - 0.5 < cut["top"] < r["bottom"] + 0.5 for r in boxes), cut


# --- 成绩公告 ---


def test_announcement_names_prizes_players_every_round_organiser_and_date(fonts):
    teams = team_list(11)
    chart = play(teams)
    event = default_event()
    data = announcement.announcement_pdf(chart, event, day=DAY, fonts=fonts, invariant=True)
    pages = check_printable(data, smallest=10)
    sizes = Counter(size for p in pages for _, size, *_ in p["chars"])
    assert min(sizes) >= 10 and max(sizes) >= 22
    text = "".join(p["text"] for p in pages)
    assert "成绩公告" in text and "共有11组选手参赛，经过4轮淘汰赛" in text
    p = chart.placings
    for prize, team_id in [("一等奖", p.first), ("二等奖", p.second), ("三等奖", p.third[0]), ("三等奖", p.third[1])]:
        players = next(t.players for t in teams if t.id == team_id)
        assert f"{prize}{team_id}{'、'.join(players)}" in text
    for number in range(1, 5):
        assert f"第{number}轮" in text
    assert text.count("第") > 20 and "轮空（直接晋级）" in text
    assert text.endswith(f"{event.organiser}2026年3月20日") or f"{event.organiser}2026年3月20日" in text


def test_announcement_refused_before_the_end(fonts):
    chart = play(team_list(6), rounds_to_play=2)
    with pytest.raises(MaterialsError, match="比赛尚未结束"):
        announcement.announcement_pdf(chart, default_event(), day=DAY, fonts=fonts)


# --- 荣誉证书 ---


@pytest.mark.parametrize(("third_place", "teams_awarded"), [("shared", 4), ("playoff", 3)])
def test_certificates_one_per_team_or_one_per_player(third_place, teams_awarded, fonts):
    teams = team_list(11)
    chart = play(teams, third_place=third_place)
    event = default_event()
    for per_player, count in ((False, teams_awarded), (True, 2 * teams_awarded)):
        data = certificates.certificates_pdf(chart.placings, teams, event, day=DAY, per_player=per_player, fonts=fonts,
                                       invariant=True)
        pages = check_printable(data, smallest=certificates.NUMBER_SIZE)  # the number 14 pt, the rest ≥ 20 pt
        assert len(pages) == count
        assert all(p["width"] > p["height"] and round(p["width"]) == 842 for p in pages)  # A4 landscape
        expected = certificates.certificates(chart.placings, teams, per_player=per_player)
        assert len(expected) == count
        for page, cert in zip(pages, expected, strict=True):
            assert "荣誉证书" in page["text"] and cert.prize in page["text"] and event.title in page["text"]
            assert event.organiser in page["text"] and "2026年3月20日" in page["text"]
            for name in cert.names:
                assert name.replace("·", "") in page["text"].replace("·", "")
                # the recipients are large
                name_sizes = {size for text, size, *_ in page["chars"] if text == name[-1]}
                assert max(name_sizes) >= certificates.NAME_MIN


def test_long_and_rare_names_shrink_then_wrap_inside_the_border(fonts):
    teams = [Team("01", ("阿卜杜热合曼·买买提江·艾合买提", "欧阳堃·努尔买买提·阿不都热依木")), Team("02", ("王一", "李二"))]
    chart = play(teams)
    assert chart.placings.first == "01"
    data = certificates.certificates_pdf(chart.placings, teams, default_event(), day=DAY, fonts=fonts, invariant=True)
    pages = check_printable(data, smallest=14)  # body text may scale down, never below large print
    first = pages[0]
    name_chars = [c for c in first["chars"] if c[0] in "阿卜杜热合曼买提江艾欧阳堃努尔不都依木"]
    assert len(name_chars) == len("阿卜杜热合曼买买提江艾合买提欧阳堃努尔买买提阿不都热依木")  # nothing lost
    body = [c[1] for c in first["chars"] if c[0] in "在获特发此以资鼓励"]
    assert min(c[1] for c in name_chars) >= max(20.0, *body)  # still the largest text but the title and prize
    assert len({round(c[4]) for c in name_chars}) == 2  # one name a line
    single = certificates.certificates_pdf(chart.placings, teams, default_event(), day=DAY, per_player=True, fonts=fonts,
                                     invariant=True)
    check_printable(single, smallest=certificates.NUMBER_SIZE)  # one name a page: fits at full size
    assert min(c["size"] for c in chars_of(single) if c["text"] != "证" and c["size"] > 14) >= certificates.BODY_SIZE - 0.01


FORMAL = [s for s in formal_candidates() if s.path.is_file()]
needs_formal = pytest.mark.skipif(not FORMAL, reason="no formal face (apt install fonts-arphic-gkai00mp)")


def chars_of(data: bytes, page: int = 0) -> list[dict]:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return list(pdf.pages[page].chars)


def is_red(colour) -> bool:
    r, g, b = colour
    return r > 0.6 and g < 0.25 and b < 0.25


@pytest.mark.parametrize("formal", [None, []], ids=["formal face", "no formal face"])
def test_certificate_title_is_red_and_it_carries_a_number_and_the_events_month(formal, fonts):
    teams = team_list(6, long_names=False)
    chart = play(teams)
    event = default_event()  # date = "2026年3月中旬", no award_date
    data = certificates.certificates_pdf(chart.placings, teams, event, day=None, fonts=fonts, formal=formal,
                                   invariant=True)
    pages = check_printable(data, smallest=14)
    for k, page in enumerate(pages, start=1):
        assert f"证书编号：2026-{k:03d}" in page["text"]
        assert page["text"].endswith("2026年3月") or "中心2026年3月" in page["text"]
        chars = chars_of(data, k - 1)
        title = [c for c in chars if c["size"] == certificates.TITLE_SIZE]
        assert "".join(c["text"] for c in title) == "荣誉证书"
        assert all(is_red(c["non_stroking_color"]) for c in title)
        assert not any(is_red(c["non_stroking_color"]) for c in chars if c["size"] != certificates.TITLE_SIZE)
        sizes = sorted({round(c["size"]) for c in chars}, reverse=True)  # clear steps, each ≥ 1.25 × the next
        assert sizes[:3] == [56, 40, 30] and all(a >= 1.25 * b for a, b in itertools.pairwise(sizes))
        number = [c for c in chars if c["size"] == certificates.NUMBER_SIZE]
        assert "".join(c["text"] for c in number) == f"证书编号：2026-{k:03d}"
        faces = {c["fontname"] for c in chars if c not in number}
        assert len(faces) == 1 and (("Kai" in faces.pop()) if formal is None and FORMAL else True)
        # the number in the sans face, whose digits are the papers' (the 楷 face's serif digits are another hand)
        assert len({c["fontname"] for c in number}) == 1 and "Kai" not in number[0]["fontname"]
    dated = certificates.certificates_pdf(chart.placings, teams, event, day=DAY, fonts=fonts, invariant=True)
    assert "2026年3月20日" in pages_of(dated)[0]["text"] and "证书编号：2026-001" in pages_of(dated)[0]["text"]


@needs_formal
def test_the_name_line_is_set_in_one_face_the_formal_one_only_when_it_covers_both_names(fonts):
    teams = [Team("01", ("王堃", "李建国")), Team("02", ("张三", "李四"))]
    chart = play(teams)
    assert chart.placings.first == "01"
    data = certificates.certificates_pdf(chart.placings, teams, default_event(), day=DAY, fonts=fonts, invariant=True)
    chars = [c for c in chars_of(data) if c["size"] == certificates.NAME_SIZE]
    assert "".join(c["text"] for c in chars) == "王堃、李建国"
    assert len({c["fontname"] for c in chars}) == 1 and "Kai" not in chars[0]["fontname"]  # the line in one face
    assert any("王堃、李建国" in w and "这一行姓名整个改用" in w for w in fonts.warnings)
    plain = [Team("01", ("王建", "李国")), Team("02", ("张三", "李四"))]
    both = certificates.certificates_pdf(play(plain).placings, plain, default_event(), day=DAY, fonts=fonts,
                                         invariant=True)
    line = [c for c in chars_of(both) if c["size"] == certificates.NAME_SIZE]
    assert len({c["fontname"] for c in line}) == 1 and "Kai" in line[0]["fontname"]  # covered: the formal face


def test_nothing_is_printed_where_the_seal_goes(fonts):
    """The red dashed circle still showed after stamping: now the room over the organiser is blank paper."""
    teams = team_list(6, long_names=False)
    chart = play(teams)
    event = default_event()
    data = certificates.certificates_pdf(chart.placings, teams, event, day=DAY, fonts=fonts, invariant=True)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        organiser = [c for c in page.chars if c["text"] in event.organiser and c["size"] == certificates.BODY_SIZE]
        x = (min(c["x0"] for c in organiser) + max(c["x1"] for c in organiser)) / 2
        top = min(c["top"] for c in organiser)
        y = (top + max(c["bottom"] for c in organiser)) / 2  # the seal goes over the organiser's name
        r = certificates.SEAL_RADIUS
        drawn = [o for o in page.curves + page.edges  # a frame's rules pass by, none crosses the room
                 if o["x0"] < x + r and o["x1"] > x - r and o["top"] < y + r and o["bottom"] > y - r]
        inked = [c for c in page.chars if c["top"] < top - 1  # above the signature (the organiser, the date)
                 and c["x0"] < x + r and c["x1"] > x - r and c["bottom"] > y - r]
    assert drawn == [] and inked == []


def test_certificate_wording_comes_from_the_folders_template(tmp_path, fonts):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "certificate.j2").write_text(
        "# 奖状\n@获奖者\n荣获{{ event.title }}{{ prize }}，{{ team }}。\n> {{ event.organiser }}\n> {{ date }}\n",
        encoding="utf-8",
    )
    teams = team_list(4)
    chart = play(teams)
    data = certificates.certificates_pdf(chart.placings, teams, default_event(), day=DAY, fonts=fonts,
                                   template_dir=tmp_path / "templates", invariant=True)
    text = pages_of(data)[0]["text"]
    assert text.startswith("奖状") and f"一等奖，第{chart.placings.first}组" in text
    first = next(t for t in teams if t.id == chart.placings.first)
    assert text.startswith(f"奖状{'、'.join(first.players)}荣获")


@pytest.mark.parametrize(("template", "expected"), [
    ("# 奖状\n@ {{ names }}\n! {{ prize }}\n", "certificate.j2：模板中“@”后面应紧跟要插入的内容的名字（这份文件可用：@获奖者、@奖项）"),
    ("# 奖状\n@获奖人\n", "certificate.j2：模板中的“@获奖人”不认识（这份文件可用：@获奖者、@奖项）"),
    ("# 奖状\n|= 50 50\n| a | b\n", "certificate.j2：这份文件的模板不能用“|”开头的行"),
])
def test_a_certificate_template_with_a_mark_it_cannot_draw_is_named(tmp_path, fonts, template, expected):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "certificate.j2").write_text(template, encoding="utf-8")
    teams = team_list(4)
    with pytest.raises(MaterialsError, match=re.escape(expected)):
        certificates.certificates_pdf(play(teams).placings, teams, default_event(), day=DAY, fonts=fonts,
                                template_dir=tmp_path / "templates", invariant=True)


# --- the command line ---

runner = CliRunner()


def cli(*args, code=0):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result


def test_demo_ends_with_two_thirds_and_prints_chart_announcement_and_certificates(tmp_path):
    out = tmp_path / "demo"
    result = cli("demo", "--out", out)
    assert "三等奖：第" in result.output and result.output.count("三等奖") == 1
    assert len(re.search(r"三等奖：(.*)", result.output).group(1).split("、第")) == 2  # two 三等奖, none vacant
    for name in ("晋级图.pdf", "成绩公告.pdf", "荣誉证书.pdf"):
        assert (out / name).read_bytes().startswith(b"%PDF"), name
    assert len(pypdf.PdfReader(out / "荣誉证书.pdf").pages) == 4
    # per player: two each, and the files are regenerated while nobody edited them
    result = cli("awards", out, "--per-player")
    assert "荣誉证书.pdf" in result.output
    assert len(pypdf.PdfReader(out / "荣誉证书.pdf").pages) == 8
    result = cli("bracket", out)
    assert "晋级图.pdf（A3 横向 1 张" in result.output
    assert f"下一步：用 A3 纸打印晋级图；运行 shuangsheng awards {out} 打印成绩公告和荣誉证书" in result.output


def test_award_date_from_event_toml_dates_the_announcement_and_certificates(tmp_path):
    out = tmp_path / "demo"
    cli("demo", "--out", out, "--teams", 4)
    result = cli("awards", out)  # no award_date: the event's month, and a word on setting the day
    assert "日期印的是比赛月份“2026年3月”" in result.output and "award_date = 2026-03-15" in result.output
    for name in ("成绩公告.pdf", "荣誉证书.pdf"):
        assert "中心2026年3月" in _flat(text_of((out / name).read_bytes())), name
    toml = out / "event.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('award_date = ""', "award_date = 2026-03-15"),
                    encoding="utf-8")
    result = cli("awards", out)
    assert "比赛月份" not in result.output
    for name in ("成绩公告.pdf", "荣誉证书.pdf"):
        text = text_of((out / name).read_bytes())
        assert "2026年3月15日" in text and f"{dt.date.today():%Y}年{dt.date.today().month}月{dt.date.today().day}日" \
            not in text.replace("2026年3月15日", ""), name


def test_awards_prints_no_documents_before_the_end_and_bracket_works_from_the_first_draw(tmp_path):
    new_event(tmp_path, team_list(6, long_names=False))
    result = cli("bracket", tmp_path)
    assert (tmp_path / "晋级图.pdf").exists() and "已生成" in result.output
    cli("draw", tmp_path, "--seed", 1)
    cli("bracket", tmp_path)
    text = "".join(p["text"] for p in pages_of((tmp_path / "晋级图.pdf").read_bytes()))
    assert "截至第1轮" in text
    result = cli("awards", tmp_path)
    assert "比赛尚未结束" in result.output
    assert f"下一步：比赛结束后再运行 shuangsheng awards {tmp_path}" in result.output
    assert not (tmp_path / "成绩公告.pdf").exists() and not (tmp_path / "荣誉证书.pdf").exists()


MARKUP_TITLE = "@获奖名单 {{ event.venue }} {% if true %}是{% endif %} | 第1桌 # < > ~ +"  # every mark of the grammar
MARKUP_PURPOSE = "@得分表 开头的宗旨。"


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_event_text_that_looks_like_template_syntax_prints_as_typed(tmp_path):
    """Values from event.toml are data: a title beginning with `@` (an insert of the announcement, even) or holding
    `{{`, `{%`, `|`, is printed literally in the notice, the announcement and the certificates, and `awards` does
    not blame a template nobody edited."""
    out = tmp_path / "demo"
    cli("demo", "--out", out, "--teams", 4)
    toml = out / "event.toml"
    text = toml.read_text(encoding="utf-8")
    text = text.replace('title = "离退休教职工双升级（双扣）比赛"', f'title = "{MARKUP_TITLE}"')
    text = re.sub(r'(?m)^purpose = ".*"$', f'purpose = "{MARKUP_PURPOSE}"', text)
    toml.write_text(text, encoding="utf-8")
    result = cli("awards", out)
    assert "模板" not in result.output and "j2" not in result.output
    announcement_text = _flat(text_of((out / "成绩公告.pdf").read_bytes()))
    assert _flat(f"{MARKUP_TITLE}已圆满结束") in announcement_text
    assert announcement_text.count("一等奖") == 1  # the prize table once: the title inserted nothing
    certificate_pages = [_flat(p["text"]) for p in pages_of((out / "荣誉证书.pdf").read_bytes())]
    assert all(_flat(f"在{MARKUP_TITLE}中荣获") in page for page in certificate_pages)
    result = cli("materials", out, "--force")
    assert "模板" not in result.output
    notice = _flat(text_of((out / "通知.pdf").read_bytes()))
    assert notice.startswith(_flat(MARKUP_TITLE)) and _flat(f"{MARKUP_PURPOSE}具体事宜安排如下") in notice


def test_an_edited_chart_is_kept_unless_forced(tmp_path):
    out = tmp_path / "demo"
    cli("demo", "--out", out, "--teams", 3)
    (out / "晋级图.pdf").write_bytes(b"%PDF-1.4 edited by hand")
    result = cli("bracket", out, code=1)
    assert "晋级图.pdf" in result.output
    cli("bracket", out, "--force")
    assert (out / "晋级图.pdf").read_bytes() != b"%PDF-1.4 edited by hand"



def test_a_match_decided_by_playoff_hands_says_so_on_the_announcement_as_on_its_round_results(tmp_path):
    """13 teams: 第2轮成绩 said 第06组胜（加赛3局） and its picture 加赛3局决出, the 成绩公告 (PDF and picture) nothing:
    the bracket's record, which the announcement renders, did not carry the 加赛 hands. Now each match's slot
    carries them as its table's record counted them. The demo's 6 pairs, seed 6: round 1's table 2 took one."""
    from shuangsheng.render.materials.picture import announcement_column
    from shuangsheng.usecases.awards import bracket_in
    from shuangsheng.usecases.folder import open_folder
    from tests.test_picture import layout_of

    out = tmp_path / "demo"
    cli("demo", "--out", out, "--teams", 6, "--seed", 6)
    state = open_folder(out)
    chart, _ = bracket_in(state)
    records = {(s.round.number, m.match.table): m.record for s in state.scores() for m in s.matches}
    slots = {(s.round, s.table): s for c in chart.columns for s in c.slots if s.kind.value == "match"}
    assert {k: s.playoff_hands for k, s in slots.items()} == {k: r.playoff_hands for k, r in records.items()}
    assert slots[(1, 2)].playoff_hands == 1 and sum(s.playoff_hands for s in slots.values()) == 1
    winner = f"第{slots[(1, 2)].winner}组"
    assert _flat(f"{winner}胜（加赛1局）") in _flat(text_of((out / "第1轮成绩.pdf").read_bytes()))
    said = _flat(text_of((out / "成绩公告.pdf").read_bytes()))
    assert f"{winner}（加赛1局）" in said and said.count("加赛") == 1
    _, picture_text, _ = layout_of(announcement_column(chart, state.event, date="2026年3月"))
    assert picture_text.count("加赛1局决出") == 1
