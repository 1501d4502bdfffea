"""The read-only web server behind `shuangsheng show`, and the `--export` file.

It serves two generated resources and nothing else: `/` (the page) and `/board.json` (the views and their version,
which the page polls). No file of the event folder is ever sent, so no path can reach outside it. The folder is
read through `scoring.tournament`, the same calls `score` and `awards` make; the CLI writes its files atomically,
and a file still changing (a referee's workbook being saved) is left alone until it has been quiet for a moment.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from display.page import page_html, version_of, views_html
from scoring import tournament, venue
from scoring.errors import UserError
from scoring.event import EVENT_FILE
from scoring.files import write_text
from scoring.venue import Board

DEFAULT_PORT = 8000
SETTLE_SECONDS = 1.0  # a file modified more recently than this may still be being written: read it next time
DEFAULT_TITLE = "场地大屏"

FOLDER_TROUBLE = "活动文件夹中有{count}处问题待处理，请看电脑上的提示；这里显示的是此前的内容。"
FOLDER_UNREADABLE = "暂时无法读取活动文件夹（{count}处问题），请在电脑上查看提示；改好后这里会自动更新。"


def load_board(folder: Path) -> Board:
    """The page data, through the calls `bracket` and `score` make. Raises UserError (Chinese lines)."""
    chart, state = tournament.bracket(folder)
    return venue.build_board(chart, state.scores())


@dataclass(frozen=True)
class Snapshot:
    title: str
    views: str
    version: str


def snapshot(title: str, board: Board | None, notices: tuple[str, ...] = ()) -> Snapshot:
    views = views_html(board, notices)
    return Snapshot(title, views, version_of(views))


class BoardSource:
    """The folder's current views, read again only when its files change (and have settled)."""

    def __init__(self, folder: Path, *, log: Callable[[str], None], settle: float = SETTLE_SECONDS):
        self.folder = folder
        self.log = log
        self.settle = settle
        self._lock = threading.Lock()
        self._seen: tuple | None = None
        self._good: Board | None = None
        self._current: Snapshot | None = None

    def _fingerprint(self) -> tuple:
        entries = []
        for name in (EVENT_FILE, tournament.TEAMS_FILE):
            entries.append(self._stat(self.folder / name))
        try:  # round-N.xlsx only: checked copies and backups are written by the program, not read by it
            rounds = tournament.round_files(self.folder)
        except OSError:
            rounds = []
        entries.extend(self._stat(p) for p in rounds)
        return tuple(entries)

    @staticmethod
    def _stat(path: Path) -> tuple:
        try:
            st = path.stat()
        except OSError:
            return (path.name, None, None)
        return (path.name, st.st_size, st.st_mtime_ns)

    def current(self) -> Snapshot:
        with self._lock:
            fingerprint = self._fingerprint()
            if self._current is not None and fingerprint == self._seen:
                return self._current
            newest = max((e[2] for e in fingerprint if e[2] is not None), default=0)
            if self._current is not None and time.time_ns() - newest < self.settle * 1e9:
                return self._current  # still being written, perhaps: look again at the next request
            self._seen = fingerprint
            self._current = self._read()
            return self._current

    def _read(self) -> Snapshot:
        try:
            board = load_board(self.folder)
        except UserError as exc:
            problems = exc.messages
            self.log(f"{self.folder}：活动文件夹暂时不能完整读取，大屏继续显示最近一次能读取的内容：")
            for line in problems:
                self.log(f"  {line}")
            count = sum(1 for line in problems if line.strip())
            if self._good is None:
                return snapshot(DEFAULT_TITLE, None, (FOLDER_UNREADABLE.format(count=count),))
            return snapshot(self._good.title, self._good, (FOLDER_TROUBLE.format(count=count),))
        if self._good is not None:
            self.log(f"{time.strftime('%H:%M:%S')} 活动文件夹有变动，大屏已更新")
        self._good = board
        return snapshot(board.title, board)


CALM_ERROR = """<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>场地大屏</title></head>
<body style="font-family: sans-serif; font-size: 48px; background: #fdfbf5; padding: 48px">
<p>%(message)s</p><p style="color: #6b6b6b">%(explain)s</p></body></html>
"""

MESSAGES = {
    HTTPStatus.NOT_FOUND: ("这里没有这个页面", "场地大屏只有首页：请打开 / "),
    HTTPStatus.METHOD_NOT_ALLOWED: ("场地大屏只能查看，不能修改", "只接受 GET 和 HEAD 请求"),
    HTTPStatus.NOT_IMPLEMENTED: ("场地大屏只能查看，不能修改", "只接受 GET 和 HEAD 请求"),
    HTTPStatus.INTERNAL_SERVER_ERROR: ("大屏暂时出了点问题", "请看运行 shuangsheng show 的电脑上的提示"),
}

# The page's own script and styles are inline; it may talk only to this server. Nothing from the internet.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; "
        "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class DisplayHandler(BaseHTTPRequestHandler):
    """GET and HEAD of `/` and `/board.json`; everything else is refused."""

    source: BoardSource  # set on the subclass `make_handler` builds
    server_version = "shuangsheng-show"
    sys_version = ""
    error_content_type = "text/html; charset=utf-8"

    def do_GET(self) -> None:
        self._respond(body=True)

    def do_HEAD(self) -> None:
        self._respond(body=False)

    def _refuse(self) -> None:
        self.send_error(HTTPStatus.METHOD_NOT_ALLOWED)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The base class's, with the Chinese wording in the page (the status line keeps the standard phrase)."""
        message, explain = MESSAGES.get(HTTPStatus(code), ("请求有误", "请打开场地大屏的首页 /"))
        body = (CALM_ERROR % {"message": message, "explain": explain}).encode("utf-8")
        self.close_connection = True
        self.send_response(code)
        self.send_header("Content-Type", self.error_content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD" and code >= 200:
            self.wfile.write(body)

    def end_headers(self) -> None:
        for name, value in SECURITY_HEADERS.items():
            self.send_header(name, value)
        if self.command not in ("GET", "HEAD") and self.command:
            self.send_header("Allow", "GET, HEAD")
        super().end_headers()

    def _respond(self, *, body: bool) -> None:
        path = urlsplit(self.path).path
        try:
            if path == "/":
                snap = self.source.current()
                self._send(page_html(snap.title, snap.views, live=True), "text/html", body=body)
            elif path == "/board.json":
                snap = self.source.current()
                etag = f'"{snap.version}"'
                if self.headers.get("If-None-Match") == etag:
                    self.send_response(HTTPStatus.NOT_MODIFIED)
                    self.send_header("ETag", etag)
                    self.end_headers()
                    return
                doc = json.dumps({"version": snap.version, "title": snap.title, "views": snap.views}, ensure_ascii=False)
                self._send(doc, "application/json", body=body, etag=etag)
            elif path == "/favicon.ico":
                self.send_response(HTTPStatus.NO_CONTENT)
                self.end_headers()
            else:
                self.send_error(HTTPStatus.NOT_FOUND)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the TV went away mid-answer
        except Exception:
            traceback.print_exc(file=sys.stderr)
            self.send_error(HTTPStatus.INTERNAL_SERVER_ERROR)

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


def make_server(folder: Path, host: str, port: int, *, log: Callable[[str], None]) -> ThreadingHTTPServer:
    """Bind (raises OSError: port taken, address not ours) and return the server, not yet serving."""
    handler = type("Handler", (DisplayHandler,), {"source": BoardSource(folder, log=log)})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def lan_address() -> str | None:
    """This machine's address on the local network (what a TV on the same network types in), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))  # UDP: chooses the outgoing interface, sends nothing
            address = probe.getsockname()[0]
        except OSError:
            address = None
    if address and not address.startswith("127."):
        return address
    try:
        candidates = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return None
    return next((a for a in candidates if not a.startswith("127.")), None)


def export(folder: Path, target: Path, *, force: bool = False) -> Path:
    """The same views in one self-contained HTML file (no server). Raises UserError for a folder with problems."""
    from display.export import check_target

    check_target(target, force=force)  # never over an input, nor over anything but an earlier export
    board = load_board(folder)
    snap = snapshot(board.title, board)
    return write_text(target, page_html(snap.title, snap.views, live=False), force=True)
