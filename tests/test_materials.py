"""The five event documents: what they say, that they print anywhere (fonts embedded), large print, margins."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io
import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from reportlab.lib.units import mm
from typer.testing import CliRunner

from shuangsheng.game.rules import DealerTable, RuleSet
from shuangsheng.knockout.teams import Team
from shuangsheng.render.materials import documents as docs
from shuangsheng.render.materials import wording
from shuangsheng.render.materials.fonts import choose_fonts, system_candidates
from shuangsheng.render.materials.page import PAGE
from shuangsheng.storage.event import default_event, default_text, parse
from shuangsheng.storage.files import OutputExists
from shuangsheng.storage.names import MATERIALS
from shuangsheng.usecases.papers.materials import build_all
from tests.events import new_event
from tests.pdfcheck import assert_fonts_embedded, assert_inside_margins, fonts_of, page_texts, text_of

INSTALLED = [s for s in system_candidates() if s.path.is_file()]
pytestmark = pytest.mark.skipif(not INSTALLED, reason="no Chinese TrueType font (apt install fonts-wqy-microhei)")

MISSING = "\U0002a6a5"  # 𪚥: in no installed Chinese font
TEAMS = (
    Team("01", ("王喆", "李堃"), "13800000001", unit="化学系"),
    Team("02", ("赵赟", "钱玥"), "13800000002", "<b>&备注"),
    Team("<b>&", ("<b>&王", "孙昇"), "13800000003"),
    Team("04", ("周琇", "吴镕"), ""),
    Team("05", ("郑垚", "冯犇"), ""),
    Team("06", ("陈翀", "褚珺"), ""),
)


def render(kind: str, event=None, teams=TEAMS, **kwargs) -> bytes:
    event = event or default_event()
    fonts = kwargs.pop("fonts", None) or choose_fonts(candidates=INSTALLED)
    common = {"fonts": fonts, "invariant": True, **kwargs}
    if kind == "notice":
        return docs.notice_pdf(event, **common)
    if kind == "rules":
        return docs.rules_pdf(event, **common)
    if kind == "registration":
        return docs.registration_pdf(event, teams, **common)
    if kind == "lots":
        return docs.lots_pdf(event, len(teams) or 12, **common)
    if kind == "signoff":
        return docs.signoff_pdf(event, **common)
    if kind == "signin":
        return docs.signin_pdf(event, teams, **common)
    return docs.souvenir_pdf(event, teams, **common)


KINDS = ("notice", "rules", "registration", "lots", "souvenir", "signoff", "signin")


@pytest.fixture(scope="module")
def pdfs() -> dict[str, bytes]:
    return {kind: render(kind) for kind in KINDS}


# --- every document ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_opens_as_a4_portrait(pdfs, kind):
    reader = pypdf.PdfReader(io.BytesIO(pdfs[kind]))
    assert len(reader.pages) >= 1
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(PAGE, abs=0.5)


@pytest.mark.parametrize("kind", KINDS)
def test_every_font_is_embedded_and_none_is_base14(pdfs, kind):
    assert_fonts_embedded(pdfs[kind])


@pytest.mark.parametrize("kind", KINDS)
def test_pdffonts_agrees_every_font_is_embedded(pdfs, kind, tmp_path):
    if shutil.which("pdffonts") is None:
        pytest.skip("poppler-utils not installed")
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdfs[kind])
    lines = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout.splitlines()
    rows = lines[2:]
    assert rows
    for row in rows:
        emb = row.split()[-5]  # columns from the right: emb sub uni object-id generation
        assert emb == "yes", row


@pytest.mark.parametrize("kind", KINDS)
def test_nothing_outside_the_margins(pdfs, kind):
    assert_inside_margins(pdfs[kind])


@pytest.mark.parametrize("kind", KINDS)
def test_large_print(pdfs, kind):
    with pdfplumber.open(io.BytesIO(pdfs[kind])) as pdf:
        sizes = [round(ch["size"], 1) for page in pdf.pages for ch in page.chars if ch["text"].strip()]
    if kind == "signoff":  # its note for staff (the event.toml keys) at SPEC's floor; all it asks to sign larger
        assert min(sizes) == 10 and min(size for size in sizes if size > 10) >= 14
    else:
        assert min(sizes) >= 14
    if kind != "lots":
        assert max(sizes) >= 22  # the heading


def test_output_is_repeatable_with_invariant(pdfs):
    assert render("rules") == pdfs["rules"]


def test_pdftoppm_renders_every_document(pdfs, tmp_path):
    if shutil.which("pdftoppm") is None:
        pytest.skip("poppler-utils not installed")
    for kind, data in pdfs.items():
        path = tmp_path / f"{kind}.pdf"
        path.write_bytes(data)
        subprocess.run(["pdftoppm", "-r", "15", "-png", str(path), str(tmp_path / kind)], check=True)
        assert list(tmp_path.glob(f"{kind}*.png"))


# --- 通知 -------------------------------------------------------------------------------------------------------


def test_notice_has_every_fact_of_the_seed(pdfs):
    text = text_of(pdfs["notice"])
    for phrase in [
        "离退休教职工双升级（双扣）比赛通知",
        "离退休教职工：",
        "为丰富离退休教职工精神文化生活",
        "一、参赛人员：身体健康、自愿报名的离退休教职工均可参加",
        "二、比赛时间：拟定于2026年3月中旬，上午8:30开始（具体比赛时间另行通知）",
        "三、比赛地点：离退休教职工服务中心（后家属院体育馆201棋牌室）",
        "1.比赛时间为1小时。比赛形式采取单循环淘汰制，每轮以抽签方式确定对手",
        "直到决出1、2、3名",
        "2.双升级（双扣）比赛规则（见附件）",
        "五、奖励设置：以参赛组为单位进行奖励，设一等奖1名、二等奖1名、三等奖2名，所有参赛选手均可获得纪念品一份",
        "六、报名方式：两人一组，自由组合报名参赛",
        "1.报名时间：2026年3月3日—9日（逾期不再接受报名）",
        "2.报名地点：办公室王发虎处（也可电话报名，电话：2973620）",  # one 报名 fewer: one line
        "离退休教职工服务中心2026年3月3日",
        "附件：双升级（双扣）比赛规则",
    ]:
        assert phrase in text, phrase


def test_notice_follows_event_toml():
    text = default_text()
    for old, new in [
        ('phone = "2973620"', 'phone = "8812345"'),
        ('start_time = "8:30"', 'start_time = "14:00"'),
        ("end = 2026-03-09", "end = 2026-04-02"),
        ("match_minutes = 60", "match_minutes = 90"),
        ("third = 2 ", "third = 3 "),
    ]:
        assert old in text
        text = text.replace(old, new)
    notice = text_of(render("notice", parse(text, source="event.toml")))
    assert "电话：8812345" in notice and "2973620" not in notice
    assert "下午2:00开始" in notice
    assert "2026年3月3日—4月2日" in notice
    assert "比赛时间为90分钟" in notice
    assert "三等奖3名" in notice


def test_notice_user_text_is_not_markup():
    event = default_event()
    event = dataclasses.replace(
        event, venue="<b>活动室</b> & 201", registration=dataclasses.replace(event.registration, contact="<i>张&三")
    )
    text = text_of(render("notice", event))
    assert "三、比赛地点：<b>活动室</b>&201" in text
    assert "<i>张&三处" in text


def short_lines(data: bytes, size: float = 16.0) -> list[str]:
    """The body lines (`size`) that a paragraph goes on after (its next line starts at the left edge, under the
    indented first line) but that end more than half a character short of the text's right edge: a ragged line in
    a justified paragraph (nothing is stretched to fill it)."""
    found = []
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for number, page in enumerate(pdf.pages, start=1):
            rows: dict[int, list[dict]] = {}
            for ch in page.chars:
                if abs(ch["size"] - size) < 0.1:
                    rows.setdefault(round(ch["top"]), []).append(ch)
            lines = [sorted(rows[top], key=lambda c: c["x0"]) for top in sorted(rows)]
            left = min(line[0]["x0"] for line in lines)
            right = max(line[-1]["x1"] for line in lines)
            for line, after in itertools.pairwise(lines):
                body = line[0]["x0"] < left + 2 * size + 1  # from the left edge or the indent (not a 落款)
                if body and after[0]["x0"] < left + 1 and line[-1]["x1"] < right - size / 2:
                    found.append(f"p{number}: {''.join(c['text'] for c in line)}")
    return found


def test_the_notice_has_no_ragged_line(pdfs):
    """A line the notice's paragraph goes on after is full: 报名地点 ended 4.5 characters short before "电话：
    2973620）" (a label and its number are not parted, 电话 not split, no letter-spacing), so the template says
    "也可电话报名：2973620" on one line."""
    assert short_lines(pdfs["notice"]) == []


# --- 比赛规则 -----------------------------------------------------------------------------------------------------


def table_rows_text(rules: RuleSet) -> list[str]:
    return ["".join(row) for row in wording.points_rows(rules)]


def test_rules_sheet_has_the_seed_clauses_and_the_table(pdfs):
    text = text_of(pdfs["rules"])
    assert text.startswith("双升级（双扣）比赛规则")
    for clause in "一二三四五六七八九十":
        assert f"{clause}、" in text
    for clause in ("十一、", "十七、"):
        assert clause in text
    assert "从2打起，2、J、A必打，先打过A者为胜方" in text
    # the rows of the table in force, read as printed
    for row in ["0–15庄家保庄庄家升4级", "60–75庄家保庄庄家升1级", "80–95台下方上台坐庄不升级", "140–155台下方上台坐庄台下方升3级"]:
        assert row in text, row
    assert table_rows_text(RuleSet())[3] == "60–75庄家保庄庄家升1级"
    for row in table_rows_text(RuleSet()):
        assert row in text
    assert "本规则由离退休服务中心负责解释" in text  # 十七 as the organiser wrote it


PUNCTUATION_SLIPS = {  # the slips the printed sheet corrects (tests/data/README.md)
    "2.J、A必打": "2、J、A必打",
    "一对副4.一对主4": "一对副4、一对主4",
    "均构成连对打无主时": "均构成连对。打无主时",
    "扣底分值同如果": "扣底分值同。如果",
    "对方升5级如台下方": "对方升5级。如台下方",
}


def original_clauses() -> list[str]:
    text = (Path(__file__).parent / "data" / "rules-original.txt").read_text(encoding="utf-8")
    for slip, fixed in PUNCTUATION_SLIPS.items():
        assert slip in text
        text = text.replace(slip, fixed)
    return [line.strip() for line in text.splitlines() if line.strip()]


def test_rule_sheet_prints_every_clause_as_the_organiser_wrote_it(pdfs):
    """The original text reads as written; what the organiser adds is a separate 补充说明, never inside a clause."""
    text = re.sub(r"第\d+页共\d+页", "", text_of(pdfs["rules"]))  # a clause may run over a page break
    for clause in original_clauses():
        assert re.sub(r"\s+", "", clause) in text, clause
    assert text.count("补充说明") >= 8


def test_rule_sheet_explains_penalty_cards_capture_multipliers_and_negative_totals(pdfs):
    text = text_of(pdfs["rules"])
    assert "台上方（庄家一方）被罚的牌，每张给台下方加10分；台下方被罚的牌，每张从台下方得分中减10分" in text
    assert "抠底的牌单张对牌拖拉机（两连对）火车（三连对）四连对底牌分乘×2×4×8×16×32" in text
    for row in ["−40–−25庄家保庄庄家升6级", "−20–−5庄家保庄庄家升5级", "0–15庄家保庄庄家升4级"]:
        assert row in text, row
    clamp = dataclasses.replace(default_event(), rules=RuleSet(negative_points="clamp"))
    clamped = text_of(render("rules", clamp))
    assert "0以下按0分计，庄家保庄庄家升4级" in clamped and "−20至−5" not in clamped
    assert "此时按0分计" in clamped


def test_rule_sheet_has_no_clause_ending_in_one_or_two_characters_alone(pdfs):
    with pdfplumber.open(io.BytesIO(pdfs["rules"])) as pdf:
        lines = [line.strip() for page in pdf.pages for line in page.extract_text().splitlines() if line.strip()]
    lone = [line for line in lines if len(line.replace(" ", "")) <= 2]
    assert not lone, lone


def test_rules_table_changes_with_dealer_table():
    texts = {}
    for table in DealerTable:
        event = dataclasses.replace(default_event(), rules=RuleSet(dealer_table=table))
        texts[table] = text_of(render("rules", event))
        for row in table_rows_text(event.rules):
            assert row in texts[table], (table, row)
    assert "60–75庄家保庄庄家升1级" in texts[DealerTable.CEIL]
    assert "60–75庄家保庄庄家升1级" not in texts[DealerTable.FLOOR]
    assert "45–60庄家保庄庄家升1级" in texts[DealerTable.FLOOR]
    assert "65–75庄家保庄不升级" in texts[DealerTable.FLOOR]
    assert "65–75庄家保庄庄家升1级" in texts[DealerTable.PLUS_ONE]
    assert len(set(texts.values())) == 3


def test_rules_follow_the_other_options():
    text = default_text().replace('must_play = ["2", "J", "A"]', 'must_play = ["2", "10", "A"]')
    text = text.replace('tie_break = "playoff"', 'tie_break = "dealer"').replace("match_minutes = 60", "match_minutes = 45")
    printed = text_of(render("rules", parse(text, source="event.toml")))
    assert "2、10、A必打" in printed
    assert "由最后一副牌的庄家一方获胜" in printed and "再进行加赛" not in printed
    assert "每场比赛时间为45分钟" in printed


# --- 报名表, 签收表, 签条 ----------------------------------------------------------------------------------------


def test_registration_form(pdfs):
    text = text_of(pdfs["registration"])
    assert "组号队员1队员2单位联系电话备注" in text
    assert "2973620" in text
    assert "01王喆李堃化学系13800000001" in text
    assert "<b>&<b>&王孙昇" in text and "<b>&备注" in text


def test_blank_registration_form_leaves_the_numbers_blank():
    """A form printed twice must not hand out 01, 02, … twice: the office numbers pairs when typing them in."""
    data = render("registration", teams=())
    text = text_of(data)
    assert text.endswith("组号队员1队员2单位联系电话备注")
    assert "组号由报名处统一编写" in text
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        assert len(pdf.pages) == 1  # blank rows fill the first page only
        assert len([r for r in pdf.pages[0].rects if r["height"] > 30]) >= 10 or len(pdf.pages[0].lines) > 10


def test_registration_form_says_the_dates_once(pdfs):
    text = text_of(pdfs["registration"])
    assert "报名时间：2026年3月3日—9日（逾期不再接受报名）" in text
    assert "截止" not in text and text.count("2026年3月") == 1


def test_souvenir_sheet_lists_every_player_with_team_and_signature_column(pdfs):
    text = text_of(pdfs["souvenir"])
    assert "序号组号姓名签名" in text
    for team in TEAMS:
        for player in team.players:
            assert f"{team.id}{player}" in text, player
    assert "1<b>&<b>&王" in text  # literally, not bold; first in 组号 order (a 组号 without a number)
    assert "纪念品领取签收表" in text


def test_signin_sheet_has_a_row_per_pair_by_number_with_unit_players_signature_and_time(pdfs):
    text = text_of(pdfs["signin"])
    assert "签到表" in text and "组号单位队员1队员2签名到场时间" in text
    assert "上午8:30开始，开始10分钟后仍未报到的组，经比赛负责人确认按弃权论" in text
    assert "01化学系王喆李堃" in text and "02赵赟钱玥" in text and "<b>&<b>&王孙昇" in text
    assert text.index("01化学") < text.index("02赵赟") < text.index("04周琇") < text.index("06陈翀")  # number order
    assert "候补组（" not in text


def test_signin_sheet_lists_the_reserves_apart_in_their_order(tmp_path):
    teams = (Team("12", ("候丙", "候丁")), Team("03", ("候甲", "候乙"), unit="化学系", reserve=True),
             Team("01", ("王一", "王二")), Team("02", ("赵一", "赵二"), reserve=True))
    text = text_of(render("signin", teams=teams))
    main, reserves = text.split("候补组（有组弃权时，按下表顺序补入；到场也请签名）")
    assert main.index("01王一") < main.index("12候丙") and "候甲" not in main
    assert reserves.index("03化学系候甲候乙") < reserves.index("02赵一赵二")


def test_lots_are_numbered_one_per_team(pdfs):
    text = text_of(pdfs["lots"])
    assert "共6张" in text and "沿虚线剪开" in text
    numbers = re.findall(r"签号(\d+)", text)
    assert numbers == [str(n) for n in range(1, 7)]


def test_lots_given_count_spans_pages():
    data = docs.lots_pdf(default_event(), 17, fonts=choose_fonts(candidates=INSTALLED), invariant=True)
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2  # up to 16 take one sheet of 2 × 8 (test_papers_typeset)
    text = text_of(data)
    assert re.findall(r"签号(\d+)", text) == [str(n) for n in range(1, 18)]
    with pytest.raises(wording.MaterialsError):
        docs.lots_pdf(default_event(), 0)


# --- warnings ---------------------------------------------------------------------------------------------------


def test_name_with_a_character_missing_from_the_font_is_warned():
    fonts = choose_fonts(candidates=INSTALLED)
    teams = (Team("07", ("王" + MISSING, "李四")),)
    data = docs.souvenir_pdf(default_event(), teams, fonts=fonts, invariant=True)
    assert fonts.warnings, "expected a warning"
    assert any(f"第07组队员“王{MISSING}”" in w and f"“{MISSING}”" in w for w in fonts.warnings)
    assert "王" in text_of(data)


# --- build_all and the command ----------------------------------------------------------------------------------


def test_build_all_writes_the_seven_files_again_but_keeps_an_edited_one(tmp_path):
    built = build_all(tmp_path, default_event(), None, invariant=True)
    assert [p.name for p in built.paths] == [
        "通知.pdf", "比赛规则.pdf", "报名表.pdf", "抽签签条.pdf", "纪念品领取签收表.pdf", "规则口径确认单.pdf", "签到表.pdf"
    ]
    assert all(p.read_bytes().startswith(b"%PDF") for p in built.paths)
    assert any("抽签签条先按12张打印" in w for w in built.warnings)
    again = build_all(tmp_path, default_event(), TEAMS, lots=3, invariant=True)  # ours, untouched: replaced
    assert re.findall(r"签号(\d+)", text_of(again.paths[3].read_bytes())) == ["1", "2", "3"]

    before = built.paths[0].read_bytes()
    (tmp_path / "纪念品领取签收表.pdf").write_bytes(b"%PDF annotated by the office")
    with pytest.raises(OutputExists, match="纪念品领取签收表.pdf.*不一样.*--force"):
        build_all(tmp_path, default_event(), TEAMS, invariant=True)
    assert built.paths[0].read_bytes() == before  # none is written while one is refused
    assert (tmp_path / "纪念品领取签收表.pdf").read_bytes() == b"%PDF annotated by the office"
    forced = build_all(tmp_path, default_event(), TEAMS, lots=4, force=True, invariant=True)
    assert re.findall(r"签号(\d+)", text_of(forced.paths[3].read_bytes())) == ["1", "2", "3", "4"]


def test_event_folder_templates_override_wording(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "lots.j2").write_text("@签条 抽签号 | {{ event.venue }}\n", encoding="utf-8")
    built = build_all(tmp_path, default_event(), TEAMS, invariant=True)
    assert "抽签号1" in text_of(built.paths[3].read_bytes())
    (tmp_path / "templates" / "notice.j2").write_text("# {% if %}\n", encoding="utf-8")
    with pytest.raises(wording.MaterialsError, match="notice.j2"):
        build_all(tmp_path, default_event(), TEAMS, force=True, invariant=True)


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("# {{ event.title }}\n正文\n{{ envent.venue }}\n", "notice.j2 第3行：模板里的 “envent” 不认识（可用的有：event、"),
        ("# 标题\n{{ event.venu }}\n", "notice.j2 第2行：模板里的 “venu” 不认识"),
        ("# 标题\n\n{% if event.venue %}\n没有结束\n", "notice.j2 第3行：模板格式有误"),
        ("# 标题\n{{ event.title }\n", "notice.j2 第2行：模板格式有误"),
        ("# 标题\n{{ 1 // 0 }}\n", "notice.j2 第2行：模板无法使用（ZeroDivisionError"),
        ("# 标题\n{{ ''.__class__.__mro__ }}\n", "notice.j2 第2行：模板里有不允许的写法"),
        ("# 标题\n{% include 'nosuch.j2' %}\n", "模板引用的文件“nosuch.j2”找不到"),
        ("# 标题\n{% include 'notice.j2' %}\n", "notice.j2 第2行：模板无法使用（RecursionError"),
        ("# 标题\n{% include '../event.toml' %}\n", "模板引用的文件“../event.toml”找不到"),
    ],
)
def test_an_edited_template_with_a_mistake_is_named_by_file_and_line(tmp_path, template, expected):
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "notice.j2").write_text(template, encoding="utf-8")
    (tmp_path / "event.toml").write_text(default_text(), encoding="utf-8")
    with pytest.raises(wording.MaterialsError) as info:
        wording.render_lines("notice.j2", default_event(), tmp_path / "templates")
    message = str(info.value)
    assert expected in message
    assert str(tmp_path / "templates" / "notice.j2") in message


def test_an_edited_template_mistake_through_the_command_line(tmp_path):
    runner = CliRunner()
    from shuangsheng.cli import app

    folder = tmp_path / "event"
    assert runner.invoke(app, ["init", str(folder)]).exit_code == 0
    (folder / "templates").mkdir()
    (folder / "templates" / "rules.j2").write_text("# 规则\n\n\n{{ event.nosuch }}\n", encoding="utf-8")
    result = runner.invoke(app, ["materials", str(folder)])
    assert result.exit_code == 1 and "Traceback" not in result.output and "错误报告" not in result.output
    assert "rules.j2 第4行：模板里的 “nosuch” 不认识" in result.output


def test_the_template_readme_documents_every_mark_and_every_insert_the_templates_use():
    from shuangsheng.render.materials.wording import BlockKind
    from shuangsheng.render.templates import TEMPLATE_DIR

    readme = (TEMPLATE_DIR / "README.md").read_text(encoding="utf-8").replace("\\|", "|")
    assert all(f"`{kind.value}" in readme for kind in BlockKind if kind.value)
    used = {name for path in TEMPLATE_DIR.glob("*.j2")
            for name in re.findall(r"(?m)^@(\S+)", path.read_text(encoding="utf-8"))}
    assert used and used <= set(re.findall(r"`@([^`\s]+)", readme))


def test_an_edited_template_saved_by_notepad_as_gbk_is_read(tmp_path):
    (tmp_path / "notice.j2").write_bytes("# 通知\n{{ event.venue }}见\n".encode("gbk"))
    assert wording.render_lines("notice.j2", default_event(), tmp_path)[0] == "# 通知"
    (tmp_path / "notice.j2").write_bytes(b"\xff\xfe\x00\xd8\x00\xdc")
    with pytest.raises(wording.MaterialsError, match="notice.j2：文件编码无法识别"):
        wording.render_lines("notice.j2", default_event(), tmp_path)


@pytest.mark.parametrize(
    ("start", "end", "expected"),
    [
        (dt.date(2026, 3, 3), dt.date(2026, 3, 9), "2026年3月3日—9日"),
        (dt.date(2026, 3, 28), dt.date(2026, 4, 3), "2026年3月28日—4月3日"),
        (dt.date(2026, 12, 28), dt.date(2027, 1, 3), "2026年12月28日—2027年1月3日"),
        (dt.date(2026, 3, 3), dt.date(2026, 3, 3), "2026年3月3日"),
    ],
)
def test_registration_period_wording(start, end, expected):
    assert wording.cn_period(start, end) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("8:30", "上午8:30"), ("８：３０", "上午8:30"), ("14:00", "下午2:00"), ("12:30", "下午12:30"), ("上午九点", "上午九点")],
)
def test_start_time_wording(text, expected):
    assert wording.cn_clock(text) == expected


def test_materials_command(tmp_path):
    from shuangsheng.cli import app

    new_event(tmp_path, TEAMS[:2])
    runner = CliRunner()
    result = runner.invoke(app, ["materials", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for name in MATERIALS:
        assert f"已生成 {tmp_path / name}" in result.output
    assert re.findall(r"签号(\d+)(?![与–\d])", text_of((tmp_path / "抽签签条.pdf").read_bytes())) == ["1", "2"]
    assert "01王喆" in text_of((tmp_path / "纪念品领取签收表.pdf").read_bytes())

    again = runner.invoke(app, ["materials", str(tmp_path)])  # after editing event.toml, say: printed afresh
    assert again.exit_code == 0, again.output
    (tmp_path / "通知.pdf").write_bytes(b"edited")
    kept = runner.invoke(app, ["materials", str(tmp_path)])
    assert kept.exit_code == 1 and "通知.pdf" in kept.output and "--force" in kept.output
    assert (tmp_path / "通知.pdf").read_bytes() == b"edited"
    forced = runner.invoke(app, ["materials", str(tmp_path), "--force", "--lots", "4"])
    assert forced.exit_code == 0, forced.output
    assert re.findall(r"签号(\d+)(?![与–\d])", text_of((tmp_path / "抽签签条.pdf").read_bytes())) == ["1", "2", "3", "4"]


def test_materials_command_without_event_toml(tmp_path):
    from shuangsheng.cli import app

    result = CliRunner().invoke(app, ["materials", str(tmp_path)])
    assert result.exit_code == 1 and "找不到活动设置文件" in result.output


# --- Chinese line breaking --------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["notice", "rules"])
def test_no_line_starts_with_closing_or_ends_with_opening_punctuation(pdfs, kind):
    with pdfplumber.open(io.BytesIO(pdfs[kind])) as pdf:
        lines = [line for page in pdf.pages for line in page.extract_text().splitlines() if line.strip()]
    assert len(lines) > 20
    for line in lines:
        assert line.strip()[0] not in "，。、；：！？）》”’", line
        assert line.strip()[-1] not in "（《“‘", line


def test_break_lines_pushes_punctuation_and_numbers_down():
    from shuangsheng.render.materials.page import break_lines

    fonts = choose_fonts(candidates=INSTALLED)
    size = 10
    full = fonts.width("中", size)
    # the line holds exactly four characters
    assert break_lines(fonts, "一二三四，五", size, [4 * full + 0.5]) == ["一二三", "四，五"]
    assert break_lines(fonts, "一二三“四”五", size, [4 * full + 0.5]) == ["一二三", "“四”五"]
    digits = fonts.width("2973620", size)
    assert break_lines(fonts, "电话2973620", size, [digits + full + 0.5]) == ["电话", "2973620"]
    assert break_lines(fonts, "", size, [100]) == []


def test_without_chinese_fonts_the_documents_still_build_with_stsong():
    fonts = choose_fonts(candidates=[])
    data = docs.notice_pdf(default_event(), fonts=fonts, invariant=True)
    names = {str(f.get("/BaseFont", "")) for f in fonts_of(data)}
    assert "/STSong-Light" in names  # honest: not embedded, and the warning says so
    assert any("不宜拿到别处打印" in w for w in fonts.warnings)
    assert "2973620" in text_of(data)


def test_lots_sheet_says_which_lots_meet_and_which_are_byes():
    from shuangsheng.storage.event import Byes

    event = default_event()
    fonts = choose_fonts(candidates=INSTALLED)
    text = text_of(docs.lots_pdf(event, 6, field=6, fonts=fonts, invariant=True))  # 6 teams: B = 4
    assert "本次6组，第1轮：签号1与2、3与4对阵（依次为第1、2……桌）；签号5–6轮空（直接进入下一轮）" in text
    each = dataclasses.replace(event, byes=Byes.EACH_ROUND)
    text = text_of(docs.lots_pdf(each, 11, field=11, fonts=fonts, invariant=True))
    assert "签号11轮空" in text and "组数为单数的轮次" in text
    blank = text_of(docs.lots_pdf(event, 12, fonts=fonts, invariant=True))
    assert "轮空" not in blank  # the number of teams is not known yet


# --- 规则口径确认单 ---------------------------------------------------------------------------------------------


CODE_NAMES = ("ceil", "floor", "plus_one", "cap", "deduct", "allow", "clamp", "playoff", "dealer", "shared",
              "first_round", "each_round", "event.toml", "[format]", "[rules]", "third_place", "byes")


def signed_text(data: bytes) -> tuple[str, str]:
    """The sign-off sheet's text as the 比赛负责人 reads it (above 10 pt), and its note for staff (10 pt, grey)."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        chars = [c for page in pdf.pages for c in page.chars]
    words = "".join(c["text"] for c in chars if c["size"] > 10.5 and c["text"].strip())
    note = [c for c in chars if c["size"] <= 10.5 and c["text"].strip()]
    assert all(c["size"] >= 10 and max(c["non_stroking_color"] or (0,)) > 0.3 for c in note)  # 10 pt, grey
    return words, "".join(c["text"] for c in note)


def test_signoff_sheet_names_every_option_in_force_beside_what_it_excludes(pdfs):
    text, note = signed_text(pdfs["signoff"])
    assert text.startswith("规则口径确认单")
    assert "每少20分升一级，不足20分的零头也按一级计：60–75分升1级" in text
    assert "零头不计（65–75分不升级）" in text  # the reading it excludes
    assert "2、J、A；2只在开局打2时必打" in text
    assert "停在必打级，少升的级数不扣对方" in text and "少升的级数也从对方扣除" in text
    assert "照负分计算，如−20分时庄家升5级" in text and "按0分计" in text
    assert "级数相同就加赛" in text and "级数相同判最后一副的庄家胜" in text
    assert "两场半决赛的负者并列三等奖" in text and "轮空都放在第1轮" in text
    assert "第十二条（级牌抠底、落实政策）的执行口径" in text and "第十三、十四条（扣错底、出错牌）的执行口径" in text
    assert "比赛负责人签字：＿＿＿＿＿＿日期：＿＿年＿＿月＿＿日" in text


def test_signoff_sheet_is_in_words_with_the_settings_only_in_a_grey_note(pdfs):
    """ceil, plus_one, clamp, `[format] third_place`, event.toml were in the text the 比赛负责人 signs: now only
    in the note for staff, at 10 pt in grey."""
    text, note = signed_text(pdfs["signoff"])
    assert [name for name in CODE_NAMES if name in text] == []
    for setting in ('dealer_table="ceil"', 'must_play=["2","J","A"]', 'penalty_excess="cap"', 'third_place="shared"',
                    'byes="first_round"', "event.toml"):
        assert setting in note.replace(" ", ""), setting


def test_signoff_sheet_is_one_sheet_with_initials_on_every_page(pdfs):
    """Its p3 held 7 lines: now one sheet printed on both sides, each page with a line for the initials of the one
    who checked it."""
    from shuangsheng.game.rules import NegativePoints, PenaltyExcess, TieBreak

    pages = page_texts(pdfs["signoff"])
    assert len(pages) <= 2
    assert all("本页核对，签缩写：＿＿＿" in page for page in pages)
    other = dataclasses.replace(default_event(), rules=RuleSet(
        dealer_table=DealerTable.PLUS_ONE, penalty_excess=PenaltyExcess.DEDUCT, negative_points=NegativePoints.CLAMP,
        tie_break=TieBreak.DEALER))
    assert len(page_texts(render("signoff", other))) <= 2


def test_signoff_sheet_changes_with_event_toml():
    text = default_text()
    for old, new in [
        ('dealer_table = "ceil"', 'dealer_table = "floor"'),
        ('penalty_excess = "cap"', 'penalty_excess = "deduct"'),
        ('negative_points = "allow"', 'negative_points = "clamp"'),
        ('tie_break = "playoff"', 'tie_break = "dealer"'),
        ('third_place = "shared"', 'third_place = "playoff"'),
    ]:
        assert old in text, old
        text = text.replace(old, new)
    changed, note = signed_text(render("signoff", parse(text, source="event.toml")))
    assert "每少满20分升一级，零头不计：65–75分不升级" in changed and "零头按一级计（60–75分升1级）" in changed
    assert "停在必打级，少升的级数同样从对方扣除" in changed
    assert "低于0分按0分计" in changed
    assert "由最后一副牌的庄家一方获胜" in changed and "加赛直至分出胜负" in changed
    assert "胜者获三等奖" in changed
    assert 'dealer_table="floor"' in note and 'tie_break="dealer"' in note
    assert changed != signed_text(render("signoff"))[0]


# --- 抽签签条: cut lines, 6 and 9 -------------------------------------------------------------------------------


@pytest.mark.parametrize(("number", "ambiguous"), [
    (6, True), (9, True), (16, True), (19, True), (61, True), (66, True), (68, True), (86, True), (91, True),
    (99, True), (1, False), (8, False), (10, False), (11, False), (60, False), (69, False), (88, False), (96, False),
    (101, False), (7, False), (106, True), (126, False),
])  # fmt: skip
def test_lot_numbers_that_read_as_another_upside_down(number, ambiguous):
    assert docs.rotation_ambiguous(number) is ambiguous


def lots_geometry(data: bytes):
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        lines = [ln for ln in page.lines if ln["width"] > 100 or ln["height"] > 50]  # cut lines, not crop marks
        return page, lines


def test_lot_text_stays_well_inside_its_cut_lines():
    data = docs.lots_pdf(default_event(), 11, field=11, fonts=choose_fonts(candidates=INSTALLED), invariant=True)
    page, lines = lots_geometry(data)
    rows = sorted({round(ln["top"], 1) for ln in lines if ln["width"] > 100})
    cols = sorted({round(ln["x0"], 1) for ln in lines if ln["height"] > 50})
    assert len(rows) == 7 and len(cols) == 3
    inside = [ch for ch in page.chars if ch["top"] > rows[0] and ch["text"].strip()]
    assert inside
    for ch in inside:
        above = max(y for y in rows if y <= ch["top"])
        below = min(y for y in rows if y >= ch["bottom"])
        left = max(x for x in cols if x <= ch["x0"])
        right = min(x for x in cols if x >= ch["x1"])
        assert min(ch["top"] - above, below - ch["bottom"]) >= 3 * mm, ch["text"]
        assert min(ch["x0"] - left, right - ch["x1"]) >= 3 * mm, ch["text"]


def test_six_and_nine_are_underlined_and_an_empty_cell_has_no_cut_lines():
    data = docs.lots_pdf(default_event(), 11, fonts=choose_fonts(candidates=INSTALLED), invariant=True)
    page, lines = lots_geometry(data)
    underlines = [ln for ln in page.lines if 10 < ln["width"] < 60 and ln["linewidth"] >= 2]
    assert len(underlines) == 2  # under 6 and under 9
    rows = sorted({round(ln["top"], 1) for ln in lines if ln["width"] > 100})
    cols = sorted({round(ln["x0"], 1) for ln in lines if ln["height"] > 50})
    # the twelfth cell (last row, right column) holds no slip: no cut line on its right or bottom edge
    last_top, last_bottom = rows[-2], rows[-1]
    for ln in lines:
        mid_x, mid_y = (ln["x0"] + ln["x1"]) / 2, (ln["top"] + ln["bottom"]) / 2
        assert not (abs(mid_x - cols[2]) < 1 and last_top < mid_y < last_bottom), ln
        assert not (abs(mid_y - last_bottom) < 1 and cols[1] < mid_x < cols[2]), ln


def test_reserve_pairs_register_but_draw_no_lot(tmp_path):
    teams = (*TEAMS, Team("07", ("候甲", "候乙"), unit="化学系", reserve=True))
    built = build_all(tmp_path, default_event(), teams, invariant=True)
    lots = text_of(built.paths[3].read_bytes())
    assert "（1–6号，共6张）" in lots and "本次6组" in lots and "签号7" not in lots
    assert "07候甲候乙化学系" in text_of(built.paths[2].read_bytes())
