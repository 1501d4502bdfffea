"""The ledger is never lost without a word (docs/ledger.md): `serve` answers nothing it cannot keep (503) on an
event.db deleted, emptied or replaced by junk where rounds were drawn, or once it is deleted, emptied or replaced
under it."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from display import hall
from display.hall import Request, TableApi, Throttle
from scoring.ledger import DB_NAME, Ledger
from tests.events import second_round_drawn
from tests.helpers import digests

NAMES = {"127.0.0.1", "localhost"}
PORT = 8000
JSON = {"content-type": "application/json", "host": f"127.0.0.1:{PORT}"}
PIN = "246810"
LOSSES = {"deleted": "不见了", "emptied": "是空的（0 字节）", "junk": "已损坏"}


def lose(folder: Path, how: str) -> None:
    """event.db deleted, cut to 0 bytes, or replaced by a file that is not SQLite (as a stray copy or a bad disk)."""
    db = folder / DB_NAME
    if how == "deleted":
        db.unlink()
    elif how == "emptied":
        db.write_bytes(b"")
    else:
        db.write_bytes(b"\x00not a ledger\xff" * 300)


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> Path:
    """An 8-team event: round 1 typed and scored, round 2 drawn (its 计分卡 printed with its codes), untouched."""
    return second_round_drawn(tmp_path_factory.mktemp("lost") / "event")


@pytest.fixture
def event(drawn: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "活动"
    shutil.copytree(drawn, folder)
    return folder


def codes_of(folder: Path, number: int) -> dict[int, str]:
    with Ledger.open(folder) as book:
        return book.codes(book.draws()[number].id)


def untouched(folder: Path) -> dict[str, str]:
    """Every file but the lock's own bookkeeping (a command that waits for the folder leaves the lock file)."""
    return {name: sha for name, sha in digests(folder).items() if not name.startswith(".shuangsheng.lock")}


# --- serve: refuses to start on a lost ledger; answers nothing it cannot keep once event.db is lost under it ---


def call(api, method: str, path: str, body: object = None, headers: dict | None = None, address: str = "192.168.1.31"):
    data = b"" if body is None else json.dumps(body, ensure_ascii=False).encode()
    reply = api.handle(Request(method, path, address, {**JSON, **(headers or {})}, data, len(data)))
    return reply.status, json.loads(reply.body())


def get(api: TableApi, code: str):
    return call(api, "GET", f"/api/t/{code}")


def hand(n: int) -> dict:
    """Hand n of a table as its page sends it: its id, and the mark of the table it was made on (n - 1 entries)."""
    return {"hand": n, "id": f"phone-{n}", "mark": n - 1, "dealer": "A" if n % 2 else "B", "points": 80}


@pytest.fixture
def served(event: Path):
    """The hall on `event` (round 2 being played), in this process without serving; the console's lines."""
    lines: list[str] = []
    built = hall.make_hall(event, ["127.0.0.1"], 0, log=lines.append, settle=0.0, pin=PIN)
    yield built, lines
    for httpd in built.servers:
        httpd.server_close()
    built.api.close()


def only_lost(status: int, doc: dict) -> None:
    assert status == 503 and len(doc["errors"]) == 1
    assert "event.db" in doc["errors"][0]["message"] and "没有记下" in doc["errors"][0]["message"]


@pytest.mark.parametrize("how", list(LOSSES))
def test_the_table_api_on_a_lost_ledger_is_503_never_a_wrong_code(event: Path, how: str) -> None:
    codes = codes_of(event, 2)
    lose(event, how)
    before = untouched(event)
    api = TableApi(event, names=NAMES, port=PORT, throttle=Throttle(lambda: 0.0))
    try:
        only_lost(*get(api, codes[1]))
        only_lost(*call(api, "POST", f"/api/t/{codes[1]}/hands", hand(1)))
    finally:
        api.close()
    assert untouched(event) == before  # nothing built in its place


@pytest.mark.parametrize("how", ["emptied", "deleted", "replaced"])
def test_event_db_lost_while_serving_the_next_hand_is_503_and_nothing_is_answered_201(event: Path, served,
                                                                                     how: str) -> None:
    built, lines = served
    codes = codes_of(event, 2)
    desk = {"x-desk-pin": PIN, "host": f"127.0.0.1:{built.port}"}
    host = {"host": f"127.0.0.1:{built.port}"}
    assert call(built.api, "POST", f"/api/t/{codes[1]}/hands", hand(1), host)[0] == 201
    status, shown = call(built.desk, "GET", "/api/desk", None, desk, "127.0.0.1")
    assert status == 200
    if how == "replaced":  # a whole copy put in its place (a backup restored under the running server)
        copy = event / "copy.db"
        with sqlite3.connect(event / DB_NAME) as source, sqlite3.connect(copy) as target:
            source.backup(target)
        source.close()
        target.close()
        copy.replace(event / DB_NAME)
    else:
        lose(event, how)
    answers = [call(built.api, "POST", f"/api/t/{codes[1]}/hands", hand(2), host),
               call(built.api, "POST", f"/api/t/{codes[2]}/hands", hand(1), host),
               call(built.api, "GET", f"/api/t/{codes[1]}", None, host)]
    for status, doc in answers:
        only_lost(status, doc)
    press = {"action": "start", "id": "desk-1", "mark": shown["clock_mark"]}
    status, doc = call(built.desk, "POST", "/api/desk/clock", press, desk, "127.0.0.1")
    assert status == 503 and len(doc["errors"]) == 1 and f"{event / DB_NAME}：" in doc["errors"][0]["message"]
    assert "请关掉 serve" in doc["errors"][0]["message"]
    assert call(built.desk, "GET", "/api/desk", None, desk, "127.0.0.1")[0] == 503
    assert len([line for line in lines if "serve 运行时" in line]) == 1  # the console is told, once
    if how == "replaced":  # the copy holds what was answered, and nothing that was refused
        built.api.close()
        with Ledger.open(event) as book:
            assert [e.hand for e in book.table_entries(book.draws()[2].id, 1)] == [1]
            assert book.table_entries(book.draws()[2].id, 2) == () and book.clock_rows(book.draws()[2].id) == ()
