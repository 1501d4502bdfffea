"""The desk API of `serve` (shuangsheng/hall/desk_api.py, docs/table-api.md 裁判台) and the round clock on every screen:
in-process through `DeskApi.handle` (no port) with an injected clock — never a sleep — and one real HTTP exchange
on 127.0.0.1 for the PIN header. Each status code of the contract has its test."""

from __future__ import annotations

import datetime as dt
import http.client
import json
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import openpyxl
import pytest

from shuangsheng.game.levels import Side
from shuangsheng.hall import hall
from shuangsheng.hall.board import BoardSource
from shuangsheng.hall.desk_api import DeskApi, desk_allowed, is_local
from shuangsheng.hall.hall import MAX_BODY, Request, TableApi, Throttle
from shuangsheng.storage import workbook
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.marks import version
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.storage.names import DB_NAME
from shuangsheng.storage.workbook.schema import MATCHES_HEADER, MATCHES_HEADER_ROW, MATCHES_SHEET
from shuangsheng.table.clock import ClockAction, ClockRow
from shuangsheng.usecases.score import score
from tests.events import played_rounds, redone_in_ledger, simulated
from tests.helpers import meanwhile, page_body, tied_hands

NAMES = {"127.0.0.1", "localhost"}
PORT = 8000
PIN = "246810"
HEADERS = {"content-type": "application/json", "host": f"127.0.0.1:{PORT}", "x-desk-pin": PIN}
T0 = dt.datetime(2026, 12, 1, 14, 0, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))


class Wall:
    """The PC's time as the server reads it (ISO 8601 with its offset), moved by the test."""

    def __init__(self) -> None:
        self.seconds = 0

    def __call__(self) -> str:
        return (T0 + dt.timedelta(seconds=self.seconds)).isoformat(timespec="seconds")


class Monotonic:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Hall:
    """A desk and the tables' API over one folder, as `serve` builds them, answering without a port."""

    def __init__(self, folder: Path, *, desk_lan: bool = False, wall: Wall | None = None, bound: tuple = ()):
        self.folder = folder
        self.wall = wall or Wall()
        self.ticks = Monotonic()
        self.throttle = Throttle(self.ticks)
        self.source = BoardSource(folder, log=lambda line: None, settle=0.0)
        self.desk = DeskApi(folder, names=NAMES, port=PORT, pin=PIN, desk_lan=desk_lan, bound=bound,
                            throttle=self.throttle, source=self.source, clock=self.wall)
        self.tables = TableApi(folder, names=NAMES, port=PORT, throttle=self.throttle, clock=self.wall)
        with Ledger.open(folder) as book:
            self.codes = book.codes(book.draws()[1].id)

    def call(self, method: str, path: str, body: object = None, *, headers: dict | None = None,
             address: str = "127.0.0.1", raw: bytes | None = None, as_is: bool = False) -> tuple[int, dict]:
        """One request; a POST's body as the pages send it (`page_body`: a new id, the mark as it stands) unless
        `as_is`."""
        if method == "POST" and raw is None and not as_is:
            body = page_body(path, body, self.mark)
        data = raw if raw is not None else (b"" if body is None else json.dumps(body, ensure_ascii=False).encode())
        api = self.tables if path.startswith("/api/t/") else self.desk
        reply = api.handle(Request(method, path, address, {**HEADERS, **(headers or {})}, data, len(data)))
        return reply.status, json.loads(reply.body())

    def mark(self, kind: str, where: object) -> int:
        """The mark a page would send: the table's (by its code, or by its number at the desk) or the clock's."""
        if kind == "table":
            reply = self.tables.handle(Request("GET", f"/api/t/{where}", "192.168.1.40", HEADERS, b"", 0))
            return reply.document.get("mark", 0)
        status, doc = self.call("GET", "/api/desk")
        if kind == "clock" or status != 200:
            return doc.get("clock_mark", 0)
        return next((t["mark"] for t in doc["tables"] if t["table"] == where), 0)

    def get(self) -> dict:
        status, doc = self.call("GET", "/api/desk")
        assert status == 200, doc
        return doc

    def table(self, number: int) -> dict:
        return next(t for t in self.get()["tables"] if t["table"] == number)

    def phone(self, number: int, action: str, body: object = None) -> tuple[int, dict]:
        return self.call("POST", f"/api/t/{self.codes[number]}/{action}", {} if body is None else body,
                         address="192.168.1.40")

    def hand(self, number: int, n: int, points: int = 40, dealer: str = "A") -> None:
        status, doc = self.phone(number, "hands", {"hand": n, "id": f"t{number}-{n}", "dealer": dealer,
                                                   "points": points})
        assert status == 201, doc

    def decided(self, number: int) -> None:
        """A keeps the deal twice (2 → 4 → 6), then time is up: A wins."""
        self.hand(number, 1)
        self.hand(number, 2)
        assert self.phone(number, "end")[1]["status"] == "decided"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """An event with round 1 drawn: 8 teams, 4 tables."""
    folder = tmp_path / "event"
    played_rounds(folder, teams=8, rounds=0)  # start_event, then round 1 drawn
    return folder


@pytest.fixture
def room(folder: Path) -> Hall:
    return Hall(folder)


def rows(folder: Path, table: str) -> int:
    with sqlite3.connect(folder / DB_NAME) as db:
        return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


# --- GET /api/desk ---


def test_the_desk_lists_every_table_of_the_round_as_the_contract_names_it(folder, room):
    doc = room.get()
    assert set(doc) == {"round", "title", "now", "clock", "clock_mark", "counts", "next", "tables", "tv_sound"}
    assert doc["tv_sound"] == {"on": 0, "off": 0}  # no TV has polled yet
    assert doc["clock_mark"] == 0 and [t["mark"] for t in doc["tables"]] == [0, 0, 0, 0]
    assert (doc["round"], doc["title"], doc["clock"], doc["next"]) == (1, "第1轮", None, None)
    assert doc["now"] == "2026-12-01T14:00:00+08:00"
    assert doc["counts"] == {"total": 4, "not_started": 4, "playing": 0, "to_confirm": 0, "confirmed": 0,
                             "needs_playoff": 0, "invalid": 0, "paper": 0, "final_only": 0}
    assert [t["table"] for t in doc["tables"]] == [1, 2, 3, 4]
    first = doc["tables"][0]
    assert set(first) == {"table", "state", "label", "hands", "last_entry", "idle_s", "quiet", "extra_minutes",
                          "early_end", "mark", "problem", "left_s", "A", "B", "levels", "winner", "confirmed", "log",
                          "paper_rules"}
    assert first["early_end"] is None  # until the desk allows the table to end before its time is up
    with Ledger.open(folder) as book:
        record = book.draws()[1]
    pairing = record.round.pairings[0]
    assert first["A"] == {"team": pairing.a, "shown": pairing.a, "players": list(record.names[pairing.a])}
    assert (first["state"], first["label"], first["hands"], first["levels"], first["winner"]) == (
        "not_started", "未开始", 0, None, None)
    assert (first["last_entry"], first["idle_s"], first["quiet"], first["left_s"], first["log"], first["paper_rules"]) == (
        None, None, False, None, [], None)


def test_a_field_over_99_shows_ids_three_digits_wide_at_the_desk(tmp_path):
    """The desk's tiles and its check-in list show '007' among 105 teams, as the papers print it; `team` stays '07'."""
    folder = tmp_path / "event"
    played_rounds(folder, teams=105, rounds=0)
    doc = Hall(folder).get()
    seats = [t[side] for t in doc["tables"] for side in ("A", "B")]
    assert all(s["shown"] == s["team"].rjust(3, "0") for s in seats)
    assert any(len(s["team"]) == 2 for s in seats)


def test_a_whole_match_goes_not_started_playing_to_confirm_confirmed(room):
    room.hand(1, 1)
    room.wall.seconds = 65
    table = room.table(1)
    assert (table["state"], table["label"], table["hands"], table["levels"]) == ("playing", "第2局进行中", 1,
                                                                                   {"A": "4", "B": "2"})
    assert (table["last_entry"], table["idle_s"]) == ("2026-12-01T14:00:00+08:00", 65)
    room.hand(1, 2)
    assert room.table(1)["label"] == "第3局进行中"
    room.phone(1, "end")
    table = room.table(1)
    assert (table["state"], table["label"], table["winner"], table["levels"]) == ("to_confirm", "待确认", "A",
                                                                                  {"A": "6", "B": "2"})
    room.phone(1, "confirm", {"side": "A"})
    assert room.table(1)["confirmed"] == {"A": True, "B": False} and room.table(1)["state"] == "to_confirm"
    room.phone(1, "confirm", {"side": "B"})
    doc = room.get()
    assert doc["tables"][0]["state"] == "confirmed" and doc["tables"][0]["label"] == "已确认"
    assert doc["counts"]["confirmed"] == 1 and doc["counts"]["not_started"] == 3
    assert doc["tables"][0]["log"] == []  # the teams' own confirmations are not the desk's


def test_a_tied_match_at_time_is_needs_playoff(room):
    for n, hand in enumerate(tied_hands(), start=1):
        room.hand(2, n, hand.points, hand.dealer.value)
    room.phone(2, "end")
    table = room.table(2)
    assert (table["state"], table["label"], table["winner"]) == ("needs_playoff", "需加赛", None)
    assert room.get()["counts"]["needs_playoff"] == 1


def put_final(folder: Path, table: int, a: str, b: str, reason: str) -> None:
    path = folder / "round-1.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb[MATCHES_SHEET]
    row = next(r for r in range(MATCHES_HEADER_ROW + 1, ws.max_row + 1) if ws.cell(r, 1).value == table)
    for label, value in zip(MATCHES_HEADER[-3:], (a, b, reason), strict=True):
        ws.cell(row, MATCHES_HEADER.index(label) + 1).value = value
    wb.save(path)


def test_paper_final_only_and_a_sheet_with_an_error_come_from_the_workbook(folder, room):
    path = folder / "round-1.xlsx"
    workbook.fill_round(path, {2: simulated(2, folder), 4: simulated(4, folder)})
    put_final(folder, 3, "7", "J", "记分卡遗失")
    wb = openpyxl.load_workbook(path)
    wb["第4桌"]["D7"] = 33
    wb.save(path)
    doc = room.get()
    states = {t["table"]: (t["state"], t["label"]) for t in doc["tables"]}
    assert states == {1: ("not_started", "未开始"), 2: ("paper", "纸质录入"), 3: ("final_only", "终局录入"),
                      4: ("invalid", "有误")}
    paper = doc["tables"][1]
    assert paper["hands"] > 0 and paper["levels"] is not None and paper["winner"] in ("A", "B")
    assert doc["tables"][2]["levels"] == {"A": "7", "B": "J"} and doc["tables"][2]["winner"] == "B"


def test_paper_and_phone_disagreeing_is_invalid(folder, room):
    room.decided(1)
    record = simulated(1, folder)
    workbook.fill_round(folder / "round-1.xlsx", {1: record})  # another match than the phone's
    assert room.table(1)["state"] == "invalid"


def test_once_every_table_is_decided_next_is_score_then_draw_as_a_record_then_draw_once_scored(folder, room):
    room.decided(1)
    path = folder / "round-1.xlsx"
    workbook.fill_round(path, {2: simulated(2, folder)})
    put_final(folder, 3, "A", "3", "记分卡被茶水打湿")
    room.decided(4)
    room.phone(4, "confirm", {"side": "A"})
    room.phone(4, "confirm", {"side": "B"})
    assert room.get()["next"] is None  # table 1 is still to be confirmed
    room.phone(1, "confirm", {"side": "A"})
    room.phone(1, "confirm", {"side": "B"})
    doc = room.get()
    assert [t["state"] for t in doc["tables"]] == ["confirmed", "paper", "final_only", "confirmed"]
    assert doc["next"] == {"action": "score", "round": 1, "then": "draw",
                           "text": "第1轮各桌结果都已确认：请计分（扫码录分的各局写入检查副本），然后抽下一轮"}
    score(folder, 1)  # what the console's 计分 (or `shuangsheng score`) records in event.db
    assert room.get()["next"] == {"action": "draw", "round": 1, "then": None, "text": "第1轮已经计分：请抽下一轮"}
    room.call("POST", "/api/desk/t/1/reopen", {"reason": "甲方对第2局有异议"})
    assert room.get()["next"] is None  # table 1 is to be confirmed again
    room.phone(1, "confirm", {"side": "A"})
    room.phone(1, "confirm", {"side": "B"})
    assert room.get()["next"]["action"] == "draw"  # confirmed as it was scored (another outcome: tests/test_record.py)


def test_after_the_final_is_scored_next_is_the_awards(tmp_path):
    folder = tmp_path / "event"
    played_rounds(folder, teams=2, rounds=0)
    room = Hall(folder)
    room.decided(1)
    room.phone(1, "confirm", {"side": "A"})
    room.phone(1, "confirm", {"side": "B"})
    assert room.get()["next"] == {"action": "score", "round": 1, "then": "awards",
                                  "text": "第1轮各桌结果都已确认：请计分（扫码录分的各局写入检查副本），然后查看最终名次"}
    score(folder, 1)
    assert room.get()["next"] == {"action": "awards", "round": 1, "then": None,
                                  "text": "决赛（第1轮）已经计分：请查看最终名次，打印成绩公告和荣誉证书"}


# --- the round clock: POST /api/desk/clock ---


def test_a_correction_of_the_pc_s_clock_while_serve_runs_moves_no_table_s_clock(folder):
    """The hall stamps from its steady clock (the PC's time at the start, moved on monotonically): the PC's clock set
    30 minutes ahead, or 10 hours back, while the round runs changes no table's time left."""
    from shuangsheng.hall import api_common
    from shuangsheng.hall.steady import SteadyClock

    pc = {"time": T0}
    ticks = Monotonic()
    steady = SteadyClock(wall=lambda: pc["time"], monotonic=ticks)
    throttle = Throttle(ticks)
    desk = DeskApi(folder, names=NAMES, port=PORT, pin=PIN, throttle=throttle, clock=steady.iso,
                   source=BoardSource(folder, log=lambda line: None, settle=0.0, now=steady.now))

    def press(action: str, mark: int) -> dict:
        body = json.dumps({"action": action, "id": f"c-{action}-{mark}", "mark": mark}).encode()
        reply = desk.handle(Request("POST", "/api/desk/clock", "127.0.0.1", HEADERS, body, len(body)))
        assert reply.status == 200, reply.document
        return reply.document

    def left() -> int:
        reply = desk.handle(Request("GET", "/api/desk", "127.0.0.1", HEADERS, b"", 0))
        return reply.document["tables"][0]["left_s"]

    press("start", 0)
    ticks.now += 600
    pc["time"] = T0 + dt.timedelta(minutes=40)  # set 30 minutes ahead of the 10 that passed
    assert left() == 3000
    pc["time"] = T0 - dt.timedelta(hours=10)  # then 10 hours back
    ticks.now += 60
    assert left() == 2940
    press("stop", 1)
    ticks.now += 300
    assert left() == 2940  # paused: stamped from the same steady clock
    assert abs(dt.datetime.fromisoformat(api_common.now_iso()) - dt.datetime.now().astimezone()) < dt.timedelta(
        seconds=5)  # the default: the PC's time as serve started it, moved on


def test_the_clock_starts_pauses_and_resumes_from_the_desk(folder, room):
    status, doc = room.call("POST", "/api/desk/clock", {"action": "start"})
    assert status == 200 and doc["clock"] == {"minutes": 60, "started_at": "2026-12-01T14:00:00+08:00",
                                              "left_s": 3600, "running": True}
    assert doc["tables"][0]["left_s"] == 3600
    room.wall.seconds = 600
    assert room.get()["clock"]["left_s"] == 3000
    status, doc = room.call("POST", "/api/desk/clock", {"action": "stop"})
    assert status == 200 and doc["clock"]["running"] is False
    room.wall.seconds = 2000
    assert room.get()["clock"]["left_s"] == 3000  # paused
    assert room.call("POST", "/api/desk/clock", {"action": "stop"})[0] == 200  # stopped already: nothing added
    assert rows(folder, "clock") == 2
    room.call("POST", "/api/desk/clock", {"action": "start"})
    room.wall.seconds = 2100
    clock = room.get()["clock"]
    assert (clock["left_s"], clock["running"], clock["started_at"]) == (2900, True, "2026-12-01T14:00:00+08:00")
    assert room.call("POST", "/api/desk/clock", {"action": "start"})[0] == 200  # running already
    assert rows(folder, "clock") == 3
    with Ledger.open(folder) as book:
        assert [(r.action.value, r.at, r.address) for r in book.clock_rows(book.draws()[1].id)] == [
            ("start", "2026-12-01T14:00:00+08:00", "127.0.0.1"), ("stop", "2026-12-01T14:10:00+08:00", "127.0.0.1"),
            ("start", "2026-12-01T14:33:20+08:00", "127.0.0.1")]


@pytest.mark.parametrize("body", [{"action": "go"}, {}, {"action": None}, ["start"]])
def test_a_clock_action_other_than_start_or_stop_is_422(room, body):
    status, doc = room.call("POST", "/api/desk/clock", body)
    assert status == 422 and doc["errors"][0]["field"] == "action" and "start" in doc["errors"][0]["message"]


def test_the_table_page_gets_its_own_time_and_time_up(folder, room):
    code = room.codes[1]
    room.call("POST", "/api/desk/clock", {"action": "start"})
    room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌耽误"})
    room.wall.seconds = 3600
    status, doc = room.call("GET", f"/api/t/{code}")
    assert status == 200 and doc["clock"] == {"minutes": 60, "extra_minutes": 5,
                                              "started_at": "2026-12-01T14:00:00+08:00", "left_s": 300,
                                              "running": True, "time_up": False}
    assert room.call("GET", f"/api/t/{room.codes[2]}")[1]["clock"]["time_up"] is True
    room.wall.seconds = 4000
    assert room.call("GET", f"/api/t/{code}")[1]["clock"]["left_s"] == 0
    status, doc = room.phone(1, "hands", {"hand": 1, "id": "late", "dealer": "A", "points": 40})
    assert status == 201 and doc["clock"]["time_up"] is True  # the answers to the phone carry it too


def test_a_quiet_table_is_flagged_after_15_minutes_of_a_running_clock(room):
    room.call("POST", "/api/desk/clock", {"action": "start"})
    room.hand(1, 1)
    room.wall.seconds = 15 * 60
    assert [t["quiet"] for t in room.get()["tables"]] == [False] * 4
    room.wall.seconds = 15 * 60 + 1
    assert [t["quiet"] for t in room.get()["tables"]] == [True] * 4
    room.hand(1, 2)
    assert [t["quiet"] for t in room.get()["tables"]] == [False, True, True, True]
    room.call("POST", "/api/desk/clock", {"action": "stop"})
    assert not any(t["quiet"] for t in room.get()["tables"])  # a paused round is nobody's fault


# --- POST /api/desk/t/<table>/minutes ---


def test_extra_minutes_are_logged_and_add_to_one_table(folder, room):
    room.call("POST", "/api/desk/clock", {"action": "start"})
    status, doc = room.call("POST", "/api/desk/t/2/minutes", {"add": 5, "reason": "换牌耽误"})
    assert status == 200 and set(doc) >= {"round", "tables", "clock"}
    table = doc["tables"][1]
    assert (table["extra_minutes"], table["left_s"], doc["tables"][0]["left_s"]) == (5, 3900, 3600)
    assert table["log"] == [{"time": "2026-12-01T14:00:00+08:00", "action": "minutes", "add": 5,
                             "reason": "换牌耽误", "address": "127.0.0.1"}]
    assert table["state"] == "not_started" and table["last_entry"] is None  # the desk's action is not play
    assert rows(folder, "entry") == 1


@pytest.mark.parametrize("body", [{"add": 5}, {"add": 5, "reason": "  "}, {"reason": None, "add": 5}])
def test_extra_minutes_without_a_reason_are_400(folder, room, body):
    status, doc = room.call("POST", "/api/desk/t/1/minutes", body)
    assert status == 400 and doc["errors"][0]["field"] == "reason" and "原因" in doc["errors"][0]["message"]
    assert rows(folder, "entry") == 0


@pytest.mark.parametrize("add", [0, 121, "5", 2.5, True, None])
def test_extra_minutes_not_a_whole_number_1_to_120_are_422(folder, room, add):
    status, doc = room.call("POST", "/api/desk/t/1/minutes", {"add": add, "reason": "换牌"})
    assert status == 422 and doc["errors"][0]["field"] == "add"
    assert rows(folder, "entry") == 0


@pytest.mark.parametrize("table", ["9", "0", "x", "１"])
def test_a_table_not_in_the_round_is_404(room, table):
    status, doc = room.call("POST", f"/api/desk/t/{table}/minutes", {"add": 5, "reason": "换牌"})
    assert status == 404 and doc["errors"][0]["message"].startswith("本轮没有第")


# --- POST …/reopen and …/confirm (rule 十七) ---


def test_reopen_needs_a_reason_and_unlocks_a_confirmed_table(folder, room):
    room.decided(1)
    room.phone(1, "confirm", {"side": "A"})
    room.phone(1, "confirm", {"side": "B"})
    assert room.phone(1, "undo", {"hand": 2})[0] == 423
    status, doc = room.call("POST", "/api/desk/t/1/reopen", {})
    assert status == 400 and doc["errors"][0]["field"] == "reason"
    status, doc = room.call("POST", "/api/desk/t/1/reopen", {"reason": "甲方对第2局有异议，比赛负责人同意重新核对"})
    table = doc["tables"][0]
    assert status == 200 and table["state"] == "to_confirm" and table["confirmed"] == {"A": False, "B": False}
    assert [e["action"] for e in table["log"]] == ["reopen"]
    assert room.phone(1, "undo", {"hand": 2})[0] == 200  # the phones may correct it now
    assert room.table(1)["state"] == "playing"


def test_the_desk_confirms_for_a_team_with_a_reason_once_the_match_is_over(folder, room):
    room.hand(1, 1)
    status, doc = room.call("POST", "/api/desk/t/1/confirm", {"side": "B", "reason": "乙方拒绝确认"})
    assert status == 409 and "尚未结束" in doc["errors"][0]["message"]
    room.hand(1, 2)
    room.phone(1, "end")
    room.phone(1, "confirm", {"side": "A"})
    status, doc = room.call("POST", "/api/desk/t/1/confirm", {"side": "B"})
    assert status == 400 and doc["errors"][0]["field"] == "reason"
    status, doc = room.call("POST", "/api/desk/t/1/confirm", {"side": "C", "reason": "x"})
    assert status == 422 and doc["errors"][0]["field"] == "side"
    status, doc = room.call("POST", "/api/desk/t/1/confirm", {"side": "B", "reason": "乙方离场，比赛负责人裁定"})
    table = doc["tables"][0]
    assert status == 200 and table["state"] == "confirmed"
    assert [(e["action"], e["side"], e["reason"]) for e in table["log"]] == [("confirm", "B", "乙方离场，比赛负责人裁定")]
    assert room.phone(1, "hands", {"hand": 3, "id": "x", "dealer": "A", "points": 40})[0] == 423  # locked


# --- POST …/paper_rules: the signed paper card overrules the phone (issue 29) ---


def test_the_signed_card_overrules_the_phone_once_the_desk_says_so(folder, room):
    """Paper and phone disagree (有误); the desk rules that the signed card is the record: the table is 纸质录入 from
    the sheet, the phones' hands stay in event.db and the phones are refused (423, saying why and where to go)."""
    room.decided(1)
    card = simulated(1, folder)
    workbook.fill_round(folder / "round-1.xlsx", {1: card})  # another match than the phone's
    assert room.table(1)["state"] == "invalid"
    status, doc = room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "双方签字的计分卡为准，手机录错了"})
    table = doc["tables"][0]
    assert status == 200 and table["state"] == "paper" and table["hands"] == len(card.hands)
    assert [(e["action"], e["undo"], e["reason"]) for e in table["log"]] == [
        ("paper_rules", False, "双方签字的计分卡为准，手机录错了")]
    assert [e["action"] for e in desk_rows(folder, 1)] == ["hand", "hand", "end", "paper_rules"]  # nothing deleted
    status, doc = room.phone(1, "undo", {"hand": 2})
    assert status == 423 and doc["state"]["paper_rules"]["reason"] == "双方签字的计分卡为准，手机录错了"
    assert "以纸质计分卡为准" in doc["errors"][0]["message"] and "请到裁判台" in doc["errors"][0]["message"]
    assert room.phone(1, "confirm", {"side": "A"})[0] == 423
    assert len(desk_rows(folder, 1)) == 4
    status, phone = room.call("GET", f"/api/t/{room.codes[1]}")
    assert status == 200 and phone["paper_rules"]["reason"] == "双方签字的计分卡为准，手机录错了"
    assert room.table(1)["paper_rules"] == {"reason": "双方签字的计分卡为准，手机录错了", "time": "14:00"}


def test_paper_rules_sent_again_is_taken_once_and_the_same_ruling_again_stores_nothing(folder, room):
    room.decided(1)
    press = {"reason": "以计分卡为准", "id": "p-1", "mark": room.table(1)["mark"]}
    assert room.call("POST", "/api/desk/t/1/paper_rules", press, as_is=True)[0] == 200
    assert room.call("POST", "/api/desk/t/1/paper_rules", press, as_is=True)[0] == 200  # its answer was lost
    assert room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "再按一次"})[0] == 200  # already so
    assert [e["action"] for e in desk_rows(folder, 1)].count("paper_rules") == 1
    status, doc = room.call("POST", "/api/desk/t/1/paper_rules", {**press, "undo": True, "mark": room.table(1)["mark"]},
                            as_is=True)
    assert status == 409 and doc["errors"][0]["field"] == "id"


def test_paper_rules_undone_gives_the_record_back_to_the_phones(folder, room):
    room.decided(1)
    assert room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "以计分卡为准"})[1]["tables"][0]["state"] == "not_started"
    assert room.phone(1, "confirm", {"side": "A"})[0] == 423
    status, doc = room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "计分卡找不到了，仍以手机为准", "undo": True})
    assert status == 200 and doc["tables"][0]["state"] == "to_confirm"
    assert [e["undo"] for e in doc["tables"][0]["log"]] == [False, True]
    assert room.phone(1, "confirm", {"side": "A"})[0] == 200  # the phones count again
    assert room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "x", "undo": True})[0] == 200  # already so
    assert [e["action"] for e in desk_rows(folder, 1)].count("paper_rules") == 2


@pytest.mark.parametrize("body", [{}, {"reason": "  "}, {"reason": "x" * 501}])
def test_paper_rules_without_a_reason_is_400(folder, room, body):
    status, doc = room.call("POST", "/api/desk/t/1/paper_rules", body)
    assert status == 400 and doc["errors"][0]["field"] == "reason" and "须写明原因（500 字以内）" in doc["errors"][0]["message"]
    assert rows(folder, "entry") == 0
    assert room.call("POST", "/api/desk/t/1/paper_rules", {**body, "reason": "签字的计分卡为准"})[0] == 200  # as it says


@pytest.mark.parametrize("undo", ["true", 1, None, []])
def test_paper_rules_with_an_undo_not_true_or_false_is_422(folder, room, undo):
    status, doc = room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "以计分卡为准", "undo": undo})
    assert status == 422 and doc["errors"][0]["field"] == "undo"
    assert doc["errors"][0]["message"].startswith("应为 true（改回以扫码录分为准）或 false，实际为 ")
    assert rows(folder, "entry") == 0
    assert room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "以计分卡为准", "undo": False})[0] == 200


def test_paper_rules_on_an_old_mark_or_another_pairing_is_409_and_a_table_of_no_round_404(folder, room):
    seen = room.table(1)["mark"]
    room.hand(1, 1)
    status, doc = room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "x", "id": "p-old", "mark": seen},
                            as_is=True)
    assert status == 409 and doc["errors"][0]["field"] == "mark"
    status, doc = room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "x", "teams": ["99", "98"]})
    assert status == 409 and doc["errors"][0]["field"] == "teams"
    assert room.call("POST", "/api/desk/t/9/paper_rules", {"reason": "x"})[0] == 404
    assert room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "x", "round": 2})[0] == 404
    assert room.call("POST", "/api/desk/t/1/paper_rules", {"reason": "x", "round": "1"})[0] == 422
    assert [e["action"] for e in desk_rows(folder, 1)] == ["hand"]


# --- a press sent again: the page's "id" for each press (a retry after a lost answer is taken once) ---


def desk_rows(folder: Path, table: int) -> list[dict]:
    with sqlite3.connect(folder / DB_NAME) as db:
        found = db.execute("SELECT body FROM entry WHERE tbl = ? ORDER BY id", (table,)).fetchall()
    return [json.loads(body) for (body,) in found]


def test_extra_minutes_sent_again_with_their_id_are_stored_once(folder, room):
    room.call("POST", "/api/desk/clock", {"action": "start"})
    press = {"add": 5, "reason": "换牌耽误", "id": "m-1"}
    status, first = room.call("POST", "/api/desk/t/2/minutes", press)
    assert status == 200 and first["tables"][1]["extra_minutes"] == 5
    room.wall.seconds = 30  # the answer was lost; the page sends the same press again
    status, again = room.call("POST", "/api/desk/t/2/minutes", press)
    assert status == 200 and again["tables"][1]["extra_minutes"] == 5 and again["tables"][1]["left_s"] == 3870
    assert again["tables"][1]["log"] == first["tables"][1]["log"]
    assert [(e["action"], e["id"], e["add"]) for e in desk_rows(folder, 2)] == [("minutes", "m-1", 5)]
    status, doc = room.call("POST", "/api/desk/t/2/minutes", {"add": 10, "reason": "换牌耽误", "id": "m-1"})
    assert status == 409 and doc["errors"] == [{  # the one error object, every key present
        "message": "操作编号 'm-1' 已用于本桌 14:00 的另一项操作，这次没有记录；请刷新页面后再操作",
        "file": None, "sheet": None, "cell": None, "hand": None, "field": "id"}]
    status, doc = room.call("POST", "/api/desk/t/2/minutes", {**press, "id": "m-2"})  # a new press: more minutes
    assert status == 200 and doc["tables"][1]["extra_minutes"] == 10
    assert room.call("POST", "/api/desk/t/3/minutes", press)[0] == 200  # ids are per table: table 3's first
    assert len(desk_rows(folder, 2)) == 2 and len(desk_rows(folder, 3)) == 1


@pytest.mark.parametrize("missing", ["id", "mark"])
@pytest.mark.parametrize(("path", "body"), [("/api/desk/clock", {"action": "start"}),
                                            ("/api/desk/t/1/minutes", {"add": 5, "reason": "换牌"}),
                                            ("/api/desk/t/1/reopen", {"reason": "核对"}),
                                            ("/api/desk/t/1/confirm", {"side": "A", "reason": "离场"}),
                                            ("/api/desk/t/1/paper_rules", {"reason": "以计分卡为准"})])
def test_a_press_without_its_id_or_mark_is_422_asking_to_reload_the_page(folder, room, path, body, missing):
    """An older desk page (or a script) that sends no id or no mark cannot tell a retry from a new press: refused."""
    sent = {k: v for k, v in page_body(path, body, room.mark).items() if k != missing}
    status, doc = room.call("POST", path, sent, as_is=True)
    assert status == 422 and doc["errors"][0]["field"] == missing
    assert "请刷新页面后再操作" in doc["errors"][0]["message"]
    assert rows(folder, "entry") == rows(folder, "clock") == 0


def test_a_desk_press_on_an_old_mark_of_its_table_is_409_and_stores_nothing(folder, room):
    seen = room.table(1)["mark"]
    room.hand(1, 1)  # a phone entered a hand while the desk was typing the reason
    status, doc = room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌", "id": "m-old", "mark": seen})
    assert status == 409 and doc["errors"][0]["field"] == "mark" and "刚改了本桌的记录" in doc["errors"][0]["message"]
    assert room.table(1)["extra_minutes"] == 0 and room.table(1)["mark"] == 1
    assert room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌", "id": "m-new"})[0] == 200


def test_a_clock_press_on_an_old_clock_mark_is_409_and_stores_nothing(folder, room):
    seen = room.get()["clock_mark"]
    assert room.call("POST", "/api/desk/clock", {"action": "start", "id": "other-desk"})[0] == 200
    status, doc = room.call("POST", "/api/desk/clock", {"action": "stop", "id": "s-old", "mark": seen})
    assert status == 409 and doc["errors"][0]["field"] == "mark" and "计时" in doc["errors"][0]["message"]
    assert room.get()["clock"]["running"] is True and rows(folder, "clock") == 1


def test_a_phone_s_confirmation_resent_after_the_desk_reopened_does_not_confirm_again(folder, room):
    """The attack of issue 27: team A confirms, the answer is lost; the desk reopens the table (the confirmation
    count stays as it was); A's page sends the confirmation again: nothing is confirmed for a record A has not seen."""
    room.decided(1)
    mark = room.table(1)["mark"]
    press = {"side": "A", "id": "a-confirms", "mark": mark}
    assert room.phone(1, "confirm", press)[0] == 200  # its answer lost on the Wi-Fi
    assert room.call("POST", "/api/desk/t/1/reopen", {"reason": "乙方对第2局有异议"})[0] == 200
    status, doc = room.phone(1, "confirm", press)
    assert status == 200 and doc["confirmed"] == {"A": False, "B": False}
    status, doc = room.phone(1, "confirm", {**press, "id": "a-confirms-2"})  # a new press, on the old mark
    assert status == 409 and doc["errors"][0]["field"] == "mark" and room.table(1)["confirmed"]["A"] is False


def test_a_reopening_sent_again_after_the_teams_confirmed_anew_does_not_reopen_twice(folder, room):
    room.decided(1)
    for side in "AB":
        room.phone(1, "confirm", {"side": side})
    press = {"reason": "甲方对第2局有异议", "id": "r-1"}
    status, doc = room.call("POST", "/api/desk/t/1/reopen", press)
    assert status == 200 and doc["tables"][0]["state"] == "to_confirm"
    for side in "AB":  # checked again at the table and confirmed anew
        room.phone(1, "confirm", {"side": side})
    status, doc = room.call("POST", "/api/desk/t/1/reopen", press)  # the lost answer's retry, arriving late
    assert status == 200 and doc["tables"][0]["state"] == "confirmed"
    assert [e["action"] for e in doc["tables"][0]["log"]] == ["reopen"]
    status, doc = room.call("POST", "/api/desk/t/1/reopen", {"reason": "另一件事", "id": "r-1"})
    assert status == 409 and doc["errors"][0]["field"] == "id"
    assert room.table(1)["state"] == "confirmed" and len(desk_rows(folder, 1)) == 3 + 2 + 1 + 2


def test_a_desk_confirmation_sent_again_is_taken_once_and_its_id_for_the_other_side_is_409(folder, room):
    room.decided(1)
    press = {"side": "B", "reason": "乙方离场，比赛负责人裁定", "id": "c-1"}
    assert room.call("POST", "/api/desk/t/1/confirm", press)[0] == 200
    room.call("POST", "/api/desk/t/1/reopen", {"reason": "复核", "id": "r-9"})
    status, doc = room.call("POST", "/api/desk/t/1/confirm", {**press, "side": "乙"})  # the same press, in other words
    assert status == 200 and doc["tables"][0]["confirmed"] == {"A": False, "B": False}  # the reopening stands
    status, doc = room.call("POST", "/api/desk/t/1/confirm", {**press, "side": "A"})
    assert status == 409 and doc["errors"][0]["field"] == "id"
    status, doc = room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "x", "id": "t1-1"})
    assert status == 409 and doc["errors"][0]["field"] == "id"  # the id of the phone's hand 1
    assert [e["action"] for e in desk_rows(folder, 1)][-2:] == ["confirm", "reopen"]


def test_the_clock_s_press_sent_again_adds_nothing_and_its_id_for_the_other_action_is_409(folder, room):
    assert room.call("POST", "/api/desk/clock", {"action": "start", "id": "s-1"})[0] == 200
    room.wall.seconds = 600
    assert room.call("POST", "/api/desk/clock", {"action": "stop", "id": "s-2"})[0] == 200
    room.wall.seconds = 700
    status, doc = room.call("POST", "/api/desk/clock", {"action": "start", "id": "s-1"})  # late retry of the start
    assert status == 200 and doc["clock"] == {"minutes": 60, "started_at": "2026-12-01T14:00:00+08:00",
                                              "left_s": 3000, "running": False}
    status, doc = room.call("POST", "/api/desk/clock", {"action": "stop", "id": "s-1"})
    assert status == 409 and doc["errors"][0]["field"] == "id"
    assert doc["errors"][0]["message"] == "操作编号 's-1' 已用于 14:00 的另一项计时操作，这次没有记录；请刷新页面后再操作"
    assert rows(folder, "clock") == 2
    status, doc = room.call("POST", "/api/desk/clock", {"action": "start", "id": "s-3"})
    assert status == 200 and doc["clock"]["running"] is True
    with Ledger.open(folder) as book:
        assert [r.id for r in book.clock_rows(book.draws()[1].id)] == ["s-1", "s-2", "s-3"]


@pytest.mark.parametrize("request_id", ["", "x" * 101, 7, ["a"], True])
@pytest.mark.parametrize(("path", "body"), [("/api/desk/clock", {"action": "start"}),
                                            ("/api/desk/t/1/minutes", {"add": 5, "reason": "换牌"}),
                                            ("/api/desk/t/1/paper_rules", {"reason": "以计分卡为准"})])
def test_an_id_not_a_text_of_1_to_100_characters_is_422(folder, room, request_id, path, body):
    status, doc = room.call("POST", path, {**body, "id": request_id})
    assert status == 422 and doc["errors"][0]["field"] == "id"
    assert doc["errors"][0]["message"].startswith("操作编号 id 应为 1 到 100 个字符的文字，实际为 ")  # "" too: not "以内"
    assert rows(folder, "entry") == rows(folder, "clock") == 0


def test_the_same_press_from_many_threads_at_once_is_stored_once(folder, room):
    """The id is looked up inside the write transaction: of presses arriving together, one is stored."""
    press = {"add": 5, "reason": "换牌", "id": "m-burst"}
    barrier = threading.Barrier(6, timeout=10)

    def send() -> int:
        barrier.wait()
        return room.call("POST", "/api/desk/t/4/minutes", press)[0]

    with ThreadPoolExecutor(6) as pool:
        statuses = list(pool.map(lambda _: send(), range(6), timeout=60))
    assert statuses == [200] * 6
    assert len(desk_rows(folder, 4)) == 1 and room.table(4)["extra_minutes"] == 5


# --- refusals before the desk is read: 421, 403, 404, 405, 415, 413, 401, 429 ---


@pytest.mark.parametrize("host", [None, "evil.example", f"127.0.0.1:{PORT + 1}"])
def test_a_host_not_ours_is_421(room, host):
    assert room.call("GET", "/api/desk", headers={"host": host or ""})[0] == 421


def test_the_desk_refuses_another_address_than_the_pc_itself_403(folder, room):
    status, doc = room.call("GET", "/api/desk", address="192.168.1.31")
    assert status == 403 and "desk_lan = true" in doc["errors"][0]["message"]
    assert room.call("POST", "/api/desk/clock", {"action": "start"}, address="192.168.1.31")[0] == 403
    assert rows(folder, "clock") == 0
    assert room.call("GET", "/api/desk", address="::1")[0] == 200
    lan = Hall(folder, desk_lan=True)
    assert lan.call("GET", "/api/desk", address="192.168.1.31")[0] == 200
    assert lan.call("GET", "/api/desk", address="192.168.1.31", headers={"x-desk-pin": ""})[0] == 401


@pytest.mark.parametrize(("address", "local"), [("127.0.0.1", True), ("127.0.0.2", True), ("::1", True),
                                                ("::ffff:127.0.0.1", True), ("192.168.1.2", False),
                                                ("10.0.0.1", False), ("", False), ("localhost", False)])
def test_only_the_pc_itself_is_local(address, local):
    assert is_local(address) is local
    assert desk_allowed(address, False) is local and desk_allowed(address, True)


BOUND = ("127.0.0.1", "192.168.1.20")  # serve --lan on a PC whose LAN address is 192.168.1.20


@pytest.mark.parametrize(("address", "allowed"), [
    ("192.168.1.20", True),  # the PC opening the address it printed: the PC itself
    ("::ffff:192.168.1.20", True), ("127.0.0.1", True), ("::1", True),
    ("192.168.1.21", False), ("192.168.1.2", False), ("10.0.0.1", False), ("0.0.0.0", False), ("", False),
    ("192.168.1.20.evil", False),
])
def test_an_address_the_server_is_bound_to_is_the_pc_itself(address, allowed):
    assert desk_allowed(address, False, BOUND) is allowed
    assert desk_allowed(address, True, BOUND)
    assert desk_allowed("192.168.1.20", False, ()) is False  # not bound there: another device
    assert desk_allowed("0.0.0.0", False, ("0.0.0.0",)) is False  # a wildcard names no address


def test_the_desk_from_the_pc_s_own_lan_address_is_answered_behind_the_pin(folder):
    room = Hall(folder, bound=BOUND)
    assert room.call("GET", "/api/desk", address="192.168.1.20")[0] == 200
    status, doc = room.call("POST", "/api/desk/clock", {"action": "start"}, address="192.168.1.20")
    assert status == 200 and doc["clock"]["running"] is True
    assert room.call("GET", "/api/desk", address="192.168.1.20", headers={"x-desk-pin": ""})[0] == 401
    assert room.call("GET", "/api/desk", address="192.168.1.20", headers={"x-desk-pin": "000000"})[0] == 401
    status, doc = room.call("GET", "/api/desk", address="192.168.1.21")  # another device on the Wi-Fi
    assert status == 403 and "desk_lan = true" in doc["errors"][0]["message"]
    assert room.call("POST", "/api/desk/clock", {"action": "stop"}, address="192.168.1.21")[0] == 403
    assert rows(folder, "clock") == 1


def test_serve_gives_the_desk_the_addresses_it_is_bound_to(folder):
    server = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0)
    server.start()
    try:
        assert server.desk.bound == ("127.0.0.1",)
        assert server.desk.allows("127.0.0.1") and not server.desk.allows("192.168.1.20")
    finally:
        server.stop()


def test_unknown_paths_and_methods_are_refused(room):
    assert room.call("GET", "/api/desk/tables")[0] == 404
    assert room.call("POST", "/api/desk/t/1/undo", {})[0] == 404
    assert room.call("POST", "/api/desk", {})[0] == 405
    assert room.call("GET", "/api/desk/clock")[0] == 405
    assert room.call("HEAD", "/api/desk")[0] == 200


def test_a_post_not_json_is_415_and_a_body_over_16_kb_is_413(room):
    assert room.call("POST", "/api/desk/clock", {"action": "start"}, headers={"content-type": "text/plain"})[0] == 415
    big = json.dumps({"add": 5, "reason": "长" * MAX_BODY}).encode()
    assert room.call("POST", "/api/desk/t/1/minutes", raw=big)[0] == 413
    assert room.call("POST", "/api/desk/clock", raw=b"{not json")[0] == 400


def test_a_missing_or_wrong_pin_is_401(folder, room):
    status, doc = room.call("GET", "/api/desk", headers={"x-desk-pin": ""})
    assert status == 401 and "裁判台密码" in doc["errors"][0]["message"]
    status, doc = room.call("GET", "/api/desk", headers={"x-desk-pin": "000000"})
    assert status == 401 and "不对" in doc["errors"][0]["message"]
    assert room.call("POST", "/api/desk/clock", {"action": "start"}, headers={"x-desk-pin": "1"})[0] == 401
    assert rows(folder, "clock") == 0


def test_five_wrong_pins_in_a_minute_are_429_for_a_minute(room):
    for _ in range(4):
        assert room.call("GET", "/api/desk", headers={"x-desk-pin": "999999"})[0] == 401
    assert room.call("GET", "/api/desk")[0] == 200
    assert room.call("GET", "/api/desk", headers={"x-desk-pin": "999999"})[0] == 401
    status, doc = room.call("GET", "/api/desk")  # even the right PIN, for a minute
    assert status == 429 and "一分钟" in doc["errors"][0]["message"]
    room.ticks.now += 61
    assert room.call("GET", "/api/desk")[0] == 200


# --- a restart keeps the clock and the log; every action is a row committed before the answer ---


def test_a_new_server_on_the_same_folder_keeps_the_clock_and_the_log(folder):
    wall = Wall()
    first = Hall(folder, wall=wall)
    first.call("POST", "/api/desk/clock", {"action": "start"})
    first.call("POST", "/api/desk/t/3/minutes", {"add": 10, "reason": "停电"})
    wall.seconds = 900
    first.call("POST", "/api/desk/clock", {"action": "stop"})
    before = first.get()
    built = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0, pin=PIN, clock=wall)
    try:
        wall.seconds = 5000
        headers = {**HEADERS, "host": f"127.0.0.1:{built.port}"}
        reply = built.desk.handle(Request("GET", "/api/desk", "127.0.0.1", headers))
    finally:
        for httpd in built.servers:
            httpd.server_close()
    after = json.loads(reply.body())
    assert reply.status == 200
    assert after["clock"] == before["clock"] == {"minutes": 60, "started_at": "2026-12-01T14:00:00+08:00",
                                                 "left_s": 2700, "running": False}
    assert after["tables"][2]["log"] == before["tables"][2]["log"] and after["tables"][2]["extra_minutes"] == 10


def test_every_accepted_action_is_a_row_with_its_time_and_address(folder, room):
    room.decided(2)
    room.call("POST", "/api/desk/t/2/minutes", {"add": 3, "reason": "a"})
    room.call("POST", "/api/desk/t/2/confirm", {"side": "A", "reason": "b"})
    room.call("POST", "/api/desk/t/2/reopen", {"reason": "c"})
    with sqlite3.connect(folder / DB_NAME) as db:
        found = db.execute("SELECT body, at, address FROM entry WHERE tbl = 2 ORDER BY id").fetchall()
    desk = [(json.loads(body)["action"], at, address) for body, at, address in found[3:]]
    assert desk == [("minutes", "2026-12-01T14:00:00+08:00", "127.0.0.1"),
                    ("confirm", "2026-12-01T14:00:00+08:00", "127.0.0.1"),
                    ("reopen", "2026-12-01T14:00:00+08:00", "127.0.0.1")]


# --- the TV sees phone entries at once (event.db in WAL mode) ---


def test_the_venue_display_sees_a_phone_entry_at_once_without_waiting_to_settle(folder, monkeypatch):
    from shuangsheng.hall import board

    readings: list[str] = []
    for name in ("read_folder", "with_new_entries"):  # every reading of the folder the TV's source makes
        real = getattr(board, name)
        monkeypatch.setattr(board, name, lambda *a, _real=real, _name=name, **k: readings.append(_name) or _real(*a, **k))
    ticks = Monotonic()
    room = Hall(folder)
    tv = BoardSource(folder, log=lambda line: None, settle=3600.0, clock=ticks)  # dates never settle here
    before = tv.current()
    room.decided(1)  # over: the TV shows it (进行中 with its levels until both teams confirm)
    after = tv.current()
    assert after.version != before.version  # read again at once: a commit is atomic
    read = len(readings)
    assert read >= 2  # the first look and the one after the entry
    again = tv.current()
    assert again.version == after.version and len(readings) == read  # and only once: nothing read again


def test_the_ledger_version_changes_with_every_commit_in_wal_mode(folder):
    with Ledger.open(folder) as book:
        draw_id = book.draws()[1].id
        with sqlite3.connect(folder / DB_NAME) as db:
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        before = version(folder)
        book.add_clock(draw_id, ClockRow(ClockAction.START, "2026-12-01T14:00:00+08:00", "x"))
        assert version(folder) != before  # while the entry is in event.db-wal only
    assert version(folder.parent / "nowhere") is None


# --- one real HTTP exchange: the PIN header, and the clock on the TV's /board.json ---


def test_end_to_end_the_pin_header_and_the_clock_on_the_tv(folder):
    wall = Wall()
    built = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0, pin=PIN, clock=wall)
    built.start()
    try:
        port = built.port

        def talk(method: str, path: str, body: object = None, headers: dict | None = None):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                data = None if body is None else json.dumps(body).encode()
                base = {"Content-Type": "application/json"} if data is not None else {}
                conn.request(method, path, body=data, headers={**base, **(headers or {})})
                response = conn.getresponse()
                return response.status, response.getheader("ETag"), json.loads(response.read() or b"null")
            finally:
                conn.close()

        assert talk("GET", "/api/desk")[0] == 401
        assert talk("GET", "/api/desk", headers={"X-Desk-PIN": "111111"})[0] == 401
        status, _, doc = talk("GET", "/api/desk", headers={"X-Desk-PIN": PIN})
        assert status == 200 and doc["round"] == 1 and doc["clock"] is None
        status, etag, board = talk("GET", "/board.json")
        assert status == 200 and board["clock"] is None
        status, _, doc = talk("POST", "/api/desk/clock", {"action": "start", "id": "s-1", "mark": 0}, {"X-Desk-PIN": PIN})
        assert status == 200 and doc["clock"]["running"] is True
        wall.seconds = 90
        status, new_etag, board = talk("GET", "/board.json", headers={"If-None-Match": etag})
        assert status == 200 and new_etag != etag  # a start is news for the TV
        assert board["clock"] == {"minutes": 60, "started_at": "2026-12-01T14:00:00+08:00", "left_s": 3510,
                                  "running": True}
        assert talk("GET", "/board.json", headers={"If-None-Match": new_etag})[0] == 304
    finally:
        built.stop()


def test_the_desk_before_any_draw_is_an_empty_round_and_the_clock_has_nothing_to_time(tmp_path):
    from tests.events import new_event

    folder = new_event(tmp_path / "e", 4)
    with Ledger.open(folder):
        pass
    desk = DeskApi(folder, names=NAMES, port=PORT, pin=PIN, clock=Wall())
    reply = desk.handle(Request("GET", "/api/desk", "127.0.0.1", HEADERS))
    assert reply.status == 200 and reply.document["round"] is None and reply.document["tables"] == []
    body = json.dumps({"action": "start", "id": "s-1", "mark": 0}).encode()
    reply = desk.handle(Request("POST", "/api/desk/clock", "127.0.0.1", HEADERS, body, len(body)))
    assert reply.status == 409


def test_side_letters_of_the_sheet_winner(folder, room):
    """A paper table's winner is said by side, as the table API says it."""
    path = folder / "round-1.xlsx"
    record = simulated(7, folder)
    workbook.fill_round(path, {1: record})
    table = room.table(1)
    assert table["winner"] in (Side.A.value, Side.B.value)


def test_a_redo_of_the_round_being_played_keeps_its_clock_running(tmp_path):
    """`draw --redo 2` while round 2 is played: the tables it keeps go on, and so does the round's hour (the clock is
    the round's, carried to the draw that replaces it, as the kept tables' entries are)."""
    from tests.events import round_one_corrected, second_round_drawn
    from tests.helpers import cli

    folder = second_round_drawn(tmp_path / "event")
    room = Hall(folder)
    room.call("POST", "/api/desk/clock", {"action": "start"})
    room.wall.seconds = 600
    round_one_corrected(folder)
    cli("draw", folder, "--redo", 2)
    room.wall.seconds = 900
    doc = room.get()
    assert doc["round"] == 2
    assert doc["clock"] == {"minutes": 60, "started_at": "2026-12-01T14:00:00+08:00", "left_s": 2700, "running": True}
    tv = BoardSource(folder, log=lambda line: None, settle=0.0)
    tv.current()
    assert tv.clock_json(dt.datetime.fromisoformat(room.wall()))[0] == doc["clock"]
    assert room.call("POST", "/api/desk/clock", {"action": "stop"})[1]["clock"]["running"] is False


def fetch(port: int, path: str, headers: dict | None = None) -> tuple[int, str | None, object]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.getheader("ETag"), json.loads(response.read() or b"null")
    finally:
        conn.close()


def test_the_tv_clock_follows_match_minutes_changed_in_event_toml_while_it_runs(folder):
    """The organiser lengthens the round in event.toml ([rules] match_minutes): the TV shows what the desk and the
    table pages show, at once — not the old minutes until the next entry, and never a 304 for the old ones."""
    wall = Wall()
    built = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0, pin=PIN, clock=wall)
    built.start()
    try:
        headers = {**HEADERS, "host": f"127.0.0.1:{built.port}"}
        body = json.dumps({"action": "start", "id": "s-1", "mark": 0}).encode()
        assert built.desk.handle(Request("POST", "/api/desk/clock", "127.0.0.1", headers, body, len(body))).status == 200
        wall.seconds = 600
        status, etag, board = fetch(built.port, "/board.json")
        assert status == 200 and board["clock"]["left_s"] == 3000
        toml = folder / "event.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace("match_minutes = 60", "match_minutes = 90"),
                        encoding="utf-8")
        status, _, board = fetch(built.port, "/board.json", {"If-None-Match": etag})
        assert status == 200 and board["clock"]["minutes"] == 90 and board["clock"]["left_s"] == 4800
        desk = json.loads(built.desk.handle(Request("GET", "/api/desk", "127.0.0.1", headers)).body())
        assert desk["clock"] == board["clock"]
        toml.write_text(toml.read_text(encoding="utf-8") + "\n[rules\n", encoding="utf-8")  # saved half-typed
        assert fetch(built.port, "/board.json")[2]["clock"]["minutes"] == 90  # the last good reading, as the desk
        desk = json.loads(built.desk.handle(Request("GET", "/api/desk", "127.0.0.1", headers)).body())
        assert desk["clock"]["minutes"] == 90
    finally:
        built.stop()


def test_a_phone_cannot_pass_its_confirmation_off_as_the_desk_s(folder, room):
    """Rule 十七's confirmation for a team is the desk's alone: a phone posting a `reason` with its confirm (anyone who
    has the table's code can) confirms as a team does, and nothing of it enters the desk's log."""
    room.decided(1)
    status, _ = room.phone(1, "confirm", {"side": "B", "reason": "乙方拒绝确认，比赛负责人裁定"})
    assert status == 201 or status == 200
    table = room.table(1)
    assert table["confirmed"] == {"A": False, "B": True} and table["log"] == []
    with sqlite3.connect(folder / DB_NAME) as db:
        bodies = [json.loads(b) for (b,) in db.execute("SELECT body FROM entry WHERE tbl = 1 ORDER BY id")]
    assert bodies[-1]["action"] == "confirm" and "reason" not in bodies[-1]


def test_a_phone_given_up_mid_match_and_the_card_typed_is_paper_not_still_playing(folder, room):
    """The hall guide's fallback: the phone stops after two hands, the referee types the signed card. `score` takes
    the sheet as the record (the phone's match is not over), so the desk says 纸质录入 with the sheet's result —
    not 第3局进行中 for ever, which would also keep `next` from ever appearing."""
    room.hand(2, 1)
    room.hand(2, 2)
    record = simulated(2, folder)
    workbook.fill_round(folder / "round-1.xlsx", {2: record})
    table = room.table(2)
    assert (table["state"], table["label"]) == ("paper", "纸质录入")
    assert table["hands"] == len(record.hands) and table["winner"] in ("A", "B")
    sheet = next(t for t in room.source.board().current.tables if t.table == 2)
    assert table["levels"] == sheet.record.levels.as_json()  # the TV shows them as words (过A), the desk as data


def test_a_confirmed_phone_table_stays_final_on_the_tv_once_its_card_is_typed_too(folder, room):
    """Both teams confirmed on the phone (the TV shows the result as final); then the referee types the signed card
    as usual and it agrees hand by hand: the record is confirmed all the same — never back to 进行中 on the TV."""
    from shuangsheng.table.log import hand_as_json

    record = simulated(1, folder)
    for n, hand in enumerate(record.hands, start=1):
        assert room.phone(1, "hands", {"hand": n, "id": f"h{n}", **hand_as_json(hand)})[0] == 201
    room.phone(1, "end")
    room.phone(1, "confirm", {"side": "A"})
    room.phone(1, "confirm", {"side": "B"})

    def shown() -> tuple[str, bool, str]:
        view = next(t for t in room.source.board().current.tables if t.table == 1)
        return view.status_text, view.final, view.record.source.value

    assert shown()[1:] == (True, "phone")
    workbook.fill_round(folder / "round-1.xlsx", {1: record})
    text, final, source = shown()
    assert (final, source) == (True, "both") and text != "进行中"
    assert room.table(1)["state"] == "confirmed"


def test_a_desk_action_during_a_redo_lands_on_the_draw_in_force(room, folder):
    """`draw --redo` (another process) may replace the round's draw between the desk's look at the round and its
    write: the extra minutes are stored on the table of the draw in force, not under the voided one (answered 200
    while the desk then showed none)."""
    room.desk.meanwhile = meanwhile(("looked", lambda: redone_in_ledger(folder, 1)))
    status, doc = room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌耽误"})
    assert status == 200
    assert room.table(1)["extra_minutes"] == 5


# --- a press sent again is not moved to another pairing or round ---


def redrawn_tables_1_and_2(folder: Path) -> tuple[str, str]:
    """What a `draw --redo 1` that swaps the 乙方 of tables 1 and 2 records (tables 3 and 4 kept, with their codes
    and entries); returns table 1's teams now."""
    from dataclasses import replace

    with Ledger.open(folder) as book, book.atomic():
        old = book.draws()[1]
        p1, p2, *rest = old.round.pairings
        pairings = (replace(p1, b=p2.b), replace(p2, b=p1.b), *rest)
        book.void_draw(old.id, "--redo 1")
        new = book.record_draw(replace(old.round, pairings=pairings), old.names, done=True)
        kept = {t: c for t, c in book.codes(old.id).items() if t > 2}
        book.set_codes(new, kept | {1: "NEWCODE1", 2: "NEWCODE2"})
        book.carry_entries(old.id, new, sorted(kept))
    return p1.a, p2.b


def test_a_table_press_meant_for_the_pairing_before_a_redo_is_409_and_stores_nothing(folder, room):
    """The desk showed table 1 as 第a组 对 第b组 when 加时 was pressed; the answer was lost, `draw --redo 1` changed
    table 1, and the page sends the press again: the minutes are not given to the new pairing."""
    shown = room.table(1)
    teams = [shown["A"]["team"], shown["B"]["team"]]
    assert room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌", "teams": teams})[0] == 200
    now_a, now_b = redrawn_tables_1_and_2(folder)
    status, doc = room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌", "id": "m-7", "teams": teams})
    assert status == 409 and doc["errors"][0]["field"] == "teams"
    assert doc["errors"][0]["message"] == (
        f"第1桌现在是第{now_a}组对第{now_b}组（按的时候是第{teams[0]}组对第{teams[1]}组，本轮重新抽签了），"
        "这次操作没有记录；请看清本桌后再操作")
    assert room.table(1)["extra_minutes"] == 0 and desk_rows(folder, 1)[-1]["id"] != "m-7"
    assert room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌", "teams": [now_a, now_b]})[0] == 200
    assert room.table(1)["extra_minutes"] == 5


def test_a_press_on_a_table_the_redo_kept_is_taken_once_with_its_teams(folder, room):
    """Table 3 is kept by the redo with its entries: the same press sent again is the one already stored (200)."""
    shown = room.table(3)
    press = {"add": 5, "reason": "换牌", "id": "m-3", "teams": [shown["A"]["team"], shown["B"]["team"]]}
    assert room.call("POST", "/api/desk/t/3/minutes", press)[0] == 200
    redrawn_tables_1_and_2(folder)
    status, doc = room.call("POST", "/api/desk/t/3/minutes", press)
    assert status == 200 and doc["tables"][2]["extra_minutes"] == 5


@pytest.mark.parametrize("teams", [["01"], "01-02", [1, 2], ["01", "02", "03"]])
def test_teams_that_are_not_two_team_ids_are_422(folder, room, teams):
    status, doc = room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌", "teams": teams})
    assert status == 422 and doc["errors"][0]["field"] == "teams"
    assert rows(folder, "entry") == 0


def test_a_clock_press_meant_for_the_round_before_is_409_and_stores_nothing(folder, room, monkeypatch):
    """The start of round 1's clock, answered or not, sent again once round 2 is drawn: round 2's clock is not
    started by it (the desk starts it when that round begins)."""
    assert room.call("POST", "/api/desk/clock", {"action": "start", "round": 1})[0] == 200
    monkeypatch.setattr("shuangsheng.hall.desk_api.current_draw", lambda book: replace_round(book.draws()[1], 2))
    status, doc = room.call("POST", "/api/desk/clock", {"action": "stop", "id": "s-9", "round": 1})
    assert status == 409 and doc["errors"][0]["field"] == "round"
    assert doc["errors"][0]["message"] == (
        "现在是第2轮，按的时候是第1轮（已经抽了下一轮），这次计时操作没有记录；请刷新页面后再操作")
    assert rows(folder, "clock") == 1


def replace_round(record: DrawRecord, number: int) -> DrawRecord:
    from dataclasses import replace

    return replace(record, round=replace(record.round, number=number))


@pytest.mark.parametrize("given", ["1", 1.0, True, [1]])
def test_a_clock_round_that_is_not_a_whole_number_is_422(folder, room, given):
    status, doc = room.call("POST", "/api/desk/clock", {"action": "start", "round": given})
    assert status == 422 and doc["errors"][0]["field"] == "round"
    assert rows(folder, "clock") == 0


def test_a_desk_press_whose_text_utf8_cannot_carry_is_400_and_stores_nothing(folder, room):
    raw = b'{"add": 5, "reason": "\\ud800", "id": "m-1", "mark": 0}'
    status, doc = room.call("POST", "/api/desk/t/1/minutes", raw=raw)
    assert status == 400 and "无法识别的字符" in doc["errors"][0]["message"] and rows(folder, "entry") == 0


def test_with_event_db_write_locked_by_another_program_the_desk_and_tv_answer_and_a_press_is_503(folder, room):
    """Another program (a database viewer, a command) holds event.db's write lock: the desk and the TV answer from
    what is committed within 2 s (a reader's close no longer waits to checkpoint); a press waits at most 5 s and is
    503 in Chinese, stored nowhere (the page sends it again with its id)."""
    import sqlite3
    import time

    room.hand(1, 1)
    other = sqlite3.connect(folder / "event.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        status, doc = room.call("GET", "/api/desk")
        assert status == 200 and doc["tables"][0]["hands"] == 1 and time.monotonic() - started < 2
        started = time.monotonic()
        assert room.source.current().views and time.monotonic() - started < 2  # the TV's reading of the folder
        started = time.monotonic()
        status, doc = room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌", "id": "m-1", "mark": 1})
        waited = time.monotonic() - started
        assert status == 503 and "被另一个程序占用" in doc["errors"][0]["message"] and 4 < waited < 8
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert rows(folder, "entry") == 1
    assert room.call("POST", "/api/desk/t/1/minutes", {"add": 5, "reason": "换牌", "id": "m-1", "mark": 1})[0] == 200


def test_a_round_held_under_the_rules_it_was_scored_with_is_shown_so_on_the_phone_and_the_desk(folder, room):
    """One rules_for: a confirmed phone table, round 1 scored, then [rules] dealer_table changed ceil → floor and
    held back by `score` (the change would alter the round). The phone page and the desk show what `score`, the
    checked copy and the TV show — decided 3:2 — not 需加赛 2:2 under the new rules."""
    from dataclasses import replace

    from shuangsheng.game.hands import MatchRecord
    from shuangsheng.storage.names import round_path
    from shuangsheng.usecases.awards import bracket
    from tests.helpers import cli

    assert room.phone(1, "hands", {"hand": 1, "id": "h1", "dealer": "A", "points": 75})[0] == 201  # ceil: +1 level
    assert room.phone(1, "end")[1]["status"] == "decided"
    for side in "AB":
        assert room.phone(1, "confirm", {"side": side})[0] == 200
    paper = {t: MatchRecord(tuple(replace(h, level=None) for h in simulated(t, folder).hands)) for t in (2, 3, 4)}
    workbook.fill_round(round_path(folder, 1), paper)
    cli("score", folder)
    toml = folder / "event.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('dealer_table = "ceil"', 'dealer_table = "floor"'),
                    encoding="utf-8")
    assert "[rules] 在计分之后改过" in cli("score", folder, code=1).output
    status, phone = room.call("GET", f"/api/t/{room.codes[1]}")
    assert status == 200 and (phone["status"], phone["levels"]) == ("decided", {"A": "3", "B": "2"})
    table = room.table(1)
    assert table["state"] == "confirmed" and table["levels"] == {"A": "3", "B": "2"} and table["winner"] == "A"
    chart, state = bracket(folder)
    tv = next(m for m in state.scores()[0].matches if m.match.table == 1)
    assert tv.result.levels.a.label == "3" and tv.result.levels.b.label == "2"
    cli("score", folder, "--accept-rules")  # accepted: every reader takes the new rules
    status, phone = room.call("GET", f"/api/t/{room.codes[1]}")
    assert phone["status"] == "needs_playoff" and phone["levels"] == {"A": "2", "B": "2"}


def test_the_phone_and_the_desk_show_the_same_round_minutes_while_a_round_is_held(folder, room):
    """A round held under the rules it was scored with (here dealer_table) while match_minutes changed too: the
    minutes do not score a round, so the phones, the desk and the TV keep one clock, event.toml's."""
    from dataclasses import replace

    from shuangsheng.game.hands import MatchRecord
    from shuangsheng.storage.names import round_path
    from tests.helpers import cli

    assert room.phone(1, "hands", {"hand": 1, "id": "h1", "dealer": "A", "points": 75})[0] == 201
    assert room.phone(1, "end")[1]["status"] == "decided"
    paper = {t: MatchRecord(tuple(replace(h, level=None) for h in simulated(t, folder).hands)) for t in (2, 3)}
    workbook.fill_round(round_path(folder, 1), paper)  # table 4 still playing
    cli("score", folder)
    toml = folder / "event.toml"
    text = toml.read_text(encoding="utf-8").replace('dealer_table = "ceil"', 'dealer_table = "floor"')
    toml.write_text(text.replace("match_minutes = 60", "match_minutes = 45"), encoding="utf-8")
    assert "[rules] 在计分之后改过" in cli("score", folder, code=1).output  # held back: table 1 would change
    assert room.call("POST", "/api/desk/clock", {"action": "start"})[0] == 200
    desk = room.call("GET", "/api/desk")[1]
    phone = room.call("GET", f"/api/t/{room.codes[4]}")[1]
    assert desk["clock"]["minutes"] == phone["clock"]["minutes"] == 45


def test_a_damaged_entry_row_of_one_table_leaves_the_other_tables_and_the_desk_answering(folder, room, capfd):
    """One entry row of table 1 cannot be read (damaged by another program): table 1 is 有误 at the desk with why,
    its phone gets 503 in plain words, and table 2 and the desk answer as before; no traceback on serve's console."""
    import sqlite3

    room.hand(1, 1)
    room.hand(2, 1)
    with sqlite3.connect(folder / DB_NAME) as db:
        draw_id = db.execute("SELECT MAX(id) FROM draw").fetchone()[0]
        db.execute("INSERT INTO entry (draw, tbl, body, at, address) VALUES (?, ?, ?, ?, ?)",
                   (draw_id, 1, '{"id": "x", "action": "nonsense"}', "2026-12-01T14:00:00+08:00", "1.2.3.4"))
    status, doc = room.call("GET", "/api/desk")
    assert status == 200
    first, second = doc["tables"][0], doc["tables"][1]
    assert first["state"] == "invalid" and "损坏" in first["problem"] and second["state"] == "playing"
    status, phone = room.call("GET", f"/api/t/{room.codes[1]}")
    assert status == 503 and "本桌" in phone["errors"][0]["message"] and "纸质计分卡" in phone["errors"][0]["message"]
    assert room.call("GET", f"/api/t/{room.codes[2]}")[0] == 200
    assert "Traceback" not in capfd.readouterr().err


# --- 更正: a table of an earlier round corrected after the next round was drawn (issue 29) ---


def test_a_phone_table_of_round_1_corrected_after_round_2_was_drawn_runs_to_the_awards(folder):
    from tests.events import fill
    from tests.helpers import cli

    room = Hall(folder)
    room.hand(1, 1, points=35)
    room.hand(1, 2, points=40)  # 甲方 keeps the deal twice: 2 → 5 → 7
    assert room.phone(1, "end")[1]["status"] == "decided"
    for side in "AB":
        assert room.phone(1, "confirm", {"side": side})[0] == 200
    fill(folder, 1, skip=(1,))  # the other tables on paper
    cli("score", folder)
    cli("draw", folder, "--seed", 2)
    fix = {"hand": 1, "id": "fix-1", "dealer": "A", "points": 85}  # in fact 乙方 took the deal at hand 1
    assert room.phone(1, "amend", fix)[0] == 423  # sealed: only the desk opens it again
    code = room.codes[1]
    shown = room.mark("table", code)
    status, doc = room.call("POST", "/api/desk/t/1/reopen", {"round": 1, "reason": "核对纸质计分卡：第1局乙方上台",
                                                             "id": "reopen-1", "mark": shown}, as_is=True)
    assert status == 200, doc
    assert room.call("POST", "/api/desk/t/9/reopen", {"round": 1, "reason": "x"})[0] == 404
    assert room.call("POST", "/api/desk/t/1/reopen", {"round": 3, "reason": "x"})[0] == 404
    assert room.call("POST", "/api/desk/t/1/reopen", {"round": "一", "reason": "x"})[0] == 422
    status, doc = room.phone(1, "amend", fix)
    assert status == 200 and doc["removed"] == [{"hand": 2, "dealer": "A", "points": 40}]
    status, doc = room.phone(1, "hands", {"hand": 2, "id": "again-2", "dealer": "B", "points": 35})
    assert status == 201, doc
    assert room.phone(1, "end")[1]["winner"] == "B"
    for side in "AB":
        assert room.phone(1, "confirm", {"side": side})[0] == 200
    assert room.phone(1, "undo", {"hand": 2})[0] == 423  # confirmed again: locked
    plain = cli("score", folder).output
    assert "第1轮第1桌在上次计分" in plain and f"shuangsheng score {folder} --round 1" in plain
    scored = cli("score", folder, "--round", 1).output
    assert f"shuangsheng draw {folder} --redo 2" in scored
    cli("draw", folder, "--redo", 2)
    fill(folder, 2, seed=3)
    cli("score", folder)
    cli("draw", folder, "--seed", 3)
    fill(folder, 3, seed=4)
    cli("score", folder)
    assert "一等奖" in cli("awards", folder).output


def said(output: str, command: str, option: str = "") -> tuple[str, ...]:
    """The arguments of the first `shuangsheng <command> …` the output names (with `option`, if given): what the
    organiser types next, the folder and its options as printed."""
    import re

    for found in re.finditer(rf"shuangsheng {command} (\S+?)((?: --[a-z-]+(?: \d+)?)*)(?=[\s，。；：、）)]|$)", output):
        if option in found.group(2):
            return (command, found.group(1), *found.group(2).split())
    raise AssertionError(f"names no `shuangsheng {command} … {option}`:\n{output}")


def test_a_phone_table_of_round_1_overruled_by_its_signed_card_after_round_2_was_drawn_runs_to_the_awards(folder):
    """The day's scenario, by the paper: round 1's tables 1 and 2 were entered by phone and confirmed, round 2 is
    drawn — then table 1's signed card shows the phone was wrong (乙方 took the deal at hand 1 and won), and table 2's
    card is lost while both teams agree on its final levels (乙方 won). Each step is what the program's words say:
    the card typed into round-1.xlsx and the 终局 cells filled are refused as disagreeing with the phones, with the
    desk's 以纸质为准 named; the desk rules so for each table (naming round 1); `score` names the rounds to score
    again and `draw --redo 2`; the event then runs to complete awards. The phones' entries stay in event.db."""
    from shuangsheng.game.hands import Hand, MatchRecord
    from shuangsheng.game.levels import START
    from tests.events import fill
    from tests.helpers import cli

    room = Hall(folder)
    for table in (1, 2):
        room.decided(table)  # 甲方 keeps the deal twice, time is up: 甲方 wins on the phone
        for side in "AB":
            assert room.phone(table, "confirm", {"side": side})[0] == 200
    fill(folder, 1, skip=(1, 2))  # the other tables on paper
    cli(*said(cli("score", folder).output, "draw"), "--seed", 2)
    assert room.phone(1, "undo", {"hand": 2})[0] == 423  # sealed

    card = MatchRecord((Hand(Side.A, 85), Hand(Side.B, 35)), START)  # 乙方 took the deal at hand 1: 2 → 5
    workbook.fill_round(folder / "round-1.xlsx", {1: card})
    put_final(folder, 2, "3", "6", "记分卡遗失，双方认可终局")
    refused = cli("score", folder, "--round", 1, code=1).output
    assert "两者不一致" in refused and "对第1轮第1桌按“以纸质为准”" in refused
    assert "请清空终局，或者" in refused and "对这一桌按“以纸质为准”" in refused

    before = {t: desk_rows(folder, t) for t in (1, 2)}
    for table, reason in ((1, "双方签字的计分卡为准，手机第1局录错了庄家"), (2, "计分卡遗失，双方认可终局3比6")):
        shown = room.mark("table", room.codes[table])
        status, doc = room.call("POST", f"/api/desk/t/{table}/paper_rules",
                                {"round": 1, "reason": reason, "id": f"paper-{table}", "mark": shown}, as_is=True)
        assert status == 200, doc
    for table in (1, 2):  # nothing deleted: the phones' rows, then the desk's ruling (a correction of round 1)
        rows_now = desk_rows(folder, table)
        assert rows_now[:-1] == before[table]
        assert (rows_now[-1]["action"], rows_now[-1]["correction"]) == ("paper_rules", True)

    plain = cli("score", folder).output  # round 2 has nothing yet; round 1 changed since it was scored
    assert "第1轮第1、2桌在上次计分" in plain
    scored = cli(*said(plain, "score", "--round"), "--json").output
    matches = {m["table"]: m for m in json.loads(scored)["matches"]}
    assert (matches[1]["source"], matches[1]["winner"], matches[1]["errors"]) == ("paper", matches[1]["B"], [])
    assert matches[1]["paper_rules"]["phone_hands"] == 2 and matches[1]["paper_rules"]["reason"].startswith("双方签字")
    assert (matches[2]["source"], matches[2]["winner"], matches[2]["errors"]) == ("final_only", matches[2]["B"], [])
    assert matches[2]["paper_rules"]["phone_hands"] == 2
    again = cli(*said(plain, "score", "--round")).output
    assert "以纸质计分卡为准" in again and "扫码录分的2局保留在 event.db 里" in again
    cli(*said(again, "draw", "--redo"))
    fill(folder, 2, seed=3)
    cli(*said(cli("score", folder).output, "draw"), "--seed", 3)
    fill(folder, 3, seed=4)
    assert "一等奖" in cli(*said(cli("score", folder).output, "awards")).output
    assert [e["action"] for e in desk_rows(folder, 1)][:3] == ["hand", "hand", "end"]
