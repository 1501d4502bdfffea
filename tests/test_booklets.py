"""The two booklets (秩序册 from `materials` and again once round 1 is drawn, 成绩册 from `awards`) and the
settings they print: [officials] and the timetable keys of [event]."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from shuangsheng.storage import event as event_file
from shuangsheng.storage import settings
from shuangsheng.storage.names import EVENT_FILE, PROGRAMME, RESULTS_BOOK

OFFICIALS = '''
[officials]
committee = ["主任：王发虎", "副主任：李秀英"]
arbitration = "主任：张建华"
chief_referee = []
referees = ["裁判员：赵振华", "记分员：周玉梅"]
'''


def with_officials(text: str = OFFICIALS) -> str:
    base = event_file.default_text()
    return base[:base.index("[officials]")] + text.lstrip()


# --- the settings ---


def test_officials_and_the_timetable_are_read_as_typed():
    event = event_file.parse(with_officials().replace('awards_time = ""', 'awards_time = "１１：３０"'), source=EVENT_FILE)
    assert event.officials.committee == ("主任：王发虎", "副主任：李秀英")
    assert event.officials.arbitration == ("主任：张建华",) and event.officials.chief_referee == ()
    assert (event.checkin_time, event.round_gap_minutes, event.awards_time) == ("8:00", 10, "11:30")
    default = event_file.default_event()
    assert default.officials == event_file.Officials() and default.awards_time == ""


@pytest.mark.parametrize(("text", "said"), [
    ('committee = ["主任：王发虎", ""]', "第2项是空的"),
    ("referees = [3]", "第1项应为加引号的文字，实际为 3"),
    ("arbitration = 5", '应为加引号的文字列表，如 ["主任：王发虎", "副主任：李秀英"]，实际为 5'),
])
def test_a_bad_officials_list_is_an_issue_naming_its_key(text, said):
    with pytest.raises(event_file.EventError) as caught:
        event_file.parse(with_officials(f"[officials]\n{text}\n"), source=EVENT_FILE)
    (issue,) = caught.value.issues
    assert issue.setting == ("officials", text.split(" ")[0]) and said in issue.detail


@pytest.mark.parametrize("key", ["checkin_time", "awards_time"])
def test_a_timetable_time_is_checked_as_start_time_is(key):
    text = event_file.default_text().replace(f'{key} = "8:00"', f'{key} = ""').replace(f'{key} = ""', f'{key} = "上午八点"')
    with pytest.raises(event_file.EventError) as caught:
        event_file.parse(text, source=EVENT_FILE)
    (issue,) = caught.value.issues
    assert issue.setting == ("event", key) and '应为时:分，如 "8:30"' in issue.detail


def test_the_settings_form_takes_officials_one_a_line(tmp_path: Path):
    (tmp_path / EVENT_FILE).write_text(with_officials(), encoding="utf-8")
    form = settings.read_settings(tmp_path)
    assert form.field("officials.committee").value == "主任：王发虎\n副主任：李秀英"
    settings.save_settings(tmp_path, {"officials.chief_referee": "裁判长：陈立新\n\n", "officials.committee": ""},
                           form.fingerprint)
    data = tomllib.loads((tmp_path / EVENT_FILE).read_text(encoding="utf-8"))
    assert data["officials"]["chief_referee"] == ["裁判长：陈立新"] and data["officials"]["committee"] == []
    form = settings.read_settings(tmp_path)
    same = settings.save_settings(tmp_path, {"officials.referees": "裁判员：赵振华\r\n记分员：周玉梅\r\n"},
                                  form.fingerprint)
    assert same.changed == () and same.backup is None  # as a browser sends the same list back


# --- the booklets of a whole event, at 5, 13 and 128 teams ---


def booklet_facts(folder: Path) -> dict[str, tuple[bytes, list[str]]]:
    """Each booklet's bytes and its pages' text (one extraction each)."""
    from tests.pdfcheck import page_texts

    out = {}
    for name in (PROGRAMME, RESULTS_BOOK):
        data = (folder / name).read_bytes()
        out[name] = (data, page_texts(data))
    return out


@pytest.fixture(scope="module", params=[5, 13, 128])
def event(request, tmp_path_factory):
    """A finished demo event (every booklet written: the 秩序册 with round 1 drawn, the 成绩册) and its booklets."""
    from shuangsheng.usecases.demo import make_demo

    folder = tmp_path_factory.mktemp(f"booklets{request.param}")
    made = make_demo(folder, teams=request.param, seed=2026)
    return request.param, folder, made, booklet_facts(folder)


def contents(data: bytes) -> list[tuple[str, int]]:
    """The 目录's entries as printed: (title, page), read line by line from its page (the second)."""
    import io
    import re

    import pypdf

    lines = [line.strip() for line in pypdf.PdfReader(io.BytesIO(data)).pages[1].extract_text().splitlines()]
    lines = lines[lines.index("目录") + 1:]
    out = []
    for text, after in zip(lines, lines[1:], strict=False):
        if re.fullmatch(r"\d+", after) and not re.fullmatch(r"\d+", text):
            out.append((text.replace(" ", ""), int(after)))
    return out


def test_the_contents_name_the_pages_their_parts_start_on(event):
    teams, _, made, books = event
    for name, (data, texts) in books.items():
        entries = contents(data)
        assert len(entries) >= 5, (name, entries)
        for title, page in entries:
            assert title in texts[page - 1], (name, title, page)
        assert [page for _, page in entries] == sorted(page for _, page in entries), name
    programme, results = (books[n][0] for n in (PROGRAMME, RESULTS_BOOK))
    assert [t for t, _ in contents(programme)] == ["竞赛规程", "组织机构与裁判人员", "参赛名单", "竞赛日程", "第1轮对阵", "签到表"]
    titles = [t for t, _ in contents(results)]
    assert titles[:2] == ["获奖名单", "各轮成绩"] and titles[-3:] == ["晋级图", "荣誉证书名单", "组织机构与裁判人员"]
    assert len(titles) == 5 + max(1, (teams - 1).bit_length()) and all(t.startswith("第") for t in titles[2:-3])


def test_every_page_after_the_cover_is_numbered_under_a_running_head(event):
    _, _, _, books = event
    for name, (_, texts) in books.items():
        assert "第1页" not in texts[0] and name.removesuffix(".pdf") in texts[0]  # the cover
        for number, text in enumerate(texts[1:], start=2):
            assert f"第{number}页共{len(texts)}页" in text, (name, number)
            assert text.startswith(f"离退休教职工双升级（双扣）比赛{name.removesuffix('.pdf')}"), (name, number)


def test_the_programme_holds_the_notice_s_facts_every_team_and_the_first_draw(event):
    teams, folder, _, books = event
    from shuangsheng.knockout.teams import id_digits
    from shuangsheng.storage.event import load
    from shuangsheng.storage.workbook import read_teams

    texts = books[PROGRAMME][1]
    whole = "".join(texts)
    facts = load(folder)
    for fact in (facts.title, facts.venue.replace(" ", ""), facts.date, facts.organiser, "附件：双升级（双扣）比赛规则",
                 "第1轮对阵表", "签到表", "组委会：", "仲裁委员会："):
        assert fact in whole, fact
    listed = read_teams(folder / "teams.xlsx")
    digits = id_digits(t.id for t in listed)
    entries = dict(contents(books[PROGRAMME][0]))
    first, after = entries["参赛名单"], entries["竞赛日程"]
    entry_text = "".join(texts[first - 1:after - 1])
    for team in listed:
        assert f"{int(team.id):0{digits}d}{team.players[0]}{team.players[1]}" in entry_text, team.id
    timetable = texts[after - 1]
    assert "报到" in timetable and "8:00" in timetable and "8:30–9:30" in timetable and "颁奖" in timetable


def test_the_results_book_holds_every_round_and_the_prizes(event):
    teams, folder, _, books = event
    from shuangsheng.usecases.awards import awards

    whole = "".join(books[RESULTS_BOOK][1])
    placings, state = awards(folder)
    for sheet in state.rounds:
        assert f"第{sheet.round.number}轮" in whole
    assert "一等奖" in whole and f"{placings.first}" in whole and "下一步" not in whole
    assert "2026-001" in whole and "证书编号" in whole
    # a field too large for the turned page at 10 pt: the bracket in parts, each at 10 pt or more
    assert ("部分印：第1轮至" in whole) is (teams == 128)


def test_the_booklets_are_typeset_by_the_house_rules(event):
    """No letter-spacing, no unit broken, nothing below 10 pt outside the turned bracket; checked at 13 teams."""
    teams, _, _, books = event
    if teams != 13:
        pytest.skip("checked once, on the 13-team event")
    import io

    import pdfplumber

    from tests.pdfcheck import assert_fonts_embedded, letter_spaced, line_texts
    from tests.test_papers_typeset import bad_joins

    for name, (data, _) in books.items():
        assert_fonts_embedded(data)
        entries = dict(contents(data))
        turned = {f"p{n}:" for n in range(entries.get("晋级图", 0), entries.get("荣誉证书名单", 0))}  # read across
        assert not [line for line in letter_spaced(data) if line.split(" ")[0] not in turned], name
        assert not bad_joins(line_texts(data)), name
        with pdfplumber.open(io.BytesIO(data)) as pdf:  # the turned chart's characters are not upright
            assert min(ch["size"] for page in pdf.pages for ch in page.chars if ch["upright"] and ch["text"].strip()) >= 10


def test_officials_left_empty_are_ruled_lines_and_filled_are_printed(tmp_path):
    from dataclasses import replace

    from shuangsheng.render.materials.programme import programme_pdf
    from tests.events import team_list
    from tests.pdfcheck import text_of

    teams = [replace(t, unit="一分会" if k % 2 else "二分会") for k, t in enumerate(team_list(5))]
    empty = event_file.default_event()
    filled = event_file.parse(with_officials(), source=EVENT_FILE)
    blank, named = (text_of(programme_pdf(e, teams)) for e in (empty, filled))
    for name in ("主任：王发虎", "副主任：李秀英", "主任：张建华", "裁判员：赵振华", "记分员：周玉梅"):
        assert name in named and name not in blank
    assert "按单位：" in named and "一分会01张1甲、李1乙" not in named  # 01 is in 二分会
    assert "二分会01张1甲、李1乙" in named and "一分会02张2甲、李2乙" in named


def test_the_programme_is_rewritten_when_round_1_is_drawn_unless_a_person_edited_it(tmp_path):
    from typer.testing import CliRunner

    from shuangsheng.cli import app
    from tests.events import new_event
    from tests.pdfcheck import text_of

    runner = CliRunner()
    for folder, edited in ((tmp_path / "a", False), (tmp_path / "b", True)):
        new_event(folder, 6)
        assert runner.invoke(app, ["materials", str(folder)]).exit_code == 0
        before = (folder / PROGRAMME).read_bytes()
        assert "第1轮对阵表" not in text_of(before)
        if edited:
            (folder / PROGRAMME).write_bytes(before + b"%edited\n")
        result = runner.invoke(app, ["draw", str(folder), "--seed", "123456"])
        assert result.exit_code == 0, result.output
        after = (folder / PROGRAMME).read_bytes()
        if edited:
            assert after == before + b"%edited\n" and "秩序册.pdf 和上次生成的不一样（可能有人改过），这次没有重写" in result.output
        else:
            assert "第1轮对阵表" in text_of(after) and "张1甲" in text_of(after)


def test_the_turned_bracket_is_never_set_below_10_pt(event):
    """The chart read across the turned page: every part of it at 10 pt or more, however large the field (at 128
    teams the rounds after the first part do not fit across either: they are parted again)."""
    teams, _, _, books = event
    if teams != 128:
        pytest.skip("a chart too wide for one part: the 128-team event")
    import io

    import pdfplumber

    from tests.pdfcheck import MARGIN

    data, _ = books[RESULTS_BOOK]
    with pdfplumber.open(io.BytesIO(data)) as pdf:  # a turned character's width across the page is its size
        sizes = {round(ch["x1"] - ch["x0"], 2) for page in pdf.pages for ch in page.chars
                 if not ch["upright"] and ch["text"].strip() and "\u4e00" <= ch["text"] <= "\u9fff"}
        outside = [(page.page_number, ch["text"]) for page in pdf.pages for ch in page.chars  # clipped away or not
                   if min(ch["x0"], ch["top"]) < MARGIN - 0.5 or ch["x1"] > page.width - MARGIN + 0.5
                   or ch["bottom"] > page.height - MARGIN + 0.5]
    assert sizes and min(sizes) >= 10
    assert not outside, outside[:10]  # nothing drawn past the page, clipped or not
    entries = dict(contents(data))
    _, texts = books[RESULTS_BOOK]
    turned = texts[entries["晋级图"] - 1:entries["荣誉证书名单"] - 1]
    assert len(turned) > 3 and all(re.search(r"晋级图第[一二三四五六]部分：第\d轮至第\d轮", t)
                                   for t in turned), turned  # each page says which part it is
    assert "晋级图第一部分：第1轮至第3轮第2张，共" in texts[entries["晋级图"]]  # and which of its pages


def test_the_results_book_s_rounds_name_who_played_them_and_round_1_s_check_in(tmp_path):
    """The 成绩册's rounds as they were played: a player replaced from round 2 still named in round 1 (as the 第1轮成绩
    posted that day), round 1 with the pairs 弃权 at check-in and the reserves who came in."""
    from shuangsheng.usecases.awards import rounds_results
    from shuangsheng.usecases.folder import open_folder
    from tests.events import fill
    from tests.helpers import cli
    from tests.test_checkin import checkin_event

    folder = checkin_event(tmp_path / "e")
    cli("checkin", folder, "--arrived", "01,02,03,04,08", "--absent", "05,06", "--close")
    cli("draw", folder, "--seed", 21)
    fill(folder, 1)
    cli("score", folder)
    cli("replace", folder, "--team", "01", "--out", "乙1", "--in", "替补王", "--reason", "生病", "--round", 2)
    cli("draw", folder, "--seed", 5)
    first, second = rounds_results(open_folder(folder))
    assert first.field is not None and first.field.absent == ("05", "06") and first.field.reserves_in == ("08",)
    assert second.field is None
    assert first.teams["01"].players == ("甲1", "乙1") and second.teams["01"].players == ("甲1", "替补王")


def test_a_timetable_out_of_order_is_said_when_the_programme_is_printed(tmp_path):
    """报到 after the start, or the prize-giving before the last round ends as the timetable counts it, would be
    printed as a contradiction in the 秩序册: `materials` says which key to change."""
    from shuangsheng.render.materials.programme import timetable, timetable_problems
    from tests.events import new_event
    from tests.helpers import cli

    event = event_file.default_event()
    assert timetable_problems(event, 17) == []
    late = event_file.parse(event_file.default_text().replace('checkin_time = "8:00"', 'checkin_time = "9:00"')
                            .replace('awards_time = ""', 'awards_time = "11:30"'), source=EVENT_FILE)
    assert timetable(late, 7)[-2:] == [("10:50–11:50", "第3轮（决赛）"), ("11:30", "颁奖")]
    checkin, awards = timetable_problems(late, 7)
    assert "报到时间 9:00（event.toml 的 checkin_time）晚于开始时间 8:30" in checkin
    assert "颁奖时间 11:30（event.toml 的 awards_time）早于日程上第3轮（决赛）结束的时间 11:50" in awards
    assert timetable_problems(late, 4)[1:] == []  # two rounds: over at 10:40
    long = event_file.parse(event_file.default_text().replace("match_minutes = 60", "match_minutes = 150"),
                            source=EVENT_FILE)
    (night,) = timetable_problems(long, 128)
    assert "按每场 150 分钟、两轮之间休息 10 分钟，第7轮（决赛）要排到午夜以后" in night
    folder = new_event(tmp_path / "e", 8)
    toml = folder / EVENT_FILE
    toml.write_text(toml.read_text(encoding="utf-8").replace('awards_time = ""', 'awards_time = "10:00"'),
                    encoding="utf-8")
    out = cli("materials", folder).output
    assert "颁奖时间 10:00（event.toml 的 awards_time）早于日程上第3轮（决赛）结束的时间 11:50" in out


def test_the_console_s_draw_says_an_edited_programme_was_kept(tmp_path):
    """The console's 抽签 says what `draw` says of its papers: the 秩序册 kept because a person changed it."""
    from shuangsheng.hall.console_work import draw_work
    from tests.events import new_event
    from tests.helpers import cli

    folder = new_event(tmp_path / "e", 4)
    cli("materials", folder)
    kept = (folder / PROGRAMME).read_bytes() + b"%edited\n"
    (folder / PROGRAMME).write_bytes(kept)
    done = draw_work(folder, seed=5, lots={}, number=1)(lambda step: None)
    assert done.ok and any(f"{PROGRAMME} 和上次生成的不一样（可能有人改过），这次没有重写" in line for line in done.lines)
    assert (folder / PROGRAMME).read_bytes() == kept


def test_a_programme_that_cannot_be_written_does_not_stop_round_1_s_draw(tmp_path, monkeypatch):
    """The 秩序册 open in a PDF reader (Windows refuses the write) when round 1 is drawn: the round's own papers are
    written and the draw completed; a line says the 秩序册 was not rewritten and why."""
    import errno

    from shuangsheng.storage.files import CannotWrite
    from shuangsheng.usecases.draw import draw_next
    from shuangsheng.usecases.papers import materials
    from shuangsheng.usecases.papers.draw import write_draw_papers
    from tests.events import new_event
    from tests.helpers import cli

    folder = new_event(tmp_path / "e", 4)
    cli("materials", folder)
    before = (folder / PROGRAMME).read_bytes()
    real = materials.write_generated

    def refusing(path: Path, data: bytes, *, force: bool) -> Path:
        if path.name == PROGRAMME:
            raise CannotWrite(path, PermissionError(errno.EACCES, "Permission denied"))
        return real(path, data, force=force)

    monkeypatch.setattr(materials, "write_generated", refusing)
    report = draw_next(folder, seed=5, papers=lambda drawn: write_draw_papers(drawn))
    assert report.papers_problems == () and report.papers is not None
    assert any(f"{PROGRAMME} 没有重写" in line and "无法写入" in line for line in report.papers.warnings)
    assert (folder / PROGRAMME).read_bytes() == before and (folder / "第1轮对阵表.pdf").exists()
    from shuangsheng.storage.ledger.connection import Ledger

    with Ledger.open(folder) as book:
        assert book.draws()[1].done


def test_the_line_announcing_the_points_table_stays_with_the_table():
    """比赛规则 (and the 秩序册's 竞赛规程): the box ending "本次比赛执行的对照如下表：" fell at a page's foot, the table
    on the next page; it goes over with the table."""
    from shuangsheng.render.materials.documents import rules_pdf
    from tests.pdfcheck import page_texts

    texts = page_texts(rules_pdf(event_file.default_event()))
    (page,) = [text for text in texts if "如下表：" in text]
    assert "台下方得分" in page.split("如下表：", 1)[1]


def test_an_edited_programme_is_kept_and_does_not_stop_the_other_materials(tmp_path):
    """A 秩序册 a person changed (a logo added) is kept by `materials` as by `draw`, with a line saying so; the other
    materials are printed again (the console's 打印材料, which cannot force, was stuck on it); --force prints it again."""
    from tests.events import new_event
    from tests.helpers import cli

    folder = new_event(tmp_path / "e", 4)
    cli("materials", folder)
    kept = (folder / PROGRAMME).read_bytes() + b"%edited\n"
    (folder / PROGRAMME).write_bytes(kept)
    signin = (folder / "签到表.pdf").stat().st_mtime_ns
    out = cli("materials", folder).output
    assert f"{PROGRAMME} 和上次生成的不一样（可能有人改过），这次没有重写" in out
    assert (folder / PROGRAMME).read_bytes() == kept and (folder / "签到表.pdf").stat().st_mtime_ns != signin
    cli("materials", folder, "--force")
    assert (folder / PROGRAMME).read_bytes() != kept


def test_an_edited_results_book_is_kept_and_does_not_stop_the_awards(tmp_path):
    """A 成绩册 a person changed is kept by `awards`, with a line saying so; the 成绩公告, the certificates and the
    picture are printed as before (the edited booklet failed the command half-way, and the console's 颁奖 for
    good)."""
    from tests.events import finished
    from tests.helpers import cli

    folder = tmp_path / "e"
    finished(folder, teams=4)
    cli("awards", folder)
    kept = (folder / RESULTS_BOOK).read_bytes() + b"%edited\n"
    (folder / RESULTS_BOOK).write_bytes(kept)
    (folder / "成绩公告.png").unlink()
    out = cli("awards", folder).output
    assert f"{RESULTS_BOOK} 和上次生成的不一样（可能有人改过），这次没有重写" in out
    assert (folder / RESULTS_BOOK).read_bytes() == kept and (folder / "成绩公告.png").exists()
    cli("awards", folder, "--force")
    assert (folder / RESULTS_BOOK).read_bytes() != kept
