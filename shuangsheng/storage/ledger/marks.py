"""Cheap marks of what event.db holds, for the pollers of `serve` and `show` (`draws_mark`, `version`), and the
draws in force with their codes (`draws_in_force`). Only reads event.db, and never waits long for a writer."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.queries import DRAWS_MARK
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.storage.names import DB_NAME


def draws_mark(folder: Path) -> tuple[int, int, int] | None:
    """A cheap mark of the draws and entry codes in event.db: it moves whenever a draw, a voided draw or a code is
    recorded (rows are only added), so a watcher (`serve`'s 扫码单) reads this until it moves. None when event.db
    is not there or cannot be read now. Only reads: waits at most a second for a writer, and skips the checkpoint
    a Ledger makes on closing. (A plain path, not a `mode=rw` URI: SQLite refuses the URI of a folder on a
    network share.)"""
    path = folder / DB_NAME
    if not path.is_file():
        return None
    try:
        connection = sqlite3.connect(path, timeout=1.0, isolation_level=None)
        try:
            draws, voided, codes = connection.execute(DRAWS_MARK).fetchone()
        finally:
            connection.close()
    except (sqlite3.Error, OSError, ValueError):
        return None
    return int(draws), int(voided), int(codes)


def draws_in_force(folder: Path) -> tuple[tuple[int, int, int], dict[int, tuple[DrawRecord, dict[int, str]]]] | None:
    """`Ledger.in_force` of the folder's event.db; None when it is not there or cannot be read now."""
    book = Ledger.existing(folder)
    if book is None:
        return None
    try:
        with book:
            return book.in_force()
    except sqlite3.Error:
        return None


def version(folder: Path) -> tuple[int, ...] | None:
    """A cheap mark of everything event.db holds: its schema version and each table's row count (rows are only ever
    added, so any commit changes it). SQLite commits are atomic, so a reader needs no settling time: in WAL mode a
    commit lands in event.db-wal and event.db's own size and date may not change at all. None without a readable
    event.db."""
    path = folder / DB_NAME
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(path, timeout=1.0, isolation_level=None)  # a poll waits a moment for a writer, no more
    except (sqlite3.Error, OSError):
        return None
    try:
        db.execute("BEGIN")  # one snapshot for every count
        names = [n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        counts = [db.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in names]
        schema = db.execute("PRAGMA user_version").fetchone()[0]
        db.execute("COMMIT")
        return (schema, *counts)
    except (sqlite3.Error, OSError):
        return None
    finally:
        db.close()
