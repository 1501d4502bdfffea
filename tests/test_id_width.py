"""One width for the event's 组号 (issues 33 and 34, item 4): decided once where the event folder is opened
(`EventFolder.digits`: every 组号 of teams.xlsx, reserves and withdrawn pairs too, and every id a round workbook or
event.db names) and carried in the records every paper, picture, workbook, screen and message is made from. A
reserve pair numbered 100 who never checks in makes pair 7 第007组 on the papers printed after round 1 as before it,
on the TV and at the desk alike; without it, 99 pairs print 第07组 everywhere."""

from __future__ import annotations

import io
import re
from pathlib import Path

import openpyxl
import pdfplumber
import pytest

from shuangsheng.knockout.teams import Team
from shuangsheng.storage.names import EVENT_FILE, round_path
from shuangsheng.storage.workbook.schema import MATCHES_SHEET
from tests.events import fill, new_event
from tests.helpers import cli

RESERVE = Team("100", ("甲100", "乙100"), reserve=True)  # 候补: never checks in, never plays


def pairs(n: int) -> list[Team]:
    return [Team(f"{i:02d}", (f"张{i}甲", f"李{i}乙")) for i in range(1, n + 1)]


def run_event(folder: Path, teams: list[Team], *, absent: str) -> int:
    """The day through the command line: check-in (every pair but `absent` arrives; it is 弃权; no reserve comes),
    then each round drawn, typed, scored, to the final; the bracket and the awards. Returns the rounds played."""
    new_event(folder, teams)
    toml = folder / EVENT_FILE  # the start at 0:00 and no grace: any time of day is late
    toml.write_text(toml.read_text(encoding="utf-8").replace('start_time = "8:30"', 'start_time = "0:00"')
                    .replace("late_minutes = 10", "late_minutes = 0"), encoding="utf-8")
    arrived = ",".join(t.id for t in teams if not t.reserve and t.id != absent)
    cli("checkin", folder, "--arrived", arrived, "--absent", absent, "--close")
    number = 0
    while True:
        number += 1
        drawn = cli("draw", folder, "--seed", number).output
        fill(folder, number)
        cli("score", folder)
        if "（决赛）" in drawn.splitlines()[0]:
            break
    cli("bracket", folder)
    cli("awards", folder)
    return number


def text_of(data: bytes) -> str:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return re.sub(r"\s+", "", "".join(page.extract_text() or "" for page in pdf.pages))


def widths(text: str) -> set[int]:
    """How wide every 组号 in `text` is printed: in 第…组, and bare before a pair's names (张7甲 is pair 7's)."""
    found = {len(n) for n in re.findall(r"第(\d+)组", text)}
    found |= {len(n) for n, _ in re.findall(r"(?<![\d：:A过])(\d+)张(\d+)甲", text)}
    return found


AFTER_ROUND_1 = ("晋级图.pdf", "成绩公告.pdf", "成绩册.pdf")  # the certificates print names, no 组号


def papers_after_round_1(folder: Path, rounds: int) -> list[Path]:
    """Every paper printed from round 1's results on that names pairs: round 1's results, the later rounds' draw
    sheets, score cards and results, and the papers of the end."""
    named = ["第1轮成绩.pdf", *AFTER_ROUND_1]
    for n in range(2, rounds + 1):
        named += [f"第{n}轮对阵表.pdf", f"第{n}轮计分卡.pdf", f"第{n}轮成绩.pdf"]
    paths = [folder / name for name in named]
    assert all(p.exists() for p in paths), [p.name for p in paths if not p.exists()]
    return paths


def workbook_ids(path: Path) -> set[str]:
    """The 组号 cells of a round workbook: on its 对阵 sheet the bye, 甲方 and 乙方 of each match and the pool's
    组号; on every 第N桌 sheet 甲方 and 乙方."""
    wb = openpyxl.load_workbook(path, read_only=True)
    rows = [row for row in wb[MATCHES_SHEET].iter_rows(values_only=True)]
    found = {t for row in rows if row[0] == "轮空" and row[1] != "无" for t in str(row[1]).split("、")}  # many: 、
    part = ""
    for row in rows:
        if row[0] in ("桌号", "序号"):
            part = row[0]
        elif row[0] is None:
            part = ""
        elif part:
            found |= {str(v) for v in (row[1:3] if part == "桌号" else row[1:2])}
    for name in wb.sheetnames[1:]:
        found |= {str(row[1]) for row in wb[name].iter_rows(max_row=4, values_only=True) if row[0] in ("甲方", "乙方")}
    wb.close()
    return found


def picture_texts(folder: Path) -> list[str]:
    """The text of each round's 第N轮成绩.png and the 成绩公告's picture, as laid out before they are rasterized."""
    from shuangsheng.render.materials.picture import announcement_column, round_column
    from shuangsheng.usecases.awards import bracket_in, rounds_results
    from shuangsheng.usecases.folder import open_folder
    from tests.test_picture import layout_of

    state = open_folder(folder)
    chart, _ = bracket_in(state)
    columns = [round_column(state.event, r) for r in rounds_results(state)]
    columns.append(announcement_column(chart, state.event, date="2026年3月"))
    return [layout_of(c)[1] for c in columns]  # a bold line's copies read once


def hall_shown(folder: Path) -> tuple[set[str], set[str], set[str]]:
    """What the hall shows of the round in play (the final): the desk's `shown` of each seat, the TV board's 组号
    (its team list, the round's tables, the placings) and the console's 更正 page."""
    from shuangsheng.hall.console_work import correct_facts
    from shuangsheng.usecases.show import read_folder
    from tests.test_desk import Hall

    desk = Hall(folder).get()
    seats = {t[side]["shown"] for t in desk["tables"] for side in ("A", "B")}
    board = read_folder(folder).board
    assert board.current is not None and board.placings is not None
    views = [*board.teams, *(v for t in board.current.tables for v in (t.a, t.b)),
             *(v for v in (board.placings.first, board.placings.second, *board.placings.third) if v)]
    tv = {v.number for v in views} | {re.sub(r"\D", "", v.name) for v in views}
    console = set(correct_facts(folder, None)["shown"].values())
    return seats, tv, console


# (pairs, a reserve numbered 100): small fields in the suite, the 99 pairs of the issue in `pytest -m big`
FIELDS = [pytest.param((8, True), id="8+reserve100"), pytest.param((8, False), id="8"),
          pytest.param((99, True), id="99+reserve100", marks=pytest.mark.big),
          pytest.param((99, False), id="99", marks=pytest.mark.big)]


@pytest.fixture(scope="module", params=FIELDS)
def day(request, tmp_path_factory) -> tuple[Path, int, int]:
    """The event run to the end: (folder, rounds, the width every 组号 must have). The last pair is 弃权 at
    check-in; the reserve pair 100, when there is one, never comes."""
    n, reserve = request.param
    folder = tmp_path_factory.mktemp("day") / "event"
    rounds = run_event(folder, [*pairs(n), *([RESERVE] if reserve else [])], absent=f"{n:02d}")
    return folder, rounds, 3 if reserve else 2


def test_every_paper_after_round_1_prints_ids_as_wide_as_the_whole_team_list(day):
    """With the reserve 100 (who never plays) three digits on every paper, picture and workbook after round 1,
    as before it; without it two. The papers of round 1 were given every team, those after it only the teams
    who play: before the width was decided once, they printed 第07组 here."""
    folder, rounds, width = day
    for path in papers_after_round_1(folder, rounds):
        assert widths(text_of(path.read_bytes())) == {width}, path.name
    for text in picture_texts(folder):
        assert widths(text) == {width}
    for n in range(1, rounds + 1):
        ids = workbook_ids(round_path(folder, n))
        assert ids and {len(i) for i in ids} == {width}, n


def test_the_hall_shows_ids_as_the_papers_print_them(day):
    folder, _, width = day
    seats, tv, console = hall_shown(folder)
    assert seats and tv and console
    assert {len(s) for s in seats} == {len(s) for s in tv} == {len(s) for s in console} == {width}


def test_the_terminal_names_pairs_as_the_papers_print_them(day):
    folder, _, width = day
    out = cli("awards", folder).output
    assert "一等奖：第" in out and widths(out) == {width}


def test_a_semi_final_of_three_names_its_pairs_three_digits_wide_in_a_field_over_99(tmp_path):
    """Six pairs and a reserve numbered 100, a bye in every round with an odd field: round 2 is a semi-final of
    three, and the knockout's notes on the prizes (the pair with the bye goes to the final, one 三等奖: `draw`'s,
    and the placings' that `awards` and the TV say) name every pair as the papers print them."""
    folder = new_event(tmp_path / "event", [*pairs(6), RESERVE], each_round=True)
    cli("draw", folder, "--seed", 5)
    fill(folder, 1)
    cli("score", folder)
    drawn = cli("draw", folder, "--seed", 6).output
    note = next(line for line in drawn.splitlines() if line.startswith("半决赛（第2轮）只有3组"))
    assert widths(note) == {3} and "之间的负者获三等奖" in note, note
    fill(folder, 2)
    cli("score", folder)
    said = cli("awards", folder).output
    note = next(line.strip() for line in said.splitlines() if line.strip().startswith("半决赛（第2轮）只有3组"))
    assert widths(note) == {3} and re.search(r"只有一场半决赛，第\d{3}组获三等奖", note), note


def test_the_event_width_counts_every_listed_pair_and_every_id_the_draws_name():
    """`event_digits`: teams.xlsx's 组号 (a reserve too), the round workbooks' and event.db's ids (a pair whose row
    was deleted after the draw, a pair 弃权 at check-in) — any one of them at 100 makes every 组号 three digits."""
    from shuangsheng.knockout.checkin import Field
    from shuangsheng.knockout.knockout import Pairing, Round
    from shuangsheng.storage.ledger.records import DrawRecord
    from shuangsheng.usecases.folder import event_digits

    drawn = Round(1, ("01", "02"), (Pairing(1, "01", "02"),), (), 1)
    assert event_digits(["01", "02", "03"], [drawn]) == 2
    assert event_digits(["01", "02", "100"], [drawn]) == 3  # a reserve who never plays
    assert event_digits(["01", "02"], [Round(1, ("01", "100"), (Pairing(1, "01", "100"),), (), 1)]) == 3
    record = DrawRecord(1, drawn, {"01": ("甲", "乙"), "02": ("丙", "丁")}, True, "", field=Field(drawn.pool, ("100",)))
    assert event_digits(["01", "02"], [drawn], [record]) == 3  # 弃权 at check-in, its row deleted since


def test_a_desk_press_meant_for_another_pairing_names_the_pairs_as_the_pages_show_them():
    """The conflict after `draw --redo` says 第007组 in a field over 99, as the tile it was pressed on."""
    from shuangsheng.table.log import Seat, TableSetup

    setup = TableSetup(2, 1, Seat("07", (), "007"), Seat("100", (), "100"), digits=3)
    assert (setup.name("07"), setup.name("100"), setup.name("A3")) == ("第007组", "第100组", "第A3组")
    assert TableSetup(2, 1, Seat("07", ()), Seat("08", ())).name("7") == "第07组"


def test_the_desk_keeps_the_event_width_when_a_pair_100_s_row_is_deleted_after_it_played(tmp_path):
    """Pair 100 plays round 1 and loses; its row is then deleted from teams.xlsx: the papers keep 第007组 (the
    draw in event.db names 100), and so must the desk and the phones (they read every draw, not only the one in
    play)."""
    from shuangsheng.storage.names import TEAMS_FILE
    from shuangsheng.usecases.folder import open_folder
    from tests.test_desk import Hall

    teams = [*pairs(7), Team("100", ("甲100", "乙100"))]
    for seed in range(1, 40):  # a draw in which pair 100 loses round 1
        folder = tmp_path / f"event-{seed}"
        new_event(folder, teams)
        cli("draw", folder, "--seed", seed)
        fill(folder, 1)
        advancing = next(line for line in cli("score", folder).output.splitlines() if line.startswith("晋级"))
        if "100" not in advancing:
            break
    book = openpyxl.load_workbook(folder / TEAMS_FILE)
    sheet = book.worksheets[0]
    row = next(r[0].row for r in sheet.iter_rows() if any(str(c.value) == "100" for c in r))
    sheet.delete_rows(row)
    book.save(folder / TEAMS_FILE)
    cli("draw", folder, "--seed", 9)
    assert open_folder(folder).digits == 3
    shown = {t[side]["shown"] for t in Hall(folder).get()["tables"] for side in ("A", "B")}
    assert shown and {len(s) for s in shown} == {3}, shown


def test_replace_says_the_pair_as_the_papers_print_it(tmp_path):
    folder = tmp_path / "event"
    new_event(folder, [*pairs(8), RESERVE])
    cli("draw", folder, "--seed", 1)
    out = cli("replace", folder, "--team", "07", "--out", "张7甲", "--in", "王五", "--reason", "生病").output
    assert "已记下换人：第007组：张7甲由王五替换" in out, out


def test_a_pool_that_cannot_be_drawn_names_its_pairs_as_wide_as_the_event(tmp_path):
    """`check_pool` and the 3rd-place match's check named pairs two digits wide whatever the field: 第01组 in a
    field reaching 100. Each way a round is drawn passes the event's width; `draw --check` in a folder whose
    event.db is lost (the round drawn again from round-1.xlsx's 抽签名单) says it as the papers print it."""
    from shuangsheng.knockout.advance import next_round
    from shuangsheng.knockout.draw import draw_from_lots, draw_round
    from shuangsheng.knockout.knockout import DrawError

    def refusal(draw) -> str:
        with pytest.raises(DrawError) as caught:
            draw()
        return "\n".join(caught.value.problems)

    twice = ("007", "007", "100", "101")
    assert "第007组在抽签名单中出现了2次" in refusal(lambda: draw_round(1, twice, seed=1, digits=3))
    assert "第007组在抽签名单中出现了2次" in refusal(lambda: draw_from_lots(1, {}, twice, digits=3))
    assert "第007组在抽签名单中出现了2次" in refusal(lambda: next_round(twice, [], {}, digits=3))
    third = refusal(lambda: draw_round(3, ("001", "002"), seed=1, third_place_match=("001", "100"), digits=3))
    assert "第001组在决赛中，不能同时参加三、四名决赛" in third
    assert "第07组" in refusal(lambda: draw_round(1, ("07", "07", "08", "09"), seed=1))  # a field under 100

    folder = new_event(tmp_path / "event", [*pairs(6), RESERVE])
    cli("draw", folder, "--seed", 5)
    path = round_path(folder, 1)
    book = openpyxl.load_workbook(path)
    rows = list(book[MATCHES_SHEET].iter_rows())
    start = next(i for i, row in enumerate(rows) if row[0].value == "序号")  # the 抽签名单 under the matches
    rows[start + 2][1].value = rows[start + 1][1].value  # pair 001 listed twice
    book.save(path)
    (folder / "event.db").unlink()
    said = cli("draw", folder, "--check", 1, code=1).output
    assert "第001组在抽签名单中出现了2次" in said and widths(said) == {3}, said
