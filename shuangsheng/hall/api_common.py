"""What the two JSON APIs of `serve` share — the table API (`shuangsheng.hall.hall`) and the desk API (`shuangsheng.hall.desk_api`):
the parsed request and the reply, the one request check (`request_check`, on the route table of
`shuangsheng.hall.routes`), the one JSON body parser (`json_body`), the Chinese refusals both give, the count of wrong
codes and PINs per address, the PC's time, and who sits at a table (`Seating`). Reads event.toml and teams.xlsx (cached by their state).
"""

from __future__ import annotations

import collections
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

from shuangsheng.hall import board, routes
from shuangsheng.hall.server import host_allowed
from shuangsheng.hall.steady import STEADY
from shuangsheng.knockout.teams import Team, shown_id
from shuangsheng.storage import event as event_file
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.lost import FileId, LedgerLost, Loss, file_id, file_loss, lost_ledger
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.storage.names import DB_NAME, EVENT_FILE, TEAMS_FILE, round_path
from shuangsheng.table import entry
from shuangsheng.table.log import Entry, Seat, TableSetup, open_for_correction
from shuangsheng.usecases.folder import event_digits
from shuangsheng.vocabulary.errors import Issue, UserError, issues_json

MAX_BODY = 16 * 1024  # bytes of a POST body
WRONG_CODES = 5  # wrong codes from one address within WRONG_WINDOW seconds …
WRONG_WINDOW = 60.0
BLOCK_SECONDS = 60.0  # … and that address gets 429 for this long
MAX_TRACKED = 4096  # addresses remembered for counting wrong codes (the oldest forgotten first)


@dataclass(frozen=True)
class Request:
    """What the router needs of an HTTP request. `headers` by lower-case name; `length` the declared
    Content-Length (the body is not read when it is over MAX_BODY)."""

    method: str
    path: str
    address: str
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    length: int | None = None


@dataclass(frozen=True)
class Reply:
    """An answer: its status and JSON document; `text`, when given, is that document as `body` would make it, made
    by the caller from parts it had made already (`shuangsheng.hall.table_api.state_reply`)."""

    status: int
    document: Mapping[str, object]
    text: bytes | None = field(default=None, compare=False, repr=False)

    def body(self) -> bytes:
        """The document as UTF-8 JSON; text that UTF-8 cannot carry (a lone surrogate quoted back in a message) is
        sent escaped, never as a failure to answer."""
        if self.text is not None:
            return self.text
        try:
            return json.dumps(self.document, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            return json.dumps(self.document).encode("ascii")


def refusal(status: int, message: str) -> Reply:
    return Reply(status, issues_json((Issue.of_hand(None, None, message),)))


NOT_OURS = "这个网址不是本场比赛服务器的地址；请用运行 shuangsheng serve 的电脑上显示的地址"
NOT_JSON = "请求的 Content-Type 应为 application/json"
TOO_LARGE = f"请求内容太长（不能超过 {MAX_BODY // 1024} KB）"
BAD_JSON = "请求内容不是正确的 JSON"
BAD_TEXT = "请求内容里有无法识别的字符（不是正确的 UTF-8 文字），请刷新页面后再操作"
NOT_READY = "服务器暂时无法读取比赛记录（event.db），请看电脑上的提示"
BUSY_WAIT = 5.0  # seconds in all a request waits for another program's lock on event.db; the phone gives up after 8
BUSY = "本比赛的记录文件正被另一个程序占用，请稍后再提交一次"


def busy(exc: sqlite3.OperationalError) -> bool:
    """Another connection held event.db's lock longer than this one waits (SQLITE_BUSY)."""
    return exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY


DAMAGED = ("本比赛的记录文件（event.db）损坏了，这次还没有记下；请暂停扫码录分，先在纸质计分卡上记分，并告诉裁判台"
           "（裁判台：停止 serve，再运行 shuangsheng score，按它说的放回副本或重建）")
DAMAGED_TABLE = ("本桌在比赛记录 event.db 里有一条记录损坏了，本桌暂时不能扫码录分；请在纸质计分卡上记分，并告诉裁判台"
                 "（其他各桌照常）")


# What SQLite says when the PC, not the request, is at fault: said in plain words (503: nothing stored; the page
# sends the same press again later), never a 500 with a traceback on serve's console.
FAULTS = {
    sqlite3.SQLITE_FULL: "裁判台电脑的磁盘满了，这次还没有记下；请告诉裁判台腾出磁盘空间（删掉电脑上不用的文件），手机会自动再发",
    sqlite3.SQLITE_READONLY: "裁判台电脑上的活动文件夹不能写入，这次还没有记下；请告诉裁判台把活动文件夹放到电脑的本地磁盘上，"
                             "再重新运行 shuangsheng serve",
    sqlite3.SQLITE_IOERR: "裁判台电脑读写比赛记录 event.db 时出错（磁盘或 U 盘有问题），这次还没有记下；请告诉裁判台，手机会自动再发",
    sqlite3.SQLITE_CANTOPEN: "裁判台电脑打不开比赛记录 event.db（文件夹被移走、改名或不能写入），这次还没有记下；请告诉裁判台",
    sqlite3.SQLITE_CORRUPT: DAMAGED,
    sqlite3.SQLITE_NOTADB: DAMAGED,
}


def fault(exc: sqlite3.Error) -> Reply | None:
    """The plain-words 503 for a known fault of the PC's disk or folder (`FAULTS`); None for anything else."""
    code = getattr(exc, "sqlite_errorcode", None)
    message = FAULTS.get(code & 0xFF) if isinstance(code, int) else None
    return refusal(503, message) if message else None
LOST = ("本比赛的记录文件（event.db）出了问题，这次提交没有记下；请暂停扫码录分，先在纸质计分卡上记分，并告诉裁判台"
        "（运行 shuangsheng serve 的电脑上有说明）")


class Throttle:
    """Wrong codes (or wrong PINs: a Throttle of their own) counted per address: after WRONG_CODES within
    WRONG_WINDOW seconds, the address is refused (429) for BLOCK_SECONDS. A try that may be wrong is held as
    pending while it is looked up (`admit`, then `settle`): a burst sent at once is refused once the wrong and the
    pending tries reach the limit, but only a try found wrong counts against the address. `clock` is
    time.monotonic except in tests. Thread-safe; bounded memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, limit: int = WRONG_CODES,
                 window: float = WRONG_WINDOW, block: float = BLOCK_SECONDS):
        self.clock = clock
        self.limit, self.window, self.block = limit, window, block
        self._wrong: collections.OrderedDict[str, collections.deque[float]] = collections.OrderedDict()
        self._until: dict[str, float] = {}
        self._pending: dict[str, int] = {}  # tries admitted and being looked up, by address
        self._lock = threading.Lock()

    def blocked(self, address: str) -> bool:
        with self._lock:
            return self._blocked(address)

    def _blocked(self, address: str) -> bool:
        until = self._until.get(address)
        if until is None:
            return False
        if self.clock() < until:
            return True
        del self._until[address]
        return False

    def admit(self, address: str) -> bool:
        """A try that may be wrong, before it is looked up: False (refuse it, 429) when the address is held, or when
        its wrong tries within the window and those being looked up already reach the limit; else True, the try
        pending until `settle`."""
        with self._lock:
            if self._blocked(address) or self._recent(address) + self._pending.get(address, 0) >= self.limit:
                return False
            self._pending[address] = self._pending.get(address, 0) + 1
            return True

    def settle(self, address: str, *, wrong: bool) -> None:
        """An admitted try looked up: counted when it was `wrong`, forgotten when it was right."""
        with self._lock:
            left = self._pending.pop(address, 1) - 1
            if left > 0:
                self._pending[address] = left
            if wrong:
                self._count(address)

    def wrong(self, address: str) -> bool:
        """A wrong try, counted unless the address is held already: False when it is (refuse it, 429)."""
        with self._lock:
            if self._blocked(address):
                return False
            self._count(address)
            return True

    def _recent(self, address: str) -> int:
        now = self.clock()
        return sum(now - t < self.window for t in self._wrong.get(address, ()))

    def _count(self, address: str) -> None:
        now = self.clock()
        times = self._wrong.pop(address, None) or collections.deque(maxlen=self.limit)
        times.append(now)
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.limit:
            self._until[address] = now + self.block
            times.clear()
        self._wrong[address] = times
        while len(self._wrong) > MAX_TRACKED:
            self._wrong.popitem(last=False)


def now_iso() -> str:
    """The hall's time (`steady.STEADY`: the PC's clock at serve's start, moved on monotonically), ISO 8601 with
    the UTC offset."""
    return STEADY.iso()


Meanwhile = Callable[[str], None]
"""Called by a request at each named moment where another process may act on event.db (a `draw --redo`, a `score`)
between what the request read and what it writes; the APIs' docstrings name their moments. Nothing in `serve`: a
test's way to be that other process at that very moment, or to raise what SQLite would raise there."""


def nothing_meanwhile(moment: str) -> None:
    """No other process at any moment: `serve` as it runs."""


class Seating:
    """Who plays at a table and under which rules: the draw's recorded names (teams.xlsx for a round recorded
    without them) and the rules of event.toml, read again when these files change (the last good reading kept)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._lock = threading.Lock()
        self._read: dict[str, tuple[board.FileState, object]] = {}
        self._held: dict[tuple, object] = {}  # `rules_for` of a round whose rules changed after it was scored
        self._digits: tuple[tuple, int] | None = None  # the event's 组号 width, with what it was worked out from
        self._paths: dict[str, Path] = {}  # the folder's files, by name

    def _cached(self, name: str, read: Callable[[Path], object], fallback: Callable[[], object],
                state: board.FileState | None = None) -> object:
        """`read` of the folder's file `name`, read again when its state changes (`state`: as the caller just
        looked)."""
        path = self._paths.get(name) or self._paths.setdefault(name, self.folder / name)
        state = state or board.file_state(path)
        with self._lock:
            known = self._read.get(name)
            if known is not None and known[0] == state:
                return known[1]
            try:
                value = read(path)
            except (UserError, OSError):
                return known[1] if known is not None else fallback()
            self._read[name] = (state, value)
            return value

    def rules(self):  # -> RuleSet
        return self.event().rules

    def event(self):  # -> Event
        """event.toml as last read well (its defaults before it ever was)."""
        return self._cached(EVENT_FILE, lambda _: event_file.load(self.folder), event_file.default_event)

    def teams(self, state: board.FileState | None = None) -> tuple[Team, ...]:
        """teams.xlsx's pairs in row order, as last read well (none before it ever was); `state`: the file's as the
        caller just looked."""
        listed = self._cached(TEAMS_FILE, _read_teams, dict, state)
        return tuple(listed.values()) if isinstance(listed, dict) else ()

    def players(self, record: DrawRecord, team: str) -> tuple[str, ...]:
        if team in record.names:
            return record.names[team]
        listed = self._cached(TEAMS_FILE, _read_teams, dict)
        found = listed.get(team) if isinstance(listed, dict) else None
        return found.players if found is not None else ()

    def setup(self, record: DrawRecord, table: int, book: Ledger, mark: tuple[int, int, int] | None = None) -> TableSetup:
        """Table `table` of the draw `record`, under the rules its round is scored under (`rules_for`); `mark`:
        `book.mark()` as the caller just read it."""
        pairing = next(p for p in record.round.pairings if p.table == table)
        digits = self.digits(book, mark)  # the event's one width
        a, b = (Seat(t, self.players(record, t), shown_id(t, digits)) for t in (pairing.a, pairing.b))
        return TableSetup(record.round.number, table, a, b, self.rules_for(record, book), digits)

    def digits(self, book: Ledger, mark: tuple[int, int, int] | None = None) -> int:
        """The event's one 组号 width (`event_digits`) from teams.xlsx and every draw event.db holds, as the papers
        have it (a pair 100 whose row was deleted after it played still counts), worked out again only when
        either changed (`Ledger.mark`, as the caller just read it or read here; the file's state)."""
        state = board.file_state(self.folder / TEAMS_FILE)
        key = (mark or book.mark(), state)  # before the list is read: never newer
        teams = self.teams(state)
        with self._lock:
            known = self._digits
        if known is not None and known[0] == key:
            return known[1]
        digits = event_digits((t.id for t in teams), (), book.draws().values())
        with self._lock:
            self._digits = (key, digits)
        return digits

    def rules_for(self, record: DrawRecord, book: Ledger):  # -> RuleSet
        """The rules round `record` is scored under, as `score` and the TV have them (`EventFolder.rules_for`): the
        current ones, unless the round was scored under others and the change would alter it, not yet accepted
        (`score --accept-rules`). The common case costs one look at the ledger; the rare one reads the folder, once
        per state of event.toml, the round's workbook and its phone entries."""
        current = self.rules()
        scored = book.scored_rules(record.id)
        if scored is None or scored == current.as_mapping():
            return current
        number = record.round.number
        key = (number, board.file_state(self.folder / EVENT_FILE),
               board.file_state(round_path(self.folder, number)), book.entries_mark(record.id))
        with self._lock:
            known = self._held.get(key)
        if known is None:
            known = self._read_held(number, current)
            with self._lock:
                self._held = {key: known}  # one round at a time is held: the one asked about
        return known

    def _read_held(self, number: int, current):  # -> RuleSet
        from shuangsheng.usecases.folder import open_folder

        try:
            return open_folder(self.folder, up_to=number).rules_for(number)
        except UserError:  # a folder that cannot be read now: the current rules, as the desk says what is wrong
            return current


def _read_teams(path: Path) -> dict[str, Team]:
    from shuangsheng.storage import workbook

    try:
        return {t.id: t for t in workbook.read_teams(path)}
    except workbook.WorkbookError as exc:
        raise UserError(exc.issues) from None


class BadBody(ValueError):
    """A POST body that is not one JSON document of UTF-8 text: its refusal (400) is `reply`."""

    def __init__(self, message: str):
        super().__init__(message)
        self.reply = refusal(400, message)


def json_body(data: bytes) -> object:
    """A POST's JSON body (`{}` when empty), for both APIs. BadBody for anything that is not JSON, or whose text
    UTF-8 cannot carry (invalid bytes, or a lone surrogate written as `\ud800`): such text could never be stored
    or quoted back."""
    try:
        text = data.decode("utf-8")
        body = json.loads(text) if text.strip() else {}
    except UnicodeDecodeError:
        raise BadBody(BAD_TEXT) from None
    except (ValueError, RecursionError):
        raise BadBody(BAD_JSON) from None
    try:
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise BadBody(BAD_TEXT) from None
    return body


def media_type(value: str | None) -> str:
    return (value or "").split(";", 1)[0].strip().lower()


# --- the one request check of both APIs ---


@dataclass(frozen=True)
class Words:
    """What an API says for a path of no route (404, `no_such`) and for a wrong method (405, by the method the path
    wants: `only["GET"]`, `only["POST"]`)."""

    no_such: str
    only: Mapping[str, str]


def request_check(request: Request, who: str, *, names: Collection[str], port: int, words: Words,
                  forbidden: Reply | None = None) -> routes.Match | Reply:
    """The route of a request to the API `who` (`routes.ROUTES`), or its refusal, in the order docs/table-api.md
    gives: a `Host` not ours (421), an address the API does not answer (`forbidden`: the desk's 403), no route (404)
    or a wrong method (405), then for a POST a body not `application/json` (415) or over MAX_BODY (413)."""
    if not host_allowed(request.headers.get("host"), names, port):
        return refusal(HTTPStatus.MISDIRECTED_REQUEST, NOT_OURS)
    if forbidden is not None:
        return forbidden
    found = routes.resolve(request.method, urlsplit(request.path).path)
    if isinstance(found, routes.Refused):
        return refusal(found.status, words.no_such if found.status == HTTPStatus.NOT_FOUND else words.only[found.wanted])
    if found.route.who != who:  # another API's path, handed to this one
        return refusal(HTTPStatus.NOT_FOUND, words.no_such)
    if found.route.method == "POST":
        if media_type(request.headers.get("content-type")) != "application/json":
            return refusal(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, NOT_JSON)
        if max(request.length or 0, len(request.body)) > MAX_BODY:
            return refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, TOO_LARGE)
    return found


# --- a change to a round whose next round is drawn: refused in the write transaction (table API and desk) ---


class Sealed(Exception):
    """Raised inside the write transaction of a change when a later round than the table's has been drawn: rolled
    back, nothing stored; `decision` is what would have been stored, its state the table as it stands."""

    def __init__(self, decision: entry.Decision):
        super().__init__("sealed")
        self.decision = decision


def checked(book: Ledger, record: DrawRecord,
            decide: Callable[[tuple[Entry, ...]], entry.Decision],
            ) -> Callable[[tuple[Entry, ...]], entry.Decision]:
    """`decide`, refusing (`Sealed`) a change once a later round than `record`'s is drawn, as read in the write
    transaction itself: `draw` is another process and may record the next round after the server looked — unless
    the change is the desk's correction (its reopening of the table, or any change after it: `open_for_correction`).
    (A change to a draw voided meanwhile is refused by the ledger: `DrawReplaced`.)"""

    def decided(entries: tuple[Entry, ...]) -> entry.Decision:
        decision = decide(entries)
        made = decision.entry
        if made is not None and book.last_round() > record.round.number and not (
                made.correction or open_for_correction(entries)):
            raise Sealed(decision)
        return decision

    return decided


# --- the event.db `serve` opened: never another one, nothing committed into one deleted or emptied ---


def _written_over(book: Ledger) -> Loss | None:
    """REPLACED when the file `book` has open now ends with an older entry than one it has seen (entries are only
    added: an older copy was written over it in place, keeping its inode); DAMAGED when it cannot even say."""
    try:
        return Loss.REPLACED if book.highest_entry() < book.entries_seen else None
    except sqlite3.DatabaseError:
        return Loss.DAMAGED


class ServedFile:
    """The event.db `serve` opened (the file there when it started, or the first one opened): every connection of the
    table API and the desk must be to it, and it must still be whole (`file_loss`: not deleted, emptied or
    replaced), or the request is refused (`LedgerLost`: 503). serve never goes on with another event.db put
    in its place, and a commit into the one it has open is checked again in its transaction (`Ledger.decide_entry`).
    The first time it is found lost, the console hears the lost ledger's message: once, until it is whole again."""

    def __init__(self, folder: Path, log: Callable[[str], None] | None = None):
        self.folder = folder
        self.log = log
        self._lock = threading.Lock()
        self._path = path = folder / DB_NAME
        self._file = file_id(path) if file_loss(path) is None else None
        self._said = False
        self._whole: tuple[int, int, int, int, int] | None = None  # the file's stat when it was last found whole

    def check(self, book: Ledger | None = None) -> None:
        """LedgerLost unless event.db is the file served, whole, and `book` (when given) is open on it; the first
        book opened names the file when there was none at the start."""
        with self._lock:
            if self._file is None and book is not None:
                self._file = book.file
            served = self._file
        lost = self._lost(served, book)
        with self._lock:
            said, self._said = self._said, lost is not None
        if lost is None:
            return
        if not said and self.log is not None:
            for line in lost.messages:
                self.log(line)
        raise lost

    def _lost(self, served: FileId | None, book: Ledger | None) -> LedgerLost | None:
        if served is None:  # nothing opened yet: the folder as every command sees it
            return lost_ledger(self.folder)
        loss = self._file_loss(served)
        if loss is None and book is not None and book.file != served:  # replaced between the look and the opening
            loss = Loss.REPLACED
        if loss is None and book is not None:
            loss = _written_over(book)
        return None if loss is None else LedgerLost(self.folder, loss, serving=True)

    def _file_loss(self, served: FileId) -> Loss | None:
        """`file_loss` of event.db, its first bytes read only when its size, dates or inode changed since it was last
        found whole (every request looks: in WAL mode the file itself changes only when a checkpoint writes to it;
        the change time too, which no copy keeping dates can set back)."""
        try:
            st = os.stat(self._path)
        except OSError:
            st = None
        seen = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns) if st is not None else None
        with self._lock:
            if seen is not None and seen == self._whole:
                return None
        loss = file_loss(self._path, served)
        with self._lock:
            self._whole = seen if loss is None else None
        return loss

    def open(self) -> Ledger | None:
        """event.db opened for a request once it is checked to be the file served (LedgerLost otherwise); None while
        the folder has no readable event.db."""
        self.check()
        book = Ledger.existing(self.folder)
        if book is not None:
            try:
                self.check(book)
            except LedgerLost:
                book.close()
                raise
        return book
