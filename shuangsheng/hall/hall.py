"""The hall server behind `shuangsheng serve`: every URL of the route table (`shuangsheng.hall.routes`: the venue
display of `show` at `/`, the phones' and the desk's pages, the table API and the desk API of docs/table-api.md).

Thin: `TableApi.handle` takes a parsed `Request`, refuses what docs/table-api.md lists (the one request check,
`request_check`: a `Host` not ours 421, a path of no route 404, a wrong method 405, a POST not `application/json`
415, a body over 16 KB 413; then an address with 5 wrong codes in a minute 429, a wrong or outdated code 404), and
otherwise calls the pure decision of `shuangsheng.table.entry` on the table's committed entries; a decision that
appends something is made again inside one write transaction of the ledger (`Ledger.decide_entry`): the entry is
committed to event.db before the answer is given. In that transaction the table's draw must still be in force (a
change caught by a `draw --redo` is handled again from its code: `DrawReplaced`) and its next round not drawn (423,
sealed), and event.db still the file serve opened (else 503: `ServedFile`, docs/ledger.md). The table API and the
desk share event.db's one connection, lent to one request at a time, and one retry policy
(`shuangsheng.hall.shared_ledger`); it is closed, checkpointing, when the hall stops. The HTTP side is `show`'s
hardened server (`shuangsheng.hall.server`: connection cap, per-request deadline) answering the whole route table;
the same `TableApi` answers in tests without a port. Touches event.db (through `shuangsheng.storage.ledger`) and
reads event.toml and teams.xlsx; never holds the folder lock. The desk API under /api/desk is
`shuangsheng.hall.desk_api.DeskApi`; `GET /api/t/<code>` and the table's accepted POSTs carry the table's round
clock (`"clock"`), and an end is decided on it (`entry.end`: 409 before the table's time is up).
"""

from __future__ import annotations

import contextlib
import secrets
import sqlite3
import sys
import threading
import traceback
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from http import HTTPStatus
from pathlib import Path
from urllib.parse import urlsplit

from shuangsheng.hall import board, routes
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
    Words,
    busy,
    checked,
    fault,
    json_body,
    media_type,
    nothing_meanwhile,
    now_iso,
    refusal,
    request_check,
)
from shuangsheng.hall.desk_api import DeskApi
from shuangsheng.hall.screens import Screens
from shuangsheng.hall.shared_ledger import PATIENCE, Patience, SharedLedger, patiently
from shuangsheng.render.desk_page import desk_page
from shuangsheng.render.table_page import table_page
from shuangsheng.storage.ledger.connection import Ledger
from shuangsheng.storage.ledger.lost import LedgerError, LedgerLost
from shuangsheng.storage.ledger.records import DrawRecord
from shuangsheng.table import amend, entry
from shuangsheng.table.clock import Clock, clock_at, parse_time
from shuangsheng.table.codes import parse_code
from shuangsheng.table.log import Entry, Stamp, TableSetup, open_for_correction
from shuangsheng.table.state import KnownStates, TableState

CONSOLE_PREFIXES = ("/console", "/api/console")  # the console's paths: answered whether or not an event is open
NO_EVENT = "组织者还没有在控制台打开比赛，请稍后再试"
SEALED = "下一轮已经抽签，本桌的记录已封存，不能再在手机上改动；如有争议请到裁判台"
MOVING = "本轮刚刚重新抽签，请稍后再提交一次"
STOP_WAIT = 5.0  # seconds `Hall.stop` waits for requests in flight to give back (and checkpoint) their ledger

TOO_MANY = "录分码输错的次数太多，请一分钟后再试；录分码印在本桌计分卡上（录分码 XXXX-XXXX）"
WRONG_CODE = "录分码不对或已作废（重新抽签后换了新码）；请核对本桌计分卡上印的录分码"
NO_SUCH = "没有这个地址"
NO_LENGTH = "请求须带 Content-Length，不能分块发送（Transfer-Encoding: chunked）"
ONLY = {"GET": "只能用 GET 读取本桌", "POST": "只能用 POST 提交"}
WORDS = Words(NO_SUCH, ONLY)


class CodesInForce:
    """Every entry code in force, with its draw and table, as the table API last read them from event.db: read again
    when a draw or a code is recorded (`Ledger.mark` moves) or the connection is another one (an event.db set aside
    and rebuilt may reach the same mark with other codes). Asked with the ledger lent: one request at a time."""

    def __init__(self) -> None:
        self._version: tuple[object, tuple[int, int, int]] | None = None
        self._found: dict[str, tuple[DrawRecord, int]] = {}
        self._last_round = 0
        self.known: frozenset[str] | None = None  # the codes in force as last read, None before the first reading

    def find(self, book: Ledger, code: str) -> tuple[DrawRecord, int] | None:
        """The draw in force and the table whose code in force is `code` (None: a wrong or outdated code)."""
        version = (book, book.mark())
        if self._version != version:
            _, drawn = book.in_force()
            self._found = {c: (record, table) for record, codes in drawn.values() for table, c in codes.items()}
            self._last_round = max(drawn, default=0)
            self._version = version
            self.known = frozenset(self._found)
        return self._found.get(code)

    def sealed(self, record: DrawRecord) -> bool:
        """A round whose next round has been drawn (as of the last `find`): its tables' records are sealed against
        the phones (what they decided has been drawn on) until the desk reopens one for a correction
        (`open_for_correction`)."""
        return self._last_round > record.round.number


@dataclass(frozen=True)
class Asked:
    code: str  # as typed in the address
    action: str | None  # None: the table itself (GET)


class TableApi:
    """The table API: one `handle(request) → Reply` per request, safe from many threads at once. `meanwhile` (tests):
    called with the ledger lent at two moments of each try of a request — "find", before the table's code is looked
    up; "decided", when a change has been decided on the entries committed so far, before the seal is checked and
    the change decided again and appended in the write transaction. `ledger`: the hall's one connection to
    event.db, shared with the desk (a new one on `served` when not given); `patience`: how long a request waits for
    another program's lock (`shuangsheng.hall.shared_ledger.Patience`); `states`: each table's last state, kept for
    the polls (shared with the desk; a new one when not given)."""

    def __init__(self, folder: Path, *, names: Collection[str], port: int, throttle: Throttle | None = None,
                 clock: Callable[[], str] = now_iso, seating: Seating | None = None, served: ServedFile | None = None,
                 meanwhile: Meanwhile = nothing_meanwhile, ledger: SharedLedger | None = None,
                 patience: Patience = PATIENCE, states: KnownStates | None = None):
        self.folder = folder
        self.meanwhile = meanwhile
        self.patience = patience
        self.names = frozenset(names)
        self.port = port
        self.throttle = throttle or Throttle()
        self.clock = clock
        self.seating = seating or Seating(folder)
        self.ledger = ledger or SharedLedger(folder, served)  # requests decided one at a time (its docstring says why)
        self.codes = CodesInForce()
        self.states = states or KnownStates()

    def close(self, *, wait: float = 0.0) -> None:
        """Close (and checkpoint) the ledger kept open, waiting up to `wait` seconds for the request in flight; the
        API may still answer, opening and closing it for each request."""
        self.ledger.close(wait=wait)

    def handle(self, request: Request) -> Reply:
        found = request_check(request, "table", names=self.names, port=self.port, words=WORDS)
        if isinstance(found, Reply):
            return found
        asked = Asked(found.params["code"], found.params.get("action"))
        if self.throttle.blocked(request.address):
            return refusal(HTTPStatus.TOO_MANY_REQUESTS, TOO_MANY)
        suspect = self._suspect(asked.code)
        if suspect and not self.throttle.admit(request.address):  # held before it waits for the ledger
            return refusal(HTTPStatus.TOO_MANY_REQUESTS, TOO_MANY)
        reply: Reply | None = None
        try:
            reply = self._answer(request, asked, suspect=suspect)
        finally:
            if suspect:  # wrong after all, or right (a draw gave the code since the codes were read)
                self.throttle.settle(request.address, wrong=reply is not None and reply.status == HTTPStatus.NOT_FOUND)
        return reply

    def _answer(self, request: Request, asked: Asked, *, suspect: bool) -> Reply:
        """The request, tried again as `patience` says (`patiently`); a known fault of the PC's disk or folder, a
        damaged entry row of this table and a lost event.db said in plain words (503)."""
        try:
            return patiently(lambda moved: self._table(request, asked, moved=moved, suspect=suspect), self.patience,
                             held=refusal(HTTPStatus.SERVICE_UNAVAILABLE, BUSY),
                             redrawn=refusal(HTTPStatus.SERVICE_UNAVAILABLE, MOVING))
        except LedgerLost:  # event.db is not the file serve opened: nothing stored (the console says why)
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, LOST)
        except sqlite3.DatabaseError as exc:
            known = fault(exc)  # a full disk, a damaged file: said in plain words
            if known is None:
                raise
            return known
        except ValueError as exc:  # one damaged entry row of this table (`ledger.table_entries`)
            if isinstance(exc, LedgerError):  # not a row: the ledger as a whole
                raise
            self.damaged(exc)
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, DAMAGED_TABLE)

    def _suspect(self, typed: str) -> bool:
        """A code that is no code, or none of the codes in force as last read: held before it is looked
        up (`Throttle.admit`: held as pending, counted only when found wrong), so that a burst of wrong codes from
        one address is refused after the fifth, not all looked up while the first ones wait for the ledger."""
        code = parse_code(typed)
        known = self.codes.known
        return code is None or (known is not None and code not in known)

    def _table(self, request: Request, asked: Asked, *, moved: bool = False, suspect: bool = False) -> Reply:
        """`moved`: this request's table was redrawn under it (`DrawReplaced`); a code not found now may be
        one the redraw has not carried over yet, so the phone is told to send again (503), not that it is wrong.
        `suspect`: counted as a wrong code already (`_suspect`)."""
        with self.ledger.lend() as book:
            if book is None:
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, NOT_READY)
            code = parse_code(asked.code)
            self.meanwhile("find")
            found = self.codes.find(book, code) if code is not None else None
            if found is None and moved:
                return refusal(HTTPStatus.SERVICE_UNAVAILABLE, MOVING)
            if found is None:
                if not suspect:
                    self.throttle.wrong(request.address)
                return refusal(HTTPStatus.NOT_FOUND, WRONG_CODE)
            record, table = found
            setup = self.seating.setup(record, table, book)
            if asked.action is None:
                state = self.states.state(setup, book.table_entries(record.id, table))
                return Reply(HTTPStatus.OK, state.as_json() | {"clock": self._clock(book, record.id, state)})
            try:
                body = json_body(request.body)
            except BadBody as bad:
                return bad.reply
            stamp = Stamp(secrets.token_hex(8), self.clock(), request.address)
            clock = self._round_clock(book, record.id, stamp.time) if asked.action == "end" else None
            decide = decider(asked.action, setup, body, stamp, clock)
            entries = book.table_entries(record.id, table)
            decision = decide(entries)  # on what is committed now, without waiting
            if decision.entry is not None:
                self.meanwhile("decided")
            if decision.entry is not None and self.codes.sealed(record) and not open_for_correction(entries):
                return sealed(decision)
            if decision.entry is not None:  # a change: decided again, and appended, in one write transaction
                try:
                    decision = book.decide_entry(record.id, table, checked(book, record, decide))
                except Sealed as drawn:  # the next round was drawn (by another process) since the look above
                    return sealed(drawn.decision)
            self.states.keep(decision.state)  # stored (or the table as it stands): what its next poll gets
            answer = decision.as_json()
            if decision.http_status < 300:
                answer |= {"clock": self._clock(book, record.id, decision.state)}
        return Reply(decision.http_status, answer)

    def damaged(self, exc: ValueError) -> None:
        """One line on serve's console for a damaged entry row (no traceback): the organiser hears which row."""
        print(f"event.db 里有一条录分记录损坏了，这一桌暂时不能扫码录分（其他各桌照常）：{exc}", file=sys.stderr)

    def _clock(self, book: Ledger, draw_id: int, state: TableState) -> dict[str, object] | None:
        """This table's clock (the round's minutes plus its extra minutes), None before the desk starts it."""
        found = self._round_clock(book, draw_id, self.clock())
        return found.table_json(state.log.extra_minutes) if found is not None else None

    def _round_clock(self, book: Ledger, draw_id: int, now: str) -> Clock | None:
        """The round's clock at `now`, None before the desk starts it."""
        # the minutes of event.toml as it is, as the desk and the TV have them (they do not score a round: a round
        # held under the rules it was scored with keeps one clock with the rest of the hall)
        return clock_at(book.clock_rows(draw_id), parse_time(now), self.seating.rules().match_minutes)


def sealed(decision: entry.Decision) -> Reply:
    """423 with the seal's message and the table as it stands: nothing stored."""
    return Reply(HTTPStatus.LOCKED, {**refusal(HTTPStatus.LOCKED, SEALED).document, "state": decision.state.as_json()})


def decider(action: str, setup: TableSetup, body: object, stamp: Stamp,
            clock: Clock | None = None) -> Callable[[tuple[Entry, ...]], entry.Decision]:
    """The pure decision of one POST, over the table's entries as the ledger reads them in its transaction; an end
    is decided on the round clock as read when the request came (`clock`, None: never started); no change once the
    desk has given the table's record to the paper (`entry.paper_rules_lock`)."""
    if action == "end":
        return lambda entries: entry.paper_rules_lock(entry.end(setup, entries, body, stamp=stamp, clock=clock))
    decide = {"hands": entry.add_hand, "undo": entry.undo, "amend": amend.amend, "confirm": entry.confirm}[action]
    return lambda entries: entry.paper_rules_lock(decide(setup, entries, body, stamp=stamp))


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
    HTTPStatus.SERVICE_UNAVAILABLE: ("比赛还没有打开", "组织者在电脑上的控制台打开比赛后，这里会显示本场比赛；请稍后刷新"),
}


class HallHandler(display.DisplayHandler):
    """Every route of `routes.ROUTES`: `show`'s pages, the phones' and the desk's pages, the two JSON APIs (each of
    their paths answered by its API, JSON in, JSON out, a path of no route included) and the organiser's console
    (`shuangsheng.hall.console`). The TV's source and the APIs are those of the event the site has open now."""

    site: Site  # set on the subclass `make_hall` builds
    server_version = "shuangsheng-serve"
    messages = HALL_MESSAGES
    route_table = routes.ROUTES

    @property
    def venue(self) -> Venue:
        venue = self.site.venue
        if venue is None:
            raise NoEvent
        return venue

    @property
    def api(self) -> TableApi:
        return self.venue.api

    @property
    def desk(self) -> DeskApi:
        return self.venue.desk

    @property
    def source(self) -> board.BoardSource:  # type: ignore[override]
        return self.venue.source

    @property
    def screens(self) -> Screens:  # type: ignore[override]
        """The TVs' sound as their polls say it, for this event's desk."""
        return self.venue.desk.screens

    def _is_api(self) -> bool:
        return routes.api_of(urlsplit(getattr(self, "path", "")).path) is not None

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if not self._is_api():
            super().send_error(code, message, explain)
            return
        text = NOT_OURS if code == HTTPStatus.MISDIRECTED_REQUEST else self.messages.get(
            HTTPStatus(code), ("请求有误", ""))[0]
        self.close_connection = True
        self._reply(refusal(code, text))

    def dispatch(self) -> None:
        """A path of an API goes to that API whatever its method (its own refusals, in its order); the rest as the
        route table says; the hall's paths while no event is open are said so (`no_event`)."""
        path = urlsplit(self.path).path
        if self.site.venue is None and not path.startswith(CONSOLE_PREFIXES) and path != "/favicon.ico":
            self.no_event(path)
            return
        who = routes.api_of(path)
        if who is None:
            super().dispatch()
            return
        found = routes.resolve(self.command, path, self.route_table)
        self.allow = found.allow if isinstance(found, routes.Refused) and found.allow else self.allow
        if self.command != "POST":
            self._api(who, body=b"", length=None)
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
            self._api(who, body=b"", length=length)
            return
        try:
            body = self.rfile.read(length)
        except (TimeoutError, OSError):
            self.close_connection = True
            return
        self._api(who, body=body, length=length)

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = dispatch

    def no_event(self, path: str) -> None:
        """No event open yet (the console has not opened one): the PC's browser is sent to the console, a TV or a
        phone is told to wait; an API answers 503 in its JSON."""
        if routes.api_of(path) is not None:
            self._reply(refusal(HTTPStatus.SERVICE_UNAVAILABLE, NO_EVENT))
            return
        if path == "/" and self.command in ("GET", "HEAD"):
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("Location", "/console")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_error(HTTPStatus.SERVICE_UNAVAILABLE)

    def _table_page(self, *, body: bool, code: str) -> None:
        try:
            page = table_page(code)
        except ValueError:  # not a code at all; a code of no table is said by the page, from the API's 404
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        self._send(page.decode("utf-8"), "text/html", body=body)

    def _desk_page(self, *, body: bool) -> None:
        if not self.desk.allows(self.client_address[0]):
            self.send_error(HTTPStatus.FORBIDDEN)
            return
        self._send(desk_page().decode("utf-8"), "text/html", body=body)

    def _api(self, who: str, *, body: bytes, length: int | None) -> None:
        request = Request(self.command, self.path, self.client_address[0],
                          {k.lower(): v for k, v in self.headers.items()}, body, length)
        answering: TableApi | DeskApi = self.api if who == "table" else self.desk
        try:
            reply = answering.handle(request)
        except Exception:
            traceback.print_exc(file=sys.stderr)
            reply = refusal(HTTPStatus.INTERNAL_SERVER_ERROR, "服务器出了点问题，请看电脑上的提示；这一局请稍后再提交")
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the phone went away: what was
            self._reply(reply)  # accepted is committed all the same

    def _reply(self, reply: Reply) -> None:
        data = reply.body()
        self.send_response(reply.status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)


class NoEvent(LookupError):
    """The console has no event open yet: the hall's pages and APIs have nothing to answer with."""


@dataclass
class Venue:
    """One event's hall: the TV's reading of its folder, the table API and the desk API (sharing one connection to
    its event.db, closed with `close`)."""

    folder: Path
    source: board.BoardSource
    api: TableApi
    desk: DeskApi

    def close(self, *, wait: float = 0.0) -> None:
        self.api.close(wait=wait)


@dataclass
class Site:
    """What the servers of one process answer: the event open now (`serve DIR`: always that one; the console opens
    and changes it) and the organiser's console, when there is one (`shuangsheng.hall.console.Console`)."""

    venue: Venue | None = None
    console: object | None = None  # a Console: typed loosely, since the console imports this module
    lock: threading.Lock = field(default_factory=threading.Lock)

    def replace(self, venue: Venue | None, *, wait: float = STOP_WAIT) -> None:
        """Serve `venue` from now on; the one before it is closed (its ledger checkpointed)."""
        with self.lock:
            old, self.venue = self.venue, venue
        if old is not None:
            old.close(wait=wait)


@dataclass(frozen=True)
class HallOptions:
    """What every event's hall in one process shares: the names and port it answers to, the addresses it is bound
    to, the throttles, the desk's PIN and the clock; `admitted` lets the console's session stand for the PIN."""

    names: frozenset[str]
    port: int
    bound: tuple[str, ...]
    log: Callable[[str], None]
    settle: float
    codes: Throttle
    pins: Throttle
    pin: str
    clock: Callable[[], str]
    admitted: Callable[[Request], bool] | None = None


def make_venue(folder: Path, options: HallOptions, *, desk_lan: bool = False) -> Venue:
    """The hall of the event in `folder`: its event.db opened once, shared by the table API and the desk."""
    source = board.BoardSource(folder, log=options.log, settle=options.settle,
                               now=lambda: parse_time(options.clock()))
    seating = Seating(folder)
    states = KnownStates()  # each table's last state, for the phones' and the desk's polls
    # the event.db there now, the table API and the desk never using another, through one connection lent in turn
    ledger = SharedLedger(folder, ServedFile(folder, options.log))
    api = TableApi(folder, names=options.names, port=options.port, throttle=options.codes, clock=options.clock,
                   seating=seating, ledger=ledger, states=states)
    desk = DeskApi(folder, names=options.names, port=options.port, pin=options.pin, desk_lan=desk_lan,
                   bound=options.bound, throttle=options.pins, source=source, clock=options.clock, seating=seating,
                   ledger=ledger, admitted=options.admitted, states=states)
    return Venue(folder, source, api, desk)


@dataclass
class Hall:
    """The servers of one `serve` (or console): one per address, sharing the connection slots and the site."""

    servers: list[display.DisplayServer]
    site: Site
    options: HallOptions
    threads: list[threading.Thread] = field(default_factory=list)

    @property
    def api(self) -> TableApi:
        assert self.site.venue is not None, "no event open"
        return self.site.venue.api

    @property
    def desk(self) -> DeskApi:
        assert self.site.venue is not None, "no event open"
        return self.site.venue.desk

    @property
    def port(self) -> int:
        return self.servers[0].server_address[1]

    def addresses(self) -> list[str]:
        return [f"http://{s.server_address[0]!s}:{s.server_address[1]}/" for s in self.servers]

    def start(self) -> None:
        for httpd in self.servers:
            self._run(httpd)

    def _run(self, httpd: display.DisplayServer) -> None:
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        self.threads.append(thread)

    def listen(self, host: str) -> str:
        """Answer on `host` too (the LAN address, opened from the console), from now on; its URL. Raises OSError
        when the address cannot be bound."""
        first = self.servers[0]
        httpd = display.DisplayServer((host, self.port), first.RequestHandlerClass,  # type: ignore[arg-type]
                                      max_connections=first.max_connections, names=first.names | {host.lower()},
                                      slots=first.slots)
        for server in self.servers:
            server.names = httpd.names
        self.servers.append(httpd)
        self.options = replace(self.options, names=httpd.names, bound=(*self.options.bound, host))
        self._run(httpd)
        return f"http://{host}:{self.port}/"

    def stop(self) -> None:
        for httpd in self.servers:
            httpd.shutdown()
        for httpd in self.servers:
            httpd.server_close()
        for thread in self.threads:
            thread.join(5)
        self.site.replace(None)


def make_hall(folder: Path | None, hosts: list[str], port: int, *, log: Callable[[str], None],
              max_connections: int = display.MAX_CONNECTIONS, timeout: float = display.READ_SECONDS,
              settle: float = board.SETTLE_SECONDS, throttle: Throttle | None = None, pin: str | None = None,
              desk_lan: bool = False, clock: Callable[[], str] = now_iso,
              handler: type[HallHandler] | None = None, admitted: Callable[[Request], bool] | None = None) -> Hall:
    """Bind `hosts` (127.0.0.1 first; raises OSError: port taken, address not ours) on one port (port 0: the
    first free one, then the same for the others) and return them, not yet serving, with the hall of the event in
    `folder` open (None: none yet — the console opens one). `pin`: the desk's (a new one when None:
    `hall.desk.pin`); `desk_lan`: [serve] desk_lan; `clock`: the PC's time, ISO 8601 (tests inject it);
    `handler`: the request handler's class (the console's); `admitted`: the console's session standing for the
    desk's PIN."""
    names = {*display.LOCAL_NAMES, *(h.lower() for h in hosts), *display.own_names()}
    cap = display.connection_cap(max_connections, display.open_file_limit(max_connections + display.RESERVED_FILES))
    slots = display.Slots(cap, own=hosts)  # the PC's own addresses hold any share of the connections
    site = Site()
    answering: type[HallHandler] = type("Handler", (handler or HallHandler,), {"site": site, "timeout": timeout})
    servers: list[display.DisplayServer] = []
    try:
        for host in hosts:
            httpd = display.DisplayServer((host, port), answering, max_connections=cap, names=names, slots=slots)
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
    options = HallOptions(frozenset(names), port, tuple(str(h.server_address[0]) for h in servers), log, settle,
                          codes, pins, pin or new_pin(), clock, admitted)
    if folder is not None:
        site.venue = make_venue(folder, options, desk_lan=desk_lan)
    return Hall(servers, site, options)


def new_pin() -> str:
    """A desk PIN: 6 digits from `secrets`."""
    return f"{secrets.randbelow(10**6):06d}"
