"""结束 only when time is up (docs/table-api.md 比赛计时, rule 十六; shuangsheng/table/entry.py `end`, desk_actions.py
`allow_early_end`): while the round clock was started, `POST /api/t/<code>/end` is taken once the table's time is
over, or after the desk's `POST /api/desk/t/<table>/early_end`; without a clock (the referee keeps time) as ever. The
pure decisions first, then both APIs in-process with an injected clock (tests/test_desk.py's `Hall`), every status
code of each; last, the TVs' sound as the desk hears it (shuangsheng/hall/screens.py)."""

from __future__ import annotations

import http.client
import json

import pytest

from shuangsheng.hall import hall
from shuangsheng.hall.screens import HEARD_SECONDS, MAX_SCREENS, Screens
from shuangsheng.table.clock import Clock
from shuangsheng.table.desk_actions import allow_early_end, desk_action
from shuangsheng.table.entry import Result, may_end
from shuangsheng.table.log import Action, Entry, fold
from tests.test_desk import PIN, Hall, Wall, desk_rows, rows
from tests.test_entry import EXAMPLE_HANDS, Phone


def clock(elapsed_min: float, *, running: bool = True) -> Clock:
    """The round clock of a 60-minute match, `elapsed_min` minutes run."""
    return Clock(60, "2026-12-01T14:00:00+08:00", int(elapsed_min * 60), running)


def ended(phone: Phone, at: Clock | None, mark: int | None = None):
    from shuangsheng.table.entry import end

    return phone.apply(end(phone.setup, phone.entries, phone.made({}, None, mark), stamp=phone.stamp(), clock=at))


def early(phone: Phone, body: object):
    return phone.apply(allow_early_end(phone.setup, phone.entries, body, stamp=phone.stamp()))


# --- the decisions, pure ---


def test_rule_16_without_a_clock_the_referee_keeps_time_and_the_end_is_taken():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    assert ended(phone, None).result is Result.CHANGED


@pytest.mark.parametrize(("elapsed", "said"), [(0, "还剩 60 分钟"), (17.5, "还剩 43 分钟"), (59, "还剩 1 分钟"),
                                               (59.5, "还剩不到 1 分钟")])
def test_an_end_before_time_is_up_is_409_clock_with_the_minutes_left(elapsed, said):
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    decision = ended(phone, clock(elapsed))
    assert decision.result is Result.CONFLICT and decision.http_status == 409 and decision.entry is None
    (error,) = decision.errors
    assert error.field == "clock" and error.hand is None
    assert error.message == (f"本桌比赛时间{said}，还不能结束；请接着打，时间到了再按“结束”。确需提前结束，请找裁判台同意")
    assert not phone.state.log.ended


def test_a_paused_clock_with_time_left_refuses_the_end_too():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    decision = ended(phone, clock(30, running=False))
    assert decision.result is Result.CONFLICT and decision.errors[0].message.startswith("计时暂停中，本桌比赛时间还剩 30 分钟")


def test_the_end_is_taken_once_the_table_s_own_time_with_its_extra_minutes_is_up():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    phone.minutes({"add": 5, "reason": "换牌耽误"})
    refused = ended(phone, clock(60))
    assert refused.result is Result.CONFLICT and "还剩 5 分钟" in refused.errors[0].message
    assert ended(phone, clock(65)).result is Result.CHANGED
    assert phone.state.log.ended


def test_the_desk_s_leave_lets_a_table_end_early_and_is_kept_with_its_reason():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    assert not may_end(phone.state, clock(10))
    allowed = early(phone, {"reason": "乙方一名队员身体不适，双方同意提前结束"})
    assert allowed.result is Result.CHANGED and allowed.http_status == 200
    assert allowed.entry.action is Action.EARLY_END and allowed.entry.by_desk
    assert phone.state.as_json()["early_end"] == {"reason": "乙方一名队员身体不适，双方同意提前结束", "time": "14:05"}
    assert may_end(phone.state, clock(10))
    assert ended(phone, clock(10)).result is Result.CHANGED


def test_the_leave_to_end_early_needs_a_reason_and_is_given_once():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    for body in ({}, {"reason": "  "}, {"reason": "x" * 501}, ["reason"]):
        refused = early(phone, body)
        assert refused.result is Result.NO_REASON and refused.http_status == 400
        assert refused.errors[0].field == "reason" and "原因" in refused.errors[0].message
    assert early(phone, {"reason": "弃权"}).result is Result.CHANGED
    assert early(phone, {"reason": "再按一次"}).result is Result.SAME  # allowed already: nothing added
    assert [e.action for e in phone.entries].count(Action.EARLY_END) == 1


def test_the_leave_for_a_table_ended_or_over_changes_nothing():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    ended(phone, None)
    assert early(phone, {"reason": "弃权"}).result is Result.SAME


def test_the_leave_changes_no_record_a_phone_made_its_press_on():
    """Not a change of the record: the fold is the same, and a hand or an end made on the
    mark before it is taken (as after the desk's extra minutes)."""
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    seen = phone.state.mark
    before = phone.state.log
    early(phone, {"reason": "弃权"})
    assert phone.state.log == before and fold(phone.entries) == before
    assert ended(phone, clock(5), mark=seen).result is Result.CHANGED
    other = Phone().hands(EXAMPLE_HANDS[:2])
    early(other, {"reason": "弃权"})
    assert other.hand(3, EXAMPLE_HANDS[2], mark=seen).result is Result.CREATED


def test_a_desk_press_for_the_leave_carries_its_id_and_mark_and_is_taken_once():
    phone = Phone().hands(EXAMPLE_HANDS[:2])
    body = {"reason": "弃权", "id": "e-1", "mark": 2}
    first = phone.apply(desk_action(Action.EARLY_END, phone.setup, phone.entries, body, stamp=phone.stamp()))
    assert first.result is Result.CHANGED and first.entry.id == "e-1"
    again = phone.apply(desk_action(Action.EARLY_END, phone.setup, phone.entries, body, stamp=phone.stamp()))
    assert again.result is Result.SAME and again.entry is None
    other = desk_action(Action.MINUTES, phone.setup, phone.entries, {"add": 5, "reason": "弃权", "id": "e-1", "mark": 3},
                        stamp=phone.stamp())
    assert other.result is Result.CONFLICT and other.errors[0].field == "id"


@pytest.mark.parametrize("where", range(4))
def test_a_leave_anywhere_in_a_log_folds_to_the_same_hands_and_flags(where):
    phone = Phone().hands(EXAMPLE_HANDS)
    ended(phone, None)
    phone.hand(7, {"dealer": "B", "points": 20})
    phone.confirm({"side": "A"})
    leave = Entry("x", Action.EARLY_END, "2026-12-01T14:05:00+08:00", "127.0.0.1", reason="弃权")
    entries = [*phone.entries[: where * 3], leave, *phone.entries[where * 3:]]
    assert fold(entries) == fold(phone.entries)


# --- POST /api/t/<code>/end through the table API ---


@pytest.fixture
def room(tmp_path) -> Hall:
    from tests.events import played_rounds

    folder = tmp_path / "event"
    played_rounds(folder, teams=8, rounds=0)  # round 1 drawn: 8 teams, 4 tables
    return Hall(folder)


def two_hands(room: Hall, table: int = 1) -> None:
    room.hand(table, 1)
    room.hand(table, 2)


def test_end_without_a_clock_is_200_as_ever(room):
    two_hands(room)
    status, doc = room.phone(1, "end")
    assert status == 200 and doc["ended"] is True and doc["clock"] is None


def test_end_while_the_clock_has_time_left_is_409_clock_and_stores_nothing(room):
    two_hands(room)
    room.call("POST", "/api/desk/clock", {"action": "start"})
    room.wall.seconds = 17 * 60 + 30
    before = rows(room.folder, "entry")
    status, doc = room.phone(1, "end")
    assert status == 409 and doc["errors"] == [{
        "message": "本桌比赛时间还剩 43 分钟，还不能结束；请接着打，时间到了再按“结束”。确需提前结束，请找裁判台同意",
        "file": None, "sheet": None, "cell": None, "hand": None, "field": "clock"}]
    assert doc["state"]["ended"] is False and rows(room.folder, "entry") == before
    room.call("POST", "/api/desk/clock", {"action": "stop"})  # paused: still refused
    assert room.phone(1, "end")[0] == 409


def test_end_once_the_table_s_time_with_its_extra_minutes_is_up_is_200(room):
    two_hands(room)
    room.call("POST", "/api/desk/clock", {"action": "start"})
    room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌耽误"})
    room.wall.seconds = 3600
    status, doc = room.phone(1, "end")
    assert status == 409 and "还剩 5 分钟" in doc["errors"][0]["message"]
    two_hands(room, 2)
    assert room.phone(2, "end")[0] == 200  # table 2 has no extra minutes: its time is up
    room.wall.seconds = 3900
    status, doc = room.phone(1, "end")
    assert status == 200 and doc["ended"] is True and doc["clock"]["time_up"] is True


def test_end_after_the_desk_allowed_an_early_end_is_200(room):
    two_hands(room)
    room.call("POST", "/api/desk/clock", {"action": "start"})
    room.wall.seconds = 600
    assert room.phone(1, "end")[0] == 409
    status, doc = room.call("POST", "/api/desk/t/1/early_end", {"reason": "甲方一名队员身体不适"})
    assert status == 200 and doc["tables"][0]["early_end"] == {"reason": "甲方一名队员身体不适", "time": "14:10"}
    status, table = room.call("GET", f"/api/t/{room.codes[1]}")
    assert table["early_end"] == {"reason": "甲方一名队员身体不适", "time": "14:10"} and table["clock"]["left_s"] == 3000
    status, doc = room.phone(1, "end")
    assert status == 200 and doc["ended"] is True
    two_hands(room, 2)
    assert room.phone(2, "end")[0] == 409  # the leave is table 1's alone


@pytest.mark.parametrize("missing", ["id", "mark"])
def test_end_without_its_id_or_mark_is_422(room, missing):
    two_hands(room)
    body = {k: v for k, v in {"id": "e-1", "mark": 2}.items() if k != missing}
    status, doc = room.call("POST", f"/api/t/{room.codes[1]}/end", body, as_is=True)
    assert status == 422 and doc["errors"][0]["field"] == missing and "请刷新页面后再操作" in doc["errors"][0]["message"]


def test_end_with_a_wrong_code_is_404(room):
    status, doc = room.call("POST", "/api/t/ZZZZ2222/end", {"id": "e-1", "mark": 0}, as_is=True)
    assert status == 404 and "录分码" in doc["errors"][0]["message"]


def test_end_on_a_stale_mark_is_409_mark(room):
    two_hands(room)
    status, doc = room.call("POST", f"/api/t/{room.codes[1]}/end", {"id": "e-1", "mark": 1}, as_is=True)
    assert status == 409 and doc["errors"][0]["field"] == "mark" and doc["state"]["ended"] is False


def test_end_sent_again_with_its_id_is_200_and_stored_once(room):
    two_hands(room)
    room.call("POST", "/api/desk/clock", {"action": "start"})
    room.wall.seconds = 3600
    press = {"id": "e-1", "mark": 2}
    first = room.call("POST", f"/api/t/{room.codes[1]}/end", press, as_is=True)
    again = room.call("POST", f"/api/t/{room.codes[1]}/end", press, as_is=True)
    assert first[0] == again[0] == 200 and again[1]["ended"] is True
    assert [e["action"] for e in desk_rows(room.folder, 1)].count("end") == 1


# --- POST /api/desk/t/<table>/early_end ---


def test_early_end_is_logged_in_event_db_and_on_the_desk(room):
    room.call("POST", "/api/desk/clock", {"action": "start"})
    status, doc = room.call("POST", "/api/desk/t/3/early_end", {"reason": "乙方弃权"})
    assert status == 200
    table = doc["tables"][2]
    assert table["log"] == [{"time": "2026-12-01T14:00:00+08:00", "action": "early_end", "reason": "乙方弃权",
                             "address": "127.0.0.1"}]
    assert table["last_entry"] is None and table["state"] == "not_started"  # the desk's press is not play
    (stored,) = desk_rows(room.folder, 3)
    assert (stored["action"], stored["reason"], stored["address"]) == ("early_end", "乙方弃权", "127.0.0.1")


@pytest.mark.parametrize("body", [{}, {"reason": ""}, {"reason": None}])
def test_early_end_without_a_reason_is_400(room, body):
    status, doc = room.call("POST", "/api/desk/t/1/early_end", body)
    assert status == 400 and doc["errors"][0]["field"] == "reason" and "提前结束须写明原因" in doc["errors"][0]["message"]
    assert rows(room.folder, "entry") == 0


@pytest.mark.parametrize("missing", ["id", "mark"])
def test_early_end_without_its_id_or_mark_is_422(room, missing):
    body = {k: v for k, v in {"reason": "弃权", "id": "x-1", "mark": 0}.items() if k != missing}
    status, doc = room.call("POST", "/api/desk/t/1/early_end", body, as_is=True)
    assert status == 422 and doc["errors"][0]["field"] == missing and "请刷新页面后再操作" in doc["errors"][0]["message"]
    assert rows(room.folder, "entry") == 0


@pytest.mark.parametrize("pin", [None, "111111"])
def test_early_end_without_the_desk_pin_is_401(room, pin):
    headers = {"x-desk-pin": pin} if pin else {"x-desk-pin": ""}
    status, doc = room.call("POST", "/api/desk/t/1/early_end", {"reason": "弃权"}, headers=headers)
    assert status == 401 and "裁判台密码" in doc["errors"][0]["message"]
    assert rows(room.folder, "entry") == 0


@pytest.mark.parametrize("table", ["9", "0", "x"])
def test_early_end_for_a_table_not_in_the_round_is_404(room, table):
    status, doc = room.call("POST", f"/api/desk/t/{table}/early_end", {"reason": "弃权"})
    assert status == 404 and doc["errors"][0]["message"].startswith("本轮没有第")


def test_early_end_on_a_stale_mark_is_409_and_stores_nothing(room):
    seen = room.table(1)["mark"]
    room.hand(1, 1)  # a phone entered a hand while the desk was typing the reason
    status, doc = room.call("POST", "/api/desk/t/1/early_end", {"reason": "弃权", "id": "x-1", "mark": seen}, as_is=True)
    assert status == 409 and doc["errors"][0]["field"] == "mark"
    assert room.table(1)["early_end"] is None


def test_early_end_meant_for_other_teams_is_409_teams(room):
    shown = room.table(1)
    status, doc = room.call("POST", "/api/desk/t/1/early_end",
                            {"reason": "弃权", "teams": [shown["B"]["team"], shown["A"]["team"]]})
    assert status == 409 and doc["errors"][0]["field"] == "teams"
    status, doc = room.call("POST", "/api/desk/t/1/early_end",
                            {"reason": "弃权", "teams": [shown["A"]["team"], shown["B"]["team"]]})
    assert status == 200 and doc["tables"][0]["early_end"]["reason"] == "弃权"


def test_early_end_sent_again_with_its_id_is_200_and_stored_once(room):
    press = {"reason": "弃权", "id": "x-1", "mark": 0}
    first = room.call("POST", "/api/desk/t/2/early_end", press, as_is=True)
    room.wall.seconds = 30  # the answer was lost; the page sends the same press again
    again = room.call("POST", "/api/desk/t/2/early_end", press, as_is=True)
    assert first[0] == again[0] == 200 and again[1]["tables"][1]["early_end"] == first[1]["tables"][1]["early_end"]
    assert [e["id"] for e in desk_rows(room.folder, 2)] == ["x-1"]
    status, doc = room.call("POST", "/api/desk/t/2/minutes", {"add": 5, "reason": "弃权", "id": "x-1", "mark": 1},
                            as_is=True)
    assert status == 409 and doc["errors"][0]["field"] == "id"


# --- the TVs' sound, as their polls of /board.json say it ---


class Ticks:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_screens_count_the_tvs_heard_lately_by_their_sound():
    ticks = Ticks()
    screens = Screens(ticks)
    assert screens.report() == {"on": 0, "off": 0}
    screens.heard({"sound": ["off"], "screen": ["tv-1"]}, "192.168.1.30")
    screens.heard({"sound": ["off"], "screen": ["tv-2"]}, "192.168.1.31")
    assert screens.report() == {"on": 0, "off": 2}
    screens.heard({"sound": ["on"], "screen": ["tv-1"]}, "192.168.1.30")  # someone tapped 开启提示音
    assert screens.report() == {"on": 1, "off": 1}
    for query in ({}, {"sound": ["maybe"]}, {"screen": ["tv-3"]}):  # an older page, or the export: no report
        screens.heard(query, "192.168.1.32")
    assert screens.report() == {"on": 1, "off": 1}
    screens.heard({"sound": ["off"]}, "192.168.1.33")  # no screen id: the address is the screen
    ticks.now += HEARD_SECONDS - 1
    screens.heard({"sound": ["on"], "screen": ["tv-1"]}, "192.168.1.30")
    assert screens.report() == {"on": 1, "off": 2}
    ticks.now += 2  # tv-2 and the one without an id were switched off
    assert screens.report() == {"on": 1, "off": 0}


def test_screens_remember_a_bounded_number_of_pages():
    ticks = Ticks()
    screens = Screens(ticks)
    for n in range(MAX_SCREENS + 10):
        ticks.now += 0.01
        screens.heard({"sound": ["off"], "screen": [f"reloaded-{n}"]}, "192.168.1.30")
    assert screens.report() == {"on": 0, "off": MAX_SCREENS}


def test_the_desk_says_what_the_tv_s_poll_said_of_its_sound(room):
    built = hall.make_hall(room.folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0, pin=PIN, clock=Wall())
    built.start()
    try:
        def get(path: str, headers: dict | None = None) -> tuple[int, dict]:
            conn = http.client.HTTPConnection("127.0.0.1", built.port, timeout=10)
            try:
                conn.request("GET", path, headers=headers or {})
                response = conn.getresponse()
                return response.status, json.loads(response.read() or b"null")
            finally:
                conn.close()

        assert get("/api/desk", {"X-Desk-PIN": PIN})[1]["tv_sound"] == {"on": 0, "off": 0}
        status, board = get("/board.json?sound=off&screen=tv-hall")
        assert status == 200 and "views" in board
        assert get("/api/desk", {"X-Desk-PIN": PIN})[1]["tv_sound"] == {"on": 0, "off": 1}
        get("/board.json?sound=on&screen=tv-hall")
        assert get("/api/desk", {"X-Desk-PIN": PIN})[1]["tv_sound"] == {"on": 1, "off": 0}
    finally:
        built.stop()
