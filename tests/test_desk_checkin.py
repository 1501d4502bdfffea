"""报到 at the desk (shuangsheng/hall/desk_checkin.py, docs/table-api.md 报到): `GET /api/desk/checkin` and the presses
`POST /api/desk/checkin`, `…/forfeit`, `…/close`, `…/open`, answered before round 1 is drawn, in-process through
`DeskApi.handle` with an injected clock; each status code of the contract has its test, and round 1 drawn after
them leaves the absent pairs out and lets the reserves in."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path

import pytest

from shuangsheng.hall.desk_api import DeskApi
from shuangsheng.hall.hall import Request
from shuangsheng.knockout.teams import Team
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.names import DB_NAME
from tests.events import new_event
from tests.helpers import cli

PIN = "246810"
HEADERS = {"content-type": "application/json", "host": "127.0.0.1:8000", "x-desk-pin": PIN}
TZ = dt.timezone(dt.timedelta(hours=8))
TEAMS = [*(Team(f"{i:02d}", (f"甲{i}", f"乙{i}"), unit="化学系" if i < 4 else "") for i in range(1, 9)),
         *(Team(f"{i:02d}", (f"甲{i}", f"乙{i}"), reserve=True) for i in (9, 10, 11))]


class Desk:
    """The desk API over a folder where nothing is drawn yet; the PC's time set by the test (8:30 start, late from
    8:40)."""

    def __init__(self, folder: Path) -> None:
        self.at = dt.datetime(2026, 3, 15, 8, 20, tzinfo=TZ)
        self.api = DeskApi(folder, names={"127.0.0.1"}, port=8000, pin=PIN,
                           clock=lambda: self.at.isoformat(timespec="seconds"))
        self.presses = 0

    def call(self, method: str, path: str, body: object = None, *, headers: dict | None = None,
             address: str = "127.0.0.1") -> tuple[int, dict]:
        data = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
        reply = self.api.handle(Request(method, path, address, {**HEADERS, **(headers or {})}, data, len(data)))
        return reply.status, json.loads(reply.body())

    def get(self) -> dict:
        status, doc = self.call("GET", "/api/desk/checkin")
        assert status == 200, doc
        return doc

    def press(self, path: str, body: dict, *, mark: int | None = None) -> tuple[int, dict]:
        """A press as the page sends it: a new id and the mark it shows (the team's, or the check-in's)."""
        doc = self.get()
        if mark is None:
            team = next((t for t in doc["teams"] if t["team"] == body.get("team")), None)
            mark = team["mark"] if team is not None and path != "/api/desk/checkin/close" else doc["mark"]
        self.presses += 1
        return self.call("POST", path, {"id": f"press-{self.presses}", "mark": mark, **body})

    def arrive(self, *teams: str) -> None:
        for team in teams:
            status, doc = self.press("/api/desk/checkin", {"team": team, "arrived": True})
            assert status == 200, doc


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = new_event(tmp_path / "event", TEAMS)
    with Ledger.open(folder):
        pass
    return folder


@pytest.fixture
def desk(folder: Path) -> Desk:
    return Desk(folder)


def test_before_round_1_the_desk_answers_the_check_in_with_every_pair_waiting(desk):
    doc = desk.get()
    assert doc["phase"] == "not_started" and doc["mark"] == 0 and doc["start_time"] == "8:30"
    assert doc["late_at"] == "8:40" and doc["late"] is False and doc["late_minutes"] == 10
    assert [t["team"] for t in doc["teams"]] == [t.id for t in TEAMS]
    assert doc["waiting"] == [f"{i:02d}" for i in range(1, 9)]  # the reserves are not waited for
    assert doc["teams"][8] == {"team": "09", "shown": "09", "players": ["甲9", "乙9"], "unit": "", "reserve": True,
                               "status": "waiting", "at": None, "mark": 0}


def test_a_team_marked_arrived_is_200_with_the_check_in_and_one_row_with_its_time_and_address(folder, desk):
    status, doc = desk.press("/api/desk/checkin", {"team": "3", "arrived": True})
    assert status == 200 and doc["phase"] == "open" and doc["mark"] == 1
    assert doc["teams"][2]["status"] == "arrived" and doc["teams"][2]["at"] == "2026-03-15T08:20:00+08:00"
    assert "03" not in doc["waiting"]
    with sqlite3.connect(folder / DB_NAME) as db:
        assert db.execute("SELECT action, team, at, address FROM checkin").fetchall() == [
            ("arrive", "03", "2026-03-15T08:20:00+08:00", "127.0.0.1")]


def test_the_same_press_sent_again_is_stored_once_and_its_id_for_another_press_is_409(folder, desk):
    body = {"team": "01", "arrived": True, "id": "same", "mark": 0}
    assert desk.call("POST", "/api/desk/checkin", body)[0] == 200
    assert desk.call("POST", "/api/desk/checkin", body)[0] == 200  # its answer was lost: sent again
    status, doc = desk.call("POST", "/api/desk/checkin", {**body, "team": "02"})
    assert status == 409 and doc["errors"][0]["field"] == "id"
    assert desk.get()["mark"] == 1


def test_undo_needs_a_reason_400_and_with_one_the_team_waits_again(desk):
    desk.arrive("05")
    status, doc = desk.press("/api/desk/checkin", {"team": "05", "arrived": False})
    assert status == 400 and doc["errors"][0]["field"] == "reason" and "撤销报到须写明原因" in doc["errors"][0]["message"]
    status, doc = desk.press("/api/desk/checkin", {"team": "05", "arrived": False, "reason": "点错了组"})
    assert status == 200 and doc["teams"][4]["status"] == "waiting"
    assert doc["log"][-1] == {"action": "undo", "team": "05", "time": "2026-03-15T08:20:00+08:00",
                              "address": "127.0.0.1", "reason": "点错了组"}


def test_a_team_not_in_teams_xlsx_is_404(desk):
    status, doc = desk.press("/api/desk/checkin", {"team": "42", "arrived": True})
    assert status == 404 and "报名表里没有第42组" in doc["errors"][0]["message"]


@pytest.mark.parametrize("body", [{"team": "01", "arrived": "是"}, {"arrived": True}, {"team": "01"}])
def test_a_press_that_is_not_one_is_422(desk, body):
    assert desk.press("/api/desk/checkin", body)[0] == 422


@pytest.mark.parametrize("missing", ["id", "mark"])
def test_a_press_without_its_id_or_mark_is_422(desk, missing):
    body = {"team": "01", "arrived": True, "id": "x", "mark": 0}
    del body[missing]
    status, doc = desk.call("POST", "/api/desk/checkin", body)
    assert status == 422 and doc["errors"][0]["field"] == missing


def test_a_press_on_an_old_mark_of_its_team_is_409_and_stores_nothing(desk):
    desk.arrive("01")
    status, doc = desk.press("/api/desk/checkin", {"team": "01", "arrived": False, "reason": "x"}, mark=0)
    assert status == 409 and doc["errors"][0]["field"] == "mark" and desk.get()["mark"] == 1


def test_forfeit_is_409_before_the_late_time_and_200_from_it(desk):
    desk.arrive("01")
    status, doc = desk.press("/api/desk/checkin/forfeit", {"team": "02"})
    assert status == 409 and "8:40（开始时间 8:30 后 10 分钟）以后才能判弃权" in doc["errors"][0]["message"]
    desk.at = desk.at.replace(minute=40)
    doc = desk.get()
    assert doc["late"] is True
    status, doc = desk.press("/api/desk/checkin/forfeit", {"team": "02"})
    assert status == 200 and doc["teams"][1]["status"] == "forfeit" and "02" not in doc["waiting"]


def test_close_is_409_while_pairs_wait_then_200_and_round_1_is_drawn_from_who_came(folder, desk):
    assert desk.press("/api/desk/checkin/close", {})[0] == 409  # nobody has arrived
    desk.arrive("01", "02", "03", "04", "05", "06", "11", "10")
    status, doc = desk.press("/api/desk/checkin/close", {})
    assert status == 409 and "还有2组没有报到：第07组、第08组" in doc["errors"][0]["message"]
    desk.at = desk.at.replace(minute=45)
    for team in ("07", "08"):
        assert desk.press("/api/desk/checkin/forfeit", {"team": team})[0] == 200
    status, doc = desk.press("/api/desk/checkin/close", {})
    assert status == 200 and doc["phase"] == "closed"
    assert doc["field"] == {"pool": ["01", "02", "03", "04", "05", "06", "10", "11"], "absent": ["07", "08"],
                            "reserves_in": ["10", "11"], "reserves_left": []}
    assert desk.press("/api/desk/checkin", {"team": "09", "arrived": True})[0] == 409  # closed
    assert desk.press("/api/desk/checkin/open", {})[0] == 400  # opened again only with a reason

    out = cli("draw", folder, "--seed", 5).output
    assert "弃权（未报到）：第07组（甲7、乙7）、第08组（甲8、乙8）" in out
    assert "候补补入：第10组（甲10、乙10）、第11组（甲11、乙11）" in out and "候补组（不参加抽签）：第09组" in out
    with Ledger.open(folder) as book:
        record = book.draws()[1]
    assert record.round.pool == ("01", "02", "03", "04", "05", "06", "10", "11")
    assert record.field is not None and record.field.absent == ("07", "08")
    assert record.field.reserves_in == ("10", "11")
    assert "对阵与记录一致" in cli("draw", folder, "--check", 1).output

    status, doc = desk.press("/api/desk/checkin", {"team": "09", "arrived": True})
    assert status == 409 and "第1轮已经抽签，报到已经结束" in doc["errors"][0]["message"]
    assert desk.get()["phase"] == "drawn"


def test_the_desk_s_refusals_come_first_401_403_405_415_413(desk):
    assert desk.call("GET", "/api/desk/checkin", headers={"x-desk-pin": ""})[0] == 401
    assert desk.call("GET", "/api/desk/checkin", address="192.168.1.40")[0] == 403
    assert desk.call("PUT", "/api/desk/checkin")[0] == 405
    assert desk.call("GET", "/api/desk/checkin/close")[0] == 405
    assert desk.call("POST", "/api/desk/checkin", {"team": "01"}, headers={"content-type": "text/plain"})[0] == 415
    big = {"team": "01", "arrived": True, "id": "x", "mark": 0, "reason": "长" * 20000}
    assert desk.call("POST", "/api/desk/checkin", big)[0] == 413
    assert desk.get()["mark"] == 0
