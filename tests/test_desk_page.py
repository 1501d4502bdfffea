"""The desk page's route in `serve` (shuangsheng/hall/hall.py): /desk answered to the PC itself (127.0.0.1, or the LAN address
the hall listens on, opened on the PC); to another device a Chinese 403 saying where to open it, unless `[serve]
desk_lan = true`. The requests are real: the hall also listens on this machine's LAN address and is asked from
there; another device is that address with the hall told it listens on 127.0.0.1 only."""

from __future__ import annotations

import http.client

import pytest

from shuangsheng.hall import hall
from shuangsheng.hall.lan import lan_address
from shuangsheng.render.desk_page import desk_page
from tests.events import played_rounds
from tests.helpers import ROOT

LAN = lan_address()


@pytest.fixture
def serving(tmp_path):
    folder = tmp_path / "event"
    played_rounds(folder, teams=8, rounds=0)  # start_event, then round 1 drawn
    started = []

    def start(hosts: list[str], bound: list[str] | None = None, **options) -> int:
        server = hall.make_hall(folder, hosts, 0, log=lambda line: None, settle=0.0, **options)
        if bound is not None:  # the hall told it listens only there: the others stand for other devices
            server.desk.bound = tuple(bound)
        server.start()
        started.append(server)
        return server.port

    yield start
    for server in started:
        server.stop()


def get(host: str, port: int, path: str, *, method: str = "GET",
        headers: dict | None = None) -> tuple[int, dict, str]:
    conn = http.client.HTTPConnection(host, port, timeout=10, source_address=(host, 0))
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode("utf-8")
    finally:
        conn.close()


def test_the_desk_page_is_served_to_the_pc_itself(serving):
    port = serving(["127.0.0.1"])
    status, headers, body = get("127.0.0.1", port, "/desk")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert body == desk_page().decode("utf-8")
    assert "<title>裁判台</title>" in body and "X-Desk-PIN" in body
    assert "default-src 'none'" in headers["Content-Security-Policy"]  # nothing loaded from outside
    assert "http://" not in body and "https://" not in body
    assert get("127.0.0.1", port, "/desk", method="HEAD")[0] == 200


@pytest.mark.skipif(LAN is None, reason="this machine has no LAN address to ask from")
def test_the_pc_opening_its_own_lan_address_gets_the_desk_behind_the_pin(serving):
    """`serve --lan` on this PC: the organiser types the LAN address it printed into the PC's own browser. The
    request comes from that address, one the hall listens on: the PC itself (the API still asks for the PIN)."""
    port = serving(["127.0.0.1", LAN], pin="246810")
    status, headers, body = get(LAN, port, "/desk")
    assert status == 200 and body == desk_page().decode("utf-8")
    assert get(LAN, port, "/api/desk")[0] == 401
    assert get(LAN, port, "/api/desk", headers={"X-Desk-PIN": "246810"})[0] == 200


@pytest.mark.skipif(LAN is None, reason="this machine has no LAN address to ask from")
def test_from_another_device_the_desk_page_is_403_unless_desk_lan(serving):
    """Another device: an address the hall does not listen on. Here the LAN address stands for one, the hall being
    told it listens only on 127.0.0.1."""
    port = serving(["127.0.0.1", LAN], bound=["127.0.0.1"])
    status, headers, body = get(LAN, port, "/desk")
    assert status == 403 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert "裁判台只能在运行 shuangsheng serve 的电脑上打开" in body and "desk_lan = true" in body
    status, _, body = get(LAN, port, "/api/desk", headers={"X-Desk-PIN": "246810"})
    assert status == 403 and "desk_lan = true" in body
    assert get(LAN, port, "/")[0] == 200  # the TV is for everyone
    assert get("127.0.0.1", port, "/desk")[0] == 200
    port = serving(["127.0.0.1", LAN], desk_lan=True, bound=["127.0.0.1"])
    assert get(LAN, port, "/desk")[0] == 200


def test_the_hall_guide_names_the_desk_pages_words_as_they_are():
    from shuangsheng.render.templates import read

    guide = (ROOT / "docs" / "hall-setup.md").read_text(encoding="utf-8")
    desk = read("desk.html.j2")
    for word in ["/desk", "开始计时", "暂停", "继续", "原因", "加时", "重新开放", "代甲方确认", "代乙方确认", "已确认",
                 "连不上服务器", "分钟前"]:
        assert word in guide and word in desk, word
    assert "时间到：打完这一局，录入后按“结束”" in read("table.html.j2")
