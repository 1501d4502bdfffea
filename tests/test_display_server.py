"""shuangsheng.hall.server and `shuangsheng show`: read-only, nothing but its own two resources, calm notices, the export,
Ctrl+C. (What the page looks like in a browser is tests/browser/.)"""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import socket
import threading
import time
from http import HTTPStatus
from pathlib import Path

import pytest
from typer.testing import CliRunner

from shuangsheng.cli import app
from shuangsheng.hall import board
from shuangsheng.hall import lan as lan_addresses
from shuangsheng.hall import server as display_server
from shuangsheng.hall.board import BoardSource, FileState, Watch, problems_of
from shuangsheng.hall.server import host_allowed, make_server
from shuangsheng.storage.names import round_path
from shuangsheng.storage.workbook.problems import Cell, Problem, WorkbookError
from tests.events import finished, play, played_rounds, start_event
from tests.helpers import digests
from tests.show_process import cpu_seconds, start_show, stop


@pytest.fixture
def serve():
    """serve(folder, **limits) → (host, port) of a display server running in a thread; stopped after the test.
    `serve.last` is the server last started."""
    running = []

    def start(folder: Path, *, settle: float = 0.0, **limits):
        httpd = make_server(folder, "127.0.0.1", 0, log=lambda line: None, settle=settle, **limits)
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        running.append((httpd, thread))
        start.last = httpd
        return httpd.server_address[:2]

    yield start
    for httpd, thread in running:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def request(address, method: str, path: str, headers: dict | None = None, body: bytes | None = None):
    conn = http.client.HTTPConnection(*address, timeout=10)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def test_page_and_board_json_come_from_the_folder(tmp_path, serve):
    played_rounds(tmp_path, teams=11, rounds=1)
    address = serve(tmp_path)
    status, headers, body = request(address, "GET", "/")
    text = body.decode("utf-8")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert "离退休教职工双升级" in text and "第2轮（3组）" not in text
    assert "第2轮 对阵" in text and "第1轮 成绩" in text and "晋级图" in text
    assert "connect-src 'self'" in headers["Content-Security-Policy"] and "default-src 'none'" in headers[
        "Content-Security-Policy"]
    status, headers, body = request(address, "GET", "/board.json")
    doc = json.loads(body)
    assert status == 200 and set(doc) == {"version", "title", "views", "clock"} and doc["clock"] is None and headers["ETag"] == f'"{doc["version"]}"'
    assert 'class="view draw"' in doc["views"]
    status, _, body = request(address, "GET", "/board.json", {"If-None-Match": headers["ETag"]})
    assert status == 304 and body == b""
    status, headers, body = request(address, "HEAD", "/")
    assert status == 200 and body == b"" and int(headers["Content-Length"]) > 1000


def test_the_page_has_no_asset_from_anywhere(tmp_path, serve):
    finished(tmp_path, teams=5)
    _, _, body = request(serve(tmp_path), "GET", "/")
    text = body.decode("utf-8")
    assert not re.search(r"""\b(?:src|href)\s*=|url\(|@import|<link\b""", text, re.I)
    assert set(re.findall(r"https?://[^\s\"'<>)]+", text)) <= {"http://www.w3.org/2000/svg"}  # an XML name, not a fetch


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_nothing_changes_anything(tmp_path, serve, method):
    played_rounds(tmp_path, teams=6, rounds=1)
    before = digests(tmp_path)
    address = serve(tmp_path)
    for path in ("/", "/board.json", "/round-1.xlsx", "/event.toml"):
        status, headers, body = request(address, method, path, body=b"x=1")
        assert status == 405 and headers["Allow"] == "GET, HEAD"
        assert "只能查看，不能修改" in body.decode("utf-8")
    assert digests(tmp_path) == before


@pytest.mark.parametrize(
    "path",
    ["/event.toml", "/round-1.xlsx", "/teams.xlsx", "/../event.toml", "/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd",
     "/templates/show.html.j2", "/board.json/../event.toml", "/index.html"],
)
def test_no_file_is_served_at_all(tmp_path, serve, path):
    played_rounds(tmp_path, teams=6, rounds=1)
    (tmp_path.parent / "secret.txt").write_text("outside", encoding="utf-8")
    status, _, body = request(serve(tmp_path), "GET", path)
    text = body.decode("utf-8")
    assert status == 404 and "这里没有这个页面" in text
    assert "[rules]" not in text and "outside" not in text and "root:" not in text


def test_a_broken_workbook_is_a_calm_notice_over_the_last_good_views(tmp_path, serve):
    played_rounds(tmp_path, teams=6, rounds=1)
    address = serve(tmp_path)
    _, _, good = request(address, "GET", "/board.json")
    good_views = json.loads(good)["views"]
    (tmp_path / "round-2.xlsx").write_bytes(b"PK\x03\x04 half written")
    _, _, body = request(address, "GET", "/board.json")
    views = json.loads(body)["views"]
    assert "活动文件夹中有1处问题待处理" in views and "请看电脑上的提示" in views and "Traceback" not in views
    assert 'class="view draw"' in views  # the last good draw is still there under the notice
    status, _, page = request(address, "GET", "/")
    assert status == 200 and "Traceback" not in page.decode("utf-8")
    assert good_views in views


def test_a_folder_not_yet_readable_shows_only_the_notice(tmp_path, serve):
    start_event(tmp_path, teams=4)
    (tmp_path / "teams.xlsx").unlink()
    status, _, body = request(serve(tmp_path), "GET", "/board.json")
    views = json.loads(body)["views"]
    assert status == 200 and "暂时无法读取活动文件夹" in views
    assert 'class="view welcome"' in views and "抽签后这里会自动更新" in views  # a useful page, not a blank screen
    assert 'class="view draw' not in views and 'class="view results' not in views
    title = re.search(r"<title>(.*?)</title>", request(serve(tmp_path), "GET", "/")[2].decode())
    assert title and "离退休" in title.group(1)  # the event's title, from event.toml


def test_an_unexpected_failure_is_a_calm_page_not_a_traceback(tmp_path, serve, monkeypatch, capsys):
    start_event(tmp_path, teams=4)

    def broken(folder, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(board, "read_folder", broken)
    status, _, body = request(serve(tmp_path), "GET", "/")
    text = body.decode("utf-8")
    assert status == 500 and "大屏暂时出了点问题" in text and "boom" not in text and "Traceback" not in text
    assert "RuntimeError: boom" in capsys.readouterr().err  # the organiser's window says why


@pytest.fixture
def readings(monkeypatch) -> list[Path]:
    """Each reading of the folder by the TV's source (`board.read_folder`), as it happens."""
    calls: list[Path] = []
    real = board.read_folder

    def counted(folder, *args, **kwargs):
        calls.append(folder)
        return real(folder, *args, **kwargs)

    monkeypatch.setattr(board, "read_folder", counted)
    return calls


def test_the_folder_is_read_again_only_when_it_changed_and_settled(tmp_path, readings):
    rng = played_rounds(tmp_path, teams=6, rounds=1)
    source = BoardSource(tmp_path, log=lambda line: None, settle=0.5)
    first = source.current()
    assert source.current().version == first.version and len(readings) == 1  # nothing changed: no reading
    play(tmp_path, 2, rng)
    assert source.current().version == first.version and len(readings) == 1  # just written: left for a moment
    time.sleep(0.6)
    second = source.current()
    assert len(readings) == 2 and second.version != first.version and re.search(r"data-title=\"第2轮[^\"]* 成绩\"", second.views)


# --- the command ---


def test_export_writes_one_self_contained_file_and_refuses_to_overwrite(tmp_path):
    finished(tmp_path / "event", teams=5)
    target = tmp_path / "大屏.html"
    runner = CliRunner()
    result = runner.invoke(app, ["show", str(tmp_path / "event"), "--export", str(target)])
    assert result.exit_code == 0, result.output
    text = target.read_text(encoding="utf-8")
    assert "获奖名单" in text and "晋级图" in text and "var LIVE = false" in text
    assert not re.search(r"""\b(?:src|href)\s*=|url\(|@import""", text, re.I)
    result = runner.invoke(app, ["show", str(tmp_path / "event"), "--export", str(target)])
    assert result.exit_code == 1 and "文件已存在" in result.output
    assert runner.invoke(app, ["show", str(tmp_path / "event"), "--export", str(target), "--force"]).exit_code == 0


def test_export_of_a_folder_with_problems_names_them(tmp_path):
    start_event(tmp_path, teams=4)
    (tmp_path / "teams.xlsx").unlink()
    result = CliRunner().invoke(app, ["show", str(tmp_path), "--export", str(tmp_path / "x.html")])
    assert result.exit_code == 1 and "找不到报名表" in result.output and not (tmp_path / "x.html").exists()


def test_show_refuses_a_missing_folder(tmp_path):
    result = CliRunner().invoke(app, ["show", str(tmp_path / "nope")])
    assert result.exit_code == 1 and "不存在" in result.output


@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is POSIX; on Windows Ctrl+C is the same path")
def test_show_serves_then_stops_cleanly_on_ctrl_c(tmp_path):
    played_rounds(tmp_path, teams=6, rounds=1)
    proc, url, lines = start_show(tmp_path)
    assert "按 Ctrl+C 停止" in lines[-1]
    try:
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        assert host == "127.0.0.1"
        status, _, body = request((host, int(port)), "GET", "/")
        assert status == 200 and 'class="view draw"' in body.decode("utf-8")
    finally:
        code, out, err = stop(proc)
    assert code == 0 and "场地大屏已停止" in out
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


def test_port_in_use_is_a_chinese_message(tmp_path, serve):
    start_event(tmp_path, teams=4)
    host, port = serve(tmp_path)
    result = CliRunner().invoke(app, ["show", str(tmp_path), "--port", str(port)])
    assert result.exit_code == 1 and f"无法在 127.0.0.1:{port} 上启动网页" in result.output and "--port" in result.output


@pytest.mark.skipif(lan_addresses.lan_address() is None, reason="this machine has no LAN address to bind")
@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is POSIX")
def test_lan_binds_the_lan_address_and_says_what_to_type_into_the_tv(tmp_path):
    start_event(tmp_path, teams=4)
    lan = lan_addresses.lan_address()
    proc, url, lines = start_show(tmp_path, "--lan")
    try:
        assert url.startswith(f"http://{lan}:")
        assert f"在电视的浏览器中输入：{url}\n" in lines
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        status, _, body = request((host, int(port)), "GET", "/")
        assert status == 200 and "参赛名单" in body.decode("utf-8")
    finally:
        code, _, err = stop(proc)
    assert code == 0 and "Traceback" not in err


# --- who is answered, and how many at once (a Host not ours → 421, at most 512 connections, slow clients time out) ---


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}", "127.0.0.1", "localhost"])
def test_a_request_naming_this_server_is_answered(tmp_path, serve, host):
    start_event(tmp_path, teams=4)
    address = serve(tmp_path)
    status, _, body = request(address, "GET", "/", {"Host": host.format(port=address[1])})
    assert status == 200 and "参赛名单" in body.decode("utf-8")


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:{other}", "localhost.evil.example",
                                  "127.0.0.1.nip.io:{port}", "", "[::1]:{port}"])
@pytest.mark.parametrize("method", ["GET", "HEAD", "POST"])
def test_any_other_host_is_421_in_chinese(tmp_path, serve, host, method):
    """A page from elsewhere whose name was pointed at 127.0.0.1 (DNS rebinding) gets nothing of the event."""
    start_event(tmp_path, teams=4)
    address = serve(tmp_path)
    status, _, body = request(address, method, "/board.json", {"Host": host.format(port=address[1],
                                                                                   other=address[1] + 1)})
    text = body.decode("utf-8")
    assert status == 421 and "参赛名单" not in text and "views" not in text
    assert method == "HEAD" or "这个网址不是场地大屏的地址" in text


def test_a_request_without_host_is_421(tmp_path, serve):
    start_event(tmp_path, teams=4)
    with socket.create_connection(serve(tmp_path), timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.0\r\n\r\n")
        assert read_all(sock).startswith(b"HTTP/1.0 421 ")


def test_the_documented_limits_are_the_ones_in_force():
    limits = (Path(__file__).resolve().parents[1] / "docs" / "limits.md").read_text(encoding="utf-8")
    assert f"| 同时打开的连接 | {display_server.MAX_CONNECTIONS} 个" in limits
    assert f"| 发来一个请求的时间 | {display_server.READ_SECONDS:g} 秒 |" in limits
    assert "场地大屏此刻的连接太多，请稍后再打开" in display_server.BUSY_TEXT.decode("utf-8")
    assert display_server.MESSAGES[HTTPStatus.MISDIRECTED_REQUEST][0] in limits


def test_the_host_rule():
    names = {"localhost", "127.0.0.1", "192.168.1.20"}
    assert host_allowed("192.168.1.20:8000", names, 8000) and host_allowed("Localhost", names, 8000)
    assert not host_allowed("192.168.1.20:8001", names, 8000) and not host_allowed("192.168.1.21:8000", names, 8000)
    assert not host_allowed(None, names, 8000) and not host_allowed("localhost:", names, 8000)
    assert not host_allowed("localhost:8000:8000", names, 8000) and not host_allowed("user@localhost", names, 8000)


def read_all(sock: socket.socket) -> bytes:
    """Everything until the server closes (or resets) the connection; the socket's timeout bounds each wait."""
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def wait_for(condition, what: str, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        time.sleep(0.02)
    raise AssertionError(f"not so after {seconds} s: {what}")


def test_connections_over_the_cap_are_refused_at_once_without_a_thread(tmp_path, serve):
    start_event(tmp_path, teams=4)
    address = serve(tmp_path, max_connections=8, timeout=60)
    server = serve.last
    threads = threading.active_count()
    idle = [socket.create_connection(address, timeout=10) for _ in range(8)]
    try:
        wait_for(lambda: server.active == 8, "eight connections held")
        extra = [socket.create_connection(address, timeout=10) for _ in range(20)]
        for sock in extra:  # each is answered 503 and closed at once: no thread waits 60 s for its request
            with sock:
                answer = read_all(sock)
                assert answer.startswith(b"HTTP/1.0 503 ") and "连接太多" in answer.decode("utf-8")
        assert server.active == 8 and threading.active_count() <= threads + 8
        status, _, body = request(address, "GET", "/")  # a TV now: refused too, plainly, while the idle ones hold
        assert status == 503 and "请稍后再打开" in body.decode("utf-8")
    finally:
        for sock in idle:
            sock.close()
    wait_for(lambda: server.active == 0, "the idle connections' threads ended")
    assert request(address, "GET", "/")[0] == 200


def test_an_idle_connection_is_dropped_after_the_timeout(tmp_path, serve):
    start_event(tmp_path, teams=4)
    address = serve(tmp_path, timeout=0.5)
    with socket.create_connection(address, timeout=10) as sock:  # says nothing
        assert read_all(sock) == b""  # closed by the server, long before our own 10 s
    wait_for(lambda: serve.last.active == 0, "its thread ended")


def test_a_client_sending_its_request_slowly_is_dropped_at_the_deadline(tmp_path, serve):
    """One byte every 0.2 s never leaves a read waiting the whole timeout, yet the request has 1 s in all."""
    start_event(tmp_path, teams=4)
    address = serve(tmp_path, timeout=1.0)
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\nX-Slow: ")
        closed = False
        for _ in range(50):  # 10 s of dripping at most
            if select.select([sock], [], [], 0.2)[0]:
                closed = True
                break
            try:
                sock.sendall(b"a")
            except OSError:
                closed = True
                break
        assert closed and not read_all(sock).startswith(b"HTTP/1.0 200")


def test_an_idle_server_flooded_past_its_file_limit_stays_idle_and_answers(tmp_path):
    """The server given 64 open files and 100 idle connections: those over what it can hold are refused at once, it
    does not spin on a listening socket it cannot accept from (what 1,026 connections did), and the page is still
    served once the idle ones go."""
    if not Path("/proc/self/stat").exists() or os.name != "posix":
        pytest.skip("reads the server's CPU time from /proc (Linux)")
    played_rounds(tmp_path, teams=6, rounds=1)
    proc, url, _ = start_show(tmp_path, file_limit=64)
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    address = (host, int(port))
    socks = []
    try:
        socks = [socket.create_connection(address, timeout=10) for _ in range(100)]
        answered = lambda: sum(1 for s in socks if select.select([s], [], [], 0)[0])  # noqa: E731
        wait_for(lambda: answered() >= 100 - 64, "the connections it cannot hold refused")
        before = cpu_seconds(proc.pid)
        time.sleep(1.0)
        assert cpu_seconds(proc.pid) - before < 0.25  # a busy loop takes the whole second
        for sock in socks:
            sock.close()
        socks = []
        wait_for(lambda: request(address, "GET", "/")[0] == 200, "the page answered again")
    finally:
        for sock in socks:
            sock.close()
        code, _, err = stop(proc)
    assert code == 0 and "Traceback" not in err


# --- what the page says when the folder changes ---


def board_views(address) -> str:
    return json.loads(request(address, "GET", "/board.json")[2])["views"]


def undated(views: str) -> str:
    """The views without the time of day they show (`dated="HH:MM"`)."""
    return re.sub(r'dated="[^"]*"', 'dated=""', views)


def test_changes_are_seen_whatever_the_files_clock_says(tmp_path, serve):
    """A round file saved with a clock a day ahead (a USB stick, a share) does not freeze the page; a second save
    with the very same future mtime is seen by its size and inode; an older copy put back is seen too."""
    rng = played_rounds(tmp_path, teams=6, rounds=1)
    path = round_path(tmp_path, 2)
    unplayed = path.read_bytes()
    address = serve(tmp_path)
    future = time.time_ns() + 86_400 * 10**9
    os.utime(path, ns=(future, future))
    assert re.search(r'data-title="第2轮[^"]* 对阵"', board_views(address))
    play(tmp_path, 2, rng)
    os.utime(path, ns=(future, future))
    assert re.search(r'data-title="第2轮[^"]* 成绩"', board_views(address))
    path.write_bytes(unplayed)  # the unplayed copy back in place, with an old date
    os.utime(path, ns=(10**18, 10**18))
    views = board_views(address)
    assert re.search(r'data-title="第2轮[^"]* 对阵"', views) and not re.search(r'data-title="第2轮[^"]* 成绩"', views)


def test_the_folder_is_read_once_it_has_been_quiet_by_the_servers_clock():
    """Pure: a new fingerprint is read once it has stayed the same for `settle` seconds, mtimes aside."""
    a = (FileState("round-1.xlsx", 10, 5, 1),)
    b = (FileState("round-1.xlsx", 12, 5, 2),)
    c = (FileState("round-1.xlsx", 12, 99 * 10**18, 2),)  # mtime far in the future
    watch = Watch(a)
    assert watch.observe(a, 100.0, 1.0) == (Watch(a), False)
    watch, due = watch.observe(b, 100.0, 1.0)
    assert not due
    watch, due = watch.observe(c, 100.5, 1.0)  # changed again: the quiet time starts again
    assert not due
    watch, due = watch.observe(c, 101.2, 1.0)
    assert not due
    assert watch.observe(c, 101.5, 1.0) == (Watch(c), True)
    assert Watch(a).observe(b, 7.0, 0.0) == (Watch(b), True)
    assert Watch(a).observe(b, 7.0, 1.0, settled=True) == (Watch(b), True)  # its mtimes say: written a while ago


def test_a_file_written_long_ago_is_read_at_once_and_one_from_the_future_after_the_quiet_time(tmp_path, readings):
    rng = played_rounds(tmp_path, teams=6, rounds=1)
    path = round_path(tmp_path, 2)
    now = [0.0]
    source = BoardSource(tmp_path, log=lambda line: None, settle=5.0, clock=lambda: now[0])
    first = source.current()
    play(tmp_path, 2, rng)
    future = time.time_ns() + 86_400 * 10**9
    os.utime(path, ns=(future, future))
    assert source.current().version == first.version and len(readings) == 1  # a day ahead: wait the quiet time
    now[0] = 4.9
    assert source.current().version == first.version and len(readings) == 1
    now[0] = 5.0
    played = source.current()
    assert len(readings) == 2
    assert re.search(r'data-title="第2轮[^"]* 成绩"', played.views)
    past = time.time_ns() - 60 * 10**9
    for written in tmp_path.iterdir():  # every file a minute old by its own date (the round an older copy put back)
        os.utime(written, ns=(past, past))
    source.current()
    assert len(readings) == 3  # read at once: the quiet time is over by the files' dates


def test_a_round_file_that_disappears_is_said_on_the_page(tmp_path, serve):
    """round-2.xlsx moved away: the page keeps round 2's draw and says which file is missing, instead of quietly
    showing round 1 as the current round; put back, the notice goes."""
    folder = tmp_path / "event"
    played_rounds(folder, teams=6, rounds=1)
    address = serve(folder)
    before = board_views(address)
    assert re.search(r'data-title="第2轮[^"]* 对阵"', before)
    (folder / "round-2.xlsx").rename(tmp_path / "round-2.xlsx")
    views = board_views(address)
    assert "找不到第2轮记分表 round-2.xlsx" in views and "被删除或移走" in views and "放回活动文件夹" in views
    assert before in views  # the draw last read, under the notice
    (tmp_path / "round-2.xlsx").rename(folder / "round-2.xlsx")
    assert undated(board_views(address)) == undated(before)  # (the time of day shown may pass a minute meanwhile)


def test_a_deleted_round_file_is_said_in_the_organisers_window_too(tmp_path):
    played_rounds(tmp_path, teams=6, rounds=2)
    lines: list[str] = []
    source = BoardSource(tmp_path, log=lines.append, settle=0.0)
    source.current()
    (tmp_path / "round-2.xlsx").unlink()
    (tmp_path / "round-3.xlsx").unlink()
    assert "找不到第2轮记分表 round-2.xlsx、第3轮记分表 round-3.xlsx" in source.current().views
    assert any("重新运行 shuangsheng show" in line for line in lines)


def test_a_file_gone_for_a_moment_is_not_said(tmp_path, readings):
    """Excel saves by moving the old file aside and the new one in: a request in between sees no round-2.xlsx. Its
    absence is said only once it has lasted the quiet time by the server's clock (the file has no date to go by)."""
    played_rounds(tmp_path, teams=6, rounds=1)
    past = time.time_ns() - 60 * 10**9
    for written in tmp_path.iterdir():
        os.utime(written, ns=(past, past))
    now = [0.0]
    source = BoardSource(tmp_path, log=lambda line: None, settle=1.0, clock=lambda: now[0])
    first = source.current()
    aside = tmp_path / "~$round-2.tmp"
    (tmp_path / "round-2.xlsx").rename(aside)
    assert source.current().views == first.views and len(readings) == 1
    aside.rename(tmp_path / "round-2.xlsx")
    now[0] = 0.5
    assert source.current().views == first.views and len(readings) == 1  # back as it was: nothing read or said
    (tmp_path / "round-2.xlsx").rename(aside)
    now[0] = 1.0
    assert source.current().views == first.views and len(readings) == 1
    now[0] = 2.0
    assert "找不到第2轮记分表 round-2.xlsx" in source.current().views


def test_problems_are_counted_by_record_not_by_line():
    record = Problem.of_cell("round-1.xlsx", "第1桌", Cell(9, 4), "得分应为5的倍数\n实际为83")
    assert problems_of(WorkbookError([record, record])) == (str(record), str(record))


def test_the_date_header_made_once_a_second_is_the_standard_one():
    from http.server import BaseHTTPRequestHandler

    from shuangsheng.hall.server import http_date

    assert http_date(784111777) == "Sun, 06 Nov 1994 08:49:37 GMT"  # RFC 9110's example
    assert http_date(784111777) == BaseHTTPRequestHandler.date_time_string(None, 784111777)  # type: ignore[arg-type]
