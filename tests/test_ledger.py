"""event.db: the schema and its migrations, the files the program wrote, the log, the journal mode by file system,
and one command at a time per folder."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from shuangsheng.knockout.apart import NOTHING_APART, Apart
from shuangsheng.storage.ledger import disk
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.disk import filesystem_type
from shuangsheng.storage.ledger.lock import FolderBusy, clean_temporary, exclusive
from shuangsheng.storage.ledger.lost import LedgerError, LedgerLost
from shuangsheng.storage.ledger.queries import DrawReplaced
from shuangsheng.storage.ledger.records import fingerprint_of
from shuangsheng.storage.ledger.schema import MIGRATIONS, SCHEMA_VERSION
from shuangsheng.storage.names import DB_NAME, HOLDER_NAME, LEGACY_RECORD, LOCK_NAME
from shuangsheng.table.clock import ClockAction, ClockRow
from tests.helpers import on


def test_a_new_folder_gets_the_current_schema(tmp_path: Path) -> None:
    with Ledger.open(tmp_path):
        pass
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert {"file", "log"} <= {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def older_ledger(folder: Path, version: int) -> sqlite3.Connection:
    """An event.db as version `version` of the program left it (its migrations only), holding one draw of round 1;
    open, for the test to add its rows and commit."""
    db = sqlite3.connect(folder / DB_NAME)
    for step in MIGRATIONS[:version]:
        db.executescript(step)
    db.execute(f"PRAGMA user_version = {version}")
    db.execute("INSERT INTO draw (round, lots, pool, pairings, byes, names, at, command) "
               "VALUES (1, '[]', '[\"01\", \"02\"]', '[[1, \"01\", \"02\", false]]', '[]', '{}', 't', 'c')")
    return db


def test_a_ledger_at_version_2_gains_the_clock_table_and_keeps_its_entries(tmp_path: Path) -> None:
    """Migration 3 only adds the round clock's table: an event.db of the table-side entry version is upgraded in
    place, its rows as they were."""
    db = older_ledger(tmp_path, 2)
    db.execute("INSERT INTO entry (draw, tbl, body, at, address) VALUES (1, 1, ?, 't', 'a')",
               (json.dumps({"id": "x", "action": "end", "time": "t", "address": "a"}),))
    db.commit()
    db.close()
    with Ledger.open(tmp_path) as book:
        assert [e.action.value for e in book.table_entries(1, 1)] == ["end"]
        assert book.clock_rows(1) == ()
        book.add_clock(1, ClockRow(ClockAction.START, "2026-12-01T14:00:00+08:00", "127.0.0.1"))
        assert [r.action.value for r in book.clock_rows(1)] == ["start"]
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_a_ledger_at_version_3_gains_the_clock_rows_ids_and_keeps_its_rows(tmp_path: Path) -> None:
    """Migration 4 only adds the desk's id of a clock row (a press made again adds nothing): the rows of a version-3
    event.db are kept as they were, with no id."""
    db = older_ledger(tmp_path, 3)
    db.execute("INSERT INTO clock (draw, action, at, address) VALUES (1, 'start', '2026-12-01T14:00:00+08:00', 'a')")
    db.commit()
    db.close()
    start = ClockRow(ClockAction.START, "2026-12-01T14:00:00+08:00", "a")
    stop = ClockRow(ClockAction.STOP, "2026-12-01T14:10:00+08:00", "127.0.0.1", "press-1")
    with Ledger.open(tmp_path) as book:
        assert book.clock_rows(1) == (start,)
        book.add_clock(1, stop)
        assert book.clock_rows(1) == (start, stop)
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_a_ledger_at_version_4_gains_what_each_draw_kept_apart(tmp_path: Path) -> None:
    """Migration 5 adds the units and seeds a draw kept apart: a draw recorded before kept nothing apart, and a new
    one records and reads back its own."""
    older_ledger(tmp_path, 4).commit()
    apart = Apart(units=(("01", "化学系"), ("02", "化学系")), seeds=(("02", 1),))
    with Ledger.open(tmp_path) as book:
        old = book.draws()[1]
        assert old.round.pool == ("01", "02") and old.apart == NOTHING_APART and not old.apart
        book.record_draw(old.round, {}, apart=apart)
        assert book.draws()[1].apart == apart
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 5
    db.close()


def test_two_programs_migrating_an_old_ledger_at_once_upgrade_it_once(tmp_path: Path) -> None:
    """Two processes open an event.db of version 3 at once (`score` while `serve` starts): the second reads the old
    version, the first migrates meanwhile, and the second migrates what it finds in its own write transaction —
    nothing run twice (ALTER TABLE … ADD COLUMN again would fail), the rows kept."""
    db = older_ledger(tmp_path, 3)
    db.execute("INSERT INTO clock (draw, action, at, address) VALUES (1, 'start', '2026-12-01T14:00:00+08:00', 'a')")
    db.commit()
    db.close()

    def other_program() -> None:
        with Ledger.open(tmp_path):
            pass

    second = Ledger(sqlite3.connect(tmp_path / DB_NAME, isolation_level=None), tmp_path)
    try:
        second.migrate(meanwhile=other_program)
        assert not second.created
        assert [r.action.value for r in second.clock_rows(1)] == ["start"]
    finally:
        second.close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_a_newer_program_migrating_meanwhile_is_refused_as_a_newer_ledger(tmp_path: Path) -> None:
    older_ledger(tmp_path, 3).commit()

    def newer_program() -> None:
        with sqlite3.connect(tmp_path / DB_NAME) as other:
            other.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")

    book = Ledger(sqlite3.connect(tmp_path / DB_NAME, isolation_level=None), tmp_path)
    try:
        with pytest.raises(LedgerError, match="更新版本"):
            book.migrate(meanwhile=newer_program)
    finally:
        book.close()


def test_a_ledger_from_a_newer_program_is_refused(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(LedgerError, match="更新版本"):
        Ledger.open(tmp_path)


@pytest.mark.parametrize("damage", [b"not a database" * 100, b"SQLite format 3\x00" + b"\xff" * 200])
def test_a_damaged_ledger_is_set_aside_and_rebuilt_from_the_files_while_nothing_was_drawn(tmp_path: Path,
                                                                                         damage: bytes) -> None:
    (tmp_path / DB_NAME).write_bytes(damage)
    (tmp_path / "通知.pdf").write_bytes(b"%PDF ours")  # `materials` only: no round drawn, nothing of a draw lost
    with Ledger.open(tmp_path) as book:
        assert book.created and book.is_ours(tmp_path / "通知.pdf")
        assert "已损坏" in book.notes[0] and DB_NAME in book.notes[0]
    aside = [p for p in tmp_path.iterdir() if "损坏" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == damage


LOST_LEDGERS = {
    "missing": None,
    "empty": b"",
    "junk": b"not a database" * 100,
    "damaged": b"SQLite format 3\x00" + b"\xff" * 200,  # SQLite's header, then nothing it can read
    "blank": "sqlite",  # an SQLite database with nothing of ours in it
}


def _lose(folder: Path, how: str) -> None:
    content = LOST_LEDGERS[how]
    if content == "sqlite":
        sqlite3.connect(folder / DB_NAME).execute("CREATE TABLE other (x)").connection.close()
    elif content is not None:
        (folder / DB_NAME).write_bytes(content)


@pytest.mark.parametrize("how", list(LOST_LEDGERS))
@pytest.mark.parametrize("sign", ["round-1.xlsx", "第1轮计分卡.pdf"])
def test_a_ledger_lost_where_a_round_was_drawn_is_refused_and_nothing_is_made(tmp_path: Path, how: str,
                                                                             sign: str) -> None:
    _lose(tmp_path, how)
    (tmp_path / sign).write_bytes(b"drawn")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(LedgerLost) as lost:
        Ledger.open(tmp_path)
    text = str(lost.value)
    assert f"{tmp_path / DB_NAME}：" in text and sign in text and "已经抽过签" in text
    assert "录分码" in text and "手机录入的各局" in text and f"shuangsheng rebuild {tmp_path}" in text
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing set aside, nothing created
    assert Ledger.existing(tmp_path) is None and Ledger.readable(tmp_path) is None
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


@pytest.mark.parametrize("how", ["missing", "empty", "junk"])
def test_an_old_folder_with_its_json_bookkeeping_is_still_given_a_ledger(tmp_path: Path, how: str) -> None:
    _lose(tmp_path, how)
    (tmp_path / "round-1.xlsx").write_bytes(b"drawn")
    (tmp_path / LEGACY_RECORD).write_text("{}", encoding="utf-8")
    with Ledger.open(tmp_path) as book:
        assert book.created
    assert not (tmp_path / LEGACY_RECORD).exists()


def test_rebuilt_sets_the_lost_file_and_its_log_aside_and_builds_a_new_one(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).write_bytes(b"junk")
    (tmp_path / f"{DB_NAME}-wal").write_bytes(b"a log left behind")
    (tmp_path / f"{DB_NAME}-shm").write_bytes(b"index")
    (tmp_path / "第1轮计分卡.pdf").write_bytes(b"%PDF cards")
    book, aside = Ledger.rebuilt(tmp_path)
    with book:
        assert book.created and book.is_ours(tmp_path / "第1轮计分卡.pdf")
    assert aside is not None and aside.read_bytes() == b"junk" and "损坏" in aside.name
    assert Path(f"{aside}-wal").read_bytes() == b"a log left behind"
    assert not (tmp_path / f"{DB_NAME}-shm").exists()
    with Ledger.open(tmp_path) as again:
        assert not again.created


def test_a_folder_without_a_ledger_reads_as_none_and_gets_no_file(tmp_path: Path) -> None:
    assert Ledger.existing(tmp_path) is None
    assert not (tmp_path / DB_NAME).exists()


def test_opening_a_current_ledger_writes_nothing(tmp_path: Path) -> None:
    with Ledger.open(tmp_path) as book:
        book.log("x")
    before = (tmp_path / DB_NAME).read_bytes()
    book = Ledger.existing(tmp_path)
    assert book is not None
    book.close()
    assert (tmp_path / DB_NAME).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [DB_NAME]


def test_draws_newest_in_force_voided_kept(tmp_path: Path) -> None:
    from shuangsheng.knockout.knockout import Pairing, Round

    first = Round(1, ("01", "02", "03"), (Pairing(1, "02", "03"),), ("01",), 7)
    again = Round(1, ("01", "02", "03"), (Pairing(1, "01", "03"),), ("02",), None, (("01", 1), ("03", 2), ("02", 3)))
    with Ledger.open(tmp_path) as book:
        one = book.record_draw(first, {"01": ("甲", "乙")})
        assert book.draws()[1].round == first and not book.draws()[1].done
        book.draw_done(one)
        assert book.draws()[1].done and book.draws()[1].names == {"01": ("甲", "乙")}
        two = book.record_draw(again, {})
        assert book.draws()[1].round == again
        book.void_draw(two, "test")
        assert book.draws()[1].id == one
        book.void_draw(one, "test")
        assert book.draws() == {}


def test_the_program_s_stale_temporary_files_are_cleaned(tmp_path: Path) -> None:
    (tmp_path / ".round-1.xlsx.ab12_xyz.tmp").write_bytes(b"")
    (tmp_path / "notes.tmp").write_bytes(b"a person's")
    (tmp_path / "备份").mkdir()  # a copy being kept is written the same way, in the backups' folder
    (tmp_path / "备份" / ".teams.备份-20260315-101500.xlsx.Zq9_ab12.tmp").write_bytes(b"")
    (tmp_path / "备份" / "teams.备份-20260315-101500.xlsx").write_bytes(b"kept")
    assert clean_temporary(tmp_path) == [".round-1.xlsx.ab12_xyz.tmp", ".teams.备份-20260315-101500.xlsx.Zq9_ab12.tmp"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.tmp", "备份"]
    assert [p.name for p in (tmp_path / "备份").iterdir()] == ["teams.备份-20260315-101500.xlsx"]


def test_closing_checkpoints_so_the_folder_copies_whole(tmp_path: Path) -> None:
    with Ledger.open(tmp_path) as book:
        book.log("test", n=1)
    wal = tmp_path / (DB_NAME + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    copy = tmp_path / "copy.db"
    copy.write_bytes((tmp_path / DB_NAME).read_bytes())  # the main file alone holds everything
    assert sqlite3.connect(copy).execute("SELECT kind FROM log").fetchall() == [("test",)]


def test_a_file_written_again_is_a_new_row_and_the_newest_counts(tmp_path: Path) -> None:
    path = tmp_path / "第1轮成绩.pdf"
    with Ledger.open(tmp_path) as book:
        path.write_bytes(b"one")
        book.record_file(path)
        path.write_bytes(b"two")
        book.record_file(path)
        assert book.recorded("第1轮成绩.pdf") == fingerprint_of(b"two")
        assert book.generated() == {"第1轮成绩.pdf": fingerprint_of(b"two")}
    rows = sqlite3.connect(tmp_path / DB_NAME).execute("SELECT COUNT(*) FROM file").fetchone()[0]
    assert rows == 2


def test_a_file_is_ours_while_it_holds_what_we_wrote(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    with Ledger.open(tmp_path) as book:
        assert not book.is_ours(path)  # never written
        path.write_bytes(b"ours")
        book.record_file(path)
        assert book.is_ours(path)
        path.write_bytes(b"edited by a person")
        assert not book.is_ours(path)


def test_stopped_between_recording_and_renaming_the_old_file_is_still_ours(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    with Ledger.open(tmp_path) as book:
        path.write_bytes(b"first")
        book.record_file(path)
        book.record_file(path, fingerprint_of(b"second"))  # recorded, then the command was killed
        assert book.is_ours(path)  # not blamed on a person
        path.write_bytes(b"second")
        assert book.is_ours(path)


def test_a_forgotten_file_is_no_longer_ours(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(b"x")
    with Ledger.open(tmp_path) as book:
        book.record_file(path)
        book.forget_file(path)
        assert not book.is_ours(path)
        assert book.recorded("a.pdf") is None
        assert book.generated() == {}


def test_the_bookkeeping_before_event_db_is_imported_then_removed(tmp_path: Path) -> None:
    (tmp_path / "old.pdf").write_bytes(b"old")
    legacy = tmp_path / LEGACY_RECORD
    legacy.write_text(json.dumps({"old.pdf": fingerprint_of(b"old").sha256, "bad": 3}), encoding="utf-8")
    with Ledger.open(tmp_path) as book:
        assert book.is_ours(tmp_path / "old.pdf")
        assert set(book.generated()) == {"old.pdf"}
    assert not legacy.exists()


@pytest.mark.parametrize("content", ["", "[]", "{", "null"])
def test_damaged_bookkeeping_before_event_db_is_ignored(tmp_path: Path, content: str) -> None:
    (tmp_path / LEGACY_RECORD).write_text(content, encoding="utf-8")
    with Ledger.open(tmp_path) as book:
        assert book.generated() == {}


def test_the_log_keeps_order_and_detail(tmp_path: Path) -> None:
    with Ledger.open(tmp_path) as book:
        book.log("void", round=3, reason="更正第2轮")
        book.log("accept_rules", rounds=[1])
        assert [(k, d) for k, d, _ in book.entries()] == [
            ("void", {"round": 3, "reason": "更正第2轮"}), ("accept_rules", {"rounds": [1]})]
        assert [k for k, _, _ in book.entries("void")] == ["void"]


MOUNTINFO = textwrap.dedent("""\
    22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
    40 22 0:35 / /mnt/share rw,relatime shared:2 - cifs //nas/share rw
    41 40 0:36 / /mnt/share/local\\040disk rw - ext4 /dev/sdb1 rw
""")


@pytest.mark.parametrize(("folder", "kind"), [
    ("/home/office/比赛", "ext4"),
    ("/mnt/share/比赛", "cifs"),
    ("/mnt/share/local disk/比赛", "ext4"),
    ("/mnt/shared", "ext4"),  # a prefix of the name is not the mount point
])
def test_the_file_system_of_a_folder(folder: str, kind: str) -> None:
    assert filesystem_type(Path(folder), MOUNTINFO) == kind


def test_wal_on_a_local_disk_and_the_rollback_journal_on_a_network_folder(tmp_path: Path, monkeypatch) -> None:
    with Ledger.open(tmp_path):
        pass
    assert sqlite3.connect(tmp_path / DB_NAME).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    network = tmp_path / "share"
    network.mkdir()
    monkeypatch.setattr(disk, "filesystem_type", lambda folder, mountinfo=None: "cifs")
    with Ledger.open(network):
        pass
    assert sqlite3.connect(network / DB_NAME).execute("PRAGMA journal_mode").fetchone()[0] == "delete"


HOLDER = textwrap.dedent("""\
    import sys, time
    from pathlib import Path
    from shuangsheng.storage.ledger.lock import exclusive
    folder = Path(sys.argv[1])
    sys.argv = ["shuangsheng", "draw", "比赛"]  # the command line the holder is recorded with
    with exclusive(folder, wait=1):
        print("held", flush=True)
        time.sleep(60)
""")


def _holder(folder: Path) -> subprocess.Popen:
    root = Path(__file__).resolve().parents[1]
    process = subprocess.Popen([sys.executable, "-c", HOLDER, str(folder)], cwd=root, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "held"
    return process


def test_a_second_command_waits_briefly_then_names_the_holder(tmp_path: Path) -> None:
    holder = _holder(tmp_path)
    try:
        started = time.monotonic()
        with pytest.raises(FolderBusy, match="shuangsheng draw 比赛"), exclusive(tmp_path, wait=0.3):
            pass
        assert time.monotonic() - started >= 0.3
    finally:
        holder.kill()
        holder.wait(timeout=10)


def test_a_killed_command_blocks_nobody(tmp_path: Path) -> None:
    holder = _holder(tmp_path)
    holder.kill()
    holder.wait(timeout=10)
    with exclusive(tmp_path, wait=2):
        pass


def test_commands_one_after_the_other_in_one_process(tmp_path: Path) -> None:
    with exclusive(tmp_path):
        pass
    with exclusive(tmp_path):
        assert (tmp_path / HOLDER_NAME).read_text(encoding="utf-8").startswith("shuangsheng")
    assert os.path.exists(tmp_path / LOCK_NAME)


# --- table-side entry: codes and entries ---


def _round_of_two_tables():
    from shuangsheng.knockout.knockout import Pairing, Round

    return Round(1, ("01", "02", "03", "04"), (Pairing(1, "01", "02"), Pairing(2, "03", "04")), (), 5)


def test_a_table_code_in_force_finds_its_table_and_a_replaced_one_does_not(tmp_path: Path) -> None:
    with Ledger.open(tmp_path) as book:
        draw = book.record_draw(_round_of_two_tables(), {})
        book.set_codes(draw, {1: "AAAA2222", 2: "BBBB3333"})
        assert book.codes(draw) == {1: "AAAA2222", 2: "BBBB3333"}
        record, table = book.find_code("BBBB3333")
        assert (record.id, table) == (draw, 2)
        book.set_codes(draw, {2: "CCCC4444"})  # --redo changed table 2
        assert book.find_code("BBBB3333") is None and book.find_code("CCCC4444")[1] == 2
        assert book.find_code("AAAA2222")[1] == 1 and book.find_code("ZZZZ9999") is None
        assert book.all_codes() == {"AAAA2222", "BBBB3333", "CCCC4444"}


def test_a_voided_draw_s_codes_stop_working(tmp_path: Path) -> None:
    with Ledger.open(tmp_path) as book:
        draw = book.record_draw(_round_of_two_tables(), {})
        book.set_codes(draw, {1: "AAAA2222"})
        book.void_draw(draw, "重抽")
        assert book.find_code("AAAA2222") is None


def _setup():
    from shuangsheng.table.log import Seat, TableSetup

    return TableSetup(1, 1, Seat("01", ("甲", "乙")), Seat("02", ("丙", "丁")))


def test_entries_are_decided_and_appended_in_one_transaction_and_read_back(tmp_path: Path) -> None:
    from shuangsheng.table.entry import Result, add_hand, end
    from shuangsheng.table.log import Stamp
    from shuangsheng.table.state import table_state

    stamp = Stamp("s1", "2026-03-20T09:00:00+08:00", "192.168.1.20")
    with Ledger.open(tmp_path) as book:
        draw = book.record_draw(_round_of_two_tables(), {})
        hand = {"hand": 1, "id": "p1", "dealer": "A", "points": 35}
        first = book.decide_entry(draw, 1, lambda entries: add_hand(_setup(), entries, on(entries, hand), stamp=stamp))
        again = book.decide_entry(draw, 1, lambda entries: add_hand(_setup(), entries, on(entries, hand), stamp=stamp))
        assert (first.result, again.result) == (Result.CREATED, Result.SAME)
        book.decide_entry(draw, 1, lambda entries: end(_setup(), entries, on(entries, {}), stamp=Stamp("s2", stamp.time, "::1")))
        assert set(book.draw_entries(draw)[0]) == {1}
    with Ledger.open(tmp_path) as book:  # committed: another connection reads every accepted entry
        entries = book.table_entries(draw, 1)
        assert [e.action.value for e in entries] == ["hand", "end"]
        assert table_state(_setup(), entries).as_json()["levels"] == {"A": "5", "B": "2"}
        assert book.table_entries(draw, 2) == ()


def test_entry_rows_are_parsed_once_per_connection_and_a_row_changed_in_place_is_read_anew(tmp_path: Path) -> None:
    """`serve` reads a table's entries on every request: each row is parsed once (the same Entry back, so the table's
    entries compare at once), and a row whose body is not what was parsed (never done by the program; a person with
    a database viewer) is read again, never answered from what was parsed before."""
    from shuangsheng.table.entry import add_hand
    from shuangsheng.table.log import Stamp

    with Ledger.open(tmp_path) as book:
        draw = book.record_draw(_round_of_two_tables(), {})
        for n in (1, 2):
            hand = {"hand": n, "id": f"p{n}", "dealer": "A", "points": 35}
            book.decide_entry(draw, 1, lambda e, h=hand: add_hand(_setup(), e, on(e, h), stamp=Stamp("s", "t", "a")))
        first, again = book.table_entries(draw, 1), book.table_entries(draw, 1)
        assert first == again and all(a is b for a, b in zip(first, again, strict=True))
        with sqlite3.connect(tmp_path / DB_NAME) as other:
            body = json.loads(other.execute("SELECT body FROM entry ORDER BY id DESC LIMIT 1").fetchone()[0])
            other.execute("UPDATE entry SET body = ? WHERE id = (SELECT MAX(id) FROM entry)",
                          (json.dumps({**body, "record": {**body["record"], "points": 60}}),))
        changed = book.table_entries(draw, 1)
        assert changed[0] is first[0] and changed[1].record.points == 60 and first[1].record.points == 35


def test_the_parsed_entry_rows_are_bounded() -> None:
    from shuangsheng.storage.ledger.queries import ReadBack

    body = json.dumps({"id": "x", "action": "end", "time": "t", "address": "a"})
    read = ReadBack(size=3)
    kept = [read.entry(n, body) for n in range(3)]
    assert read.entry(2, body) is kept[2]
    read.entry(3, body)  # full: forgotten all at once
    assert read.entry(2, body) is not kept[2] and read.entry(2, body) == kept[2]


def test_a_refused_request_appends_nothing(tmp_path: Path) -> None:
    from shuangsheng.table.entry import Result, add_hand
    from shuangsheng.table.log import Stamp

    with Ledger.open(tmp_path) as book:
        draw = book.record_draw(_round_of_two_tables(), {})
        bad = {"hand": 1, "id": "p1", "dealer": "A", "points": 83}
        decision = book.decide_entry(draw, 1, lambda e: add_hand(_setup(), e, on(e, bad), stamp=Stamp("x", "t", "a")))
        assert decision.result is Result.INVALID and book.table_entries(draw, 1) == ()


def test_an_exception_while_deciding_rolls_back(tmp_path: Path) -> None:
    with Ledger.open(tmp_path) as book:
        draw = book.record_draw(_round_of_two_tables(), {})

        def broken(entries):
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError):
            book.decide_entry(draw, 1, broken)
        book.log("after")  # the connection is usable again
        assert book.table_entries(draw, 1) == ()


def test_a_change_to_a_draw_no_longer_in_force_is_refused_and_nothing_stored(tmp_path: Path) -> None:
    """A request read its draw, then `draw --redo` voided it or a newer draw of the round superseded it: the entry
    or clock row would be stored where no table shows it, so the ledger refuses it (DrawReplaced, rolled back);
    what changes nothing is still answered."""
    from shuangsheng.table.entry import Result, add_hand
    from shuangsheng.table.log import Stamp

    hand = {"hand": 1, "id": "p1", "dealer": "A", "points": 35}
    start = ClockRow(ClockAction.START, "2026-12-01T14:00:00+08:00", "127.0.0.1")
    with Ledger.open(tmp_path) as book:
        voided = book.record_draw(_round_of_two_tables(), {})
        book.decide_entry(voided, 1, lambda e: add_hand(_setup(), e, on(e, hand), stamp=Stamp("s", "t", "a")))
        book.void_draw(voided, "--redo 2")
        superseded = book.record_draw(_round_of_two_tables(), {})
        book.record_draw(_round_of_two_tables(), {})
        for draw in (voided, superseded):
            with pytest.raises(DrawReplaced):
                book.decide_entry(draw, 2, lambda e: add_hand(_setup(), e, on(e, hand), stamp=Stamp("s", "t", "a")))
            with pytest.raises(DrawReplaced):
                book.add_clock(draw, start)
            assert book.table_entries(draw, 2) == () and book.clock_rows(draw) == ()
        again = book.decide_entry(voided, 1, lambda e: add_hand(_setup(), e, on(e, hand), stamp=Stamp("s", "t", "a")))
        assert again.result is Result.SAME
