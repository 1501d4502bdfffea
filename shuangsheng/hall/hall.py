"""The hall server behind `shuangsheng serve` and `start`: every URL of the route table (`shuangsheng.hall.routes`: the
venue display of `show` at `/`, the phones' and the desk's pages, the table API of `shuangsheng.hall.table_api`,
the desk API of `shuangsheng.hall.desk_api`, and the organiser's console of `shuangsheng.hall.console`), on `show`'s
hardened server (`shuangsheng.hall.server`: connection cap, per-request deadline). One event's hall — its TV
source, table API and desk API, sharing event.db's one connection, lent to one request at a time — is a `Venue`;
the process's `Site` holds the one open now (the console opens and changes it). The connection is closed,
checkpointing, when the hall stops. Never holds the folder lock."""

from __future__ import annotations

import contextlib
import secrets
import sys
import threading
import traceback
from collections.abc import Callable
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
from shuangsheng.hall.shared_ledger import SharedLedger
from shuangsheng.hall.table_api import (  # noqa: F401 — the table API's words stay importable from here
    MOVING,
    SEALED,
    TOO_MANY,
    WRONG_CODE,
    CodesInForce,
    TableApi,
)
from shuangsheng.render.desk_page import desk_page
from shuangsheng.render.table_page import table_page
from shuangsheng.table.clock import parse_time
from shuangsheng.table.state import KnownStates

CONSOLE_PREFIXES = ("/console", "/api/console")  # the console's paths: answered whether or not an event is open
NO_EVENT = "组织者还没有在控制台打开比赛，请稍后再试"
STOP_WAIT = 5.0  # seconds `Hall.stop` waits for requests in flight to give back (and checkpoint) their ledger
NO_LENGTH = "请求须带 Content-Length，不能分块发送（Transfer-Encoding: chunked）"


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
        if reply.status == HTTPStatus.METHOD_NOT_ALLOWED:  # `Allow`: the methods of this path (looked up only now)
            found = routes.resolve(self.command, urlsplit(self.path).path, self.route_table)
            self.allow = found.allow if isinstance(found, routes.Refused) and found.allow else self.allow
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
    states = KnownStates()  # each table's last state, for the phones' and the desk's polls and the TV's readings
    source = board.BoardSource(folder, log=options.log, settle=options.settle,
                               now=lambda: parse_time(options.clock()), known=states)
    seating = Seating(folder)
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
