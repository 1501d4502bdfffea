"""The hall server behind `shuangsheng serve`: the venue display of `show` at `/`, and the table API (docs/table-api.md) at
`/api/t/<code>` (GET the table; POST `/hands`, `/end`, `/undo`, `/confirm`).

Thin: `TableApi.handle` takes a parsed `Request`, refuses what docs/table-api.md lists (a `Host` not ours 421, a POST not
`application/json` 415, a body over 16 KB 413, an address with 5 wrong codes in a minute 429, a wrong or outdated
code 404), and otherwise calls the pure decision of `shuangsheng.table.entry` on the table's committed entries; a decision
that appends something is made again inside one write transaction of the ledger (`Ledger.decide_entry`): the
entry is committed to event.db before the answer is given. In that transaction the table's draw must still be
in force (a change caught by a `draw --redo` is handled again from its code: `DrawReplaced`) and its next
round not drawn (423, sealed), and event.db still the file serve opened (else 503: `ServedFile`, docs/ledger.md).
event.db's one connection is kept open between requests and lent to one request at a time (`SharedLedger`); it is
closed, checkpointing, when the hall stops. The HTTP side is `show`'s hardened
server (`shuangsheng.hall.server`: connection cap, per-request deadline) with these routes added; the same `TableApi`
answers in tests without a port. Touches event.db (through `shuangsheng.storage.ledger`) and reads event.toml and
teams.xlsx; never holds the folder lock. The desk API under /api/desk is `shuangsheng.hall.desk_api.DeskApi`, routed here;
`GET /api/t/<code>` and the table's accepted POSTs carry the table's round clock (`"clock"`).
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
import sys
import threading
import time
import traceback
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

from shuangsheng.hall import board
from shuangsheng.hall import server as display
from shuangsheng.hall.api_common import (  # noqa: F401 — MAX_BODY, NOT_JSON, … and the rest stay importable from here
    BAD_JSON,
    BLOCK_SECONDS,
    BUSY,
    BUSY_WAIT,
    DAMAGED_TABLE,
    LOST,
    MAX_BODY,
    MAX_TRACKED,
    NOT_JSON,
    NOT_OURS,
    NOT_READY,
    TOO_LARGE,
    WRONG_CODES,
    WRONG_WINDOW,
    BadBody,
    Meanwhile,
    Reply,
    Request,
    Sealed,
    Seating,
    ServedFile,
    Throttle,
    busy,
    checked,
    fault,
    json_body,
    media_type,
    nothing_meanwhile,
    now_iso,
    refusal,
)
from shuangsheng.hall.desk_api import DeskApi
from shuangsheng.render.desk_page import desk_page
from shuangsheng.render.table_page import table_page
from shuangsheng.storage.ledger.connection import LOCK_WAIT, Ledger
from shuangsheng.storage.ledger.lost import LedgerError, LedgerLost
from shuangsheng.storage.ledger.queries import DrawReplaced
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.table import entry
from shuangsheng.table.clock import clock_at, parse_time
from shuangsheng.table.codes import parse_code
from shuangsheng.table.log import Entry, Stamp, TableSetup
from shuangsheng.table.state import TableState, table_state

API_PREFIX = "/api/t/"
DESK_API_PREFIX = "/api/desk"  # the desk API (shuangsheng/hall/desk_api.py)
TABLE_PAGE = "/t/"  # /t/<code>: the table page for phones (shuangsheng/render/table_page.py)
DESK_PAGE = "/desk"  # the organiser's page (shuangsheng/render/desk_page.py)
SEALED = "下一轮已经抽签，本桌的记录已封存，不能再在手机上改动；如有争议请到裁判台"
ACTIONS = ("hands", "end", "undo", "confirm")
MOVED_TRIES = 3  # a request whose table was redrawn under it is handled again, at most this many times in all
MOVING = "本轮刚刚重新抽签，请稍后再提交一次"
BUSY_TRY = 0.1  # seconds a request holding the ledger waits for another process's lock on event.db, then gives it back
STOP_WAIT = 5.0  # seconds `Hall.stop` waits for requests in flight to give back (and checkpoint) their ledger

TOO_MANY = "录分码输错的次数太多，请一分钟后再试；录分码印在本桌计分卡上（录分码 XXXX-XXXX）"
WRONG_CODE = "录分码不对或已作废（重新抽签后换了新码）；请核对本桌计分卡上印的录分码"
NO_SUCH = "没有这个地址"
NO_LENGTH = "请求须带 Content-Length，不能分块发送（Transfer-Encoding: chunked）"
ONLY = {"GET": "只能用 GET 读取本桌", "POST": "只能用 POST 提交"}


@dataclass(frozen=True)
class Route:
    code: str  # as typed in the address
    action: str | None  # None: the table itself (GET)


def route_of(path: str) -> Route | None:
    """`/api/t/<code>` or `/api/t/<code>/<action>`; None for any other path."""
    if not path.startswith(API_PREFIX):
        return None
    parts = path[len(API_PREFIX):].split("/")
    if len(parts) == 1 and parts[0]:
        return Route(parts[0], None)
    if len(parts) == 2 and parts[0] and parts[1] in ACTIONS:
        return Route(parts[0], parts[1])
    return None


class SharedLedger:
    """event.db's one connection for the table API, lent to one request at a time: the table decisions are made one
    after the other, each on what the one before it committed. Two phones of a table posting hand n at once are
    decided in turn (the second finds the first's hand: SAME, without a write transaction), one connection keeps
    its pages cached instead of re-reading what another wrote, and a hall of request threads waits on one lock
    instead of trading Python's GIL at every SQLite call (measured with bench/run.py --only load: the p99 of a hand
    fell from 1.1-1.5 s to 0.6 s, the floor's being 0.35 s). Kept open between requests; closed, and so
    checkpointed, when the hall stops (`close`). Always on the event.db serve opened (`served`): deleted, emptied or
    replaced, every request is refused (`LedgerLost`), and the connection is kept as it is, never opened on
    another file."""

    def __init__(self, folder: Path, served: ServedFile | None = None):
        self.folder = folder
        self.served = served or ServedFile(folder)
        self._turn = threading.Lock()  # held by the request the ledger is lent to
        self._book: Ledger | None = None
        self._closed = False

    def _drop(self, *, for_good: bool = False) -> None:
        """Close the connection; `for_good` (the hall stops): its checkpoint waits for the other connections'
        readers and writers as any ledger's does, not only the moment a request waits."""
        if self._book is not None:
            if for_good:
                self._book.wait_for_locks(LOCK_WAIT)
            self._book.close()
        self._book = None

    @contextlib.contextmanager
    def lend(self) -> Iterator[Ledger | None]:
        """The open ledger for one request, once the request before has given it back; None while the folder has
        no readable event.db. Raises LedgerLost, lending nothing, while event.db is not the file serve opened."""
        with self._turn:
            self.served.check(self._book)  # the file still there and whole, and not an older copy written over it
            if self._book is None:
                self._book = self.served.open()
                if self._book is not None:  # a request waiting for another process gives the ledger back meanwhile
                    self._book.wait_for_locks(BUSY_TRY)
            if self._book is None:
                yield None
                return
            try:
                yield self._book
            except LedgerLost:
                raise  # rolled back, nothing stored; the connection kept while event.db is not its file
            except sqlite3.OperationalError as exc:
                if not busy(exc) or self._book.in_transaction:  # kept while another process holds event.db
                    self._drop()
                raise
            except BaseException:
                self._drop()  # whatever it was doing is rolled back; a fresh connection next time
                raise
            finally:
                if self._closed:
                    self._drop(for_good=True)

    def close(self, *, wait: float = 0.0) -> None:
        """Close (and checkpoint) the ledger, waiting up to `wait` seconds for the request it is lent to: that request
        closes it as it gives it back, and `serve`'s request threads end with the process."""
        self._closed = True
        if self._turn.acquire(timeout=wait):
            try:
                self._drop(for_good=True)
            finally:
                self._turn.release()


class TableApi:
    """The table API: one `handle(request) → Reply` per request, safe from many threads at once. `meanwhile` (tests):
    called with the ledger lent at two moments of each try of a request — "find", before the table's code is looked
    up; "decided", when a change has been decided on the entries committed so far, before the seal is checked and
    the change decided again and appended in the write transaction."""

    def __init__(self, folder: Path, *, names: Collection[str], port: int, throttle: Throttle | None = None,
                 clock: Callable[[], str] = now_iso, seating: Seating | None = None, served: ServedFile | None = None,
                 meanwhile: Meanwhile = nothing_meanwhile):
        self.folder = folder
        self.meanwhile = meanwhile
        self.names = frozenset(names)
        self.port = port
        self.throttle = throttle or Throttle()
        self.clock = clock
        self.seating = seating or Seating(folder)
        self.ledger = SharedLedger(folder, served)  # requests decided one at a time (its docstring says why)
        self._codes: tuple[object, dict[str, tuple[DrawRecord, int]], int] = ((), {}, 0)  # see `_find`
        self._known: frozenset[str] | None = None  # the codes in force as last read (`_find`), None before

    def close(self, *, wait: float = 0.0) -> None:
        """Close (and checkpoint) the ledger kept open, waiting up to `wait` seconds for the request in flight; the
        API may still answer, opening and closing it for each request."""
        self.ledger.close(wait=wait)

    def handle(self, request: Request) -> Reply:
        if not display.host_allowed(request.headers.get("host"), self.names, self.port):
            return refusal(HTTPStatus.MISDIRECTED_REQUEST, NOT_OURS)
        route = route_of(urlsplit(request.path).path)
        if route is None:
            return refusal(HTTPStatus.NOT_FOUND, NO_SUCH)
        wanted = "GET" if route.action is None else "POST"
        if request.method != wanted and not (wanted == "GET" and request.method == "HEAD"):
            return refusal(HTTPStatus.METHOD_NOT_ALLOWED, ONLY[wanted])
        if wanted == "POST":
            if media_type(request.headers.get("content-type")) != "application/json":
                return refusal(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, NOT_JSON)
            if max(request.length or 0, len(request.body)) > MAX_BODY:
                return refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, TOO_LARGE)
        if self.throttle.blocked(request.address):
            return refusal(HTTPStatus.TOO_MANY_REQUESTS, TOO_MANY)
        suspect = self._suspect(route.code)
        if suspect and not self.throttle.admit(request.address):  # held before it waits for the ledger
            return refusal(HTTPStatus.TOO_MANY_REQUESTS, TOO_MANY)
        reply: Reply | None = None
        try:
            reply = self._answer(request, route, suspect=suspect)
        finally:
            if suspect:  # wrong after all, or right (a draw gave the code since the codes were read)
                self.throttle.settle(request.address, wrong=reply is not None and reply.status == HTTPStatus.NOT_FOUND)
        return reply

    def _answer(self, request: Request, route: Route, *, suspect: bool) -> Reply:
        deadline = time.monotonic() + BUSY_WAIT
        try:
            for attempt in range(MOVED_TRIES):
                with contextlib.suppress(DrawReplaced):  # a redraw landed meanwhile: the code is looked up again
                    return self._waiting(request, route, moved=attempt > 0, deadline=deadline, suspect=suspect)
        except LedgerLost:  # event.db is not the file serve opened: nothing stored (the console says why)
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, LOST)
        return refusal(HTTPStatus.SERVICE_UNAVAILABLE, MOVING)

    def _suspect(self, typed: str) -> bool:
        """A code that is no code, or none of the codes in force as last read: held before it is looked
        up (`Throttle.admit`: held as pending, counted only when found wrong), so that a burst of wrong codes from
        one address is refused after the fifth, not all looked up while the first ones wait for the ledger."""
        code = parse_code(typed)
        return code is None or (self._known is not None and code not in self._known)

    def _waiting(self, request: Request, route: Route, *, moved: bool, deadline: float, suspect: bool) -> Reply:
        """The request, tried again while another process holds event.db's lock (`draw`, `score`, a database viewer)
        until `deadline`: the ledger is given back between tries, so the other phones' requests are answered
        meanwhile (what is committed can be read during another's write) instead of queueing behind this one."""
        while True:
            try:
                return self._table(request, route, moved=moved, suspect=suspect)
            except sqlite3.DatabaseError as exc:
                waiting = isinstance(exc, sqlite3.OperationalError) and busy(exc)
                known = None if waiting else fault(exc)  # a full disk, a damaged file: said in plain words
                if known is not None:
                    return known
                if not waiting:
                    raise
            except ValueError as exc:  # one damaged entry row of this table (`ledger.table_entries`)
                if isinstance(exc, LedgerError):  # not a row: the ledger as a whole (lost), said by `handle`
                    raise
                self.damaged(exc)
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, DAMAGED_TABLE)
            if time.monotonic() >= deadline:  # nothing stored: the phone sends it again (same id) on a 503
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, BUSY)
            time.sleep(BUSY_TRY)

    def _find(self, book: Ledger, code: str) -> tuple[DrawRecord, int] | None:
        """The draw in force and the table whose code in force is `code` (None: a wrong or outdated code), from
        every code in force, read again when a draw or a code is recorded. Called with the ledger lent, so one
        request at a time. Remembered per connection: an event.db set aside and rebuilt may reach the same mark
        with other codes."""
        version = (book, book.mark())
        if self._codes[0] != version:
            _, drawn = book.in_force()
            found = {c: (record, table) for record, codes in drawn.values() for table, c in codes.items()}
            self._codes = (version, found, max(drawn, default=0))
            self._known = frozenset(found)
        return self._codes[1].get(code)

    def _sealed(self, record: DrawRecord) -> bool:
        """A round whose next round has been drawn: its tables' records are sealed against the phones (what they
        decided has been drawn on); a correction goes through the desk and `score`, as on paper."""
        return self._codes[2] > record.round.number

    def _table(self, request: Request, route: Route, *, moved: bool = False, suspect: bool = False) -> Reply:
        """`moved`: this request's table was redrawn under it (`DrawReplaced`); a code not found now may be
        one the redraw has not carried over yet, so the phone is told to send again (503), not that it is wrong.
        `suspect`: counted as a wrong code already (`_suspect`)."""
        with self.ledger.lend() as book:
            if book is None:
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, NOT_READY)
            code = parse_code(route.code)
            self.meanwhile("find")
            found = self._find(book, code) if code is not None else None
            if found is None and moved:
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, MOVING)
            if found is None:
                if not suspect:
                    self.throttle.wrong(request.address)
                return refusal(HTTPStatus.NOT_FOUND, WRONG_CODE)
            record, table = found
            setup = self.seating.setup(record, table, book)
            if route.action is None:
                state = table_state(setup, book.table_entries(record.id, table))
                return Reply(HTTPStatus.OK, state.as_json() | {"clock": self._clock(book, record.id, state)})
            try:
                body = json_body(request.body)
            except BadBody as bad:
                return bad.reply
            decide = decider(route.action, setup, body, Stamp(secrets.token_hex(8), self.clock(),
                                                                     request.address))
            decision = decide(book.table_entries(record.id, table))  # on what is committed now, without waiting
            if decision.entry is not None:
                self.meanwhile("decided")
            if decision.entry is not None and self._sealed(record):
                return sealed(decision)
            if decision.entry is not None:  # a change: decided again, and appended, in one write transaction
                try:
                    decision = book.decide_entry(record.id, table, checked(book, record, decide))
                except Sealed as drawn:  # the next round was drawn (by another process) since the look above
                    return sealed(drawn.decision)
            answer = decision.as_json()
            if decision.http_status < 300:
                answer |= {"clock": self._clock(book, record.id, decision.state)}
        return Reply(decision.http_status, answer)

    def damaged(self, exc: ValueError) -> None:
        """One line on serve's console for a damaged entry row (no traceback): the organiser hears which row."""
        print(f"event.db 里有一条录分记录损坏了，这一桌暂时不能扫码录分（其他各桌照常）：{exc}", file=sys.stderr)

    def _clock(self, book: Ledger, draw_id: int, state: TableState) -> dict[str, object] | None:
        """This table's clock (the round's minutes plus its extra minutes), None before the desk starts it."""
        # the minutes of event.toml as it is, as the desk and the TV have them (they do not score a round: a round
        # held under the rules it was scored with keeps one clock with the rest of the hall)
        found = clock_at(book.clock_rows(draw_id), parse_time(self.clock()), self.seating.rules().match_minutes)
        return found.table_json(state.log.extra_minutes) if found is not None else None


def sealed(decision: entry.Decision) -> Reply:
    """423 with the seal's message and the table as it stands: nothing stored."""
    return Reply(HTTPStatus.LOCKED, {**refusal(HTTPStatus.LOCKED, SEALED).document, "state": decision.state.as_json()})


def decider(action: str, setup: TableSetup, body: object,
            stamp: Stamp) -> Callable[[tuple[Entry, ...]], entry.Decision]:
    """The pure decision of one POST, over the table's entries as the ledger reads them in its transaction."""
    decide = {"hands": entry.add_hand, "end": entry.end, "undo": entry.undo, "confirm": entry.confirm}[action]
    return lambda entries: decide(setup, entries, body, stamp=stamp)


# --- HTTP: show's handler with the table API beside it ---


HALL_MESSAGES = {
    **display.MESSAGES,
    HTTPStatus.NOT_FOUND: ("这里没有这个页面", "请打开首页 /"),
    HTTPStatus.FORBIDDEN: (
        "裁判台只能在运行 shuangsheng serve 的电脑上打开",
        "请在那台电脑上用浏览器打开（把地址里的 IP 换成 127.0.0.1）；要让别的设备也能打开，在 event.toml 的 [serve]"
        " 里写 desk_lan = true，再重新启动 serve",
    ),
    HTTPStatus.METHOD_NOT_ALLOWED: ("这个页面只能查看", "只接受 GET 和 HEAD 请求"),
    HTTPStatus.MISDIRECTED_REQUEST: (
        "这个网址不是本场比赛服务器的地址", "请输入运行 shuangsheng serve 的电脑上显示的地址（以 http:// 开头的那一行）"
    ),
    HTTPStatus.INTERNAL_SERVER_ERROR: ("服务器暂时出了点问题", "请看运行 shuangsheng serve 的电脑上的提示"),
}


class HallHandler(display.DisplayHandler):
    """`show`'s pages, and the table API under /api/t/ (JSON in, JSON out)."""

    api: TableApi  # set on the subclass `make_hall` builds
    desk: DeskApi  # the desk API, set there too
    server_version = "shuangsheng-serve"
    messages = HALL_MESSAGES

    @property
    def allow(self) -> str:  # type: ignore[override]  # a class attribute in the base, a property here
        return "GET, HEAD, POST" if self._is_api() else "GET, HEAD"

    def _is_api(self) -> bool:
        path = urlsplit(getattr(self, "path", "")).path
        return path.startswith(API_PREFIX) or path == DESK_API_PREFIX or path.startswith(DESK_API_PREFIX + "/")

    def _answering(self, path: str) -> TableApi | DeskApi:
        return self.api if urlsplit(path).path.startswith(API_PREFIX) else self.desk

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if not self._is_api():
            super().send_error(code, message, explain)
            return
        text = NOT_OURS if code == HTTPStatus.MISDIRECTED_REQUEST else self.messages.get(
            HTTPStatus(code), ("请求有误", ""))[0]
        self.close_connection = True
        self._reply(refusal(code, text))

    def do_GET(self) -> None:
        if self._is_api():
            self._api(body=b"", length=None)
        else:
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._is_api():
            self._api(body=b"", length=None, send_body=False)
        else:
            super().do_HEAD()

    def _respond(self, *, body: bool) -> None:
        path = urlsplit(self.path).path
        if path == DESK_PAGE:
            self._desk(body=body)
            return
        if not path.startswith(TABLE_PAGE):
            super()._respond(body=body)
            return
        try:
            page = table_page(path[len(TABLE_PAGE):])
        except ValueError:  # not a code at all; a code of no table is said by the page, from the API's 404
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        self._send(page.decode("utf-8"), "text/html", body=body)

    def _desk(self, *, body: bool) -> None:
        if not self.desk.allows(self.client_address[0]):
            self.send_error(HTTPStatus.FORBIDDEN)
            return
        self._send(desk_page().decode("utf-8"), "text/html", body=body)

    def do_POST(self) -> None:
        if not self._is_api():
            self._refuse()
            return
        if any(value.strip().lower() != "identity" for value in self.headers.get_all("Transfer-Encoding") or ()):
            self.close_connection = True  # a chunked body is not read (it would be taken for an empty one)
            self._reply(refusal(HTTPStatus.LENGTH_REQUIRED, NO_LENGTH))
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0:
            self.close_connection = True
            self._reply(refusal(HTTPStatus.BAD_REQUEST, "请求的 Content-Length 有误"))
            return
        if length > MAX_BODY:  # not read: refused as it stands
            self.close_connection = True
            self._api(body=b"", length=length)
            return
        try:
            body = self.rfile.read(length)
        except (TimeoutError, OSError):
            self.close_connection = True
            return
        self._api(body=body, length=length)

    def _api(self, *, body: bytes, length: int | None, send_body: bool = True) -> None:
        request = Request(self.command, self.path, self.client_address[0],
                          {k.lower(): v for k, v in self.headers.items()}, body, length)
        try:
            reply = self._answering(self.path).handle(request)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            reply = refusal(HTTPStatus.INTERNAL_SERVER_ERROR, "服务器出了点问题，请看电脑上的提示；这一局请稍后再提交")
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the phone went away: what was
            self._reply(reply, send_body=send_body)  # accepted is committed all the same

    def _reply(self, reply: Reply, *, send_body: bool = True) -> None:
        data = reply.body()
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if send_body and self.command != "HEAD":
            self.wfile.write(data)


@dataclass
class Hall:
    """The servers of one `serve`: one per address, sharing the connection slots, the board and the API."""

    servers: list[display.DisplayServer]
    api: TableApi
    desk: DeskApi
    threads: list[threading.Thread] = field(default_factory=list)

    @property
    def port(self) -> int:
        return self.servers[0].server_address[1]

    def addresses(self) -> list[str]:
        return [f"http://{s.server_address[0]!s}:{s.server_address[1]}/" for s in self.servers]

    def start(self) -> None:
        for httpd in self.servers:
            thread = threading.Thread(target=httpd.serve_forever, daemon=True)
            thread.start()
            self.threads.append(thread)

    def stop(self) -> None:
        for httpd in self.servers:
            httpd.shutdown()
        for httpd in self.servers:
            httpd.server_close()
        for thread in self.threads:
            thread.join(5)
        self.api.close(wait=STOP_WAIT)


def make_hall(folder: Path, hosts: list[str], port: int, *, log: Callable[[str], None],
              max_connections: int = display.MAX_CONNECTIONS, timeout: float = display.READ_SECONDS,
              settle: float = board.SETTLE_SECONDS, throttle: Throttle | None = None, pin: str | None = None,
              desk_lan: bool = False, clock: Callable[[], str] = now_iso) -> Hall:
    """Bind `hosts` (127.0.0.1 first; raises OSError: port taken, address not ours) on one port (port 0: the
    first free one, then the same for the others) and return them, not yet serving. `pin`: the desk's (a new one
    when None: `hall.desk.pin`); `desk_lan`: [serve] desk_lan; `clock`: the PC's time, ISO 8601 (tests inject it)."""
    names = {*display.LOCAL_NAMES, *(h.lower() for h in hosts), *display.own_names()}
    cap = display.connection_cap(max_connections, display.open_file_limit(max_connections + display.RESERVED_FILES))
    slots = display.Slots(cap, own=hosts)  # the PC's own addresses hold any share of the connections
    source = board.BoardSource(folder, log=log, settle=settle, now=lambda: parse_time(clock()))
    handler: type[HallHandler] = type("Handler", (HallHandler,), {"source": source, "timeout": timeout})
    servers: list[display.DisplayServer] = []
    try:
        for host in hosts:
            httpd = display.DisplayServer((host, port), handler, max_connections=cap, names=names, slots=slots)
            servers.append(httpd)
            port = httpd.server_address[1]
    except OSError:
        for httpd in servers:
            httpd.server_close()
        raise
    codes = throttle or Throttle()
    # wrong PINs are counted apart from wrong table codes: codes mistyped on the desk PC (or fetched by a page open in
    # its browser) must not lock the desk out for a minute
    pins = Throttle(codes.clock, limit=codes.limit, window=codes.window, block=codes.block)
    seating = Seating(folder)
    served = ServedFile(folder, log)  # the event.db there now: the table API and the desk never use another
    handler.api = TableApi(folder, names=names, port=port, throttle=codes, clock=clock, seating=seating,
                           served=served)
    handler.desk = DeskApi(folder, names=names, port=port, pin=pin or new_pin(), desk_lan=desk_lan,
                           bound=[str(httpd.server_address[0]) for httpd in servers], throttle=pins, source=source,
                           clock=clock, seating=seating, served=served)
    return Hall(servers, handler.api, handler.desk)


# --- codes for rounds drawn before codes existed ---


def ensure_codes(folder: Path) -> list[int]:
    """Entry codes for every table of every draw in force that has none yet (a round drawn before codes
    existed); returns the rounds that got codes. Writes event.db: call with the folder held."""
    from shuangsheng.usecases.draw import table_codes

    made = []
    with Ledger.open(folder) as book:
        for number, record in book.draws().items():
            if set(book.codes(record.id)) != {p.table for p in record.round.pairings}:
                table_codes(book, record.id, record.round)
                made.append(number)
    return made


def new_pin() -> str:
    """A desk PIN: 6 digits from `secrets`."""
    return f"{secrets.randbelow(10**6):06d}"
