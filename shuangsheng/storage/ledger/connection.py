"""An open event.db (`Ledger`): opened or created, connected (WAL on a local disk), migrated to the current schema,
the old JSON bookkeeping imported and, for a new one, the folder's outputs taken as the program's; a lost one
refused; one write transaction at a time (`atomic`); closed with a checkpoint; and `kept_open`, one connection
for every opening of a folder's event.db in a thread. Touches event.db (and SQLite's files beside it); reads and
removes the old JSON bookkeeping, and fingerprints the folder's outputs when event.db is new."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from shuangsheng.storage.faults import known_fault
from shuangsheng.storage.ledger.disk import on_local_disk
from shuangsheng.storage.ledger.lost import (
    LedgerError,
    LedgerLost,
    Loss,
    drawn_here,
    file_id,
    file_loss,
    lost_ledger,
    set_aside,
)
from shuangsheng.storage.ledger.queries import Queries, read_back_of
from shuangsheng.storage.ledger.records import fingerprint, now
from shuangsheng.storage.ledger.schema import MIGRATIONS, SCHEMA_VERSION
from shuangsheng.storage.names import DB_NAME, GENERATED_PATTERNS, LEGACY_RECORD
from shuangsheng.vocabulary.errors import Issue

LOCK_WAIT = 10.0  # seconds a statement waits for another connection's lock on event.db (SQLite's busy timeout)


# The event.db of each folder held open by `kept_open` in this thread (None until it is first opened).
_KEPT = threading.local()


def _kept() -> dict[Path, Ledger | None]:
    if not hasattr(_KEPT, "books"):
        _KEPT.books = {}
    return _KEPT.books


@contextlib.contextmanager
def kept_open(folder: Path) -> Iterator[None]:
    """Within: every opening of `folder`'s event.db in this thread (`Ledger.open`, `Ledger.existing`) gets the one
    connection the first opened, closed (and checkpointed) at the end; closing it earlier does nothing. Each write
    is still committed, and synced, when it is made. For a command that writes many files (a demo, the awards):
    each file's record would otherwise open and checkpoint event.db again (bench/run.py measures the commands)."""
    key = Path(folder).resolve()
    books = _kept()
    if key in books:  # already kept by an outer caller
        yield
        return
    books[key] = None
    try:
        yield
    finally:
        book = books.pop(key)
        if book is not None:
            book.kept = False
            book.close()


class Ledger(Queries):
    """An open event.db. Use as a context manager (`with Ledger.open(folder) as ledger:`); closing checkpoints."""

    def __init__(self, connection: sqlite3.Connection, folder: Path):
        self._db = connection
        self.folder = folder
        self.kept = False  # held open by `kept_open`: closing it does nothing
        self.created = False  # event.db was made by this opening (a new folder, or one from before event.db)
        self.notes: list[str] = []  # what the opening did that the user should hear (a damaged event.db set aside)
        self.wrote = False  # a write transaction was begun on this connection (its close waits to checkpoint)
        self.file = file_id(folder / DB_NAME)  # the file this connection opened (`still_the_file`)
        self.entries_seen = 0  # the highest entry row seen in it: entries are only added, so it never goes down
        self.read_back = read_back_of(self.file)  # its entry rows, each parsed once (shared with the process's others)

    @classmethod
    def open(cls, folder: Path) -> Ledger:
        """Open (or create) the folder's event.db; a damaged one is set aside and rebuilt, and said in `notes`."""
        kept = cls._kept_book(folder)
        if kept is not None:
            return kept
        return cls._keep(folder, cls._open(folder))

    @classmethod
    def _open(cls, folder: Path) -> Ledger:
        path = folder / DB_NAME
        if (lost := lost_ledger(folder)) is not None:
            raise lost
        existed = path.exists()
        try:
            ledger = cls._connect(folder)
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) or not existed:
                fault = known_fault(exc, folder)
                said = fault.detail if fault else f"{exc}。请确认这个文件夹可以写入"
                raise LedgerError([Issue.of_file(path, f"打不开本比赛的记录文件：{said}")]) from None
            if drawn := drawn_here(folder):
                raise LedgerLost(folder, Loss.DAMAGED, drawn) from None
            aside = set_aside(path)
            ledger = cls._connect(folder)
            kept = f"已改名为 {aside.name} 保留，" if aside is not None else ""
            ledger.notes.append(f"{path} 已损坏（{exc}），{kept}并按文件夹里的文件重建了记录")
            existed = False
        return ledger._built(existed=existed)

    @classmethod
    def rebuilt(cls, folder: Path) -> tuple[Ledger, Path | None]:
        """`shuangsheng rebuild`: the lost event.db (and SQLite's files beside it) set aside under another name, and a
        new one built from the folder's files as for an old folder (the round workbooks' draws are added by
        `shuangsheng.usecases.folder.adopt_rounds`). Returns it (not kept open) and where the lost file went (None: it was not there)."""
        aside = set_aside(folder / DB_NAME)
        return cls._connect(folder, building=True)._built(existed=False), aside

    def _built(self, *, existed: bool) -> Ledger:
        """Opened: the old JSON bookkeeping imported; a new event.db takes the folder's outputs as the program's."""
        self.created = self.created or not existed
        self._import_legacy()
        if self.created:
            self._adopt_generated()
        return self

    @classmethod
    def existing(cls, folder: Path) -> Ledger | None:
        """The folder's event.db if it has a readable one, else None (for commands that write nothing)."""
        kept = cls._kept_book(folder)
        if kept is not None:
            return kept
        if file_loss(folder / DB_NAME) is not None:
            return None  # not there, emptied or no SQLite file: nothing to read (and nothing made here)
        try:
            return cls._keep(folder, cls._connect(folder))
        except (sqlite3.DatabaseError, LedgerLost):
            return None  # damaged, or holding no ledger: the next command that writes names it (or rebuilds it)

    @classmethod
    def readable(cls, folder: Path) -> Ledger | None:
        """`existing`, or None when event.db cannot be taken as it stands (a newer program's, or one that cannot be
        upgraded here): for what only reads and goes on without it (the command that writes names the problem)."""
        try:
            return cls.existing(folder)
        except LedgerError:
            return None

    @staticmethod
    def _kept_book(folder: Path) -> Ledger | None:
        books = _kept()
        return books.get(Path(folder).resolve()) if books else None

    @staticmethod
    def _keep(folder: Path, book: Ledger) -> Ledger:
        """`book`, kept open when `kept_open` holds its folder in this thread."""
        books = _kept()
        key = Path(folder).resolve() if books else None
        if key is not None and key in books:
            books[key] = book
            book.kept = True
        return book

    @classmethod
    def _connect(cls, folder: Path, *, building: bool = False) -> Ledger:
        """`building`: a new event.db may be made here even though rounds were drawn (`rebuilt`)."""
        path = folder / DB_NAME
        # check_same_thread off: `serve` keeps a few open and lends each to one request thread at a time
        connection = sqlite3.connect(path, timeout=LOCK_WAIT, isolation_level=None, check_same_thread=False)
        try:
            connection.execute("PRAGMA foreign_keys = ON")
            blank = not building and connection.execute("PRAGMA user_version").fetchone()[0] == 0
            if blank and (drawn := drawn_here(folder)):  # an SQLite file with nothing of ours where rounds were drawn
                raise LedgerLost(folder, Loss.BLANK, drawn)
            mode = "WAL" if on_local_disk(folder) else "DELETE"
            if connection.execute("PRAGMA journal_mode").fetchone()[0].upper() != mode:
                connection.execute(f"PRAGMA journal_mode = {mode}")
            connection.execute("PRAGMA synchronous = FULL")
            ledger = cls(connection, folder)
            ledger.migrate()
            ledger.entries_seen = ledger.highest_entry()
        except (sqlite3.DatabaseError, LedgerError):
            connection.close()
            raise
        return ledger

    def wait_for_locks(self, seconds: float) -> None:
        """How long a statement waits for another connection's lock on event.db before raising
        `sqlite3.OperationalError` (SQLITE_BUSY): LOCK_WAIT as opened."""
        self._db.execute(f"PRAGMA busy_timeout = {round(seconds * 1000)}")

    @property
    def in_transaction(self) -> bool:
        """A transaction is open (one whose COMMIT failed: closing the ledger rolls it back)."""
        return self._db.in_transaction

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close, checkpointing: a connection that wrote waits for the others as any statement does (so that the
        folder copied afterwards holds everything); one that only read tries once and never waits — another
        program holding event.db's write lock must not hold up a reader's answer (the desk, the TV) for LOCK_WAIT."""
        if self.kept:
            return
        with contextlib.suppress(sqlite3.Error):
            if not self.wrote:
                self._db.execute("PRAGMA busy_timeout = 0")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; inside `atomic()`, a savepoint of the transaction it holds (committed with it)."""
        if self._db.in_transaction:
            with self._savepoint():
                yield self._db
            return
        self._db.execute("BEGIN IMMEDIATE")
        self.wrote = True
        try:
            yield self._db
        except BaseException:
            if self._db.in_transaction:  # not already rolled back by SQLite itself (a full disk, an I/O error)
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextlib.contextmanager
    def _savepoint(self) -> Iterator[None]:
        self._db.execute("SAVEPOINT part")
        try:
            yield
        except BaseException:
            if self._db.in_transaction:  # as in `_transaction`: the error's own rollback may have ended it all
                self._db.execute("ROLLBACK TO part")
                self._db.execute("RELEASE part")
            raise
        self._db.execute("RELEASE part")

    @contextlib.contextmanager
    def atomic(self) -> Iterator[None]:
        """Several changes (`record_draw`, `void_draw`, `set_codes`, `carry_entries`, …) as one write transaction:
        committed together when the block ends, rolled back together when it raises; no other connection (a phone's
        request in `serve`) sees a part of them, and none writes between them."""
        with self._transaction():
            yield

    def migrate(self, *, meanwhile: Callable[[], object] = lambda: None) -> None:
        """Bring event.db to the current schema (`MIGRATIONS`). The version is read once without a transaction (a
        command that only reads leaves an up-to-date event.db byte for byte as it was), then read again inside the
        write transaction that migrates: another process (a second command, `serve`) may have migrated it between
        the two, and a migration run twice would fail. `meanwhile` (tests): called between the two reads."""
        version = self._version()
        if version == SCHEMA_VERSION:
            return  # nothing written
        meanwhile()
        with self._transaction() as db:
            version = self._version()  # as it stands now that no other connection can write
            self.created = self.created or version == 0  # a new event.db (an empty file counts as one)
            for step in MIGRATIONS[version:]:
                for statement in filter(str.strip, step.split(";")):
                    db.execute(statement)
            if version != SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _version(self) -> int:
        """event.db's schema version; LedgerError for a newer program's."""
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise LedgerError([Issue.of_file(self.folder / DB_NAME, "由更新版本的 shuangsheng 写成，请先升级本程序")])
        return version

    def _import_legacy(self) -> None:
        """The JSON bookkeeping of earlier versions: its fingerprints become rows, then it is removed."""
        legacy = self.folder / LEGACY_RECORD
        try:
            data = json.loads(legacy.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = None
        if isinstance(data, dict):
            known = {name for (name,) in self._db.execute("SELECT DISTINCT name FROM file")}
            entries = [(n, d) for n, d in sorted(data.items()) if isinstance(d, str) and n not in known]
            with self._transaction() as db:
                db.executemany("INSERT INTO file (name, sha256, size, at, command) VALUES (?, ?, NULL, ?, ?)",
                               [(n, d, now(), "imported from " + LEGACY_RECORD) for n, d in entries])
        if legacy.exists():
            with contextlib.suppress(OSError):
                legacy.unlink()

    def _adopt_generated(self) -> None:
        """event.db built from a folder's files: every PDF and checked copy there is taken as the program's (a
        person rarely edits those; blaming one for the program's own files would be worse)."""
        known = set(self.generated())
        found = sorted({p for pattern in GENERATED_PATTERNS for p in self.folder.glob(pattern) if p.is_file()})
        rows = []
        for path in found:
            if path.name not in known:
                with contextlib.suppress(OSError):
                    print_ = fingerprint(path)
                    rows.append((path.name, print_.sha256, print_.size, now(), "adopted when event.db was built"))
        if rows:
            with self._transaction() as db:
                db.executemany("INSERT INTO file (name, sha256, size, at, command) VALUES (?, ?, ?, ?, ?)", rows)
