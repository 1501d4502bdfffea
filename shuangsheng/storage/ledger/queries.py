"""What is asked of an open event.db and added to it, row by row (`Queries`, the base of `Ledger`): the files the
program generated, the draws (and those voided), each scored round's outcomes, the entry codes, the phones'
entries, the round clock and the log. Rows are only ever added. Works on the connection `Ledger` opened; reads
the files it fingerprints (`record_file`, `is_ours`)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from shuangsheng.knockout.apart import NOTHING_APART, Apart
from shuangsheng.knockout.checkin import CheckinDecision, CheckinRow, Field, Press
from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.knockout.replacement import Replacement
from shuangsheng.storage.ledger.lost import FileId, LedgerLost, Loss, file_loss
from shuangsheng.storage.ledger.records import (
    DrawRecord,
    Fingerprint,
    ScoredRecord,
    command_line,
    fingerprint,
    fingerprint_of,
    now,
)
from shuangsheng.storage.names import DB_NAME
from shuangsheng.table.clock import ClockAction, ClockDecision, ClockRow
from shuangsheng.table.entry import Decision
from shuangsheng.table.log import Entry, read_entry


class DrawReplaced(RuntimeError):
    """A change for a draw no longer in force (voided or superseded by a `draw` since the caller read it): rolled
    back, nothing stored; the caller looks the table up again."""


READ_BACK_ROWS = 16384  # entry rows kept parsed per event.db (a 512-pair round 1 has about 5,000)
READ_BACK_FILES = 8  # event.db files whose rows are kept parsed in one process


class ReadBack:
    """Entry rows as read back (`read_entry`), each parsed once while its body is the same: a table's entries are
    read again on every request `serve` answers, and parsing them again each time was a sixth of its work. Keyed by
    row id and checked against the body as read now, so nothing stale is ever returned (rows are only added; one
    changed in place is parsed again). The same `Entry` objects come back each time, so a table's entries compare
    equal at once (`KnownStates`). Bounded: forgotten all at once when full. Shared by the connections of one
    process to one event.db (`read_back_of`: serve's requests and its TV's readings); each step is one dict
    operation, so threads sharing it may at worst parse a row twice."""

    def __init__(self, size: int = READ_BACK_ROWS):
        self.size = size
        self._rows: dict[int, tuple[str, Entry]] = {}

    def entry(self, row_id: int, body: str) -> Entry:
        """The entry of row `row_id` whose body is `body` (ValueError for a damaged one, as `read_entry`)."""
        known = self._rows.get(row_id)
        if known is not None and known[0] == body:
            return known[1]
        read = _entry_of(body)
        if len(self._rows) >= self.size:
            self._rows.clear()
        self._rows[row_id] = (body, read)
        return read

    def entries(self, rows: Iterable[tuple[int, str]]) -> tuple[Entry, ...]:
        return tuple(self.entry(row_id, body) for row_id, body in rows)


_READ_BACK: dict[FileId, ReadBack] = {}


def read_back_of(file: FileId | None) -> ReadBack:
    """The parsed entry rows of the event.db file `file` (device and inode), shared by this process's connections
    to it; a new one for a file that cannot be named."""
    if file is None:
        return ReadBack()
    found = _READ_BACK.get(file)
    if found is None:
        if len(_READ_BACK) >= READ_BACK_FILES:
            _READ_BACK.clear()
        found = _READ_BACK.setdefault(file, ReadBack())
    return found


class Queries:
    """The reads and writes of an open event.db, row by row; `Ledger` opens the connection they work on (`_db`, inside
    one of its write transactions for every write)."""

    _db: sqlite3.Connection
    folder: Path
    file: FileId | None
    entries_seen: int
    read_back: ReadBack

    if TYPE_CHECKING:  # Ledger's
        def _transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...

    # files the program generated

    def recorded(self, name: str) -> Fingerprint | None:
        """The fingerprint recorded when the program last completely wrote `name`; None if never or forgotten."""
        row = self._db.execute("SELECT sha256, size FROM file WHERE name = ? ORDER BY id DESC LIMIT 1",
                               (name,)).fetchone()
        return Fingerprint(row[0], row[1]) if row and row[0] is not None else None

    def record_file(self, path: Path, print_: Fingerprint | None = None) -> Fingerprint:
        """`path` (inside the folder) is written by this command: recorded just before the atomic rename that
        completes it (with `print_` of the bytes about to land), or after a write made elsewhere."""
        print_ = print_ or fingerprint(path)
        with self._transaction() as db:
            db.execute("INSERT INTO file (name, sha256, size, at, command) VALUES (?, ?, ?, ?, ?)",
                       (self._name(path), print_.sha256, print_.size, now(), command_line()))
        return print_

    def record_bytes(self, path: Path, data: bytes) -> Fingerprint:
        """`record_file` of `data`, the bytes about to land at `path`: what a writer calls just before its rename
        (`shuangsheng.storage.files.write_bytes`' `before_rename`), so a write stopped after the rename is still
        known as the program's."""
        return self.record_file(path, fingerprint_of(data))

    def forget_file(self, path: Path) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO file (name, sha256, size, at, command) VALUES (?, NULL, NULL, ?, ?)",
                       (self._name(path), now(), command_line()))

    def is_ours(self, path: Path) -> bool:
        """The file holds something the program wrote there (since it last forgot the name): the newest write, or
        the one before it when a command was stopped between recording a write and completing it."""
        name = self._name(path)
        rows = self._db.execute(
            "SELECT sha256, size FROM file WHERE name = ? AND id > "
            "(SELECT COALESCE(MAX(id), 0) FROM file WHERE name = ? AND sha256 IS NULL) ORDER BY id DESC",
            (name, name)).fetchall()
        if not rows:
            return False
        try:
            st = path.lstat()
            if not stat.S_ISREG(st.st_mode):  # a link or a folder put in its place is not what we wrote
                return False
            size = st.st_size
            if all(known is not None and known != size for _, known in rows):
                return False
            return fingerprint(path).sha256 in {sha for sha, _ in rows}
        except OSError:
            return False

    def generated(self) -> dict[str, Fingerprint]:
        """Every file the program wrote and has not forgotten, by name."""
        rows = self._db.execute(
            "SELECT name, sha256, size FROM file WHERE id IN (SELECT MAX(id) FROM file GROUP BY name) ORDER BY name")
        return {name: Fingerprint(sha, size) for name, sha, size in rows if sha is not None}

    # draws

    def record_draw(self, round_: Round, names: dict[str, tuple[str, ...]], *, done: bool = False,
                    format: dict | None = None, apart: Apart = NOTHING_APART, field: Field | None = None) -> int:
        """A new draw of `round_.number` (it supersedes any earlier one of that round); `done` when its files
        are all there already (a round workbook from before event.db); `format` the [format] it was drawn under;
        `apart` the units and seeds it kept apart; `field` what round 1 took from check-in (None: none)."""
        pairings = [[p.table, p.a, p.b, p.third_place] for p in round_.pairings]
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO draw (round, seed, lots, pool, pairings, byes, names, format, at, command, apart, field) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (round_.number, round_.seed, _json(round_.lots), _json(round_.pool), _json(pairings),
                 _json(round_.byes), _json({t: list(p) for t, p in names.items()}),
                 None if format is None else _json(format), now(), command_line(),
                 _json(apart.as_json()) if apart else None, _json(field.as_json()) if field is not None else None))
            draw_id = int(cursor.lastrowid or 0)
            if done:
                db.execute("INSERT INTO draw_done (draw, at) VALUES (?, ?)", (draw_id, now()))
        return draw_id

    def draw_done(self, draw_id: int) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR IGNORE INTO draw_done (draw, at) VALUES (?, ?)", (draw_id, now()))

    def void_draw(self, draw_id: int, reason: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT OR IGNORE INTO draw_void (draw, reason, at, command) VALUES (?, ?, ?, ?)",
                       (draw_id, reason, now(), command_line()))

    def draws(self) -> dict[int, DrawRecord]:
        """The draw in force of each round (the newest not voided), by round number."""
        rows = self._db.execute(
            "SELECT d.id, d.round, d.seed, d.lots, d.pool, d.pairings, d.byes, d.names, d.at, "
            "EXISTS (SELECT 1 FROM draw_done WHERE draw = d.id), d.format, d.apart, d.field FROM draw d "
            "WHERE d.id NOT IN (SELECT draw FROM draw_void) ORDER BY d.id")
        found: dict[int, DrawRecord] = {}
        for draw_id, number, seed, lots, pool, pairings, byes, names, at, done, fmt, apart, field in rows:
            round_ = _round_of(number, seed, lots, pool, pairings, byes)
            found[number] = DrawRecord(draw_id, round_, {t: tuple(p) for t, p in json.loads(names).items()},
                                       bool(done), at, None if fmt is None else json.loads(fmt),
                                       NOTHING_APART if apart is None else Apart.from_json(json.loads(apart)),
                                       None if field is None else Field.from_json(round_.pool, json.loads(field)))
        return dict(sorted(found.items()))

    def voided_rounds(self, number: int, reason: str | None = None) -> tuple[Round, ...]:
        """The draws of round `number` voided (for `reason`, e.g. "--redo 3", when given), oldest first."""
        rows = self._db.execute(
            "SELECT d.round, d.seed, d.lots, d.pool, d.pairings, d.byes FROM draw d JOIN draw_void v ON v.draw = d.id "
            "WHERE d.round = ? AND v.reason = COALESCE(?, v.reason) ORDER BY d.id", (number, reason))
        return tuple(_round_of(*row) for row in rows)

    # scoring

    def record_scored(self, draw_id: int, *, rules: dict, workbook: str,
                      outcomes: list[tuple[int, str, str | None, str]]) -> None:
        """Round of draw `draw_id` scored under `rules` from the workbook of fingerprint `workbook`; `outcomes`
        are (table, status, winner, sheet fingerprint)."""
        with self._transaction() as db:
            cursor = db.execute("INSERT INTO scored (draw, rules, workbook, at, command) VALUES (?, ?, ?, ?, ?)",
                                (draw_id, _json(rules), workbook, now(), command_line()))
            db.executemany("INSERT INTO outcome (scored, tbl, status, winner, sheet) VALUES (?, ?, ?, ?, ?)",
                           [(cursor.lastrowid, *o) for o in outcomes])

    def scored_rules(self, draw_id: int) -> dict | None:
        """The rules the draw's round was last scored under (`last_scored(…).rules`, in one small read); None when
        it was never scored."""
        row = self._db.execute("SELECT rules FROM scored WHERE draw = ? ORDER BY id DESC LIMIT 1", (draw_id,)).fetchone()
        return json.loads(row[0]) if row is not None else None

    def last_scored(self, draw_id: int) -> ScoredRecord | None:
        row = self._db.execute("SELECT id, rules, workbook, at FROM scored WHERE draw = ? ORDER BY id DESC LIMIT 1",
                               (draw_id,)).fetchone()
        if row is None:
            return None
        rows = self._db.execute(
            "SELECT tbl, status, winner, sheet FROM outcome WHERE scored = ? ORDER BY tbl", (row[0],)).fetchall()
        outcomes = {t: (status, winner) for t, status, winner, _ in rows}
        sheets = {t: sheet for t, _, _, sheet in rows if sheet}
        return ScoredRecord(draw_id, json.loads(row[1]), row[2], outcomes, row[3], sheets)

    # table-side entry: codes and entries

    def set_codes(self, draw_id: int, codes: Mapping[int, str]) -> None:
        """New entry codes for these tables of a draw (a table's earlier code stops working)."""
        with self._transaction() as db:
            db.executemany("INSERT INTO code (draw, tbl, code, at, command) VALUES (?, ?, ?, ?, ?)",
                           [(draw_id, table, code, now(), command_line()) for table, code in sorted(codes.items())])

    def codes(self, draw_id: int) -> dict[int, str]:
        """The code in force of each table of a draw, by table number."""
        rows = self._db.execute(
            "SELECT tbl, code FROM code WHERE id IN (SELECT MAX(id) FROM code WHERE draw = ? GROUP BY tbl) "
            "ORDER BY tbl", (draw_id,))
        return dict(rows)

    def in_force(self) -> tuple[tuple[int, int, int], dict[int, tuple[DrawRecord, dict[int, str]]]]:
        """`draws_mark` and each round's draw in force with its tables' codes, read as one snapshot."""
        self._db.execute("BEGIN")
        try:
            draws, voided, codes = self._db.execute(DRAWS_MARK).fetchone()
            drawn = {n: (record, self.codes(record.id)) for n, record in self.draws().items()}
        finally:
            self._db.execute("COMMIT")
        return (int(draws), int(voided), int(codes)), drawn

    def all_codes(self) -> set[str]:
        """Every code ever given in this event (a new one must not repeat any)."""
        return {code for (code,) in self._db.execute("SELECT code FROM code")}

    def find_code(self, code: str) -> tuple[DrawRecord, int] | None:
        """The draw in force and the table whose code in force is `code`; None for a wrong or outdated code (the
        table got a new one, or its draw was voided or superseded)."""
        for draw_id, table in self._db.execute("SELECT draw, tbl FROM code WHERE code = ? ORDER BY id DESC", (code,)):
            record = next((d for d in self.draws().values() if d.id == draw_id), None)
            if record is not None and self.codes(draw_id).get(table) == code:
                return record, table
            return None
        return None

    def last_round(self) -> int:
        """The highest round with a draw in force (0 before the first draw): `max(draws())` without reading them."""
        (number,) = self._db.execute(
            "SELECT COALESCE(MAX(round), 0) FROM draw WHERE id NOT IN (SELECT draw FROM draw_void)").fetchone()
        return int(number)

    def mark(self) -> tuple[int, int, int]:
        """`draws_mark` on this open ledger: what `find_code` answers from moves with it."""
        draws, voided, codes = self._db.execute(DRAWS_MARK).fetchone()
        return int(draws), int(voided), int(codes)

    def table_entries(self, draw_id: int, table: int) -> tuple[Entry, ...]:
        """Every entry of a table, in the order accepted."""
        return self.read_back.entries(self._db.execute(TABLE_ENTRIES, (draw_id, table)))

    def draw_entries(self, draw_id: int) -> tuple[dict[int, tuple[Entry, ...]], int]:
        """Every entry of a draw by table, in the order accepted, and their mark (`entries_mark`), read as one."""
        found: dict[int, list[Entry]] = {}
        mark = 0
        for row_id, table, body in self._db.execute("SELECT id, tbl, body FROM entry WHERE draw = ? ORDER BY id",
                                                    (draw_id,)):
            found.setdefault(table, []).append(self.read_back.entry(row_id, body))
            mark = max(mark, row_id)
        return {t: tuple(found[t]) for t in sorted(found)}, mark

    def entries_mark(self, draw_id: int) -> int:
        """A mark of a draw's entries: it moves whenever an entry of the draw is accepted (rows are only added)."""
        (mark,) = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM entry WHERE draw = ?", (draw_id,)).fetchone()
        return int(mark)

    def entries_since(self, draw_id: int, mark: int) -> tuple[dict[int, tuple[Entry, ...]], int]:
        """Every entry of each table of draw `draw_id` that has one after `mark` (an `entries_mark`), by table, and
        the new mark, read as one statement (one snapshot): what changed since a reading, and only that."""
        found: dict[int, list[Entry]] = {}
        for row_id, table, body in self._db.execute(
                "SELECT id, tbl, body FROM entry WHERE draw = ? AND tbl IN "
                "(SELECT DISTINCT tbl FROM entry WHERE draw = ? AND id > ?) ORDER BY id", (draw_id, draw_id, mark)):
            found.setdefault(table, []).append(self.read_back.entry(row_id, body))
            mark = max(mark, row_id)
        return {t: tuple(found[t]) for t in sorted(found)}, mark

    def reading_mark(self) -> tuple[int, ...]:
        """What a reading of the folder takes from event.db besides the phone entries (`entries_since` says which
        of those changed): the draws, the voided ones, the codes, the scorings and the log. Rows are only added,
        so any change moves it."""
        return tuple(int(v) for v in self._db.execute(READING_MARK).fetchone())

    def carry_entries(self, from_draw: int, to_draw: int, tables: list[int]) -> None:
        """Copies of these tables' entries under a draw that replaced theirs (`--redo` keeps the tables it does
        not change); the rows of the old draw stay as they were."""
        with self._transaction() as db:
            for table in tables:
                db.execute("INSERT INTO entry (draw, tbl, body, at, address) SELECT ?, tbl, body, at, address "
                           "FROM entry WHERE draw = ? AND tbl = ? ORDER BY id", (to_draw, from_draw, table))

    def decide_entry(self, draw_id: int, table: int, decide: Callable[[tuple[Entry, ...]], Decision]) -> Decision:
        """Read a table's entries, decide on a request and append the entry it makes, in one write transaction
        (two phones posting at once are decided one after the other); committed before it returns. Raises
        DrawReplaced, storing nothing, when the decision appends to a draw no longer in force, and LedgerLost when
        event.db is no longer the file this connection opened (`still_the_file`)."""
        with self._transaction() as db:
            decision = decide(self.read_back.entries(db.execute(TABLE_ENTRIES, (draw_id, table))))
            if decision.entry is not None:
                self._still_in_force(draw_id)
                db.execute("INSERT INTO entry (draw, tbl, body, at, address) VALUES (?, ?, ?, ?, ?)",
                           (draw_id, table, _json(decision.entry.as_json()), decision.entry.time,
                            decision.entry.address))
                self.still_the_file()
        return decision

    # the round clock

    def clock_rows(self, draw_id: int) -> tuple[ClockRow, ...]:
        """The clock's rows of a draw, in the order added."""
        return _clock_rows(self._db, draw_id)

    def decide_clock(self, draw_id: int, decide: Callable[[tuple[ClockRow, ...]], ClockDecision]) -> ClockDecision:
        """Read a draw's clock rows, decide (a press made again is recognised by its id here, in the transaction)
        and add the row decided (if any), in one write transaction; committed before it returns. Raises
        DrawReplaced, storing nothing, for a draw no longer in force, and LedgerLost as `decide_entry` does."""
        with self._transaction() as db:
            decision = decide(_clock_rows(db, draw_id))
            row = decision.row
            if row is not None:
                self._still_in_force(draw_id)
                db.execute("INSERT INTO clock (draw, action, at, address, request) VALUES (?, ?, ?, ?, ?)",
                           (draw_id, row.action.value, row.at, row.address, row.id))
                self.still_the_file()
        return decision

    def still_the_file(self) -> None:
        """Inside a write transaction, before its COMMIT (`decide_entry`, `decide_clock`): LedgerLost unless event.db
        is still the file this connection opened, not emptied and still an SQLite file. SQLite commits into a file
        deleted, cut to 0 bytes or replaced under it as if nothing happened: the entry would land nowhere anyone reads,
        and its phone would be told it was kept."""
        loss = file_loss(self.folder / DB_NAME, self.file)
        if loss is None:  # the same file, but an older copy written over it in place (the same inode): its entries
            highest = self.highest_entry()  # end before the ones this connection has seen
            if highest < self.entries_seen:
                loss = Loss.REPLACED
            self.entries_seen = max(self.entries_seen, highest)
        if loss is not None:
            raise LedgerLost(self.folder, loss, serving=True)

    def highest_entry(self) -> int:
        """The id of the last entry row (0 before any)."""
        (highest,) = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM entry").fetchone()
        return int(highest)

    def _still_in_force(self, draw_id: int) -> None:
        """Inside a write transaction: DrawReplaced unless `draw_id` is its round's draw in force (`draws`)."""
        (current,) = self._db.execute(
            "SELECT MAX(d.id) FROM draw d JOIN draw o ON d.round = o.round WHERE o.id = ? "
            "AND d.id NOT IN (SELECT draw FROM draw_void)", (draw_id,)).fetchone()
        if current != draw_id:
            raise DrawReplaced(draw_id)

    def carry_clock(self, from_draw: int, to_draw: int) -> None:
        """The round clock's rows copied under a draw that replaced theirs (`--redo` of a round being played: its
        hour goes on); the rows of the old draw stay as they were."""
        with self._transaction() as db:
            db.execute("INSERT INTO clock (draw, action, at, address, request) SELECT ?, action, at, address, request "
                       "FROM clock WHERE draw = ? ORDER BY id", (to_draw, from_draw))

    def add_clock(self, draw_id: int, row: ClockRow) -> None:
        """One clock row added as it is (committed before it returns)."""
        self.decide_clock(draw_id, lambda _: ClockDecision(row))

    # 报到 (check-in) before round 1

    def checkin_rows(self) -> tuple[CheckinRow, ...]:
        """Every check-in mark, in the order added."""
        return _checkin_rows(self._db)

    def decide_checkin(self, decide: Callable[[tuple[CheckinRow, ...], bool], CheckinDecision]) -> CheckinDecision:
        """Read the check-in's marks and whether round 1 is drawn, decide on a press and add the row decided (if any),
        in one write transaction (two desks pressing at once are decided one after the other, and a press never
        lands after round 1 was drawn from the marks before it); committed before it returns. Raises LedgerLost as
        `decide_entry` does."""
        with self._transaction() as db:
            decision = decide(_checkin_rows(db), self.last_round() > 0)
            row = decision.row
            if row is not None:
                db.execute("INSERT INTO checkin (action, team, reason, at, address, request) VALUES (?, ?, ?, ?, ?, ?)",
                           (row.press.value, row.team, row.reason, row.at, row.address, row.id))
                self.still_the_file()
        return decision

    # players replaced mid-event

    def replacements(self) -> tuple[Replacement, ...]:
        """Every replacement, in the order made."""
        return _replacements(self._db)

    def decide_replacement(self, decide: Callable[[tuple[Replacement, ...], int], Replacement | None]) -> Replacement | None:
        """Read the replacements and the last round drawn, decide and add the replacement decided (if any), in one
        write transaction, committed before it returns; LedgerLost as `decide_entry`."""
        with self._transaction() as db:
            made = decide(_replacements(db), self.last_round())
            if made is not None:
                db.execute("INSERT INTO replacement (team, player_out, player_in, from_round, reason, at, address, "
                           "request) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (made.team, made.out, made.into,
                                                                      made.from_round, made.reason, made.at,
                                                                      made.address, made.id))
                self.still_the_file()
        return made

    # the log

    def log(self, kind: str, **detail: object) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO log (kind, detail, at, command) VALUES (?, ?, ?, ?)",
                       (kind, json.dumps(detail, ensure_ascii=False, sort_keys=True), now(), command_line()))

    def entries(self, kind: str | None = None) -> list[tuple[str, dict, str]]:
        """(kind, detail, time) in the order logged."""
        query = "SELECT kind, detail, at FROM log" + (" WHERE kind = ?" if kind else "") + " ORDER BY id"
        return [(k, json.loads(d), at) for k, d, at in self._db.execute(query, (kind,) if kind else ())]

    def _name(self, path: Path) -> str:
        path = Path(path)
        try:
            return path.resolve().relative_to(self.folder.resolve()).as_posix()
        except ValueError:
            return path.name


DRAWS_MARK = ("SELECT (SELECT COALESCE(MAX(id), 0) FROM draw), (SELECT COUNT(*) FROM draw_void), "
              "(SELECT COALESCE(MAX(id), 0) FROM code)")


READING_MARK = ("SELECT (SELECT COALESCE(MAX(id), 0) FROM draw), (SELECT COUNT(*) FROM draw_void), "
                "(SELECT COUNT(*) FROM draw_done), (SELECT COALESCE(MAX(id), 0) FROM code), "
                "(SELECT COALESCE(MAX(id), 0) FROM scored), (SELECT COALESCE(MAX(id), 0) FROM log)")


def _clock_rows(db: sqlite3.Connection, draw_id: int) -> tuple[ClockRow, ...]:
    rows = db.execute("SELECT action, at, address, request FROM clock WHERE draw = ? ORDER BY id", (draw_id,))
    return tuple(ClockRow(ClockAction(action), at, address, request) for action, at, address, request in rows)


def _replacements(db: sqlite3.Connection) -> tuple[Replacement, ...]:
    rows = db.execute("SELECT team, player_out, player_in, from_round, reason, at, address, request FROM replacement "
                      "ORDER BY id")
    return tuple(Replacement(*row) for row in rows)


def _checkin_rows(db: sqlite3.Connection) -> tuple[CheckinRow, ...]:
    rows = db.execute("SELECT action, team, at, address, request, reason FROM checkin ORDER BY id")
    return tuple(CheckinRow(Press(action), team, at, address, request, reason)
                 for action, team, at, address, request, reason in rows)


def _round_of(number: int, seed: int | None, lots: str, pool: str, pairings: str, byes: str) -> Round:
    return Round(number, tuple(json.loads(pool)),
                 tuple(Pairing(t, a, b, bool(third)) for t, a, b, third in json.loads(pairings)),
                 tuple(json.loads(byes)), seed, tuple((t, n) for t, n in json.loads(lots)))


TABLE_ENTRIES = "SELECT id, body FROM entry WHERE draw = ? AND tbl = ? ORDER BY id"


def _entry_of(body: str) -> Entry:
    """An entry row's body read back."""
    return read_entry(json.loads(body))


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)
