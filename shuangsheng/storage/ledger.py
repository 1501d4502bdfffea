"""The event's ledger, `event.db` (SQLite): the only module that touches it (touches that file and a lock file).

What the program did is recorded here, so the next command can trust it instead of guessing from the files:
every draw (round, seed or lots, the pool in order, pairings, byes, the names at the draw) and whether its files
were all written, every file the program generated (with the fingerprint of the bytes about to land), each scored
round's outcomes with the rules in force, and a log. Rows are only ever added: a file written again is a new row,
a file forgotten is a row without a fingerprint, a draw voided keeps its row and gains a `draw_void` row; the
newest row of a name or round is what counts.

A folder from before event.db gets one on its next command, built from its files: the old JSON bookkeeping is
imported, and every PDF and checked copy there is taken as the program's (the round workbooks' draws are added by
`shuangsheng.usecases.folder.adopt_rounds`). That is an old folder: one with the JSON bookkeeping, or one where no round has been drawn (a
damaged event.db there is set aside under another name and rebuilt the same way, and said). Anywhere else an
event.db missing, emptied, damaged or (in `serve`) replaced is a lost ledger (`LedgerLost`): the entry codes printed
on the cards, the phones' entries and the draws' records went with it, so every opening refuses, naming what to do
(a copy put back, or `shuangsheng rebuild`, which builds it again through `Ledger.rebuilt`); nothing is rebuilt
without a word.

The journal is WAL on a local disk and SQLite's rollback journal elsewhere (WAL needs shared memory, which network
folders do not give); every connection checkpoints when it closes, so copying the folder copies everything.

Outputs made again on every run (PDFs, checked copies) are written through `write_generated`: its fingerprint is
recorded just before the rename that puts it in place, so a file is "edited by a person" only when it differs from
what the program wrote there.

One file-writing command at a time per folder: `exclusive()` holds an operating-system file lock (released by the
system when its process dies, so a killed command blocks nobody) and names the holder to whoever waits.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import enum
import functools
import hashlib
import json
import os
import re
import sqlite3
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from shuangsheng.knockout.knockout import Pairing, Round
from shuangsheng.storage.files import CannotWrite, OutputExists, write_bytes
from shuangsheng.table.clock import ClockAction, ClockDecision, ClockRow
from shuangsheng.table.entry import Decision, Entry, read_entry
from shuangsheng.vocabulary.errors import Issue, UserError
from shuangsheng.vocabulary.text import command_line as typed_command

DB_NAME = "event.db"
LOCK_WAIT = 10.0  # seconds a statement waits for another connection's lock on event.db (SQLite's busy timeout)
LOCK_NAME = ".shuangsheng.lock"
HOLDER_NAME = ".shuangsheng.lock.holder"  # who holds the lock: written by the holder, read by whoever waits
LEGACY_RECORD = ".shuangsheng-generated.json"  # the bookkeeping before event.db: imported once, then removed
SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file
# What shows that a round was drawn in a folder: its workbook (and checked copy, backups) or its printed papers
DRAWN_SIGNS = ("round-[0-9]*.xlsx", "第[0-9]*轮*.pdf")
SIDE_FILES = ("-wal", "-journal", "-shm")  # SQLite's files beside event.db (its write-ahead log, journal, index)
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
    CREATE TABLE draw (
        id INTEGER PRIMARY KEY,
        round INTEGER NOT NULL,
        seed INTEGER,                    -- NULL: drawn from paper lots
        lots TEXT NOT NULL,              -- JSON [[team, lot], ...]
        pool TEXT NOT NULL,              -- JSON [team, ...] in draw order
        pairings TEXT NOT NULL,          -- JSON [[table, a, b, third_place], ...]
        byes TEXT NOT NULL,              -- JSON [team, ...]
        names TEXT NOT NULL,             -- JSON {team: [player1, player2]} at the draw
        format TEXT,                     -- JSON [format] at the draw, NULL for a round from before event.db
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE INDEX draw_by_round ON draw (round, id);
    CREATE TABLE draw_done (             -- every file of the draw written: the draw is complete
        draw INTEGER PRIMARY KEY REFERENCES draw (id),
        at TEXT NOT NULL
    );
    CREATE TABLE draw_void (
        draw INTEGER PRIMARY KEY REFERENCES draw (id),
        reason TEXT NOT NULL,
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE TABLE scored (
        id INTEGER PRIMARY KEY,
        draw INTEGER NOT NULL REFERENCES draw (id),
        rules TEXT NOT NULL,             -- JSON: the [rules] in force
        workbook TEXT NOT NULL,          -- sha256 of round-N.xlsx as read
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE TABLE outcome (
        scored INTEGER NOT NULL REFERENCES scored (id),
        tbl INTEGER NOT NULL,
        status TEXT NOT NULL,
        winner TEXT,
        sheet TEXT NOT NULL,             -- sha256 of the table's sheet as read
        PRIMARY KEY (scored, tbl)
    );
    CREATE TABLE log (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        detail TEXT NOT NULL,            -- JSON
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    """,
    # 2: table-side entry — each table's entry code, and every accepted change from a phone or the desk
    """
    CREATE TABLE code (
        id INTEGER PRIMARY KEY,
        draw INTEGER NOT NULL REFERENCES draw (id),
        tbl INTEGER NOT NULL,
        code TEXT NOT NULL,              -- 8 characters, without the hyphen (shuangsheng/table/codes.py)
        at TEXT NOT NULL,
        command TEXT NOT NULL
    );
    CREATE INDEX code_by_code ON code (code);
    CREATE INDEX code_by_table ON code (draw, tbl, id);
    CREATE TABLE entry (
        id INTEGER PRIMARY KEY,
        draw INTEGER NOT NULL REFERENCES draw (id),
        tbl INTEGER NOT NULL,
        body TEXT NOT NULL,              -- JSON: shuangsheng.table.entry.Entry.as_json()
        at TEXT NOT NULL,
        address TEXT NOT NULL            -- the device's IP address
    );
    CREATE INDEX entry_by_table ON entry (draw, tbl, id);
    """,
    # 3: the round clock of each draw (the desk's start and stop, rule 十六's hour)
    """
    CREATE TABLE clock (
        id INTEGER PRIMARY KEY,
        draw INTEGER NOT NULL REFERENCES draw (id),
        action TEXT NOT NULL,            -- start | stop (shuangsheng/table/clock.py)
        at TEXT NOT NULL,                -- ISO 8601 with the PC's UTC offset
        address TEXT NOT NULL            -- the device's IP address
    );
    CREATE INDEX clock_by_draw ON clock (draw, id);
    """,
    # 4: the desk's id for the press that made a clock row ("" without one: a press sent again after a lost answer
    # adds nothing, shuangsheng/table/clock.py)
    """
    ALTER TABLE clock ADD COLUMN request TEXT NOT NULL DEFAULT ''
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


class Loss(enum.Enum):
    """How event.db was lost (the words after its name in the refusal)."""

    MISSING = "不见了"
    EMPTY = "是空的（0 字节）"
    BLANK = "里面没有本比赛的任何记录"  # an SQLite file of no schema version: never one of ours
    DAMAGED = "已损坏（不是能读取的比赛记录）"
    REPLACED = "被换成了另一个文件"  # `serve`: not the file it opened (another one put in its place)


class LedgerLost(LedgerError):
    """event.db is lost (`Loss`) in a folder where rounds were drawn (`drawn`: the files that show it), or, for
    `serve` (`serving`), is no longer the file it opened: refused, naming what was lost and what to do."""

    def __init__(self, folder: Path, loss: Loss, drawn: tuple[str, ...] = (), *, serving: bool = False):
        self.folder, self.loss, self.drawn, self.serving = folder, loss, drawn, serving
        super().__init__([Issue.of_file(folder / DB_NAME, lost_text(folder, loss, drawn, serving=serving))])


LOST = ("比赛记录丢失了：各轮计分卡上印的录分码、手机录入的各局、每一轮抽签的记录都只在这个文件里，"
        "程序不会不声不响地另建一个。")


def lost_text(folder: Path, loss: Loss, drawn: tuple[str, ...] = (), *, serving: bool = False) -> str:
    """The refusal of a lost ledger, without the file's name: what was lost, and the ways on."""
    serve = typed_command("serve", folder)
    if loss is Loss.REPLACED:
        return (f"{loss.value}（serve 运行时）。serve 不会改用换上的文件，从现在起不再接受录入（手机上会看到提示）："
                f"请关掉 serve（Ctrl+C）再重新启动 {serve}；换上的文件里没有的各局，以双方签字的纸质计分卡为准录入记分表")
    if serving:
        return (f"{loss.value}（serve 运行时）。{LOST}serve 从现在起不再接受录入（手机上会看到提示），也不会改用别的文件："
                f"请关掉 serve（Ctrl+C），再按重新启动 {serve} 时的提示处理")
    shown = f"（有 {'、'.join(drawn[:3])}{' 等' if len(drawn) > 3 else ''}）" if drawn else ""
    return (f"{loss.value}，而这个活动已经抽过签{shown}。{LOST}"
            "请把 event.db 的副本放回这个文件夹（从备份，或从之前复制的活动文件夹里拷回），再运行原来的命令；"
            f"没有副本时运行 {typed_command('rebuild', folder)}：按文件夹里的文件重建记录，为当前一轮各桌换新的录分码、"
            "重新生成计分卡（旧的录分码作废；手机录入的各局无法找回，以双方签字的纸质计分卡为准，录入记分表）")


class DrawReplaced(RuntimeError):
    """A change for a draw no longer in force (voided or superseded by a `draw` since the caller read it): rolled
    back, nothing stored; the caller looks the table up again."""


class FolderBusy(UserError, RuntimeError):
    """Another command of this program is working in the same event folder."""


@dataclass(frozen=True)
class Fingerprint:
    sha256: str
    size: int | None  # None for a record imported from the bookkeeping before event.db


@dataclass(frozen=True)
class DrawRecord:
    """A draw as recorded: `done` once every file of it was written; `names` the players of each team then."""

    id: int
    round: Round
    names: dict[str, tuple[str, ...]]
    done: bool
    at: str
    format: dict | None = None


@dataclass(frozen=True)
class ScoredRecord:
    """A round as last scored: the rules then, the workbook's fingerprint, each table's (status, winner)."""

    draw: int
    rules: dict
    workbook: str
    outcomes: dict[int, tuple[str, str | None]]
    at: str
    sheets: dict[int, str] = field(default_factory=dict)  # each table's sheet fingerprint as `score` read it


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
def exclusive(folder: Path, *, wait: float | None = None) -> Iterator[None]:
    """Hold the folder for one file-writing command; waits up to `wait` seconds (default WAIT_SECONDS) for
    another one to finish, then raises FolderBusy naming it. The lock is the operating system's: a killed holder
    leaves nothing behind."""
    import filelock

    lock = filelock.FileLock(str(folder / LOCK_NAME), timeout=WAIT_SECONDS if wait is None else wait)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise FolderBusy([_busy_message(folder)]) from None
    holder = folder / HOLDER_NAME
    try:
        with contextlib.suppress(OSError):
            holder.write_text(f"{command_line()}\n{os.getpid()}\n{now()}\n", encoding="utf-8")
        yield
    finally:
        with contextlib.suppress(OSError):
            holder.unlink()  # a command that read nothing leaves the folder as it was (but the lock file)
        lock.release()


def _busy_message(folder: Path) -> Issue:
    try:
        command, _pid, since = (folder / HOLDER_NAME).read_text(encoding="utf-8").splitlines()[:3]
    except (OSError, ValueError):
        return Issue.of_file(folder, "另一个 shuangsheng 命令正在使用这个文件夹，请等它结束后再运行")
    return Issue.of_file(folder, f"另一个命令（{command}，{since[11:16]} 开始）正在使用这个文件夹，请等它结束后再运行")


# --- the program's own temporary files ---

# files.write_bytes writes `.{name}.{random}.tmp` beside the target, then renames it into place
TEMPORARY = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")


def clean_temporary(folder: Path) -> list[str]:
    """Remove the temporary files a stopped command of this program left (call only while holding the folder)."""
    removed = []
    with contextlib.suppress(OSError):
        for path in folder.iterdir():
            if TEMPORARY.match(path.name) and path.is_file():
                with contextlib.suppress(OSError):
                    path.unlink()
                    removed.append(path.name)
    return sorted(removed)


# --- a lost ledger: event.db gone, emptied, damaged or replaced where rounds were drawn ---

FileId = tuple[int, int]  # (st_dev, st_ino): which file a path names


def file_id(path: Path) -> FileId | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def file_loss(path: Path, expected: FileId | None = None) -> Loss | None:
    """What is wrong with `path` as a ledger, seen from outside SQLite: not there, another file than `expected` (the
    one a connection opened), emptied, or not an SQLite file; None when it may be one (SQLite tells the rest)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return Loss.MISSING
    except OSError:
        return None  # cannot be looked at now (permissions): opening it says why
    if expected is not None and (st.st_dev, st.st_ino) != expected:
        return Loss.REPLACED
    if not stat.S_ISREG(st.st_mode):
        return Loss.DAMAGED
    if st.st_size == 0:
        return Loss.EMPTY
    try:
        with open(path, "rb") as fh:
            header = fh.read(len(SQLITE_HEADER))
    except OSError:
        return None
    return None if header == SQLITE_HEADER else Loss.DAMAGED


def drawn_signs(folder: Path) -> tuple[str, ...]:
    """The files that show a round was drawn in `folder` (round workbooks first, then checked copies, backups and
    printed papers), by name."""
    try:
        names = {p.name for pattern in DRAWN_SIGNS for p in folder.glob(pattern)}
    except OSError:
        return ()
    return tuple(sorted(names, key=lambda n: (re.fullmatch(r"round-\d+\.xlsx", n) is None, len(n), n)))


def drawn_here(folder: Path) -> tuple[str, ...]:
    """`drawn_signs`, unless the folder is from before event.db (its JSON bookkeeping is there): a folder that has
    them cannot be given a new event.db without a word. Empty for an old folder, or one where nothing was drawn."""
    return () if (folder / LEGACY_RECORD).exists() else drawn_signs(folder)


def lost_ledger(folder: Path) -> LedgerLost | None:
    """The refusal for `folder` when its event.db is missing, emptied or not an SQLite file while rounds were drawn
    there (and it is no old folder); None otherwise. (A file only SQLite finds damaged is refused on opening.)"""
    loss = file_loss(folder / DB_NAME)
    if loss is None:
        return None
    drawn = drawn_here(folder)
    return LedgerLost(folder, loss, drawn) if drawn else None


# --- the ledger ---

# What the program generates beside the inputs (taken as ours when event.db is built from a folder's files)
GENERATED_PATTERNS = ("*.pdf", "*.png", "round-*-checked.xlsx")  # what the program generates: PDFs, phone pictures, checked copies


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
    is still committed, and synced, when it is made. For a command that writes many files: `demo --teams 128`
    opened event.db about 90 times, some 60 ms of CPU in SQLite's opening and checkpointing alone."""
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


class Ledger:
    """An open event.db. Use as a context manager (`with Ledger.open(folder) as ledger:`); closing checkpoints."""

    def __init__(self, connection: sqlite3.Connection, folder: Path):
        self._db = connection
        self.folder = folder
        self.kept = False  # held open by `kept_open`: closing it does nothing
        self.created = False  # event.db was made by this opening (a new folder, or one from before event.db)
        self.notes: list[str] = []  # what the opening did that the user should hear (a damaged event.db set aside)
        self.wrote = False  # a write transaction was begun on this connection (its close waits to checkpoint)
        self.file = file_id(folder / DB_NAME)  # the file this connection opened (`still_the_file`)

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
                raise LedgerError([Issue.of_file(path, f"无法打开本比赛的记录文件（{exc}）。请确认这个文件夹可以写入")]) from None
            if drawn := drawn_here(folder):
                raise LedgerLost(folder, Loss.DAMAGED, drawn) from None
            aside = _set_aside(path)
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
        aside = _set_aside(folder / DB_NAME)
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
            ledger._migrate()
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

    def _migrate(self) -> None:
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise LedgerError([Issue.of_file(self.folder / DB_NAME, "由更新版本的 shuangsheng 写成，请先升级本程序")])
        if version == SCHEMA_VERSION:
            return  # nothing written: a command that only reads leaves event.db byte for byte as it was
        self.created = version == 0  # a new event.db (an empty file counts as one)
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
                    format: dict | None = None) -> int:
        """A new draw of `round_.number` (it supersedes any earlier one of that round); `done` when its files
        are all there already (a round workbook from before event.db); `format` the [format] it was drawn under."""
        pairings = [[p.table, p.a, p.b, p.third_place] for p in round_.pairings]
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO draw (round, seed, lots, pool, pairings, byes, names, format, at, command) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (round_.number, round_.seed, _json(round_.lots), _json(round_.pool), _json(pairings),
                 _json(round_.byes), _json({t: list(p) for t, p in names.items()}),
                 None if format is None else _json(format), now(), command_line()))
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
            "EXISTS (SELECT 1 FROM draw_done WHERE draw = d.id), d.format FROM draw d "
            "WHERE d.id NOT IN (SELECT draw FROM draw_void) ORDER BY d.id")
        found: dict[int, DrawRecord] = {}
        for draw_id, number, seed, lots, pool, pairings, byes, names, at, done, fmt in rows:
            round_ = _round_of(number, seed, lots, pool, pairings, byes)
            found[number] = DrawRecord(draw_id, round_, {t: tuple(p) for t, p in json.loads(names).items()},
                                       bool(done), at, None if fmt is None else json.loads(fmt))
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
        rows = self._db.execute("SELECT body FROM entry WHERE draw = ? AND tbl = ? ORDER BY id", (draw_id, table))
        return tuple(_entry_of(body) for (body,) in rows)

    def draw_entries(self, draw_id: int) -> tuple[dict[int, tuple[Entry, ...]], int]:
        """Every entry of a draw by table, in the order accepted, and their mark (`entries_mark`), read as one."""
        found: dict[int, list[Entry]] = {}
        mark = 0
        for row_id, table, body in self._db.execute("SELECT id, tbl, body FROM entry WHERE draw = ? ORDER BY id",
                                                    (draw_id,)):
            found.setdefault(table, []).append(_entry_of(body))
            mark = max(mark, row_id)
        return {t: tuple(found[t]) for t in sorted(found)}, mark

    def entries_mark(self, draw_id: int) -> int:
        """A mark of a draw's entries: it moves whenever an entry of the draw is accepted (rows are only added)."""
        (mark,) = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM entry WHERE draw = ?", (draw_id,)).fetchone()
        return int(mark)

    def carry_entries(self, from_draw: int, to_draw: int, tables: list[int]) -> None:
        """Copies of these tables' entries under a draw that replaced theirs (`--redo` keeps the tables it does
        not change); the rows of the old draw stay as they were."""
        with self._transaction() as db:
            for table in tables:
                db.execute("INSERT INTO entry (draw, tbl, body, at, address) SELECT ?, tbl, body, at, address "
                           "FROM entry WHERE draw = ? AND tbl = ? ORDER BY id", (to_draw, from_draw, table))

    def tables_with_entries(self, draw_id: int) -> set[int]:
        return {t for (t,) in self._db.execute("SELECT DISTINCT tbl FROM entry WHERE draw = ?", (draw_id,))}

    def decide_entry(self, draw_id: int, table: int, decide: Callable[[tuple[Entry, ...]], Decision]) -> Decision:
        """Read a table's entries, decide on a request and append the entry it makes, in one write transaction
        (two phones posting at once are decided one after the other); committed before it returns. Raises
        DrawReplaced, storing nothing, when the decision appends to a draw no longer in force, and LedgerLost when
        event.db is no longer the file this connection opened (`still_the_file`)."""
        with self._transaction() as db:
            rows = db.execute("SELECT body FROM entry WHERE draw = ? AND tbl = ? ORDER BY id", (draw_id, table))
            decision = decide(tuple(_entry_of(body) for (body,) in rows))
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
        if loss is not None:
            raise LedgerLost(self.folder, loss, serving=True)

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


def _clock_rows(db: sqlite3.Connection, draw_id: int) -> tuple[ClockRow, ...]:
    rows = db.execute("SELECT action, at, address, request FROM clock WHERE draw = ? ORDER BY id", (draw_id,))
    return tuple(ClockRow(ClockAction(action), at, address, request) for action, at, address, request in rows)


@functools.lru_cache(maxsize=8192)
def _round_of(number: int, seed: int | None, lots: str, pool: str, pairings: str, byes: str) -> Round:
    return Round(number, tuple(json.loads(pool)),
                 tuple(Pairing(t, a, b, bool(third)) for t, a, b, third in json.loads(pairings)),
                 tuple(json.loads(byes)), seed, tuple((t, n) for t, n in json.loads(lots)))


def _entry_of(body: str) -> Entry:
    """An entry row's body read back (rows never change, and an Entry is immutable: each read once per process, not
    once per request of its table)."""
    return read_entry(json.loads(body))


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _set_aside(path: Path) -> Path | None:
    """A damaged or lost event.db renamed `event.损坏-YYYYMMDD-HHMMSS.db`, with its write-ahead log and journal under
    that name beside it (they hold its last commits: kept for whoever wants to look into them), its shared-memory
    index removed. None when event.db was not there (a log left behind is set aside all the same: SQLite would read
    it into the new event.db)."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        aside = path.with_name(f"{path.stem}.损坏-{stamp}{'' if n == 1 else f'-{n}'}{path.suffix}")
        if not any(Path(str(aside) + extra).exists() for extra in ("", *SIDE_FILES)):
            break
    present = [extra for extra in ("", "-wal", "-journal") if os.path.lexists(str(path) + extra)]
    try:
        for extra in present:
            os.replace(str(path) + extra, str(aside) + extra)
        Path(str(path) + "-shm").unlink(missing_ok=True)
    except OSError as exc:
        raise LedgerError([Issue.of_file(path, f"无法改名保留（{exc.strerror or exc}）；请把它移走后再运行")]) from None
    return aside if "" in present else None


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


# --- outputs the program regenerates (PDFs, checked copies): replaced freely unless somebody changed them ---


def _ledger(folder: Path) -> Ledger:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CannotWrite(folder, exc) from None
    return Ledger.open(folder)


def check_regenerable(path: Path, *, force: bool) -> None:
    """An output we generate again on every run may be replaced while it is what we last wrote there; once a
    person has edited it (or it was never ours) it is kept unless `force`."""
    if force or not path.exists():
        return
    with _ledger(path.parent) as book:
        if not book.is_ours(path):
            raise OutputExists(path, edited=True)


def is_generated(path: Path) -> bool:
    """`path` is an output we regenerate (a PDF, a checked copy), exactly as we last wrote it (event.db says)."""
    book = Ledger.existing(path.parent)
    if book is None:
        return False
    with book:
        return book.is_ours(path)


def write_generated(path: Path, data: bytes, *, force: bool) -> Path:
    """An output made again on every run: replaced while it is what we last wrote, kept (OutputExists) once a
    person edited it, unless `force`. Its fingerprint is recorded in event.db just before it lands, so a write
    stopped half-way is never taken for a person's edit."""
    with _ledger(path.parent) as book:
        if not force and path.exists() and not book.is_ours(path):
            raise OutputExists(path, edited=True)
        print_ = fingerprint_of(data)
        return write_bytes(path, data, force=True, before_rename=lambda: book.record_file(path, print_))


class Removal(enum.Enum):
    """What became of an output of ours that is no longer wanted (`discard_generated`)."""

    REMOVED = "removed"  # deleted, and forgotten in event.db
    ABSENT = "absent"  # not there
    EDITED = "edited"  # not as we last wrote it (a person edited it, or it was never ours): kept
    REFUSED = "refused"  # ours, but the system would not delete it (open in a PDF reader on Windows): kept


def discard_generated(path: Path, book: Ledger | None = None) -> Removal:
    """Delete an output of ours that is no longer wanted when it is exactly as we wrote it, and record that it is
    gone (in `book`, the folder's event.db already open, or opened here); a file a person edited (or never ours), or
    one that cannot be deleted now, is kept."""
    if book is None:
        with _ledger(path.parent) as opened:
            return discard_generated(path, opened)
    if not path.exists():
        return Removal.ABSENT
    if not book.is_ours(path):
        return Removal.EDITED
    try:
        path.unlink()
    except OSError:
        return Removal.REFUSED
    book.forget_file(path)
    return Removal.REMOVED


def remove_generated(path: Path) -> bool:
    """Delete an output of ours that is no longer made (a picture's part beyond the parts drawn now) when it is
    exactly as we wrote it, and record that it is gone; a file a person edited (or never ours) is kept: False."""
    return discard_generated(path) is Removal.REMOVED
