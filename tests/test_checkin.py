"""报到 (check-in) before round 1 (shuangsheng/knockout/checkin.py, docs/checkin.md, issue 33 item 2): the states a
team goes through and each refusal with its status, the field round 1 is drawn from (absent pairs, reserves taking
their places in row order), `[event] start_time` and `[format] late_minutes` as event.toml takes them, and
`shuangsheng checkin` on the command line."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from shuangsheng.knockout.checkin import (
    Checkin,
    CheckinRow,
    LateRule,
    Made,
    Press,
    Situation,
    Status,
    Verdict,
    checkin_json,
    clock_time,
    decide_checkin,
    parse_press,
    round_one_field,
)
from shuangsheng.knockout.teams import Team
from shuangsheng.storage.event import EventError, default_text, parse
from shuangsheng.storage.ledger.connection import Ledger
from tests.events import new_event
from tests.helpers import cli

TZ = dt.timezone(dt.timedelta(hours=8))
BEFORE = dt.datetime(2026, 3, 15, 8, 35, tzinfo=TZ)  # start 8:30, late from 8:40
AFTER = dt.datetime(2026, 3, 15, 8, 40, tzinfo=TZ)
TEAMS = (*(Team(f"{i:02d}", (f"甲{i}", f"乙{i}")) for i in range(1, 7)),
         *(Team(f"{i:02d}", (f"甲{i}", f"乙{i}"), reserve=True) for i in (7, 8, 9)))
_ids = iter(range(10**6))


def where(now: dt.datetime = AFTER, *, drawn: bool = False) -> Situation:
    return Situation(TEAMS, LateRule(dt.time(8, 30), 10), now, drawn)


def made(kind: str, body: dict, rows: list[CheckinRow]) -> Made:
    """A press as the desk page sends it, on the check-in as it stands (the team's mark, or the whole one's)."""
    checkin = Checkin(tuple(rows))
    team = body.get("team")
    mark = checkin.team(team).mark if kind in ("team", "forfeit") and isinstance(team, str) else checkin.mark
    parsed = parse_press(kind, {"id": f"p{next(_ids)}", "mark": mark, **body})
    assert isinstance(parsed, Made), parsed
    return parsed


def press(rows: list[CheckinRow], kind: str, body: dict, now: dt.datetime = AFTER, **kw) -> Verdict:
    """Decide a press; the row it makes is added to `rows`."""
    decision = decide_checkin(rows, made(kind, body, rows), where(now, **kw), at=now.isoformat(), address="127.0.0.1")
    if decision.row is not None:
        rows.append(decision.row)
    return decision.verdict


def arrive(rows: list[CheckinRow], *teams: str) -> None:
    for team in teams:
        assert press(rows, "team", {"team": team, "arrived": True}) is Verdict.CHANGED


# --- a team's states ---


def test_a_team_goes_waiting_arrived_waiting_again_with_a_reason_and_each_mark_is_a_row():
    rows: list[CheckinRow] = []
    assert Checkin(()).team("01").status is Status.WAITING and not Checkin(()).started
    arrive(rows, "1")  # typed without its 0: the 组号 as teams.xlsx has it
    assert Checkin(tuple(rows)).team("01").status is Status.ARRIVED and Checkin(tuple(rows)).open
    assert press(rows, "team", {"team": "01", "arrived": True}) is Verdict.SAME  # already so: no row
    assert press(rows, "team", {"team": "01", "arrived": False}) is Verdict.NO_REASON  # 400
    assert press(rows, "team", {"team": "01", "arrived": False, "reason": "点错了"}) is Verdict.CHANGED
    checkin = Checkin(tuple(rows))
    assert checkin.team("01").status is Status.WAITING and checkin.team("01").mark == 2
    assert [(r.press, r.team, r.reason) for r in rows] == [(Press.ARRIVE, "01", ""), (Press.UNDO, "01", "点错了")]


def test_forfeit_only_from_late_minutes_after_the_start_and_never_for_an_arrived_or_a_reserve_pair():
    rows: list[CheckinRow] = []
    arrive(rows, "01")
    assert press(rows, "forfeit", {"team": "02"}, BEFORE) is Verdict.CONFLICT  # 8:35: wait until 8:40
    decision = decide_checkin(rows, made("forfeit", {"team": "02"}, rows), where(BEFORE), at="", address="")
    assert "8:40（开始时间 8:30 后 10 分钟）以后才能判弃权" in decision.errors[0].message
    assert press(rows, "forfeit", {"team": "01"}) is Verdict.CONFLICT  # arrived
    assert press(rows, "forfeit", {"team": "07"}) is Verdict.CONFLICT  # a reserve that did not come just does not play
    assert press(rows, "forfeit", {"team": "02"}) is Verdict.CHANGED
    assert press(rows, "forfeit", {"team": "02"}) is Verdict.SAME
    assert Checkin(tuple(rows)).team("02").status is Status.FORFEIT
    # it came after all: the organiser lets it play, with a reason
    assert press(rows, "team", {"team": "02", "arrived": True}) is Verdict.NO_REASON
    assert press(rows, "team", {"team": "02", "arrived": True, "reason": "负责人同意"}) is Verdict.CHANGED
    assert Checkin(tuple(rows)).team("02").status is Status.ARRIVED


def test_closing_needs_an_arrival_and_every_pair_arrived_or_forfeit_then_the_marks_stop_until_opened_again():
    rows: list[CheckinRow] = []
    assert press(rows, "close", {}) is Verdict.CONFLICT  # nobody arrived: nothing to close
    arrive(rows, "01", "02", "03", "04", "08")
    decision = decide_checkin(rows, made("close", {}, rows), where(BEFORE), at="", address="")
    assert decision.verdict is Verdict.CONFLICT and "还有2组没有报到：第05组、第06组" in decision.errors[0].message
    assert "8:40（开始时间 8:30 后 10 分钟）以后" in decision.errors[0].message
    assert press(rows, "forfeit", {"team": "05"}) is Verdict.CHANGED
    assert press(rows, "forfeit", {"team": "06"}) is Verdict.CHANGED
    assert press(rows, "close", {}) is Verdict.CHANGED  # reserves 07 and 09 not here: they need nothing
    assert press(rows, "close", {}) is Verdict.SAME
    assert Checkin(tuple(rows)).closed and not Checkin(tuple(rows)).open
    assert press(rows, "team", {"team": "07", "arrived": True}) is Verdict.CONFLICT
    assert press(rows, "open", {}) is Verdict.NO_REASON
    assert press(rows, "open", {"reason": "候补07组刚到"}) is Verdict.CHANGED
    arrive(rows, "07")
    assert press(rows, "close", {}) is Verdict.CHANGED


def test_after_round_1_is_drawn_every_press_is_a_conflict():
    rows: list[CheckinRow] = []
    assert press(rows, "team", {"team": "01", "arrived": True}, drawn=True) is Verdict.CONFLICT
    assert press(rows, "close", {}, drawn=True) is Verdict.CONFLICT and rows == []


def test_a_press_sent_again_is_taken_once_its_id_for_another_press_and_an_old_mark_are_conflicts():
    rows: list[CheckinRow] = []
    first = made("team", {"team": "01", "arrived": True}, rows)
    decision = decide_checkin(rows, first, where(), at="t", address="a")
    rows.append(decision.row)
    assert decide_checkin(rows, first, where(), at="t", address="a").verdict is Verdict.SAME  # its answer was lost
    other = Made(Press.ARRIVE, "02", "", first.id, 0)
    assert decide_checkin(rows, other, where(), at="t", address="a").verdict is Verdict.CONFLICT
    stale = made("team", {"team": "01", "arrived": False, "reason": "点错了"}, [])  # made on the team before
    assert decide_checkin(rows, stale, where(), at="t", address="a").verdict is Verdict.CONFLICT
    arrive(rows, "02")  # another team's mark moves on: a press on team 01 is still on 01's mark
    assert press(rows, "team", {"team": "01", "arrived": False, "reason": "点错了"}) is Verdict.CHANGED
    old_close = Made(Press.CLOSE, "", "", "c1", 1)  # the check-in's mark has moved since
    assert decide_checkin(rows, old_close, where(), at="t", address="a").verdict is Verdict.CONFLICT


def test_an_unknown_team_is_404_and_a_press_that_is_not_one_is_422():
    rows: list[CheckinRow] = []
    assert press(rows, "team", {"team": "99", "arrived": True}) is Verdict.UNKNOWN
    assert Verdict.UNKNOWN.http_status == 404 and Verdict.NO_REASON.http_status == 400
    for kind, body in [("team", {"team": "01", "arrived": "yes", "id": "x", "mark": 0}),
                       ("team", {"arrived": True, "id": "x", "mark": 0}),
                       ("team", {"team": "01", "arrived": True, "mark": 0}),
                       ("close", {"id": "x"}),
                       ("forfeit", {"team": 3, "id": "x", "mark": 0})]:
        refused = parse_press(kind, body)
        assert not isinstance(refused, Made) and refused.verdict is Verdict.INVALID and refused.errors, body


# --- the field of round 1 ---


def test_without_any_arrival_round_1_is_every_pair_that_is_not_a_reserve():
    field = round_one_field(TEAMS, Checkin(()))
    assert field.pool == ("01", "02", "03", "04", "05", "06") and not field.changed


def test_reserves_who_came_take_the_free_places_in_row_order():
    rows: list[CheckinRow] = []
    arrive(rows, "01", "02", "03", "04", "09", "08")  # 09 arrived before 08, but 08 is listed first
    for team in ("05", "06"):
        press(rows, "forfeit", {"team": team})
    press(rows, "close", {})
    field = round_one_field(TEAMS, Checkin(tuple(rows)))
    assert field.absent == ("05", "06") and field.reserves_in == ("08", "09")
    assert field.pool == ("01", "02", "03", "04", "08", "09") and field.reserves_left == ()
    rows.append(CheckinRow(Press.OPEN, "", "", reason="x"))
    arrive(rows, "07")
    field = round_one_field(TEAMS, Checkin(tuple(rows)))
    assert field.reserves_in == ("07", "08") and field.reserves_left == ("09",)


def test_the_desk_document_lists_the_waiting_pairs_and_the_field_as_it_stands():
    rows: list[CheckinRow] = []
    arrive(rows, "01", "02", "07")
    doc = checkin_json(Checkin(tuple(rows)), where(BEFORE))
    assert doc["phase"] == "open" and doc["mark"] == 3 and doc["late_at"] == "8:40" and doc["late"] is False
    assert doc["waiting"] == ["03", "04", "05", "06"]
    assert [t["status"] for t in doc["teams"]][:3] == ["arrived", "arrived", "waiting"]
    assert doc["field"]["reserves_in"] == ["07"] and doc["log"][0]["action"] == "arrive"


def test_the_desks_refusals_name_a_team_as_the_papers_print_it():
    """Among 100 pairs a refusal says 第002组 (as every paper), not 第02组."""
    wide = (*TEAMS, Team("100", ("甲100", "乙100")))
    rows: list[CheckinRow] = []
    arrive(rows, "02")
    decision = decide_checkin(rows, made("forfeit", {"team": "02"}, rows), Situation(wide, LateRule(dt.time(8, 30), 10), AFTER),
                              at="", address="")
    assert decision.issue is not None and decision.issue.message.startswith("第002组已经报到")
    decision = decide_checkin(rows, made("close", {}, rows), Situation(wide, LateRule(dt.time(8, 30), 10), AFTER),
                              at="", address="")
    assert decision.issue is not None and "第001组、第003组" in decision.issue.message


def test_the_desk_document_shows_ids_three_digits_wide_in_a_field_over_99():
    wide = (*TEAMS, Team("100", ("甲100", "乙100")))
    doc = checkin_json(Checkin(()), Situation(wide, LateRule(dt.time(8, 30), 10), BEFORE, False))
    assert [t["shown"] for t in doc["teams"]][:2] == ["001", "002"] and doc["teams"][-1]["shown"] == "100"
    assert doc["teams"][0]["team"] == "01" and doc["waiting"][0] == "01"  # the canonical id everywhere else


# --- event.toml ---


@pytest.mark.parametrize(("typed", "expected"), [("8:30", dt.time(8, 30)), ("08:05", dt.time(8, 5)),
                                                 ("１４：００", dt.time(14, 0)), ("上午八点半", None), ("24:00", None),
                                                 ("8:3", None), ("8:60", None)])
def test_a_start_time_is_h_mm(typed, expected):
    assert clock_time(typed) == expected


def test_event_toml_checks_start_time_and_takes_late_minutes():
    event = parse(default_text(), source="event.toml")
    assert event.late_minutes == 10 and event.late_rule == LateRule(dt.time(8, 30), 10)
    later = parse(default_text().replace("late_minutes = 10", "late_minutes = 15")
                  .replace('start_time = "8:30"', 'start_time = "１３：３０"'), source="event.toml")
    assert later.start_time == "13:30" and later.late_rule.moment(AFTER).time() == dt.time(13, 45)
    with pytest.raises(EventError) as bad:
        parse(default_text().replace('start_time = "8:30"', 'start_time = "上午八点半"')
              .replace("late_minutes = 10", "late_minutes = -1"), source="event.toml")
    said = " ".join(bad.value.messages)
    assert '[event] start_time：应为时:分，如 "8:30"' in said and "[format] late_minutes：应为 0–100 的整数" in said


# --- shuangsheng checkin, and the draw of round 1 after it ---


def checkin_event(folder: Path) -> Path:
    """Six pairs and three reserves; the start at 0:00 and no minutes' grace, so any time of day is late."""
    new_event(folder, list(TEAMS))
    toml = folder / "event.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('start_time = "8:30"', 'start_time = "0:00"')
                    .replace("late_minutes = 10", "late_minutes = 0"), encoding="utf-8")
    return folder


def test_the_command_line_marks_arrivals_forfeits_and_closes(tmp_path):
    folder = checkin_event(tmp_path / "e")
    shown = cli("checkin", folder).output
    assert "报到：还没有开始" in shown and "--arrived 组号" in shown
    out = cli("checkin", folder, "--arrived", "1,2", "--arrived", "03、04", "--arrived", "8").output
    assert "已记下：第01组 报到" in out and "已记下：第08组 报到" in out
    assert "还没有报到（2组）：第05组（甲5、乙5）、第06组（甲6、乙6）" in out
    refused = cli("checkin", folder, "--close", code=1).output
    assert "没有记下：结束报到——还有2组没有报到：第05组、第06组" in refused
    assert "撤销报到须写明原因" in cli("checkin", folder, "--undo", "04", code=1).output
    assert "报名表里没有第42组" in cli("checkin", folder, "--arrived", "42", code=1).output
    out = cli("checkin", folder, "--absent", "05,06", "--close").output
    assert "已记下：结束报到" in out and "候补补入：第08组（甲8、乙8）" in out
    assert "弃权（未报到）：第05组（甲5、乙5）、第06组（甲6、乙6）" in out
    with Ledger.open(folder) as book:
        rows = book.checkin_rows()
    assert [(r.press.value, r.team) for r in rows][-3:] == [("forfeit", "05"), ("forfeit", "06"), ("close", "")]
    assert all(r.address == "cli" and r.at and r.id for r in rows)


def test_round_1_waits_while_check_in_is_open(tmp_path):
    folder = checkin_event(tmp_path / "e")
    cli("checkin", folder, "--arrived", "01")
    out = cli("draw", folder, "--seed", 3, code=1).output
    assert "报到还没有结束，第1轮要等报到结束后再抽签" in out and "--close" in out
    assert not (folder / "round-1.xlsx").exists()


def test_an_event_that_never_marks_arrivals_draws_as_before(tmp_path):
    folder = checkin_event(tmp_path / "e")
    out = cli("draw", folder, "--seed", 3).output
    assert "报到后抽签" not in out and "候补组（不参加抽签）：第07组" in out
    with Ledger.open(folder) as book:
        record = book.draws()[1]
    assert record.field is None and record.round.pool == ("01", "02", "03", "04", "05", "06")


def test_round_1_after_check_in_names_the_absent_and_the_reserves_in_on_its_papers_and_draw_check_agrees(tmp_path):
    from tests.events import fill
    from tests.pdfcheck import text_of

    folder = checkin_event(tmp_path / "e")
    cli("checkin", folder, "--arrived", "01,02,03,04,09,08", "--absent", "05,06", "--close")
    out = cli("draw", folder, "--seed", 21).output
    assert "候补补入：第08组（甲8、乙8）、第09组（甲9、乙9）" in out and "候补组（不参加抽签）：第07组" in out
    with Ledger.open(folder) as book:
        drawn = book.draws()[1].round
    assert drawn.pool == ("01", "02", "03", "04", "08", "09") and len(drawn.pairings) == 2  # six: two byes
    sheet = text_of((folder / "第1轮对阵表.pdf").read_bytes())
    assert "报到时未到、按弃权论：第05组（甲5、乙5）、第06组（甲6、乙6）。" in sheet
    assert "候补补入（按报名表顺序）：第08组（甲8、乙8）、第09组（甲9、乙9）。" in sheet
    assert "对阵与记录一致" in cli("draw", folder, "--check", 1).output
    fill(folder, 1)
    cli("score", folder)
    results = text_of((folder / "第1轮成绩.pdf").read_bytes())
    assert "报到时未到、按弃权论：第05组、第06组；候补补入：第08组（甲8、乙8）、第09组（甲9、乙9）。" in results
    assert "是第1轮抽签之后加的" not in cli("draw", folder).output  # the absent pairs are no late additions


def test_a_mark_added_while_round_1_is_drawn_is_not_lost_the_draw_reads_again(tmp_path, monkeypatch):
    """The desk reopens check-in after `draw` read it and before it recorded round 1: nothing is recorded from the
    old reading; read again, check-in is open, and round 1 waits."""
    from shuangsheng.usecases import draw as drawing

    folder = checkin_event(tmp_path / "e")
    cli("checkin", folder, "--arrived", "01,02,03,04,05,06", "--close")
    read = drawing.field_for_draw

    def meanwhile(where, book, teams):
        found = read(where, book, teams)
        if book.checkin_rows()[-1].press is not Press.OPEN:
            cli("checkin", folder, "--reopen", "--reason", "候补07组刚到")
        return found

    monkeypatch.setattr(drawing, "field_for_draw", meanwhile)
    out = cli("draw", folder, "--seed", 3, code=1).output
    assert "报到还没有结束" in out and not (folder / "round-1.xlsx").exists()
    with Ledger.open(folder) as book:
        assert book.draws() == {}


def test_reopening_needs_a_reason_and_lets_a_late_reserve_in(tmp_path):
    folder = checkin_event(tmp_path / "e")
    cli("checkin", folder, "--arrived", "01,02,03,04,05", "--absent", "06", "--close")
    assert "重新开始报到须写明原因" in cli("checkin", folder, "--reopen", code=1).output
    assert "报到已经结束，第08组的报到没有改" in cli("checkin", folder, "--arrived", "08", code=1).output
    out = cli("checkin", folder, "--reopen", "--reason", "候补07组刚到", "--arrived", "07", "--close").output
    assert out.index("已记下：重新开始报到") < out.index("已记下：第07组 报到") < out.index("已记下：结束报到")
    assert "候补补入：第07组（甲7、乙7）" in out
