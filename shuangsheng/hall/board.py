"""What the venue display shows, read from the event folder (`BoardSource`): the TV's views and the round clock,
read again only once the folder's files have changed and settled. The folder is read through
`shuangsheng.usecases.show` (the calls `score` and `awards` make); when only event.db changed, only the tables whose
phone entries changed are read and scored again (`with_new_entries`). The CLI writes its files atomically, and a
file still changing (a referee's workbook being saved) is left alone until it has been quiet for a moment. A round
file that was read and is gone is said on the page over the views last read. Reads the folder (event.toml,
teams.xlsx, round-N.xlsx, event.db); writes nothing."""

from __future__ import annotations

import contextlib
import datetime as dt
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from shuangsheng.hall.steady import STEADY
from shuangsheng.render.show_page import version_of, views_html
from shuangsheng.render.venue import Board
from shuangsheng.storage.ledger import marks
from shuangsheng.storage.ledger.connection import Ledger, kept_open
from shuangsheng.storage.names import EVENT_FILE, TEAMS_FILE, round_files, round_number
from shuangsheng.storage.workbook import RoundSheet
from shuangsheng.table.clock import ClockRow, clock_at
from shuangsheng.table.state import KnownStates
from shuangsheng.usecases.show import Reading, read_folder, with_new_entries
from shuangsheng.vocabulary.errors import UserError

DEFAULT_TITLE = "场地大屏"
DEFAULT_MINUTES = 60  # a match's minutes while event.toml cannot be read


# The folder is read again once its files have stopped changing for this long: by their mtimes when these are all
# in the past, else by this server's own clock (a file from a stick or a share may carry a clock ahead of ours).
SETTLE_SECONDS = 1.0

FOLDER_TROUBLE = "活动文件夹中有{count}处问题待处理，请看电脑上的提示；这里显示的是此前的内容。"
FOLDER_UNREADABLE = "暂时无法读取活动文件夹（{count}处问题），请在电脑上查看提示；改好后这里会自动更新。"
ROUND_MISSING = (
    "找不到{files}：文件被删除或移走了。这里显示的是最后一次读到的内容；请把文件放回活动文件夹，放回后这里会自动更新。"
)
ROUND_MISSING_LOG = "如果是有意删除的，请按 Ctrl+C 停止大屏，再重新运行 shuangsheng show"


def load_board(folder: Path) -> Board:
    """The page data of a whole reading of the folder (`shuangsheng.usecases.show`). Raises UserError."""
    return read_folder(folder).board


@dataclass(frozen=True)
class Snapshot:
    title: str
    views: str
    version: str


def snapshot(title: str, board: Board | None, notices: tuple[str, ...] = ()) -> Snapshot:
    views = views_html(board, notices)
    return Snapshot(title, views, version_of(views))


# --- the folder: what changed, and when to read it again ---


@dataclass(frozen=True)
class FileState:
    """What tells a file's versions apart: any change of size, mtime or inode is a new version (a file replaced by
    an older copy, or saved with a clock ahead of ours, is new all the same). `size` is None for a missing file."""

    name: str
    size: int | None
    mtime_ns: int | None
    inode: int | None


def file_state(path: Path) -> FileState:
    try:
        st = path.stat()
    except OSError:
        return FileState(path.name, None, None, None)
    return FileState(path.name, st.st_size, st.st_mtime_ns, st.st_ino)


def folder_fingerprint(folder: Path) -> tuple[FileState, ...]:
    """event.toml, teams.xlsx and every round-N.xlsx (checked copies and backups are the program's own output).
    event.db is watched by its content instead (`marks.version`): in WAL mode a commit lands in event.db-wal, and
    a hall of phones entering hands keeps its files changing, so their dates would never settle."""
    try:
        rounds = round_files(folder)
    except OSError:
        rounds = []
    return tuple(file_state(p) for p in (folder / EVENT_FILE, folder / TEAMS_FILE, *rounds))


def written_before(fingerprint: Sequence[FileState], now_ns: int, settle: float) -> bool:
    """Whether every file was last written at least `settle` seconds ago by its mtime, none of them in the future."""
    ages = [now_ns - f.mtime_ns for f in fingerprint if f.mtime_ns is not None]
    return all(age >= settle * 1e9 for age in ages)


def rounds_in(fingerprint: Sequence[FileState]) -> frozenset[str]:
    return frozenset(f.name for f in fingerprint if f.size is not None and round_number(f.name) is not None)


@dataclass(frozen=True)
class Watch:
    """When to read the folder again (pure): once a new fingerprint has stayed the same for `settle` seconds by the
    server's clock, or at once when its files' mtimes say they were written long enough ago (`settled`)."""

    read: tuple | None = None  # the fingerprint of the last reading
    changed: tuple | None = None  # a different one seen since, not yet read
    since: float = 0.0  # when `changed` was first seen

    def observe(self, fingerprint: tuple, now: float, settle: float, *,
                settled: bool = False) -> tuple[Watch, bool]:
        """The next state and whether to read the folder now."""
        if fingerprint == self.read:
            return Watch(self.read), False
        pending = self if fingerprint == self.changed else Watch(self.read, fingerprint, now)
        if settled or now - pending.since >= settle:
            return Watch(fingerprint), True
        return pending, False


def problems_of(exc: UserError) -> tuple[str, ...]:
    """The problems an error reports, one entry each: its issues (records), as shown."""
    return tuple(str(issue) for issue in exc.issues)


def missing_notice(names: Iterable[str]) -> str:
    numbered = sorted((round_number(name) or 0, name) for name in names)
    files = "、".join(f"第{number}轮记分表 {name}" for number, name in numbered)
    return ROUND_MISSING.format(files=files)


class BoardSource:
    """The folder's current views, read again only when its files change (and have settled). A round file that was
    read and is gone is said on the page over the views last read: never a quiet step back to the round before."""

    def __init__(self, folder: Path, *, log: Callable[[str], None], settle: float = SETTLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic, now: Callable[[], dt.datetime] | None = None,
                 known: KnownStates | None = None):
        self.folder = folder
        self.known = known  # `serve`'s kept states of the tables: a replay the phones' decisions made is not made again
        self.now = now or STEADY.now  # the hall's steady time of day (hall/steady.py)
        self.log = log
        self.settle = settle
        self.clock = clock
        self._lock = threading.Lock()
        self._watch = Watch()
        self._good: Board | None = None
        self._reading: Reading | None = None  # the last good reading, and the folder's files then
        self._reading_files: tuple[FileState, ...] = ()
        self._good_rounds: frozenset[str] = frozenset()
        self._current: Snapshot | None = None
        self._version: tuple[int, ...] | None = None  # event.db's, when the clock was last read
        self._clock_files: tuple[FileState, ...] = ()  # the folder's files then (event.toml: its minutes)
        self._clock: tuple[tuple[ClockRow, ...], int] = ((), DEFAULT_MINUTES)  # the round clock's rows, its minutes

    def current(self) -> Snapshot:
        """The views, read again when the folder's files changed and settled, or at once when only event.db did
        (a commit is atomic: nothing to wait for). event.db is opened once for the clock and the reading."""
        with self._lock, kept_open(self.folder):
            files = folder_fingerprint(self.folder)
            version = marks.version(self.folder)
            if version != self._version or files != self._clock_files:
                self._version, self._clock_files = version, files
                self._clock = read_clock(self.folder, self._clock[1])
            fingerprint = (files, version)
            same_files = self._watch.read is not None and self._watch.read[0] == files
            # A file gone has no date to go by, and a save that replaces a file (Excel's) leaves it gone a moment.
            settled = same_files or (self._good_rounds <= rounds_in(files) and written_before(
                files, time.time_ns(), self.settle))
            self._watch, due = self._watch.observe(fingerprint, self.clock(), self.settle, settled=settled)
            if due or self._current is None:
                self._watch = Watch(fingerprint)
                self._current = self._read(files)
            return self._current

    def board(self) -> Board | None:
        """The last good reading of the folder (refreshed as `current` does), for the desk: None before any."""
        self.current()
        with self._lock:
            return self._good

    def round_sheet(self, number: int) -> RoundSheet | None:
        """Round `number`'s workbook as the last good reading of the folder read it (refreshed as `current` does),
        for the desk: None before any, or when that reading has no such round."""
        self.current()
        with self._lock:
            rounds = self._reading.rounds if self._reading is not None else ()
            return next((s for s in rounds if s.round.number == number), None)

    def clock_json(self, now: dt.datetime) -> tuple[dict[str, object] | None, str]:
        """The round clock at `now` as `/board.json` gives it (None before the desk starts it), and a mark of its
        state — its rows and minutes ("" before any row): a start, a stop or new minutes are news, and the page's
        ETag changes with them. Call after `current`."""
        with self._lock:
            rows, minutes = self._clock
        clock = clock_at(rows, now, minutes)
        return (clock.as_json() if clock is not None else None), (f"{len(rows)}-{minutes}" if rows else "")

    def _read(self, fingerprint: tuple[FileState, ...]) -> Snapshot:
        missing = self._good_rounds - rounds_in(fingerprint)
        if missing and self._good is not None:
            notice = missing_notice(missing)
            self.log(f"{self.folder}：{notice}")
            self.log(f"  {ROUND_MISSING_LOG}")
            return snapshot(self._good.title, self._good, (notice,))
        try:
            last = self._reading if self._reading_files == fingerprint else None  # only event.db changed
            known = self._reading.rounds if self._reading is not None else ()  # parsed again only when changed
            reading = ((with_new_entries(last, self.folder, self.known) if last is not None else None)
                       or read_folder(self.folder, known=known))
        except UserError as exc:
            return self._trouble(problems_of(exc))
        board = reading.board
        if self._good is not None and reading is not self._reading:
            self.log(f"{time.strftime('%H:%M:%S')} 活动文件夹有变动，大屏已更新")
        self._good, self._reading, self._reading_files = board, reading, fingerprint
        self._good_rounds = rounds_in(fingerprint)
        return snapshot(board.title, board)

    def _trouble(self, problems: Sequence[str]) -> Snapshot:
        self.log(f"{self.folder}：活动文件夹暂时不能完整读取，大屏继续显示最近一次能读取的内容：")
        for problem in problems:
            self.log(f"  {problem}")
        if self._good is None:  # a page that says what will come here, under the event's title when it is known
            return snapshot(folder_title(self.folder), None, (FOLDER_UNREADABLE.format(count=len(problems)),))
        return snapshot(self._good.title, self._good, (FOLDER_TROUBLE.format(count=len(problems)),))


def read_clock(folder: Path, minutes: int = DEFAULT_MINUTES) -> tuple[tuple[ClockRow, ...], int]:
    """The clock's rows of the latest draw in force and the minutes of a match ([rules] match_minutes; `minutes`,
    the last read, while event.toml cannot be read — as the desk and the table pages keep them)."""
    from shuangsheng.storage import event

    with contextlib.suppress(UserError):
        minutes = event.load(folder).rules.match_minutes
    book = Ledger.readable(folder)
    if book is None:
        return (), minutes
    with book:
        draws = book.draws()
        return (book.clock_rows(draws[max(draws)].id) if draws else ()), minutes


def folder_title(folder: Path) -> str:
    """The event's title from event.toml while the rest of the folder cannot be read yet; else 场地大屏."""
    from shuangsheng.storage import event

    try:
        return event.load(folder).title or DEFAULT_TITLE
    except UserError:
        return DEFAULT_TITLE
