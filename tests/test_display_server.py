"""display.server and `shuangsheng show`: read-only, nothing but its own two resources, calm notices, the export,
Ctrl+C. (What the page looks like in a browser is tests/browser/.)"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from display import server as display_server
from display.server import BoardSource, make_server
from tests.events import finished, played_rounds, start_event
from tests.show_process import start_show, stop


def folder_digest(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture
def serve():
    """serve(folder) → (host, port) of a display server running in a thread; stopped after the test."""
    running = []

    def start(folder: Path, *, settle: float = 0.0):
        httpd = make_server(folder, "127.0.0.1", 0, log=lambda line: None)
        httpd.RequestHandlerClass.source.settle = settle
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        running.append((httpd, thread))
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
    assert status == 200 and set(doc) == {"version", "title", "views"} and headers["ETag"] == f'"{doc["version"]}"'
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
    before = folder_digest(tmp_path)
    address = serve(tmp_path)
    for path in ("/", "/board.json", "/round-1.xlsx", "/event.toml"):
        status, headers, body = request(address, method, path, body=b"x=1")
        assert status == 405 and headers["Allow"] == "GET, HEAD"
        assert "只能查看，不能修改" in body.decode("utf-8")
    assert folder_digest(tmp_path) == before


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
    assert status == 200 and "暂时无法读取活动文件夹" in views and 'class="view' not in views


def test_an_unexpected_failure_is_a_calm_page_not_a_traceback(tmp_path, serve, monkeypatch, capsys):
    start_event(tmp_path, teams=4)

    def broken(folder):
        raise RuntimeError("boom")

    monkeypatch.setattr(display_server, "load_board", broken)
    status, _, body = request(serve(tmp_path), "GET", "/")
    text = body.decode("utf-8")
    assert status == 500 and "大屏暂时出了点问题" in text and "boom" not in text and "Traceback" not in text
    assert "RuntimeError: boom" in capsys.readouterr().err  # the organiser's window says why


def test_the_folder_is_read_again_only_when_it_changed_and_settled(tmp_path):
    rng = played_rounds(tmp_path, teams=6, rounds=1)
    source = BoardSource(tmp_path, log=lambda line: None, settle=0.5)
    first = source.current()
    assert source.current() is first  # nothing changed: the same snapshot, no reading
    from tests.events import play

    play(tmp_path, 2, rng)
    assert source.current() is first  # just written: left alone for a moment
    time.sleep(0.6)
    second = source.current()
    assert second.version != first.version and re.search(r"data-title=\"第2轮[^\"]* 成绩\"", second.views)


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


@pytest.mark.skipif(display_server.lan_address() is None, reason="this machine has no LAN address to bind")
@pytest.mark.skipif(os.name == "nt", reason="SIGINT to a child process is POSIX")
def test_lan_binds_the_lan_address_and_says_what_to_type_into_the_tv(tmp_path):
    start_event(tmp_path, teams=4)
    lan = display_server.lan_address()
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
