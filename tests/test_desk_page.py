"""The desk page's route in `serve` (display/hall.py): /desk answered to the PC itself; from another address a
Chinese 403 saying where to open it, unless event.toml's `[serve] desk_lan = true`. The other address is real: a
connection from 127.0.0.2, which Linux's loopback accepts, to the hall on 127.0.0.1."""

from __future__ import annotations

import http.client
import socket

import pytest

from display import hall
from display.desk_page import desk_page
from tests.events import draw, start_event
from tests.helpers import ROOT


@pytest.fixture
def served(tmp_path):
    folder = tmp_path / "event"
    draw(folder, start_event(folder, teams=8))
    server = hall.make_hall(folder, ["127.0.0.1"], 0, log=lambda line: None, settle=0.0)
    server.start()
    yield folder, server.port
    server.stop()


def get(port: int, path: str, *, source: str = "127.0.0.1", method: str = "GET") -> tuple[int, dict, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        conn.request(method, path)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode("utf-8")
    finally:
        conn.close()


def other_address_works() -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.2", 0))
        except OSError:
            return False
    return True


def test_the_desk_page_is_served_to_the_pc_itself(served):
    _, port = served
    status, headers, body = get(port, "/desk")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert body == desk_page().decode("utf-8")
    assert "<title>裁判台</title>" in body and "X-Desk-PIN" in body
    assert "default-src 'none'" in headers["Content-Security-Policy"]  # nothing loaded from outside
    assert "http://" not in body and "https://" not in body
    assert get(port, "/desk", method="HEAD")[:2][0] == 200


@pytest.mark.skipif(not other_address_works(), reason="this system's loopback has only 127.0.0.1")
def test_from_another_address_the_desk_page_is_403_unless_desk_lan(served):
    folder, port = served
    status, headers, body = get(port, "/desk", source="127.0.0.2")
    assert status == 403 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert "裁判台只能在运行 shuangsheng serve 的电脑上打开" in body and "desk_lan = true" in body
    assert get(port, "/", source="127.0.0.2")[0] == 200  # the TV is for everyone
    toml = folder / "event.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("desk_lan = false", "desk_lan = true"), encoding="utf-8")
    assert get(port, "/desk", source="127.0.0.2")[0] == 200


@pytest.mark.parametrize(("address", "desk_lan", "allowed"), [
    ("127.0.0.1", False, True), ("::1", False, True), ("::ffff:127.0.0.1", False, True),
    ("192.168.1.31", False, False), ("127.0.0.2", False, False), ("192.168.1.31", True, True),
])
def test_desk_allowed(address, desk_lan, allowed):
    assert hall.desk_allowed(address, desk_lan) is allowed


def test_the_hall_guide_names_the_desk_pages_words_as_they_are():
    from templates import read

    guide = (ROOT / "docs" / "hall-setup.md").read_text(encoding="utf-8")
    desk = read("desk.html.j2")
    for word in ["/desk", "开始计时", "暂停", "继续", "原因", "加时", "重新开放", "代甲方确认", "代乙方确认", "已确认",
                 "连不上服务器", "分钟前"]:
        assert word in guide and word in desk, word
    assert "时间到：打完这一局，录入后按“结束”" in read("table.html.j2")
