"""The read-only web server behind `shuangsheng show`.

It serves the TV's routes of the route table (`shuangsheng.hall.routes`) and nothing else: `/` (the page),
`/board.json` (the views and their version, which the page polls; under `serve` its query says whether the TV's
sound is on, `shuangsheng.hall.screens`) and `/favicon.ico` (nothing), and only to
requests naming this server (`Host`: localhost, 127.0.0.1 or the address it
printed; anything else is 421). No file of the event folder is ever sent, so no path can reach outside it; what it
serves is read by `shuangsheng.hall.board`. Limits: at most MAX_CONNECTIONS connections, each with READ_SECONDS to
send its request; the server waits on its socket and its clients, never in a loop that polls.
"""

from __future__ import annotations

import contextlib
import email.utils
import errno
import functools
import io
import json
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable, Collection
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from shuangsheng.hall import routes
from shuangsheng.hall.board import SETTLE_SECONDS, BoardSource
from shuangsheng.hall.screens import Screens
from shuangsheng.render.show_page import page_html

# The server's limits: at most 512 connections; slow clients time out.
MAX_CONNECTIONS = 512  # open connections, each with its thread; beyond it a new one is refused at once (503)
LISTEN_BACKLOG = 256  # connections the system holds for us before they are accepted: a hall of phones at once
READ_SECONDS = 5.0  # a client has this long to send its whole request (an idle or slow one is dropped after it)
RESERVED_FILES = 32  # open files kept free beside the connections: the workbooks being read, the console, the socket
ACCEPT_PAUSE = 0.1  # seconds to wait before accepting again when the system has no file left for a connection
STOP_POLL = 0.05  # seconds between the serving loop's looks at `shutdown()` (socketserver's 0.5 held up each stop)
OUT_OF_FILES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM,
                *(getattr(errno, name) for name in ("WSAEMFILE", "WSAENOBUFS") if hasattr(errno, name))}  # Windows
LOCAL_NAMES = ("localhost", "127.0.0.1")
LOCAL_ADDRESSES = ("127.0.0.1", "::1", "::ffff:127.0.0.1")  # the PC itself, as a connection's address


# --- HTTP: who may ask, what is answered ---


def own_names() -> set[str]:
    """The PC's own name as a browser on the network may type it (`office-pc`, `office-pc.local`)."""
    import socket

    name = socket.gethostname().strip().lower()
    return {name, f"{name}.local"} if name else set()


def host_allowed(host: str | None, names: Collection[str], port: int) -> bool:
    """Whether a request's `Host` names this server: one of `names`, with this server's port or none. Anything else
    is a page loaded from elsewhere whose name now points here (DNS rebinding) or a misdirected request."""
    if not host:
        return False
    host = host.strip().lower()
    name, colon, given = host.rpartition(":")
    if not colon:
        name = host
    elif given != str(port):
        return False
    return name in names


def target_allowed(target: str, names: Collection[str], port: int) -> bool:
    """Whether a request target names this server: the usual `/path`, or an absolute form (`http://host:port/path`,
    as a proxy would send) whose host is checked as `Host` is; anything else (`*`, another authority) is not ours."""
    if target.startswith("/"):
        return True
    parts = urlsplit(target)
    return parts.scheme in ("http", "https") and host_allowed(parts.netloc, names, port)


CALM_ERROR = """<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>场地大屏</title></head>
<body style="font-family: sans-serif; font-size: 48px; background: #fdfbf5; padding: 48px">
<p>%(message)s</p><p style="color: #6b6b6b">%(explain)s</p></body></html>
"""

MESSAGES = {
    HTTPStatus.NOT_FOUND: ("这里没有这个页面", "场地大屏只有首页：请打开 / "),
    HTTPStatus.METHOD_NOT_ALLOWED: ("场地大屏只能查看，不能修改", "只接受 GET 和 HEAD 请求"),
    HTTPStatus.NOT_IMPLEMENTED: ("场地大屏只能查看，不能修改", "只接受 GET 和 HEAD 请求"),
    HTTPStatus.MISDIRECTED_REQUEST: (
        "这个网址不是场地大屏的地址", "请输入运行 shuangsheng show 的电脑上显示的地址（以 http:// 开头的那一行）"
    ),
    HTTPStatus.INTERNAL_SERVER_ERROR: ("大屏暂时出了点问题", "请看运行 shuangsheng show 的电脑上的提示"),
}

BUSY_TEXT = "场地大屏此刻的连接太多，请稍后再打开。".encode()
BUSY_RESPONSE = (
    b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Content-Length: %d\r\nRetry-After: 5\r\nConnection: close\r\n\r\n%s" % (len(BUSY_TEXT), BUSY_TEXT)
)

# The page's own script and styles are inline; it may talk only to this server. Nothing from the internet.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; "
        "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}



class DeadlineReader(io.RawIOBase):
    """A connection's bytes, each read waiting only until `deadline` (time.monotonic): a client sending its request
    a byte at a time cannot hold its connection longer than one that sends nothing."""

    def __init__(self, connection: socket.socket):
        super().__init__()
        self.connection = connection
        self.deadline = 0.0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive in time")
        self.connection.settimeout(left)
        return self.connection.recv_into(buffer)


class DisplayHandler(BaseHTTPRequestHandler):
    """The routes of `routes` (`show`: GET and HEAD of `/`, `/board.json`, `/favicon.ico`) for a request naming this
    server; everything else is refused as the route table decides (404, or 405 with `Allow`)."""

    source: BoardSource  # set on the subclass `make_server` builds
    timeout = READ_SECONDS  # for the whole request, and again for the answer to be taken
    server: DisplayServer
    server_version = "shuangsheng-show"
    sys_version = ""
    error_content_type = "text/html; charset=utf-8"
    messages = MESSAGES  # the Chinese wording of each refusal
    route_table: tuple[routes.Route, ...] = routes.SHOW_ROUTES  # what this server answers
    allow_all = routes.allowed(route_table)  # the methods it answers anywhere (worked out again by each subclass)
    wbufsize = 64 * 1024  # an answer's headers and body leave in one write when they fit (flushed after each request)
    screens: Screens | None = None  # `serve`: the TVs' sound as their polls say it, for the desk
    allow = ""  # the methods the path has, said with a 405 (and a 501)

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.allow_all = routes.allowed(cls.route_table)

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the socket's own reader, replaced by one that keeps to the request's deadline
        self.reader = DeadlineReader(self.connection)
        self.rfile = io.BufferedReader(self.reader)

    def handle_one_request(self) -> None:
        self.reader.deadline = time.monotonic() + self.timeout
        self.allow = self.allow_all  # until the request's path is known: what this server answers
        super().handle_one_request()

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        self.connection.settimeout(self.timeout)  # the request is read: the answer gets its own time to be taken
        names, port = self.server.names, self.server.server_address[1]
        if not host_allowed(self.headers.get("Host"), names, port) or not target_allowed(self.path, names, port):
            self.send_error(HTTPStatus.MISDIRECTED_REQUEST)
            return False
        return True

    def dispatch(self) -> None:
        """Every method: the route table decides (`routes.resolve`)."""
        found = routes.resolve(self.command, urlsplit(self.path).path, self.route_table)
        if isinstance(found, routes.Refused):
            self.allow = found.allow or self.allow
            self.send_error(found.status)
            return
        self._respond(found)

    do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = dispatch

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's, with the Chinese wording in the page (the status line keeps the standard phrase)."""
        message, explain = self.messages.get(HTTPStatus(code), ("请求有误", "请打开场地大屏的首页 /"))
        body = (CALM_ERROR % {"message": message, "explain": explain}).encode("utf-8")
        self.close_connection = True
        self.send_response(code)
        self.send_header("Content-Type", self.error_content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD" and code >= 200:
            self.wfile.write(body)

    def security_headers(self) -> dict[str, str]:
        """The headers every answer carries: what its page may load and do (`SECURITY_HEADERS`)."""
        return SECURITY_HEADERS

    def end_headers(self) -> None:
        for name, value in self.security_headers().items():
            self.send_header(name, value)
        if self.command and self.command not in self.allow.split(", "):
            self.send_header("Allow", self.allow)
        super().end_headers()

    def _respond(self, found: routes.Match) -> None:
        """A page's route: answered by the handler's method `_<answer>` (`routes.ROUTES` names them)."""
        try:
            getattr(self, f"_{found.route.answer}")(body=self.command != "HEAD", **found.params)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the TV went away mid-answer
        except Exception:
            traceback.print_exc(file=sys.stderr)
            self.send_error(HTTPStatus.INTERNAL_SERVER_ERROR)

    def _page(self, *, body: bool) -> None:
        snap = self.source.current()
        self._send(page_html(snap.title, snap.views, live=True), "text/html", body=body)

    def _board(self, *, body: bool) -> None:
        if self.screens is not None:  # the TV says whether its sound is on (?sound=on|off&screen=…)
            self.screens.heard(parse_qs(urlsplit(self.path).query), self.client_address[0])
        snap = self.source.current()
        clock, mark = self.source.clock_json(self.source.now())
        etag = f'"{snap.version}-{mark}"' if mark else f'"{snap.version}"'  # a start, stop or new minutes is news too
        if self.headers.get("If-None-Match") == etag:
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.send_header("ETag", etag)
            self.end_headers()
            return
        doc = json.dumps({"version": snap.version, "title": snap.title, "views": snap.views, "clock": clock},
                         ensure_ascii=False)
        self._send(doc, "application/json", body=body, etag=etag)

    def _favicon(self, *, body: bool) -> None:
        self.send_response(HTTPStatus.NO_CONTENT)
        self.end_headers()

    def _send(self, text: str, content_type: str, *, body: bool, etag: str | None = None) -> None:
        data = text.encode("utf-8")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", f"{content_type}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")
        if etag:
            self.send_header("ETag", etag)
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass  # a TV polling every two seconds would flood the organiser's window

    def date_time_string(self, timestamp: float | None = None) -> str:
        """The `Date` header, made once a second (every answer carries it)."""
        return http_date(int(time.time())) if timestamp is None else super().date_time_string(timestamp)


@functools.lru_cache(maxsize=2)
def http_date(second: int) -> str:
    """A `Date` header's value, as `BaseHTTPRequestHandler.date_time_string` makes it."""
    return email.utils.formatdate(second, usegmt=True)


# --- the server: a thread per connection, at most `max_connections` of them ---


def refuse_at_once(connection: socket.socket) -> None:
    """A short 503 to a connection over the limit, without waiting for it and without a thread."""
    try:
        connection.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            connection.recv(65536)  # what it has sent already: read, so that closing does not reset the answer
        connection.send(BUSY_RESPONSE)
    except OSError:
        pass


SHARE = 16  # one client address may hold at most 1/SHARE of the connections (the PC's own addresses: any number)


class Slots:
    """The connections allowed at once, counted across every address a server listens on; one client address holds
    at most `share` of them (a phone or program reconnecting without end cannot keep the hall's other phones out),
    except the PC's own addresses (`own`: the TV and the desk on the PC itself)."""

    def __init__(self, limit: int, *, own: Collection[str] = (), share: int | None = None):
        self.limit = limit
        self.share = share if share is not None else max(2, limit // SHARE)
        self.own = frozenset({"", *LOCAL_ADDRESSES, *own})
        self._active = 0
        self._by: dict[str, int] = {}
        self._lock = threading.Lock()

    @property
    def active(self) -> int:
        with self._lock:
            return self._active

    def take(self, address: str = "") -> bool:
        with self._lock:
            held = self._by.get(address, 0)
            admitted = self._active < self.limit and (address in self.own or held < self.share)
            if admitted:
                self._active += 1
                self._by[address] = held + 1
        return admitted

    def release(self, address: str = "") -> None:
        with self._lock:
            self._active -= 1
            held = self._by.pop(address, 0) - 1
            if held > 0:
                self._by[address] = held


class DisplayServer(ThreadingHTTPServer):
    """The standard threading server with limits: `max_connections` at once (more are refused at once), a backlog
    for a hall of clients, and no busy loop when the system runs out of files for new connections."""

    daemon_threads = True
    block_on_close = False  # Ctrl+C stops at once; a connection's thread ends with its timeout at the latest
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, address: tuple[str, int], handler: type[DisplayHandler], *, max_connections: int,
                 names: Collection[str], slots: Slots | None = None):
        self.slots = slots or Slots(max_connections)
        self.max_connections = self.slots.limit
        self.names = frozenset(names)
        super().__init__(address, handler)

    def server_bind(self) -> None:
        """Bind as the base class does, but on Windows with SO_EXCLUSIVEADDRUSE and without SO_REUSEADDR: there
        SO_REUSEADDR (http.server's `allow_reuse_address`) lets a second process bind the same port and take
        requests from the first, so a second start is told the port is in use instead (elsewhere SO_REUSEADDR only
        lets a restart bind while the old connections wait out TIME_WAIT, and stays)."""
        exclusive = getattr(socket, "SO_EXCLUSIVEADDRUSE", None)
        if exclusive is not None:
            self.allow_reuse_address = False
            self.socket.setsockopt(socket.SOL_SOCKET, exclusive, 1)
        super().server_bind()

    @property
    def active(self) -> int:
        """Connections open now, each in its own thread (on every address sharing these slots)."""
        return self.slots.active

    def serve_forever(self, poll_interval: float = STOP_POLL) -> None:
        """Serve until `shutdown()`, which returns within `poll_interval` (how long `serve` takes to stop on Ctrl+C:
        it shuts each of its servers down in turn)."""
        super().serve_forever(poll_interval)

    def get_request(self) -> tuple[socket.socket, object]:
        try:
            return super().get_request()
        except OSError as exc:
            if exc.errno in OUT_OF_FILES:  # the listening socket stays ready: accepting at once again would spin
                time.sleep(ACCEPT_PAUSE)
            raise

    def process_request(self, request, client_address) -> None:
        if not self.slots.take(client_address[0]):
            refuse_at_once(request)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release(client_address[0])
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release(client_address[0])

    def handle_error(self, request, client_address) -> None:
        if isinstance(sys.exc_info()[1], OSError):
            return  # a client that went away or timed out: nothing for the organiser's window
        super().handle_error(request, client_address)


def connection_cap(wanted: int, file_limit: int | None) -> int:
    """How many connections to hold at once: `wanted`, or fewer when the open-file limit leaves less room beside
    RESERVED_FILES (a connection over it would find no file, and the ones after it neither)."""
    if file_limit is None:
        return wanted
    return max(1, min(wanted, file_limit - RESERVED_FILES))


def open_file_limit(wanted: int) -> int | None:
    """This process's open-file limit, raised to `wanted` where the system allows it (macOS starts at 256);
    None where there is no such limit (Windows) or it is unlimited."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    return None if soft == resource.RLIM_INFINITY else soft


def make_server(folder: Path, host: str, port: int, *, log: Callable[[str], None],
                max_connections: int = MAX_CONNECTIONS, timeout: float = READ_SECONDS,
                settle: float = SETTLE_SECONDS) -> DisplayServer:
    """Bind (raises OSError: port taken, address not ours) and return the server, not yet serving. It answers only
    requests naming it: localhost, 127.0.0.1 or `host` (the address it was bound to and printed)."""
    handler = type("Handler", (DisplayHandler,), {"source": BoardSource(folder, log=log, settle=settle),
                                                  "timeout": timeout})
    cap = connection_cap(max_connections, open_file_limit(max_connections + RESERVED_FILES))
    return DisplayServer((host, port), handler, max_connections=cap, names={*LOCAL_NAMES, host.lower(), *own_names()})
