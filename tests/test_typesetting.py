"""The typesetting rules of the printed documents, for every document laid out by `shuangsheng.render.materials.flow`: checked over
random names, ids and wordings from the laid-out lines (each piece's `text`) and from the PDF's own text, and on
the day's papers at 40 teams (continuation heads, lists in number order)."""

from __future__ import annotations

import io
import re

import pdfplumber
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from shuangsheng.game.levels import LABELS
from shuangsheng.render.linebreak import NO_LINE_END, NO_LINE_START, forbidden
from shuangsheng.render.materials.conventions import in_order
from shuangsheng.render.materials.flow import Flow
from shuangsheng.render.materials.page import LARGE, REGULAR
from shuangsheng.render.materials.pagination import paginate
from shuangsheng.render.materials.wording import blocks
from tests.pdfcheck import page_texts

IDS = st.integers(1, 128).map(lambda n: f"第{n:02d}组")
UNITS = st.one_of(
    IDS,
    st.integers(1, 64).map(lambda n: f"第{n}桌"),
    st.sampled_from(LABELS).map(lambda label: f"{label}级"),
    st.integers(0, 10**7).map(str),
    st.builds(lambda h, m: f"{h}:{m:02d}", st.integers(7, 21), st.integers(0, 59)),
    st.sampled_from(["round-12.xlsx", "event.toml", "teams.xlsx", "--force", "（保庄）", "（加赛1局）"]),
    st.integers(1, 10**6).map(lambda n: f"shuangsheng draw --seed {n}"),
)
NAMES = st.sampled_from(["王建国", "李秀英", "欧阳·买买提江", "司马相如", "阿卜杜热合曼·买买提依明", "萧子堃", "王喆"])
WORDS = st.sampled_from(["比赛", "双方", "同为", "请到", "就座", "晋级", "轮空", "称为", "落实政策", "升级", "对", "胜"])
MARKS = st.sampled_from(["，", "。", "、", "：", "；", "（", "）", "“", "”", "！"])
TOKENS = st.one_of(UNITS, UNITS, NAMES, WORDS, WORDS, MARKS)


def paragraph(tokens: list[str]) -> str:
    return "比赛" + "".join(tokens)  # begins with a word: a mark opening a paragraph is the wording's own choice


PARAGRAPHS = st.lists(TOKENS, min_size=1, max_size=60).map(paragraph)
CELLS = st.lists(st.one_of(IDS, NAMES, WORDS, st.sampled_from(LABELS).map(lambda label: f"{label}级")),
                 min_size=1, max_size=4).map("".join)


@st.composite
def documents(draw) -> list[str]:
    """Markup lines of a document: titles, lead-ins, paragraphs and tables in any order."""
    lines = ["# " + draw(PARAGRAPHS)[:20].rstrip("".join(NO_LINE_END))]
    for _ in range(draw(st.integers(3, 25))):
        kind = draw(st.sampled_from(["title", "lead", "plain", "body", "table", "aside"]))
        if kind == "title":  # consecutive titles are one title of several lines, broken where the author chose:
            lines.append("# " + draw(PARAGRAPHS)[:24].rstrip("".join(NO_LINE_END)))  # never after an opening mark
        elif kind == "lead":
            lines.append("< " + draw(PARAGRAPHS)[:30] + "：")
        elif kind == "plain":
            lines.append("< " + draw(PARAGRAPHS))
        elif kind == "body":
            lines.append(draw(PARAGRAPHS))
        elif kind == "aside":
            lines.append("+ " + draw(PARAGRAPHS))
        else:
            lines += ["|= 15 45 40", "|# 桌号 | 甲方 | 乙方"]
            for row in range(draw(st.integers(1, 12))):
                lines.append(f"| {row + 1} | {draw(CELLS)} | {draw(CELLS)}")
    return lines


def broken_rules(lines: tuple[str, ...]) -> list[str]:
    """What the line breaks of one paragraph or cell break (empty: none)."""
    text = "".join(lines)
    no = forbidden(text)
    wrong = []
    start = 0
    for line, after in zip(lines, lines[1:], strict=False):
        end = start + len(line)
        if after[:1] in NO_LINE_START or line[-1:] in NO_LINE_END:
            wrong.append(f"mark at a break: {line!r} | {after!r}")
        elif end in no and any(k not in no for k in range(start + 2, end + 1)):  # a unit split, though avoidable
            wrong.append(f"unit split: {line!r} | {after!r}")
        start = end
    last = lines[-1] if lines else ""
    weight = sum(1 for ch in last if ch != " " and ch not in NO_LINE_START and ch not in NO_LINE_END)
    if len(lines) > 1 and weight < 2:
        before = start  # where the last line starts
        if any(k not in no for k in range(max(before - 8, 1), before)):
            wrong.append(f"a last line alone: {lines[-2]!r} | {last!r}")
    return wrong


def check_pages(flow: Flow, pieces, running: str) -> None:
    pages = flow.pages(pieces, running)
    for placed in pages[:-1]:  # a heading (title, lead-in, table header) never ends a page
        piece, _ = placed[-1]
        assert not piece.keep or len(placed) == 1, [p.text for p, _ in placed[-2:]]
    for placed in pages:
        for piece, _ in placed:
            for lines in piece.text:
                assert not broken_rules(lines), broken_rules(lines)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(documents(), st.booleans())
def test_no_rule_broken_on_any_page(fonts, lines, large):
    """Random names, ids and wordings laid out: no mark at a break, no unit split (team id, table, level,
    number, time, file name, command, short aside), no last line alone, no heading at a page foot; in the PDF,
    every page after the first starts with the running head."""
    flow = Flow(fonts, LARGE if large else REGULAR)
    pieces = flow.markup(blocks(lines))
    check_pages(flow, pieces, "第1轮　对阵表")
    data = flow.pdf(pieces, title="测试", running="第1轮　对阵表", invariant=True)
    texts = page_texts(data)
    for text in texts[1:]:
        assert text.startswith("第1轮对阵表（续）")
    assert "（续）" not in texts[0]


@given(st.lists(IDS, min_size=1, max_size=40))
def test_lists_of_team_ids_are_in_number_order(ids):
    ordered = in_order(ids)
    numbers = [int(re.sub(r"\D", "", t)) for t in ordered]
    assert numbers == sorted(numbers) and sorted(ordered) == sorted(ids)
    assert in_order(["10", "9", "128", "02"]) == ["02", "9", "10", "128"]


def test_a_lead_in_stays_with_its_table(fonts):
    flow = Flow(fonts, LARGE)
    filler = ["本段用来占满页面。" * 6] * 9
    lines = [*filler, "< 轮空（本轮不赛，直接进入下一轮）：", "|= 50 50", "| 第01组 | 第02组"]
    pieces = flow.markup(blocks(lines))
    pages = flow.pages(pieces)
    lead = next(p for p in pieces if p.text and p.text[0][0].startswith("轮空"))
    page_of = {id(piece): n for n, placed in enumerate(pages) for piece, _ in placed}
    assert page_of[id(lead)] == page_of[id(pieces[-1])]
    assert pieces[-2] is lead or lead.keep


def test_a_few_spilled_lines_are_fitted_onto_the_page_before(fonts):
    """A document one line too long for a page closes up its spacing instead of opening a page for that line."""
    flow = Flow(fonts, LARGE)
    body = ["< 第一段。", "~", "< 第二段。", "~"] * 9
    fits = len(flow.pages(flow.markup(blocks(body))))
    pieces = flow.markup(blocks([*body, "< 多出的一行"]))
    assert len(paginate(pieces, flow.bottom, flow.top, flow.top - flow.head_height())) == fits + 1  # as set
    assert len(flow.pages(pieces)) == fits  # fitted


# --- the day's papers, from the PDFs' text -------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo40(tmp_path_factory):
    from shuangsheng.cli import app

    folder = tmp_path_factory.mktemp("demo40")
    result = CliRunner().invoke(app, ["demo", "--out", str(folder), "--teams", "40", "--seed", "3"])
    assert result.exit_code == 0, result.output
    return folder


def test_every_continuation_page_names_the_document_and_round(demo40):
    for name, head in (("第1轮对阵表.pdf", "第1轮对阵表（续）"), ("第1轮成绩.pdf", "第1轮成绩（续）")):
        texts = page_texts((demo40 / name).read_bytes())
        assert len(texts) > 1, name
        assert all(text.startswith(head) for text in texts[1:]), name
        assert not texts[0].startswith(head)


def team_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"第(\d+)组", text)]


def test_byes_advancing_and_the_index_are_in_number_order(demo40):
    for number in (1, 2):
        text = "".join(page_texts((demo40 / f"第{number}轮成绩.pdf").read_bytes()))
        advancing = re.search(r"晋级下一轮（\d+组）：(.*?)下一步", text)
        assert advancing, text[-300:]
        numbers = team_numbers(advancing.group(1))
        assert numbers == sorted(numbers) and len(numbers) > 4
    sheet = (demo40 / "第1轮对阵表.pdf").read_bytes()
    text = "".join(page_texts(sheet))
    byes = re.search(r"轮空（本轮不赛，直接进入下一轮）：(.*?)本轮由电脑抽签", text)
    if byes:
        numbers = team_numbers(byes.group(1))
        assert numbers == sorted(numbers)
    with pdfplumber.open(io.BytesIO(sheet)) as pdf:  # the index, read row by row: 组号 1, 2, 3 … 40
        lines = [line for page in pdf.pages for line in page.extract_text().splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("按组号找桌号"))
    index = []
    for line in lines[start + 1:]:
        cells = line.split()
        if cells and len(cells) % 2 == 0 and all(re.fullmatch(r"\d+|轮空", c) for c in cells):
            index += [int(c) for c in cells[::2]]
    assert index == list(range(1, 41))
    announced = "".join(page_texts((demo40 / "成绩公告.pdf").read_bytes()))
    byes = re.findall(r"轮空（直接晋级）：((?:第\d+组、)*第\d+组)", announced)
    assert byes, announced[:300]
    for listed in byes:
        numbers = team_numbers(listed)
        assert numbers == sorted(numbers), listed


def test_wall_sheets_carry_no_paths_or_commands(demo40):
    for name in ("第1轮对阵表.pdf", "第1轮成绩.pdf", "第2轮成绩.pdf"):
        text = "".join(page_texts((demo40 / name).read_bytes()))
        assert "shuangsheng" not in text and str(demo40) not in text and "--" not in text, name
        assert not re.search(r"/\w+/", text), name


def test_the_registration_form_never_spills_two_stray_rows(fonts):
    """13 teams leave no room for two blank rows on page 1: page 2 is a whole page of blank rows, not two."""
    from shuangsheng.knockout.teams import Team
    from shuangsheng.render.materials.documents import registration_pdf
    from shuangsheng.storage.event import default_event

    teams = [Team(f"{i:02d}", ("王建国", "李秀英")) for i in range(1, 14)]
    data = registration_pdf(default_event(), teams, fonts=fonts, invariant=True)
    texts = page_texts(data)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        rules = [e for e in pdf.pages[-1].edges if e["orientation"] == "h" and e["width"] > 300]
    if len(texts) > 1:
        assert texts[-1].startswith("离退休教职工双升级（双扣）比赛报名表（续）")
        assert len(rules) >= 12  # a page of rows to write on
