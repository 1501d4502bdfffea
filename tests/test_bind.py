"""How the hall binds its port (issue 32): on Windows with SO_EXCLUSIVEADDRUSE and not SO_REUSEADDR, so a second
start is refused instead of sharing the port; and a bind refused for a port in use — EADDRINUSE, or EACCES as
Windows (and Wine) raise it, a PermissionError — said as "端口已被占用", never as a file locked by Excel."""

from __future__ import annotations

import errno
import socket

import pytest

from shuangsheng.cli import venue
from shuangsheng.hall import hall, server
from tests.events import new_event
from tests.helpers import cli

EXCLUSIVE = -5  # Windows' SO_EXCLUSIVEADDRUSE is ~SO_REUSEADDR, i.e. -5


class FakeSocket:
    """A listening socket that records what is asked of it and binds nothing."""

    made: list[FakeSocket] = []

    def __init__(self, family=socket.AF_INET, kind=socket.SOCK_STREAM, *args):  # type: ignore[no-untyped-def]
        self.calls: list[tuple] = []
        FakeSocket.made.append(self)

    def setsockopt(self, level, option, value) -> None:  # type: ignore[no-untyped-def]
        self.calls.append(("setsockopt", level, option, value))

    def bind(self, address) -> None:  # type: ignore[no-untyped-def]
        self.calls.append(("bind", address))
        self.address = address

    def listen(self, backlog) -> None:  # type: ignore[no-untyped-def]
        self.calls.append(("listen", backlog))

    def getsockname(self):  # type: ignore[no-untyped-def]
        return self.address

    def close(self) -> None:
        self.calls.append(("close",))


@pytest.fixture
def fake_sockets(monkeypatch):  # type: ignore[no-untyped-def]
    FakeSocket.made = []
    monkeypatch.setattr(socket, "socket", FakeSocket)
    monkeypatch.setattr(socket, "getfqdn", lambda host="": "localhost")
    return FakeSocket.made


def _options(sock: FakeSocket) -> list[tuple]:
    return [call[1:] for call in sock.calls if call[0] == "setsockopt"]


def test_where_windows_offers_it_the_port_is_bound_exclusively(tmp_path, monkeypatch, fake_sockets):
    monkeypatch.setattr(socket, "SO_EXCLUSIVEADDRUSE", EXCLUSIVE, raising=False)
    server.make_server(tmp_path, "127.0.0.1", 8000, log=lambda line: None)
    (sock,) = fake_sockets
    assert _options(sock) == [(socket.SOL_SOCKET, EXCLUSIVE, 1)]  # and no SO_REUSEADDR
    assert [call[0] for call in sock.calls] == ["setsockopt", "bind", "listen"]  # set before the bind


def test_every_address_of_the_hall_is_bound_exclusively(tmp_path, monkeypatch, fake_sockets):
    monkeypatch.setattr(socket, "SO_EXCLUSIVEADDRUSE", EXCLUSIVE, raising=False)
    folder = new_event(tmp_path / "ev", teams=4)
    hall.make_hall(folder, ["127.0.0.1", "192.0.2.10"], 8000, log=lambda line: None, pin="123456")
    assert len(fake_sockets) == 2
    for sock in fake_sockets:
        assert _options(sock) == [(socket.SOL_SOCKET, EXCLUSIVE, 1)]


def test_elsewhere_the_port_is_bound_with_reuse_as_before(tmp_path, monkeypatch, fake_sockets):
    monkeypatch.delattr(socket, "SO_EXCLUSIVEADDRUSE", raising=False)
    server.make_server(tmp_path, "127.0.0.1", 8000, log=lambda line: None)
    (sock,) = fake_sockets
    assert _options(sock) == [(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)]


@pytest.mark.parametrize("refusal", [
    OSError(errno.EADDRINUSE, "Address already in use"),
    PermissionError(errno.EACCES, "Permission denied"),
    OSError(10013, "An attempt was made to access a socket in a way forbidden by its access permissions"),
    OSError(10048, "Only one usage of each socket address is normally permitted"),
])
def test_in_use_and_access_denied_both_mean_the_port_is_taken(refusal):
    assert venue.port_taken(refusal)


@pytest.mark.parametrize("refusal", [OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address"), OSError()])
def test_other_refusals_are_not_a_port_in_use(refusal):
    assert not venue.port_taken(refusal)


def _refuse(exc: OSError):  # type: ignore[no-untyped-def]
    def bind(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise exc
    return bind


def test_serve_refused_access_to_the_port_says_in_use_not_excel(tmp_path, monkeypatch):
    folder = new_event(tmp_path / "ev", teams=4)
    monkeypatch.setattr(hall, "make_hall", _refuse(PermissionError(errno.EACCES, "Permission denied")))
    output = cli("serve", folder, "--port", 8123, code=1).output
    assert "无法在 8123 端口上启动（端口已被占用）；请换一个端口，如 --port 8124" in output
    assert "Excel" not in output and "锁定" not in output


def test_show_refused_access_to_the_port_says_in_use_not_excel(tmp_path, monkeypatch):
    folder = new_event(tmp_path / "ev", teams=4)
    monkeypatch.setattr(server, "make_server", _refuse(PermissionError(errno.EACCES, "Permission denied")))
    output = cli("show", folder, "--port", 8123, code=1).output
    assert "无法在 127.0.0.1:8123 上启动网页（端口已被占用）" in output
    assert "Excel" not in output and "锁定" not in output


def test_an_address_not_this_pcs_is_said_without_the_file_wording(tmp_path, monkeypatch):
    folder = new_event(tmp_path / "ev", teams=4)
    monkeypatch.setattr(hall, "make_hall", _refuse(OSError(errno.EADDRNOTAVAIL, "Cannot assign requested address")))
    output = cli("serve", folder, "--port", 8123, "--address", "192.0.2.1", code=1).output
    assert "这个地址不是这台电脑的" in output and "无法读取" not in output
