"""The event's ledger, `event.db` (SQLite): the only module that touches it (touches that file and a lock file).

What the program did is recorded here, so the next command can trust it instead of guessing from the files:
every file the program generated (with its fingerprint once completely written), and a log. Rows are only ever
added: a file written again is a new row, a file forgotten is a row without a fingerprint; the newest row of a
name is what counts.

The journal is WAL on a local disk and SQLite's rollback journal elsewhere (WAL needs shared memory, which network
folders do not give); every connection checkpoints when it closes, so copying the folder copies everything.

One file-writing command at a time per folder: `exclusive()` holds an operating-system file lock (released by the
system when its process dies, so a killed command blocks nobody) and names the holder to whoever waits.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scoring.errors import UserError

DB_NAME = "event.db"
LOCK_NAME = ".shuangsheng.lock"
HOLDER_NAME = ".shuangsheng.lock.holder"  # who holds the lock: written by the holder, read by whoever waits
LEGACY_RECORD = ".shuangsheng-generated.json"  # the bookkeeping before event.db: imported once, then removed
WAIT_SECONDS = 5.0

# Each entry upgrades the schema by one version (PRAGMA user_version); a folder at version k runs entries k…
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE file (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,              -- inside the event folder
        sha256 TEXT,                     -- NULL: forgotten (deleted or no longer the program's)
        size INTEGER,
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE INDEX file_by_name ON file (name, id);
    CREATE TABLE log (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL,            -- JSON
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

# File systems where SQLite's WAL mode cannot work (no shared memory across machines).
NETWORK_FILESYSTEMS = frozenset({
    "nfs", "nfs4", "cifs", "smb", "smb2", "smb3", "smbfs", "afs", "ncpfs", "9p", "ceph", "glusterfs", "davfs",
    "fuse.sshfs", "fuse.rclone", "fuse.davfs2", "fuse.glusterfs", "fuse.s3fs", "lustre", "gpfs", "beegfs",
})


class LedgerError(UserError, ValueError):
    """event.db cannot be used (damaged, from a newer version of the program, or not writable)."""


class FolderBusy(UserError, RuntimeError):
    """Another command of this program is working in the same event folder."""


@dataclass(frozen=True)
class Fingerprint:
    sha256: str
    size: int | None  # None for a record imported from the bookkeeping before event.db


def fingerprint(path: Path) -> Fingerprint:
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return Fingerprint(digest.hexdigest(), size)


def fingerprint_of(data: bytes) -> Fingerprint:
    return Fingerprint(hashlib.sha256(data).hexdigest(), len(data))


def now() -> str:
    """ISO 8601 with the PC's UTC offset, to the second."""
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")


def command_line() -> str:
    """The command being run, as recorded beside what it did (`shuangsheng draw 比赛`)."""
    return " ".join(["shuangsheng", *sys.argv[1:]]) if sys.argv else "shuangsheng"


# --- where the folder lives: WAL only on a local disk ---


def _mount_types(mountinfo: str) -> list[tuple[str, str]]:
    """(mount point, file-system type) from /proc/self/mountinfo's text (Linux)."""
    mounts = []
    for line in mountinfo.splitlines():
        left, _, right = line.partition(" - ")
        fields, after = left.split(), right.split()
        if len(fields) >= 5 and after:
            mounts.append((fields[4].replace("\\040", " "), after[0]))
    return mounts


def filesystem_type(folder: Path, mountinfo: str | None = None) -> str | None:
    """The type of the file system holding `folder` on Linux (longest mount point that contains it)."""
    if mountinfo is None:
        try:
            mountinfo = Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
    target = str(folder.resolve())
    best, kind = "", None
    for point, fs in _mount_types(mountinfo):
        inside = target == point or target.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, fs
    return kind


def _windows_remote(folder: Path) -> bool:
    anchor = folder.resolve().anchor
    if anchor.startswith(("\\\\", "//")):  # \\server\share
        return True
    import ctypes

    drive_remote = 4
    return ctypes.windll.kernel32.GetDriveTypeW(anchor) == drive_remote  # type: ignore[attr-defined]


def on_local_disk(folder: Path) -> bool:
    if os.name == "nt":
        try:
            return not _windows_remote(folder)
        except (OSError, AttributeError):
            return False  # unsure: the rollback journal works everywhere
    kind = filesystem_type(folder)
    return kind is None or kind not in NETWORK_FILESYSTEMS


# --- one command at a time ---


@contextlib.contextmanager
def exclusive(folder: Path, *, wait: float = WAIT_SECONDS) -> Iterator[None]:
    """Hold the folder for one file-writing command; waits up to `wait` seconds for another one to finish, then
    raises FolderBusy naming it. The lock is the operating system's: a killed holder leaves nothing behind."""
    import filelock

    lock = filelock.FileLock(str(folder / LOCK_NAME), timeout=wait)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise FolderBusy(_busy_message(folder)) from None
    try:
        with contextlib.suppress(OSError):
            (folder / HOLDER_NAME).write_text(f"{command_line()}\n{os.getpid()}\n{now()}\n", encoding="utf-8")
        yield
    finally:
        lock.release()


def _busy_message(folder: Path) -> str:
    try:
        command, _pid, since = (folder / HOLDER_NAME).read_text(encoding="utf-8").splitlines()[:3]
    except (OSError, ValueError):
        return f"{folder}：另一个 shuangsheng 命令正在使用这个文件夹，请等它结束后再运行"
    return f"{folder}：另一个命令（{command}，{since[11:16]} 开始）正在使用这个文件夹，请等它结束后再运行"


# --- the ledger ---


class Ledger:
    """An open event.db. Use as a context manager (`with Ledger.open(folder) as ledger:`); closing checkpoints."""

    def __init__(self, connection: sqlite3.Connection, folder: Path):
        self._db = connection
        self.folder = folder

    @classmethod
    def open(cls, folder: Path) -> Ledger:
        path = folder / DB_NAME
        try:
            connection = sqlite3.connect(path, timeout=10.0, isolation_level=None)
            connection.execute("PRAGMA foreign_keys = ON")
            mode = "WAL" if on_local_disk(folder) else "DELETE"
            connection.execute(f"PRAGMA journal_mode = {mode}")
            connection.execute("PRAGMA synchronous = FULL")
            ledger = cls(connection, folder)
            ledger._migrate()
        except sqlite3.DatabaseError as exc:
            raise LedgerError(f"{path}：无法打开本比赛的记录文件（{exc}）。请勿手工修改它；如已损坏，请从备份恢复") from None
        ledger._import_legacy()
        return ledger

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise LedgerError(f"{self.folder / DB_NAME}：由更新版本的 shuangsheng 写成，请先升级本程序")
        with self._transaction() as db:
            for step in MIGRATIONS[version:]:
                for statement in filter(str.strip, step.split(";")):
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

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
            size = path.stat().st_size
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
