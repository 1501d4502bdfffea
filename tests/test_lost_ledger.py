"""The ledger is never lost without a word (docs/ledger.md): event.db deleted, emptied to 0 bytes or replaced by junk
where rounds were drawn is refused by every command and by `serve`, naming what was lost and what to do; the advice
works (`shuangsheng rebuild`, then the event goes on); `serve` answers nothing it cannot keep (503) once event.db is
deleted, emptied or replaced under it; an old folder (its JSON bookkeeping, or nothing drawn) is migrated as before."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sqlite3
from pathlib import Path

import pytest

from shuangsheng.hall import hall
from shuangsheng.hall.hall import Request, TableApi, Throttle
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.generated import write_generated
from shuangsheng.storage.names import DB_NAME, LEGACY_RECORD, rounds_drawn
from shuangsheng.table.codes import format_code
from tests.events import fill, new_event, second_round_drawn
from tests.helpers import cli, digests
from tests.pdfcheck import text_of

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


def said_lost(output: str, folder: Path, how: str) -> None:
    """The one message of a lost ledger: which file, what was lost, the two ways on."""
    assert f"{folder / DB_NAME}：{LOSSES[how]}" in output
    assert "已经抽过签（有 round-1.xlsx、round-2.xlsx" in output
    assert "计分卡上印的录分码" in output and "手机录入的各局" in output and "抽签的记录" in output
    assert "把 event.db 的副本放回这个文件夹" in output and f"shuangsheng rebuild {folder}" in output
    assert output.count(f"{folder / DB_NAME}：") == 1


# --- every command refuses, with one message, and changes nothing ---


COMMANDS = [["score"], ["draw"], ["awards"], ["bracket"], ["materials"], ["show"], ["show", "--export", "大屏.html"],
            ["serve"]]


@pytest.mark.parametrize("how", list(LOSSES))
def test_every_command_refuses_a_lost_ledger_naming_what_was_lost_and_what_to_do(event: Path, how: str) -> None:
    lose(event, how)
    before = untouched(event)
    for command, *options in COMMANDS:
        result = cli(command, event, *options, code=1)
        said_lost(result.output, event, how)
        assert untouched(event) == before, command  # nothing set aside, rebuilt, written or created


@pytest.mark.parametrize("how", list(LOSSES))
def test_the_advice_works_rebuild_then_score_and_draw_go_on(event: Path, how: str) -> None:
    """The command the refusal names, run exactly as it is written, gets the event going again."""
    lose(event, how)
    refused = cli("score", event, code=1).output
    named = re.search(r"运行 (shuangsheng rebuild \S+)：", refused)
    assert named is not None
    rebuilt = cli(*shlex.split(named.group(1))[1:])
    assert "已按活动文件夹里的文件重建比赛记录" in rebuilt.output and "手机录入的各局随原来的记录一起丢失" in rebuilt.output
    fill(event, 2, seed=5)
    scored = cli("score", event)
    assert "改动过" not in scored.output and "event.db" not in scored.output
    drawn = cli("draw", event, "--seed", 3)
    assert "改动过" not in drawn.output
    assert (event / "round-3.xlsx").exists() and sorted(codes_of(event, 3)) == [1]


def test_rebuild_end_to_end_new_codes_on_the_cards_and_the_old_ones_dead(event: Path) -> None:
    old = codes_of(event, 2)
    cards = event / "第2轮计分卡.pdf"
    assert all(format_code(c) in text_of(cards.read_bytes()) for c in old.values())
    lose(event, "junk")
    junk = (event / DB_NAME).read_bytes()
    result = cli("rebuild", event)
    new = codes_of(event, 2)
    assert sorted(new) == sorted(old) and not set(new.values()) & set(old.values())
    assert set(codes_of(event, 1).values()).isdisjoint(old.values())  # round 1's tables have codes again, new ones
    text = text_of(cards.read_bytes())
    assert all(format_code(c) in text for c in new.values()) and not any(format_code(c) in text for c in old.values())
    aside = list(event.glob("event.损坏-*.db"))
    assert len(aside) == 1 and aside[0].read_bytes() == junk  # the junk kept, under another name
    assert f"已改名为 {aside[0].name} 保留" in result.output
    assert f"已重新生成 {cards}" in result.output and "旧计分卡" in result.output and "录入记分表" in result.output
    api = TableApi(event, names=NAMES, port=PORT, throttle=Throttle(lambda: 0.0))
    try:
        assert get(api, old[1])[0] == 404
        status, doc = get(api, new[1])
        assert status == 200 and (doc["round"], doc["table"]) == (2, 1)
    finally:
        api.close()
    fill(event, 2, seed=5)
    cli("score", event)
    cli("draw", event, "--seed", 3)
    assert rounds_drawn(event) == 3


def test_rebuild_prints_the_rounds_qr_sheet_again_at_the_address_it_carried(event: Path) -> None:
    from shuangsheng.usecases.papers.qr_sheet import render_qr_sheet

    with Ledger.open(event) as book:
        record = book.draws()[2]
        old = book.codes(record.id)
    path, data = render_qr_sheet(event, record.round, old, "http://192.168.1.5:8080")
    write_generated(path, data, force=False)  # as `serve --lan` wrote it
    lose(event, "deleted")
    result = cli("rebuild", event)
    new = codes_of(event, 2)
    text = text_of(path.read_bytes())
    assert all(f"http://192.168.1.5:8080/t/{c}" in text for c in new.values())
    assert not any(c in text for c in old.values())
    assert f"已重新生成 {path}（新的二维码）" in result.output


def test_a_qr_sheet_without_an_address_is_removed_not_left_with_dead_codes(event: Path) -> None:
    sheet = event / "第2轮扫码单.pdf"
    sheet.write_bytes(b"%PDF-1.4 not a sheet this program can read back")
    lose(event, "emptied")
    result = cli("rebuild", event)
    assert not sheet.exists() and f"已删除 {sheet}" in result.output and "serve --lan" in result.output


def test_rebuild_on_a_whole_ledger_changes_nothing(event: Path) -> None:
    before = untouched(event)
    result = cli("rebuild", event)
    assert "完好，不需要重建" in result.output
    assert untouched(event) == before


def test_rebuild_without_the_round_workbooks_refuses_and_changes_nothing(event: Path) -> None:
    for path in event.glob("round-*.xlsx"):
        path.unlink()
    lose(event, "deleted")
    before = untouched(event)
    result = cli("rebuild", event, code=1)
    assert "找不到 round-1.xlsx" in result.output and "放回这个文件夹" in result.output
    assert untouched(event) == before and not (event / DB_NAME).exists()


def test_a_rebuild_whose_cards_could_not_be_printed_is_completed_by_running_it_again(event: Path,
                                                                                    monkeypatch) -> None:
    cards = event / "第2轮计分卡.pdf"
    real = os.replace

    def held_open(src, dst):  # on Windows: the old cards open in a PDF reader
        if Path(dst) == cards:
            raise PermissionError(13, "Permission denied")
        real(src, dst)

    lose(event, "deleted")
    monkeypatch.setattr(os, "replace", held_open)
    stopped = cli("rebuild", event, code=1)
    monkeypatch.setattr(os, "replace", real)
    assert "没有重新生成" in stopped.output and "PDF 阅读器 中关闭该文件" in stopped.output
    assert f"再运行 shuangsheng rebuild {event}" in stopped.output
    codes = codes_of(event, 2)
    again = cli("rebuild", event)
    assert f"已重新生成 {cards}" in again.output and codes_of(event, 2) == codes
    assert all(format_code(c) in text_of(cards.read_bytes()) for c in codes.values())
    assert "完好，不需要重建" in cli("rebuild", event).output


# --- an old folder is given a ledger as before ---


def test_an_event_db_deleted_before_the_first_draw_is_made_again_without_a_word(tmp_path: Path) -> None:
    folder = new_event(tmp_path / "活动", 4)
    cli("materials", folder)
    (folder / DB_NAME).unlink()
    result = cli("draw", folder, "--seed", 1)
    assert "event.db" not in result.output and (folder / DB_NAME).exists()


def test_a_folder_from_before_event_db_with_rounds_drawn_is_migrated_as_before(event: Path) -> None:
    (event / DB_NAME).unlink()
    (event / LEGACY_RECORD).write_text(json.dumps({}), encoding="utf-8")
    result = cli("score", event, "--round", 1)
    assert "event.db" not in result.output and not (event / LEGACY_RECORD).exists()
    with Ledger.open(event) as book:
        assert sorted(book.draws()) == [1, 2]


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


@pytest.mark.parametrize("how", ["emptied", "deleted", "replaced", "junk"])
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
        again = TableApi(event, names=NAMES, port=PORT, throttle=Throttle(lambda: 0.0))  # serve started again
        try:  # as the console said: the copy put in place is served, and the phone's resent hand is kept
            assert call(again, "POST", f"/api/t/{codes[1]}/hands", hand(2))[0] == 201
        finally:
            again.close()


def test_docs_quote_the_refusal_and_the_command_as_they_are(event: Path) -> None:
    from tests.helpers import ROOT

    guide = (ROOT / "docs" / "ledger.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lose(event, "deleted")
    refused = cli("draw", event, code=1).output
    for words in ("：不见了，而这个活动已经抽过签（有 round-1.xlsx、round-2.xlsx",
                  "请把 event.db 的副本放回这个文件夹（从备份，或从之前复制的活动文件夹里拷回），再运行原来的命令；",
                  "没有副本时运行 shuangsheng rebuild "):
        assert words in refused and words.replace(str(event), "活动") in guide, words
    assert "| `shuangsheng rebuild DIR` |" in readme and "    shuangsheng rebuild 活动\n" in guide
    assert "录分码不对或已作废" in guide and hall.WRONG_CODE.startswith("录分码不对或已作废")


def test_a_backup_copied_over_event_db_in_place_while_serving_is_refused_and_nothing_answered_201(tmp_path):
    """`cp backup.db event.db` keeps the file (the same inode) and its header: the phones' three hands since the
    backup would vanish without a word. The entries are only ever added, so a file whose last entry is older than
    one this server has seen is another file: 503, nothing stored."""
    from tests.events import draw, start_event
    from tests.helpers import page_body
    from tests.test_hall import JSON, Clock, hand

    folder = tmp_path / "event"
    draw(folder, start_event(folder, teams=8))
    with Ledger.open(folder) as book:
        codes = book.codes(book.draws()[1].id)
    api = TableApi(folder, names={"127.0.0.1"}, port=8000, throttle=Throttle(Clock()),
                   clock=lambda: "2026-03-10T09:00:00+08:00")

    def post(code: str, n: int) -> int:
        get = api.handle(Request("GET", f"/api/t/{code}", "192.168.1.31", JSON, b"", 0))
        body = json.dumps(page_body(f"/api/t/{code}/hands", hand(n), lambda *_: get.document.get("mark", 0))).encode()
        return api.handle(Request("POST", f"/api/t/{code}/hands", "192.168.1.31", JSON, body, len(body))).status

    backup = tmp_path / "backup.db"
    with sqlite3.connect(folder / DB_NAME) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copyfile(folder / DB_NAME, backup)
    assert [post(codes[1], n) for n in (1, 2, 3)] == [201, 201, 201]
    with sqlite3.connect(folder / DB_NAME) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    inode = (folder / DB_NAME).stat().st_ino
    shutil.copyfile(backup, folder / DB_NAME)  # restored under the running server, as cp does it
    assert (folder / DB_NAME).stat().st_ino == inode
    assert [post(codes[2], 1), post(codes[1], 4)] == [503, 503]
    api.close()


KILLED_SERVE = r'''
import json, os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA wal_autocheckpoint = 0")
draw = c.execute("SELECT MAX(id) FROM draw").fetchone()[0]
for i in range(300):
    body = json.dumps({"id": f"p{i}", "action": "hand", "time": "2026-12-01T14:00:00+08:00",
                       "address": "1.2.3.4", "hand": i // 4 + 1, "record": {"dealer": "A", "points": 40}})
    c.execute("INSERT INTO entry (draw, tbl, body, at, address) VALUES (?, ?, ?, ?, ?)",
              (draw, 1 + i % 4, body, "2026-12-01T14:00:00+08:00", "1.2.3.4"))
    if i == 150:
        c.execute("PRAGMA wal_checkpoint(PASSIVE)")
os._exit(0)  # killed: no checkpoint, event.db-wal left behind
'''


def test_putting_back_a_copy_beside_a_killed_serve_s_log_follows_the_advice_without_spoiling_the_copy(tmp_path):
    """serve killed (its window closed) leaves its last commits in event.db-wal; event.db is then lost. The refusal
    sets that log aside and says so, and the documented way on — put the copy back, run the command again — works:
    the copy is not spoilt by a log that is not its own."""
    import subprocess
    import sys

    from tests.events import draw, start_event

    folder = tmp_path / "event"
    draw(folder, start_event(folder, teams=8))
    shutil.copyfile(folder / DB_NAME, tmp_path / "copy.db")  # the copy on a stick
    subprocess.run([sys.executable, "-c", KILLED_SERVE, str(folder / DB_NAME)], check=True)
    assert (folder / f"{DB_NAME}-wal").exists()
    (folder / DB_NAME).unlink()  # lost
    refused = cli("score", folder, code=1).output
    assert "不见了" in refused and "event.db-wal 是丢失的 event.db 的日志" in refused.replace("\n", "")
    assert not (folder / f"{DB_NAME}-wal").exists() and list(folder.glob("event.损坏-*.db-wal"))
    shutil.copyfile(tmp_path / "copy.db", folder / DB_NAME)  # the advice: put the copy back, run it again
    cli("score", folder, code=0)
    with sqlite3.connect(folder / DB_NAME) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
