"""`draw` and `draw --redo` against phones entering at the same time (`serve` is another process on the same folder:
docs/ledger.md, docs/table-api.md): what a draw is computed from is what it records, and no phone or reader ever
sees half a draw.

The phone's request is made through the table API in-process (`TableApi.handle`, its own connection to event.db,
as `serve` has) at the moment between the command's reading and its recording, injected through the use-case's
`meanwhile` hook; event.db's rows are read afterwards with a connection of the test's own."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.hall.hall import SEALED, Request, TableApi, Throttle
from shuangsheng.storage import qr_sheets, workbook
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.names import DB_NAME
from shuangsheng.usecases import draw
from shuangsheng.usecases.draw import DRAW_TRIES
from shuangsheng.usecases.folder import same_draw
from shuangsheng.usecases.papers.draw import write_draw_papers
from shuangsheng.usecases.redo import redo_draw
from shuangsheng.vocabulary.errors import UserError
from tests.events import fill, new_event, round_one_corrected, second_round_drawn, start_event
from tests.helpers import cli, digests, page_body

PORT = 8000
HEADERS = {"content-type": "application/json", "host": f"127.0.0.1:{PORT}"}


def phone(folder: Path) -> TableApi:
    return TableApi(folder, names={"127.0.0.1"}, port=PORT, throttle=Throttle(),
                    clock=lambda: "2026-03-10T09:00:00+08:00")


def call(api: TableApi, method: str, path: str, body: object = None) -> tuple[int, dict]:
    """One request; a POST's body as the page sends it (`page_body`: a new id, the table's mark as it stands)."""
    if method == "POST":
        body = page_body(path, {} if body is None else body, lambda _, code: api.handle(
            Request("GET", f"/api/t/{code}", "192.168.1.31", HEADERS, b"", 0)).document.get("mark", 0))
    data = b"" if body is None else json.dumps(body).encode()
    reply = api.handle(Request(method, path, "192.168.1.31", HEADERS, data, len(data)))
    return reply.status, reply.document


def count(folder: Path, query: str, *args: object) -> int:
    with sqlite3.connect(folder / DB_NAME) as db:
        return db.execute(query, args).fetchone()[0]


def codes_of(folder: Path, number: int) -> dict[int, str]:
    with Ledger.open(folder) as book:
        return book.codes(book.draws()[number].id)


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, dict[int, str], TableApi]:
    """An 8-team event whose round 1 was played on the phones (at each table 甲 keeps the deal twice, then time is
    up: 甲 wins), confirmed by both teams at table 1 and by 甲 alone at tables 2–4, and scored: round 2 is the next
    to draw."""
    folder = tmp_path / "event"
    start_event(folder, teams=8)
    cli("draw", folder, "--seed", 1)
    codes = codes_of(folder, 1)
    api = phone(folder)
    for table, code in codes.items():
        for n in (1, 2):
            assert call(api, "POST", f"/api/t/{code}/hands", {"hand": n, "id": f"h{n}", "dealer": "A", "points": 40})[0] == 201
        assert call(api, "POST", f"/api/t/{code}/end")[0] == 200
        for side in ("A", "B") if table == 1 else ("A",):
            assert call(api, "POST", f"/api/t/{code}/confirm", {"side": side})[0] == 200
    cli("score", folder)
    return folder, codes, api


def draw_meanwhile(folder: Path, entered, **options) -> tuple[list[int], UserError | None]:
    """`draw --seed 2` as the command runs it (the use-case, with the command's papers), with `entered(k)` called
    each time it has computed the next round from what it read (k = 1, 2, …), before it records anything: a phone's
    request arriving then. Returns the calls made, and the draw's refusal (None: drawn)."""
    calls: list[int] = []

    def meanwhile(moment: str) -> None:
        if moment == "computed":
            calls.append(len(calls) + 1)
            entered(len(calls))

    try:
        draw.draw_next(folder, **{"seed": 2, **options}, meanwhile=meanwhile,
                       papers=lambda drawn: write_draw_papers(drawn, force=False))
    except UserError as refused:
        return calls, refused
    return calls, None


def not_event_db(folder: Path) -> dict[str, str]:
    return {name: digest for name, digest in digests(folder).items() if not name.startswith(DB_NAME)}


# --- item 1: the next round is recorded only on the entries it was computed from ---


def test_a_phone_reopening_a_table_while_draw_computes_the_next_round_leaves_nothing_drawn(played):
    """Table 2's phone undoes its 时间到 after `draw` read round 1 (table 2 decided) and before it recorded round 2:
    round 2 must not be drawn on the stale result (and round 1 then sealed under the phone): read again, table 2
    is playing, so the draw is refused naming it, and nothing is recorded or written."""
    folder, codes, api = played
    files = not_event_db(folder)

    def reopened(k: int) -> None:
        if k == 1:
            assert call(api, "POST", f"/api/t/{codes[2]}/undo", {"end": True})[0] == 200

    calls, refused = draw_meanwhile(folder, reopened)
    assert refused is not None and "第2桌" in str(refused)
    assert count(folder, "SELECT COUNT(*) FROM draw WHERE round = 2") == 0
    assert count(folder, "SELECT COUNT(*) FROM code") == 4  # round 1's only
    assert not_event_db(folder) == files  # no round-2.xlsx, no papers
    assert len(calls) == 1  # the second reading stopped before computing a draw
    status, doc = call(api, "GET", f"/api/t/{codes[2]}")
    assert status == 200 and doc["status"] == "playing"  # the phone's undo stands, round 1 not sealed


def test_a_confirmation_while_draw_computes_is_read_and_the_round_drawn_once(played):
    """A confirmation (it changes no result) between the reading and the recording: the draw is computed again from
    a fresh reading and recorded once, with its codes; round 1 is sealed after it (423)."""
    folder, codes, api = played
    calls, refused = draw_meanwhile(
        folder, lambda k: k == 1 and call(api, "POST", f"/api/t/{codes[2]}/confirm", {"side": "B"}))
    assert calls == [1, 2] and refused is None
    assert count(folder, "SELECT COUNT(*) FROM draw WHERE round = 2") == 1
    assert len(codes_of(folder, 2)) == 2 and count(folder, "SELECT COUNT(*) FROM code") == 4 + 2
    assert (folder / "round-2.xlsx").exists()
    status, doc = call(api, "POST", f"/api/t/{codes[3]}/confirm", {"side": "B"})
    assert status == 423 and doc["errors"][0]["message"] == SEALED


def test_phones_entering_at_every_try_get_the_draw_refused_with_nothing_written(played):
    """A phone entry lands between reading and recording at every try: after `DRAW_TRIES` the command says so in
    Chinese and asks to run it again; no draw, no code, no file. Run again, it draws."""
    folder, codes, api = played
    files = not_event_db(folder)
    entries = count(folder, "SELECT COUNT(*) FROM entry")

    def confirming(k: int) -> None:  # 乙 of table 2, then of table 3, then of table 4 confirms
        assert call(api, "POST", f"/api/t/{codes[k + 1]}/confirm", {"side": "B"})[0] == 200

    calls, refused = draw_meanwhile(folder, confirming)
    assert len(calls) == DRAW_TRIES
    assert refused is not None and "手机刚为第1轮录入了新的记录" in str(refused) and "请再运行一次" in str(refused)
    assert count(folder, "SELECT COUNT(*) FROM entry") > entries
    assert count(folder, "SELECT COUNT(*) FROM draw WHERE round = 2") == 0
    assert count(folder, "SELECT COUNT(*) FROM code") == 4
    assert not_event_db(folder) == files
    cli("draw", folder, "--seed", 2)
    assert count(folder, "SELECT COUNT(*) FROM draw WHERE round = 2") == 1 and len(codes_of(folder, 2)) == 2


def test_a_draw_s_codes_are_recorded_with_it_in_one_transaction(played, monkeypatch):
    """While `draw` records round 2's codes, another connection (a phone, the 扫码单 watcher) sees either no round 2
    or round 2 with every table's code: never a draw without its codes."""
    folder, _, _ = played
    seen = []
    recording = Ledger.set_codes

    def set_codes(self, draw_id, codes):
        with sqlite3.connect(folder / DB_NAME) as other:
            seen.append(other.execute("SELECT COUNT(*) FROM draw WHERE round = 2").fetchone()[0])
        return recording(self, draw_id, codes)

    monkeypatch.setattr(Ledger, "set_codes", set_codes)
    cli("draw", folder, "--seed", 2)
    assert seen == [0]
    assert len(codes_of(folder, 2)) == 2


# --- item 2: draw --redo voids, records and carries in one transaction ---


@pytest.fixture
def to_redo(tmp_path: Path) -> tuple[Path, dict[int, str], TableApi]:
    """An 8-team event with round 2 drawn, a hand entered on the phone at both its tables, then round 1 corrected
    and scored so that `draw --redo 2` replaces a team at table 2 (table 1 kept, with its code and its hand)."""
    folder = second_round_drawn(tmp_path / "event")
    codes, api = codes_of(folder, 2), phone(folder)
    for code in codes.values():
        assert call(api, "POST", f"/api/t/{code}/hands", {"hand": 1, "id": "h1", "dealer": "A", "points": 40})[0] == 201
    round_one_corrected(folder)
    return folder, codes, api


def in_force(folder: Path, number: int) -> int:
    return count(folder, "SELECT COUNT(*) FROM draw WHERE round = ? AND id NOT IN (SELECT draw FROM draw_void)", number)


def test_a_phone_during_a_redo_sees_the_old_draw_or_the_new_one_with_its_codes_and_entries(to_redo, monkeypatch):
    """At each step of the redo's recording (the new draw recorded after the old one was voided; the kept table's
    entries carried after its code), a phone reading its table — `serve` is another process — sees round 2 with
    a draw in force and table 1 with its hand: the old draw until the redo commits, never a round without a draw
    (404 for a good code) or the new draw with table 1 empty. A hand posted meanwhile lands on the new draw."""
    folder, codes, api = to_redo
    seen, posted = [], []
    recording, carrying = Ledger.record_draw, Ledger.carry_entries

    def look(step: str) -> None:
        status, doc = call(api, "GET", f"/api/t/{codes[1]}")
        seen.append((step, in_force(folder, 2), status, [h["hand"] for h in doc.get("hands", [])]))

    def record_draw(self, *args, **kwargs):
        look("record")
        other = phone(folder)  # another phone, another connection: it waits for the redo's transaction
        thread = threading.Thread(target=lambda: posted.append(call(other, "POST", f"/api/t/{codes[1]}/hands", {
            "hand": 2, "id": "h2", "dealer": "A", "points": 40})[0]), daemon=True)
        thread.start()
        posted.append(thread)
        return recording(self, *args, **kwargs)

    def carry_entries(self, *args):
        look("carry")
        return carrying(self, *args)

    monkeypatch.setattr(Ledger, "record_draw", record_draw)
    monkeypatch.setattr(Ledger, "carry_entries", carry_entries)
    cli("draw", folder, "--redo", 2)
    thread = posted.pop(0)
    thread.join(60)
    assert seen == [("record", 1, 200, [1]), ("carry", 1, 200, [1])]
    assert not thread.is_alive() and posted == [201]
    status, doc = call(api, "GET", f"/api/t/{codes[1]}")
    assert status == 200 and [h["hand"] for h in doc["hands"]] == [1, 2]
    with Ledger.open(folder) as book:
        new = book.draws()[2]
        assert len(book.table_entries(new.id, 1)) == 2 and book.table_entries(new.id, 2) == ()
        assert set(book.codes(new.id)) == {1, 2} and book.codes(new.id)[1] == codes[1]
    assert count(folder, "SELECT COUNT(*) FROM entry WHERE tbl = 1") == 1 + 2  # the old draw's one, and the two now
    assert call(api, "GET", f"/api/t/{codes[2]}")[0] == 404  # the changed table's old code


def test_a_redo_stopped_inside_its_recording_leaves_event_db_as_it_was_and_runs_again(to_redo, monkeypatch):
    """The redo's recording stopped half-way (here an error while carrying the kept table's entries): nothing of it
    is in event.db — round 2's draw in force, codes and entries as before — and the same command again does it."""
    folder, codes, _ = to_redo
    tables = ("draw", "draw_void", "code", "entry", "log")
    before = {t: count(folder, f"SELECT COUNT(*) FROM {t}") for t in tables}

    def broken(self, *args):
        raise RuntimeError("stopped")

    monkeypatch.setattr(Ledger, "carry_entries", broken)
    with pytest.raises(RuntimeError):
        redo_draw(folder, 2)
    assert {t: count(folder, f"SELECT COUNT(*) FROM {t}") for t in tables} == before
    assert codes_of(folder, 2) == codes
    monkeypatch.undo()
    cli("draw", folder, "--redo", 2)
    assert in_force(folder, 2) == 1 and codes_of(folder, 2)[1] == codes[1] and codes_of(folder, 2)[2] != codes[2]


def redo_stopped_before_its_workbook(folder, monkeypatch) -> None:
    """`draw --redo 2` stopped (killed, disk full) after its transaction, before round-2.xlsx was written again."""

    def stopped(*args, **kwargs):
        raise RuntimeError("stopped")

    monkeypatch.setattr(workbook, "write_round", stopped)
    with pytest.raises(RuntimeError):
        redo_draw(folder, 2)
    monkeypatch.undo()


def test_a_redo_stopped_after_its_recording_is_named_and_finished_by_running_it_again(to_redo, monkeypatch):
    """The redo stopped after its transaction and before round-2.xlsx was written again (killed, disk full): the
    corrected draw is in force, unfinished, and the workbook still holds the draw before it. Every command names
    `draw --redo 2` (plain `draw` completes nothing on the wrong workbook, `score` does not blame a person), and
    running it again finishes the job: the workbook, the papers, table 1's code and hand kept."""
    folder, codes, api = to_redo

    redo_stopped_before_its_workbook(folder, monkeypatch)
    files = not_event_db(folder)
    for command in ("score", "draw"):
        assert f"{folder} --redo 2 完成它" in cli(command, folder, code=1).output
    assert not_event_db(folder) == files
    cli("draw", folder, "--redo", 2)
    with Ledger.open(folder) as book:
        record = book.draws()[2]
        assert record.done and same_draw(workbook.read_round(folder / "round-2.xlsx").round,
                                                    record.round)
        assert book.codes(record.id)[1] == codes[1] and len(book.table_entries(record.id, 1)) == 1
    assert call(api, "GET", f"/api/t/{codes[1]}")[0] == 200
    cli("score", folder)


# --- review: an interrupted redo told apart from a person's wrong workbook; every step of a redo stopped ---


def test_a_draw_whose_papers_failed_and_whose_workbook_a_person_replaced_is_not_called_an_interrupted_redo(
        tmp_path, monkeypatch):
    """Round 1 drawn, its papers not written (a PDF held open: the draw stays unfinished), then round-1.xlsx replaced
    by another draw's workbook (copied from a rehearsal): that is a person's file, named as such ("换回"), not a
    `draw --redo 1` to run again (which --redo refuses for round 1)."""
    import shuangsheng.usecases.papers.draw
    from shuangsheng.vocabulary.errors import UserError

    folder, other = tmp_path / "event", tmp_path / "rehearsal"
    for place in (folder, other):
        new_event(place, 8)

    def held_open(*args, **kwargs):
        raise UserError(["第1轮对阵表.pdf 正被其他程序打开"])

    monkeypatch.setattr(shuangsheng.usecases.papers.draw, "write_draw_papers", held_open)
    cli("draw", folder, "--seed", 1, code=1)
    monkeypatch.undo()
    cli("draw", other, "--seed", 5)
    shutil.copyfile(other / "round-1.xlsx", folder / "round-1.xlsx")
    for command in ("score", "draw"):
        output = cli(command, folder, code=1).output
        assert "不是这次比赛抽出的那份记分表" in output and "--redo" not in output, output


@pytest.fixture
def redo_over_round_three(tmp_path: Path) -> Path:
    """An 8-team event with round 3 (the final) drawn, then round 1 corrected so that `draw --redo 2` is due: the
    redo voids round 3 and removes round-3.xlsx (backed up)."""
    folder = second_round_drawn(tmp_path / "event")
    fill(folder, 2)
    cli("score", folder)
    cli("draw", folder, "--seed", 3)
    round_one_corrected(folder)
    return folder


@pytest.mark.parametrize("step", ["recording", "recorded", "write_round"])
def test_a_redo_stopped_before_or_after_its_recording_is_finished_by_running_it_again(
        redo_over_round_three, monkeypatch, step):
    """`draw --redo 2` stopped just before its transaction (nothing recorded), just after it (round-3.xlsx not yet
    removed) or before round-2.xlsx is written: no command calls a round workbook lost (`draw --force` would bring round 3 back blank), and the same
    command run again finishes the job: round 3 voided, its workbook kept only as a backup, round 2 corrected."""
    folder = redo_over_round_three

    def stopped(*args, **kwargs):
        raise RuntimeError("killed")

    def meanwhile(moment: str) -> None:
        if moment == step:
            stopped()

    with monkeypatch.context() as patched, pytest.raises(RuntimeError):
        if step == "write_round":  # a public step of the redo, where the hook has no moment of its own
            patched.setattr(workbook, "write_round", stopped)
        redo_draw(folder, 2, meanwhile=meanwhile)
    for command in ("score", "bracket"):
        output = CliRunner().invoke(app, [command, str(folder)]).output
        assert "不见了" not in output and "--force" not in output, output
        assert step == "recording" or f"{folder} --redo 2" in output, output  # before it: the event as it was
    if step != "recording":  # draw --force brings back no voided round and completes nothing on the old workbook
        assert f"{folder} --redo 2 完成它" in cli("draw", folder, "--force", code=1).output
        assert not (folder / "round-3.xlsx").exists() or step == "recorded"
    cli("draw", folder, "--redo", 2)
    assert in_force(folder, 3) == 0 and not (folder / "round-3.xlsx").exists()
    assert list((folder / "备份").glob("round-3.备份-*.xlsx"))
    with Ledger.open(folder) as book:
        record = book.draws()[2]
        assert record.done and same_draw(
            workbook.read_round(folder / "round-2.xlsx").round, record.round)


def test_a_redo_stopped_while_its_papers_are_written_is_finished_by_running_it_again(to_redo, monkeypatch):
    """`draw --redo 2` killed while writing its papers (round-2.xlsx already corrected, the draw unfinished): the same
    command again writes the papers and completes the draw, rather than saying no --redo is needed."""
    import shuangsheng.usecases.papers.draw

    folder, codes, _ = to_redo
    writing = shuangsheng.usecases.papers.draw.write_draw_papers

    def killed(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(shuangsheng.usecases.papers.draw, "write_draw_papers", killed)
    CliRunner().invoke(app, ["draw", str(folder), "--redo", "2"])
    monkeypatch.setattr(shuangsheng.usecases.papers.draw, "write_draw_papers", writing)
    with Ledger.open(folder) as book:
        assert not book.draws()[2].done
    output = cli("draw", folder, "--redo", 2).output
    assert "不需要" not in output and "补全" in output, output
    with Ledger.open(folder) as book:
        record = book.draws()[2]
        assert record.done and book.codes(record.id)[1] == codes[1]
    assert (folder / "第2轮对阵表.pdf").exists()


def test_a_redo_run_again_keeps_the_codes_and_hands_its_stopped_run_gave_the_changed_tables(to_redo, monkeypatch):
    """The stopped redo's draw was in force meanwhile: `serve` answered table 2's new code (the 扫码单 watcher printed
    it) and a phone entered a hand with it. Run again, the redo changes no table of that draw: table 2 keeps the
    code and the hand, as table 1 keeps its own."""
    folder, codes, api = to_redo

    redo_stopped_before_its_workbook(folder, monkeypatch)
    given = codes_of(folder, 2)
    assert given[1] == codes[1] and given[2] != codes[2]
    assert call(api, "POST", f"/api/t/{given[2]}/hands", {"hand": 1, "id": "n1", "dealer": "B", "points": 40})[0] == 201
    cli("draw", folder, "--redo", 2)
    assert codes_of(folder, 2) == given
    with Ledger.open(folder) as book:
        record = book.draws()[2]
        assert [len(book.table_entries(record.id, t)) for t in (1, 2)] == [1, 1]


@pytest.mark.parametrize("press", ["reopen", "paper_rules"])
def test_a_desk_reopen_caught_by_the_next_draw_is_refused_not_stored_under_the_sealed_round(played, press):
    """The desk (`serve`'s 裁判台) reopens round 1's table 2 (or gives it to the paper: 以纸质为准) while `draw` records round 2 in another process: the desk
    looked at the round in play (round 1) just before the draw committed and writes just after. Round 1 is sealed by
    then: the desk is refused (409, in Chinese), and round 1's table 2 stays decided as round 2 was drawn on it."""
    from shuangsheng.hall import desk_api

    folder, codes, api = played
    drawn: list[int] = []

    def meanwhile(moment: str) -> None:  # "looked": the desk has read the round in play, before it writes
        if moment == "looked" and not drawn:
            drawn.append(cli("draw", folder, "--seed", 2).exit_code)

    desk = desk_api.DeskApi(folder, names={"127.0.0.1"}, port=PORT, pin="246810", throttle=Throttle(),
                            clock=lambda: "2026-03-10T09:30:00+08:00", meanwhile=meanwhile)
    entries = count(folder, "SELECT COUNT(*) FROM entry")
    mark = call(api, "GET", f"/api/t/{codes[2]}")[1]["mark"]
    body = json.dumps({"reason": "甲方对第2局有异议", "id": "r-1", "mark": mark}).encode()
    reply = desk.handle(Request("POST", f"/api/desk/t/2/{press}", "127.0.0.1", {**HEADERS, "x-desk-pin": "246810"},
                                body, len(body)))
    assert drawn == [0] and in_force(folder, 2) == 1
    assert reply.status == 409 and "下一轮刚刚抽签" in reply.body().decode(), reply.body().decode()
    assert count(folder, "SELECT COUNT(*) FROM entry") == entries
    assert call(api, "GET", f"/api/t/{codes[2]}")[1]["status"] == "decided"


def test_a_draw_refused_for_phones_entering_names_the_command_with_its_seed_or_lots(played):
    """The refusal after every try asks to run the draw again: the same command, `--seed` (or `--lots`, the paper lots
    drawn in the hall) included — plain `draw` would draw by a random seed instead."""
    folder, codes, api = played
    _, refused = draw_meanwhile(folder, lambda k: call(api, "POST", f"/api/t/{codes[k + 1]}/confirm", {"side": "B"}))
    assert refused is not None and f"{folder} --seed 2，" in str(refused), refused


# --- Ledger.atomic(): nesting ---


def test_atomic_nests_as_savepoints_and_keeps_the_error_sqlite_rolled_back_itself(tmp_path):
    """A write method inside `atomic()` is a savepoint: an error inside it rolled back to it, the outer changes kept
    when the error is handled; one outside commits on its own. An error after which SQLite rolled the whole
    transaction back itself (a full disk, an I/O error) reaches the caller as it was, not as 'no such savepoint'."""
    folder = second_round_drawn(tmp_path / "event")
    logs = count(folder, "SELECT COUNT(*) FROM log")
    with Ledger.open(folder) as book:
        with book.atomic():
            book.log("outer")
            with pytest.raises(RuntimeError), book.atomic():
                book.log("inner")
                raise RuntimeError("inner")
        assert count(folder, "SELECT COUNT(*) FROM log") == logs + 1
        book.log("alone")
        assert count(folder, "SELECT COUNT(*) FROM log") == logs + 2

        def full(self, kind, **detail):
            with self._transaction() as db:
                db.execute("ROLLBACK")  # what SQLite does itself on SQLITE_FULL inside a transaction
                raise sqlite3.OperationalError("database or disk is full")

        with pytest.raises(sqlite3.OperationalError, match="disk is full"), book.atomic():
            book.log("before")
            full(book, "x")
        assert not book.in_transaction
        book.log("after")
    assert count(folder, "SELECT COUNT(*) FROM log") == logs + 3


def test_a_later_round_workbook_open_in_excel_stops_the_redo_in_chinese_and_running_it_again_finishes(
        redo_over_round_three, monkeypatch):
    """On Windows a workbook open in Excel cannot be removed: `draw --redo 2` says so in Chinese, naming
    round-3.xlsx (no error report), and once it is closed the same command finishes the job."""
    folder = redo_over_round_three
    removing = Path.unlink

    def held_open(self, *args, **kwargs):
        if self.name == "round-3.xlsx":
            raise PermissionError(13, "Permission denied", str(self))
        return removing(self, *args, **kwargs)

    monkeypatch.setattr(Path, "unlink", held_open)
    output = cli("draw", folder, "--redo", 2, code=1).output
    assert "round-3.xlsx" in output and "关闭" in output, output
    monkeypatch.undo()
    cli("draw", folder, "--redo", 2)
    assert in_force(folder, 3) == 0 and not (folder / "round-3.xlsx").exists()
    with Ledger.open(folder) as book:
        assert book.draws()[2].done


def test_a_redo_stopped_before_removing_the_voided_round_s_qr_sheet_removes_it_when_run_again(tmp_path, monkeypatch):
    """`draw --redo 2` stopped after its recording, before it removed round 3's 扫码单 (dead codes): run again, it
    removes it (round 3's draw is voided already, so it is no longer among the rounds the redo voids now)."""
    from shuangsheng.storage.names import qr_sheet_name
    from tests.test_qr_sheets import with_sheets

    folder = with_sheets(tmp_path / "event")
    round_one_corrected(folder)

    def stopped(*args, **kwargs):
        raise RuntimeError("killed")

    monkeypatch.setattr(qr_sheets, "remove_voided", stopped)
    with pytest.raises(RuntimeError):
        redo_draw(folder, 2)
    monkeypatch.undo()
    assert (folder / qr_sheet_name(3)).exists()
    cli("draw", folder, "--redo", 2)
    assert not (folder / qr_sheet_name(3)).exists() and (folder / qr_sheet_name(2)).exists()


class Killed(BaseException):
    """The process stopped right there (a kill, a power cut): nothing after it runs."""


@pytest.mark.parametrize("redo_it", [False, True], ids=["draw", "redo"])
def test_a_round_workbook_is_fingerprinted_before_the_rename_that_puts_it_in_place(tmp_path, monkeypatch, redo_it):
    """As every PDF (`write_generated`): round-N.xlsx's fingerprint is in event.db before it lands, so a draw (or a
    redo) stopped right after the rename still knows the workbook as the one it wrote (issue 29 item 6)."""
    folder = tmp_path / "event"
    if redo_it:
        second_round_drawn(folder)
        round_one_corrected(folder)
    else:
        new_event(folder, 8)
    target = folder / ("round-2.xlsx" if redo_it else "round-1.xlsx")
    real_replace = os.replace

    def replace_then_stop(source, destination, *args, **kwargs):
        real_replace(source, destination, *args, **kwargs)
        if Path(destination) == target:
            raise Killed

    monkeypatch.setattr(os, "replace", replace_then_stop)
    with pytest.raises(Killed):
        if redo_it:
            redo_draw(folder, 2)
        else:
            draw.draw_next(folder, seed=5)
    monkeypatch.undo()
    with Ledger.open(folder) as book:
        assert book.is_ours(target)
